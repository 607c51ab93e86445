//! No command may hold the session: on the largest shape of every game, each command is followed
//! by `isready`, whose `readyok` must come within a generous bound (seconds: CI machines are
//! loaded; the precise figures are measured by `tools/latency.py --commands`). Before the fix,
//! `legal` on an empty 25x25 sudoku answered after 40 to 200 seconds.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

/// Far above the 40 ms the engine allows itself, far below the minute the old `legal` took.
const BOUND: Duration = Duration::from_secs(5);

/// Sends `line` then `isready`; fails unless `readyok` comes within [`BOUND`]. Returns the
/// answers before it.
fn answered_at_once(engine: &mut Engine, line: &str) -> Vec<String> {
    let sent = Instant::now();
    let answers = engine.ask(line);
    let took = sent.elapsed();
    assert!(took < BOUND, "{line:?} held the session for {took:?}");
    answers
}

/// A mid-game board for boxes of one row (1 x `size`): the first rows of a cyclic Latin
/// square, which is a solved sudoku of that shape.
fn partly_filled(size: usize, filled_rows: usize) -> String {
    let letters: Vec<char> = "123456789ABCDEFGHIJKLMNOP".chars().collect();
    (0..size)
        .map(|r| {
            (0..size)
                .map(|c| {
                    if r < filled_rows {
                        letters[(r + c) % size]
                    } else {
                        '.'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn every_command_answers_at_once(newgame: &str, position: &str) {
    let mut engine = Engine::start();
    answered_at_once(&mut engine, newgame);
    answered_at_once(&mut engine, position);
    let legal = answered_at_once(&mut engine, "legal");
    let moves: Vec<String> = legal
        .last()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect();
    assert!(!moves.is_empty(), "{newgame}: some legal move");
    answered_at_once(&mut engine, "show");
    // A search: isready mid-search, then stop answers with a legal move.
    engine.send("go infinite");
    let first = engine.recv();
    assert!(
        first.starts_with("info depth 0 "),
        "the fallback first: {first}"
    );
    answered_at_once(&mut engine, "isready");
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.until("bestmove");
    assert!(sent.elapsed() < BOUND, "stop took {:?}", sent.elapsed());
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(
        moves.iter().any(|m| m == best),
        "{newgame}: {best} is legal"
    );
    // Searches started and stopped in a row never make the session wait.
    for _ in 0..8 {
        engine.send("go infinite");
        answered_at_once(&mut engine, "stop");
    }
    answered_at_once(&mut engine, newgame);
}

#[test]
fn sudoku_largest_boxes_classic_and_territory() {
    for newgame in [
        "newgame sudoku box 5x5 mode classic",
        "newgame sudoku box 8x3 mode rows",
        "newgame sudoku box 3x8 mode border",
        "newgame sudoku box 1x25 mode random seed 4",
    ] {
        every_command_answers_at_once(newgame, "position startpos");
    }
}

#[test]
fn sudoku_mid_game_on_the_largest_grid() {
    let board = partly_filled(25, 3);
    let position = format!("position board {board} moves a1=1 b1=2 c1=3");
    every_command_answers_at_once("newgame sudoku box 1x25", &position);
}

#[test]
fn blokus_and_blockudoku() {
    every_command_answers_at_once(
        "newgame blokus variant classic",
        "position startpos moves a20 t20 t1 a1",
    );
    every_command_answers_at_once("newgame blokus variant duo", "position startpos");
    let mut engine = Engine::start();
    answered_at_once(&mut engine, "newgame blockudoku");
    answered_at_once(&mut engine, "pieces ### #/#/# ##/##");
    engine.send("go infinite");
    assert!(engine.recv().starts_with("info depth 0 "));
    answered_at_once(&mut engine, "stop");
}
