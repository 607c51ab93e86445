//! The static evaluation: how well a board will let the player survive. Higher is better.
//!
//! It is a weighted sum of board features that predict survival: crowding, small holes that only
//! small pieces can fill, ragged shapes (transitions between filled and empty cells, runs of
//! empty cells in rows and columns with the walls counted as filled, empty cells cornered by
//! filled cells, diagonal 2x2 patterns, dead ends), how many 3x3 boxes are in use, filled cells
//! in the centre box, room for big pieces (empty 3x3 windows), and above all how many pieces of
//! the set no longer fit anywhere (a hand holding one of them is lost) or fit in only one or two
//! places.
//!
//! The piece features are the expensive part. [`Evaluator`] computes the cheap bitboard features
//! first; as long as the piece features only subtract (their weights are not positive), a board
//! whose cheap part is already no better than a bound cannot beat it, and the piece loop stops as
//! soon as the running total drops to the bound. Pieces are tested biggest first, and a piece
//! contained in a bigger piece that fits in three or more places is not tested at all.
//!
//! The features' order and the cheap ones are in [`super::features`].

use super::board::{Board, SIZE};
use super::eval_file::Evaluation;
use super::features::{FEATURES, NOT_LAST_COL, NOT_LAST_ROW, cheap_features};
use super::ntuple::{PieceTouches, Tuples};
use super::piece::{EmptyRuns, Piece, PieceSet};
use super::simd::Batch;
pub use super::weights::{DEFAULT_WEIGHTS, Weights};
use std::sync::Arc;

/// The largest value each feature can take (for bounds).
const FEATURE_MAX: [i32; FEATURES] = [
    81, 81, 72, 72, 9, 64, 64, 64, 81, 81, 49, 81, 81, 162, 90, 72, 324, 64, 9, 3416,
];
/// The features of the quick bound: filled, h_transitions, v_transitions.
const QUICK: [usize; 3] = [0, 2, 3];
/// Index of the number of pieces of the set that fit nowhere.
const UNFIT: usize = 5;
/// Index of the number of pieces of the set that fit in one or two places.
const SCARCE: usize = 6;
/// Index of the clearing shortfall of a crowded board (see [`clear_shortfall`]).
const CLEAR: usize = 19;
/// Boards with fewer filled cells have no clearing shortfall.
const CLEAR_GATE: u32 = 30;
/// Pieces of at least this many cells count as ways to clear.
const CLEAR_MIN_CELLS: u32 = 4;

/// How far a crowded board is from being cleared: the pieces of the set of 4 or more cells
/// that can complete a region somewhere (`ways`) are compared with 70% of the filled cells,
/// and the shortfall is scaled by the filled cells beyond 20. Zero below 30 filled cells. A
/// board that only fills up is lost; a way to clear is what lets it recover.
fn clear_shortfall<'a>(board: Board, pieces: impl Iterator<Item = (&'a Piece, u128)>) -> i32 {
    let filled = board.filled();
    if filled < CLEAR_GATE {
        return 0;
    }
    let ways = pieces
        .filter(|(p, fits)| p.cells >= CLEAR_MIN_CELLS && p.clearing(board, *fits) != 0)
        .count() as i32;
    let (target, scale) = clear_target(filled);
    (target - ways).max(0) * scale
}

/// The ways to clear a board with `filled` cells (30 or more) should have, and the scale of
/// each one missing.
fn clear_target(filled: u32) -> (i32, i32) {
    ((filled * 7 / 10) as i32, filled as i32 - 20)
}

/// Computes the features of a board.
pub fn features(board: Board, set: &PieceSet) -> [i32; FEATURES] {
    let mut f = cheap_features(board);
    let runs = EmptyRuns::new(board);
    for piece in &set.pieces {
        match piece.fits_runs(&runs).count_ones() {
            0 => f[UNFIT] += 1,
            1..=2 => f[SCARCE] += 1,
            _ => {}
        }
    }
    f[CLEAR] = clear_shortfall(board, set.pieces.iter().map(|p| (p, p.fits_runs(&runs))));
    f
}

/// The evaluation of a board: the weighted sum of its features.
pub fn evaluate(board: Board, set: &PieceSet, weights: &Weights) -> i32 {
    dot(&features(board, set), weights)
}

