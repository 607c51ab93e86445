//! The `Level` ladder of the hand search: what each level below full strength lets it do.
//!
//! | level | play |
//! | --- | --- |
//! | 1 | each piece in hand order where it clears the most regions now, ties drawn by the seed |
//! | 2 | each piece in hand order where the evaluation of the board after it is best |
//! | 3 | the same over every order of the hand, the best final board (iteration 1 alone) |
//! | 4, 5, 6 | then the whole hand, keeping only the best 3, 6, 12 placements (by the cheap evaluation) of each node before the last piece |
//! | 7 | then the whole hand keeping the best [`BEAM`] placements of each node (iteration 2), no look-ahead |
//! | 8 | then one look-ahead iteration (8 sampled hands) on boards of 30+ filled cells |
//! | 9 | up to two look-ahead iterations (24 hands) on boards of 30+ filled cells |
//! | 10 | full strength: no cap but the client's limits and the `LookaheadFrom` option |
//!
//! From level 7 up the whole-hand search keeps the best [`BEAM`] placements of each node: with
//! the learned evaluation that plays better than every order and placement, and costs less
//! (docs/measurements.md, Blockudoku, 2026-11-29).
//!
//! Levels 1 and 2 try the other orders only when the hand order cannot place the whole hand;
//! when no order places it their way, the full search decides, as at every level.

/// The placements of each node before the last piece that the whole-hand search keeps from
/// level 7 up (best first by the cheap value).
pub const BEAM: usize = 24;

/// How a level chooses its first plan (iteration 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// Each piece in turn, in hand order, where it clears the most regions; ties by the seed.
    MostClears,
    /// Each piece in turn, in hand order, where the evaluation of the board after it is best.
    HandOrder,
    /// The real search: the greedy plan over every order, then the later iterations.
    Search,
}

/// What a level lets the hand search do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// How iteration 1 plays.
    pub play: Play,
    /// The deepest iteration (1 greedy, 2 whole hand, 3+ look-ahead); `None`: no cap.
    pub max_depth: Option<u32>,
    /// The whole-hand search keeps only this many placements (best by the cheap evaluation) of
    /// each node before the last piece; `None`: all. (A board reached from two nodes is
    /// searched from the first only, even if that one's beam dropped it.)
    pub beam: Option<usize>,
    /// The fewest filled cells of a board that is looked ahead (the `LookaheadFrom` option
    /// still applies when it asks for more).
    pub lookahead_from: u32,
}

impl Caps {
    /// The caps of `level`: 1 (weakest) to [`crate::games::FULL_STRENGTH`] (none); out-of-range levels are
    /// taken as the nearest one.
    pub fn of(level: u32) -> Caps {
        let search = |max_depth, beam, lookahead_from| Caps {
            play: Play::Search,
            max_depth: Some(max_depth),
            beam,
            lookahead_from,
        };
        match level {
            0 | 1 => Caps {
                play: Play::MostClears,
                ..search(1, None, 0)
            },
            2 => Caps {
                play: Play::HandOrder,
                ..search(1, None, 0)
            },
            3 => search(1, None, 0),
            4 => search(2, Some(3), 0),
            5 => search(2, Some(6), 0),
            6 => search(2, Some(12), 0),
            7 => search(2, Some(BEAM), 0),
            8 => search(3, Some(BEAM), 30),
            9 => search(4, Some(BEAM), 30),
            _ => Caps::FULL,
        }
    }

    /// No cap but the beam: [`crate::games::FULL_STRENGTH`].
    pub const FULL: Caps = Caps {
        play: Play::Search,
        max_depth: None,
        beam: Some(BEAM),
        lookahead_from: 0,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::FULL_STRENGTH;

    #[test]
    fn only_full_strength_is_uncapped_and_the_caps_loosen_level_by_level() {
        assert_eq!(Caps::of(FULL_STRENGTH), Caps::FULL);
        assert_eq!(Caps::of(FULL_STRENGTH + 5), Caps::FULL);
        assert_eq!(Caps::of(0), Caps::of(1));
        for level in 1..FULL_STRENGTH {
            let (low, high) = (Caps::of(level), Caps::of(level + 1));
            assert_ne!(low, high, "level {level}");
            let depth = |c: Caps| c.max_depth.unwrap_or(u32::MAX);
            assert!(depth(low) <= depth(high), "level {level}");
            let beam = |c: Caps| c.beam.unwrap_or(usize::MAX);
            assert!(
                depth(low) < depth(high) || beam(low) <= beam(high),
                "level {level}"
            );
        }
    }
}
