//! Playouts with incremental move lists: each colour keeps its legal moves from its previous turn
//! in the simulation, drops those that became illegal and adds the ones at its new corner points,
//! instead of generating all moves again. Moves are drawn with weights that grow steeply with the
//! piece's size and corner count and, far above all, with the number of "local" squares covered
//! (next to the opponents' latest moves, see `Local`). Early in the game only large pieces are
//! considered. Before drawing, a colour plays its last good reply to the latest moves when that is
//! legal (see `reply`).

use super::board::Board;
use super::considered::{self, Considered};
use super::geometry::Grid;
use super::reply::{self, Played, Replies};
use super::rng::Rng;
use super::tables::{BITS_BYTES, Contact, Placed, SquareBits, Tables, prefetch};
use crate::isa;

/// How many candidates ahead the move generation asks for a placement's squares.
const PREFETCH_AHEAD: usize = 8;

/// Weight of a move by the local value of its squares: each local point outweighs any piece
/// weight, so the most local moves are (nearly) always the ones drawn.
const LOCAL_WEIGHT: [f32; 11] = [
    1.0, 1e6, 1e12, 1e18, 1e24, 1e25, 1e25, 1e25, 1e25, 1e25, 1e25,
];
/// [`LOCAL_WEIGHT`] on triangles, whose pieces cover more local points: a fifth one still
/// counts fully (as the reference engine weighs Trigon moves).
const TRIANGLE_LOCAL_WEIGHT: [f32; 11] = [
    1.0, 1e6, 1e12, 1e18, 1e24, 1e30, 1e30, 1e30, 1e30, 1e30, 1e30,
];

/// The local weights of the board's grid.
fn local_weights(grid: Grid) -> &'static [f32; 11] {
    match grid {
        Grid::Square | Grid::Segment => &LOCAL_WEIGHT,
        Grid::Triangle | Grid::RightTriangle => &TRIANGLE_LOCAL_WEIGHT,
    }
}

/// The local squares for the colour to move: corner points of the other players' latest moves
/// that their owners can still use, and the free squares beside them (value 1, or 2 when also a
/// corner point of the colour to move). That is where the fights are.
pub struct Local {
    /// The local squares (value 1 or 2).
    set: SquareBits,
    /// Those of value 2: corner points of the colour to move too.
    double: SquareBits,
    /// The weights by local value on this board's grid.
    weights: &'static [f32; 11],
}

impl Local {
    /// No local squares.
    pub fn new() -> Local {
        Local {
            set: [0; BITS_BYTES],
            double: [0; BITS_BYTES],
            weights: &LOCAL_WEIGHT,
        }
    }

    isa::twin! {
        /// Marks the local squares for colour `c` after the latest moves `recent` (colour, move).
        pub fn set / set_v3 = set_body(&mut self, b: &Board, c: usize, recent: &[(u8, u16)])
    }

    #[inline(always)]
    fn set_body(&mut self, b: &Board, c: usize, recent: &[(u8, u16)]) {
        self.set = [0; BITS_BYTES];
        let t = b.tables();
        self.weights = local_weights(t.geo.grid);
        let me = b.player_of(c);
        for &(o, m) in recent {
            let o = o as usize;
            if o == c || b.player_of(o) == me {
                continue;
            }
            // Each corner point the owner can use, with its neighbours the owner can cover.
            let taken = b.forbidden_set(o);
            for &q in t.attach(m) {
                if b.is_free_for(o, q as usize) {
                    t.around(q).add_outside(&mut self.set, taken);
                }
            }
        }
        let (corners, forbidden) = (b.attach_set(c), b.forbidden_set(c));
        for (((d, &s), &a), &f) in (self.double.iter_mut())
            .zip(&self.set)
            .zip(corners)
            .zip(forbidden)
        {
            *d = s & a & !f;
        }
    }

    /// Whether move `m` covers a local square (its local value is above 0: the squares of
    /// value 2 are local squares too).
    #[inline]
    pub fn touches(&self, t: &Tables, m: u16) -> bool {
        t.all_placed()[m as usize].meets(&self.set)
    }

    /// The playout weight of placement `p` whose piece weighs `w`: that weight times the
    /// weight of its local value.
    #[inline]
    fn weight(&self, p: Placed, w: f32) -> f32 {
        local_weight(p, w, &self.set, &self.double, self.weights)
    }
}

/// The weight of placement `p` whose piece weighs `w`, with local squares `set` (those of value
/// 2 in `double`) weighing `weights` by local value.
#[inline]
fn local_weight(
    p: Placed,
    w: f32,
    set: &SquareBits,
    double: &SquareBits,
    weights: &[f32; 11],
) -> f32 {
    let on = p.overlap(set);
    if on != 0 {
        let value = few_ones(on) + few_ones(p.overlap(double));
        w * weights[(value as usize).min(10)]
    } else {
        // A local value of 0 weighs 1.
        w
    }
}