#[inline(always)]
fn dot(f: &[i32; FEATURES], w: &Weights) -> i32 {
    f.iter().zip(w.0.iter()).map(|(f, w)| f * w).sum()
}

/// Which pieces of the set (by the evaluator's test index) fit nowhere or in at most two places.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PieceState {
    /// Fit nowhere.
    pub unfit: u64,
    /// Fit in one or two places.
    pub scarce: u64,
}

/// A piece's fit test in compact form.
#[derive(Debug, Clone, Copy)]
struct FitTest {
    anchors: u128,
    start: u16,
    len: u16,
    /// A piece tested earlier that contains this one, if any.
    superset: Option<u8>,
}

/// The evaluation of boards for one piece set and weights, with its tables built once.
#[derive(Debug, Clone)]
pub struct Evaluator {
    weights: Weights,
    /// The n-tuple tables (they only subtract: see [`Tuples`]), added after the cheap part.
    tuples: Arc<Tuples>,
    /// The tuples each placement of each piece of the set touches, with the piece's cells
    /// (empty without tuples).
    touches: Vec<(u128, Arc<PieceTouches>)>,
    tests: Vec<FitTest>,
    /// The runs of every test, each test's at `start..start + len`.
    runs: Vec<(u8, u8)>,
    /// The pieces of the tests, in their order (for the clearing shortfall).
    pieces: Vec<Piece>,
    /// How many of them are big enough to count as ways to clear (they come first).
    clear_counted: i32,
    /// True when the piece features cannot add to the value (their weights are <= 0).
    bounded: bool,
    /// The most the features outside [`QUICK`] can add.
    quick_slack: i32,
    /// Evaluates eight boards at once when the CPU can and the weights fit 16 bits.
    batch: Option<Batch>,
}

