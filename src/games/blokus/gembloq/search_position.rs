//! The GembloQ position the search plays on: the rules of [`super::position::Position`] with
//! each colour's attach points kept as pieces are placed, so that a playout move is drawn
//! through a random attach point and piece instead of from a list of every legal move. What
//! stops fitting never fits again (triangles are only ever taken), so an attach point taken or
//! beside its colour is dropped when next drawn, and an attach point and piece with no
//! placement that fits are marked and not tried again.

use super::placements::{PIECES, Placements, ROWS};
use super::position::Position;
use super::variant::GembloqVariant;
use crate::games::blokus::rng::Rng;
use std::sync::Arc;

/// Most colours.
const COLOURS: usize = 4;
/// Moves a playout move draws through the colour's attach points; the best of them by
/// [`playout_weight`] (and of those drawn through local points) is played.
const DRAWS: usize = 4;
/// Moves a playout move tries to draw through local points (see
/// [`SearchPosition::playout_local`]).
const LOCAL_DRAWS: usize = 4;
/// Draws that may fail before a playout move searches the colour's moves out in order
/// ([`SearchPosition::any_move`]).
const MISSES: usize = 24;
/// Weight of a unit of local value of a playout move's triangles (answering another player's
/// last move, as the reference engine's playouts prefer; see
/// [`SearchPosition::playout_local`]).
const LOCAL: u32 = 64;

/// The legal moves of a search's root position, by colour, attach point and piece: the
/// search's positions all follow it, so a placement that did not fit there never fits later.
struct RootMoves {
    /// Per colour: its legal moves.
    moves: Vec<Vec<u32>>,
    /// Per triangle, bit `c`: an attach point of colour `c`.
    attach: Vec<u8>,
    /// Per colour: where the moves of each attach point and piece (`triangle * PIECES +
    /// piece`) start in `through` (one more entry at the end; empty for a colour that had
    /// placed nothing).
    starts: Vec<Vec<u32>>,
    /// Per colour: its moves through each attach point, by attach point and piece.
    through: Vec<Vec<u32>>,
}

impl RootMoves {
    /// Colour `c`'s moves of piece `k` through triangle `a`, an attach point of `c`.
    #[inline]
    fn through(&self, c: usize, a: u16, k: usize) -> &[u32] {
        let i = a as usize * PIECES + k;
        let starts = &self.starts[c];
        &self.through[c][starts[i] as usize..starts[i + 1] as usize]
    }
}

/// A position with its attach points.
pub struct SearchPosition {
    variant: GembloqVariant,
    p: &'static Placements,
    /// Per triangle, bit `c`: colour `c` may not cover it.
    forbidden: Vec<u8>,
    /// The same by rows: colour `c`'s row `y` at `c * stride + y`, bit `x` for column `x`
    /// (with [`ROWS`] empty rows above the board, so that a placement's masks read in bounds).
    blocked: Vec<u64>,
    /// Rows a colour takes in `blocked`.
    stride: usize,
    /// Per triangle, bit `c`: it touches colour `c` at a corner.
    corner: Vec<u8>,
    /// Per colour, bit `k`: the colour still has piece `k`.
    left: [u32; COLOURS],
    /// Per colour: triangles covered.
    quarters: [i32; COLOURS],
    /// Per colour: its attach points (some may be taken since).
    attach: [Vec<u16>; COLOURS],
    /// Per colour and triangle, bit `k`: no placement of piece `k` through the triangle fits
    /// the colour any more.
    dead: Vec<u32>,
    /// Per colour that has placed nothing: its first moves (some may no longer fit).
    first: [Vec<u32>; COLOURS],
    /// Per colour: the attach points its last placement opened.
    recent: [Vec<u16>; COLOURS],
    /// The legal moves of the search's root (see [`SearchPosition::index_root`]).
    root: Option<Arc<RootMoves>>,
    /// Bit `c`: colour `c` has no move left.
    out: u8,
    /// The colour in turn.
    to_play: usize,
}

