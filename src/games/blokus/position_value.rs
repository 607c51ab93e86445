//! The value of a position for each player, as a game analysis wants it: a fresh search tree
//! runs a fixed number of playouts and the value is each player's mean result over all of them,
//! as the reference engine's game analysis takes its search's root value; once the game is
//! over, the result itself. The mean counts the tries of weaker moves by the colour to move, so
//! it leans a little towards the other players; a game's values lean alike at every position
//! with the same colour to move.

use super::board::Board;
use super::mcts::Mcts;

/// The most playouts one position's value may take (about a minute of search on the large
/// boards).
pub const MAX_PLAYOUTS: u64 = 10_000_000;

/// Each player's value of `board` in player order (1 a sure win, 0 a sure loss, ranks between
/// with more players): the mean result over `playouts` playouts (at least one) of a new tree
/// seeded with `seed`, clamped to 0..1; the game's result when no colour can move. `history`
/// holds the moves before the position (colour, move), which the playouts answer.
pub fn player_values(
    board: &Board,
    history: &[(usize, u16)],
    playouts: u64,
    seed: u64,
) -> Vec<f32> {
    let mut b = board.clone();
    if b.game_over() {
        return b.player_results();
    }
    let mut tree = Mcts::new(&b, seed);
    tree.set_history(history);
    for _ in 0..playouts.clamp(1, MAX_PLAYOUTS) {
        tree.run_once();
    }
    let means = tree.root_means().unwrap_or([0.5; 4]);
    means[..b.variant.nplayers()]
        .iter()
        .map(|v| v.clamp(0.0, 1.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::Variant;
    use crate::games::blokus::game::Game;

    #[test]
    fn an_ended_game_is_worth_its_result() {
        // A whole game of first legal moves.
        let mut game = Game::new(Variant::Duo);
        while let Some(c) = game.board.clone().skip_to_mover() {
            let m = game.legal(c)[0];
            game.play(c, m).unwrap();
        }
        let values = player_values(&game.board, &game.history, 100, 1);
        assert_eq!(values, game.board.player_results());
        assert!(
            values.iter().all(|v| [0.0, 0.5, 1.0].contains(v)),
            "{values:?}"
        );
    }

    #[test]
    fn values_are_per_player_and_a_two_player_pair_adds_up_to_one() {
        let duo = player_values(&Board::new(Variant::Duo), &[], 300, 7);
        assert_eq!(duo.len(), 2);
        assert!((duo[0] + duo[1] - 1.0).abs() < 0.01, "{duo:?}");
        assert!(duo.iter().all(|v| (0.0..=1.0).contains(v)));
        assert_eq!(
            player_values(&Board::new(Variant::Two), &[], 50, 7).len(),
            2
        );
        assert_eq!(
            player_values(&Board::new(Variant::Three), &[], 50, 7).len(),
            3
        );
        // The same seed, the same values.
        assert_eq!(duo, player_values(&Board::new(Variant::Duo), &[], 300, 7));
    }
}
