//! The static evaluation: how well a board will let the player survive. Higher is better.
//!
//! It is a weighted sum of board features that predict survival: crowding, small holes that only
//! small pieces can fill, ragged shapes (transitions between filled and empty cells, diagonal
//! 2x2 patterns), how many 3x3 boxes are in use, and above all how many pieces of the set no
//! longer fit anywhere (a hand holding one of them is lost).

use super::board::{self, Board, FULL, SIZE};
use super::piece::PieceSet;

/// The features, in the order of [`Weights`].
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
];
/// Number of features.
pub const FEATURES: usize = 9;

/// One weight per feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

/// Weights found by self-play tuning on crowded positions (see the README's measurements).
pub const DEFAULT_WEIGHTS: Weights = Weights([-10, -60, -8, -8, -15, -400, -60, -20, -30]);

const NOT_LAST_COL: u128 = FULL & !board::column(SIZE - 1);
const NOT_FIRST_COL: u128 = FULL & !board::column(0);
const NOT_LAST_ROW: u128 = FULL & !board::row(SIZE - 1);
/// Top-left cells of the 2x2 windows.
const WINDOW_2X2: u128 = NOT_LAST_COL & NOT_LAST_ROW;

/// Cells of `set` with a 4-neighbour in `set`.
#[inline]
fn with_neighbour(set: u128) -> u128 {
    let right = (set >> 1) & NOT_LAST_COL;
    let left = (set << 1) & NOT_FIRST_COL;
    let below = set >> SIZE;
    let above = (set << SIZE) & FULL;
    set & (right | left | below | above)
}

/// Computes the features of a board.
pub fn features(board: Board, set: &PieceSet) -> [i32; FEATURES] {
    let b = board.0;
    let empty = board.empty_cells();
    let isolated = empty & !with_neighbour(empty);
    // Empty cells whose only empty neighbours are isolated pairs: 2-cell pockets.
    let paired = empty & !isolated;
    let pocket2 = {
        let e = paired;
        let degree_one = |x: u128| {
            let r = (e >> 1) & NOT_LAST_COL & x;
            let l = (e << 1) & NOT_FIRST_COL & x;
            let d = (e >> SIZE) & x;
            let u = (e << SIZE) & FULL & x;
            // Exactly one empty neighbour.
            let any = r | l | d | u;
            let two = (r & l) | (r & d) | (r & u) | (l & d) | (l & u) | (d & u);
            any & !two
        };
        let ends = degree_one(e);
        // A pocket is two adjacent degree-one cells.
        let h = ends & (ends >> 1) & NOT_LAST_COL;
        let v = ends & (ends >> SIZE);
        (h | v).count_ones() as i32
    };
    let h_transitions = ((b ^ (b >> 1)) & NOT_LAST_COL).count_ones() as i32;
    let v_transitions = ((b ^ (b >> SIZE)) & NOT_LAST_ROW).count_ones() as i32;
    let boxes_used = board::REGIONS[2 * SIZE..]
        .iter()
        .filter(|&&r| b & r != 0)
        .count() as i32;
    let (tl, tr, bl, br) = (b, b >> 1, b >> SIZE, b >> (SIZE + 1));
    let diagonals =
        (((tl & br & !tr & !bl) | (tr & bl & !tl & !br)) & WINDOW_2X2).count_ones() as i32;
    let mut unfit = 0;
    let mut scarce = 0;
    for piece in &set.pieces {
        match piece.fits(board).count_ones() {
            0 => unfit += 1,
            1..=2 => scarce += 1,
            _ => {}
        }
    }
    [
        b.count_ones() as i32,
        isolated.count_ones() as i32,
        h_transitions,
        v_transitions,
        boxes_used,
        unfit,
        scarce,
        diagonals,
        pocket2,
    ]
}

/// The evaluation of a board: the weighted sum of its features.
pub fn evaluate(board: Board, set: &PieceSet, weights: &Weights) -> i32 {
    features(board, set)
        .iter()
        .zip(weights.0.iter())
        .map(|(f, w)| f * w)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::parse(&rows.join("/")).unwrap()
    }

    #[test]
    fn empty_board_has_no_defects() {
        let set = PieceSet::builtin("standard47").unwrap();
        assert_eq!(features(Board::EMPTY, &set), [0; FEATURES]);
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
        assert_eq!(f[1], 1, "one isolated hole at b9");
        assert_eq!(f[8], 1, "one 2-cell pocket at b7-c7");
        assert_eq!(f[7], 2, "diagonals at c8/d7 and h2/i1");
        assert_eq!(f[4], 5);
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
}