impl Clone for SearchPosition {
    fn clone(&self) -> SearchPosition {
        SearchPosition {
            variant: self.variant,
            p: self.p,
            forbidden: self.forbidden.clone(),
            blocked: self.blocked.clone(),
            stride: self.stride,
            corner: self.corner.clone(),
            left: self.left,
            quarters: self.quarters,
            attach: self.attach.clone(),
            dead: self.dead.clone(),
            first: self.first.clone(),
            recent: self.recent.clone(),
            root: self.root.clone(),
            out: self.out,
            to_play: self.to_play,
        }
    }

    /// A copy into this position's buffers (a simulation starts from the root without
    /// allocating).
    fn clone_from(&mut self, source: &SearchPosition) {
        self.variant = source.variant;
        self.p = source.p;
        self.forbidden.clone_from(&source.forbidden);
        self.blocked.clone_from(&source.blocked);
        self.stride = source.stride;
        self.corner.clone_from(&source.corner);
        self.left = source.left;
        self.quarters = source.quarters;
        for c in 0..COLOURS {
            self.attach[c].clone_from(&source.attach[c]);
            self.first[c].clone_from(&source.first[c]);
            self.recent[c].clone_from(&source.recent[c]);
        }
        self.dead.clone_from(&source.dead);
        self.root.clone_from(&source.root);
        self.out = source.out;
        self.to_play = source.to_play;
    }
}

impl SearchPosition {
    /// The search position of `pos` with colour `c` to play.
    pub fn new(pos: &Position, c: usize) -> SearchPosition {
        let p = pos.placements();
        let n = p.geo.npoints();
        let ncolours = pos.variant().ncolours();
        let stride = p.geo.height + ROWS;
        let mut s = SearchPosition {
            variant: pos.variant(),
            p,
            forbidden: vec![0; n],
            blocked: vec![0; stride * ncolours],
            stride,
            corner: vec![0; n],
            left: [0; COLOURS],
            quarters: [0; COLOURS],
            attach: Default::default(),
            dead: vec![0; n * ncolours],
            first: Default::default(),
            recent: Default::default(),
            root: None,
            out: 0,
            to_play: c,
        };
        for q in 0..n as u16 {
            for o in 0..ncolours {
                if !pos.is_free_for(o, q) {
                    s.forbidden[q as usize] |= 1 << o;
                    let (x, y) = p.geo.coords(q);
                    s.blocked[o * stride + y] |= 1 << x;
                }
                if pos.owner(q) == Some(o) {
                    for &d in p.geo.diag(q) {
                        s.corner[d as usize] |= 1 << o;
                    }
                }
            }
        }
        for o in 0..ncolours {
            s.quarters[o] = pos.quarters(o);
            s.left[o] = (0..PIECES)
                .filter(|&k| pos.has_piece(o, k))
                .fold(0, |bits, k| bits | 1 << k);
            if pos.is_first_piece(o) {
                s.first[o] = pos.legal(o);
            } else {
                s.attach[o] = pos.attach_points(o);
            }
        }
        s
    }

    /// The variant.
    pub fn variant(&self) -> GembloqVariant {
        self.variant
    }

