//! The weights of the hand-made evaluation's features (`features.rs`): one integer each.

use super::features::FEATURES;

/// One weight per feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

/// Weights tuned by self-play in two steps. First (features 0-13) coordinate descent with the
/// greedy player (`--depth 1`, 500 games from the empty board, cap 2000, seed 21): hazard mean
/// 256 -> 528 rounds. Then the board-shape features 14-18 were added one at a time by
/// coordinate descent with the greedy player (1000 games, cap 5000, seed 21; a step kept when
/// the hazard mean rose by 4% or more): 523 -> 842 rounds (cornered cells, then runs, run ends
/// on box lines, edge gaps, centre cells). Features that gained nothing were dropped: filled
/// cells in the corner boxes, centre or corner boxes in use, scarce pieces weighted by
/// crowding, cells in no empty 2x2, corners of filled shapes. Checked at `--depth 2` with the
/// harder blocksudoku59 set (40 games, cap 3000, seed 5): hazard mean 1,430 -> 3,910 rounds.
/// The clearing shortfall (feature 19) was added later at -6, chosen among 0, -1, -3, -6 and
/// -12 at `--depth 2` from crowded boards (36+ cells, 4 rounds before greedy losses;
/// `--games 2000 --cap 20 --seed 77`): 100 deaths at 0, 81 at -6 (games lost by only one
/// side 31 to 12, sign test p = 0.005).
pub const DEFAULT_WEIGHTS: Weights = Weights([
    -5, -90, -12, -12, -22, -400, -60, -20, -30, -20, 2, -10, -10, -10, -8, 6, -15, -10, 3, -6,
]);
