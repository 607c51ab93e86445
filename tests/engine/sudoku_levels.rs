//! Competitive Sudoku's `MultiPV` lines and `Level` ladder through the real binary: the lines
//! of each iteration are distinct legal moves ranked by score with the best one answered, and
//! every level answers a legal move, searches less the lower it is, and repeats its move for
//! the same seed.

use crate::common;

use common::Engine;
use std::collections::HashSet;

/// A 3x3 endgame, 14 empty cells, player 2 to move: every level from 3 up stops at its own
/// depth cap there (not its node cap), and `go depth 16` ends full strength.
const ENDGAME: &str = "position board 123645987/7891234../45.78.123/248356791/3172948../\
                       96.81.234/831462579/.72.31.48/.94.78.12 turn 2 scores 5 0 \
                       taboo h9=7 i6=9 h3=9 i3=7 a2=6 d2=5";

/// A 3x3 opening, 20 cells filled: many moves of the same value.
const OPENING: &str = "position board 1236459../7891234../4..7..123/24......./........./........./........./\
     ........./......... turn 2";

/// The 2x2 example of protocol.md: six cells to fill, and one pass (`a4=3`).
const SMALL: &str = "position board .2../.41./2143/432.";

fn sudoku(setup: &[&str], position: &str, box_shape: &str) -> Engine {
    let mut engine = Engine::start();
    for line in setup {
        assert!(engine.ask(line).is_empty(), "{line} is accepted");
    }
    assert!(
        engine
            .ask(&format!("newgame sudoku box {box_shape}"))
            .is_empty()
    );
    assert!(engine.ask(position).is_empty(), "{position}");
    engine
}

/// A field of an `info` line: the word after `key`.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1).copied()
}

fn number(line: &str, key: &str) -> i64 {
    field(line, key)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number after {key} in {line:?}"))
}

/// Every legal move (placing ones and passes), and how many distinct lines the search can
/// give: one per cell with a placing move, plus one pass if there is any.
fn legal(engine: &mut Engine) -> (HashSet<String>, usize) {
    let answer = engine.ask("legal").pop().expect("a legal line");
    let words: Vec<&str> = answer.split_whitespace().skip(1).collect();
    let split = words
        .iter()
        .position(|w| *w == "pass")
        .unwrap_or(words.len());
    let cells: HashSet<&str> = words[..split]
        .iter()
        .map(|m| m.split('=').next().unwrap())
        .collect();
    let lines = cells.len() + usize::from(split < words.len());
    let moves = words.into_iter().filter(|w| *w != "pass").map(String::from);
    (moves.collect(), lines)
}

/// The ranked lines of each completed iteration, by depth: an iteration's block starts with
/// its last `multipv 1` line (earlier ones of the same depth are progress) and goes on with
/// ranks 2 and up.
fn blocks(infos: &[String]) -> Vec<(i64, Vec<String>)> {
    let mut blocks: Vec<(i64, Vec<String>)> = Vec::new();
    for line in infos.iter().filter(|l| field(l, "multipv").is_some()) {
        let depth = number(line, "depth");
        if number(line, "multipv") == 1 {
            if blocks.last().is_some_and(|(d, _)| *d == depth) {
                blocks.pop();
            }
            blocks.push((depth, Vec::new()));
        }
        let block = blocks.last_mut().expect("multipv 1 comes first");
        assert_eq!(block.0, depth, "{line}");
        block.1.push(line.clone());
    }
    blocks
}

/// Checks one iteration's lines: ranks 1.. in order, `count` of them, scores best first,
/// distinct legal moves.
fn check_block(block: &[String], count: usize, legal: &HashSet<String>) {
    assert_eq!(block.len(), count, "{block:#?}");
    let mut seen = HashSet::new();
    for (i, line) in block.iter().enumerate() {
        assert_eq!(number(line, "multipv"), i as i64 + 1, "{block:#?}");
        if i > 0 {
            assert!(
                number(line, "score") <= number(&block[i - 1], "score"),
                "{block:#?}"
            );
        }
        let mv = field(line, "pv").expect("a pv").to_string();
        assert!(legal.contains(&mv), "{mv} is legal: {block:#?}");
        assert!(seen.insert(mv), "distinct moves: {block:#?}");
    }
}

