//! Blockudoku through the real binary: legal plans, rule cases, piece sets.

use crate::common;

use common::Engine;
use tessera::games::blockudoku::board::Board;
use tessera::games::blockudoku::piece::{Piece, PieceSet};
use tessera::games::blockudoku::rules::{Placement, Position, Scoring, play_plan};

/// A checkerboard of holes: every region has empty cells, no two empty cells touch.
const CHECKER: &str =
    "#.#.#.#.#/.#.#.#.#./#.#.#.#.#/.#.#.#.#./#.#.#.#.#/.#.#.#.#./#.#.#.#.#/.#.#.#.#./#.#.#.#.#";

fn legal_moves(engine: &mut Engine) -> Vec<String> {
    let answers = engine.ask("legal");
    assert_eq!(answers.len(), 1, "{answers:?}");
    let mut words = answers[0].split_whitespace();
    assert_eq!(words.next(), Some("legal"));
    words.map(String::from).collect()
}

/// Checks a plan with the library's rules and returns the position after it.
fn checked(position: Position, hand: &[Piece], best: &[String]) -> Position {
    assert_eq!(
        best.len(),
        hand.len(),
        "the plan places the whole hand: {best:?}"
    );
    let plan: Vec<Placement> = best
        .iter()
        .map(|m| Placement::parse(m, hand.len()).expect("notation"))
        .collect();
    play_plan(position, hand, &plan, Scoring::App).expect("the plan is legal")
}

#[test]
fn every_returned_plan_is_legal_over_a_seeded_game() {
    let set = PieceSet::builtin("standard47").unwrap();
    let mut engine = Engine::blockudoku();
    engine.send("setoption name Seed value 11");
    let mut position = Position::default();
    let mut state = 12345u64;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    };
    for round in 0..40 {
        let ids: Vec<usize> = (0..3).map(|_| next(set.pieces.len())).collect();
        let hand: Vec<Piece> = ids.iter().map(|&i| set.pieces[i].clone()).collect();
        // Pieces by name (1-based index) on even rounds, inline shapes on odd ones.
        let tokens: Vec<String> = if round % 2 == 0 {
            ids.iter().map(|i| (i + 1).to_string()).collect()
        } else {
            hand.iter().map(|p| p.shape.clone()).collect()
        };
        engine.send(&format!(
            "position board {} score {} streak {}",
            position.board,
            position.score,
            u8::from(position.streak)
        ));
        engine.send(&format!("pieces {}", tokens.join(" ")));
        let movetime = [1, 5, 20][round % 3];
        let (infos, best) = engine.go(&format!("movetime {movetime}"));
        if best == ["none"] {
            panic!("lost at round {round} on {}", position.board);
        }
        assert!(
            infos.iter().any(|l| l.contains(" pv ")),
            "an info with a pv before bestmove"
        );
        position = checked(position, &hand, &best);
    }
}

#[test]
fn legal_lists_every_placement_of_every_slot() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces # ##### #/#/#/#/#");
    let moves = legal_moves(&mut engine);
    assert_eq!(moves.len(), 81 + 45 + 45);
    assert!(moves.contains(&"1@a9".to_string()) && moves.contains(&"1@i1".to_string()));
    assert!(moves.contains(&"2@e1".to_string()) && !moves.contains(&"2@f1".to_string()));
    assert!(moves.contains(&"3@i5".to_string()) && !moves.contains(&"3@i4".to_string()));
    engine.send(&format!("position board {CHECKER}"));
    assert_eq!(
        legal_moves(&mut engine).len(),
        40,
        "only the monomino fits, in the 40 holes"
    );
}

#[test]
fn a_partly_placeable_hand_is_lost() {
    let mut engine = Engine::blockudoku();
    engine.send(&format!("position board {CHECKER}"));
    engine.send("pieces # ##");
    let (_, best) = engine.go("movetime 50");
    assert_eq!(best, ["none"]);
    engine.send("pieces # #");
    let (_, best) = engine.go("movetime 50");
    assert_eq!(best.len(), 2);
}

