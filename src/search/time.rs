//! The time manager: turns [`Limits`] into a soft deadline (don't start another iteration after
//! it) and a hard deadline (abandon the search at once).

use super::Limits;
use std::time::Duration;

/// The think time used by a `go` without any limit, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// When to stop thinking, relative to the start of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop now.
    pub hard: Option<Duration>,
}

/// Computes the budget of a search. `overhead_ms` is kept in reserve for the answer to reach the
/// client (the `MoveOverhead` option); at most half of a short movetime goes to it.
pub fn budget(limits: &Limits, overhead_ms: u64) -> Budget {
    if limits.infinite {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    let reserve = |total: u64| total.saturating_sub(overhead_ms.min(total / 2));
    if let Some(movetime) = limits.movetime {
        let hard = Duration::from_millis(reserve(movetime));
        return Budget {
            soft: Some(hard),
            hard: Some(hard),
        };
    }
    if let Some(time) = limits.time {
        // A share of the clock plus most of the increment, never more than what the clock holds.
        let inc = limits.inc.unwrap_or(0);
        let share = time / 25 + inc * 3 / 4;
        let hard_ms = (share * 3).min(reserve(time)).max(1);
        let soft = Duration::from_millis(share.min(hard_ms));
        let hard = Duration::from_millis(hard_ms);
        return Budget {
            soft: Some(soft),
            hard: Some(hard),
        };
    }
    if limits.depth.is_some() || limits.nodes.is_some() {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    let hard = Duration::from_millis(reserve(DEFAULT_MOVETIME_MS));
    Budget {
        soft: Some(hard),
        hard: Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> Option<u64> {
        d.map(|d| d.as_millis() as u64)
    }

    #[test]
    fn movetime_keeps_the_overhead_in_reserve() {
        let b = budget(
            &Limits {
                movetime: Some(100),
                ..Limits::default()
            },
            10,
        );
        assert_eq!((ms(b.soft), ms(b.hard)), (Some(90), Some(90)));
        let short = budget(
            &Limits {
                movetime: Some(4),
                ..Limits::default()
            },
            10,
        );
        assert_eq!(ms(short.hard), Some(2));
    }

    #[test]
    fn clock_uses_a_share_and_never_the_whole_clock() {
        let b = budget(
            &Limits {
                time: Some(10_000),
                inc: Some(100),
                ..Limits::default()
            },
            10,
        );
        assert_eq!(ms(b.soft), Some(475));
        assert!(ms(b.hard).unwrap() <= 3 * 475);
        let low = budget(
            &Limits {
                time: Some(30),
                ..Limits::default()
            },
            10,
        );
        assert!(ms(low.hard).unwrap() <= 20);
    }

    #[test]
    fn depth_only_and_infinite_have_no_deadline() {
        let d = budget(
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            10,
        );
        assert_eq!(d.hard, None);
        let i = budget(
            &Limits {
                infinite: true,
                movetime: Some(5),
                ..Limits::default()
            },
            10,
        );
        assert_eq!(i.hard, None);
        let none = budget(&Limits::default(), 10);
        assert_eq!(ms(none.hard), Some(DEFAULT_MOVETIME_MS - 10));
    }
}
