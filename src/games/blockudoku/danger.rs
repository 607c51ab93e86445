//! How likely a board is to lose on the next hand: the exact chance that a hand of three pieces
//! dealt uniformly (with replacement) from the set cannot be placed in any order.
//!
//! Deaths from the empty board are so rare (one in tens of thousands of rounds) that counting
//! them compares players only over millions of rounds. The mean of this chance over the boards
//! a player meets estimates the same death rate with far less noise (the chance replaces the
//! one draw of the hand that actually came).

use super::board::{Board, REGIONS};
use super::piece::PieceSet;
use super::search::can_place_all;

/// The chance that a uniform hand of three pieces from `set` cannot be placed whole on `board`.
pub fn death_chance(board: Board, set: &PieceSet) -> f64 {
    let n = set.pieces.len();
    if n == 0 {
        return 0.0;
    }
    let fits: Vec<bool> = set.pieces.iter().map(|p| p.fits(board) != 0).collect();
    // A piece that fits nowhere can still come after pieces that clear a region; no region is
    // cleared by pieces with fewer cells than its empty cells.
    let fewest_empty = REGIONS
        .iter()
        .map(|&r| (r & !board.0).count_ones())
        .min()
        .unwrap_or(0);
    let mut dead = 0.0;
    for i in 0..n {
        for j in i..n {
            for k in j..n {
                let hand = [i, j, k];
                let unfit = hand.iter().any(|&p| !fits[p]);
                let room: u32 = (hand.iter().filter(|&&p| fits[p]))
                    .map(|&p| set.pieces[p].cells)
                    .sum();
                if (unfit && room < fewest_empty)
                    || !can_place_all(board, &hand.map(|p| &set.pieces[p]))
                {
                    dead += orders(i, j, k);
                }
            }
        }
    }
    dead / (n * n * n) as f64
}

/// The ordered deals of the multiset {i, j, k} (i <= j <= k).
fn orders(i: usize, j: usize, k: usize) -> f64 {
    match (i == j, j == k) {
        (true, true) => 1.0,
        (false, false) if i != k => 6.0,
        _ => 3.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blockudoku::piece::Piece;

    fn set_of(shapes: &[&str]) -> PieceSet {
        PieceSet {
            name: "test".into(),
            pieces: shapes.iter().map(|s| Piece::parse(s).unwrap()).collect(),
        }
    }

    #[test]
    fn the_empty_board_never_loses() {
        let set = PieceSet::builtin("standard47").unwrap();
        assert_eq!(death_chance(Board::EMPTY, &set), 0.0);
    }

    #[test]
    fn every_ordered_hand_is_counted_once() {
        use rand::SeedableRng;
        use rand::rngs::SmallRng;
        let set = set_of(&["#", "##", "#/#", "###", "##/##", "#####", "#./##"]);
        let n = set.pieces.len();
        let mut rng = SmallRng::seed_from_u64(9);
        let mut between = 0;
        for round in 0..40 {
            let board = Board::random(&mut rng, 45 + round % 30);
            let mut dead = 0;
            for a in &set.pieces {
                for b in &set.pieces {
                    for c in &set.pieces {
                        dead +=
                            usize::from(!can_place_all(board, &[a.clone(), b.clone(), c.clone()]));
                    }
                }
            }
            let expected = dead as f64 / (n * n * n) as f64;
            let got = death_chance(board, &set);
            assert!((got - expected).abs() < 1e-12, "{board}: {got} {expected}");
            between += usize::from(expected > 0.0 && expected < 1.0);
        }
        assert!(between > 5, "{between}");
    }
}