/// The number of bits set in `x`, which has few (a placement's squares): a step a bit, fewer
/// instructions than a full count where the processor has no POPCNT (plain x86-64).
#[inline]
fn few_ones(x: u128) -> u32 {
    let (mut lo, mut hi) = (x as u64, (x >> 64) as u64);
    let mut n = 0;
    while lo != 0 {
        lo &= lo - 1;
        n += 1;
    }
    while hi != 0 {
        hi &= hi - 1;
        n += 1;
    }
    n
}

impl Default for Local {
    fn default() -> Local {
        Local::new()
    }
}

/// What a colour's list built at an earlier position of a simulation depended on there (see
/// [`Playout::seed`]).
#[derive(Debug, Clone, Copy)]
pub struct BuiltAt {
    /// The pieces of the list (a bit per piece).
    pub pieces: u32,
    /// The length of the colour's corner points ([`Board::attach_points`]): those a build
    /// visits.
    pub corners: usize,
    /// The colour's rule stage ([`Board::rule_stage`]).
    pub stage: u8,
}

/// Playout weight per piece (index masked with 31: at most 21 pieces).
type PieceWeights = [f32; 32];

/// Room for any move list: more than the placements of any piece set (each move is in a list
/// at most once), a power of two so that masked indices need no bounds checks.
const LIST_CAP: usize = 1 << 15;

/// A zeroed boxed array (built on the heap).
fn boxed<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    vec![T::default(); N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("length N"))
}

/// What [`keep_legal`] reads for every entry, side by side so that one register addresses it
/// all (its loop is short of registers).
struct KeepTests {
    /// The squares forbidden or local: most moves cover none, and need no other test.
    either: SquareBits,
    forbidden: SquareBits,
    set: SquareBits,
    double: SquareBits,
    piece_weight: PieceWeights,
    local_weight: [f32; 11],
}

isa::twin! {
    /// Keeps the moves of `list` still legal (of the pieces `live`, clear of `forbidden`) in order,
    /// weighing them on the way: their cumulative weights go to `cum`. Returns how many stay. (A
    /// function of its own, so that the loop keeps its values in registers.)
    #[inline(never)]
    fn keep_legal / keep_legal_v3 = keep_legal_body(
        list: &mut List, cum: &mut [f32; LIST_CAP], t: &Tables, forbidden: &SquareBits,
        live: u32, local: &Local, piece_weight: &PieceWeights,
    ) -> usize
}

#[inline(always)]
fn keep_legal_body(
    list: &mut List,
    cum: &mut [f32; LIST_CAP],
    t: &Tables,
    forbidden: &SquareBits,
    live: u32,
    local: &Local,
    piece_weight: &PieceWeights,
) -> usize {
    let moves = &mut *list.moves;
    let all_placed = t.all_placed();
    // Copies side by side, read from one base.
    let mut either = *forbidden;
    for (e, &l) in either.iter_mut().zip(&local.set) {
        *e |= l;
    }
    let s = KeepTests {
        either,
        forbidden: *forbidden,
        set: local.set,
        double: local.double,
        piece_weight: *piece_weight,
        local_weight: *local.weights,
    };
    let mut n = 0;
    let mut total = 0.0f32;
    // At most LIST_CAP entries (each move at most once): no index past the array.
    for i in 0..list.len.min(LIST_CAP) {
        prefetch(&all_placed[moves[i + PREFETCH_AHEAD] as usize]);
        let m = moves[i];
        let p = all_placed[m as usize];
        if live >> p.piece() & 1 != 0 {
            let w = s.piece_weight[p.piece()];
            let weight = if !p.meets(&s.either) {
                Some(w)
            } else if p.meets(&s.forbidden) {
                None
            } else {
                Some(local_weight(p, w, &s.set, &s.double, &s.local_weight))
            };
            if let Some(w) = weight {
                moves[n & (LIST_CAP - 1)] = m;
                total += w;
                cum[n & (LIST_CAP - 1)] = total;
                n += 1;
            }
        }
    }
    list.len = n;
    n
}

/// One colour's move list within a simulation.
struct List {
    /// The moves, `len` of them, then room for the entries read ahead to prefetch (stale or
    /// zero past the end).
    moves: Box<[u16; LIST_CAP + PREFETCH_AHEAD]>,
    len: usize,
    /// Whether the list was built in this simulation.
    ready: bool,
    /// The pieces the list holds moves for (a bit per piece).
    pieces: u32,
    /// The colour's moves since the list was last brought up to date (more than one when
    /// it played replies in between).
    pending: Vec<u16>,
    /// The colour's rule stage when the list was built (see `Board::rule_stage`).
    stage: u8,
}

