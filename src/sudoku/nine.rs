//! A band-oriented bitboard solver for 9x9 grids.
//!
//! The grid is three bands of three rows (27 cells, one `u32` each). For every digit and band a
//! 27-bit mask holds the cells where the digit may still go. Inside a band a digit takes exactly
//! one cell per row and per box, so its three rows pick the three boxes in one of six orders.
//! Per row we note which of its three box segments ("triads") still hold candidates; a table maps
//! that 9-bit triad pattern to the triads used by some valid order, which removes the rest in one
//! step (pointing and claiming inside the band). A row left with one cell fixes the digit there:
//! the cell leaves the other digits' masks and its column leaves the other bands. Cells with one
//! digit left (naked singles) are found with bit-parallel counting over the nine masks. The search
//! branches on a cell with two candidates and the most open peers, else on one with the fewest.
//!
//! State is a 124-byte `Copy` value, copied per branch: no allocation anywhere.
use super::grid::Grid;
use super::shape::Shape;
use super::solver::{Extra, Outcome, Query};

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// Per 9-bit row: bit k set if columns 3k..3k+3 hold a candidate.
static TRIADS: [u8; 512] = build_triads();
/// Per 9-bit triad pattern (bit 3r + k = row r, box k): the union of the six row-to-box orders
/// that fit in the pattern; 0 if none does.
static ORDERS: [u16; 512] = build_orders();
/// Per 9-bit triad mask: the band cells of those triads.
static EXPAND: [u32; 512] = build_expand();
/// Per 9-bit row: the row itself if it has exactly one cell, else 0.
static SINGLE: [u16; 512] = build_single();
/// Per band cell: the other cells of its row and box.
static PEERS: [u32; 27] = build_peers();

const fn build_triads() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut r = 0;
    while r < 512 {
        let mut k = 0;
        while k < 3 {
            if (r >> (3 * k)) & 7 != 0 {
                t[r] |= 1 << k;
            }
            k += 1;
        }
        r += 1;
    }
    t
}

const fn build_orders() -> [u16; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 6 {
            let order = PERMS[i];
            let bits = (1 << order[0]) | (1 << (3 + order[1])) | (1 << (6 + order[2]));
            if p & bits == bits {
                t[p] |= bits as u16;
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const fn build_expand() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 9 {
            if (m >> i) & 1 != 0 {
                t[m] |= 7 << ((i / 3) * 9 + (i % 3) * 3);
            }
            i += 1;
        }
        m += 1;
    }
    t
}

const fn build_single() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut r = 0;
    while r < 512 {
        if (r as u32).count_ones() == 1 {
            t[r] = r as u16;
        }
        r += 1;
    }
    t
}

const fn build_peers() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut x = 0;
    while x < 27 {
        let (row, col) = (x / 9, x % 9);
        let mut m = 0x1ff << (9 * row);
        let mut r = 0;
        while r < 3 {
            m |= 7 << (9 * r + col / 3 * 3);
            r += 1;
        }
        t[x] = m & !(1 << x);
        x += 1;
    }
    t
}

/// The three rows of a band mask, each as a 9-bit value.
#[inline(always)]
fn rows(a: u32) -> [usize; 3] {
    [
        (a & 0x1ff) as usize,
        ((a >> 9) & 0x1ff) as usize,
        (a >> 18) as usize,
    ]
}

/// The search state: `f[3 * digit + band]` is the digit's candidate mask in the band (its fixed
/// cell included), `unsolved[band]` the cells not yet fixed, `dirty` the masks to re-examine.
#[derive(Clone, Copy)]
struct State {
    f: [u32; 27],
    unsolved: [u32; 3],
    dirty: u32,
}

impl State {
    /// Loads the grid's values; `None` if two of them clash (or clash with `extra`).
    fn new(grid: &Grid, extra: Extra) -> Option<State> {
        let mut s = State {
            f: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: 0,
        };
        for (cell, &value) in grid.values().iter().enumerate() {
            if value != 0 && !s.fix(value as usize - 1, cell) {
                return None;
            }
        }
        match extra {
            Extra::None => {}
            Extra::Place(cell, value) => {
                if grid.check_move(cell, value).is_err() || !s.fix(value as usize - 1, cell) {
                    return None;
                }
            }
            Extra::Forbid(cell, value) => {
                if grid.get(cell) == 0 {
                    let i = 3 * (value as usize - 1) + cell / 27;
                    s.f[i] &= !(1 << (cell % 27));
                    s.dirty |= 1 << i;
                }
            }
        }
        Some(s)
    }