#[test]
fn a_hand_placeable_only_thanks_to_a_clear_is_found() {
    // One hole per row, column and box, no two touching: the 3x3 square fits nowhere until the
    // monomino completes a row, a column and a box at once and all three are cleared together.
    let board = common::one_hole_per_region();
    let mut engine = Engine::blockudoku();
    engine.send(&format!("position board {board}"));
    engine.send("pieces ###/###/### #");
    let (_, best) = engine.go("movetime 200");
    assert!(best[0].starts_with("2@"), "the monomino first: {best:?}");
    let hand = [
        Piece::parse("###/###/###").unwrap(),
        Piece::parse("#").unwrap(),
    ];
    let start = Position {
        board: Board::parse(&board).unwrap(),
        ..Position::default()
    };
    let after = checked(start, &hand, &best);
    // 72 filled + 1, minus row, column and box (21 cells); the square then fills the emptied
    // box, which is cleared again.
    assert_eq!(after.board.filled(), 72 + 1 - 21);
}

#[test]
fn piece_sets_and_scoring_are_chosen_by_newgame() {
    let mut engine = Engine::start();
    engine.send("newgame blockudoku pieceset woodoku49 scoring simple");
    // Piece 49 exists only in woodoku49 (a diagonal).
    engine.send("pieces 48 49");
    let show = engine.ask("show");
    assert!(
        show[0].contains("pieceset woodoku49 scoring simple"),
        "{show:?}"
    );
    assert!(
        show.iter()
            .any(|l| l.contains("hand 1:") && l.contains("#.")),
        "{show:?}"
    );
    engine.expect_error("pieces 50");
    engine.send("newgame blockudoku pieceset blocksudoku59");
    engine.send("pieces 59");
    engine.send("newgame blockudoku");
    engine.expect_error("pieces 48");
}

#[test]
fn show_draws_the_board_with_coordinates() {
    let mut engine = Engine::blockudoku();
    engine.send("position board #......../........./........./........./........./........./........./........./........#");
    let show = engine.ask("show");
    assert!(
        show.iter().all(|l| l.starts_with("info string ")),
        "{show:?}"
    );
    assert!(
        show.contains(&"info string    a b c d e f g h i".to_string()),
        "{show:?}"
    );
    assert!(
        show.contains(&"info string 9  # . . . . . . . .".to_string()),
        "{show:?}"
    );
    assert!(
        show.contains(&"info string 1  . . . . . . . . #".to_string()),
        "{show:?}"
    );
}

/// The deepest `info depth` of a search.
fn deepest(infos: &[String]) -> u32 {
    infos
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .max()
        .unwrap_or(0)
}

#[test]
fn look_ahead_runs_only_on_crowded_boards_unless_asked_everywhere() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces ##/#. ### #/#/#");
    let (infos, best) = engine.go("depth 4");
    assert_eq!(
        deepest(&infos),
        2,
        "the empty board ends after the full search"
    );
    assert_eq!(best.len(), 3);
    // 30 filled cells, nothing full: looked ahead.
    let crowded = ["##.##.##."; 5].join("/") + "/........./........./........./.........";
    engine.send(&format!("position board {crowded}"));
    engine.send("pieces ##/#. ### #/#/#");
    let (infos, _) = engine.go("depth 4");
    assert_eq!(deepest(&infos), 4, "{infos:?}");
    engine.send("setoption name LookaheadFrom value 0");
    engine.send(&format!("position board {}", ["........."; 9].join("/")));
    engine.send("pieces ##/#. ### #/#/#");
    let (infos, _) = engine.go("depth 3");
    assert_eq!(deepest(&infos), 3, "looked ahead everywhere: {infos:?}");
    engine.expect_error("setoption name LookaheadFrom value 82");
    engine.expect_error("setoption name LookaheadFrom value many");
}
