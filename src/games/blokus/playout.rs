//! Playouts with incremental move lists: each colour keeps its legal moves from its previous turn
//! in the simulation, drops those that became illegal and adds the ones at its new corner points,
//! instead of generating all moves again. Moves are drawn with weights that grow steeply with the
//! piece's size and corner count and, far above all, with the number of "local" squares covered
//! (next to the opponents' latest moves, see `Local`). Early in the game only large pieces are
//! considered.

use super::board::Board;
use super::mcts::Rng;
use super::tables::{SQUARE_SLOTS, Tables};

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
    list: Vec<u16>,
}

impl Local {
    /// No local squares.
    pub fn new() -> Local {
        Local {
            value: Box::new([0; SQUARE_SLOTS]),
            list: Vec::new(),
        }
    }

    /// Marks the local squares for colour `c` after the latest moves `recent` (colour, move).
    pub fn set(&mut self, b: &Board, c: usize, recent: &[(u8, u16)]) {
        for &p in &self.list {
            self.value[p as usize] = 0;
        }
        self.list.clear();
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
                for &k in &t.neighbours[q as usize] {
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
            self.list.push(p);
        }
    }

    /// The summed local value of the squares of `m`.
    #[inline]
    pub fn of(&self, t: &Tables, m: u16) -> u32 {
        t.moves[m as usize]
            .padded()
            .iter()
            .map(|&p| self.value[p as usize] as u32)
            .sum()
    }
}

impl Default for Local {
    fn default() -> Local {
        Local::new()
    }
}

/// Per square, what a move covering it adds to its judgement for the colour to move: the
/// square's local value, plus `BLOCKED` where the colour may not cover it.
struct Judge {
    value: Box<[u16; SQUARE_SLOTS]>,
}

/// Added for a square the colour may not cover; more than any sum of local values.
const BLOCKED: u16 = 0x100;

impl Judge {
    /// Sets the values for colour `c` on board `b` with local squares `local`.
    fn set(&mut self, b: &Board, c: usize, local: &Local) {
        let bit = 1u8 << c;
        for p in 0..b.tables().npoints() {
            let blocked = u16::from(b.forbidden_at(p as u16) & bit != 0) * BLOCKED;
            self.value[p] = blocked + u16::from(local.value[p]);
        }
    }

    /// The playout weight of move `m` (its piece's weight times the weight of its local
    /// value), or `None` where the colour may not cover one of its squares.
    #[inline]
    fn weigh(&self, t: &Tables, m: u16, piece_weight: &PieceWeights) -> Option<f32> {
        let mi = &t.moves[m as usize];
        let sum: u16 = mi
            .padded()
            .iter()
            .map(|&p| self.value[p as usize & (SQUARE_SLOTS - 1)])
            .sum();
        (sum < BLOCKED)
            .then(|| piece_weight[mi.piece as usize & 31] * LOCAL_WEIGHT[(sum as usize).min(10)])
    }
}

/// Playout weight per piece (index masked with 31: at most 21 pieces).
type PieceWeights = [f32; 32];

/// One colour's move list within a simulation.
#[derive(Clone, Default)]
struct List {
    moves: Vec<u16>,
    /// Whether the list was built in this simulation.
    ready: bool,
    /// The smallest piece size the list holds moves for.
    min_size: u8,
    /// The colour's move since the list was last brought up to date.
    last: Option<u16>,
}

/// The playout engine: move lists per colour and scratch space, reused across simulations.
pub struct Playout {
    lists: [List; 4],
    /// Per colour and move: the stamp of the list build that holds it.
    marks: Vec<u32>,
    /// Per colour and square: the stamp of the list build that added the moves at it.
    added: Vec<u32>,
    stamps: [u32; 4],
    next_stamp: u32,
    nmoves_table: usize,
    npoints: usize,
    /// Weight of each piece by its size and corner count.
    piece_weight: PieceWeights,
    cum: Vec<f32>,
    corners: Vec<u16>,
    local: Local,
    judge: Judge,
}

impl Playout {
    /// A playout engine for boards with tables `t`.
    pub fn new(t: &Tables) -> Playout {
        let mut corners = vec![0usize; t.npieces()];
        for (m, mi) in t.moves.iter().enumerate() {
            let k = mi.piece as usize;
            corners[k] = corners[k].max(t.attach(m as u16).len());
        }
        // Small boards reward corner-rich pieces, the big board plain size.
        let (size_base, corner_base) = if t.size < 20 {
            (3.0f32, 1.8f32)
        } else {
            (5.0, 1.0)
        };
        let mut piece_weight = [0.0; 32];
        for (k, w) in piece_weight.iter_mut().enumerate().take(t.npieces()) {
            *w = size_base.powi(t.shapes[k].cells.len() as i32)
                * corner_base.powi(corners[k].saturating_sub(1) as i32);
        }
        Playout {
            lists: Default::default(),
            marks: vec![0; 4 * t.moves.len()],
            added: vec![0; 4 * t.npoints()],
            stamps: [0; 4],
            next_stamp: 0,
            nmoves_table: t.moves.len(),
            npoints: t.npoints(),
            piece_weight,
            cum: Vec::new(),
            corners: Vec::new(),
            local: Local::new(),
            judge: Judge {
                value: Box::new([0; SQUARE_SLOTS]),
            },
        }
    }

