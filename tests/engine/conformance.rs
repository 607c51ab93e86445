//! The protocol promises of protocol.md, checked the same way on positions of every game:
//! Blockudoku (empty, crowded, one placement, lost), each Blokus variant (opening, one legal
//! move, the last move of a game, the game over), Competitive Sudoku (every mode, an endgame the
//! search solves outright, a mover with no playable cell, the game over).
//!
//! For each position: exactly one `bestmove` for every `go`, legal (or `none` exactly when there
//! is no legal answer); under `go infinite` nothing but `info` before `stop`, even when the
//! search has nothing left to do (checked by waiting); `isready` during a search answers without
//! ending it; `stop` while idle answers nothing; a command that ends a search prints that
//! search's `bestmove` first; end of input during a search prints its `bestmove` and exits 0.

use crate::common;

use common::Engine;
use std::time::Duration;

/// How long a search under `infinite` is watched for an answer it must not give.
const WATCH: Duration = Duration::from_millis(300);

/// A position as a client sets it up, and what its answers must be.
struct Case {
    name: String,
    /// The lines that set it up (`newgame`, `position`, `pieces`).
    setup: Vec<String>,
    /// Whether the right answer is `bestmove none` (no legal answer).
    none: bool,
}

impl Case {
    fn new(name: &str, setup: &[&str], none: bool) -> Case {
        Case {
            name: name.to_string(),
            setup: setup.iter().map(|l| l.to_string()).collect(),
            none,
        }
    }
}

/// The moves of a `legal` line (Competitive Sudoku's passes included).
fn legal_moves(engine: &mut Engine) -> Vec<String> {
    let answers = engine.ask("legal");
    let line = answers.last().expect("a legal line");
    assert!(line.starts_with("legal"), "{answers:?}");
    line.split_whitespace()
        .skip(1)
        .filter(|w| *w != "pass")
        .map(String::from)
        .collect()
}

/// Sets a case up, failing on any answer (an error) to its lines.
fn set_up(case: &Case) -> Engine {
    let mut engine = Engine::start();
    for line in &case.setup {
        let answers = engine.ask(line);
        assert!(answers.is_empty(), "{}: {line}: {answers:?}", case.name);
    }
    engine
}

/// Reads one search's answer: `info` lines, then its `bestmove`, whose moves it returns.
fn answer_of_one_search(engine: &mut Engine, name: &str) -> Vec<String> {
    let mut lines = engine.until("bestmove");
    let best = lines.pop().unwrap();
    assert!(
        lines.iter().all(|l| l.starts_with("info ")),
        "{name}: only info before bestmove: {lines:?}"
    );
    best.split_whitespace().skip(1).map(String::from).collect()
}

/// Checks that a `bestmove` is right for the case: `none` exactly when it must be, else a move
/// of `legal` first.
fn check_bestmove(case: &Case, legal: &[String], best: &[String], context: &str) {
    let name = &case.name;
    assert!(!best.is_empty(), "{name} ({context}): an empty bestmove");
    if case.none {
        assert_eq!(best, ["none"], "{name} ({context})");
    } else {
        assert!(
            legal.contains(&best[0]),
            "{name} ({context}): {best:?} is not among the legal moves {legal:?}"
        );
    }
}

/// Asks `isready` and expects `readyok` with nothing before it except `info` lines when
/// `infos_allowed`.
fn nothing_pending(engine: &mut Engine, infos_allowed: bool, context: &str) {
    engine.send("isready");
    let mut lines = engine.until("readyok");
    lines.pop();
    lines.retain(|l| !(infos_allowed && l.starts_with("info ")));
    assert!(lines.is_empty(), "{context}: unexpected {lines:?}");
}

