//! The solver for every box shape: one candidate mask per cell, naked and hidden singles, locked
//! candidates (pointing and claiming), and branching on a cell with the fewest candidates.
//!
//! Search boards live in a [`Workspace`] that is reused between calls, so after the first call of
//! a given depth no search allocates.
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::grid::Grid;
use super::query::{Extra, Outcome, Query};
use super::shape::{MAX_CELLS, MAX_SIZE, Shape, Tables};

/// One search node: the candidates of every cell (a single bit once assigned) and the values.
#[derive(Clone)]
struct Board {
    cand: [u32; MAX_CELLS],
    value: [u8; MAX_CELLS],
    open: usize,
}

impl Board {
    fn new() -> Board {
        Board {
            cand: [0; MAX_CELLS],
            value: [0; MAX_CELLS],
            open: 0,
        }
    }
}

/// Reusable memory for the generic search: one board per depth, the naked-single queue and the
/// segment masks of the locked-candidates step.
pub(crate) struct Workspace {
    levels: Vec<Board>,
    queue: Vec<u16>,
    segments: Vec<u32>,
}

impl Workspace {
    /// An empty workspace; boards are added the first time a depth is reached.
    pub fn new() -> Workspace {
        Workspace {
            levels: Vec::new(),
            queue: Vec::with_capacity(MAX_CELLS),
            segments: vec![0; MAX_CELLS],
        }
    }

    /// Runs one query on `grid` (plus the `extra` restriction). With `rng`, candidates are tried
    /// in random order (used to build random solved grids).
    pub fn run(
        &mut self,
        grid: &Grid,
        extra: Extra,
        query: Query,
        rng: Option<&mut SmallRng>,
    ) -> Outcome {
        let shape = grid.shape();
        let mut search = Search {
            tables: shape.tables(),
            shape,
            removed: false,
            size: shape.size(),
            cells: shape.cells(),
            full: shape.full_mask(),
            levels: &mut self.levels,
            queue: &mut self.queue,
            segments: &mut self.segments,
            dirty: 0,
            query,
            rng,
            outcome: Outcome::default(),
            grid,
        };
        if search.start(extra) {
            search.search(0);
        }
        search.queue.clear();
        search.outcome
    }
}

struct Search<'a> {
    tables: &'static Tables,
    shape: Shape,
    /// Set when `eliminate` removes a candidate.
    removed: bool,
    size: usize,
    cells: usize,
    full: u32,
    levels: &'a mut Vec<Board>,
    queue: &'a mut Vec<u16>,
    segments: &'a mut [u32],
    /// Units (bits numbered as in `Tables::units`) changed since their last hidden-single check.
    dirty: u128,
    query: Query,
    rng: Option<&'a mut SmallRng>,
    outcome: Outcome,
    grid: &'a Grid,
}

