//! Blokus through the real binary: `newgame blokus`, `position startpos moves`, `legal`, `go`,
//! `show`, errors that leave the state intact, and a full game in each variant.

use crate::common;

use common::Engine;

fn legal(engine: &mut Engine) -> Vec<String> {
    let answers = engine.ask("legal");
    assert_eq!(answers.len(), 1, "{answers:?}");
    answers[0]
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect()
}

#[test]
fn start_counts_duo_and_classic() {
    let mut engine = Engine::start();
    engine.send("newgame blokus variant duo");
    assert_eq!(legal(&mut engine).len(), 414);
    engine.send("position startpos moves f9,e10,f10,g10,f11");
    let white = legal(&mut engine);
    assert_eq!(white.len(), 414, "white's start is untouched");
    assert!(
        white.iter().all(|m| m.contains("j5")),
        "every first move covers j5"
    );
    engine.send("newgame blokus variant classic");
    let first = legal(&mut engine);
    assert_eq!(first.len(), 58);
    assert!(first.iter().all(|m| m.contains("a20")));
    engine.send("newgame blokus");
    assert_eq!(legal(&mut engine).len(), 58, "classic is the default");
}

#[test]
fn bad_moves_are_refused_and_the_position_kept() {
    let mut engine = Engine::start();
    engine.send("newgame blokus variant duo");
    engine.send("position startpos moves e10,e11");
    let before = legal(&mut engine);
    let e = engine.expect_error("position startpos moves e10,e11 j6");
    assert!(e.contains("starting square"), "{e}");
    let e = engine.expect_error("position startpos moves e10,e11 j5,j6 f12,g12");
    assert!(e.contains("piece"), "{e}");
    engine.expect_error("position startpos moves e10,e11 j5 e12,e13,e14");
    engine.expect_error("position startpos moves e10,f11");
    engine.expect_error("position startpos moves z99");
    engine.expect_error("position startpos moves pass");
    engine.expect_error("position startpos e10");
    engine.expect_error("position fen x");
    engine.expect_error("newgame blokus variant hex");
    engine.expect_error("newgame blokus colours 3");
    assert_eq!(legal(&mut engine), before, "the position is intact");
}

#[test]
fn go_answers_a_legal_move_and_streams_info() {
    let mut engine = Engine::start();
    engine.send("newgame blokus variant duo");
    engine.send("position startpos moves f9,e10,f10,g10,f11");
    let moves = legal(&mut engine);
    let (infos, best) = engine.go("movetime 150");
    assert_eq!(best.len(), 1, "{best:?}");
    assert!(moves.contains(&best[0]), "{best:?} is legal");
    assert!(
        infos
            .iter()
            .any(|l| l.starts_with("info depth ") && l.contains(" pv "))
    );
    let (_, best) = engine.go("nodes 200");
    assert!(moves.contains(&best[0]));
    let shown = engine.ask("show");
    assert!(
        shown.iter().any(|l| l.contains("to play 2 white")),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .any(|l| l.contains("1 black points 5 pieces left 20")),
        "{shown:?}"
    );
}

/// Plays a whole game with `go nodes` for every colour; checks each move was in `legal`, that
/// the game ends with `bestmove none` and an empty `legal`, and returns the number of moves.
fn full_game(variant: &str) -> usize {
    let mut engine = Engine::start();
    engine.send(&format!("newgame blokus variant {variant}"));
    let mut moves: Vec<String> = Vec::new();
    loop {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let legal_now = legal(&mut engine);
        let (_, best) = engine.go("nodes 30");
        if legal_now.is_empty() {
            assert_eq!(best, ["none"], "{variant}: no move at the end");
            break;
        }
        assert!(legal_now.contains(&best[0]), "{variant}: {best:?} legal");
        moves.push(best[0].clone());
        assert!(moves.len() < 100, "{variant}: the game ends");
    }
    let shown = engine.ask("show");
    assert!(shown.iter().any(|l| l.contains("game over")), "{shown:?}");
    moves.len()
}

#[test]
fn a_full_game_in_each_variant() {
    for (variant, colours) in [
        ("duo", 2),
        ("junior", 2),
        ("classic", 4),
        ("two", 4),
        ("three", 4),
        ("callisto_2", 2),
        ("callisto_3", 3),
    ] {
        let n = full_game(variant);
        assert!(n >= 8 * colours, "{variant}: {n} moves");
    }
}

/// Duo's opening book answers the first moves without a search; `OwnBook false` searches.
#[test]
fn duo_opening_book_and_own_book_option() {
    let mut engine = Engine::start();
    engine.send("newgame blokus variant duo");
    let (infos, best) = engine.go("nodes 20000");
    assert!(infos.iter().all(|l| !l.contains(" depth 1 ")), "{infos:?}");
    let book_move = best[0].clone();
    assert!(legal(&mut engine).contains(&book_move));
    engine.send(&format!("position startpos moves {book_move}"));
    let (infos, answer) = engine.go("nodes 20000");
    assert!(infos.iter().all(|l| !l.contains(" depth 1 ")), "{infos:?}");
    assert!(
        legal(&mut engine).contains(&answer[0]),
        "a legal answer from the book"
    );
    engine.send("setoption name OwnBook value false");
    engine.send("position startpos");
    let (infos, _) = engine.go("nodes 2000");
    assert!(
        infos.iter().any(|l| l.contains(" depth 1 ")),
        "a search: {infos:?}"
    );
    engine.expect_error("setoption name OwnBook value maybe");
}