impl Default for List {
    fn default() -> List {
        List {
            moves: boxed(),
            len: 0,
            ready: false,
            pieces: 0,
            pending: Vec::new(),
            stage: 0,
        }
    }
}

/// The playout engine: move lists per colour and scratch space, reused across simulations.
pub struct Playout {
    lists: [List; 4],
    /// Per colour, a bit per move: the move is in the colour's list (a small set, so that the
    /// scattered tests while adding moves stay in the cache).
    marks: Vec<u64>,
    /// Words of `marks` per colour.
    mark_words: usize,
    /// Per colour and square: the stamp of the list build that added the moves at it.
    added: Vec<u32>,
    stamps: [u32; 4],
    next_stamp: u32,
    npoints: usize,
    /// Weight of each piece by its size and corner count.
    piece_weight: PieceWeights,
    /// The pieces considered round by round.
    considered: Considered,
    /// The cumulative weights of the moves of the list being brought up to date.
    cum: Box<[f32; LIST_CAP]>,
    corners: Vec<u16>,
    /// The points [`Playout::add_at_all`] visits, with their status.
    todo: Vec<(u16, u8)>,
    local: Local,
}

impl Playout {
    /// A playout engine for boards with tables `t`.
    pub fn new(t: &Tables) -> Playout {
        assert!(t.moves.len() < LIST_CAP && t.npieces() <= 32);
        let mut corners = vec![0usize; t.npieces()];
        for (m, mi) in t.moves.iter().enumerate() {
            let k = mi.piece as usize;
            corners[k] = corners[k].max(t.attach(m as u16).len());
        }
        // Small boards reward corner-rich pieces, the big ones plain size; Callisto's pieces
        // (joined along edges) count their size far more (the reference engine's factors).
        let (size_base, corner_base) = match t.rules.contact {
            Contact::Edge => (12.0f32, 1.8f32),
            Contact::Corner if t.npoints() < 300 => (3.0, 1.8),
            Contact::Corner => (5.0, 1.0),
        };
        let mut piece_weight = [0.0; 32];
        for (k, w) in piece_weight.iter_mut().enumerate().take(t.npieces()) {
            *w = size_base.powi(t.shapes[k].cells.len() as i32)
                * corner_base.powi(corners[k].saturating_sub(1) as i32);
            // Loose pieces (Callisto's single squares) score nothing and are worth keeping:
            // drawn last, even on local squares (the reference engine's choice; 78 of 140
            // games at 2,000-3,000 playouts against drawing them by size).
            if t.is_loose(k) {
                *w = 1e-13;
            }
        }
        Playout {
            lists: Default::default(),
            marks: vec![0; 4 * t.moves.len().div_ceil(64)],
            mark_words: t.moves.len().div_ceil(64),
            added: vec![0; 4 * t.npoints()],
            stamps: [0; 4],
            next_stamp: 0,
            npoints: t.npoints(),
            piece_weight,
            considered: Considered::new(t),
            cum: boxed(),
            corners: Vec::new(),
            todo: Vec::new(),
            local: Local::new(),
        }
    }

    /// The pieces worth considering (a bit per piece) after `moves` moves of a game of `nc`
    /// colours (see [`Considered`]).
    pub fn considered(&self, moves: usize, nc: usize) -> u32 {
        self.considered.at(moves, nc)
    }

    /// Every piece (a bit per piece).
    pub fn all_pieces(&self) -> u32 {
        self.considered.all()
    }

    /// Colour `c`'s list as last brought up to date.
    #[cfg(test)]
    fn moves(&self, c: usize) -> &[u16] {
        &self.lists[c].moves[..self.lists[c].len]
    }

    /// Builds colour `c`'s list afresh with the moves of `pieces` (a bit per piece).
    fn build(&mut self, b: &mut Board, c: usize, pieces: u32) {
        self.new_stamp(c);
        self.corners.clear();
        match considered::first_piece_start(b, c) {
            Some(start) => self.corners.push(start),
            None => self.corners.extend_from_slice(b.live_attach_points(c)),
        }
        let list = &mut self.lists[c];
        list.len = 0;
        b.for_loose_moves(c, pieces, |m| {
            list.moves[list.len & (LIST_CAP - 1)] = m;
            list.len += 1;
            true
        });
        let usable = b.contact_pieces(c) & pieces;
        let corners = std::mem::take(&mut self.corners);
        self.add_at_all(b, c, &corners, usable);
        self.corners = corners;
        let list = &mut self.lists[c];
        list.ready = true;
        list.pieces = pieces;
        list.pending.clear();
        list.stage = b.rule_stage(c);
    }

