//! Game-independent search: what a `go` asks for ([`Limits`]), how long to think ([`time`]),
//! when to stop ([`SearchControl`]), and the iterative-deepening driver ([`iterative`]) that every
//! game's search runs under.
//!
//! A game plugs in by implementing [`iterative::IterativeSearch`]: one call per iteration, each
//! iteration deeper (or, for sampling searches such as MCTS or Blockudoku's look-ahead, larger)
//! than the last. The driver streams an [`Info`] after every iteration and whenever the best
//! move changes, and stops at the limits. This one small trait carries every game of the project:
//! - 1-player stochastic (Blockudoku): iteration 1 is a greedy plan for the hand, 2 the full
//!   search of the hand, 3+ add look-ahead over sampled future hands;
//! - 2-player with scores (competitive sudoku): iteration d is an alpha-beta search to depth d;
//! - N colours with passes (Blokus): iteration k is the k-th batch of MCTS playouts.

pub mod control;
pub mod info;
pub mod iterative;
pub mod limits;
pub mod time;

pub use control::SearchControl;
pub use info::Info;
pub use limits::Limits;