/// Checks every case, each in full even when another fails; fails with the names of those
/// that broke a promise (each one's first failure is printed as it happens).
fn check_all(cases: &[Case]) {
    let failed: Vec<&str> = cases
        .iter()
        .filter(|case| std::panic::catch_unwind(|| check(case)).is_err())
        .map(|case| case.name.as_str())
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} cases broke a promise: {failed:?}",
        failed.len(),
        cases.len()
    );
}

/// Every promise, on one position.
fn check(case: &Case) {
    let name = case.name.as_str();
    let mut engine = set_up(case);
    let legal = legal_moves(&mut engine);
    if !case.none {
        assert!(!legal.is_empty(), "{name}: the case has legal moves");
    }

    // `stop` while idle answers nothing.
    engine.send("stop");
    nothing_pending(&mut engine, false, &format!("{name}: stop while idle"));

    // A bounded search: exactly one bestmove, and a legal one.
    for limits in ["movetime 40", "depth 1"] {
        engine.send(&format!("go {limits}"));
        let best = answer_of_one_search(&mut engine, name);
        check_bestmove(case, &legal, &best, limits);
        nothing_pending(&mut engine, false, &format!("{name}: after go {limits}"));
    }

    // `go infinite`: `isready` is answered during the search, and nothing but `info` comes
    // before `stop`, however soon the search has nothing left to do.
    engine.send("go infinite");
    engine.send("isready");
    let lines = engine.until("readyok");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info ")),
        "{name}: go infinite answered before stop: {lines:?}"
    );
    let watched = std::time::Instant::now() + WATCH;
    while let Some(line) =
        engine.try_recv(watched.saturating_duration_since(std::time::Instant::now()))
    {
        assert!(
            line.starts_with("info "),
            "{name}: go infinite answered before stop: {line}"
        );
    }
    engine.send("stop");
    let best = answer_of_one_search(&mut engine, name);
    check_bestmove(case, &legal, &best, "go infinite + stop");
    engine.send("stop");
    nothing_pending(&mut engine, false, &format!("{name}: a second stop"));

    // A command that ends a search prints that search's bestmove first.
    for ender in [case.setup.last().unwrap().as_str(), "go depth 1"] {
        engine.send("go infinite");
        engine.send(ender);
        let best = answer_of_one_search(&mut engine, name);
        check_bestmove(
            case,
            &legal,
            &best,
            &format!("go infinite ended by {ender}"),
        );
        if ender.starts_with("go") {
            let best = answer_of_one_search(&mut engine, name);
            check_bestmove(case, &legal, &best, ender);
        }
        nothing_pending(&mut engine, false, &format!("{name}: after {ender}"));
    }

    // End of input during a search: its bestmove, then exit code 0.
    engine.send("go infinite");
    engine.close();
    let best = answer_of_one_search(&mut engine, name);
    check_bestmove(case, &legal, &best, "end of input");
    assert!(
        engine.try_recv(Duration::from_millis(100)).is_none(),
        "{name}: one bestmove at end of input"
    );
    assert!(engine.wait_exit().success(), "{name}: exit code 0");
}

/// Boards with one hole in every row, column and box and no two holes side by side (so nothing
/// is full, and no domino fits), then the same with a second hole beside the first one (a
/// domino fits there only).
fn blockudoku_holes(with_pair: bool) -> String {
    let rows: Vec<String> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| {
                    let hole = c == (3 * r + r / 3) % 9 || (with_pair && r == 0 && c == 1);
                    if hole { '.' } else { '#' }
                })
                .collect()
        })
        .collect();
    rows.join("/")
}

