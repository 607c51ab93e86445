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
    /// Play seeded games and print statistics.
    Selfplay(Box<tessera::cli::selfplay_args::SelfplayArgs>),
    /// Compare two Blockudoku self-play runs (`selfplay --jsonl` files): death rates and paired
    /// games, with exact tests.
    Compare(tessera::cli::compare::CompareArgs),
    /// The death rate of any Blockudoku player from the exact chances of the boards it met
    /// (the referee's --record-crowded and --jsonl files).
    Chances(tessera::cli::chances::ChancesArgs),
    /// Learn evaluation weights from play (Blockudoku, separable CMA-ES).
    Tune(tessera::cli::tune::TuneArgs),
    /// Build a Blokus opening book by deep searches of the first moves.
    Book(tessera::cli::book::BookArgs),
    /// Learn the Blokus prior weights from deep searches of recorded positions.
    TunePrior(tessera::cli::tune_prior::TunePriorArgs),
    /// Search fixed positions; print a node-count signature and the speed.
    Bench(tessera::cli::bench::BenchArgs),
    /// Sudoku tools: solve, count, generate, show, bench.
    #[command(subcommand)]
    Sudoku(tessera::sudoku::cli::SudokuCommand),
    /// Blokus over GTP (Go Text Protocol 2), for Blokus match runners and GUIs.
    Gtp(tessera::games::blokus::gtp::GtpArgs),
}

fn main() {
    init_logging();
    let cli = Cli::parse();
    let code = match cli.command {
        None => tessera::engine::run_stdio(),
        Some(Command::Selfplay(args)) => tessera::cli::selfplay::run(&args),
        Some(Command::Compare(args)) => tessera::cli::compare::run(&args),
        Some(Command::Chances(args)) => tessera::cli::chances::run(&args),
        Some(Command::Tune(args)) => tessera::cli::tune::run(&args),
        Some(Command::Book(args)) => tessera::cli::book::run(&args),
        Some(Command::TunePrior(args)) => tessera::cli::tune_prior::run(&args),
        Some(Command::Bench(args)) => tessera::cli::bench::run(&args),
        Some(Command::Sudoku(c)) => tessera::sudoku::cli::run(c),
        Some(Command::Gtp(args)) => tessera::games::blokus::gtp::run(&args),
    };
    std::process::exit(code);
}

/// Logs on standard error (`RUST_LOG=debug` shows them), each line stamped with the seconds
/// since the engine started: what a time-management question needs, without a clock crate.
fn init_logging() {
    use std::io::Write;
    let start = std::time::Instant::now();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format(move |out, record| {
            let seconds = start.elapsed().as_secs_f64();
            let (level, target) = (record.level(), record.target());
            writeln!(out, "[{seconds:9.3} {level:<5} {target}] {}", record.args())
        })
        .init();
}