#[test]
fn multipv_lines_are_distinct_legal_moves_ranked_by_score_and_the_first_is_played() {
    let mut engine = sudoku(&["setoption name MultiPV value 5"], OPENING, "3x3");
    let (legal, lines) = legal(&mut engine);
    assert!(lines > 5);
    let (infos, best) = engine.go("depth 4");
    let blocks = blocks(&infos);
    let depths: Vec<i64> = blocks.iter().map(|(d, _)| *d).collect();
    assert_eq!(depths, [1, 2, 3, 4], "one block per iteration");
    for (_, block) in &blocks {
        check_block(block, 5, &legal);
    }
    let last = &blocks.last().unwrap().1;
    assert_eq!(field(&last[0], "pv"), best.first().map(String::as_str));
}

#[test]
fn multipv_gives_as_many_lines_as_the_position_has_and_no_more() {
    let mut engine = sudoku(&["setoption name MultiPV value 32"], SMALL, "2x2");
    let (legal, lines) = legal(&mut engine);
    assert_eq!(lines, 7, "six cells and a pass");
    let (infos, best) = engine.go("depth 5");
    let blocks = blocks(&infos);
    let depths: Vec<i64> = blocks.iter().map(|(d, _)| *d).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "one block per iteration");
    for (_, block) in &blocks {
        check_block(block, lines, &legal);
    }
    assert_eq!(best, ["a4=3"], "the pass, as in protocol.md");
}

#[test]
fn multipv_under_a_deadline_answers_the_best_line() {
    let mut engine = sudoku(&["setoption name MultiPV value 4"], OPENING, "3x3");
    let (infos, best) = engine.go("movetime 150");
    // The best line is the last of rank 1 (or the unranked fallback of depth 0).
    let last_best = infos
        .iter()
        .rev()
        .find(|l| matches!(field(l, "multipv"), None | Some("1")))
        .expect("a best line");
    assert_eq!(field(last_best, "pv"), best.first().map(String::as_str));
}

#[test]
fn one_line_carries_no_multipv_field() {
    let mut engine = sudoku(&["setoption name MultiPV value 1"], OPENING, "3x3");
    let (infos, _) = engine.go("depth 3");
    assert!(
        infos.iter().all(|l| field(l, "multipv").is_none()),
        "{infos:#?}"
    );
}

/// The move and the nodes of the last `info` of a search at `level`.
fn play(level: u32, seed: u64, position: &str, go: &str) -> (String, i64) {
    let setup = [
        format!("setoption name Level value {level}"),
        format!("setoption name Seed value {seed}"),
    ];
    let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
    let mut engine = sudoku(&setup, position, "3x3");
    let (infos, best) = engine.go(go);
    let nodes = number(infos.last().expect("an info line"), "nodes");
    (best.first().expect("a move").clone(), nodes)
}

#[test]
fn every_level_plays_a_legal_move_and_lower_levels_search_less() {
    let mut engine = sudoku(&[], ENDGAME, "3x3");
    let (legal, _) = legal(&mut engine);
    let mut nodes = Vec::new();
    for level in 1..=10 {
        let (mv, searched) = play(level, 0, ENDGAME, "depth 16");
        assert!(legal.contains(&mv), "level {level}: {mv}");
        nodes.push(searched);
    }
    assert_eq!(
        nodes[..2],
        [0, 0],
        "levels 1 and 2 do not search: {nodes:?}"
    );
    assert!(
        nodes[2..].windows(2).all(|w| w[0] < w[1]),
        "from level 3 up, each level searches more: {nodes:?}"
    );
}

#[test]
fn the_same_seed_plays_the_same_move_and_the_seed_varies_the_low_levels() {
    for level in 1..=9 {
        let first = play(level, 7, OPENING, "nodes 400000");
        assert_eq!(
            play(level, 7, OPENING, "nodes 400000"),
            first,
            "level {level}"
        );
    }
    for level in [1, 2, 3] {
        let moves: HashSet<String> = (0..6)
            .map(|seed| play(level, seed, OPENING, "depth 5").0)
            .collect();
        assert!(moves.len() > 1, "level {level}: {moves:?}");
    }
}

#[test]
fn level_two_takes_the_most_points_now() {
    // a8=4 completes row 8 and the top-left box, e9=5 row 9 and the top-middle box: 3 points
    // each, the most any move scores; the seed breaks the tie.
    let position = "position board 1234.6789/.56789123/789123456/2.......1/3......../\
                    5......../6......../8......../.........";
    let moves: HashSet<String> = (0..8)
        .map(|seed| play(2, seed, position, "depth 1").0)
        .collect();
    let best: HashSet<String> = ["a8=4", "e9=5"].map(String::from).into();
    assert_eq!(moves, best);
}
