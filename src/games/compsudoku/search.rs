//! The Competitive Sudoku search: iterative-deepening alpha-beta (negamax) over cells.
//!
//! Points depend only on which cells are filled, never on the values, so the tree fills cells
//! with the values of one solution of the root grid: every such move keeps the grid solvable and
//! no solver runs inside the tree. A pass (a move that would make the grid unsolvable and
//! becomes taboo) is a move of its own: exact at the root (found by the solver), estimated below
//! it (some playable cell still has two candidate values). Ordering: transposition-table move,
//! completions by points, killers, quiet moves that leave no region one cell from completion,
//! the pass, then the moves that hand the opponent a completion. Leaves are scored by the point
//! difference, the completions the two sides can still grab in turn, the parity of the empty
//! cells (who fills the last cell, which scores 7) and, in territory modes, playable cells.
//!
//! The root searches each move with the window (K-th best value so far, infinity): the K best
//! moves get exact values (`MultiPV` K; K = 1 is plain alpha-beta). A playing level may add a
//! seeded bonus to each root move's value for the choice ([`SudokuSearch::with_noise`]).

use super::rules::{Game, Move, POINTS, move_name, neighbours};
use crate::search::SearchControl;
use crate::search::iterative::{Iteration, IterativeSearch, Progress};
use crate::sudoku::budget::{count_within, solvable_after_within};
use crate::sudoku::{Grid, Solver, feasible};
use std::time::{Duration, Instant};

/// Centipoints per point.
pub const SCALE: i32 = 100;
const INF: i32 = 1 << 28;
const PASS: u16 = u16::MAX;
/// A pass is chosen only when it is really better than every real move.
const PASS_COST: i32 = 10;
const NO_CELL: u16 = u16::MAX - 1;

/// Evaluation weights, in centipoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Bonus for the side to move when the number of empty cells is odd (it fills the last one).
    pub parity: i32,
    /// Percent of the alternating sum of the best open completions counted at a leaf.
    pub hot: i32,
    /// Per playable cell more than the opponent (territory modes).
    pub territory: i32,
}

/// The weights used unless told otherwise.
pub const DEFAULT_WEIGHTS: Weights = Weights {
    parity: 200,
    hot: 100,
    territory: 10,
};

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    flag: u8,
    best: u16,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const TT_BITS: u32 = 18;

/// One move at the root with its latest value.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    mv: Move,
    pass: bool,
    value: i32,
    /// Bonus added to the value when the move is chosen, never reported (a level's noise).
    noise: i32,
}

/// A root move whose value is exact at the iteration's depth, among the best ones.
#[derive(Clone, Copy)]
struct Ranked {
    mv: Move,
    value: i32,
    /// The value the choice ranks by: value plus the move's noise.
    choice: i32,
}

