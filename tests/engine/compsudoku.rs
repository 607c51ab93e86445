//! Competitive Sudoku through the real binary: every scoring case, taboo moves and passes,
//! territory growth, skipped players, the end of the game, the course framework's boards,
//! protocol round-trips and refused input.

use crate::common;

use common::Engine;
use tessera::games::compsudoku::boards::parse_board_file;
use tessera::games::compsudoku::rules::Mode;
use tessera::games::compsudoku::session::position_string;

fn sudoku(params: &str) -> Engine {
    let mut engine = Engine::start();
    let answers = engine.ask(&format!("newgame sudoku {params}"));
    assert!(answers.is_empty(), "{answers:?}");
    engine
}

/// The `show` lines without their `info string ` prefix.
fn show(engine: &mut Engine) -> Vec<String> {
    engine
        .ask("show")
        .into_iter()
        .map(|l| {
            l.strip_prefix("info string ")
                .expect("show answers info string lines")
                .to_string()
        })
        .collect()
}

/// The `position ...` line of `show`.
fn position_line(engine: &mut Engine) -> String {
    show(engine).pop().expect("show ends with the position")
}

fn header(engine: &mut Engine) -> String {
    show(engine)[0].clone()
}

/// (real moves, passes) of `legal`.
fn legal(engine: &mut Engine) -> (Vec<String>, Vec<String>) {
    let answers = engine.ask("legal");
    assert_eq!(answers.len(), 1, "{answers:?}");
    let words: Vec<String> = answers[0].split_whitespace().map(String::from).collect();
    assert_eq!(words[0], "legal");
    let mut real = Vec::new();
    let mut passes = Vec::new();
    let mut in_passes = false;
    for w in &words[1..] {
        if w == "pass" {
            in_passes = true;
        } else if in_passes {
            passes.push(w.clone());
        } else {
            real.push(w.clone());
        }
    }
    (real, passes)
}

fn no_answer(engine: &mut Engine, line: &str) {
    let answers = engine.ask(line);
    assert!(answers.is_empty(), "{line}: {answers:?}");
}

/// Solved 4x4 grid used below (rows top to bottom):
/// 1234 / 3412 / 2143 / 4321.
#[test]
fn each_scoring_case() {
    let mut e = sudoku("box 2x2 mode classic");
    // Nothing completed: 0.
    no_answer(&mut e, "position moves a4=1");
    assert!(header(&mut e).contains("scores 0 0 to move 2"));
    // Only the bottom row: 1 (column d and the box keep d2 empty).
    no_answer(&mut e, "position board 1234/3412/214./432. moves d1=1");
    assert!(
        header(&mut e).contains("scores 1 0 to move 2"),
        "{:?}",
        show(&mut e)
    );
    // Row and column, not the box (c2 is empty): 3.
    no_answer(&mut e, "position board 1234/3412/21.3/432. moves d1=1");
    assert!(header(&mut e).contains("scores 3 0"));
    // The last cell: row, column and box: 7; the game is over.
    no_answer(
        &mut e,
        "position board 1234/3412/2143/432. turn 2 scores 4 5 moves d1=1",
    );
    let h = header(&mut e);
    assert!(h.contains("scores 4 12 game over winner 2"), "{h}");
    let (_, best) = e.go("movetime 50");
    assert_eq!(best, ["none"]);
    assert_eq!(legal(&mut e), (vec![], vec![]));
}

#[test]
fn unsolvable_moves_become_taboo_and_pass_the_turn() {
    let mut e = sudoku("box 2x2");
    no_answer(&mut e, "position board 1234/3412/214./....");
    let (real, passes) = legal(&mut e);
    assert_eq!(real, ["d2=3", "a1=4", "b1=3", "c1=2", "d1=1"]);
    // d1=3 is free of clashes, but then d2 can hold nothing.
    assert_eq!(passes, ["d1=3"]);
    no_answer(&mut e, "position board 1234/3412/214./.... moves d1=3");
    assert!(header(&mut e).contains("scores 0 0 to move 2 taboo 1"));
    let pos = position_line(&mut e);
    assert!(pos.ends_with("turn 2 scores 0 0 taboo d1=3"), "{pos}");
    // A taboo move may not be played again; the state stays as it was.
    let err = e.expect_error(&format!("{pos} moves d1=3"));
    assert!(err.contains("taboo"), "{err}");
    assert_eq!(position_line(&mut e), pos);
    let (_, passes) = legal(&mut e);
    assert!(passes.is_empty(), "the only pass is used up: {passes:?}");
}

