//! The integration tests: the engine binary driven through pipes, and the library's public API,
//! in one test binary (one link instead of one a file). `cargo test --release --test engine
//! conformance` runs protocol.md's promises alone.

mod common;

mod blockudoku;
mod blockudoku_eval;
mod blockudoku_levels;
mod blokus;
mod cli;
mod compsudoku;
mod conformance;
mod gtp;
mod lagging_client;
mod options;
mod protocol;
mod responsiveness;
mod sudoku_cli;
mod sudoku_hint;
mod sudoku_human;
mod sudoku_levels;
