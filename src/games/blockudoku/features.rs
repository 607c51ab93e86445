//! The features of the evaluation, in their order ([`FEATURE_NAMES`]), and the cheap ones among
//! them: every feature but the piece features (`unfit`, `scarce`, `clear_shortfall`, which
//! [`super::eval`] adds), counted with bit operations on the board's cells. Those operations are
//! written once, over `Lanes`, for one board (a `u128`) and for several boards at once (the
//! vectors of `simd`), so both give the same values.

use super::board::{self, Board, FULL, SIZE};

/// The features, in the order of the evaluation's [`super::eval::Weights`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "filled",
    "isolated",
    "h_transitions",
    "v_transitions",
    "boxes_used",
    "unfit",
    "scarce",
    "diagonals",
    "pocket2",
    "dead_ends",
    "square3",
    "h_narrow",
    "v_narrow",
    "gaps",
    "runs",
    "box_ends",
    "cornered",
    "edge_gaps",
    "centre_filled",
    "clear_shortfall",
];
/// Number of features.
pub const FEATURES: usize = 20;

/// Every cell but those of the last column.
pub(super) const NOT_LAST_COL: u128 = FULL & !board::column(SIZE - 1);
const NOT_FIRST_COL: u128 = FULL & !board::column(0);
/// Every cell but those of the last row.
pub(super) const NOT_LAST_ROW: u128 = FULL & !board::row(SIZE - 1);
/// Top-left cells of the 2x2 windows.
const WINDOW_2X2: u128 = NOT_LAST_COL & NOT_LAST_ROW;
/// First cells of the horizontal runs of three inside a row.
const RUN3_H: u128 = FULL & !board::column(SIZE - 1) & !board::column(SIZE - 2);
/// Top-left cells of the 3x3 windows.
const WINDOW_3X3: u128 = window_3x3();

const fn window_3x3() -> u128 {
    let mut out = 0u128;
    let mut r = 0;
    while r + 3 <= SIZE {
        let mut c = 0;
        while c + 3 <= SIZE {
            out |= 1u128 << (r * SIZE + c);
            c += 1;
        }
        r += 1;
    }
    out
}

/// Bit operations on one board's cells (a `u128`) or on several boards' at once (see
/// [`super::simd`]): the features are written once for both.
pub(super) trait Lanes:
    Copy
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
{
    /// Cell counts of each board.
    type Count: Copy + std::ops::Add<Output = Self::Count>;
    /// The same cells on every board.
    fn splat(cells: u128) -> Self;
    /// Shifted towards bit 0 by `k` < 64 (as `u128 >> k`).
    fn shr(self, k: u32) -> Self;
    /// Shifted away from bit 0 by `k` < 64 (as `u128 << k`).
    fn shl(self, k: u32) -> Self;
    /// The number of cells.
    fn count(self) -> Self::Count;
    /// A count of 0.
    fn zero() -> Self::Count;
}

impl Lanes for u128 {
    type Count = i32;
    #[inline(always)]
    fn splat(cells: u128) -> Self {
        cells
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        self >> k
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        self << k
    }
    #[inline(always)]
    fn count(self) -> i32 {
        self.count_ones() as i32
    }
    #[inline(always)]
    fn zero() -> i32 {
        0
    }
}

/// The four neighbour sets of `set`'s cells: which cells of `of` have a neighbour in `set` to the
/// right, left, below, above.
#[inline(always)]
fn neighbours<L: Lanes>(set: L, of: L) -> [L; 4] {
    [
        set.shr(1) & L::splat(NOT_LAST_COL) & of,
        set.shl(1) & L::splat(NOT_FIRST_COL) & of,
        set.shr(SIZE as u32) & of,
        set.shl(SIZE as u32) & L::splat(FULL) & of,
    ]
}

/// Cells of `of` with exactly one neighbour in `set`, and cells with at least one.
#[inline(always)]
fn one_and_any<L: Lanes>(set: L, of: L) -> (L, L) {
    let [r, l, d, u] = neighbours(set, of);
    // Bit-sliced: a and c are the sums' low bits, b and e their carries.
    let (a, b) = (r ^ l, r & l);
    let (c, e) = (d ^ u, d & u);
    let one = (a ^ c) & !(b | e);
    (one, a | b | c | e)
}

/// The first cell of each 3x3 box.
const BOX_CORNERS: u128 =
    1 | 1 << 3 | 1 << 6 | 1 << 27 | 1 << 30 | 1 << 33 | 1 << 54 | 1 << 57 | 1 << 60;
/// The centre box.
const CENTRE_BOX: u128 = {
    let row = 0b111u128 << 3;
    (row | row << SIZE | row << (2 * SIZE)) << (3 * SIZE)
};
/// The cells on the board's edge.
const EDGE: u128 =
    board::row(0) | board::row(SIZE - 1) | board::column(0) | board::column(SIZE - 1);
