//! Iterative deepening: run ever deeper iterations while time allows, report progress, keep the
//! best line.

use super::{Info, SearchControl};
use std::time::Duration;

/// How often an `info` is sent when nothing else happens.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// What one iteration produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration {
    /// The best line found (empty when the side to move has no legal move).
    pub pv: Vec<String>,
    /// Its evaluation.
    pub score: i64,
    /// False if the iteration was cut short by the control; its line is still the best known.
    pub complete: bool,
}

/// A search that can be deepened one iteration at a time.
pub trait IterativeSearch {
    /// Searches iteration `depth` (1, 2, ...). Iteration 1 must return a line even when the
    /// control already says stop, so that every `go` has a legal answer. Later iterations return
    /// `None` if stopped before they had a line of their own.
    fn iterate(
        &mut self,
        depth: u32,
        control: &SearchControl,
        progress: &mut Progress,
    ) -> Option<Iteration>;
    /// Nodes searched so far, over all iterations.
    fn nodes(&self) -> u64;
    /// The deepest iteration that can still add something (for searches with a natural end).
    fn max_depth(&self) -> Option<u32> {
        None
    }
}

/// Streams `info` lines: when the best line changes, after each iteration, and at least every
/// second in between.
pub struct Progress<'a> {
    control: &'a SearchControl,
    report: &'a mut dyn FnMut(&Info),
    depth: u32,
    best: Option<(Vec<String>, i64)>,
    last_sent: Duration,
}

impl<'a> Progress<'a> {
    fn new(control: &'a SearchControl, report: &'a mut dyn FnMut(&Info)) -> Self {
        Progress {
            control,
            report,
            depth: 1,
            best: None,
            last_sent: Duration::ZERO,
        }
    }

    /// The search found a better line during the current iteration.
    pub fn improved(&mut self, pv: &[String], score: i64, nodes: u64) {
        self.best = Some((pv.to_vec(), score));
        self.send(nodes);
    }

    /// Call now and then during long iterations: sends an `info` if none went out for a second.
    pub fn tick(&mut self, nodes: u64) {
        if self.best.is_some() && self.control.elapsed() >= self.last_sent + HEARTBEAT {
            self.send(nodes);
        }
    }

    fn send(&mut self, nodes: u64) {
        let Some((pv, score)) = &self.best else {
            return;
        };
        if pv.is_empty() {
            return;
        }
        let elapsed = self.control.elapsed();
        self.last_sent = elapsed;
        (self.report)(&Info {
            depth: self.depth,
            score: *score,
            nodes,
            time_ms: elapsed.as_millis() as u64,
            pv: pv.clone(),
        });
    }
}

/// Runs `search` until the control or its natural end stops it, streaming progress through
/// `report`. Returns the best line (empty if there is no legal move).
pub fn deepen(
    search: &mut dyn IterativeSearch,
    control: &SearchControl,
    report: &mut dyn FnMut(&Info),
) -> Vec<String> {
    let mut progress = Progress::new(control, report);
    let mut depth = 1;
    loop {
        if depth > 1 && !control.may_start_iteration(depth, search.nodes()) {
            break;
        }
        progress.depth = depth;
        let Some(iteration) = search.iterate(depth, control, &mut progress) else {
            break;
        };
        let empty = iteration.pv.is_empty();
        progress.improved(&iteration.pv, iteration.score, search.nodes());
        let finished = search.max_depth().is_some_and(|max| depth >= max);
        if !iteration.complete || finished || empty {
            break;
        }
        depth += 1;
    }
    progress.best.map(|(pv, _)| pv).unwrap_or_default()
}