#[test]
fn territory_grows_from_own_cells_and_not_from_taboo() {
    let mut e = sudoku("box 2x2 mode rows");
    let (real, _) = legal(&mut e);
    assert_eq!(real.len(), 16, "player 1 starts on the top row: {real:?}");
    assert!(real.iter().all(|m| m.as_bytes()[1] == b'4'));
    no_answer(&mut e, "position moves a4=1 a1=2");
    let (real, _) = legal(&mut e);
    // Top row (minus a4) and the neighbours of a4: a3, b3.
    let cells: std::collections::BTreeSet<String> =
        real.iter().map(|m| m[..2].to_string()).collect();
    let expected: std::collections::BTreeSet<String> = ["b4", "c4", "d4", "a3", "b3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(cells, expected);
    let pos = position_line(&mut e);
    assert!(
        pos.contains("owners 1.../..../..../2... allowed1 a4,b4,c4,d4 allowed2 a1,b1,c1,d1"),
        "{pos}"
    );
    // Player 1 owns the top row and reaches nothing empty: it is skipped. Player 2's d1=3 is
    // taboo (d2 could then hold nothing) and adds no territory: d2 stays out of its reach.
    no_answer(
        &mut e,
        "position board 1234/3412/214./.... owners 1111/..../..../.... moves d1=3",
    );
    let h = header(&mut e);
    assert!(h.contains("scores 0 0 to move 2 taboo 1"), "{h}");
    let (real, passes) = legal(&mut e);
    assert_eq!(real, ["a1=4", "b1=3", "c1=2", "d1=1"]);
    assert!(passes.is_empty(), "{passes:?}");
    // A real move does grow it: after c1=2, d2 is next to an own cell.
    no_answer(
        &mut e,
        "position board 1234/3412/214./.... owners 1111/..../..../.... moves d1=3 c1=2",
    );
    let (real, _) = legal(&mut e);
    assert!(real.contains(&"d2=3".to_string()), "{real:?}");
}

#[test]
fn skipped_player_and_end_by_no_moves() {
    // Player 2 has no starting cell and owns nothing: it is skipped for good.
    let mut e = sudoku("box 2x2 mode rows");
    no_answer(&mut e, "position turn 2 allowed2 -");
    assert!(header(&mut e).contains("to move 1"));
    no_answer(&mut e, "position turn 2 allowed2 - moves a4=1 b4=2");
    assert!(header(&mut e).contains("to move 1"));
    // Neither player can reach the empty cells: the game is over.
    no_answer(
        &mut e,
        "position board 1234/3412/..../.... allowed1 - allowed2 - scores 3 1",
    );
    assert!(header(&mut e).contains("game over winner 1"));
    let (_, best) = e.go("movetime 20");
    assert_eq!(best, ["none"]);
}

#[test]
fn framework_boards_load_and_the_engine_answers_a_legal_move() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/compsudoku");
    for (file, mode, params) in [
        ("v12-easy-2x2.txt", Mode::Classic, "box 2x2 mode classic"),
        ("v12-random-3x3.txt", Mode::Classic, "box 3x3 mode classic"),
        ("v14-board-2x2.txt", Mode::Rows, "box 2x2 mode rows"),
        ("v14-board-2x3.txt", Mode::Rows, "box 2x3 mode rows"),
        ("v14-empty-3x4.txt", Mode::Classic, "box 3x4 mode classic"),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let game = parse_board_file(&text, mode, 1).unwrap();
        let pos = position_string(&game);
        let mut e = sudoku(params);
        no_answer(&mut e, &pos);
        assert_eq!(position_line(&mut e), pos, "{file} round-trips");
        let (real, passes) = legal(&mut e);
        let (infos, best) = e.go("movetime 100");
        assert!(
            infos.iter().any(|l| l.contains(" pv ")),
            "{file}: {infos:?}"
        );
        assert_eq!(best.len(), 1);
        assert!(
            real.contains(&best[0]) || passes.contains(&best[0]),
            "{file}: {best:?} is legal"
        );
    }
    // The v14 2x3 board keeps its taboo list and owners.
    let text = std::fs::read_to_string(format!("{dir}/v14-board-2x3.txt")).unwrap();
    let game = parse_board_file(&text, Mode::Rows, 1).unwrap();
    assert_eq!(game.taboo.len(), 12);
    let pos = position_string(&game);
    assert!(pos.contains("taboo d5=4 e5=1"), "{pos}");
    assert!(
        pos.contains("owners .2.2../..22.2/1...2./1...2./1...11/11.11."),
        "{pos}"
    );
}

