//! `tessera bench`: fixed positions searched to a fixed depth; prints a node-count signature
//! (any change to the search or evaluation changes it) and the speed, like `stockfish bench`.

use crate::games::blockudoku::board::Board;
use crate::games::blockudoku::eval::DEFAULT_WEIGHTS;
use crate::games::blockudoku::piece::{Piece, PieceSet};
use crate::games::blockudoku::rules::Position;
use crate::games::blockudoku::search::HandSearch;
use crate::search::{SearchControl, iterative, time::Budget};
use clap::Args;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Options of `tessera bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Iteration depth of every search (1 greedy, 2 full hand, 3+ look-ahead).
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
}

/// Blockudoku bench positions: a board (rows from the top) and a hand.
const POSITIONS: [(&str, [&str; 3]); 6] = [
    (
        "........./........./........./........./........./........./........./........./.........",
        ["##/#.", "###/..#/..#", "#/#/#/#"],
    ),
    (
        "##.....##/#......##/........./........./...###.../........./.##....../.##....../.#.......",
        ["###", ".#./###/.#.", "##/##"],
    ),
    (
        "###.##.##/###.##.##/##..#..../#......../#......../##......./###....#./###...##./###..###.",
        ["#/#/#/#/#", "#../###", "#.#/###"],
    ),
    (
        "#.#.#.#.#/........./#.#.#.#.#/........./#.#.#.#.#/........./#.#.#.#.#/........./#.#.#.#.#",
        ["#", "##", "#/#"],
    ),
    (
        "####.####/####.####/####.####/........./........./........./####.####/####.####/####.####",
        ["#/#/#", "#####", ".#/##/#."],
    ),
    (
        "..#######/..#######/..####.##/..####.##/........./........./##......./##......./##.......",
        ["#/#/#/#", "##/.#/##", "##./.##"],
    ),
];

/// Runs the bench; returns the exit code.
pub fn run(args: &BenchArgs) -> i32 {
    let set = match PieceSet::builtin("standard47") {
        Ok(set) => set,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut total_nodes = 0u64;
    let started = Instant::now();
    for (i, (rows, shapes)) in POSITIONS.iter().enumerate() {
        let board = Board::parse(rows).expect("bench boards are valid");
        let hand: Vec<Piece> = shapes
            .iter()
            .map(|s| Piece::parse(s).expect("bench shapes are valid"))
            .collect();
        let position = Position {
            board,
            ..Position::default()
        };
        let control = SearchControl::new(
            Arc::new(AtomicBool::new(false)),
            Budget {
                soft: None,
                hard: None,
            },
            None,
            Some(args.depth),
        );
        let begun = Instant::now();
        let mut search = HandSearch::new(&set, DEFAULT_WEIGHTS, position, &hand, 0);
        let best = iterative::deepen(&mut search, &control, &mut |_| {});
        let nodes = iterative::IterativeSearch::nodes(&search);
        total_nodes += nodes;
        println!(
            "position {} nodes {} time_ms {} bestmove {}",
            i + 1,
            nodes,
            begun.elapsed().as_millis(),
            if best.is_empty() {
                "none".to_string()
            } else {
                best.join(" ")
            }
        );
    }
    let elapsed = started.elapsed();
    let nps = (total_nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("===========================");
    println!("Total time (ms) : {}", elapsed.as_millis());
    println!("Nodes searched  : {total_nodes}");
    println!("Nodes/second    : {nps}");
    0
}
