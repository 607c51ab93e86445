//! The stop flag and deadlines a running search polls.

use super::time::Budget;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Shared between the session (which may raise `stop`) and the search (which polls it).
#[derive(Debug, Clone)]
pub struct SearchControl {
    stop: Arc<AtomicBool>,
    start: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
}

impl SearchControl {
    /// A control starting now with the given budget and node/depth caps.
    pub fn new(
        stop: Arc<AtomicBool>,
        budget: Budget,
        max_nodes: Option<u64>,
        max_depth: Option<u32>,
    ) -> Self {
        Self::starting_at(Instant::now(), stop, budget, max_nodes, max_depth)
    }

    /// A control whose clock started at `start` (e.g. when the `go` line was read).
    pub fn starting_at(
        start: Instant,
        stop: Arc<AtomicBool>,
        budget: Budget,
        max_nodes: Option<u64>,
        max_depth: Option<u32>,
    ) -> Self {
        SearchControl {
            stop,
            start,
            soft: budget.soft.map(|d| start + d),
            hard: budget.hard.map(|d| start + d),
            max_nodes,
            max_depth,
        }
    }

    /// The moment the search must have ended, if it has a deadline.
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard
    }

    /// A control with no limit at all, stopped only through its flag.
    pub fn unlimited() -> Self {
        Self::new(
            Arc::new(AtomicBool::new(false)),
            Budget {
                soft: None,
                hard: None,
            },
            None,
            None,
        )
    }

    /// True once the search must end now: stop was asked, the hard deadline passed, or the node
    /// budget is spent. Cheap enough to call every few microseconds of work.
    pub fn must_stop(&self, nodes: u64) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.max_nodes.is_some_and(|max| nodes >= max) {
            return true;
        }
        self.hard.is_some_and(|t| Instant::now() >= t)
    }

    /// True if another iteration of the given depth may begin.
    pub fn may_start_iteration(&self, depth: u32, nodes: u64) -> bool {
        if self.max_depth.is_some_and(|max| depth > max) || self.must_stop(nodes) {
            return false;
        }
        self.soft.is_none_or(|t| Instant::now() < t)
    }

    /// The deepest iteration the search may complete, if capped.
    pub fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time left before the hard deadline, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        self.hard
            .map(|t| t.saturating_duration_since(Instant::now()))
    }

    /// Nodes left before the node budget is spent, if there is one (`nodes` counted so far).
    pub fn nodes_left(&self, nodes: u64) -> Option<u64> {
        self.max_nodes.map(|max| max.saturating_sub(nodes))
    }

    /// Raises the stop flag (used by searches that decide on their own that they are done).
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// This control with its node and depth caps lowered to `max_nodes` and `max_depth` where
    /// those are tighter (a playing level's caps under the client's limits); the stop flag and
    /// the deadlines stay shared.
    pub fn capped(&self, max_nodes: Option<u64>, max_depth: Option<u32>) -> SearchControl {
        fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        SearchControl {
            max_nodes: tighter(self.max_nodes, max_nodes),
            max_depth: tighter(self.max_depth, max_depth),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_keeps_the_tighter_limits_and_shares_the_stop_flag() {
        let stop = Arc::new(AtomicBool::new(false));
        let budget = Budget {
            soft: None,
            hard: None,
        };
        let client = SearchControl::new(stop.clone(), budget, Some(1000), None);
        let level = client.capped(Some(5000), Some(3));
        assert!(level.must_stop(1000), "the client's node limit is tighter");
        assert!(!level.must_stop(999));
        assert_eq!(level.max_depth(), Some(3));
        let level = client.capped(Some(10), None);
        assert!(level.must_stop(10) && !level.must_stop(9));
        stop.store(true, Ordering::Relaxed);
        assert!(level.must_stop(0), "the stop flag is shared");
    }
}
