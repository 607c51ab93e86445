//! `setoption` values out of range are refused with one `error` line and change nothing.

mod common;

use common::Engine;

/// Competitive Sudoku: `Level` and `MultiPV` values outside 1..=10 and 1..=32 (or not numbers)
/// are refused, the engine keeps serving, and its search is the same as before the refusals.
#[test]
fn sudoku_refuses_bad_levels_and_line_counts_and_keeps_its_settings() {
    let mut engine = Engine::start();
    for line in [
        "newgame sudoku box 2x3",
        "position board 12..../....../....../....../....../......",
    ] {
        assert!(engine.ask(line).is_empty(), "{line}");
    }
    let before = engine.go("depth 4");
    let refused = [
        "setoption name Level value 0",
        "setoption name Level value 11",
        "setoption name Level value x",
        "setoption name Level value -1",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 33",
        "setoption name MultiPV value x",
        "setoption name MultiPV value 2.5",
    ];
    for line in refused {
        engine.expect_error(line);
    }
    let after = engine.go("depth 4");
    let signature = |(infos, best): &(Vec<String>, Vec<String>)| {
        let last = infos.last().expect("an info line");
        let nodes = last
            .split(" nodes ")
            .nth(1)
            .and_then(|r| r.split(' ').next());
        (nodes.map(String::from), best.clone())
    };
    assert_eq!(signature(&after), signature(&before), "the same search");
    assert!(
        after.0.iter().all(|l| !l.contains(" multipv ")),
        "still one line: {:?}",
        after.0
    );
}