impl Evaluator {
    /// The evaluator of `eval` (weights, or weights and tuples) for pieces dealt from `set`.
    pub fn new(set: &PieceSet, eval: impl Into<Evaluation>) -> Self {
        let Evaluation { weights, tuples } = eval.into();
        let mut order: Vec<usize> = (0..set.pieces.len()).collect();
        // Biggest first: the likeliest not to fit, and supersets come before their parts.
        order.sort_by_key(|&i| std::cmp::Reverse(set.pieces[i].cells));
        let mut tests: Vec<FitTest> = Vec::with_capacity(order.len());
        let mut runs: Vec<(u8, u8)> = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let piece = &set.pieces[i];
            // The smallest earlier piece that contains this one: the likeliest to fit often.
            let superset = (0..k)
                .filter(|&j| set.pieces[order[j]].contains(piece) && j < 64)
                .min_by_key(|&j| set.pieces[order[j]].cells)
                .map(|j| j as u8);
            tests.push(FitTest {
                anchors: piece.anchors(),
                start: runs.len() as u16,
                len: piece.runs().len() as u16,
                superset,
            });
            runs.extend_from_slice(piece.runs());
        }
        let bounded = weights.0[UNFIT] <= 0 && weights.0[SCARCE] <= 0 && weights.0[CLEAR] <= 0;
        let pieces: Vec<Piece> = order.iter().map(|&i| set.pieces[i].clone()).collect();
        let clear_counted = pieces.iter().filter(|p| p.cells >= CLEAR_MIN_CELLS).count() as i32;
        let quick_slack = (0..FEATURES)
            .filter(|i| !QUICK.contains(i))
            .map(|i| weights.0[i].max(0) * FEATURE_MAX[i])
            .sum();
        let touches = if tuples.is_empty() {
            Vec::new()
        } else {
            set.pieces
                .iter()
                .map(|p| {
                    let touches = PieceTouches::new(&tuples, p.anchors(), |a| p.at(a));
                    (p.mask, Arc::new(touches))
                })
                .collect()
        };
        let batch = Batch::detect();
        let narrow = weights.0.iter().all(|&w| i16::try_from(w).is_ok());
        Evaluator {
            weights,
            tuples,
            touches,
            tests,
            runs,
            pieces,
            clear_counted,
            bounded,
            quick_slack,
            batch: (batch.wide() && narrow).then_some(batch),
        }
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The value of the cheap features alone (an upper bound of the full value when the piece
    /// weights are not positive; the tuples only subtract).
    #[inline(always)]
    pub fn cheap(&self, board: Board) -> i32 {
        dot(&cheap_features(board), &self.weights)
    }

    /// [`Evaluator::cheap`] of each board of `boards` into `out` (as long), eight at once
    /// where the CPU can.
    #[inline(always)]
    pub fn cheap_many(&self, boards: &[Board], out: &mut [i32]) {
        assert_eq!(boards.len(), out.len());
        if boards.len() > 1
            && let Some(batch) = self.batch
        {
            // SAFETY: `Board` is a transparent `u128`.
            let cells: &[u128] =
                unsafe { std::slice::from_raw_parts(boards.as_ptr().cast(), boards.len()) };
            if batch.cheap_all(cells, &self.weights.0, out) {
                return;
            }
        }
        for (v, &b) in out.iter_mut().zip(boards) {
            *v = self.cheap(b);
        }
    }

    /// An upper bound of the value from three features that take a few instructions (filled
    /// cells and transitions) plus the most the others can add.
    #[inline(always)]
    pub fn quick_bound(&self, board: Board) -> i32 {
        let b = board.0;
        let w = &self.weights.0;
        let h = ((b ^ (b >> 1)) & NOT_LAST_COL).count_ones() as i32;
        let v = ((b ^ (b >> SIZE)) & NOT_LAST_ROW).count_ones() as i32;
        w[QUICK[0]] * b.count_ones() as i32 + w[QUICK[1]] * h + w[QUICK[2]] * v + self.quick_slack
    }

    /// True if a board whose cheap value is `cheap` cannot be worth more than `floor`.
    #[inline]
    pub fn cannot_beat(&self, cheap: i32, floor: i32) -> bool {
        self.bounded && cheap <= floor
    }

    /// The n-tuple tables (none for a linear evaluation).
    pub fn tuples(&self) -> &Tuples {
        &self.tuples
    }

    /// The tuples each placement of `piece` touches, if there are tuples and `piece` is one of
    /// the set's.
    #[inline]
    pub fn touches(&self, piece: &Piece) -> Option<&Arc<PieceTouches>> {
        self.touches
            .iter()
            .find(|(mask, _)| *mask == piece.mask)
            .map(|(_, touches)| touches)
    }

    /// The summed table values of a board (0 without tuples; never above 0).
    #[inline]
    pub fn tuple_value(&self, board: Board) -> i32 {
        if self.tuples.is_empty() {
            0
        } else {
            self.tuples.value(board)
        }
    }

    /// The full value of a board.
    pub fn full(&self, board: Board) -> i32 {
        self.finish(board, self.cheap(board), i32::MIN)
            .unwrap_or(i32::MIN)
    }

    /// The full value of a board if it is above `floor`, else `None` (computed only as far as
    /// needed to know).
    #[inline(always)]
    pub fn above(&self, board: Board, floor: i32) -> Option<i32> {
        let cheap = self.cheap(board);
        if self.cannot_beat(cheap, floor) {
            return None;
        }
        self.finish(board, cheap, floor)
    }

    /// Adds the tuples and the piece features to `cheap`; `None` once the value is known to be
    /// `<= floor`.
    #[inline]
    pub fn finish(&self, board: Board, cheap: i32, floor: i32) -> Option<i32> {
        self.finish_known(board, cheap + self.tuple_value(board), floor, 0)
    }

    /// Which pieces (by test index, the first 64) fit nowhere, and which in at most two places,
    /// on `board`. Filling more cells without clearing keeps them so.
    pub fn piece_state(&self, board: Board) -> PieceState {
        let runs = EmptyRuns::new(board);
        let mut state = PieceState::default();
        for (k, t) in self.tests.iter().enumerate().take(64) {
            let fits = self.fits(t, &runs);
            let rest = fits & fits.wrapping_sub(1);
            if fits == 0 {
                state.unfit |= 1 << k;
            } else if rest & rest.wrapping_sub(1) == 0 {
                state.scarce |= 1 << k;
            }
        }
        state
    }

    /// The most the piece features can add to a board made from one in `state` by filling
    /// cells without clearing any (when the weights allow such a bound; else 0 is no bound).
    pub fn penalty_bound(&self, state: PieceState) -> Option<i32> {
        if !self.bounded {
            return None;
        }
        let (w_unfit, w_scarce) = (self.weights.0[UNFIT], self.weights.0[SCARCE]);
        Some(
            state.unfit.count_ones() as i32 * w_unfit
                + state.scarce.count_ones() as i32 * w_unfit.max(w_scarce),
        )
    }

    #[inline]
    fn fits(&self, t: &FitTest, runs: &EmptyRuns) -> u128 {
        let (start, len) = (usize::from(t.start), usize::from(t.len));
        self.runs[start..start + len]
            .iter()
            .fold(t.anchors, |acc, &(offset, kind)| {
                acc & (runs.run_of(kind) >> offset)
            })
    }

    /// Adds the piece features to `partial`, the cheap value plus the tuples' (see
    /// [`Evaluator::tuple_value`]; the search keeps it incrementally), for a board on which the
    /// pieces of `known_unfit` (test indexes) are known not to fit; `None` once the value is
    /// known to be `<= floor`.
    #[inline]
    pub fn finish_known(
        &self,
        board: Board,
        partial: i32,
        floor: i32,
        known_unfit: u64,
    ) -> Option<i32> {
        let (w_unfit, w_scarce) = (self.weights.0[UNFIT], self.weights.0[SCARCE]);
        let mut value = partial + known_unfit.count_ones() as i32 * w_unfit;
        if self.bounded && value <= floor {
            return None;
        }
        let runs = EmptyRuns::new(board);
        let mut many = 0u64; // tests (by index < 64) known to fit in three or more places
        for (k, t) in self.tests.iter().enumerate() {
            if k < 64 && known_unfit >> k & 1 == 1 {
                continue;
            }
            if let Some(s) = t.superset
                && many >> s & 1 == 1
            {
                if k < 64 {
                    many |= 1 << k;
                }
                continue;
            }
            let fits = self.fits(t, &runs);
            if fits == 0 {
                value += w_unfit;
            } else {
                let rest = fits & (fits - 1);
                if rest & rest.wrapping_sub(1) == 0 || rest == 0 {
                    value += w_scarce;
                } else if k < 64 {
                    many |= 1 << k;
                }
            }
            if self.bounded && value <= floor {
                return None;
            }
        }
        let w_clear = self.weights.0[CLEAR];
        let filled = board.filled();
        if w_clear != 0 && filled >= CLEAR_GATE {
            // The same value as `clear_shortfall`, stopping once no piece is missing any more
            // or once even all the pieces left could not lift the value above the floor.
            let (target, scale) = clear_target(filled);
            let mut ways = 0;
            for (k, (p, t)) in self.pieces.iter().zip(&self.tests).enumerate() {
                if ways >= target || p.cells < CLEAR_MIN_CELLS {
                    break;
                }
                let left = self.clear_counted - k as i32;
                if self.bounded && value + w_clear * (target - ways - left).max(0) * scale <= floor
                {
                    return None;
                }
                if p.clearing(board, self.fits(t, &runs)) != 0 {
                    ways += 1;
                }
            }
            value += w_clear * (target - ways).max(0) * scale;
        }
        (value > floor).then_some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::FULL;
    use super::super::piece::cells_of;
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn board(rows: &[&str]) -> Board {
        Board::parse(&rows.join("/")).unwrap()
    }

    #[test]
    fn empty_board_has_no_defects() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut expected = [0; FEATURES];
        expected[10] = 49;
        expected[14] = 18;
        assert_eq!(features(Board::EMPTY, &set), expected);
    }

    #[test]
    fn holes_pockets_and_diagonals_are_seen() {
        let set = PieceSet::builtin("standard47").unwrap();
        let b = board(&[
            "#.#......",
            "###......",
            "#..#.....",
            "####.....",
            ".........",
            ".........",
            ".........",
            "........#",
            ".......#.",
        ]);
        let f = features(b, &set);
        assert_eq!(f[1], 2, "isolated holes at b9 and i1");
        assert_eq!(f[8], 1, "one 2-cell pocket at b7-c7");
        assert_eq!(f[7], 2, "diagonals at c8/d7 and h2/i1");
        assert_eq!(f[4], 5);
        assert_eq!(f[9], 2, "dead ends b7 and c7");
        // Narrow cells: b9 (h and v), b7-c7 (h: row 7 gap of 2; v: both), e8.. are wide.
        assert_eq!(f[11], 4, "b9, b7, c7, i1 lie in no horizontal run of three");
        assert!(f[12] >= 4, "b9, b7, c7, i1 lie in no vertical run of three");
        // Gaps: b9 (both axes), b7 and c7 vertically, i1 (both axes).
        assert_eq!(f[13], 6);
    }

    #[test]
    fn runs_corners_and_centre_cells_are_seen() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rows = ["........."; 9];
        rows[0] = ".#.......";
        rows[1] = "#........";
        let f = features(board(&rows), &set);
        assert_eq!(f[14], 20, "10 runs in the rows, 10 in the columns");
        assert_eq!(f[15], 0, "no run ends on an inner box line");
        assert_eq!(
            f[16], 2,
            "(0,0) closed right and below, (1,1) closed left and above"
        );
        assert_eq!(f[17], 2, "(0,0) is a gap both ways, on the edge");
        assert_eq!(f[18], 0, "nothing in the centre box");
        let mut rows = ["........."; 9];
        rows[4] = "...#.#...";
        let f = features(board(&rows), &set);
        assert_eq!(
            f[15], 2,
            "runs end at (4,3) and start after (4,5), on box lines"
        );
        assert_eq!(f[18], 2, "two cells in the centre box");
    }

