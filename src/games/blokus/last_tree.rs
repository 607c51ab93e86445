//! The tree of a game's last search, kept so that the next search of the same game starts from
//! the subtree of the position it reached, as the reference engine does at every level: the
//! playouts spent on the lines the game then followed are not searched again.

use super::board::Board;
use super::mcts::Mcts;
use crate::search::{Limits, SearchControl, time};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A game's last search tree and the game's moves (colour, move) at its root.
#[derive(Default)]
pub struct LastTree(Option<(Vec<(usize, u16)>, Mcts)>);

impl LastTree {
    /// The kept tree moved down to the position after `history` (`board`), if the kept tree's
    /// root is an earlier position of that game and the tree knows the moves played since;
    /// otherwise the kept tree restarted at `board` with `seed` (its storage reused: the same
    /// search as a new tree's), if it is on the same board. Nothing is kept afterwards.
    pub fn take_for(&mut self, history: &[(usize, u16)], board: &Board, seed: u64) -> Option<Mcts> {
        let (at, mut tree) = self.0.take()?;
        if let Some(since) = history.strip_prefix(at.as_slice())
            && tree.reroot(since, board)
        {
            return Some(tree);
        }
        tree.restart(board, seed).then_some(tree)
    }

    /// Keeps `tree`, grown at the position after `history`.
    pub fn keep(&mut self, history: Vec<(usize, u16)>, tree: Option<Mcts>) {
        self.0 = tree.map(|t| (history, t));
    }

    /// Forgets the kept tree (a new game, an undone move).
    pub fn clear(&mut self) {
        self.0 = None;
    }
}

/// The playouts a level's search still runs when `reused` of the budget's root visits came
/// with the tree: the level counts the root's visits, as the reference engine's do, and
/// searches at least one playout.
pub fn playouts_left(budget: u64, reused: u64) -> u64 {
    budget.saturating_sub(reused).max(1)
}

/// The limits of a GTP `genmove`: the command line's `movetime` and `nodes`, and a level's
/// playouts left ([`playouts_left`]) as a node cap. A level's playouts are a node limit, so
/// that the search gets no default deadline (a loaded machine must not cut a level's search
/// short); with neither nodes nor a level the move gets 1 s.
pub fn genmove_control(
    movetime: Option<u64>,
    nodes: Option<u64>,
    level_playouts: Option<u64>,
) -> SearchControl {
    let counted = nodes.is_some() || level_playouts.is_some();
    let limits = Limits {
        movetime: movetime.or(if counted { None } else { Some(1000) }),
        nodes: nodes.or(level_playouts),
        ..Limits::default()
    };
    SearchControl::new(
        Arc::new(AtomicBool::new(false)),
        time::budget(&limits, 10),
        limits.nodes,
        None,
    )
    .capped(level_playouts, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::Variant;

    /// A tree is taken only for a later position of its own game, with the visits of the
    /// line played since; another line or an earlier position finds none.
    #[test]
    fn a_tree_serves_the_positions_its_game_reached() {
        let v = Variant::Duo;
        let start = Board::new(v);
        let mut tree = Mcts::new(&start, 7);
        for _ in 0..3000 {
            tree.run_once();
        }
        let (best, other) = (tree.root_stats()[0], tree.root_stats()[1].0);
        let mut after = start.clone();
        after.play(0, best.0);
        let line = vec![(0, best.0)];

        let mut last = LastTree::default();
        last.keep(Vec::new(), Some(tree));
        let reused = last
            .take_for(&line, &after, 1)
            .expect("the game went on from the root");
        assert_eq!(reused.root_visits(), best.1 as u64);
        assert!(last.take_for(&line, &after, 1).is_none(), "taken once");

        // Another first move: the tree does not know that line's position.
        let mut elsewhere = start.clone();
        elsewhere.play(0, other);
        let mut moved = Mcts::new(&after, 1);
        moved.run_once();
        last.keep(line.clone(), Some(moved));
        let restarted = last
            .take_for(&[(0, other)], &elsewhere, 1)
            .expect("the same board");
        assert_eq!(restarted.root_visits(), 0);
        // An earlier position than the tree's root: a restart too.
        last.keep(line, Some(reused));
        assert_eq!(
            last.take_for(&[], &start, 1).map(|t| t.root_visits()),
            Some(0)
        );
        // Another board: nothing.
        last.keep(Vec::new(), Some(restarted));
        assert!(
            last.take_for(&[], &Board::new(Variant::Classic), 1)
                .is_none()
        );
    }

    /// A restarted tree searches exactly as a new one with the same seed (on triangles too,
    /// where the playouts learn replies).
    #[test]
    fn a_restarted_tree_searches_as_a_new_one() {
        for v in [Variant::Duo, Variant::Trigon2] {
            restarted_tree_searches_as_a_new_one(v);
        }
    }

    fn restarted_tree_searches_as_a_new_one(v: Variant) {
        let start = Board::new(v);
        let mut used = Mcts::new(&start, 3);
        for _ in 0..200 {
            used.run_once();
        }
        let mut after = start.clone();
        after.play(0, used.root_stats()[0].0);
        assert!(used.restart(&after, 9));
        let mut fresh = Mcts::new(&after, 9);
        for _ in 0..200 {
            used.run_once();
            fresh.run_once();
        }
        assert_eq!(used.root_stats(), fresh.root_stats());
    }

    #[test]
    fn a_level_counts_the_reused_visits_and_searches_at_least_once() {
        assert_eq!(playouts_left(5000, 1200), 3800);
        assert_eq!(playouts_left(5000, 6000), 1);
        assert_eq!(playouts_left(3, 0), 3);
    }
}