    /// The placements of the board.
    pub fn placements(&self) -> &'static Placements {
        self.p
    }

    /// Whether colour `c` may cover triangle `q`.
    #[inline]
    pub fn is_free_for(&self, c: usize, q: u16) -> bool {
        self.forbidden[q as usize] >> c & 1 == 0
    }

    /// Whether triangle `q` is an attach point of colour `c`.
    #[inline]
    pub fn is_attach(&self, c: usize, q: u16) -> bool {
        self.corner[q as usize] >> c & 1 == 1 && self.is_free_for(c, q)
    }

    /// The colours that may not cover triangle `q`, bit `c` for colour `c`.
    #[inline]
    pub fn forbidden_mask(&self, q: u16) -> u8 {
        self.forbidden[q as usize]
    }

    /// The colours whose attach point triangle `q` is, bit `c` for colour `c`.
    #[inline]
    pub fn attach_mask(&self, q: u16) -> u8 {
        self.corner[q as usize] & !self.forbidden[q as usize]
    }

    /// Pieces colour `c` has placed.
    pub fn placed(&self, c: usize) -> usize {
        PIECES - self.left[c].count_ones() as usize
    }

    /// Colour `c`'s triangles covered.
    pub fn quarters(&self, c: usize) -> i32 {
        self.quarters[c]
    }

    /// Whether colour `c` may cover placement `m`'s triangles.
    #[inline]
    fn fits_points(&self, c: usize, m: u32) -> bool {
        let (low, masks) = self.p.rows(m);
        let from = c * self.stride + low;
        let Some(rows) = self.blocked.get(from..from + ROWS) else {
            return false;
        };
        (rows.iter().zip(masks)).fold(0, |hit, (r, m)| hit | r & m) == 0
    }

    /// Whether colour `c` still has placement `m`'s piece and may cover its triangles.
    #[inline]
    fn first_fits(&self, c: usize, m: u32) -> bool {
        self.left[c] >> self.p.piece(m) & 1 == 1 && self.fits_points(c, m)
    }

    /// The pieces colour `c` may still place through attach point `a`.
    #[inline]
    fn live(&self, c: usize, a: u16) -> u32 {
        self.left[c] & !self.dead[c * self.p.geo.npoints() + a as usize]
    }

    /// Marks piece `k` dead for colour `c` at triangle `a`.
    #[inline]
    fn kill(&mut self, c: usize, a: u16, k: usize) {
        self.dead[c * self.p.geo.npoints() + a as usize] |= 1 << k;
    }

    /// A placement of piece `k` through triangle `a` that fits colour `c`, the search
    /// starting at a random one of them (`None`: none fits, and the piece is marked dead
    /// there).
    fn fitting(&mut self, c: usize, a: u16, k: usize, rng: &mut Rng) -> Option<u32> {
        let list = match &self.root {
            Some(root) if root.attach[a as usize] >> c & 1 == 1 => root.through(c, a, k),
            _ => self.p.covering_piece(a, k),
        };
        let found = if list.is_empty() {
            None
        } else {
            let start = rng.below(list.len());
            (list[start..].iter().chain(&list[..start]))
                .copied()
                .find(|&m| self.fits_points(c, m))
        };
        if found.is_none() {
            self.kill(c, a, k);
        }
        found
    }

    /// Plays placement `m` (legal) for colour `c`; the next colour in order is in turn.
    pub fn play(&mut self, c: usize, m: u32) {
        let p = self.p;
        let bit = 1u8 << c;
        let points = p.points(m);
        for &q in points {
            self.forbidden[q as usize] = u8::MAX;
        }
        let (low, masks) = p.rows(m);
        for o in 0..self.variant.ncolours() {
            let rows = &mut self.blocked[o * self.stride + low..][..ROWS];
            for (row, mask) in rows.iter_mut().zip(masks) {
                *row |= mask;
            }
        }
        for &a in p.beside(m) {
            self.forbidden[a as usize] |= bit;
            let (x, y) = p.geo.coords(a);
            self.blocked[c * self.stride + y] |= 1 << x;
        }
        self.left[c] &= !(1 << p.piece(m));
        self.quarters[c] += points.len() as i32;
        self.first[c].clear();
        self.recent[c].clear();
        for &d in p.corners(m) {
            if self.corner[d as usize] & bit == 0 {
                self.corner[d as usize] |= bit;
                if self.is_free_for(c, d) {
                    self.recent[c].push(d);
                    self.attach[c].push(d);
                }
            }
        }
        self.to_play = (c + 1) % self.variant.ncolours();
    }

    /// A legal move of colour `c` found in order (dropping what no longer serves), if any.
    fn any_move(&mut self, c: usize, rng: &mut Rng) -> Option<u32> {
        if self.quarters[c] == 0 {
            let k = self.first[c].iter().position(|&m| self.first_fits(c, m))?;
            return Some(self.first[c][k]);
        }
        while let Some(&a) = self.attach[c].last() {
            let mut live = if self.is_free_for(c, a) {
                self.live(c, a)
            } else {
                0
            };
            while live != 0 {
                let k = live.trailing_zeros() as usize;
                live &= live - 1;
                if let Some(m) = self.fitting(c, a, k, rng) {
                    return Some(m);
                }
            }
            self.attach[c].pop();
        }
        None
    }

    /// Whether colour `c` has a legal move.
    fn has_moves(&mut self, c: usize, rng: &mut Rng) -> bool {
        if self.out >> c & 1 == 1 {
            return false;
        }
        if self.any_move(c, rng).is_some() {
            return true;
        }
        self.out |= 1 << c;
        false
    }

    /// The colour to move: the one in turn or the next in order with a legal move; `None`
    /// once the game is over. `rng` only orders the search for a move.
    pub fn next_mover(&mut self, rng: &mut Rng) -> Option<usize> {
        let (n, first) = (self.variant.ncolours(), self.to_play);
        (0..n)
            .map(|k| (first + k) % n)
            .find(|&c| self.has_moves(c, rng))
    }

    /// Colour `c`'s legal moves, in id order.
    pub fn legal(&mut self, c: usize) -> Vec<u32> {
        if self.quarters[c] == 0 {
            let mut out = self.first[c].clone();
            out.retain(|&m| self.first_fits(c, m));
            return out;
        }
        let mut out = Vec::new();
        let mut attach = std::mem::take(&mut self.attach[c]);
        attach.retain(|&a| {
            if !self.is_free_for(c, a) {
                return false;
            }
            let mut live = self.live(c, a);
            while live != 0 {
                let k = live.trailing_zeros() as usize;
                live &= live - 1;
                let before = out.len();
                for &m in self.p.covering_piece(a, k) {
                    if self.fits_points(c, m) {
                        out.push(m);
                    }
                }
                if out.len() == before {
                    self.kill(c, a, k);
                }
            }
            self.live(c, a) != 0
        });
        self.attach[c] = attach;
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Indexes this position's legal moves as the root of a search: the search's playouts
    /// then draw a colour's moves through an attach point of the root among those that
    /// fitted there, and [`SearchPosition::legal_from`] brings its lists up to date.
    pub fn index_root(&mut self) {
        let n = self.p.geo.npoints();
        let ncolours = self.variant.ncolours();
        let mut root = RootMoves {
            moves: Vec::new(),
            attach: vec![0; n],
            starts: vec![Vec::new(); ncolours],
            through: vec![Vec::new(); ncolours],
        };
        for c in 0..ncolours {
            let moves = self.legal(c);
            if self.quarters[c] > 0 {
                for &a in &self.attach[c] {
                    root.attach[a as usize] |= 1 << c;
                }
                let mut keyed: Vec<(u32, u32)> = Vec::new();
                for &m in &moves {
                    let k = self.p.piece(m) as u32;
                    for &q in self.p.points(m) {
                        if self.is_attach(c, q) {
                            keyed.push((u32::from(q) * PIECES as u32 + k, m));
                        }
                    }
                }
                keyed.sort_unstable();
                let starts = &mut root.starts[c];
                starts.resize(n * PIECES + 1, 0);
                for &(key, _) in &keyed {
                    starts[key as usize + 1] += 1;
                }
                for i in 0..n * PIECES {
                    starts[i + 1] += starts[i];
                }
                root.through[c] = keyed.into_iter().map(|(_, m)| m).collect();
            }
            root.moves.push(moves);
        }
        self.root = Some(Arc::new(root));
    }

    /// Colour `c`'s legal moves, brought up to date from those of `root` (indexed by
    /// [`SearchPosition::index_root`]), a position this one was reached from by `line`
    /// (colour, placement): those that still fit, and those through the attach points that
    /// `c`'s placements in `line` opened (every other legal move was legal in `root`).
    /// `mark` (a bit per placement, all clear) is scratch space, left clear.
    pub fn legal_from(
        &mut self,
        c: usize,
        root: &SearchPosition,
        line: &[(u8, u32)],
        mark: &mut [u64],
    ) -> Vec<u32> {
        let Some(indexed) = root.root.as_ref().filter(|_| self.quarters[c] > 0) else {
            return self.legal(c);
        };
        let mut out = Vec::new();
        if root.quarters[c] > 0 {
            let earlier = &indexed.moves[c];
            out.extend(earlier.iter().copied().filter(|&m| self.first_fits(c, m)));
        }
        for &m in &out {
            mark[m as usize / 64] |= 1 << (m % 64);
        }
        let mut opened: Vec<u16> = Vec::new();
        for &(_, placed) in line.iter().filter(|&&(o, _)| usize::from(o) == c) {
            for &a in self.p.corners(placed) {
                if root.corner[a as usize] >> c & 1 == 0
                    && self.is_attach(c, a)
                    && !opened.contains(&a)
                {
                    opened.push(a);
                    self.list_through(c, a, &mut out, mark);
                }
            }
        }
        for &m in &out {
            mark[m as usize / 64] &= !(1 << (m % 64));
        }
        out
    }

    /// Adds to `out` colour `c`'s placements through triangle `a` that fit and are not marked
    /// in `mark` (marking them); marks the pieces with none dead there.
    fn list_through(&mut self, c: usize, a: u16, out: &mut Vec<u32>, mark: &mut [u64]) {
        let mut live = self.live(c, a);
        while live != 0 {
            let k = live.trailing_zeros() as usize;
            live &= live - 1;
            let mut any = false;
            for &m in self.p.covering_piece(a, k) {
                if self.fits_points(c, m) {
                    any = true;
                    let (word, bit) = (m as usize / 64, 1u64 << (m % 64));
                    if mark[word] & bit == 0 {
                        mark[word] |= bit;
                        out.push(m);
                    }
                }
            }
            if !any {
                self.kill(c, a, k);
            }
        }
    }

    /// Colour `c`'s attach points as kept (some may be taken or dead since).
    pub fn attach_list(&self, c: usize) -> &[u16] {
        &self.attach[c]
    }

    /// Puts into `out` the local triangles for colour `c`: the attach points that the other
    /// players' colours opened with their last placements, where `c` may still play.
    pub fn local_points(&self, c: usize, out: &mut Vec<u16>) {
        out.clear();
        let v = self.variant;
        for o in (0..v.ncolours()).filter(|&o| v.player_of(o) != v.player_of(c)) {
            for &q in &self.recent[o] {
                if self.is_free_for(c, q) && self.is_free_for(o, q) {
                    out.push(q);
                }
            }
        }
    }

    /// Puts into `out` the local triangles of a playout move of colour `c`, and their values
    /// into `marks`: the attach points that the other players' colours opened with their last
    /// placements and the triangles beside them, where those colours and `c` may still play;
    /// 2 for one that is also `c`'s attach point, else 1 (the reference engine's playouts
    /// value moves by such points).
    fn playout_local(&self, c: usize, marks: &mut [u8], out: &mut Vec<u16>) {
        out.clear();
        let v = self.variant;
        let mut add = |q: u16, marks: &mut [u8]| {
            if self.is_free_for(c, q) && marks[q as usize] == 0 {
                marks[q as usize] = 1 + u8::from(self.is_attach(c, q));
                out.push(q);
            }
        };
        for o in (0..v.ncolours()).filter(|&o| v.player_of(o) != v.player_of(c)) {
            for &q in &self.recent[o] {
                if self.is_free_for(o, q) {
                    add(q, marks);
                    for &a in self.p.geo.adj(q) {
                        if self.is_free_for(o, a) {
                            add(a, marks);
                        }
                    }
                }
            }
        }
    }

    /// A random piece of `live` (not empty), the larger of two drawn.
    #[inline]
    fn draw_piece(live: u32, rng: &mut Rng) -> usize {
        let n = live.count_ones() as usize;
        let nth = |i: usize| {
            let mut bits = live;
            for _ in 0..i {
                bits &= bits - 1;
            }
            bits.trailing_zeros() as usize
        };
        nth(rng.below(n)).max(nth(rng.below(n)))
    }

    /// A move of colour `c` drawn through one of its attach points, if the draw found one.
    fn draw(&mut self, c: usize, rng: &mut Rng) -> Option<u32> {
        let i = rng.below(self.attach[c].len());
        let a = self.attach[c][i];
        let live = if self.is_free_for(c, a) {
            self.live(c, a)
        } else {
            0
        };
        if live == 0 {
            self.attach[c].swap_remove(i);
            return None;
        }
        let k = Self::draw_piece(live, rng);
        self.fitting(c, a, k, rng)
    }

    /// A move of colour `c` drawn through local point `q` that touches `c` at a corner, if
    /// the draw found one.
    fn draw_local(&self, c: usize, q: u16, rng: &mut Rng) -> Option<u32> {
        let live = self.left[c];
        if live == 0 {
            return None;
        }
        let k = Self::draw_piece(live, rng);
        let list = self.p.covering_piece(q, k);
        if list.is_empty() {
            return None;
        }
        let start = rng.below(list.len());
        (list[start..].iter().chain(&list[..start]))
            .copied()
            .find(|&m| {
                self.fits_points(c, m)
                    && (self.p.points(m).iter()).any(|&t| self.corner[t as usize] >> c & 1 == 1)
            })
    }

    /// A playout move of colour `c`: of a few moves drawn at random, the one of highest
    /// [`playout_weight`]; when the draws find none, one found in order by
    /// [`SearchPosition::any_move`] (`None`: the colour has no move left).
    fn playout_move(
        &mut self,
        c: usize,
        rng: &mut Rng,
        marks: &[u8],
        local: &[u16],
    ) -> Option<u32> {
        if self.quarters[c] == 0 {
            let live: Vec<u32> = (self.first[c].iter().copied())
                .filter(|&m| self.first_fits(c, m))
                .collect();
            return (!live.is_empty()).then(|| live[rng.below(live.len())]);
        }
        let mut best: Option<(u32, u32)> = None;
        let mut consider = |m: u32, s: &Self| {
            let w = playout_weight(s.p.points(m), marks);
            if best.is_none_or(|(bw, _)| w > bw) {
                best = Some((w, m));
            }
        };
        if !local.is_empty() {
            for _ in 0..LOCAL_DRAWS {
                let q = local[rng.below(local.len())];
                if let Some(m) = self.draw_local(c, q, rng) {
                    consider(m, self);
                }
            }
        }
        let (mut drawn, mut missed) = (0, 0);
        while drawn < DRAWS && missed < MISSES && !self.attach[c].is_empty() {
            match self.draw(c, rng) {
                Some(m) => {
                    drawn += 1;
                    consider(m, self);
                }
                None => missed += 1,
            }
        }
        best.map(|(_, m)| m).or_else(|| self.any_move(c, rng))
    }

    /// Plays the game to its end with playout moves, adding them to `played` (colour,
    /// placement); returns each player's result. `marks` (a value per triangle, all zero) and
    /// `local` are scratch space.
    pub fn playout(
        &mut self,
        rng: &mut Rng,
        marks: &mut [u8],
        local: &mut Vec<u16>,
        played: &mut Vec<(u8, u32)>,
    ) -> Vec<f32> {
        let n = self.variant.ncolours();
        let all = (1u8 << n) - 1;
        while self.out != all {
            let c = self.to_play;
            if self.out >> c & 1 == 1 {
                self.to_play = (c + 1) % n;
                continue;
            }
            self.playout_local(c, marks, local);
            let m = self.playout_move(c, rng, marks, local);
            for &q in local.iter() {
                marks[q as usize] = 0;
            }
            match m {
                Some(m) => {
                    played.push((c as u8, m));
                    self.play(c, m);
                }
                None => self.out |= 1 << c,
            }
        }
        self.results()
    }

    /// Each player's result of the position as a finished game: with two players 1 for a
    /// win, 0.5 for a draw, 0 for a loss; with more, the share of the other players it beats
    /// (a draw half). The search adds its quality bonuses (see [`SearchPosition::points`]).
    pub fn results(&self) -> Vec<f32> {
        let points = self.points();
        let n = points.len();
        let mut out = vec![0.0f32; n];
        for (i, r) in out.iter_mut().enumerate() {
            for (j, &o) in points.iter().enumerate() {
                if i != j {
                    *r += match points[i].cmp(&o) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                }
            }
            *r /= (n - 1) as f32;
        }
        out
    }

    /// Each player's points (triangles covered by its colours).
    pub fn points(&self) -> Vec<i32> {
        let v = self.variant;
        let mut points = vec![0i32; v.nplayers()];
        for c in 0..v.ncolours() {
            points[v.player_of(c)] += self.quarters[c];
        }
        points
    }

    /// Pieces on the board, all colours together.
    pub fn pieces_on_board(&self) -> usize {
        (0..self.variant.ncolours()).map(|c| self.placed(c)).sum()
    }
}

