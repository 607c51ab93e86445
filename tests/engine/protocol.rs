//! The protocol contract, through the real binary.

use crate::common;

use common::Engine;
use std::time::Duration;

#[test]
fn handshake_announces_identity_games_and_options() {
    let mut engine = Engine::start();
    engine.send("tei");
    let lines = engine.until("teiok");
    assert!(lines[0].starts_with("id name tessera "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    assert!(lines.contains(&"game blockudoku".to_string()), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name MoveOverhead type spin default "))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Seed type spin default 0 "))
    );
    assert_eq!(
        engine.ask("setoption name MoveOverhead value 30"),
        Vec::<String>::new()
    );
    assert_eq!(
        engine.ask("setoption name Seed value 7"),
        Vec::<String>::new()
    );
}

#[test]
fn isready_answers_readyok() {
    let mut engine = Engine::start();
    engine.send("isready");
    assert_eq!(engine.recv(), "readyok");
    // Blank lines and CRLF endings are fine.
    engine.send_bytes(b"\n  \t \nisready\r\n");
    assert_eq!(engine.recv(), "readyok");
}

#[test]
fn bad_input_gets_one_error_line_and_the_engine_keeps_serving() {
    let mut engine = Engine::start();
    assert!(engine.expect_error("go movetime 100").contains("newgame"));
    assert!(engine.expect_error("pieces ##").contains("newgame"));
    assert!(engine.expect_error("position board ..").contains("newgame"));
    assert!(engine.expect_error("legal").contains("newgame"));
    engine.expect_error("flurb");
    engine.expect_error("TEI");
    engine.expect_error("isready now");
    engine.expect_error("newgame chess");
    engine.expect_error("newgame");
    engine.expect_error("newgame blockudoku pieceset tetris");
    engine.expect_error("newgame blockudoku scoring golf");
    engine.expect_error("newgame blockudoku colour red");
    engine.expect_error("setoption name Hash value 16");
    engine.expect_error("setoption name Seed value -1");
    engine.expect_error("setoption name MoveOverhead value lots");
    engine.expect_error("setoption Seed 3");
    engine.send("newgame blockudoku");
    engine.expect_error("go movetime -5");
    engine.expect_error("go movetime soon");
    engine.expect_error("go time 100 inc");
    engine.expect_error("go depth 0");
    engine.expect_error("go sideways");
    engine.expect_error("go");
    engine.expect_error("position board ........./.........");
    engine.expect_error("position board ........x/........./........./........./........./........./........./........./.........");
    engine.expect_error("position board ......../........./........./........./........./........./........./........./.........");
    engine.expect_error("position score many");
    engine.expect_error("position streak 2");
    engine.expect_error("position board");
    engine.expect_error("position colour white");
    engine.expect_error("position board #########/........./........./........./........./........./........./........./.........");
    engine.expect_error("pieces");
    engine.expect_error("pieces # # # #");
    engine.expect_error("pieces 48");
    engine.expect_error("pieces #x#");
    engine.expect_error("pieces ../..");
    engine.expect_error("pieces ##########");
    engine.send_bytes(&[0xff, 0xfe, 0x00, 0x9c, b'\n']);
    engine.send("isready");
    let garbage = engine.until("readyok");
    assert_eq!(garbage.len(), 2, "{garbage:?}");
    assert!(garbage[0].starts_with("error "));
    engine.send_bytes(&[0x01, 0x02, 0x7f, b'x', b'\n']);
    engine.send("isready");
    assert_eq!(engine.until("readyok").len(), 2);
    let mut long = "pieces ".to_string();
    long.push_str(&"#".repeat(3 << 20));
    engine.send(&long);
    engine.send("isready");
    let answers = engine.until("readyok");
    assert_eq!(answers.len(), 2, "one error for the long line");
    assert!(answers[0].contains("longer"), "{answers:?}");
    // Through all of it the game state stayed intact and the engine still plays.
    engine.send("position score 12");
    engine.send("pieces # ## ###");
    let (_, best) = engine.go("movetime 50");
    assert_eq!(best.len(), 3);
}

