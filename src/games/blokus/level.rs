//! Playing levels for people, calibrated against the reference engine (Pentobi): level k below
//! full strength searches until the root has a fixed number of visits (those of the subtree kept
//! from the last search included, as Pentobi counts them), a share of what Pentobi's level k
//! searches, so that a player who knows its ladder finds the same one here. The share evens
//! out the cost of a playout (ours are dearer on the 14x14 board) and what a few playouts are
//! worth at the bottom of the ladder; it was set from matches against Pentobi at each level
//! (docs/measurements.md, Blokus levels). From level 4 up the budget grows along the game (a
//! colour's later moves have fewer choices and faster playouts) and the first moves of a colour
//! get less.

use super::board::{Board, Variant};
use crate::games::FULL_STRENGTH;

/// Pentobi's playouts per move at levels 1..9 on the 20x20 board (Classic, Two-Player,
/// Three-Player).
const CLASSIC: [f64; 9] = [
    3.0, 30.0, 90.0, 181.0, 667.0, 5028.0, 69809.0, 349044.0, 1745221.0,
];
/// Pentobi's playouts per move at levels 1..9 on the 14x14 board (Duo, Junior).
const DUO: [f64; 9] = [
    3.0, 21.0, 77.0, 213.0, 861.0, 7280.0, 221867.0, 1109339.0, 5546695.0,
];
/// Pentobi's playouts per move at levels 1..9 on the Trigon boards.
const TRIGON: [f64; 9] = [
    100.0, 246.0, 457.0, 876.0, 1882.0, 5506.0, 19819.0, 99092.0, 495465.0,
];
/// The share of those playouts tessera searches at each level, Trigon boards (not calibrated
/// yet: one).
const TRIGON_SHARE: [f64; 9] = [1.0; 9];
/// The share of those playouts tessera searches at each level, 20x20 board.
const CLASSIC_SHARE: [f64; 9] = [1.0, 1.5, 1.5, 1.0, 0.76, 0.6, 0.6, 0.6, 0.6];
/// The share of those playouts tessera searches at each level, 14x14 board.
const DUO_SHARE: [f64; 9] = [1.0, 1.0, 1.0, 0.7, 0.6, 0.52, 0.55, 0.55, 0.55];
/// The first level whose budget follows the game's progress, and that plays the whole opening
/// book.
const GROWING_FROM: u32 = 4;

/// The threads a search with this level budget uses: a level's playouts are counted on one
/// tree, full strength uses the `asked` threads.
pub fn threads(playouts: Option<u64>, asked: usize) -> usize {
    if playouts.is_some() { 1 } else { asked.max(1) }
}

/// Whether a search at `level` takes the opening book's move after `moves_played` moves of a
/// game of `colours` colours: always from level 4 up, below that only for each colour's first
/// two moves.
pub fn uses_book(level: u32, moves_played: usize, colours: usize) -> bool {
    level >= GROWING_FROM || moves_played < 2 * colours
}

/// The playouts colour `c` may spend on its move at `level`; `None` at full strength.
pub fn playout_budget(board: &Board, c: usize, level: u32) -> Option<u64> {
    if level >= FULL_STRENGTH {
        return None;
    }
    let level = level.clamp(1, 9);
    let small_board = matches!(board.variant, Variant::Duo | Variant::Junior);
    let triangles = board.variant.shared_starts();
    let (counts, shares) = if small_board {
        (DUO, DUO_SHARE)
    } else if triangles {
        (TRIGON, TRIGON_SHARE)
    } else {
        (CLASSIC, CLASSIC_SHARE)
    };
    let base = counts[level as usize - 1] * shares[level as usize - 1];
    let placed = board.placed(c);
    let factor = if level >= GROWING_FROM {
        progress_factor(placed, small_board, triangles)
    } else {
        1.0
    };
    Some((base * factor).ceil().max(1.0) as u64)
}

/// How the budget of a colour's move scales with the pieces it has placed: it grows by about
/// a tenth per piece (from 0.7), with less for the opening moves, where there are fewer choices
/// and the search prunes (Trigon's opening is longer).
fn progress_factor(placed: usize, small_board: bool, triangles: bool) -> f64 {
    let growth = 0.7 * (0.1 * placed as f64).exp();
    let opening = match (placed, small_board, triangles) {
        (0, true, _) => 0.6,
        (0, false, true) => 0.2,
        (1, false, true) => 0.5,
        (2, false, true) => 0.6,
        (3, false, true) => 0.8,
        (0 | 1, false, false) => 0.2,
        (2, false, false) => 0.3,
        _ => 1.0,
    };
    growth * opening
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_rise_with_the_level_and_full_strength_has_none() {
        for (counts, shares) in [(CLASSIC, CLASSIC_SHARE), (DUO, DUO_SHARE)] {
            let ours: Vec<f64> = counts.iter().zip(shares).map(|(c, s)| c * s).collect();
            assert!(ours.windows(2).all(|w| w[0] < w[1]), "{ours:?}");
        }
        for variant in [Variant::Classic, Variant::Duo, Variant::Junior] {
            assert_eq!(playout_budget(&Board::new(variant), 0, FULL_STRENGTH), None);
        }
        // A first move: levels 1-3 spend their whole budget, higher ones a part of it
        // (Duo level 5: 861 * 0.6 * 0.7 * 0.6; Classic level 4: 181 * 0.7 * 0.2).
        let duo = Board::new(Variant::Duo);
        assert_eq!(playout_budget(&duo, 0, 1), Some(3));
        assert_eq!(playout_budget(&duo, 0, 5), Some(217));
        let classic = Board::new(Variant::Classic);
        assert_eq!(playout_budget(&classic, 0, 3), Some(135));
        assert_eq!(playout_budget(&classic, 0, 4), Some(26));
    }

    #[test]
    fn low_levels_take_the_book_for_each_colours_first_two_moves() {
        assert!(uses_book(1, 3, 2));
        assert!(!uses_book(3, 4, 2));
        assert!(uses_book(3, 7, 4));
        assert!(uses_book(4, 30, 2));
        assert!(uses_book(FULL_STRENGTH, 30, 4));
    }

    #[test]
    fn later_moves_get_more_playouts() {
        assert!(progress_factor(10, true, false) > progress_factor(3, true, false));
        assert!(progress_factor(3, false, false) > progress_factor(0, false, false));
        assert!(progress_factor(4, false, true) > progress_factor(3, false, true));
    }
}
