//! `tessera book`: builds a Blokus opening book by deep searches of the first moves, ply by
//! ply: the best first move from the empty board, then the best answer in each of the
//! `--answers` likeliest lines of every later ply, up to `--plies` moves deep. A line's
//! likelihood is the product of the shares of visits its moves got in the searches before
//! them, so the breadth goes where the searches expect play to go. The book is a text file,
//! one line per position: the moves from the start (GTP notation, colours in turn from the
//! first), then the book move.

use super::jobs;
use crate::games::blokus::board::{Board, Variant};
use crate::games::blokus::mcts::Mcts;
use clap::Args;
use std::path::PathBuf;

/// Options of `tessera book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The variant (`classic`, `two`, `three`, `duo`, `junior`, `trigon`, ... as `gtp
    /// --variant` names them).
    #[arg(long, default_value = "duo")]
    pub variant: String,
    /// Playouts of each position's search.
    #[arg(long, default_value_t = 200_000)]
    pub playouts: u64,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Lines answered at each ply after the first: the likeliest ones.
    #[arg(long, default_value_t = 60)]
    pub answers: usize,
    /// Moves deep: the book answers positions of up to `plies - 1` moves (default: one
    /// round, a move of every colour).
    #[arg(long)]
    pub plies: Option<usize>,
    /// Seed of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// One searched position: its line from the start, the line's likelihood, and what the
/// search found there.
struct Searched {
    line: Vec<u16>,
    likelihood: f64,
    /// The root's moves with their shares of the real visits, best move first.
    moves: Vec<(u16, f64)>,
}

/// Runs the command; returns the exit code.
pub fn run(args: &BookArgs) -> i32 {
    let variant = match Variant::parse(&args.variant) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let plies = args.plies.unwrap_or(variant.ncolours()).max(1);
    let t = variant.tables();
    let mut searched = vec![search(variant, Vec::new(), 1.0, args.playouts, args.seed)];
    let mut summary = Vec::new();
    for ply in 1..plies {
        let lines = likeliest_lines(&searched, ply, args.answers);
        let covered: f64 = lines.iter().map(|l| l.1).sum();
        summary.push(format!(
            "# ply {ply}: {} lines, {:.0}% of the searches' likelihood\n",
            lines.len(),
            100.0 * covered
        ));
        eprintln!("{}", summary.last().map_or("", |s| s.trim_end()));
        let first_seed = args.seed + searched.len() as u64;
        let found = jobs::map(&lines, args.jobs, "positions", |i, (line, p)| {
            search(
                variant,
                line.clone(),
                *p,
                args.playouts,
                first_seed + i as u64,
            )
        });
        searched.extend(found);
    }
    let mut text = format!(
        "# tessera opening book: {}, {} playouts a position (tessera book --variant {} --playouts {} --answers {} --plies {plies} --seed {})\n",
        variant.name(),
        args.playouts,
        variant.name(),
        args.playouts,
        args.answers,
        args.seed,
    );
    text.extend(summary);
    text += &format!("variant {}\n", variant.name());
    for s in &searched {
        let Some(&(answer, _)) = s.moves.first() else {
            continue;
        };
        let names: Vec<String> = (s.line.iter().chain([&answer]))
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

/// The `count` likeliest lines of `ply` moves that extend the searched lines of `ply - 1`
/// moves by one of their root moves, with their likelihoods, likeliest first (ties: the
/// searches' order).
fn likeliest_lines(searched: &[Searched], ply: usize, count: usize) -> Vec<(Vec<u16>, f64)> {
    let mut lines: Vec<(Vec<u16>, f64)> = (searched.iter())
        .filter(|s| s.line.len() == ply - 1)
        .flat_map(|s| {
            s.moves.iter().map(|&(m, share)| {
                let mut line = s.line.clone();
                line.push(m);
                (line, s.likelihood * share)
            })
        })
        .collect();
    lines.sort_by(|a, b| b.1.total_cmp(&a.1));
    lines.truncate(count);
    lines
}

/// A deep search after `line` (colours in turn from the first).
fn search(variant: Variant, line: Vec<u16>, likelihood: f64, playouts: u64, seed: u64) -> Searched {
    let mut board = Board::new(variant);
    let nc = variant.ncolours();
    let mut history = Vec::new();
    for (k, &m) in line.iter().enumerate() {
        board.play(k % nc, m);
        history.push((k % nc, m));
    }
    let mut mcts = Mcts::new(&board, seed);
    mcts.set_history(&history);
    for _ in 0..playouts {
        mcts.run_once();
    }
    let stats = mcts.root_stats();
    let total = (stats.iter().map(|s| f64::from(s.1)).sum::<f64>()).max(1.0);
    let moves = stats
        .iter()
        .map(|s| (s.0, f64::from(s.1) / total))
        .collect();
    Searched {
        line,
        likelihood,
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_likeliest_lines_multiply_the_shares_along_the_line() {
        let root = Searched {
            line: vec![],
            likelihood: 1.0,
            moves: vec![(1, 0.6), (2, 0.4)],
        };
        let after = |m: u16, moves: Vec<(u16, f64)>| Searched {
            line: vec![m],
            likelihood: if m == 1 { 0.6 } else { 0.4 },
            moves,
        };
        let searched = [
            root,
            after(1, vec![(5, 0.5), (6, 0.5)]),
            after(2, vec![(7, 0.9), (8, 0.1)]),
        ];
        let lines = likeliest_lines(&searched, 2, 3);
        let got: Vec<Vec<u16>> = lines.iter().map(|l| l.0.clone()).collect();
        assert_eq!(got, vec![vec![2, 7], vec![1, 5], vec![1, 6]]);
        assert!((lines[0].1 - 0.36).abs() < 1e-9);
        assert_eq!(likeliest_lines(&searched, 1, 5).len(), 2);
    }
}