/// A playout move's weight: its triangles, and [`LOCAL`] times the local values of those on
/// local points.
#[inline]
fn playout_weight(points: &[u16], local: &[u8]) -> u32 {
    let near: u32 = points.iter().map(|&q| u32::from(local[q as usize])).sum();
    points.len() as u32 + LOCAL * near
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept candidate lists give the rules' legal moves along a seeded game.
    #[test]
    fn candidates_follow_the_rules() {
        let mut pos = Position::new(GembloqVariant::Two);
        let mut rng = Rng::new(3);
        let mut s = SearchPosition::new(&pos, 0);
        let mut moves = 0;
        while let Some(c) = pos.next_mover() {
            assert_eq!(s.next_mover(&mut rng), Some(c));
            let ours = s.legal(c);
            let rules = pos.legal(c);
            assert_eq!(ours, rules, "move {moves}");
            let m = rules[rng.below(rules.len())];
            pos.play(c, m);
            s.play(c, m);
            moves += 1;
        }
        assert_eq!(s.next_mover(&mut rng), None);
        assert!(moves > 20, "{moves}");
        assert_eq!(s.quarters(0), pos.quarters(0));
    }

    /// A playout plays legal moves and ends only when no colour has a move left (the draws
    /// failing take no colour out), from a few positions of a seeded game of four colours.
    #[test]
    fn a_playout_ends_when_no_colour_can_move() {
        let mut rng = Rng::new(11);
        let mut pos = Position::new(GembloqVariant::TwoFour);
        let p = pos.placements();
        let mut marks = vec![0u8; p.geo.npoints()];
        let (mut local, mut played) = (Vec::new(), Vec::new());
        for ply in 0..48 {
            let c = pos.next_mover().expect("moves left");
            if ply % 12 == 4 {
                let mut root = SearchPosition::new(&pos, c);
                root.index_root();
                for _ in 0..20 {
                    let mut s = root.clone();
                    played.clear();
                    s.playout(&mut rng, &mut marks, &mut local, &mut played);
                    let mut end = pos.clone();
                    for &(o, m) in &played {
                        assert!(end.check(usize::from(o), m).is_ok(), "ply {ply}");
                        end.play(usize::from(o), m);
                    }
                    assert_eq!(end.next_mover(), None, "ply {ply}");
                    for o in 0..4 {
                        assert_eq!(s.quarters(o), end.quarters(o), "ply {ply}");
                    }
                }
            }
            let moves = pos.legal(c);
            pos.play(c, moves[rng.below(moves.len())]);
        }
    }

    /// The legal moves brought up to date from an earlier position's are the rules' legal
    /// moves, for every colour along seeded lines from a few positions of a game.
    #[test]
    fn moves_brought_up_to_date_are_the_legal_moves() {
        let mut rng = Rng::new(5);
        let mut pos = Position::new(GembloqVariant::Two);
        let mut mark = vec![0u64; pos.placements().len().div_ceil(64)];
        let mut checked = 0;
        for start in 0..24 {
            let Some(c) = pos.next_mover() else { break };
            if start % 6 == 1 {
                let mut root = SearchPosition::new(&pos, c);
                root.index_root();
                let (mut line_pos, mut s, mut line) = (pos.clone(), root.clone(), Vec::new());
                while let Some(o) = line_pos.next_mover() {
                    if line.len() == 8 {
                        break;
                    }
                    for k in 0..2 {
                        let mut ours = s.legal_from(k, &root, &line, &mut mark);
                        ours.sort_unstable();
                        assert_eq!(ours, line_pos.legal(k), "start {start} line {line:?}");
                        assert!(mark.iter().all(|&w| w == 0));
                        checked += 1;
                    }
                    let moves = line_pos.legal(o);
                    let m = moves[rng.below(moves.len())];
                    line_pos.play(o, m);
                    s.play(o, m);
                    line.push((o as u8, m));
                }
            }
            let moves = pos.legal(c);
            pos.play(c, moves[rng.below(moves.len())]);
        }
        assert!(checked > 40, "{checked}");
    }
}