    #[test]
    fn a_crowded_board_scores_below_a_clean_one() {
        let set = PieceSet::builtin("standard47").unwrap();
        let clean = board(&["###......"; 9]);
        let ragged = board(&[
            "#.#.#.#.#",
            ".........",
            "#.#.#.#.#",
            ".........",
            "#.#.#.#.#",
            ".........",
            "#.#.#.#.#",
            ".........",
            "#.#.#.#.#",
        ]);
        let w = DEFAULT_WEIGHTS;
        assert!(evaluate(clean, &set, &w) > evaluate(ragged, &set, &w));
    }

    #[test]
    fn the_clearing_shortfall_counts_the_pieces_that_can_complete_a_region() {
        let set = PieceSet::builtin("standard47").unwrap();
        // Brute force: place every piece of 4+ cells everywhere and see whether it clears.
        let reference = |b: Board| -> i32 {
            let filled = b.filled();
            if filled < CLEAR_GATE {
                return 0;
            }
            let ways = set
                .pieces
                .iter()
                .filter(|p| p.cells >= CLEAR_MIN_CELLS)
                .filter(|p| cells_of(p.fits(b)).any(|a| b.place(p.at(a)).1 > 0))
                .count() as u32;
            ((filled * 7 / 10).saturating_sub(ways) * (filled - 20)) as i32
        };
        let open_row = board(&[
            "####.####",
            "####.####",
            "#.#.#.#.#",
            "#.#.#.#.#",
            "#.#.#.#.#",
            "########.",
            "##....###",
            ".........",
            ".........",
        ]);
        let shut = board(&[
            "#.#.#.#.#",
            ".#.#.#.#.",
            "#.#.#.#.#",
            ".#.#.#.#.",
            "#.#.#.#.#",
            ".#.#.#.#.",
            "#.#.#.#.#",
            ".#.#.#.#.",
            "#.#.#.#.#",
        ]);
        let sparse = board(&["###......"; 9]);
        assert_eq!(features(sparse, &set)[CLEAR], 0, "below the gate");
        let f = features(shut, &set)[CLEAR];
        assert_eq!(f, (41 * 7 / 10) * 21, "a checkerboard can clear nothing");
        assert_eq!(f, reference(shut));
        let open = features(open_row, &set)[CLEAR];
        assert_eq!(open, reference(open_row));
        assert!(open < f, "the open row and column give ways: {open}");
        let mut rng = SmallRng::seed_from_u64(4);
        for _ in 0..200 {
            let marks = rng.random_range(30..70);
            let b = Board::random(&mut rng, marks);
            assert_eq!(features(b, &set)[CLEAR], reference(b), "board {b}");
            let ev = Evaluator::new(&set, DEFAULT_WEIGHTS);
            assert_eq!(ev.full(b), evaluate(b, &set, &DEFAULT_WEIGHTS), "board {b}");
        }
    }