    /// Forgets every colour's list: a new simulation starts.
    pub fn new_simulation(&mut self) {
        for l in &mut self.lists {
            l.ready = false;
        }
    }

    /// Starts colour `c`'s list for this simulation from `moves`, the list [`Playout::build`]
    /// makes at an earlier position of the simulation's board `b` (the search tree's children
    /// there), in its order, without generating them again; `then` tells what it depended on
    /// there, and `since` gives the colour's moves after that position. The list is then
    /// brought up to date as after the colour's own turns, so the simulation draws from the
    /// same moves as a list built at its turn would hold.
    pub fn seed(
        &mut self,
        b: &Board,
        c: usize,
        then: BuiltAt,
        moves: impl Iterator<Item = u16>,
        since: impl Iterator<Item = u16>,
    ) {
        let stamp = self.new_stamp(c);
        for &p in &b.attach_points(c)[..then.corners] {
            self.added[c * self.npoints + p as usize] = stamp;
        }
        let list = &mut self.lists[c];
        let mut n = 0;
        for m in moves {
            list.moves[n & (LIST_CAP - 1)] = m;
            n += 1;
        }
        let marks = &mut self.marks[c * self.mark_words..(c + 1) * self.mark_words];
        for &m in &list.moves[..n.min(LIST_CAP)] {
            marks[m as usize >> 6] |= 1 << (m & 63);
        }
        list.len = n;
        list.ready = true;
        list.pieces = then.pieces;
        list.pending.clear();
        list.pending.extend(since);
        list.stage = then.stage;
    }

    /// A new build stamp for colour `c`, its marks cleared: no move is in its list and no
    /// point has been visited.
    fn new_stamp(&mut self, c: usize) -> u32 {
        let stamp = self.new_point_stamp(c);
        self.marks[c * self.mark_words..(c + 1) * self.mark_words].fill(0);
        stamp
    }

    /// A new stamp for colour `c`'s visits of points: none has been visited, the moves in
    /// its list stay marked.
    fn new_point_stamp(&mut self, c: usize) -> u32 {
        self.next_stamp = self.next_stamp.wrapping_add(1);
        if self.next_stamp == 0 {
            self.added.iter_mut().for_each(|m| *m = 0);
            self.next_stamp = 1;
        }
        self.stamps[c] = self.next_stamp;
        self.next_stamp
    }

    /// Adds colour `c`'s legal moves of `pieces` (not in its list yet) at every live corner
    /// point: the corner points are visited again, the moves already listed stay marked.
    fn add_pieces(&mut self, b: &mut Board, c: usize, pieces: u32) {
        self.new_point_stamp(c);
        let mut corners = std::mem::take(&mut self.corners);
        corners.clear();
        corners.extend_from_slice(b.live_attach_points(c));
        self.add_at_all(b, c, &corners, pieces);
        self.corners = corners;
    }

    isa::twin! {
        /// [`Playout::add_at`] at each of `points` that colour `c` may cover.
        fn add_at_all / add_at_all_v3 = add_at_all_body(
            &mut self, b: &Board, c: usize, points: &[u16], usable: u32,
        )
    }

    #[inline(always)]
    fn add_at_all_body(&mut self, b: &Board, c: usize, points: &[u16], usable: u32) {
        let t = b.tables();
        // The points to visit with their status, each worked out once.
        let mut todo = std::mem::take(&mut self.todo);
        todo.clear();
        let (stamp, added) = (self.stamps[c], &self.added[c * self.npoints..]);
        todo.extend(
            (points.iter())
                .filter(|&&p| b.is_free_for(c, p as usize) && added[p as usize] != stamp)
                .map(|&p| (p, b.status(c, p as usize))),
        );
        // The tables read at a point are mostly out of the caches: ask for those of the next
        // points a step or two ahead.
        if let Some(&(p, s)) = todo.first() {
            t.prefetch_starts(p as usize, s);
        }
        for i in 0..todo.len() {
            if let Some(&(p, s)) = todo.get(i + 2) {
                t.prefetch_starts(p as usize, s);
            }
            if let Some(&(p, s)) = todo.get(i + 1) {
                t.prefetch_first_run(p as usize, s, usable);
            }
            let (p, s) = todo[i];
            self.add_at(b, c, p, s, usable);
        }
        self.todo = todo;
    }

