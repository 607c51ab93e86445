//! Playouts with incremental move lists: each colour keeps its legal moves from its previous turn
//! in the simulation, drops those that became illegal and adds the ones at its new corner points,
//! instead of generating all moves again. Moves are drawn with weights that grow steeply with the
//! piece's size and corner count and, far above all, with the number of "local" squares covered
//! (next to the opponents' latest moves, see `Local`). Early in the game only large pieces are
//! considered.

use super::board::Board;
use super::considered::{self, Considered};
use super::rng::Rng;
use super::tables::{BITS_BYTES, MoveBits, SQUARE_SLOTS, SquareBits, Tables, set_bit};

/// Weight of a move by the local value of its squares: each local point outweighs any piece
/// weight, so the most local moves are (nearly) always the ones drawn.
const LOCAL_WEIGHT: [f32; 11] = [
    1.0, 1e6, 1e12, 1e18, 1e24, 1e25, 1e25, 1e25, 1e25, 1e25, 1e25,
];

/// The local squares for the colour to move: corner points of the other players' latest moves
/// that their owners can still use, and the free squares beside them (value 1, or 2 when also a
/// corner point of the colour to move). That is where the fights are.
pub struct Local {
    value: Box<[u8; SQUARE_SLOTS]>,
    /// The local squares as a set.
    set: SquareBits,
    list: Vec<u16>,
}

impl Local {
    /// No local squares.
    pub fn new() -> Local {
        Local {
            value: Box::new([0; SQUARE_SLOTS]),
            set: [0; BITS_BYTES],
            list: Vec::new(),
        }
    }

    /// Marks the local squares for colour `c` after the latest moves `recent` (colour, move).
    pub fn set(&mut self, b: &Board, c: usize, recent: &[(u8, u16)]) {
        for &p in &self.list {
            self.value[p as usize] = 0;
        }
        self.list.clear();
        self.set = [0; BITS_BYTES];
        let t = b.tables();
        let me = b.player_of(c);
        for &(o, m) in recent {
            let o = o as usize;
            if o == c || b.player_of(o) == me {
                continue;
            }
            for &q in t.attach(m) {
                if !b.is_free_for(o, q as usize) {
                    continue;
                }
                self.add(b, c, q);
                for &k in t.geo.adj(q) {
                    if b.is_free_for(o, k as usize) {
                        self.add(b, c, k);
                    }
                }
            }
        }
    }

    #[inline]
    fn add(&mut self, b: &Board, c: usize, p: u16) {
        if self.value[p as usize] == 0 {
            self.value[p as usize] = 1 + u8::from(b.is_attach(c, p as usize));
            set_bit(&mut self.set, p);
            self.list.push(p);
        }
    }

    /// The summed local value of the squares of `m`.
    #[inline]
    pub fn of(&self, t: &Tables, m: u16) -> u32 {
        t.moves[m as usize]
            .padded()
            .iter()
            .map(|&p| self.value[p as usize & (SQUARE_SLOTS - 1)] as u32)
            .sum()
    }

    /// The playout weight of move `m` (`bits` its square set) with piece weights `pw`: its
    /// piece's weight times the weight of its local value.
    #[inline]
    fn weight(&self, t: &Tables, m: u16, bits: MoveBits, pw: &PieceWeights) -> f32 {
        let w = pw[bits.piece() as usize & 31];
        if bits.meets(&self.set) {
            w * LOCAL_WEIGHT[(self.of(t, m) as usize).min(10)]
        } else {
            // LOCAL_WEIGHT[0] is 1.
            w
        }
    }
}

impl Default for Local {
    fn default() -> Local {
        Local::new()
    }
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

/// One colour's move list within a simulation.
struct List {
    /// The moves, `len` of them.
    moves: Box<[u16; LIST_CAP]>,
    len: usize,
    /// Whether the list was built in this simulation.
    ready: bool,
    /// The pieces the list holds moves for (a bit per piece).
    pieces: u32,
    /// The colour's move since the list was last brought up to date.
    last: Option<u16>,
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
            last: None,
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
        // Small boards reward corner-rich pieces, the big ones plain size.
        let (size_base, corner_base) = if t.npoints() < 300 {
            (3.0f32, 1.8f32)
        } else {
            (5.0, 1.0)
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
            local: Local::new(),
        }
    }

    /// The pieces worth considering (a bit per piece) after `moves` moves of a game of `nc`
    /// colours (see [`Considered`]).
    pub fn considered(&self, moves: usize, nc: usize) -> u32 {
        self.considered.at(moves, nc)
    }

    /// Colour `c`'s list as last brought up to date.
    #[cfg(test)]
    fn moves(&self, c: usize) -> &[u16] {
        &self.lists[c].moves[..self.lists[c].len]
    }

    /// Builds colour `c`'s list afresh with the moves of `pieces` (a bit per piece).
    fn build(&mut self, b: &mut Board, c: usize, pieces: u32) {
        self.next_stamp = self.next_stamp.wrapping_add(1);
        if self.next_stamp == 0 {
            self.added.iter_mut().for_each(|m| *m = 0);
            self.next_stamp = 1;
        }
        self.stamps[c] = self.next_stamp;
        self.marks[c * self.mark_words..(c + 1) * self.mark_words].fill(0);
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
        for i in 0..self.corners.len() {
            let p = self.corners[i];
            self.add_at(b, c, p, usable);
        }
        let list = &mut self.lists[c];
        list.ready = true;
        list.pieces = pieces;
        list.last = None;
        list.stage = b.rule_stage(c);
    }

