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
pub mod selfplay_args;
pub mod selfplay_sudoku;
pub mod sprt;
pub mod training;
pub mod tune;
pub mod tune_prior;

/// The exit code of a subcommand run: 0, or 2 after printing why the run could not start.
fn exit_code(run: Result<(), String>) -> i32 {
    match run {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}