    /// Adds colour `c`'s legal moves of the pieces in `usable` (bit mask) covering corner
    /// point `p` (with status `status`) that are not in its list yet.
    #[inline(always)]
    fn add_at(&mut self, b: &Board, c: usize, p: u16, status: u8, usable: u32) {
        let stamp = self.stamps[c];
        let added = &mut self.added[c * self.npoints + p as usize];
        if *added == stamp {
            return;
        }
        *added = stamp;
        let t = b.tables();
        let marks = &mut self.marks[c * self.mark_words..(c + 1) * self.mark_words];
        let list = &mut self.lists[c];
        let moves = &mut *list.moves;
        let forbidden = b.forbidden_set(c);
        let all_placed = t.all_placed();
        let mut n = list.len;
        t.for_usable_runs(p as usize, status, usable, |run| {
            for (i, &m) in run.iter().enumerate() {
                if let Some(&ahead) = run.get(i + PREFETCH_AHEAD) {
                    prefetch(&all_placed[ahead as usize]);
                }
                let (word, bit) = (&mut marks[m as usize >> 6], 1u64 << (m & 63));
                let keep = (*word & bit == 0) & !all_placed[m as usize].meets(forbidden);
                *word |= if keep { bit } else { 0 };
                moves[n & (LIST_CAP - 1)] = m;
                n += usize::from(keep);
            }
        });
        list.len = n;
    }

    /// Brings colour `c`'s list up to date for its turn now, with the cumulative weights of
    /// its moves (the local squares must be set for `c`).
    #[inline(always)]
    fn update(&mut self, b: &mut Board, c: usize) {
        let want = self.considered(b.nmoves(), b.ncolours());
        let list = &self.lists[c];
        // A first piece on shared starting points goes to the best free one, which the other
        // colours' first pieces may change.
        let starting = b.variant.shared_starts() && b.is_first_piece(c);
        // The moves whose cumulative weights are known.
        let mut weighed = 0;
        // Pieces considered now and not when the list was built (a new round of the opening)
        // have their moves added at every live corner point, after the list's own (the same
        // moves as a new build, in another order); loose pieces, which need no corner, call
        // for a new list.
        let new_pieces = want & !list.pieces;
        if !list.ready
            || new_pieces & b.tables().rules.loose != 0
            || list.stage != b.rule_stage(c)
            || starting
        {
            self.build(b, c, want);
        } else {
            let t = b.tables();
            // The pieces whose moves stay (each weighs more than zero).
            let live = b.left_mask(c) & want;
            let list = &mut self.lists[c];
            list.pieces = want;
            let n = keep_legal(
                list,
                &mut self.cum,
                t,
                b.forbidden_set(c),
                live,
                &self.local,
                &self.piece_weight,
            );
            weighed = n;
            if !list.pending.is_empty() {
                let pending = std::mem::take(&mut list.pending);
                let usable = b.contact_pieces(c) & want;
                for &last in &pending {
                    self.add_at_all(b, c, t.attach(last), usable);
                }
                self.lists[c].pending = pending;
                self.lists[c].pending.clear();
            }
            if new_pieces != 0 {
                self.add_pieces(b, c, new_pieces & b.contact_pieces(c));
            }
        }
        let all = self.considered.all();
        if self.lists[c].len == 0 && self.lists[c].pieces != all {
            self.build(b, c, all);
            weighed = 0;
        }
        // The cumulative weights of the moves added, in list order.
        let all_placed = b.tables().all_placed();
        let list = &self.lists[c];
        let (local, piece_weight) = (&self.local, &self.piece_weight);
        let mut total = if weighed > 0 {
            self.cum[weighed - 1]
        } else {
            0.0
        };
        for (&m, cum) in list.moves[weighed..list.len]
            .iter()
            .zip(self.cum[weighed..].iter_mut())
        {
            let p = all_placed[m as usize];
            total += local.weight(p, piece_weight[p.piece()]);
            *cum = total;
        }
    }

    /// Whether colour `c` may play the remembered reply `m` in `b` ([`reply::NONE`]: none):
    /// a legal move of a piece considered now (`want`), not a first piece on shared starting
    /// points (which goes to the best free one, see `considered`).
    #[inline]
    fn fits(b: &Board, c: usize, m: u16, want: u32) -> bool {
        m != reply::NONE
            && want >> b.tables().moves[m as usize].piece & 1 != 0
            && !(b.variant.shared_starts() && b.is_first_piece(c))
            && b.is_legal(c, m)
    }

    isa::twin! {
        /// Plays the game out from `b`: every move goes to `seq` and to `recent` (colour, move; the
        /// latest three, newest last). With `replies`, a colour's remembered reply to the latest
        /// moves of `seq` is played when it fits, before any drawing. The lists are those of the
        /// simulation so far (see [`Playout::new_simulation`] and [`Playout::seed`]).
        pub fn run / run_v3 = run_body(
            &mut self, b: &mut Board, recent: &mut Vec<(u8, u16)>, rng: &mut Rng,
            seq: &mut Vec<Played>, replies: Option<&Replies>,
        )
    }

