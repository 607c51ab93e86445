//! The subcommands of the `tessera` binary besides protocol mode.

pub mod bench;
pub mod book;
pub mod chances;
pub mod compare;
pub mod cputime;
pub mod external;
pub mod jobs;
pub mod progress;
pub mod selfplay;
pub mod selfplay_sudoku;
pub mod sprt;
pub mod training;
pub mod tune;
pub mod tune_prior;