    /// Restricts `digit` to `cell` in its row and box; the next update of the mask does the rest.
    #[inline]
    fn fix(&mut self, digit: usize, cell: usize) -> bool {
        let (i, x) = (3 * digit + cell / 27, cell % 27);
        if self.f[i] & (1 << x) == 0 {
            return false;
        }
        self.f[i] &= !PEERS[x];
        self.dirty |= 1 << i;
        true
    }

    /// Re-examines mask `i` (digit `i / 3`, band `i % 3`): keeps only triads of some valid order
    /// and fixes the digit in rows left with one cell. False on a contradiction.
    #[inline(always)]
    fn update(&mut self, i: usize) -> bool {
        let a = self.f[i];
        let [r0, r1, r2] = rows(a);
        let pattern = TRIADS[r0] as usize | (TRIADS[r1] as usize) << 3 | (TRIADS[r2] as usize) << 6;
        let allowed = ORDERS[pattern] as usize;
        if allowed == 0 {
            return false;
        }
        let a = a & EXPAND[allowed];
        self.f[i] = a;
        let [r0, r1, r2] = rows(a);
        let singles = SINGLE[r0] as u32 | (SINGLE[r1] as u32) << 9 | (SINGLE[r2] as u32) << 18;
        let (digit, band) = (i / 3, i % 3);
        let new = singles & self.unsolved[band];
        if new != 0 {
            self.unsolved[band] &= !new;
            // Every digit of the band loses the new cells (branch-free), then this one gets
            // them back.
            let mut changed = 0;
            for d in 0..9 {
                let j = 3 * d + band;
                let old = self.f[j];
                self.f[j] = old & !new;
                changed |= u32::from(old & new != 0) << j;
            }
            self.f[i] = a;
            self.dirty |= changed & !(1 << i);
            let cols = (new | new >> 9 | new >> 18) & 0x1ff;
            let cols = cols | cols << 9 | cols << 18;
            for b in 0..3 {
                let j = 3 * digit + b;
                if b != band && self.f[j] & cols != 0 {
                    self.f[j] &= !cols;
                    self.dirty |= 1 << j;
                }
            }
        }
        true
    }

    /// Fixes cells with a single candidate digit. `None` on an empty cell, else whether any
    /// single was found.
    fn naked_singles(&mut self) -> Option<bool> {
        let mut found = false;
        for band in 0..3 {
            let open = self.unsolved[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.f[3 * d + band];
                two |= one & x;
                one |= x;
            }
            if open & !one != 0 {
                return None;
            }
            let singles = open & !two;
            if singles == 0 {
                continue;
            }
            found = true;
            for d in 0..9 {
                let i = 3 * d + band;
                let mut m = self.f[i] & singles;
                if m != 0 {
                    self.dirty |= 1 << i;
                    while m != 0 {
                        self.f[i] &= !PEERS[m.trailing_zeros() as usize];
                        m &= m - 1;
                    }
                }
            }
        }
        Some(found)
    }

    /// Fixes digits with one cell left in a column. `None` if a digit has no cell left in some
    /// column, else whether any single was found.
    fn column_singles(&mut self) -> Option<bool> {
        let mut found = false;
        for d in 0..9 {
            let i = 3 * d;
            let (mut any, mut multi) = (0u32, 0u32);
            let mut cols = [0u32; 3];
            for (b, c) in cols.iter_mut().enumerate() {
                let [r0, r1, r2] = rows(self.f[i + b]).map(|r| r as u32);
                *c = r0 | r1 | r2;
                multi |= (r0 & r1) | (r0 & r2) | (r1 & r2) | (any & *c);
                any |= *c;
            }
            if any != 0x1ff {
                return None;
            }
            let single = !multi & 0x1ff;
            let single = single | single << 9 | single << 18;
            for (b, _) in cols.iter().enumerate() {
                let mut m = self.f[i + b] & single & self.unsolved[b];
                if m != 0 {
                    found = true;
                    self.dirty |= 1 << (i + b);
                    while m != 0 {
                        self.f[i + b] &= !PEERS[m.trailing_zeros() as usize];
                        m &= m - 1;
                    }
                }
            }
        }
        Some(found)
    }