    #[inline(always)]
    fn run_body(
        &mut self,
        b: &mut Board,
        recent: &mut Vec<(u8, u16)>,
        rng: &mut Rng,
        seq: &mut Vec<Played>,
        replies: Option<&Replies>,
    ) {
        let nc = b.ncolours();
        let mut c = b.to_play();
        let mut idle = 0;
        while idle < nc {
            if b.is_out(c) {
                idle += 1;
                c = b.next_colour(c);
                continue;
            }
            let player = b.player_of(c);
            let key = reply::key(b.variant, c, player);
            let remembered = replies.and_then(|r| {
                let want = self.considered(b.nmoves(), nc);
                let [two, one] = r.get(key, seq);
                if Self::fits(b, c, two, want) {
                    Some(two)
                } else if one != two && Self::fits(b, c, one, want) {
                    Some(one)
                } else {
                    None
                }
            });
            let m = match remembered {
                Some(m) => m,
                None => {
                    self.local.set(b, c, recent);
                    self.update(b, c);
                    if self.lists[c].len == 0 {
                        b.pass(c);
                        idle += 1;
                        c = b.next_colour(c);
                        continue;
                    }
                    self.draw(c, rng)
                }
            };
            seq.push(Played {
                player: player as u8,
                key,
                mv: m,
            });
            if let Some(r) = replies {
                let next = b.next_colour(c);
                r.prefetch(reply::key(b.variant, next, b.player_of(next)), seq);
            }
            b.play(c, m);
            self.lists[c].pending.push(m);
            if recent.len() == 3 {
                recent.remove(0);
            }
            recent.push((c as u8, m));
            idle = 0;
            c = b.next_colour(c);
        }
    }