    #[test]
    fn batches_agree_with_one_board_at_a_time() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rng = SmallRng::seed_from_u64(0x2545_F491_4F6C_DD1D);
        let mut next = || rng.random::<u64>();
        let boards: Vec<Board> = (0..300)
            .map(|i| {
                let mut bits = u128::from(next()) << 64 | u128::from(next());
                for _ in 0..i % 4 {
                    bits &= u128::from(next()) << 64 | u128::from(next());
                }
                Board(if i % 7 == 0 { !bits } else { bits } & FULL)
            })
            .collect();
        let mut wide = DEFAULT_WEIGHTS;
        wide.0[3] = 40_000; // beyond 16 bits: one board at a time
        for weights in [DEFAULT_WEIGHTS, Weights([1; FEATURES]), wide] {
            let ev = Evaluator::new(&set, weights);
            for len in [0, 1, 2, 7, 8, 9, 16, 81, 300] {
                let mut out = vec![0; len];
                ev.cheap_many(&boards[..len], &mut out);
                for (b, v) in boards.iter().zip(&out) {
                    assert_eq!(ev.cheap(*b), *v, "{b}");
                }
            }
        }
    }

    #[test]
    fn tuples_add_their_values_and_keep_the_bound_exact() {
        let set = PieceSet::builtin("standard47").unwrap();
        let mut rng = SmallRng::seed_from_u64(9);
        let mut tuples = Tuples::none();
        for rect in [(0, 0, 3, 3), (3, 6, 3, 3), (4, 0, 1, 9), (0, 8, 9, 1)] {
            let table: Vec<i32> = (0..1 << (rect.2 * rect.3))
                .map(|_| rng.random_range(-300..50))
                .collect();
            tuples.push(rect, &table).unwrap();
        }
        let tuples = Arc::new(tuples);
        let eval = Evaluation {
            weights: DEFAULT_WEIGHTS,
            tuples: tuples.clone(),
        };
        let ev = Evaluator::new(&set, eval);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let marks = rng.random_range(0..70);
            let b = Board::random(&mut rng, marks);
            let value = evaluate(b, &set, &DEFAULT_WEIGHTS) + tuples.value(b);
            seen.insert(tuples.value(b));
            assert_eq!(ev.full(b), value, "{b}");
            assert!(ev.cheap(b) >= value, "the cheap part stays an upper bound");
            let state = ev.piece_state(b);
            assert_eq!(
                ev.finish_known(b, ev.cheap(b) + tuples.value(b), i32::MIN, state.unfit),
                Some(value)
            );
            for floor in [value - 1, value, value + 1, value - 500] {
                assert_eq!(ev.above(b, floor), (value > floor).then_some(value));
            }
        }
        assert!(seen.len() > 500, "the tables tell boards apart");
    }

    #[test]
    fn evaluator_agrees_with_the_features_and_its_bound_is_exact() {
        let weights = DEFAULT_WEIGHTS;
        let set = PieceSet::builtin("standard47").unwrap();
        let ev = Evaluator::new(&set, weights);
        let mut x = 0x1234_5678_9ABC_DEF1_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..3000 {
            let mut bits = u128::from(next()) << 64 | u128::from(next());
            for _ in 0..i % 3 {
                bits &= u128::from(next()) << 64 | u128::from(next());
            }
            let b = Board(bits & FULL);
            let value = evaluate(b, &set, &weights);
            assert_eq!(ev.full(b), value);
            let state = ev.piece_state(b);
            let with_known = ev.finish_known(b, ev.cheap(b), i32::MIN, state.unfit);
            assert_eq!(with_known, Some(value));
            // Filling a cell that clears nothing keeps the bound.
            if let Some(cell) = super::super::piece::cells_of(b.empty_cells()).next() {
                let (after, cleared) = b.place(1 << cell);
                if cleared == 0 {
                    let bound = ev.penalty_bound(state).unwrap();
                    assert!(ev.full(after) <= ev.cheap(after) + bound);
                    let after_state = ev.piece_state(after);
                    assert_eq!(after_state.unfit & state.unfit, state.unfit);
                }
            }
            assert!(ev.quick_bound(b) >= ev.cheap(b));
            for floor in [value - 1, value, value + 1, value - 500] {
                let got = ev.above(b, floor);
                assert_eq!(got, (value > floor).then_some(value), "floor {floor}");
            }
        }
    }
}