#[test]
fn blockudoku_keeps_every_promise() {
    let crowded = "position board ##.....#./#......#./#......##/.#.#...../...#...../...###.../#####..../...###.../#..##...#";
    let one = format!("position board {}", blockudoku_holes(true));
    let lost = format!("position board {}", blockudoku_holes(false));
    let cases = [
        Case::new(
            "blockudoku empty board",
            &["newgame blockudoku", "pieces ### # ##"],
            false,
        ),
        Case::new(
            "blockudoku one-piece hand",
            &["newgame blockudoku", "pieces ##/#."],
            false,
        ),
        Case::new(
            "blockudoku crowded board",
            &["newgame blockudoku", crowded, "pieces ##/#. ### #/#/#"],
            false,
        ),
        Case::new(
            "blockudoku one placement",
            &["newgame blockudoku", &one, "pieces ##"],
            false,
        ),
        Case::new(
            "blockudoku lost",
            &["newgame blockudoku", &lost, "pieces ##"],
            true,
        ),
    ];
    let mut engine = set_up(&cases[3]);
    assert_eq!(legal_moves(&mut engine), ["1@a9"], "one placement");
    check_all(&cases);
}

/// A small deterministic generator (xorshift64*) for random games.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Positions of a variant from random games: one where the mover has exactly one legal move,
/// the last position before the end, and the end. Returns their `position` lines.
fn blokus_positions(variant: &str) -> (String, String, String) {
    let mut engine = Engine::start();
    engine.send(&format!("newgame blokus variant {variant}"));
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let line = |moves: &[String]| format!("position startpos moves {}", moves.join(" "));
    let mut single = None;
    for _game in 0..40 {
        let mut moves: Vec<String> = Vec::new();
        loop {
            engine.send(&line(&moves));
            let legal = legal_moves(&mut engine);
            if legal.is_empty() {
                break;
            }
            if legal.len() == 1 && single.is_none() {
                single = Some(line(&moves));
            }
            moves.push(legal[random.below(legal.len())].clone());
        }
        if let Some(single) = single {
            let before_end = line(&moves[..moves.len() - 1]);
            return (single, before_end, line(&moves));
        }
    }
    panic!("{variant}: no position with a single legal move in 40 random games");
}

#[test]
fn blokus_keeps_every_promise_in_every_variant() {
    let mut cases = Vec::new();
    for variant in ["duo", "junior", "classic", "two", "three"] {
        let newgame = format!("newgame blokus variant {variant}");
        let (single, before_end, end) = blokus_positions(variant);
        cases.extend([
            Case::new(
                &format!("blokus {variant} opening"),
                &[&newgame, "position startpos"],
                false,
            ),
            Case::new(
                &format!("blokus {variant} one legal move"),
                &[&newgame, &single],
                false,
            ),
            Case::new(
                &format!("blokus {variant} last move"),
                &[&newgame, &before_end],
                false,
            ),
            Case::new(
                &format!("blokus {variant} game over"),
                &[&newgame, &end],
                true,
            ),
        ]);
    }
    check_all(&cases);
}

#[test]
fn competitive_sudoku_keeps_every_promise() {
    let mut cases = Vec::new();
    for mode in ["classic", "rows", "border", "random"] {
        for bx in ["2x3", "3x3"] {
            cases.push(Case::new(
                &format!("sudoku {bx} {mode} start"),
                &[&format!("newgame sudoku box {bx} mode {mode}")],
                false,
            ));
        }
    }
    cases.extend([
        // protocol.md's example: solved outright in a few ms, and the best move is a pass.
        Case::new(
            "sudoku 2x2 endgame solved outright",
            &[
                "newgame sudoku box 2x2",
                "position board .2../.41./2143/432.",
            ],
            false,
        ),
        Case::new(
            "sudoku 2x2 one move left",
            &[
                "newgame sudoku box 2x2",
                "position board 1234/3412/2143/432.",
            ],
            false,
        ),
        Case::new(
            "sudoku 2x3 rows, player 1 has no playable cell",
            &["newgame sudoku box 2x3 mode rows", "position allowed1 -"],
            false,
        ),
        Case::new(
            "sudoku 2x2 game over",
            &[
                "newgame sudoku box 2x2",
                "position board 1234/3412/2143/4321",
            ],
            true,
        ),
    ]);
    check_all(&cases);
}
