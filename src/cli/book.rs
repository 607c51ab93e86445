//! `tessera book`: builds a Blokus opening book by deep searches of the first moves: the best
//! first move from the empty board, and the best answer to each of the first moves that search
//! visited most (`--answers` of them). The book is a text file, one line per position: the
//! moves from the start (GTP notation), then the book move.

use super::jobs;
use crate::games::blokus::board::{Board, Variant};
use crate::games::blokus::mcts::Mcts;
use clap::Args;
use std::path::PathBuf;

/// Options of `tessera book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The variant (two-colour ones: `duo`, `junior`).
    #[arg(long, default_value = "duo")]
    pub variant: String,
    /// Playouts of each position's search.
    #[arg(long, default_value_t = 200_000)]
    pub playouts: u64,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// First moves answered: those the empty board's search visited most.
    #[arg(long, default_value_t = 60)]
    pub answers: usize,
    /// Seed of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs the command; returns the exit code.
pub fn run(args: &BookArgs) -> i32 {
    let variant = match Variant::parse(&args.variant) {
        Ok(v) if v.ncolours() == 2 => v,
        Ok(_) => {
            eprintln!("error: books are built for the two-colour variants (duo, junior)");
            return 2;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // The empty board, then the position after each first move the search liked most.
    let t = variant.tables();
    let mut empty = Mcts::new(&Board::new(variant), args.seed);
    for _ in 0..args.playouts {
        empty.run_once();
    }
    let stats = empty.root_stats();
    let mut lines: Vec<Vec<u16>> = Vec::new();
    lines.extend(stats.iter().take(args.answers).map(|s| vec![s.0]));
    eprintln!(
        "first move {}; answering {} first moves, {} playouts each",
        t.move_name(stats[0].0),
        lines.len(),
        args.playouts
    );
    let answers = jobs::map(&lines, args.jobs, "positions", |i, line| {
        deep_answer(variant, line, args.playouts, args.seed + i as u64)
    });
    let mut text = format!(
        "# tessera opening book: {}, {} playouts a position (tessera book --variant {} --playouts {} --answers {} --seed {})\nvariant {}\n",
        variant.name(),
        args.playouts,
        args.variant,
        args.playouts,
        args.answers,
        args.seed,
        args.variant
    );
    text += &t.move_name(stats[0].0);
    text += "\n";
    for (line, answer) in lines.iter().zip(&answers) {
        let Some(answer) = answer else { continue };
        let names: Vec<String> = (line.iter().chain([answer]))
            .map(|&m| t.move_name(m))
            .collect();
        text += &names.join(" ");
        text += "\n";
    }
    if let Err(e) = std::fs::write(&args.out, text) {
        eprintln!("error: cannot write '{}': {e}", args.out.display());
        return 2;
    }
    0
}

/// The most visited move of a deep search after `line` (colours in turn from the first).
fn deep_answer(variant: Variant, line: &[u16], playouts: u64, seed: u64) -> Option<u16> {
    let mut board = Board::new(variant);
    let mut history = Vec::new();
    for (k, &m) in line.iter().enumerate() {
        board.play(k % 2, m);
        history.push((k % 2, m));
    }
    let mut mcts = Mcts::new(&board, seed);
    mcts.set_history(&history);
    for _ in 0..playouts {
        mcts.run_once();
    }
    mcts.root_stats().first().map(|s| s.0)
}