    /// Propagates to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.update(i) {
                    return false;
                }
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.column_singles() {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on (band, band cell): among cells with two candidates the one with
    /// the most open peers (its guess prunes most), else one with the fewest candidates.
    fn choose(&self) -> (usize, usize) {
        let mut pick = None;
        let mut best_score = 0;
        for band in 0..3 {
            let open = self.unsolved[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two, mut more) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[3 * d + band];
                more |= two & x;
                two |= one & x;
                one |= x;
            }
            let mut pairs = open & two & !more;
            while pairs != 0 {
                let x = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let col = x % 9;
                let col_mask = 0x40201u32 << col;
                let score = (PEERS[x] & open).count_ones()
                    + (self.unsolved[(band + 1) % 3] & col_mask).count_ones()
                    + (self.unsolved[(band + 2) % 3] & col_mask).count_ones()
                    + 1;
                if score > best_score {
                    best_score = score;
                    pick = Some((band, x));
                }
            }
        }
        if let Some(p) = pick {
            return p;
        }
        let mut best = (u32::MAX, 0, 0);
        for band in 0..3 {
            let mut open = self.unsolved[band];
            while open != 0 {
                let x = open.trailing_zeros() as usize;
                open &= open - 1;
                let k = (0..9)
                    .filter(|d| self.f[3 * d + band] >> x & 1 != 0)
                    .count() as u32;
                if k < best.0 {
                    best = (k, band, x);
                }
            }
        }
        (best.1, best.2)
    }

    /// The solved grid's values.
    fn values(&self) -> [u8; 81] {
        let mut values = [0u8; 81];
        for (i, &mask) in self.f.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                values[(i % 3) * 27 + m.trailing_zeros() as usize] = (i / 3) as u8 + 1;
                m &= m - 1;
            }
        }
        values
    }
}

struct Search {
    query: Query,
    outcome: Outcome,
}

impl Search {
    fn search(&mut self, mut s: State) {
        if !s.propagate() {
            return;
        }
        if s.is_solved() {
            self.outcome.count += 1;
            if self.query.want_solution && self.outcome.solution.is_none() {
                let grid = Grid::from_values(Shape::CLASSIC, &s.values())
                    .expect("a propagated solved state has no repeated values");
                self.outcome.solution = Some(grid);
            }
            return;
        }
        let (band, x) = s.choose();
        let mut digits: u32 = (0..9)
            .filter(|d| s.f[3 * d + band] >> x & 1 != 0)
            .fold(0, |m, d| m | 1 << d);
        let cell = band * 27 + x;
        while digits != 0 {
            if self.outcome.count >= self.query.limit || self.outcome.guesses >= self.query.budget {
                self.outcome.aborted |= self.outcome.count < self.query.limit;
                return;
            }
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            self.outcome.guesses += 1;
            if digits == 0 {
                s.fix(d, cell);
                self.search(s);
                return;
            }
            let mut child = s;
            child.fix(d, cell);
            self.search(child);
        }
    }
}

/// Runs a query on a 9x9 grid.
pub(crate) fn run(grid: &Grid, extra: Extra, query: Query) -> Outcome {
    debug_assert_eq!(grid.shape(), Shape::CLASSIC);
    let mut search = Search {
        query,
        outcome: Outcome::default(),
    };
    if let Some(state) = State::new(grid, extra) {
        search.search(state);
    }
    search.outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_table_keeps_only_valid_orders() {
        assert_eq!(ORDERS[0x1ff], 0x1ff);
        // Row 0 only in box 0: boxes 0 of rows 1 and 2 are impossible.
        assert_eq!(ORDERS[0b111_111_001], 0b110_110_001);
        // Rows 0 and 1 both only in box 0: no order fits.
        assert_eq!(ORDERS[0b111_001_001], 0);
    }

    #[test]
    fn peers_cover_row_and_box() {
        assert_eq!(PEERS[0].count_ones(), 8 + 6);
        assert_eq!(PEERS[0] & 0x1ff, 0x1fe);
        assert_eq!(PEERS[0] >> 9 & 0x1ff, 0b111);
    }
}