/// Cells just right of (below) an inner box line: a run of empty cells that starts there after
/// a filled cell ends on the line.
const AFTER_LINE_C: u128 = board::column(3) | board::column(6);
const BEFORE_LINE_C: u128 = board::column(2) | board::column(5);
const AFTER_LINE_R: u128 = board::row(3) | board::row(6);
const BEFORE_LINE_R: u128 = board::row(2) | board::row(5);

/// The cheap features of a board (the piece features are left 0).
#[inline(always)]
pub(super) fn cheap_features(board: Board) -> [i32; FEATURES] {
    cheap_counts(board.0)
}

/// [`cheap_features`] of the boards `b` (one or several at once).
#[inline(always)]
pub(super) fn cheap_counts<L: Lanes>(b: L) -> [L::Count; FEATURES] {
    let c = L::splat;
    let (s1, s2, s9) = (1, 2, SIZE as u32);
    let empty = !b & c(FULL);
    let (one, any) = one_and_any(empty, empty);
    let isolated = empty & !any;
    // A 2-cell pocket: two adjacent empty cells whose only empty neighbour is each other.
    let ends = one;
    let pocket2 = ((ends & ends.shr(s1) & c(NOT_LAST_COL)) | (ends & ends.shr(s9))).count();
    let h_transitions = ((b ^ b.shr(s1)) & c(NOT_LAST_COL)).count();
    let v_transitions = ((b ^ b.shr(s9)) & c(NOT_LAST_ROW)).count();
    let any3 = b | b.shr(s1) | b.shr(s2);
    let boxes_used = ((any3 | any3.shr(s9) | any3.shr(2 * s9)) & c(BOX_CORNERS)).count();
    let (tl, tr, bl, br) = (b, b.shr(s1), b.shr(s9), b.shr(s9 + 1));
    let diagonals = (((tl & br & !tr & !bl) | (tr & bl & !tl & !br)) & c(WINDOW_2X2)).count();
    let h3 = empty & empty.shr(s1) & empty.shr(s2);
    let square3 = (h3 & h3.shr(s9) & h3.shr(2 * s9) & c(WINDOW_3X3)).count();
    // Empty cells in no horizontal (vertical) run of three empty cells.
    let h3 = h3 & c(RUN3_H);
    let h_narrow = (empty & !(h3 | h3.shl(s1) | h3.shl(s2))).count();
    let v3 = empty & empty.shr(s9) & empty.shr(2 * s9);
    let v_narrow = (empty & !(v3 | v3.shl(s9) | v3.shl(2 * s9))).count();
    // Single empty cells between two filled cells (or a filled cell and the wall), per axis.
    let [r, l, d, u] = neighbours(empty, c(FULL));
    let (wall_r, wall_l) = (c(board::column(SIZE - 1)), c(board::column(0)));
    let (wall_d, wall_u) = (c(board::row(SIZE - 1)), c(board::row(0)));
    let blocked_r = !r | wall_r;
    let blocked_l = !l | wall_l;
    let blocked_d = !d | wall_d;
    let blocked_u = !u | wall_u;
    let (h_gap, v_gap) = (empty & blocked_r & blocked_l, empty & blocked_d & blocked_u);
    let gaps = h_gap.count() + v_gap.count();
    let edge_gaps = (h_gap & c(EDGE)).count() + (v_gap & c(EDGE)).count();
    // Maximal runs of empty cells in rows and columns (the walls count as filled cells).
    let runs = (empty & blocked_l).count() + (empty & blocked_u).count();
    // Ends of runs at a filled cell (not the wall), and those of them on an inner box line.
    let (fr, fl, fd, fu) = (
        empty & !r & !wall_r,
        empty & !l & !wall_l,
        empty & !d & !wall_d,
        empty & !u & !wall_u,
    );
    let box_ends = (fl & c(AFTER_LINE_C)).count()
        + (fr & c(BEFORE_LINE_C)).count()
        + (fu & c(AFTER_LINE_R)).count()
        + (fd & c(BEFORE_LINE_R)).count();
    // Empty cells closed by filled cells on two perpendicular sides, once per such corner.
    let cornered = (fl & fu).count() + (fl & fd).count() + (fr & fu).count() + (fr & fd).count();
    [
        b.count(),
        isolated.count(),
        h_transitions,
        v_transitions,
        boxes_used,
        L::zero(),
        L::zero(),
        diagonals,
        pocket2,
        one.count(),
        square3,
        h_narrow,
        v_narrow,
        gaps,
        runs,
        box_ends,
        cornered,
        edge_gaps,
        (b & c(CENTRE_BOX)).count(),
        L::zero(),
    ]
}