#[test]
fn errors_leave_the_state_intact() {
    let mut engine = Engine::blockudoku();
    let board =
        "#......../........./........./........./........./........./........./........./........#";
    engine.send(&format!("position board {board} score 40 streak 1"));
    engine.send("pieces #/# ##");
    let before = engine.ask("show");
    engine.expect_error("position board ##");
    engine.expect_error("pieces 99");
    engine.expect_error("newgame blockudoku pieceset nope");
    engine.expect_error("position score -3");
    assert_eq!(engine.ask("show"), before);
    assert!(
        before.iter().any(|l| l.contains("score 40 streak 1")),
        "{before:?}"
    );
    assert!(before.iter().any(|l| l.contains(board)), "{before:?}");
}

#[test]
fn stop_ends_an_infinite_search_with_one_legal_bestmove() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces ### #/#/# ##/##");
    engine.send("go infinite");
    let fallback = engine.recv();
    assert!(fallback.starts_with("info depth 0 "), "{fallback}");
    assert_eq!(fallback.split(" pv ").nth(1).unwrap().split(' ').count(), 3);
    let first = engine.recv();
    assert!(first.starts_with("info depth 1 "), "{first}");
    assert!(first.contains(" pv "), "{first}");
    // Nothing but info arrives on its own, even once the search is done (this empty board is
    // searched fully in milliseconds)... until stop.
    let watched = std::time::Instant::now() + Duration::from_millis(300);
    while let Some(line) =
        engine.try_recv(watched.saturating_duration_since(std::time::Instant::now()))
    {
        assert!(line.starts_with("info "), "before stop: {line}");
    }
    engine.send("stop");
    let lines = engine.until("bestmove");
    let best = lines.last().unwrap();
    assert_eq!(best.split_whitespace().count(), 4, "{best}");
    engine.send("stop");
    engine.send("isready");
    assert_eq!(
        engine.recv(),
        "readyok",
        "no second bestmove after a second stop"
    );
}

#[test]
fn isready_is_answered_during_a_search_without_ending_it() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces ### #/#/# ##/##");
    engine.send("go infinite");
    engine.send("isready");
    let mut lines = engine.until("readyok");
    lines.pop();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    assert!(
        engine
            .try_recv(Duration::from_millis(200))
            .is_none_or(|l| l.starts_with("info "))
    );
    engine.send("stop");
    engine.until("bestmove");
}

#[test]
fn a_new_go_position_or_newgame_ends_the_running_search_first() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces ### #/#/# ##/##");
    engine.send("go infinite");
    engine.send("go movetime 30");
    engine.send("position score 3");
    engine.send("go infinite");
    engine.send("newgame blockudoku");
    engine.send("isready");
    let lines = engine.until("readyok");
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 3, "one bestmove per go: {lines:?}");
}

#[test]
fn go_limits_each_end_the_search() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces ### #/#/# ##/##");
    for limits in [
        "movetime 30",
        "depth 1",
        "depth 2",
        "nodes 5000",
        "time 500 inc 10",
        "time 0",
    ] {
        let (infos, best) = engine.go(limits);
        assert_eq!(best.len(), 3, "{limits}: {best:?}");
        assert!(!infos.is_empty(), "{limits}: at least one info");
        assert!(infos[0].starts_with("info depth 0 "), "the fallback first");
        if limits == "depth 1" {
            assert!(
                infos[1..].iter().all(|l| l.starts_with("info depth 1 ")),
                "{infos:?}"
            );
        }
    }
}

#[test]
fn end_of_input_acts_as_quit() {
    let mut engine = Engine::blockudoku();
    engine.send("pieces ### #/#/# ##/##");
    engine.send("go infinite");
    engine.close();
    let status = engine.wait_exit();
    assert!(status.success());
}

#[test]
fn quit_exits_with_code_zero() {
    let mut engine = Engine::start();
    engine.send("quit");
    assert!(engine.wait_exit().success());
}