impl Search<'_> {
    /// Fills the root board from the grid and propagates; false on a contradiction.
    fn start(&mut self, extra: Extra) -> bool {
        if self.levels.is_empty() {
            self.levels.push(Board::new());
        }
        let grid = self.grid;
        self.dirty = (1u128 << (3 * self.size)) - 1;
        let board = &mut self.levels[0];
        board.open = 0;
        for cell in 0..self.cells {
            let value = grid.get(cell);
            board.value[cell] = value;
            if value != 0 {
                board.cand[cell] = 1 << (value - 1);
            } else {
                board.cand[cell] = grid.candidates(cell);
                board.open += 1;
            }
        }
        match extra {
            Extra::None => {}
            Extra::Forbid(cell, value) => {
                if board.value[cell] == 0 {
                    board.cand[cell] &= !(1 << (value - 1));
                }
            }
            Extra::Place(cell, value) => {
                if grid.check_move(cell, value).is_err() {
                    return false;
                }
                // A single candidate: the queue below assigns it like any naked single.
                board.cand[cell] = 1 << (value - 1);
            }
        }
        for cell in 0..self.cells {
            let x = board.cand[cell];
            if board.value[cell] == 0 {
                if x == 0 {
                    return false;
                }
                if x & (x - 1) == 0 {
                    self.queue.push(cell as u16);
                }
            }
        }
        self.propagate(0)
    }

    /// Writes the value `bit` in `cell` and removes it from the peers, queueing new singles.
    fn assign(&mut self, level: usize, cell: usize, bit: u32) -> bool {
        let board = &mut self.levels[level];
        board.value[cell] = bit.trailing_zeros() as u8 + 1;
        board.cand[cell] = bit;
        board.open -= 1;
        self.dirty |= self.tables.cell_units[cell];
        for &peer in self.tables.peers_of(cell) {
            let peer = peer as usize;
            let x = board.cand[peer];
            if x & bit != 0 {
                if board.value[peer] != 0 {
                    return false;
                }
                let y = x & !bit;
                board.cand[peer] = y;
                self.dirty |= self.tables.cell_units[peer];
                if y == 0 {
                    return false;
                }
                if y & (y - 1) == 0 {
                    self.queue.push(peer as u16);
                }
            }
        }
        true
    }

    /// Assigns queued naked singles until none is left.
    fn drain(&mut self, level: usize) -> bool {
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            let board = &self.levels[level];
            if board.value[cell] == 0 && !self.assign(level, cell, board.cand[cell]) {
                return false;
            }
        }
        true
    }

    /// Singles and locked candidates to a fixpoint; false on a contradiction (queue left
    /// cleared).
    fn propagate(&mut self, level: usize) -> bool {
        loop {
            let step = if self.drain(level) && self.hidden_singles(level) {
                self.locked_candidates(level)
            } else {
                None
            };
            match step {
                Some(true) => {}
                Some(false) => return true,
                None => {
                    self.reset();
                    return false;
                }
            }
        }
    }

    /// Forgets pending work after a contradiction.
    fn reset(&mut self) {
        self.queue.clear();
        self.dirty = 0;
    }

    /// Removes `bits` from the open cell `cell`, queueing it if one value is left, noting any
    /// removal in `removed`.
    fn eliminate(&mut self, level: usize, cell: usize, bits: u32) -> bool {
        let board = &mut self.levels[level];
        let x = board.cand[cell];
        if board.value[cell] != 0 || x & bits == 0 {
            return true;
        }
        let y = x & !bits;
        board.cand[cell] = y;
        self.removed = true;
        self.dirty |= self.tables.cell_units[cell];
        if y & y.wrapping_sub(1) == 0 {
            self.queue.push(cell as u16);
        }
        y != 0
    }

    /// Pointing and claiming: where a box meets a row (or column), a value whose candidates in
    /// the box all lie in the meeting cells leaves the rest of the line, and one whose candidates
    /// in the line all lie there leaves the rest of the box. `None` on a contradiction, else
    /// whether anything was removed.
    fn locked_candidates(&mut self, level: usize) -> Option<bool> {
        let (size, m, n) = (self.size, self.shape.box_rows(), self.shape.box_cols());
        self.removed = false;
        // Rows: segment (r, k) is row r inside stack k (n cells); its box holds rows of band r/m.
        // Columns: segment (c, k) is column c inside band k (m cells); its box holds columns of
        // stack c/n. Same logic with (m, n) swapped and the cell index transposed.
        for transpose in [false, true] {
            let (seg_len, segs, per_box) = if transpose { (m, n, n) } else { (n, m, m) };
            let cell = |line: usize, pos: usize| {
                if transpose {
                    pos * size + line
                } else {
                    line * size + pos
                }
            };
            let board = &self.levels[level];
            for line in 0..size {
                for k in 0..segs {
                    self.segments[line * segs + k] = (k * seg_len..(k + 1) * seg_len)
                        .fold(0, |acc, pos| acc | board.cand[cell(line, pos)]);
                }
            }
            for line in 0..size {
                let first = line / per_box * per_box;
                for k in 0..segs {
                    let seg = &self.segments;
                    let here = seg[line * segs + k];
                    let box_rest = (first..first + per_box)
                        .filter(|&l| l != line)
                        .fold(0, |acc, l| acc | seg[l * segs + k]);
                    let line_rest = (0..segs)
                        .filter(|&j| j != k)
                        .fold(0, |acc, j| acc | seg[line * segs + j]);
                    let pointing = here & !box_rest & line_rest;
                    if pointing != 0 {
                        for pos in (0..size).filter(|&p| p / seg_len != k) {
                            if !self.eliminate(level, cell(line, pos), pointing) {
                                return None;
                            }
                        }
                    }
                    let claiming = here & !line_rest & box_rest;
                    if claiming != 0 {
                        for l in (first..first + per_box).filter(|&l| l != line) {
                            for pos in k * seg_len..(k + 1) * seg_len {
                                if !self.eliminate(level, cell(l, pos), claiming) {
                                    return None;
                                }
                            }
                        }
                    }
                }
            }
        }
        Some(self.removed)
    }

    /// Checks the changed units for values with a single place left and assigns them, until no
    /// unit is left to check.
    fn hidden_singles(&mut self, level: usize) -> bool {
        let n = self.size;
        while self.dirty != 0 {
            let unit = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let cells = &self.tables.units[unit * n..(unit + 1) * n];
            let board = &self.levels[level];
            let (mut once, mut twice, mut fixed) = (0u32, 0u32, 0u32);
            for &c in cells {
                let x = board.cand[c as usize];
                twice |= once & x;
                once |= x;
                if board.value[c as usize] != 0 {
                    fixed |= x;
                }
            }
            if once != self.full {
                return false;
            }
            let mut hidden = once & !twice & !fixed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let board = &self.levels[level];
                let Some(&c) = cells.iter().find(|&&c| board.cand[c as usize] & bit != 0) else {
                    return false;
                };
                if board.value[c as usize] != 0 {
                    continue;
                }
                if !self.assign(level, c as usize, bit) || !self.drain(level) {
                    return false;
                }
            }
        }
        true
    }

    /// The open cell with the fewest candidates; ties go to the cell with the most open peers
    /// (its guess prunes most).
    fn choose(&self, level: usize) -> usize {
        let board = &self.levels[level];
        let mut fewest = u32::MAX;
        for cell in 0..self.cells {
            if board.value[cell] == 0 {
                fewest = fewest.min(board.cand[cell].count_ones());
            }
        }
        let mut best = (0, 0);
        for cell in 0..self.cells {
            if board.value[cell] == 0 && board.cand[cell].count_ones() == fewest {
                let open = self.tables.peers_of(cell).iter();
                let score = open.filter(|&&p| board.value[p as usize] == 0).count() + 1;
                if score > best.0 {
                    best = (score, cell);
                }
            }
        }
        best.1
    }

    /// Depth-first search from the propagated board at `level`.
    fn search(&mut self, level: usize) {
        if self.levels[level].open == 0 {
            self.record(level);
            return;
        }
        let cell = self.choose(level);
        let mut order = [0u32; MAX_SIZE];
        let mut k = 0;
        let mut mask = self.levels[level].cand[cell];
        while mask != 0 {
            order[k] = mask & mask.wrapping_neg();
            mask &= mask - 1;
            k += 1;
        }
        if let Some(rng) = self.rng.as_deref_mut() {
            order[..k].shuffle(rng);
        }
        for (i, &bit) in order[..k].iter().enumerate() {
            if self.outcome.count >= self.query.limit || self.outcome.guesses >= self.query.budget {
                self.outcome.aborted |= self.outcome.count < self.query.limit;
                return;
            }
            self.outcome.guesses += 1;
            let next = if i + 1 == k {
                level
            } else {
                self.copy_down(level);
                level + 1
            };
            if self.assign(next, cell, bit) && self.propagate(next) {
                self.search(next);
            } else {
                self.reset();
            }
        }
    }

    /// Copies the board at `level` into `level + 1`, adding a board if needed.
    fn copy_down(&mut self, level: usize) {
        if self.levels.len() <= level + 1 {
            self.levels.push(Board::new());
        }
        let (upper, lower) = self.levels.split_at_mut(level + 1);
        let (src, dst) = (&upper[level], &mut lower[0]);
        dst.cand[..self.cells].copy_from_slice(&src.cand[..self.cells]);
        dst.value[..self.cells].copy_from_slice(&src.value[..self.cells]);
        dst.open = src.open;
    }

    fn record(&mut self, level: usize) {
        self.outcome.count += 1;
        if self.query.want_solution && self.outcome.solution.is_none() {
            let values = &self.levels[level].value[..self.cells];
            let solution = Grid::from_values(self.grid.shape(), values)
                .expect("a propagated complete board has no repeated values");
            self.outcome.solution = Some(solution);
        }
    }
}
