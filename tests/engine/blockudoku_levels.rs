//! Blockudoku's `MultiPV` lines and `Level` ladder through the real binary.

use crate::common;

use common::Engine;
use tessera::games::blockudoku::board::Board;
use tessera::games::blockudoku::piece::Piece;
use tessera::games::blockudoku::rules::{Placement, Position, Scoring, play_plan};

/// 30 filled cells, no region full: crowded enough to be looked ahead.
fn crowded() -> String {
    ["##.##.##."; 5].join("/") + "/........./........./........./........."
}

/// Positions (board, hand) for the tests: empty, half full, crowded.
fn positions() -> Vec<(String, [&'static str; 3])> {
    vec![
        (["........."; 9].join("/"), ["##/#.", "###", "#/#/#"]),
        (
            "##.....##/#......##/........./........./...###.../........./.##....../.##....../.#......."
                .to_string(),
            ["###", ".#./###/.#.", "##/##"],
        ),
        (crowded(), ["#../###", "#/#", "##"]),
    ]
}

/// One `info` line's fields.
#[derive(Debug)]
struct Line {
    depth: u32,
    multipv: Option<usize>,
    score: i64,
    nodes: u64,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> Line {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| words.iter().position(|w| *w == key).map(|i| words[i + 1]);
    let number = |key: &str| after(key).unwrap_or_else(|| panic!("{key} in {line}"));
    let pv = words.iter().position(|w| *w == "pv");
    Line {
        depth: number("depth").parse().unwrap(),
        multipv: after("multipv").map(|m| m.parse().unwrap()),
        score: number("score").parse().unwrap(),
        nodes: number("nodes").parse().unwrap(),
        pv: pv.map_or(Vec::new(), |i| {
            words[i + 1..].iter().map(|w| w.to_string()).collect()
        }),
    }
}

/// Sets the position and hand, searches with `go`, and returns the info lines and bestmove.
fn search(engine: &mut Engine, board: &str, hand: &[&str], go: &str) -> (Vec<Line>, Vec<String>) {
    engine.send(&format!("position board {board}"));
    engine.send(&format!("pieces {}", hand.join(" ")));
    let (infos, best) = engine.go(go);
    let lines = infos
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| parse_info(l))
        .collect();
    (lines, best)
}

/// The board after a whole-hand line; fails the test if the line is not legal.
fn final_board(board: &str, hand: &[&str], line: &[String]) -> Board {
    let pieces: Vec<Piece> = hand.iter().map(|s| Piece::parse(s).unwrap()).collect();
    assert_eq!(line.len(), pieces.len(), "a whole-hand line: {line:?}");
    let plan: Vec<Placement> = line
        .iter()
        .map(|m| Placement::parse(m, pieces.len()).unwrap())
        .collect();
    let start = Position {
        board: Board::parse(board).unwrap(),
        ..Position::default()
    };
    play_plan(start, &pieces, &plan, Scoring::App)
        .expect("a legal line")
        .board
}

#[test]
fn multipv_lines_are_distinct_ranked_and_the_first_is_the_bestmove() {
    let mut engine = Engine::blockudoku();
    engine.send("setoption name MultiPV value 5");
    for (board, hand) in positions() {
        for go in ["depth 1", "depth 2", "depth 4"] {
            let (lines, best) = search(&mut engine, &board, &hand, go);
            // (Depth 0 is the fallback plan the engine holds before it searches.)
            let searched = lines.iter().filter(|l| l.depth > 0);
            assert!(searched.clone().all(|l| l.multipv.is_some()), "{lines:?}");
            // The last report: the best line, then the others.
            let from = lines.iter().rposition(|l| l.multipv == Some(1)).unwrap();
            let last = &lines[from..];
            let ranks: Vec<usize> = last.iter().map(|l| l.multipv.unwrap()).collect();
            // The greedy iteration knows one plan per order of the hand, the others many.
            let expected = if go == "depth 1" {
                ranks.len().min(5)
            } else {
                5
            };
            assert_eq!(ranks, (1..=expected).collect::<Vec<_>>(), "{board} {go}");
            assert!(ranks.len() >= 2, "{board} {go}");
            assert_eq!(last[0].pv, best, "multipv 1 is the bestmove line");
            assert!(last.windows(2).all(|w| w[0].score >= w[1].score));
            assert!(last.iter().all(|l| l.depth == last[0].depth));
            let mut boards: Vec<Board> = last
                .iter()
                .map(|l| final_board(&board, &hand, &l.pv))
                .collect();
            boards.sort_unstable_by_key(|b| b.0);
            boards.dedup();
            assert_eq!(boards.len(), last.len(), "distinct final boards: {last:?}");
        }
    }
    engine.send("setoption name MultiPV value 1");
    let (lines, _) = search(&mut engine, &crowded(), &positions()[2].1, "depth 4");
    assert!(lines.iter().all(|l| l.multipv.is_none()), "{lines:?}");
    engine.expect_error("setoption name MultiPV value 0");
}

#[test]
fn fewer_lines_when_fewer_final_boards_exist() {
    // One hole per row, column and box: the monomino has 9 places, each clearing a row, a
    // column and a box, so 9 distinct final boards.
    let board = common::one_hole_per_region();
    let mut engine = Engine::blockudoku();
    engine.send("setoption name MultiPV value 12");
    let (lines, best) = search(&mut engine, &board, &["#"], "depth 2");
    let from = lines.iter().rposition(|l| l.multipv == Some(1)).unwrap();
    let last = &lines[from..];
    assert_eq!(last.len(), 9, "{last:?}");
    assert_eq!(last[0].pv, best);
    let mut boards: Vec<Board> = last
        .iter()
        .map(|l| final_board(&board, &["#"], &l.pv))
        .collect();
    boards.sort_unstable_by_key(|b| b.0);
    boards.dedup();
    assert_eq!(boards.len(), 9);
}

/// The bestmove and the nodes of the last info line at `level` (0: the option left alone).
fn at_level(level: u32, board: &str, hand: &[&str]) -> (Vec<String>, u64) {
    let mut engine = Engine::blockudoku();
    engine.send("setoption name Seed value 3");
    if level > 0 {
        engine.send(&format!("setoption name Level value {level}"));
    }
    let (lines, best) = search(&mut engine, board, hand, "depth 4");
    final_board(board, hand, &best);
    (best, lines.last().map_or(0, |l| l.nodes))
}

#[test]
fn levels_play_legal_lines_the_same_for_a_seed_with_less_work_below() {
    let mut nodes = vec![0u64; 10];
    for (board, hand) in positions() {
        for level in 1..=10 {
            let first = at_level(level, &board, &hand);
            assert_eq!(at_level(level, &board, &hand), first, "level {level}");
            nodes[level as usize - 1] += first.1;
        }
        assert_eq!(at_level(0, &board, &hand), at_level(10, &board, &hand));
    }
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    assert!(nodes[0] < nodes[2] && nodes[2] < nodes[6], "{nodes:?}");
    let mut engine = Engine::blockudoku();
    engine.expect_error("setoption name Level value 0");
    engine.expect_error("setoption name Level value 11");
}