#[test]
fn the_engine_takes_points_and_does_not_hand_them_out() {
    let mut e = sudoku("box 2x2");
    // d1 completes row, column and box.
    no_answer(&mut e, "position board 1234/3412/21.3/432.");
    let (_, best) = e.go("depth 1");
    assert_eq!(best, ["c2=4"], "c2 scores 3 now and leaves d1 for 3 more");
    // Four singles left: whoever moves loses the last 7 points and cannot pass.
    no_answer(&mut e, "position board 1234/3412/2..3/4..1");
    assert_eq!(legal(&mut e).1, Vec::<String>::new());
    // A depth, not a movetime: the outcome must not hang on how busy the machine is.
    let (infos, _) = e.go("depth 8");
    assert!(infos.last().unwrap().contains("score -900"), "{infos:?}");
    // Here every real move hands the opponent the last cell: the engine passes on purpose with
    // a4=3 (a4 can only hold 1) and wins by the same margin the search sees to the end.
    no_answer(&mut e, "position board .2../.41./2143/432.");
    let (real, passes) = legal(&mut e);
    assert_eq!(passes, ["a4=3"]);
    assert!(!real.contains(&"a4=3".to_string()));
    let (infos, best) = e.go("depth 8");
    assert_eq!(best, ["a4=3"], "{infos:?}");
    let last = infos.last().unwrap();
    let score: i64 = last.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(score > 0, "{infos:?}");
}

#[test]
fn protocol_round_trips_and_errors_leave_the_state_intact() {
    let mut e = sudoku("box 3x3 mode classic");
    let first = "position board 1......../........./........./........./........./........./........./........./......... turn 2 scores 3 4 taboo a1=1 e5=9";
    no_answer(&mut e, first);
    let pos = position_line(&mut e);
    assert_eq!(pos, first);
    for (bad, why) in [
        ("position board 123", "rows"),
        (
            "position board 11......./........./........./........./........./........./........./........./.........",
            "contradictory",
        ),
        ("position turn 3", "turn"),
        ("position scores 1", "scores"),
        ("position scores 1 x", "scores"),
        ("position flurb 1", "unknown position field"),
        ("position moves e5", "bad move"),
        ("position moves e5=0", "bad value"),
        ("position moves j1=1", "off the"),
        ("position moves a1=1 a1=2", "filled"),
        ("position moves a1=1 a2=1", "row, column or box"),
        ("position allowed1 a1", "territory"),
        (
            "position owners 1......../........./........./........./........./........./........./........./.........",
            "territory",
        ),
        (
            "position board x......../........./........./........./........./........./........./........./.........",
            "bad character",
        ),
    ] {
        let err = e.expect_error(bad);
        assert!(err.contains(why), "{bad}: {err}");
        assert_eq!(position_line(&mut e), pos, "{bad} changed the state");
    }
    let err = e.expect_error("position board .23456789/1......../........./........./........./........./........./........./.........");
    assert!(err.contains("no solution"), "{err}");
    let err = e.expect_error("newgame sudoku box 6x5");
    assert!(err.contains("unsupported"), "{err}");
    let err = e.expect_error("newgame sudoku mode diagonal");
    assert!(err.contains("unknown sudoku mode"), "{err}");
    assert_eq!(position_line(&mut e), pos);
    // 4x4 boxes: values above 9 are letters.
    let mut big = sudoku("box 4x4");
    no_answer(&mut big, "position moves a1=G p16=A");
    let h = show(&mut big);
    assert!(h[1].contains("a b c d e f g h i j k l m n o p"), "{h:?}");
    assert!(h[2].starts_with("16"), "{h:?}");
    assert!(h[2].trim_end().ends_with('A'), "{h:?}");
}

#[test]
fn stop_answers_at_once_with_a_legal_move() {
    let mut e = sudoku("box 4x4");
    e.send("go infinite");
    let first = e.recv();
    assert!(first.contains(" pv "), "{first}");
    std::thread::sleep(std::time::Duration::from_millis(50));
    let started = std::time::Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(started.elapsed() < std::time::Duration::from_millis(500));
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let (real, _) = legal(&mut e);
    assert!(real.contains(&best), "{best}");
}
