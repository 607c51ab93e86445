//! The `tessera` binary: protocol mode by default, plus tools as subcommands.
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "tessera",
    version,
    about = "A game engine for grid-placement puzzles and board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Sudoku tools: solve, count, generate, show, bench.
    #[command(subcommand)]
    Sudoku(tessera::sudoku::cli::SudokuCommand),
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let code = match cli.command {
        None => tessera::engine::run_stdio(),
        Some(Command::Sudoku(c)) => tessera::sudoku::cli::run(c),
    };
    std::process::exit(code);
}