    /// Adds colour `c`'s legal moves of the pieces in `usable` (bit mask) covering corner
    /// point `p` that are not in its list yet.
    fn add_at(&mut self, b: &Board, c: usize, p: u16, usable: u32) {
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
        let all_bits = t.all_bits();
        let mut n = list.len;
        t.for_usable_runs(p as usize, b.status(c, p as usize), usable, |run| {
            for &m in run {
                let (word, bit) = (&mut marks[m as usize >> 6], 1u64 << (m & 63));
                let keep = *word & bit == 0 && !all_bits[m as usize].meets(forbidden);
                *word |= if keep { bit } else { 0 };
                moves[n & (LIST_CAP - 1)] = m;
                n += usize::from(keep);
            }
        });
        list.len = n;
    }

    /// Brings colour `c`'s list up to date for its turn now, with the cumulative weights of
    /// its moves (the local squares must be set for `c`).
    fn update(&mut self, b: &mut Board, c: usize) {
        let want = self.considered(b.nmoves(), b.ncolours());
        let list = &self.lists[c];
        // A first piece on shared starting points goes to the best free one, which the other
        // colours' first pieces may change.
        let starting = b.variant.shared_starts() && b.is_first_piece(c);
        if !list.ready || want & !list.pieces != 0 || list.stage != b.rule_stage(c) || starting {
            self.build(b, c, want);
        } else {
            let t = b.tables();
            let left = b.left_mask(c) & want;
            let list = &mut self.lists[c];
            list.pieces = want;
            let moves = &mut *list.moves;
            let forbidden = b.forbidden_set(c);
            let all_bits = t.all_bits();
            // Keep the moves still legal, in order.
            let mut n = 0;
            for i in 0..list.len {
                let m = moves[i & (LIST_CAP - 1)];
                let bits = all_bits[m as usize];
                let keep = !bits.meets(forbidden) && left >> (bits.piece() & 31) & 1 != 0;
                moves[n & (LIST_CAP - 1)] = m;
                n += usize::from(keep);
            }
            list.len = n;
            if let Some(last) = list.last.take() {
                let usable = b.contact_pieces(c) & want;
                for &q in t.attach(last) {
                    if b.is_free_for(c, q as usize) {
                        self.add_at(b, c, q, usable);
                    }
                }
            }
        }
        let all = self.considered.all();
        if self.lists[c].len == 0 && self.lists[c].pieces != all {
            self.build(b, c, all);
        }
        // The cumulative weights, in list order.
        let t = b.tables();
        let all_bits = t.all_bits();
        let list = &self.lists[c];
        let (local, piece_weight) = (&self.local, &self.piece_weight);
        let mut total = 0.0f32;
        for (&m, cum) in list.moves[..list.len].iter().zip(self.cum.iter_mut()) {
            total += local.weight(t, m, all_bits[m as usize], piece_weight);
            *cum = total;
        }
    }

    /// Plays the game out from `b`: every move goes to `seq` as (player, move) and to `recent`
    /// (the latest three moves, newest last).
    pub fn run(
        &mut self,
        b: &mut Board,
        recent: &mut Vec<(u8, u16)>,
        rng: &mut Rng,
        seq: &mut Vec<(u8, u16)>,
    ) {
        for l in &mut self.lists {
            l.ready = false;
        }
        let nc = b.ncolours();
        let mut c = b.to_play();
        let mut idle = 0;
        while idle < nc {
            if b.is_out(c) {
                idle += 1;
                c = b.next_colour(c);
                continue;
            }
            self.local.set(b, c, recent);
            self.update(b, c);
            let n = self.lists[c].len;
            if n == 0 {
                b.pass(c);
                idle += 1;
                c = b.next_colour(c);
                continue;
            }
            let m = if n == 1 {
                self.lists[c].moves[0]
            } else {
                let cum = &self.cum[..n];
                let total = cum[n - 1];
                let r = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * total;
                let i = cum.partition_point(|&w| w <= r);
                self.lists[c].moves[i.min(n - 1)]
            };
            seq.push((b.player_of(c) as u8, m));
            b.play(c, m);
            self.lists[c].last = Some(m);
            if recent.len() == 3 {
                recent.remove(0);
            }
            recent.push((c as u8, m));
            idle = 0;
            c = b.next_colour(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::{MoveGen, Variant};

    /// The incremental lists hold exactly the legal moves of the sizes considered.
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
            let mut rng = Rng::new(3);
            let mut mg = MoveGen::new(t);
            for game in 0..4u64 {
                let mut b = Board::new(v);
                let mut recent = Vec::new();
                let mut seq = Vec::new();
                // Play a few random moves, then check one colour's list at every turn.
                for l in &mut p.lists {
                    l.ready = false;
                }
                for _ in 0..(8 + game as usize * 6) {
                    let Some(c) = b.skip_to_mover() else { break };
                    p.update(&mut b, c);
                    let mut full = Vec::new();
                    let pieces = p.lists[c].pieces;
                    b.gen_moves(c, &mut mg, &mut full);
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
                    p.lists[c].last = Some(m);
                }
                p.run(&mut b, &mut recent, &mut rng, &mut seq);
                assert!(b.game_over());
            }
        }
    }
}
