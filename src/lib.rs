//! tessera: a game engine for grid-placement puzzles and board games, driven over stdin/stdout.
//!
//! Layers, from the outside in:
//! - [`protocol`]: parses command lines into [`protocol::Command`]s and formats answers; knows no rules.
//! - [`engine`]: the session: the current game, the search worker thread, the stop flag.
//! - [`stream`]: command lines in, answer lines out (never waiting for the client to read).
//! - [`search`]: game-independent search pieces (limits, time management, iterative deepening).
//! - [`games`]: each game's rules, move generation, evaluation and notation.
//! - [`sudoku`]: the sudoku solver, solution counter and generator for any box shape.
//! - [`tuning`]: game-independent parameter tuning (separable CMA-ES).
//! - [`isa`]: hot functions compiled twice, for the baseline and for x86-64-v3 CPUs.
//! - [`cli`]: the subcommands of the `tessera` binary besides protocol mode.

pub mod cli;
pub mod engine;
pub mod games;
pub mod isa;
pub mod protocol;
pub mod search;
pub mod stream;
pub mod sudoku;
pub mod tuning;
