//! The `Level` and `MultiPV` options through the binary: announced by `tei`, refused with an
//! `error` line when out of range (the game and the other options unchanged), and what they do
//! to a Blokus search: fewer playouts at lower levels, the same answer for the same seed, and
//! several distinct ranked lines.

use crate::common;

use common::Engine;

/// `setoption` lines every game refuses: Level outside 1..=10, MultiPV outside 1..=32, values
/// that are not whole numbers.
const REFUSED: [&str; 9] = [
    "setoption name Level value 0",
    "setoption name Level value 11",
    "setoption name Level value x",
    "setoption name Level value -1",
    "setoption name MultiPV value 0",
    "setoption name MultiPV value 33",
    "setoption name MultiPV value x",
    "setoption name MultiPV value 2.5",
    "setoption name MultiPV value -3",
];

/// The value of `key` in an `info` line.
fn field(line: &str, key: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == key)?;
    words.get(at + 1).map(|w| w.to_string())
}

/// The moves after `pv` in an `info` line.
fn pv(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "pv").expect("a pv");
    words[at + 1..].iter().map(|w| w.to_string()).collect()
}

/// The nodes of the last `info` line of a search.
fn last_nodes(infos: &[String]) -> u64 {
    let line = infos.last().expect("an info line");
    field(line, "nodes").unwrap().parse().unwrap()
}

/// An engine on a Duo position past the opening book's reach, book off.
fn duo_engine(setup: &[&str]) -> Engine {
    let mut engine = Engine::start();
    for line in [
        "newgame blokus variant duo",
        "setoption name OwnBook value false",
        "position startpos moves e10,d9,e9,f9,e8 j5,i4,j4,k4,j3",
    ]
    .iter()
    .chain(setup)
    {
        assert_eq!(engine.ask(line), Vec::<String>::new(), "{line}");
    }
    engine
}

#[test]
fn tei_announces_level_and_multipv() {
    let mut engine = Engine::start();
    engine.send("tei");
    let lines = engine.until("teiok");
    for option in [
        "option name Level type spin default 10 min 1 max 10",
        "option name MultiPV type spin default 1 min 1 max 32",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
}

#[test]
fn out_of_range_values_are_refused_and_change_nothing() {
    for newgame in [
        "newgame blockudoku",
        "newgame blokus variant duo",
        "newgame sudoku box 2x2",
    ] {
        let mut engine = Engine::start();
        assert!(engine.ask(newgame).is_empty());
        engine.ask("setoption name Level value 3");
        engine.ask("setoption name MultiPV value 2");
        let before = engine.ask("show");
        for bad in REFUSED {
            let error = engine.expect_error(bad);
            assert!(error.contains("needs an integer from"), "{bad}: {error}");
        }
        assert_eq!(
            engine.ask("show"),
            before,
            "{newgame}: the game is unchanged"
        );
        if newgame.contains("blokus") {
            // Level 3 and MultiPV 2 still hold: two ranked lines, a level-3 budget.
            engine.ask("setoption name OwnBook value false");
            let (infos, _) = engine.go("");
            assert!(
                infos
                    .iter()
                    .any(|l| field(l, "multipv").as_deref() == Some("2"))
            );
            assert!(last_nodes(&infos) <= 90, "{infos:?}");
        }
    }
}

#[test]
fn lower_blokus_levels_search_fewer_playouts_and_repeat_with_the_seed() {
    let mut nodes = Vec::new();
    for level in [1, 3, 5, 10] {
        let mut answers = Vec::new();
        for _ in 0..2 {
            let mut engine = duo_engine(&[&format!("setoption name Level value {level}")]);
            let limit = if level == 10 { "nodes 4000" } else { "" };
            let (infos, best) = engine.go(limit);
            answers.push((last_nodes(&infos), best));
        }
        assert_eq!(
            answers[0], answers[1],
            "level {level}: the same seed, the same search"
        );
        nodes.push(answers[0].0);
    }
    assert!(
        nodes.windows(2).all(|w| w[0] < w[1]),
        "playouts by level: {nodes:?}"
    );
    assert!(nodes[0] <= 6, "level 1 searches 6 playouts: {nodes:?}");
}

#[test]
fn blokus_multipv_gives_distinct_ranked_lines_the_first_the_bestmove() {
    let mut engine = duo_engine(&["setoption name MultiPV value 4"]);
    let legal = engine.ask("legal");
    let legal: Vec<&str> = legal[0].split_whitespace().skip(1).collect();
    let (infos, best) = engine.go("nodes 3000");
    // The report of the last iteration: ranks 1..4 in order.
    let start = infos
        .iter()
        .rposition(|l| field(l, "multipv").as_deref() == Some("1"))
        .unwrap();
    let last = &infos[start..];
    let ranks: Vec<String> = last.iter().filter_map(|l| field(l, "multipv")).collect();
    assert_eq!(ranks, ["1", "2", "3", "4"], "{last:?}");
    let firsts: Vec<String> = last.iter().map(|l| pv(l)[0].clone()).collect();
    for (i, first) in firsts.iter().enumerate() {
        assert!(legal.contains(&first.as_str()), "{first} is legal");
        assert!(
            !firsts[..i].contains(first),
            "distinct first moves: {firsts:?}"
        );
    }
    assert_eq!(firsts[0], best[0], "rank 1 is the bestmove");
    for line in last {
        let score: i64 = field(line, "score").unwrap().parse().unwrap();
        assert!((0..=100).contains(&score), "{line}");
    }
}

#[test]
fn one_line_has_no_rank() {
    let mut engine = duo_engine(&[]);
    let (infos, _) = engine.go("nodes 500");
    assert!(
        infos.iter().all(|l| field(l, "multipv").is_none()),
        "{infos:?}"
    );
}

#[test]
fn several_lines_search_even_where_the_book_has_a_move() {
    let mut engine = Engine::start();
    engine.ask("newgame blokus variant duo");
    let (infos, _) = engine.go("nodes 1000");
    assert!(
        infos
            .iter()
            .all(|l| field(l, "nodes").as_deref() == Some("0")),
        "the book answers the empty Duo board: {infos:?}"
    );
    engine.ask("setoption name MultiPV value 3");
    let (infos, _) = engine.go("nodes 1000");
    assert!(last_nodes(&infos) > 0, "{infos:?}");
    assert!(
        infos
            .iter()
            .any(|l| field(l, "multipv").as_deref() == Some("3"))
    );
}

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
    for line in REFUSED {
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