    /// A move of colour `c`'s list (up to date and not empty), drawn by the weights.
    #[inline]
    fn draw(&self, c: usize, rng: &mut Rng) -> u16 {
        let n = self.lists[c].len;
        if n == 1 {
            self.lists[c].moves[0]
        } else {
            let cum = &self.cum[..n];
            let total = cum[n - 1];
            let r = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * total;
            let i = cum.partition_point(|&w| w <= r);
            self.lists[c].moves[i.min(n - 1)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::{MoveGen, Variant};

    /// A move touches the local squares exactly when one of its squares is marked, and after
    /// an opponent's move some of the colour's moves do and some do not.
    #[test]
    fn a_move_touches_the_local_squares_it_covers() {
        for v in [Variant::Duo, Variant::Classic, Variant::Trigon] {
            let t = v.tables();
            let mut b = Board::new(v);
            let (mut rng, mut mg, mut moves) = (Rng::new(5), MoveGen::new(t), Vec::new());
            let mut recent = Vec::new();
            for _ in 0..8 {
                let Some(c) = b.skip_to_mover() else { break };
                moves.clear();
                b.gen_moves(c, &mut mg, &mut moves);
                let m = moves[rng.below(moves.len())];
                b.play(c, m);
                recent.push((c as u8, m));
            }
            let c = b.skip_to_mover().unwrap();
            let mut local = Local::new();
            local.set(&b, c, &recent[recent.len() - 3..]);
            moves.clear();
            b.gen_moves(c, &mut mg, &mut moves);
            let marked = |p: u16| local.set[p as usize >> 3] >> (p & 7) & 1 != 0;
            let touching = (moves.iter())
                .filter(|&&m| {
                    let covers = t.moves[m as usize].points().iter().any(|&p| marked(p));
                    assert_eq!(local.touches(t, m), covers, "{v:?}");
                    covers
                })
                .count();
            assert!(touching > 0 && touching < moves.len(), "{v:?}: {touching}");
        }
    }

    /// The incremental lists hold exactly the legal moves of the pieces considered, those of a
    /// list built afresh, also after a new round of the opening brought more pieces and after
    /// turns a colour played without bringing its list up to date (as with a reply).
    #[test]
    fn incremental_lists_match_full_generation() {
        for v in [
            Variant::Duo,
            Variant::Classic,
            Variant::Callisto2,
            Variant::Callisto,
            Variant::Trigon,
        ] {
            let t = v.tables();
            let mut p = Playout::new(t);
            let mut fresh = Playout::new(t);
            let mut rng = Rng::new(3);
            let mut mg = MoveGen::new(t);
            let mut full = Vec::new();
            for game in 0..4u64 {
                let mut b = Board::new(v);
                let mut recent = Vec::new();
                let mut seq = Vec::new();
                // Play a few random moves, then check one colour's list at every turn.
                for l in &mut p.lists {
                    l.ready = false;
                }
                for turn in 0..(8 + game as usize * 6) {
                    let Some(c) = b.skip_to_mover() else { break };
                    full.clear();
                    b.gen_moves(c, &mut mg, &mut full);
                    if p.lists[c].ready && turn % 3 == game as usize % 3 {
                        // A turn without the list, as a reply is played.
                        let m = full[rng.below(full.len())];
                        b.play(c, m);
                        p.lists[c].pending.push(m);
                        continue;
                    }
                    p.update(&mut b, c);
                    let pieces = p.lists[c].pieces;
                    // The moves of a new build (in another order after a new round).
                    fresh.build(&mut b.clone(), c, pieces);
                    let mut built = fresh.moves(c).to_vec();
                    built.sort_unstable();
                    let mut kept = p.moves(c).to_vec();
                    kept.sort_unstable();
                    assert_eq!(kept, built, "{v:?} game {game} turn {turn}");
                    full.retain(|&m| pieces >> t.moves[m as usize].piece & 1 != 0);
                    if let Some(start) = considered::first_piece_start(&b, c) {
                        full.retain(|&m| t.moves[m as usize].points().contains(&start));
                    }
                    let mut have = p.moves(c).to_vec();
                    have.sort_unstable();
                    full.sort_unstable();
                    assert_eq!(have, full, "{v:?} game {game}");
                    let m = have[rng.below(have.len())];
                    b.play(c, m);
                    p.lists[c].pending.push(m);
                }
                p.run(&mut b, &mut recent, &mut rng, &mut seq, None);
                assert!(b.game_over());
            }
        }
    }

    /// Replays a simulation's moves `seq` from `start`: every move legal when made, by the
    /// colour to move, a first piece on the starting point chosen for it, under the key of
    /// that colour and its player. The colours in turn.
    fn replay(start: &Board, seq: &[Played]) -> Vec<usize> {
        let mut b = start.clone();
        let mut colours = Vec::new();
        for s in seq {
            let c = b.skip_to_mover().expect("a colour to move");
            assert!(b.is_legal(c, s.mv), "move {} of colour {c}", s.mv);
            if let Some(start) = considered::first_piece_start(&b, c) {
                assert!(b.tables().moves[s.mv as usize].points().contains(&start));
            }
            assert_eq!(s.player as usize, b.player_of(c));
            assert_eq!(s.key, reply::key(b.variant, c, b.player_of(c)));
            b.play(c, s.mv);
            colours.push(c);
        }
        assert!(b.game_over());
        colours
    }

    /// Plays `n` random legal moves on `b`, each also to `seq`.
    fn play_random(b: &mut Board, n: usize, rng: &mut Rng, seq: &mut Vec<Played>) {
        let t = b.tables();
        let (mut mg, mut moves) = (MoveGen::new(t), Vec::new());
        for _ in 0..n {
            let c = b.skip_to_mover().unwrap();
            moves.clear();
            b.gen_moves(c, &mut mg, &mut moves);
            let m = moves[rng.below(moves.len())];
            play_kept(b, seq, c, m);
        }
    }

    /// Plays `m` for colour `c` on `b`, also to `seq`.
    fn play_kept(b: &mut Board, seq: &mut Vec<Played>, c: usize, m: u16) {
        let player = b.player_of(c);
        seq.push(Played {
            player: player as u8,
            key: reply::key(b.variant, c, player),
            mv: m,
        });
        b.play(c, m);
    }

    /// Remembered replies that are not legal (pieces placed, squares taken, no contact) are
    /// never played; the playouts end legally.
    #[test]
    fn an_unfitting_reply_is_never_played() {
        for v in [
            Variant::Trigon2,
            Variant::Duo,
            Variant::Callisto,
            Variant::Three,
        ] {
            let t = v.tables();
            let mut p = Playout::new(t);
            let mut rng = Rng::new(9);
            let nmoves = t.moves.len() as u16;
            let mut replies = Replies::new(reply::nkeys(v), t.moves.len());
            for k in 0..reply::nkeys(v) as u8 {
                for last in 0..nmoves {
                    replies.set_one(k, last, rng.below(nmoves as usize) as u16);
                }
            }
            for game in 0..6 {
                let mut b = Board::new(v);
                let mut seq = Vec::new();
                play_random(&mut b, game * 3, &mut rng, &mut seq);
                let start = b.clone();
                let before = seq.len();
                b.skip_to_mover();
                p.new_simulation();
                p.run(&mut b, &mut Vec::new(), &mut rng, &mut seq, Some(&replies));
                replay(&start, &seq[before..]);
            }
        }
    }

    /// A remembered reply that fits is played at once, and the playout goes on legally.
    #[test]
    fn a_fitting_reply_is_played_first() {
        let v = Variant::Trigon2;
        let t = v.tables();
        let mut p = Playout::new(t);
        let mut rng = Rng::new(4);
        let (mut mg, mut moves) = (MoveGen::new(t), Vec::new());
        let mut b = Board::new(v);
        let mut seq = Vec::new();
        // Past the opening: every piece is considered.
        play_random(&mut b, 40, &mut rng, &mut seq);
        let c = b.skip_to_mover().unwrap();
        assert_eq!(p.considered(b.nmoves(), b.ncolours()), p.considered.all());
        moves.clear();
        b.gen_moves(c, &mut mg, &mut moves);
        // The smallest piece, which the weights would hardly ever draw.
        let small = *moves
            .iter()
            .min_by_key(|&&m| (t.moves[m as usize].size, m))
            .unwrap();
        let last = seq.last().unwrap().mv;
        let key = reply::key(v, c, b.player_of(c));
        let mut replies = Replies::new(reply::nkeys(v), t.moves.len());
        replies.set_one(key, last, small);
        let before = seq.len();
        let start = b.clone();
        p.new_simulation();
        p.run(&mut b, &mut Vec::new(), &mut rng, &mut seq, Some(&replies));
        assert_eq!(seq[before].mv, small);
        let colours = replay(&start, &seq[before..]);
        assert_eq!(colours[0], c);
        // Without the reply the weights draw another move.
        let mut other = start.clone();
        let mut seq2 = seq[..before].to_vec();
        p.new_simulation();
        p.run(&mut other, &mut Vec::new(), &mut rng, &mut seq2, None);
        assert_ne!(seq2[before].mv, small);
    }

    /// Legal replies the playouts do not consider are not played: a first piece away from the
    /// starting point chosen for it, a piece too small for the opening round.
    #[test]
    fn replies_outside_the_policy_are_not_played() {
        let v = Variant::Trigon2;
        let t = v.tables();
        let mut p = Playout::new(t);
        let mut rng = Rng::new(6);
        let (mut mg, mut moves) = (MoveGen::new(t), Vec::new());
        let mut b = Board::new(v);
        let mut seq = Vec::new();
        // The first piece of colour 1, legal on another starting point than its own.
        let start = considered::first_piece_start(&b, 0).unwrap();
        moves.clear();
        b.gen_moves(0, &mut mg, &mut moves);
        let m0 = *moves
            .iter()
            .find(|&&m| t.moves[m as usize].points().contains(&start))
            .unwrap();
        play_kept(&mut b, &mut seq, 0, m0);
        let own = considered::first_piece_start(&b, 1).unwrap();
        moves.clear();
        b.gen_moves(1, &mut mg, &mut moves);
        let want = p.considered(b.nmoves(), b.ncolours());
        let elsewhere = *moves
            .iter()
            .find(|&&m| {
                let mi = &t.moves[m as usize];
                want >> mi.piece & 1 != 0 && !mi.points().contains(&own)
            })
            .expect("a first piece on another starting point");
        let mut replies = Replies::new(reply::nkeys(v), t.moves.len());
        replies.set_one(1, m0, elsewhere);
        let mut played = seq.clone();
        p.new_simulation();
        p.run(
            &mut b.clone(),
            &mut Vec::new(),
            &mut rng,
            &mut played,
            Some(&replies),
        );
        assert_ne!(played[1].mv, elsewhere);
        replay(&b, &played[1..]);
        // Later in the opening: a small piece that fits the board but not the round.
        while b.nmoves() < 8 {
            let c = b.skip_to_mover().unwrap();
            moves.clear();
            b.gen_moves(c, &mut mg, &mut moves);
            let want = p.considered(b.nmoves(), b.ncolours());
            moves.retain(|&m| want >> t.moves[m as usize].piece & 1 != 0);
            let m = moves[rng.below(moves.len())];
            play_kept(&mut b, &mut seq, c, m);
        }
        let c = b.skip_to_mover().unwrap();
        moves.clear();
        b.gen_moves(c, &mut mg, &mut moves);
        let small = *moves
            .iter()
            .find(|&&m| t.moves[m as usize].size <= 3)
            .expect("a small piece");
        let want = p.considered(b.nmoves(), b.ncolours());
        assert_eq!(want >> t.moves[small as usize].piece & 1, 0);
        let last = seq.last().unwrap().mv;
        replies.set_one(reply::key(v, c, b.player_of(c)), last, small);
        let mut played = seq.clone();
        p.new_simulation();
        p.run(
            &mut b.clone(),
            &mut Vec::new(),
            &mut rng,
            &mut played,
            Some(&replies),
        );
        assert_ne!(played[seq.len()].mv, small);
        replay(&b, &played[seq.len()..]);
    }
}
