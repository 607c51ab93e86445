//! `tessera sudoku ...`: solve, count, generate, show, bench, and rate or explain as people solve.
//!
//! Puzzle input is one grid per line (N*N characters: `.` or `0` empty, `1`-`9`, then `A` = 10,
//! ...); lines starting with `#` and blank lines are skipped. A bad line gives `error: line L:
//! ...` on stderr and `invalid` on stdout, so output lines stay aligned with the puzzles.
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::Shape;
use super::generate::{Grade, Method};
use super::human::Level;

mod bench;
mod generate;
mod input;
mod rate;
mod solve;

/// The `sudoku` subcommands.
#[derive(Debug, Subcommand)]
pub enum SudokuCommand {
    /// Solve puzzles (one per line), or count their solutions with --count.
    Solve(SolveArgs),
    /// Generate puzzles with a unique solution (or solved grids).
    Generate(GenerateArgs),
    /// Pretty-print grids with box separators.
    Show(ShowArgs),
    /// Time first-solution and count-to-2 over a puzzle file.
    Bench(BenchArgs),
    /// Rate puzzles as people solve them: level, score and hardest technique per line.
    Rate(RateArgs),
    /// Print each puzzle's human solution path, step by step (--json: one object a puzzle).
    Explain(ExplainArgs),
}

/// Arguments of `sudoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Print the number of solutions, counting up to K, instead of a solution.
    #[arg(long, value_name = "K")]
    pub count: Option<u64>,
    /// Box shape MxN; by default taken from the line length (16, 81, 256, 625 cells).
    #[arg(long = "box", value_name = "MxN")]
    pub shape: Option<Shape>,
    /// Print puzzles per second and microseconds per puzzle to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Puzzle file; standard input if absent or `-`.
    pub file: Option<PathBuf>,
}

/// Arguments of `sudoku generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Box shape MxN.
    #[arg(long = "box", value_name = "MxN", default_value = "3x3")]
    pub shape: Shape,
    /// Number of puzzles (or grids) to print.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Random seed (the output depends only on the arguments and the seed); random if absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Only print proven-minimal puzzles (no clue removable). Without --clues a full removal
    /// pass gives one anyway, unless a uniqueness check runs out of its guess budget (only
    /// above 16x16; the clue is then kept).
    #[arg(long)]
    pub minimal: bool,
    /// Stop removing clues at this many clues.
    #[arg(long, value_name = "C")]
    pub clues: Option<usize>,
    /// Only keep puzzles of this grade: easy, medium, hard, fiendish.
    #[arg(long)]
    pub grade: Option<Grade>,
    /// Only keep puzzles of this human level (easy, medium, hard, unfair, extreme), rated by
    /// the human techniques as `sudoku rate` does.
    #[arg(long)]
    pub level: Option<Level>,
    /// Print solved grids instead of puzzles.
    #[arg(long)]
    pub solved: bool,
    /// How solved grids are made: backtrack (any grid) or shuffle (symmetries of one grid).
    #[arg(long, default_value = "backtrack")]
    pub method: Method,
    /// After each puzzle print its clue count, guesses, grade, whether it is proven
    /// minimal, and its human level and score (as `sudoku rate` gives them), tab-separated.
    #[arg(long)]
    pub info: bool,
    /// Print puzzles per second to stderr.
    #[arg(long)]
    pub stats: bool,
}

/// Arguments of `sudoku show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Box shape MxN; by default taken from the line length.
    #[arg(long = "box", value_name = "MxN")]
    pub shape: Option<Shape>,
    /// Puzzle file; standard input if absent or `-`.
    pub file: Option<PathBuf>,
}

/// Arguments of `sudoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle file.
    pub file: PathBuf,
    /// Box shape MxN; by default taken from the line length.
    #[arg(long = "box", value_name = "MxN")]
    pub shape: Option<Shape>,
    /// Use only the first N puzzles.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Run each pass N times over the whole file: the fastest run's wall time and the mean CPU
    /// time are reported (one pass over a short file is too brief to time well).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repeat: usize,
}

/// Arguments of `sudoku rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// Box shape MxN; by default taken from the line length.
    #[arg(long = "box", value_name = "MxN")]
    pub shape: Option<Shape>,
    /// Puzzle file; standard input if absent or `-`.
    pub file: Option<PathBuf>,
}

/// Arguments of `sudoku explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// One JSON object per puzzle instead of words.
    #[arg(long)]
    pub json: bool,
    /// Box shape MxN; by default taken from the line length.
    #[arg(long = "box", value_name = "MxN")]
    pub shape: Option<Shape>,
    /// Puzzle file; standard input if absent or `-`.
    pub file: Option<PathBuf>,
}

/// Runs one `sudoku` subcommand; returns the process exit code.
pub fn run(command: SudokuCommand) -> i32 {
    match command {
        SudokuCommand::Solve(args) => solve::solve(&args),
        SudokuCommand::Generate(args) => generate::generate(&args),
        SudokuCommand::Show(args) => solve::show(&args),
        SudokuCommand::Bench(args) => bench::bench(&args),
        SudokuCommand::Rate(args) => rate::rate(&args),
        SudokuCommand::Explain(args) => rate::explain(&args),
    }
}