    /// The smallest piece size worth considering with `placed` pieces on a board of `nc` colours.
    pub fn considered(placed: usize, nc: usize) -> u8 {
        let (five, four, three) = if nc == 2 { (2, 3, 5) } else { (3, 5, 7) };
        if placed < five * nc {
            5
        } else if placed < four * nc {
            4
        } else if placed < three * nc {
            3
        } else {
            1
        }
    }

    /// Builds colour `c`'s list afresh with pieces of at least `min_size` squares, and the
    /// cumulative weights.
    fn build(&mut self, b: &mut Board, c: usize, min_size: u8) {
        self.next_stamp = self.next_stamp.wrapping_add(1);
        if self.next_stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.added.iter_mut().for_each(|m| *m = 0);
            self.next_stamp = 1;
        }
        self.stamps[c] = self.next_stamp;
        self.corners.clear();
        self.corners.extend_from_slice(b.live_attach_points(c));
        let mut moves = std::mem::take(&mut self.lists[c].moves);
        moves.clear();
        self.cum.clear();
        for i in 0..self.corners.len() {
            let p = self.corners[i];
            self.add_at(b, c, p, min_size, &mut moves);
        }
        let list = &mut self.lists[c];
        list.moves = moves;
        list.ready = true;
        list.min_size = min_size;
        list.last = None;
    }

    /// Adds colour `c`'s legal moves covering corner point `p` not in its list yet, with their
    /// cumulative weights.
    fn add_at(&mut self, b: &Board, c: usize, p: u16, min_size: u8, out: &mut Vec<u16>) {
        let stamp = self.stamps[c];
        let added = &mut self.added[c * self.npoints + p as usize];
        if *added == stamp {
            return;
        }
        *added = stamp;
        let t = b.tables();
        let marks = &mut self.marks[c * self.nmoves_table..(c + 1) * self.nmoves_table];
        let mut total = self.cum.last().copied().unwrap_or(0.0);
        let status = b.status(c, p as usize);
        for k in 0..t.npieces() {
            if b.left(c, k) == 0 || (t.shapes[k].cells.len() as u8) < min_size {
                continue;
            }
            for &m in t.compatible(p as usize, status, k) {
                if marks[m as usize] == stamp {
                    continue;
                }
                if let Some(w) = self.judge.weigh(t, m, &self.piece_weight) {
                    marks[m as usize] = stamp;
                    out.push(m);
                    total += w;
                    self.cum.push(total);
                }
            }
        }
    }

    /// Brings colour `c`'s list up to date for its turn now, with the cumulative weights of
    /// its moves (the local squares must be set for `c`).
    fn update(&mut self, b: &mut Board, c: usize) {
        self.judge.set(b, c, &self.local);
        let want = Self::considered(b.nmoves(), b.ncolours());
        let list = &self.lists[c];
        if !list.ready || want < list.min_size {
            self.build(b, c, want);
        } else {
            let t = b.tables();
            let mut moves = std::mem::take(&mut self.lists[c].moves);
            let (judge, piece_weight, cum) = (&self.judge, &self.piece_weight, &mut self.cum);
            cum.clear();
            let mut total = 0.0f32;
            moves.retain(|&m| {
                if b.left(c, t.moves[m as usize].piece as usize) == 0 {
                    return false;
                }
                let Some(w) = judge.weigh(t, m, piece_weight) else {
                    return false;
                };
                total += w;
                cum.push(total);
                true
            });
            if let Some(last) = self.lists[c].last.take() {
                let min = self.lists[c].min_size;
                for &q in t.attach(last) {
                    if b.is_free_for(c, q as usize) {
                        self.add_at(b, c, q, min, &mut moves);
                    }
                }
            }
            self.lists[c].moves = moves;
        }
        if self.lists[c].moves.is_empty() && self.lists[c].min_size > 1 {
            self.build(b, c, 1);
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
            let n = self.lists[c].moves.len();
            if n == 0 {
                b.pass(c);
                idle += 1;
                c = b.next_colour(c);
                continue;
            }
            let m = if n == 1 {
                self.lists[c].moves[0]
            } else {
                let total = self.cum[n - 1];
                let r = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * total;
                let i = self.cum.partition_point(|&w| w <= r);
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
        for v in [Variant::Duo, Variant::Classic] {
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
                    let min = p.lists[c].min_size;
                    b.gen_moves_sized(c, min, 5, &mut mg, &mut full);
                    let mut have = p.lists[c].moves.clone();
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