/// The search of one position; see the module documentation.
pub struct SudokuSearch {
    n: usize,
    territory: bool,
    weights: Weights,
    units_of: Vec<[u16; 3]>,
    nbrs: Vec<Vec<u16>>,
    solution: Vec<u8>,
    grid: Grid,
    unit_empty: Vec<u8>,
    owner: Vec<u8>,
    allowed: [Vec<bool>; 2],
    adj: [Vec<u8>; 2],
    empty: usize,
    hash: u64,
    zobrist: Vec<u64>,
    /// Per cell and value, the hash key of that value being taboo (passes made in the tree).
    taboo_keys: Vec<u64>,
    tt: Vec<Entry>,
    killers: Vec<[u16; 2]>,
    buffers: Vec<Vec<(u16, i32)>>,
    nodes: u64,
    stopped: bool,
    root: Vec<RootMove>,
    /// How many best root moves get exact values and are reported (`MultiPV`).
    lines: usize,
    root_player: usize,
    root_diff: i32,
    best: Option<(Move, i32)>,
    /// Per cell, the values known taboo (from the game, plus passes made in the tree).
    taboo_mask: Vec<u32>,
    /// Per cell, values other than the solution's known to keep the grid solvable at the root
    /// (not passes); empty when the root grid has a unique solution or was too big to check.
    safe_mask: Vec<u32>,
    /// True if `pass_values` is exact at the root (unique solution, or safe values checked).
    exact_passes: bool,
    /// Small grids with safe values: re-check them with the solver in the tree.
    recheck_safe: bool,
    /// Re-checked passes by grid and side: (key, cell, value bit), bit 0 for none.
    pass_cache: Vec<(u64, u16, u32)>,
    /// Scratch of the territory evaluation: each side's distance to every cell, and a queue.
    reach: [Vec<u16>; 2],
    reach_queue: Vec<u16>,
    /// Scratch of the territory evaluation: who can reach each region's empty cells.
    unit_holders: Vec<u8>,
    solver: Solver,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Value of an empty cell only one side can ever reach (territory modes), in centipoints.
const EXCLUSIVE_CELL: i32 = 100;
/// Value of an empty cell one side reaches in fewer moves than the other (territory modes).
const FIRST_CELL: i32 = 30;
/// Value per move of lead (up to `LEAD_CAP`) with which one side reaches an empty cell before
/// the other (territory modes): a cell the other needs two more moves for is nearly sealed.
const LEAD_CELL: i32 = 15;
/// Leads counted up to this many moves (an unreachable cell counts as this lead).
const LEAD_CAP: i32 = 2;
/// Value of a region (row, column or box) whose empty cells only one side can ever reach:
/// that side will complete it, alone, at its leisure (territory modes).
const EXCLUSIVE_REGION: i32 = 200;

/// Entries of the re-checked pass cache (a power of two).
const PASS_CACHE: usize = 1 << 14;

/// Most solver calls spent looking for a pass at the root.
const PASS_PROBES: usize = 24;
/// Cells with more candidate values than this are not probed for a pass (they rarely give one).
const PROBE_MAX_CANDIDATES: u32 = 3;

impl SudokuSearch {
    /// Prepares a search of `game` (solves the grid once and lists the root moves). The solve
    /// gives up when `stop` says so (a grid the solver cannot settle quickly); the search then
    /// knows no solution and judges the root moves with budgeted solver questions.
    pub fn new(game: &Game, weights: Weights, stop: &dyn Fn() -> bool) -> SudokuSearch {
        let shape = game.grid.shape();
        let n = shape.size();
        let cells = n * n;
        let mut solver = Solver::new();
        let solution = feasible::solve_until(&mut solver, &game.grid, stop)
            .map(|g| g.values().to_vec())
            .unwrap_or_else(|| vec![0; cells]);
        let units_of: Vec<[u16; 3]> = (0..cells)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                [
                    r as u16,
                    (n + c) as u16,
                    (2 * n + shape.box_of(r, c)) as u16,
                ]
            })
            .collect();
        let mut unit_empty = vec![0u8; 3 * n];
        for (cell, units) in units_of.iter().enumerate() {
            if game.grid.get(cell) == 0 {
                for &u in units {
                    unit_empty[u as usize] += 1;
                }
            }
        }
        let nbrs = neighbours(n);
        let territory = game.mode.is_territory();
        let mut adj = [vec![0u8; cells], vec![0u8; cells]];
        if territory {
            for (cell, around) in nbrs.iter().enumerate() {
                if let o @ 1..=2 = game.owner[cell] {
                    for &nb in around {
                        adj[o as usize - 1][nb as usize] += 1;
                    }
                }
            }
        }
        let mut state = 0x5EED_5D0C_u64;
        let zobrist: Vec<u64> = (0..cells * 3 + 4).map(|_| splitmix(&mut state)).collect();
        let taboo_keys: Vec<u64> = (0..cells * n).map(|_| splitmix(&mut state)).collect();
        let mut hash = 0;
        for cell in 0..cells {
            if game.grid.get(cell) != 0 && territory {
                hash ^= zobrist[cell * 3 + game.owner[cell] as usize];
            } else if game.grid.get(cell) != 0 {
                hash ^= zobrist[cell * 3];
            }
        }
        let mover = game.mover();
        let root_player = mover.unwrap_or(game.turn);
        let root_diff =
            (game.scores[root_player] as i32 - game.scores[1 - root_player] as i32) * SCALE;
        let mut search = SudokuSearch {
            n,
            territory,
            weights,
            units_of,
            nbrs,
            solution,
            grid: game.grid.clone(),
            unit_empty,
            owner: game.owner.clone(),
            allowed: game.allowed.clone(),
            adj,
            empty: cells - game.grid.filled(),
            hash,
            zobrist,
            taboo_keys,
            tt: vec![Entry::default(); 1 << TT_BITS],
            killers: vec![[NO_CELL; 2]; cells * 2 + 8],
            buffers: vec![Vec::new(); cells * 2 + 8],
            nodes: 0,
            stopped: false,
            root: Vec::new(),
            lines: 1,
            root_player,
            root_diff,
            best: None,
            taboo_mask: vec![0; cells],
            safe_mask: vec![0; cells],
            exact_passes: false,
            recheck_safe: false,
            pass_cache: Vec::new(),
            reach: [Vec::new(), Vec::new()],
            reach_queue: Vec::new(),
            unit_holders: Vec::new(),
            solver: Solver::new(),
        };
        for mv in &game.taboo {
            if (mv.cell as usize) < cells && mv.value >= 1 && mv.value as usize <= n {
                search.taboo_mask[mv.cell as usize] |= 1 << (mv.value - 1);
            }
        }
        let (safe, exact) = safe_values(&game.grid, &search.solution, &mut solver);
        search.safe_mask = safe;
        search.exact_passes = exact;
        search.recheck_safe =
            exact && n <= RECHECK_MAX_SIZE && search.safe_mask.iter().any(|&m| m != 0);
        if mover.is_some() {
            search.root = search.root_moves(game, &mut solver, stop);
        }
        search
    }

    /// The real moves of the root (one value per cell) and at most one pass. Without a known
    /// solution it asks the solver about each cell, and ends early when `stop` says so.
    fn root_moves(
        &mut self,
        game: &Game,
        solver: &mut Solver,
        stop: &dyn Fn() -> bool,
    ) -> Vec<RootMove> {
        let side = self.root_player;
        let mut moves = Vec::new();
        let mut playable = Vec::new();
        for cell in 0..self.n * self.n {
            if !game.is_playable(side, cell) {
                continue;
            }
            playable.push(cell);
            let mut value = self.solution[cell];
            let taboo = |v: u8| {
                game.taboo.contains(&Move {
                    cell: cell as u16,
                    value: v,
                })
            };
            if value == 0 || taboo(value) {
                // Only in inconsistent states: look for another value that keeps a solution.
                if stop() {
                    break;
                }
                value = 0;
                let mut mask = game.grid.candidates(cell);
                while mask != 0 {
                    let v = mask.trailing_zeros() as u8 + 1;
                    mask &= mask - 1;
                    // Unknown within the budget counts as solvable: the move stays a candidate.
                    if !taboo(v)
                        && solvable_after_within(solver, &game.grid, cell, v, PROBE_GUESSES)
                            != Some(false)
                    {
                        value = v;
                        break;
                    }
                }
            }
            if value != 0 {
                moves.push(RootMove {
                    mv: Move {
                        cell: cell as u16,
                        value,
                    },
                    pass: false,
                    value: 0,
                    noise: 0,
                });
            }
        }
        let pass = if self.exact_passes {
            self.pass_move(side).map(|(cell, bit)| Move {
                cell: cell as u16,
                value: bit.trailing_zeros() as u8 + 1,
            })
        } else {
            find_pass(game, &self.solution, &playable, solver)
        };
        if let Some(mv) = pass {
            moves.push(RootMove {
                mv,
                pass: true,
                value: 0,
                noise: 0,
            });
        }
        moves
    }

    /// Reports the `lines` best root moves (1 to the number of root moves) with exact values
    /// after each iteration, instead of only proving the best one.
    pub fn with_lines(mut self, lines: usize) -> SudokuSearch {
        self.lines = lines.max(1);
        self
    }

    /// Adds to each root move's value, for the choice only, a bonus from 0 to `amplitude`
    /// centipoints drawn from `seed` and the move: a weaker, varied player. Ignored when
    /// several lines are reported (they are ranked by their values alone).
    pub fn with_noise(mut self, amplitude: u32, seed: u64) -> SudokuSearch {
        for r in &mut self.root {
            let mut state = seed ^ (u64::from(r.mv.cell) << 8 | u64::from(r.mv.value));
            r.noise = (splitmix(&mut state) % (u64::from(amplitude) + 1)) as i32;
        }
        self
    }

    /// The move chosen so far and its value (centipoints, mover's view, final margin estimate).
    pub fn chosen(&self) -> Option<(Move, i32)> {
        self.best
    }

    /// True if the chosen move is a deliberate pass.
    pub fn chosen_is_pass(&self) -> bool {
        self.best
            .is_some_and(|(mv, _)| self.root.iter().any(|r| r.pass && r.mv == mv))
    }

    fn playable(&self, side: usize, cell: usize) -> bool {
        self.grid.get(cell) == 0
            && (!self.territory || self.allowed[side][cell] || self.adj[side][cell] > 0)
    }

    fn points(&self, cell: usize) -> i32 {
        let k = self.units_of[cell]
            .iter()
            .filter(|&&u| self.unit_empty[u as usize] == 1)
            .count();
        POINTS[k] as i32 * SCALE
    }

    /// Regions the move leaves one cell from completion.
    fn setups(&self, cell: usize) -> i32 {
        self.units_of[cell]
            .iter()
            .filter(|&&u| self.unit_empty[u as usize] == 2)
            .count() as i32
    }

    fn make(&mut self, cell: usize, side: usize) {
        let _ = self.grid.place(cell, self.solution[cell]);
        for u in self.units_of[cell] {
            self.unit_empty[u as usize] -= 1;
        }
        self.empty -= 1;
        if self.territory {
            self.owner[cell] = side as u8 + 1;
            for i in 0..self.nbrs[cell].len() {
                let nb = self.nbrs[cell][i] as usize;
                self.adj[side][nb] += 1;
            }
            self.hash ^= self.zobrist[cell * 3 + side + 1];
        } else {
            self.hash ^= self.zobrist[cell * 3];
        }
    }

    fn unmake(&mut self, cell: usize, side: usize) {
        self.grid.clear(cell);
        for u in self.units_of[cell] {
            self.unit_empty[u as usize] += 1;
        }
        self.empty += 1;
        if self.territory {
            self.owner[cell] = 0;
            for i in 0..self.nbrs[cell].len() {
                let nb = self.nbrs[cell][i] as usize;
                self.adj[side][nb] -= 1;
            }
            self.hash ^= self.zobrist[cell * 3 + side + 1];
        } else {
            self.hash ^= self.zobrist[cell * 3];
        }
    }

    fn can_move(&self, side: usize) -> bool {
        if !self.territory {
            return self.empty > 0;
        }
        (0..self.n * self.n).any(|cell| self.playable(side, cell))
    }

    /// Values of `cell` that would make the grid unsolvable and are not taboo yet: exact when
    /// the root grid has a unique solution or its safe values were checked, else an estimate.
    fn pass_values(&self, cell: usize) -> u32 {
        let sol = self.solution[cell];
        if sol == 0 {
            return 0;
        }
        self.grid.candidates(cell)
            & !(1 << (sol - 1))
            & !self.taboo_mask[cell]
            & !self.safe_mask[cell]
    }

    /// A pass for `side`: a playable cell and one of its pass values (as a bit).
    fn pass_move(&mut self, side: usize) -> Option<(usize, u32)> {
        let cells = self.n * self.n;
        let found = (0..cells)
            .filter(|&cell| self.playable(side, cell))
            .find_map(|cell| {
                let m = self.pass_values(cell);
                (m != 0).then(|| (cell, m & m.wrapping_neg()))
            });
        if found.is_some() || !self.recheck_safe {
            return found;
        }
        // Small grids: a value that kept the root grid solvable may not any more. The answer
        // is kept per key (grid, side and the passes made in the tree).
        let key = self.key(side);
        let slot = (key as usize) & (PASS_CACHE - 1);
        if let Some(&(k, cell, bit)) = self.pass_cache.get(slot)
            && k == key
        {
            return (bit != 0).then_some((cell as usize, bit));
        }
        let mut asked = Vec::new();
        for cell in 0..cells {
            if !self.playable(side, cell) || self.solution[cell] == 0 {
                continue;
            }
            let mut m = self.grid.candidates(cell)
                & self.safe_mask[cell]
                & !self.taboo_mask[cell]
                & !(1 << (self.solution[cell] - 1));
            while m != 0 {
                let v = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                asked.push((cell, v));
            }
        }
        // Grids of at most 6x6: settled in well under a millisecond, the deadline never binds.
        let deadline = Instant::now() + Duration::from_secs(1);
        let verdicts = feasible::classify(&mut self.solver, &self.grid, &asked, deadline, 0);
        let found = asked
            .iter()
            .zip(verdicts)
            .find(|(_, verdict)| *verdict == Some(false))
            .map(|(&(cell, v), _)| (cell, 1u32 << (v - 1)));
        if self.pass_cache.is_empty() {
            self.pass_cache = vec![(0, 0, 0); PASS_CACHE];
        }
        let (cell, bit) = found.unwrap_or((0, 0));
        self.pass_cache[slot] = (key, cell as u16, bit);
        found
    }

    fn pass_available(&mut self, side: usize) -> bool {
        self.pass_move(side).is_some()
    }

    /// Static value for the side to move, in centipoints of future margin.
    fn evaluate(&mut self, side: usize) -> i32 {
        let w = self.weights;
        let mut top = [0i32; 4];
        let mut mine = 0i32;
        let mut theirs = 0i32;
        for cell in 0..self.n * self.n {
            if self.grid.get(cell) != 0 {
                continue;
            }
            let me = self.playable(side, cell);
            if self.territory {
                mine += i32::from(me);
                theirs += i32::from(self.playable(1 - side, cell));
            }
            if !me {
                continue;
            }
            let g = self.points(cell);
            if g > top[3] {
                top[3] = g;
                top.sort_unstable_by_key(|&g| std::cmp::Reverse(g));
            }
        }
        let mut value = (top[0] - top[1] + top[2] - top[3]) * w.hot / 100;
        if self.territory {
            let (first, only, regions, lead) = self.territory_balance(side);
            value += (mine - theirs) * w.territory
                + first * FIRST_CELL
                + lead * LEAD_CELL
                + only * EXCLUSIVE_CELL
                + regions * EXCLUSIVE_REGION;
        } else if !self.pass_available(side) && !self.pass_available(1 - side) {
            // Nobody can pass any more: the side to move fills the last cell iff the number of
            // empty cells is odd.
            value += if self.empty % 2 == 1 {
                w.parity
            } else {
                -w.parity
            };
        }
        value
    }

    /// The territory of `side` against the opponent's: (empty cells it reaches in fewer moves,
    /// minus those the opponent reaches first; empty cells only it can ever reach, minus those
    /// only the opponent can; regions whose empty cells only it can reach, minus the
    /// opponent's; the sum over empty cells of its lead in moves, capped). A player reaches a cell it may fill now in 0 moves, and from a
    /// cell it reaches every empty neighbour one move later. Cells nobody else can reach are
    /// points and spare moves at the end, when a player shut out of the rest must watch the
    /// other fill it.
    fn territory_balance(&mut self, side: usize) -> (i32, i32, i32, i32) {
        let cells = self.n * self.n;
        for s in 0..2 {
            let mut dist = std::mem::take(&mut self.reach[s]);
            dist.clear();
            dist.resize(cells, u16::MAX);
            let mut queue = std::mem::take(&mut self.reach_queue);
            queue.clear();
            for (cell, d) in dist.iter_mut().enumerate() {
                if self.playable(s, cell) {
                    *d = 0;
                    queue.push(cell as u16);
                }
            }
            let mut head = 0;
            while let Some(&cell) = queue.get(head) {
                head += 1;
                let next = dist[cell as usize] + 1;
                for &nb in &self.nbrs[cell as usize] {
                    let nb = nb as usize;
                    if dist[nb] == u16::MAX && self.grid.get(nb) == 0 {
                        dist[nb] = next;
                        queue.push(nb as u16);
                    }
                }
            }
            self.reach[s] = dist;
            self.reach_queue = queue;
        }
        let (mine, theirs) = (&self.reach[side], &self.reach[1 - side]);
        let (mut first, mut only, mut lead) = (0, 0, 0);
        // Per region: bit 0 set by an empty cell only `side` reaches, bit 1 by any other.
        let holders = &mut self.unit_holders;
        holders.clear();
        holders.resize(3 * self.n, 0);
        for (cell, (&m, &t)) in mine.iter().zip(theirs).enumerate() {
            first += i32::from(m < t) - i32::from(t < m);
            if m != u16::MAX || t != u16::MAX {
                lead += (i32::from(t) - i32::from(m)).clamp(-LEAD_CAP, LEAD_CAP);
            }
            let (m_only, t_only) = (
                t == u16::MAX && m != u16::MAX,
                m == u16::MAX && t != u16::MAX,
            );
            only += i32::from(m_only) - i32::from(t_only);
            if self.grid.get(cell) == 0 {
                let holder = if m_only {
                    1
                } else if t_only {
                    2
                } else {
                    3
                };
                for &u in &self.units_of[cell] {
                    holders[u as usize] |= holder;
                }
            }
        }
        let regions = holders
            .iter()
            .map(|&h| i32::from(h == 1) - i32::from(h == 2))
            .sum();
        (first, only, regions, lead)
    }

    /// Orders the root moves: the previous best first, then by the previous iteration's values;
    /// before the first iteration, completions by points, quiet moves, the pass, then the moves
    /// that hand the opponent a completion.
    fn order_root(&mut self) {
        if let Some((best, _)) = self.best {
            self.root.sort_by_key(|r| (r.mv != best, -r.value));
            return;
        }
        let mut keyed: Vec<(i32, RootMove)> = self
            .root
            .iter()
            .map(|r| {
                let cell = r.mv.cell as usize;
                let key = if r.pass {
                    -50
                } else {
                    let g = self.points(cell);
                    if g > 0 {
                        g * 100
                    } else {
                        -100 * self.setups(cell)
                    }
                };
                (key, *r)
            })
            .collect();
        keyed.sort_by_key(|(k, _)| -k);
        self.root = keyed.into_iter().map(|(_, r)| r).collect();
    }

    /// The value of a root move at `depth`, searched with the window (`bound`, infinity): exact
    /// above `bound`, an upper bound otherwise.
    fn search_root_move(
        &mut self,
        root: RootMove,
        depth: u32,
        bound: i32,
        control: &SearchControl,
    ) -> i32 {
        let side = self.root_player;
        let mv = root.mv;
        if root.pass {
            let (pc, bit) = (mv.cell as usize, 1u32 << (mv.value - 1));
            let fresh = self.taboo_mask[pc] & bit == 0;
            if fresh {
                self.toggle_taboo(pc, bit);
            }
            let v = -PASS_COST
                - self.negamax(1 - side, depth - 1, -INF, -bound - PASS_COST, 1, control);
            if fresh {
                self.toggle_taboo(pc, bit);
            }
            v
        } else {
            let cell = mv.cell as usize;
            let g = self.points(cell);
            self.make(cell, side);
            let v = g - self.negamax(1 - side, depth - 1, -INF, -bound, 1, control);
            self.unmake(cell, side);
            v
        }
    }

    fn tt_index(&self, key: u64) -> usize {
        (key >> (64 - TT_BITS)) as usize
    }

    fn key(&self, side: usize) -> u64 {
        self.hash ^ self.zobrist[self.n * self.n * 3 + side]
    }

    /// Marks a pass (a value of a cell becoming taboo) made in the tree, or takes it back.
    fn toggle_taboo(&mut self, cell: usize, bit: u32) {
        self.taboo_mask[cell] ^= bit;
        self.hash ^= self.taboo_keys[cell * self.n + bit.trailing_zeros() as usize];
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        side: usize,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        control: &SearchControl,
    ) -> i32 {
        self.nodes += 1;
        // Looked at on every 16th node, leaves included (a leaf's evaluation may ask the solver).
        if self.nodes & 15 == 0 && control.must_stop(self.nodes) {
            self.stopped = true;
        }
        if !self.can_move(side) {
            if !self.can_move(1 - side) {
                return 0;
            }
            // Skipped: the opponent moves again.
            return -self.negamax(1 - side, depth, -beta, -alpha, ply + 1, control);
        }
        if depth == 0 || ply + 2 >= self.buffers.len() {
            return self.evaluate(side);
        }
        if self.stopped {
            return 0;
        }
        let key = self.key(side);
        let slot = self.tt_index(key);
        let entry = self.tt[slot];
        let mut tt_move = NO_CELL;
        if entry.key == key {
            tt_move = entry.best;
            if entry.depth as u32 >= depth {
                let v = entry.value;
                match entry.flag {
                    EXACT => return v,
                    LOWER if v >= beta => return v,
                    UPPER if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let killers = self.killers[ply];
        for cell in 0..self.n * self.n {
            if !self.playable(side, cell) {
                continue;
            }
            let g = self.points(cell);
            let c = cell as u16;
            let key = if c == tt_move {
                1 << 24
            } else if g > 0 {
                1 << 20 | g
            } else if killers.contains(&c) {
                1 << 16
            } else {
                -100 * self.setups(cell)
            };
            moves.push((c, key));
        }
        let pass = self.pass_move(side);
        if pass.is_some() {
            let key = if tt_move == PASS { 1 << 24 } else { -50 };
            moves.push((PASS, key));
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.1));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_CELL;
        for &(c, _) in &moves {
            let value = if let (PASS, Some((pc, bit))) = (c, pass) {
                self.toggle_taboo(pc, bit);
                let v = -PASS_COST
                    - self.negamax(
                        1 - side,
                        depth - 1,
                        -beta - PASS_COST,
                        -alpha - PASS_COST,
                        ply + 1,
                        control,
                    );
                self.toggle_taboo(pc, bit);
                v
            } else {
                let cell = c as usize;
                let g = self.points(cell);
                self.make(cell, side);
                let v = g - self.negamax(1 - side, depth - 1, -beta, -alpha, ply + 1, control);
                self.unmake(cell, side);
                v
            };
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if value > best {
                best = value;
                best_move = c;
            }
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta {
                if c != PASS && self.points(c as usize) == 0 && self.killers[ply][0] != c {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = c;
                }
                break;
            }
        }
        self.buffers[ply] = moves;
        let flag = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = Entry {
            key,
            value: best,
            depth: depth.min(255) as u8,
            flag,
            best: best_move,
        };
        best
    }
}

/// Solver guesses one root question may spend (large grids can take very long to settle).
const PROBE_GUESSES: u64 = 500;

/// Largest grid side whose safe values are re-checked by the solver inside the tree.
const RECHECK_MAX_SIZE: usize = 6;

/// Most solver calls spent listing the values that keep a multi-solution grid solvable.
const SAFE_CHECK_MAX: u32 = 300;

/// Per cell, the candidate values other than `solution`'s that keep `grid` solvable, and whether
/// that list is complete (a unique solution needs no check: every other value is a pass).
fn safe_values(grid: &Grid, solution: &[u8], solver: &mut Solver) -> (Vec<u32>, bool) {
    let cells = grid.shape().cells();
    let mut safe = vec![0u32; cells];
    if solution.iter().all(|&v| v == 0) {
        return (safe, false);
    }
    match count_within(solver, grid, 2, PROBE_GUESSES) {
        Some(0 | 1) => return (safe, true),
        Some(_) => {}
        None => return (safe, false),
    }
    let pairs: u32 = (0..cells)
        .map(|c| grid.candidates(c).count_ones().saturating_sub(1))
        .sum();
    if pairs > SAFE_CHECK_MAX {
        return (safe, false);
    }
    for (cell, mask) in safe.iter_mut().enumerate() {
        let mut m = grid.candidates(cell);
        while m != 0 {
            let v = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            // Unknown within the budget counts as safe: never a pass by mistake.
            if v != solution[cell]
                && solvable_after_within(solver, grid, cell, v, PROBE_GUESSES) != Some(false)
            {
                *mask |= 1 << (v - 1);
            }
        }
    }
    (safe, true)
}

/// A move that would leave the grid unsolvable (a pass), if one is found cheaply: first a value
/// that some other cell of its row, column or box can only take (no solver needed), then a few
/// solver probes of values that differ from the solution.
fn find_pass(
    game: &Game,
    solution: &[u8],
    playable: &[usize],
    solver: &mut Solver,
) -> Option<Move> {
    let grid = &game.grid;
    let n = grid.size();
    let shape = grid.shape();
    let allowed = |cell: usize, value: u8| {
        let mv = Move {
            cell: cell as u16,
            value,
        };
        grid.check_move(cell, value).is_ok() && !game.taboo.contains(&mv)
    };
    let peers = |a: usize, b: usize| {
        let (r1, c1, r2, c2) = (a / n, a % n, b / n, b % n);
        a != b && (r1 == r2 || c1 == c2 || shape.box_of(r1, c1) == shape.box_of(r2, c2))
    };
    // Naked singles: a cell whose only candidate is v forbids v in all its peers.
    for single in 0..n * n {
        let mask = grid.candidates(single);
        if grid.get(single) != 0 || mask.count_ones() != 1 {
            continue;
        }
        let v = mask.trailing_zeros() as u8 + 1;
        if let Some(&cell) = playable
            .iter()
            .find(|&&cell| peers(single, cell) && allowed(cell, v))
        {
            return Some(Move {
                cell: cell as u16,
                value: v,
            });
        }
    }
    // Solver probes, cells with the fewest candidates first.
    let mut order: Vec<usize> = playable.to_vec();
    order.sort_by_key(|&cell| grid.candidates(cell).count_ones());
    let mut probes = 0;
    for &cell in &order {
        if grid.candidates(cell).count_ones() > PROBE_MAX_CANDIDATES {
            break;
        }
        let mut mask = grid.candidates(cell);
        while mask != 0 {
            let v = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            if v == solution[cell] || !allowed(cell, v) {
                continue;
            }
            if probes >= PASS_PROBES {
                return None;
            }
            probes += 1;
            if solvable_after_within(solver, grid, cell, v, PROBE_GUESSES) == Some(false) {
                return Some(Move {
                    cell: cell as u16,
                    value: v,
                });
            }
        }
    }
    None
}

impl IterativeSearch for SudokuSearch {
    fn iterate(
        &mut self,
        depth: u32,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<Iteration> {
        if self.root.is_empty() {
            return Some(Iteration {
                pv: Vec::new(),
                score: self.root_diff as i64,
                complete: true,
                others: Vec::new(),
            });
        }
        self.order_root();
        let n = self.n;
        // The best moves with exact values, best choice first; a move is searched with a window
        // that proves only whether it enters them.
        let mut top: Vec<Ranked> = Vec::with_capacity(self.lines + 1);
        for i in 0..self.root.len() {
            let root = self.root[i];
            let noise = if self.lines == 1 { root.noise } else { 0 };
            let threshold = match top.get(self.lines - 1) {
                Some(last) => last.choice,
                None => -INF,
            };
            let bound = threshold - noise;
            let value = self.search_root_move(root, depth, bound, control);
            // An interrupted subtree's value means nothing; at depth 1 values are leaf
            // evaluations, exact even when the stop came meanwhile.
            if self.stopped && depth > 1 {
                break;
            }
            if value > bound {
                self.root[i].value = value;
                let choice = value + noise;
                let rank = top.partition_point(|t| t.choice >= choice);
                top.insert(
                    rank,
                    Ranked {
                        mv: root.mv,
                        value,
                        choice,
                    },
                );
                top.truncate(self.lines);
                if rank == 0 {
                    self.best = Some((root.mv, value));
                    progress.improved(
                        &[move_name(root.mv, n)],
                        (self.root_diff + value) as i64,
                        self.nodes,
                    );
                }
            } else {
                // Below the bound: only an upper bound; keep it below for the ordering.
                self.root[i].value = value.min(bound - 1);
            }
            if self.stopped {
                break;
            }
        }
        let (best, others) = top.split_first()?;
        let line = |r: &Ranked| (vec![move_name(r.mv, n)], (self.root_diff + r.value) as i64);
        Some(Iteration {
            pv: line(best).0,
            score: (self.root_diff + best.value) as i64,
            complete: !self.stopped,
            others: others.iter().map(line).collect(),
        })
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn max_depth(&self) -> Option<u32> {
        Some((2 * self.empty + 2).min(250) as u32)
    }

    fn lines(&self) -> usize {
        self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::compsudoku::rules::Mode;
    use crate::search::Info;
    use crate::search::iterative::deepen;
    use crate::sudoku::Shape;

    const SOLUTION: &str = "1234341221434321";

    /// Plain negamax over the same model (cells take the solution's values; a pass uses the
    /// first cell holding a candidate other than its solution value).
    fn brute(grid: &mut Grid, sol: &[u8], taboo: &mut [u32]) -> i32 {
        let cells = grid.shape().cells();
        let empties: Vec<usize> = (0..cells).filter(|&c| grid.get(c) == 0).collect();
        if empties.is_empty() {
            return 0;
        }
        let mut best = -INF;
        for &c in &empties {
            let game = Game {
                grid: grid.clone(),
                ..Game::new(grid.shape(), Mode::Classic, 0)
            };
            let gain = game.points_for(c) as i32 * SCALE;
            grid.place(c, sol[c]).unwrap();
            best = best.max(gain - brute(grid, sol, taboo));
            grid.clear(c);
        }
        let pass = empties.iter().find_map(|&c| {
            let m = grid.candidates(c) & !(1 << (sol[c] - 1)) & !taboo[c];
            (m != 0).then(|| (c, m & m.wrapping_neg()))
        });
        if let Some((c, bit)) = pass {
            taboo[c] |= bit;
            best = best.max(-PASS_COST - brute(grid, sol, taboo));
            taboo[c] &= !bit;
        }
        best
    }

    #[test]
    fn a_region_only_one_side_can_reach_counts_for_it() {
        // 4x4, rows mode: only the bottom-left box is empty, walled in (edges and corners) by
        // player 2.s cells
        // and player 2's starting row; player 1 reaches none of it.
        let shape = Shape::new(2, 2).unwrap();
        let mut values: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        let pocket = [8, 9, 12, 13];
        for &c in &pocket {
            values[c] = 0;
        }
        let mut game = Game::new(shape, Mode::Rows, 0);
        game.grid = Grid::from_values(shape, &values).unwrap();
        game.owner = vec![1; 16];
        for c in [4, 5, 6, 10, 14] {
            game.owner[c] = 2;
        }
        for &c in &pocket {
            game.owner[c] = 0;
        }
        game.allowed = [
            (0..16).map(|c| c < 4).collect(),
            (0..16).map(|c| c >= 12).collect(),
        ];
        let mut search = SudokuSearch::new(&game, DEFAULT_WEIGHTS, &|| false);
        // The box, rows 3 and 4 from the top, columns a and b: five regions, four cells.
        assert_eq!(search.territory_balance(1), (4, 4, 5, 8));
        assert_eq!(search.territory_balance(0), (-4, -4, -5, -8));
    }

    /// `count` 4x4 grids of [`SOLUTION`] with 3 to 7 cells emptied and a unique solution.
    fn small_endgames(seed: u64, count: usize) -> Vec<Grid> {
        let shape = Shape::new(2, 2).unwrap();
        let sol: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        let mut state = seed;
        let mut grids = Vec::new();
        while grids.len() < count {
            let mut values = sol.clone();
            let empties = 3 + (splitmix(&mut state) % 5) as usize;
            for _ in 0..empties {
                values[(splitmix(&mut state) % 16) as usize] = 0;
            }
            let grid = Grid::from_values(shape, &values).unwrap();
            if grid.count_solutions(2) == 1 {
                grids.push(grid);
            }
        }
        grids
    }

    fn classic(grid: &Grid) -> Game {
        let mut game = Game::new(grid.shape(), Mode::Classic, 0);
        game.grid = grid.clone();
        game
    }

    #[test]
    fn full_depth_search_equals_brute_force_on_small_endgames() {
        let sol: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        for grid in small_endgames(7, 40) {
            let mut search = SudokuSearch::new(&classic(&grid), DEFAULT_WEIGHTS, &|| false);
            deepen(&mut search, &SearchControl::unlimited(), &mut |_| {});
            let (_, value) = search.chosen().unwrap();
            let expected = brute(&mut grid.clone(), &sol, &mut [0; 16]);
            assert_eq!(value, expected, "{grid:?}");
        }
    }

    /// The brute-force value of one root move: its cell filled, or for a pass its value taboo.
    fn brute_move(grid: &Grid, sol: &[u8], mv: Move, pass: bool) -> i32 {
        let (mut grid, mut taboo) = (grid.clone(), [0u32; 16]);
        let cell = usize::from(mv.cell);
        if pass {
            taboo[cell] |= 1 << (mv.value - 1);
            return -PASS_COST - brute(&mut grid, sol, &mut taboo);
        }
        let gain = classic(&grid).points_for(cell) as i32 * SCALE;
        grid.place(cell, sol[cell]).unwrap();
        gain - brute(&mut grid, sol, &mut taboo)
    }

    #[test]
    fn every_line_of_a_multipv_search_has_the_brute_force_value_of_its_move() {
        let sol: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        for grid in small_endgames(11, 40) {
            let lines = 3;
            let mut search =
                SudokuSearch::new(&classic(&grid), DEFAULT_WEIGHTS, &|| false).with_lines(lines);
            let root = search.root.clone();
            // The block of lines of the last iteration: multipv 1, then 2 and up.
            let mut block: Vec<Info> = Vec::new();
            deepen(&mut search, &SearchControl::unlimited(), &mut |info| {
                if info.multipv == Some(1) {
                    block.clear();
                }
                block.push(info.clone());
            });
            assert_eq!(block.len(), lines.min(root.len()), "{grid:?}");
            let mut seen = Vec::new();
            for (rank, info) in block.iter().enumerate() {
                assert_eq!(info.multipv, Some(rank + 1));
                assert!(
                    rank == 0 || info.score <= block[rank - 1].score,
                    "{block:?}"
                );
                let mv = crate::games::compsudoku::rules::parse_move(&info.pv[0], 4).unwrap();
                assert!(!seen.contains(&mv), "distinct moves: {block:?}");
                seen.push(mv);
                let pass = root.iter().any(|r| r.pass && r.mv == mv);
                let expected = brute_move(&grid, &sol, mv, pass);
                assert_eq!(info.score, i64::from(expected), "{grid:?} {info:?}");
            }
            let (best, _) = search.chosen().unwrap();
            assert_eq!(
                move_name(best, 4),
                block[0].pv[0],
                "the best line is the choice"
            );
        }
    }

    #[test]
    fn the_noise_varies_the_choice_by_seed_only() {
        let game = Game::new(Shape::new(3, 3).unwrap(), Mode::Classic, 0);
        let depth_one = SearchControl::unlimited().capped(None, Some(1));
        let choose = |noise: u32, seed: u64| {
            let mut search =
                SudokuSearch::new(&game, DEFAULT_WEIGHTS, &|| false).with_noise(noise, seed);
            deepen(&mut search, &depth_one, &mut |_| {});
            search.chosen().unwrap().0
        };
        let noisy: Vec<Move> = (0..12).map(|seed| choose(300, seed)).collect();
        let plain: Vec<Move> = (0..12).map(|seed| choose(0, seed)).collect();
        assert!(noisy.iter().any(|&mv| mv != noisy[0]), "{noisy:?}");
        assert!(plain.iter().all(|&mv| mv == plain[0]), "{plain:?}");
        assert_eq!(choose(300, 5), noisy[5], "the same seed, the same move");
    }
}
