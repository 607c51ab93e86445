//! Iterative deepening: run ever deeper iterations while time allows, report progress, keep the
//! best line.

use super::{Info, SearchControl};
use std::time::Duration;

/// How often an `info` is sent when nothing else happens.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// Least time between two `info` lines for improvements within an iteration; an improvement
/// held back is sent at the next chance (a later improvement, a tick or the iteration's end).
const THROTTLE: Duration = Duration::from_millis(10);

/// What one iteration produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration {
    /// The best line found (empty when the side to move has no legal move).
    pub pv: Vec<String>,
    /// Its evaluation.
    pub score: i64,
    /// False if the iteration was cut short by the control; its line is still the best known.
    pub complete: bool,
    /// The next best lines with their evaluations, best first, when the search was asked for
    /// more than one line ([`IterativeSearch::lines`]); empty otherwise.
    pub others: Vec<(Vec<String>, i64)>,
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
    /// How many best lines the search reports (`MultiPV`): above 1, every `info` line carries
    /// its rank and each iteration's report lists [`Iteration::others`] after the best line.
    fn lines(&self) -> usize {
        1
    }
}

/// Streams `info` lines: when the best line changes, after each iteration, and at least every
/// second in between.
pub struct Progress<'a> {
    control: &'a SearchControl,
    report: &'a mut dyn FnMut(&Info),
    depth: u32,
    best: Option<(Vec<String>, i64)>,
    /// Whether lines carry their rank (more than one line asked for).
    ranked: bool,
    last_sent: Duration,
    unsent: bool,
}

impl<'a> Progress<'a> {
    fn new(control: &'a SearchControl, report: &'a mut dyn FnMut(&Info)) -> Self {
        Progress {
            control,
            report,
            depth: 1,
            best: None,
            ranked: false,
            last_sent: Duration::ZERO,
            unsent: false,
        }
    }

    /// The search found a better line during the current iteration.
    pub fn improved(&mut self, pv: &[String], score: i64, nodes: u64) {
        self.best = Some((pv.to_vec(), score));
        self.unsent = true;
        if self.last_sent == Duration::ZERO || self.control.elapsed() >= self.last_sent + THROTTLE {
            self.send(nodes);
        }
    }

    /// Call now and then during long iterations: sends a held-back improvement, or an `info`
    /// if none went out for a second.
    pub fn tick(&mut self, nodes: u64) {
        let wait = if self.unsent { THROTTLE } else { HEARTBEAT };
        if self.best.is_some() && self.control.elapsed() >= self.last_sent + wait {
            self.send(nodes);
        }
    }

    /// An iteration ended with this line and these next best ones: always reported, the best
    /// line first.
    fn completed(&mut self, pv: &[String], score: i64, others: &[(Vec<String>, i64)], nodes: u64) {
        self.best = Some((pv.to_vec(), score));
        self.send(nodes);
        if pv.is_empty() {
            return;
        }
        let time_ms = self.control.elapsed().as_millis() as u64;
        for (rank, (line, score)) in others.iter().enumerate() {
            (self.report)(&Info {
                depth: self.depth,
                multipv: Some(rank + 2),
                score: *score,
                nodes,
                time_ms,
                pv: line.clone(),
            });
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
        self.last_sent = elapsed.max(Duration::from_nanos(1));
        self.unsent = false;
        (self.report)(&Info {
            depth: self.depth,
            multipv: self.ranked.then_some(1),
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
    progress.ranked = search.lines() > 1;
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
        progress.completed(
            &iteration.pv,
            iteration.score,
            &iteration.others,
            search.nodes(),
        );
        let finished = search.max_depth().is_some_and(|max| depth >= max);
        if !iteration.complete || finished || empty {
            break;
        }
        depth += 1;
    }
    progress.best.map(|(pv, _)| pv).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::Budget;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A toy search: iteration d "finds" the line `m<d>` after 100 nodes.
    struct Counting {
        nodes: u64,
        natural_end: Option<u32>,
    }

    impl IterativeSearch for Counting {
        fn iterate(
            &mut self,
            depth: u32,
            control: &SearchControl,
            _: &mut Progress,
        ) -> Option<Iteration> {
            for _ in 0..100 {
                self.nodes += 1;
                if depth > 1 && control.must_stop(self.nodes) {
                    return None;
                }
            }
            Some(Iteration {
                pv: vec![format!("m{depth}")],
                score: depth as i64,
                complete: true,
                others: Vec::new(),
            })
        }
        fn nodes(&self) -> u64 {
            self.nodes
        }
        fn max_depth(&self) -> Option<u32> {
            self.natural_end
        }
    }

    fn control(stopped: bool, nodes: Option<u64>, depth: Option<u32>) -> SearchControl {
        let stop = Arc::new(AtomicBool::new(stopped));
        SearchControl::new(
            stop,
            Budget {
                soft: None,
                hard: None,
            },
            nodes,
            depth,
        )
    }

    fn run(search: &mut Counting, control: &SearchControl) -> (Vec<String>, Vec<u32>) {
        let mut depths = Vec::new();
        let best = deepen(search, control, &mut |info| depths.push(info.depth));
        (best, depths)
    }

    #[test]
    fn depth_limit_and_one_info_per_iteration() {
        let mut search = Counting {
            nodes: 0,
            natural_end: None,
        };
        let (best, depths) = run(&mut search, &control(false, None, Some(3)));
        assert_eq!(best, ["m3"]);
        assert_eq!(depths, [1, 2, 3]);
        assert_eq!(search.nodes, 300);
    }

    #[test]
    fn a_stopped_search_still_answers_from_iteration_one() {
        let mut search = Counting {
            nodes: 0,
            natural_end: None,
        };
        let (best, depths) = run(&mut search, &control(true, None, None));
        assert_eq!(best, ["m1"]);
        assert_eq!(depths, [1]);
    }

    #[test]
    fn node_limit_and_natural_end() {
        let mut search = Counting {
            nodes: 0,
            natural_end: None,
        };
        let (best, _) = run(&mut search, &control(false, Some(250), None));
        assert_eq!(
            best,
            ["m2"],
            "iteration 3 is cut off at 250 nodes and keeps m2"
        );
        let mut ending = Counting {
            nodes: 0,
            natural_end: Some(2),
        };
        let (best, depths) = run(&mut ending, &control(false, None, None));
        assert_eq!((best, depths), (vec!["m2".to_string()], vec![1, 2]));
    }
}
