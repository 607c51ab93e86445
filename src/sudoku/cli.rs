//! `tessera sudoku ...`: solve, count, generate, show and bench from the command line.
use clap::Subcommand;

/// The `sudoku` subcommands.
#[derive(Debug, Subcommand)]
pub enum SudokuCommand {}

/// Runs one `sudoku` subcommand; returns the process exit code.
pub fn run(command: SudokuCommand) -> i32 {
    match command {}
}
