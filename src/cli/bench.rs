//! `tessera bench`: fixed positions searched to a fixed depth; prints a node-count signature
//! (any change to the search or evaluation changes it) and the speed, like `stockfish bench`.
//! `--game blokus`: fixed playouts with a fixed seed from Duo and Classic positions; prints a
//! visit signature and the playouts per CPU second.

use super::cputime::thread_cpu_time;
use crate::games::blockudoku::board::Board as BlockudokuBoard;
use crate::games::blockudoku::eval_file::Evaluation;
use crate::games::blockudoku::piece::{Piece, PieceSet};
use crate::games::blockudoku::rules::Position;
use crate::games::blockudoku::search::HandSearch;
use crate::games::blokus::board::{Board, Variant};
use crate::games::blokus::mcts::Mcts;
use crate::search::{SearchControl, iterative, time::Budget};
use clap::Args;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Options of `tessera bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The game: `blockudoku` or `blokus`.
    #[arg(long, default_value = "blockudoku")]
    pub game: String,
    /// Blockudoku: iteration depth of every search (1 greedy, 2 full hand, 3+ look-ahead).
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// Blokus: playouts per position (Classic gets a quarter).
    #[arg(long, default_value_t = 20_000)]
    pub playouts: u64,
}

/// Blokus bench positions: variant and the moves from the start, colours in turn.
const BLOKUS_POSITIONS: [(Variant, &[&str]); 4] = [
    (Variant::Duo, &[]),
    (
        Variant::Duo,
        &[
            "e10,f10,f9,g9,f8",
            "k7,k6,j5,k5,k4",
            "j11,h10,i10,j10,j9",
            "h8,h7,h6,h5,h4",
        ],
    ),
    (
        Variant::Duo,
        &[
            "f8,e9,f9,g9,e10",
            "j5,i6,j6,k6,i7",
            "h7,h8,i8,j8,j9",
            "l7,k8,l8,k9,k10",
            "h4,i4,g5,h5,g6",
            "i11,j11,h12,i12,j12",
            "f11,g11,g12,f13,g13",
            "j2,k2,k3,k4,l4",
            "g1,h1,i1,g2,g3",
            "h9,f10,g10,h10",
            "c11,d11,c12,d12,e12",
            "e7,f7,g7,e8,g8",
            "d6,d7,c8,d8,c9",
            "d9,c10,d10",
        ],
    ),
    (Variant::Classic, &[]),
];

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
    match args.game.as_str() {
        "blockudoku" => run_blockudoku(args),
        "blokus" => run_blokus(args),
        other => {
            eprintln!("error: unknown game '{other}' (known: blockudoku, blokus)");
            2
        }
    }
}

/// The Blokus positions searched with a fixed number of playouts and seed.
fn run_blokus(args: &BenchArgs) -> i32 {
    let (mut total_playouts, mut signature) = (0u64, 0u64);
    let mut cpu = Duration::ZERO;
    for (i, (variant, moves)) in BLOKUS_POSITIONS.iter().enumerate() {
        let mut board = Board::new(*variant);
        let t = board.tables();
        for (k, name) in moves.iter().enumerate() {
            let m = t.parse_move(name).expect("bench moves are valid");
            board.play(k % variant.ncolours(), m);
        }
        let playouts = match variant {
            Variant::Classic => args.playouts / 4,
            _ => args.playouts,
        };
        let before = thread_cpu_time();
        let mut mcts = Mcts::new(&board, 1);
        for _ in 0..playouts {
            mcts.run_once();
        }
        let used = thread_cpu_time()
            .zip(before)
            .map_or(Duration::ZERO, |(a, b)| a.saturating_sub(b));
        cpu += used;
        total_playouts += playouts;
        let (best, visits, _) = mcts.root_stats()[0];
        signature += u64::from(visits);
        println!(
            "position {} {} playouts {playouts} cpu_ms {} bestmove {} visits {visits}",
            i + 1,
            variant.name(),
            used.as_millis(),
            t.move_name(best)
        );
    }
    println!("===========================");
    println!("CPU time (ms)     : {}", cpu.as_millis());
    println!("Playouts          : {total_playouts}");
    println!("Visits signature  : {signature}");
    println!(
        "Playouts/CPU sec  : {}",
        (total_playouts as f64 / cpu.as_secs_f64().max(1e-9)) as u64
    );
    0
}

/// The Blockudoku positions searched to a fixed depth.
fn run_blockudoku(args: &BenchArgs) -> i32 {
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
        let board = BlockudokuBoard::parse(rows).expect("bench boards are valid");
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
        // Every position is looked ahead, crowded or not: the bench measures the same work.
        let mut search =
            HandSearch::new(&set, Evaluation::builtin(), position, &hand, 0).lookahead_from(0);
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
