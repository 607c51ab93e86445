//! The `Level` ladder of Competitive Sudoku, for people: level 1 plays like the course
//! framework's random_player, 2 like its greedy_player, 3 to 9 are the real search under caps
//! that grow level by level (with a little seeded noise on the root choice at 3 and 4), and
//! [`FULL_STRENGTH`] is the search with no cap but the client's limits. Every random choice
//! comes from the `Seed` option and the position, so the same seed plays the same move.

use super::rules::{Game, Move};
use crate::games::FULL_STRENGTH;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// How a level chooses its move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// A uniformly random move the rules allow (not taboo; it may turn out taboo-making).
    Random,
    /// The move the rules allow that scores the most points now, ties broken at random.
    Greedy,
    /// The search under these caps.
    Search(Caps),
}

/// What a level takes away from the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Caps {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// About the most nodes.
    pub nodes: Option<u64>,
    /// The largest random bonus, in centipoints, added to a root move's value for the choice.
    pub noise: u32,
}

/// The levels below full strength, from level 1: how each plays. The depths from level 5 up are
/// odd: a search that ends on the mover's own move plays better here than one a ply deeper
/// (depth 4 lost 40-60 to depth 3 over 100 games).
const LADDER: [Play; FULL_STRENGTH as usize - 1] = [
    Play::Random,
    Play::Greedy,
    search(Some(1), Some(1_000), 300),
    search(Some(2), Some(1_000), 100),
    search(Some(3), Some(2_000), 0),
    search(Some(5), Some(6_000), 0),
    search(Some(7), Some(20_000), 0),
    search(Some(9), Some(60_000), 0),
    search(Some(13), Some(180_000), 0),
];

const fn search(depth: Option<u32>, nodes: Option<u64>, noise: u32) -> Play {
    Play::Search(Caps {
        depth,
        nodes,
        noise,
    })
}

/// How `level` plays (1 to [`FULL_STRENGTH`]; anything else counts as full strength).
pub fn play(level: u32) -> Play {
    level
        .checked_sub(1)
        .and_then(|i| LADDER.get(i as usize))
        .copied()
        .unwrap_or(Play::Search(Caps::default()))
}

/// A seed for the random choices in `game`: the `Seed` option mixed with the position (grid,
/// mover, scores, taboo moves), so that a game does not repeat the same draw move after move.
pub fn position_seed(seed: u64, game: &Game) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut hash = 0xCBF2_9CE4_8422_2325 ^ seed;
    let mut mix = |x: u64| hash = (hash ^ x).wrapping_mul(PRIME);
    game.grid.values().iter().for_each(|&v| mix(u64::from(v)));
    mix(game.turn as u64);
    game.scores.iter().for_each(|&s| mix(u64::from(s)));
    for mv in &game.taboo {
        mix(u64::from(mv.cell) << 8 | u64::from(mv.value));
    }
    hash
}

/// The move of a level that does not search (`Random` or `Greedy`; `None` for a search
/// level or when the rules allow no move).
pub fn baseline_move(game: &Game, play: Play, seed: u64) -> Option<Move> {
    let mut rng = SmallRng::seed_from_u64(position_seed(seed, game));
    match play {
        Play::Random => random_move(game, &mut rng),
        Play::Greedy => greedy_move(game, &mut rng),
        Play::Search(_) => None,
    }
}

/// A uniformly random move the rules allow, like the course framework's random_player.
pub fn random_move(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    let moves = game.rule_moves();
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// Like the course framework's greedy_player: a random move among those the rules allow that
/// score the most now (no solvability check, so it may be taboo-making).
pub fn greedy_move(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    let moves: Vec<(Move, u32)> = game
        .rule_moves()
        .into_iter()
        .map(|mv| (mv, game.points_for(usize::from(mv.cell))))
        .collect();
    let best = moves.iter().map(|&(_, p)| p).max()?;
    let top: Vec<Move> = moves
        .into_iter()
        .filter(|&(_, p)| p == best)
        .map(|(m, _)| m)
        .collect();
    Some(top[rng.random_range(0..top.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::compsudoku::rules::Mode;
    use crate::sudoku::{Grid, Shape};

    /// A 4x4 game whose first row misses only its last cell (3 points for d4=4).
    fn game() -> Game {
        let shape = Shape::new(2, 2).unwrap();
        let mut game = Game::new(shape, Mode::Classic, 0);
        game.grid = Grid::parse(shape, "123.............").unwrap();
        game
    }

    #[test]
    fn the_ladder_grows_level_by_level() {
        assert_eq!(play(1), Play::Random);
        assert_eq!(play(2), Play::Greedy);
        assert_eq!(play(FULL_STRENGTH), Play::Search(Caps::default()));
        let caps: Vec<Caps> = (3..FULL_STRENGTH)
            .map(|level| match play(level) {
                Play::Search(caps) => caps,
                other => panic!("level {level} searches, not {other:?}"),
            })
            .collect();
        for pair in caps.windows(2) {
            let (low, high) = (pair[0], pair[1]);
            let depth = |c: Caps| c.depth.unwrap_or(u32::MAX);
            let nodes = |c: Caps| c.nodes.unwrap_or(u64::MAX);
            assert!(depth(low) <= depth(high) && nodes(low) <= nodes(high));
            assert!(depth(low) < depth(high) || nodes(low) < nodes(high));
            assert!(low.noise >= high.noise);
        }
    }

    #[test]
    fn greedy_takes_the_points_and_random_any_rule_move() {
        let game = game();
        let rules = game.rule_moves();
        for seed in 0..20 {
            let greedy = baseline_move(&game, Play::Greedy, seed).unwrap();
            assert_eq!(
                (greedy.cell, greedy.value),
                (3, 4),
                "d4=4 completes the row"
            );
            let random = baseline_move(&game, Play::Random, seed).unwrap();
            assert!(rules.contains(&random));
            assert_eq!(baseline_move(&game, Play::Random, seed), Some(random));
        }
        let drawn: std::collections::HashSet<Move> = (0..50)
            .filter_map(|seed| baseline_move(&game, Play::Random, seed))
            .collect();
        assert!(
            drawn.len() > 10,
            "random spreads over the moves: {}",
            drawn.len()
        );
    }

    #[test]
    fn the_position_changes_the_draw() {
        let mut other = game();
        other.scores = [3, 0];
        assert_ne!(position_seed(7, &game()), position_seed(7, &other));
        assert_ne!(position_seed(7, &game()), position_seed(8, &game()));
    }
}
