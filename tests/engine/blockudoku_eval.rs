//! Blockudoku's `EvalFile` option through the real binary: announced by `tei`, `handmade` and
//! files loaded, missing or malformed files refused with one `error` line and the evaluation in
//! use kept.

use crate::common;

use common::Engine;
use tessera::games::blockudoku::board::parse_square;
use tessera::games::blockudoku::eval::DEFAULT_WEIGHTS;

/// The hand-made weights as an evaluation file's `linear` line.
fn linear_line() -> String {
    let weights: Vec<String> = DEFAULT_WEIGHTS.0.iter().map(i32::to_string).collect();
    format!("linear {}", weights.join(","))
}

/// Writes `text` to a fresh file of the test's own and returns its path.
fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tessera-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The answer to a lone one-cell piece on the empty board under `options`.
fn monomino_answer(engine: &mut Engine) -> String {
    for line in ["newgame blockudoku", "pieces #"] {
        assert!(engine.ask(line).is_empty(), "{line}");
    }
    let (_, best) = engine.go("depth 2");
    assert_eq!(best.len(), 1, "{best:?}");
    best[0].clone()
}

#[test]
fn tei_announces_evalfile() {
    let mut engine = Engine::start();
    engine.send("tei");
    let lines = engine.until("teiok");
    let option = "option name EvalFile type string default builtin";
    assert!(lines.iter().any(|l| l == option), "{lines:?}");
}

#[test]
fn a_file_changes_the_play_and_bad_files_leave_it_unchanged() {
    let mut engine = Engine::start();
    assert!(
        engine
            .ask("setoption name EvalFile value handmade")
            .is_empty()
    );
    let handmade = monomino_answer(&mut engine);
    // The same weights from a file play the same.
    let same = file(
        "same.txt",
        &format!("# the hand-made weights\n{}\n", linear_line()),
    );
    assert!(
        engine
            .ask(&format!("setoption name EvalFile value {same}"))
            .is_empty()
    );
    assert_eq!(monomino_answer(&mut engine), handmade);
    // A one-cell tuple that hates the cell the hand-made evaluation chose moves the piece.
    let cell = parse_square(handmade.split('@').nth(1).unwrap()).unwrap();
    let (row, col) = (cell / 9, cell % 9);
    let hating = format!("{}\ntuple {row} {col} 1 1 0,-10000\n", linear_line());
    let hating = file("hating.txt", &hating);
    assert!(
        engine
            .ask(&format!("setoption name EvalFile value {hating}"))
            .is_empty()
    );
    let moved = monomino_answer(&mut engine);
    assert_ne!(moved, handmade);
    // Missing, truncated and wrong-shaped files are refused; the hating evaluation stays.
    let truncated = file(
        "truncated.txt",
        &format!("{}\ntuple 0 0 3 3 0,-1,-2\n", linear_line()),
    );
    let wrong = file("wrong.txt", "linear 1,2,3\n");
    for bad in ["/nonexistent/eval.txt", truncated.as_str(), wrong.as_str()] {
        let error = engine.expect_error(&format!("setoption name EvalFile value {bad}"));
        assert!(error.contains("EvalFile") && error.contains(bad), "{error}");
        assert_eq!(monomino_answer(&mut engine), moved, "{bad}");
    }
    assert!(
        engine
            .ask("setoption name EvalFile value builtin")
            .is_empty()
    );
}
