//! `tessera book`: builds a Blokus opening book by deep searches of the first moves, ply by
//! ply: the best first move from the empty board, then the best answer in each of the
//! `--answers` likeliest lines of every later ply, up to `--plies` moves deep. A line's
//! likelihood is the product of the shares of visits its moves got in the searches before
//! them, so the breadth goes where the searches expect play to go. The book is a text file,
//! one line per position: the moves from the start (GTP notation, colours in turn from the
//! first), then the book move.

use super::jobs;
use crate::games::blokus::board::{Board, Variant};
use crate::games::blokus::gembloq::position::Position;
use crate::games::blokus::gembloq::search::Tree;
use crate::games::blokus::gembloq::variant::GembloqVariant;
use crate::games::blokus::mcts::Mcts;
use clap::Args;
use std::path::PathBuf;

/// Options of `tessera book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The variant (`classic`, `two`, `three`, `duo`, `junior`, `trigon`, ..., `gembloq_2`, ...
    /// as `gtp --variant` names them).
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
    line: Vec<u32>,
    likelihood: f64,
    /// The root's moves with their shares of the real visits, best move first.
    moves: Vec<(u32, f64)>,
}

/// The variants a book is built for: those of the square, triangle and segment boards, and
/// GembloQ's (placements of their own).
#[derive(Debug, Clone, Copy)]
enum BookVariant {
    Board(Variant),
    Gembloq(GembloqVariant),
}

impl BookVariant {
    fn parse(name: &str) -> Result<BookVariant, String> {
        match GembloqVariant::parse(name) {
            Some(v) => Ok(BookVariant::Gembloq(v)),
            None => Variant::parse(name).map(BookVariant::Board),
        }
    }

    fn name(self) -> &'static str {
        match self {
            BookVariant::Board(v) => v.name(),
            BookVariant::Gembloq(v) => (GembloqVariant::ALL.iter())
                .find(|a| a.2 == v)
                .map_or("gembloq", |a| a.0),
        }
    }

    fn ncolours(self) -> usize {
        match self {
            BookVariant::Board(v) => v.ncolours(),
            BookVariant::Gembloq(v) => v.ncolours(),
        }
    }

    fn move_name(self, m: u32) -> String {
        match self {
            BookVariant::Board(v) => v.tables().move_name(m as u16),
            BookVariant::Gembloq(v) => v.placements().name(m),
        }
    }

    /// The root's moves of a search of `playouts` after `line` (colours in turn from the
    /// first) with their visits, most visited first.
    fn root_visits(self, line: &[u32], playouts: u64, seed: u64) -> Vec<(u32, u32)> {
        let nc = self.ncolours();
        match self {
            BookVariant::Board(v) => {
                let mut board = Board::new(v);
                let mut history = Vec::new();
                for (k, &m) in line.iter().enumerate() {
                    board.play(k % nc, m as u16);
                    history.push((k % nc, m as u16));
                }
                let mut mcts = Mcts::new(&board, seed);
                mcts.set_history(&history);
                for _ in 0..playouts {
                    mcts.run_once();
                }
                let stats = mcts.root_stats();
                stats.iter().map(|s| (u32::from(s.0), s.1)).collect()
            }
            BookVariant::Gembloq(v) => {
                let mut pos = Position::new(v);
                for (k, &m) in line.iter().enumerate() {
                    pos.play(k % nc, m);
                }
                let mut tree = Tree::new(&pos, line.len() % nc, seed);
                for _ in 0..playouts {
                    tree.run_once();
                }
                tree.root_stats().iter().map(|s| (s.0, s.1)).collect()
            }
        }
    }
}

/// Runs the command; returns the exit code.
pub fn run(args: &BookArgs) -> i32 {
    let variant = match BookVariant::parse(&args.variant) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let plies = args.plies.unwrap_or(variant.ncolours()).max(1);
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
            .map(|&m| variant.move_name(m))
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
fn likeliest_lines(searched: &[Searched], ply: usize, count: usize) -> Vec<(Vec<u32>, f64)> {
    let mut lines: Vec<(Vec<u32>, f64)> = (searched.iter())
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
fn search(
    variant: BookVariant,
    line: Vec<u32>,
    likelihood: f64,
    playouts: u64,
    seed: u64,
) -> Searched {
    let stats = variant.root_visits(&line, playouts, seed);
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
        let after = |m: u32, moves: Vec<(u32, f64)>| Searched {
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
        let got: Vec<Vec<u32>> = lines.iter().map(|l| l.0.clone()).collect();
        assert_eq!(got, vec![vec![2, 7], vec![1, 5], vec![1, 6]]);
        assert!((lines[0].1 - 0.36).abs() < 1e-9);
        assert_eq!(likeliest_lines(&searched, 1, 5).len(), 2);
    }
}
