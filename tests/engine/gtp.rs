//! `tessera gtp` through pipes: GTP 2 framing, ids, errors, and the commands a Blokus match
//! runner sends.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(args: &[&str]) -> Gtp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line and returns the raw answer lines up to the empty line ending it.
    fn raw(&mut self, line: &str) -> Vec<String> {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(
                self.stdout.read_line(&mut l).unwrap() > 0,
                "answer to {line:?}"
            );
            let l = l.trim_end_matches('\n').to_string();
            if l.is_empty() {
                return lines;
            }
            lines.push(l);
        }
    }

    /// Sends a command that must succeed; returns its text (after `= `), lines joined by `\n`.
    fn ok(&mut self, line: &str) -> String {
        let lines = self.raw(line);
        assert!(lines[0].starts_with("= "), "{line:?} -> {lines:?}");
        let mut text = lines[0][2..].to_string();
        for l in &lines[1..] {
            text.push('\n');
            text.push_str(l);
        }
        text
    }

    fn err(&mut self, line: &str) -> String {
        let lines = self.raw(line);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("? "), "{line:?} -> {lines:?}");
        lines[0][2..].to_string()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn framing_ids_and_the_basic_commands() {
    let mut g = Gtp::start(&["--nodes", "50"]);
    assert_eq!(g.raw("protocol_version"), ["= 2"]);
    assert_eq!(g.raw("7 name"), ["=7 tessera"]);
    // Comment and empty lines get no answer; the next command is answered as usual.
    writeln!(g.stdin, "# a comment\n").unwrap();
    assert_eq!(g.raw("known_command genmove"), ["= true"]);
    assert_eq!(g.ok("known_command flurb"), "false");
    assert_eq!(g.raw("12 flurb"), ["?12 unknown command"]);
    let list = g.ok("list_commands");
    for c in [
        "set_game",
        "clear_board",
        "play",
        "genmove",
        "cputime",
        "final_score",
        "all_legal",
        "undo",
    ] {
        assert!(list.lines().any(|l| l == c), "{c} in {list}");
    }
    assert_eq!(g.raw("set_game Blokus Duo"), ["= "]);
    let cpu: f64 = g.ok("cputime").parse().expect("cputime is a number");
    assert!(cpu >= 0.0);
    g.err("set_game Chess");
    assert_eq!(g.raw("3 quit"), ["=3 "]);
    assert!(g.child.wait().unwrap().success());
}

#[test]
fn duo_play_genmove_undo_and_score() {
    let mut g = Gtp::start(&["--nodes", "100", "--seed", "3"]);
    g.ok("set_game Blokus Duo");
    g.ok("clear_board");
    assert_eq!(g.ok("all_legal b").lines().count(), 414);
    assert_eq!(g.ok("all_legal w").lines().count(), 414);
    g.ok("play b e9,d10,e10,f10,e11");
    assert!(
        g.err("play b e9,d10,e10,f10,e11")
            .contains("no piece X left")
    );
    assert!(g.err("play w e10").starts_with("illegal move"));
    g.err("play w pass");
    g.err("play red j5");
    let mv = g.ok("genmove w");
    assert!(mv.contains("j5"), "white's first move covers j5: {mv}");
    let squares = mv.split(',').count();
    let expected = if squares == 5 {
        "0".to_string()
    } else {
        format!("B+{}", 5 - squares)
    };
    assert_eq!(g.ok("final_score"), expected, "5 squares against {squares}");
    g.ok("undo");
    assert_eq!(g.ok("final_score"), "B+5");
    g.ok("undo");
    g.err("undo");
    assert_eq!(g.ok("final_score"), "0");
    let board = g.ok("showboard");
    assert!(board.lines().count() >= 15, "{board}");
}

#[test]
fn classic_colours_and_a_whole_game_by_genmove() {
    let mut g = Gtp::start(&["--nodes", "20"]);
    g.ok("set_game Blokus");
    assert_eq!(g.ok("all_legal 1").lines().count(), 58);
    g.err("all_legal b");
    // Play the game out as a match runner does: skip colours without moves.
    let mut idle = 0;
    let mut colour = 0;
    let mut moves = 0;
    while idle < 4 {
        let c = ["1", "2", "3", "4"][colour];
        if g.ok(&format!("all_legal {c}")).is_empty() {
            assert_eq!(g.ok(&format!("genmove {c}")), "pass");
            idle += 1;
        } else {
            g.ok(&format!("genmove {c}"));
            idle = 0;
            moves += 1;
        }
        colour = (colour + 1) % 4;
    }
    assert!(moves > 40, "{moves} moves");
    let score = g.ok("final_score");
    let points: Vec<i32> = score
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(points.len(), 4, "{score}");
    assert!(points.iter().all(|&p| p > 20 && p <= 109), "{score}");
}

#[test]
fn a_new_game_after_genmove_searches_the_new_variant() {
    let mut g = Gtp::start(&["--nodes", "50"]);
    g.ok("set_game Blokus Duo");
    let duo = g.ok("genmove b");
    assert!(duo.contains("e10"), "{duo}");
    g.ok("set_game Blokus");
    let classic = g.ok("genmove 1");
    assert!(classic.contains("a20"), "{classic}");
    g.ok("clear_board");
    let again = g.ok("genmove 1");
    assert!(again.contains("a20"), "{again}");
    g.ok("play 2 t20,t19");
    let next = g.ok("genmove 3");
    assert!(next.contains("t1"), "{next}");
}

#[test]
fn loadsgf_loads_a_match_record_before_a_move_number_and_refuses_bad_input() {
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/blokus/duo-twogtp.blksgf"
    );
    let dir = std::env::temp_dir().join(format!("tessera-gtp-loadsgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let malformed = file("malformed.blksgf", "(;GM[Blokus Duo];B[e10]");
    let illegal = file("illegal.blksgf", "(;GM[Blokus Duo];B[e10];W[e11])");
    let unknown = file("unknown.blksgf", "(;GM[Go];B[aa])");

    let mut g = Gtp::start(&["--nodes", "50"]);
    assert_eq!(g.ok("known_command loadsgf"), "true");
    assert!(g.ok("list_commands").lines().any(|l| l == "loadsgf"));
    g.ok("set_game Blokus");
    g.ok("play 1 a20,b20");
    let before = g.ok("showboard");
    for (command, message) in [
        (
            "loadsgf /nonexistent/game.blksgf".to_string(),
            "cannot read",
        ),
        (format!("loadsgf {malformed}"), "unexpected end"),
        (format!("loadsgf {illegal}"), "move 2 (white 'e11')"),
        (format!("loadsgf {unknown}"), "unsupported game"),
        (format!("loadsgf {record} 0"), "out of range"),
        (format!("loadsgf {record} 34"), "out of range"),
        (format!("loadsgf {record} x"), "invalid move number"),
        ("loadsgf".to_string(), "loadsgf needs FILE"),
        (format!("loadsgf {record} 1 2"), "loadsgf needs FILE"),
    ] {
        let e = g.err(&command);
        assert!(e.contains(message), "{command}: {e}");
        assert_eq!(
            g.ok("showboard"),
            before,
            "{command} left the position intact"
        );
    }

    // Before move 3: the record's first two moves played, the same as playing them.
    g.ok(&format!("loadsgf {record} 3"));
    let mut h = Gtp::start(&["--nodes", "50"]);
    h.ok("set_game Blokus Duo");
    h.ok("play b e8,d9,e9,f9,e10");
    h.ok("play w j5,i6,j6,k6,j7");
    assert_eq!(g.ok("showboard"), h.ok("showboard"));
    // The position is live: the engine plays on from it, undo goes back into the record.
    let mv = g.ok("genmove b");
    h.ok(&format!("play b {mv}"));
    assert_eq!(g.ok("showboard"), h.ok("showboard"));
    g.ok("undo");
    g.ok("undo");
    h.ok("clear_board");
    h.ok("play b e8,d9,e9,f9,e10");
    assert_eq!(g.ok("showboard"), h.ok("showboard"));

    // Without a move number (or with the one after the last move): the end of the game,
    // scored as the reference program scores it (B+16).
    g.ok(&format!("loadsgf {record}"));
    assert_eq!(g.ok("final_score"), "B+16");
    assert_eq!(g.ok("genmove w"), "pass");
    g.ok(&format!("loadsgf {record} 33"));
    assert_eq!(g.ok("final_score"), "B+16");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tessera-analyze`: every player's value of the position (a game of Pentobi against itself,
/// Black winning 74 to 61); at the end the result itself, during the game two values that add up
/// to one; bad arguments refused; a `genmove` after it plays as one without it.
#[test]
fn tessera_analyze_values_the_position_and_leaves_genmove_alone() {
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/blokus/duo-pentobi.blksgf"
    );
    let mut g = Gtp::start(&["--nodes", "300"]);
    assert_eq!(g.ok("known_command tessera-analyze"), "true");
    assert!(
        g.ok("list_commands")
            .lines()
            .any(|l| l == "tessera-analyze")
    );
    g.ok(&format!("loadsgf {record}"));
    assert_eq!(g.ok("tessera-analyze"), "1.000 0.000");
    g.ok(&format!("loadsgf {record} 11"));
    let values: Vec<f64> = g
        .ok("tessera-analyze 200")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(values.len(), 2);
    assert!((values[0] + values[1] - 1.0).abs() <= 0.002, "{values:?}");
    assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{values:?}");
    for bad in ["0", "x", "-3", "10000001", "1 2"] {
        let e = g.err(&format!("tessera-analyze {bad}"));
        assert!(
            e.contains("tessera-analyze") || e.contains("invalid playouts"),
            "{e}"
        );
    }
    let played = g.ok("genmove b");
    let mut h = Gtp::start(&["--nodes", "300"]);
    h.ok(&format!("loadsgf {record} 11"));
    assert_eq!(h.ok("genmove b"), played);
    // Four players, four values.
    let mut classic = Gtp::start(&["--nodes", "50"]);
    classic.ok("play 1 a20");
    assert_eq!(classic.ok("tessera-analyze 60").split(' ').count(), 4);
}

/// The protocol promises where GTP has them: every command answered exactly once, in order,
/// whatever comes in between (garbage, a line that is not UTF-8); end of input right after a
/// `genmove` still gets its answer, then exit code 0.
#[test]
fn every_command_answered_once_and_end_of_input_after_genmove_exits_zero() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["gtp", "--nodes", "300", "--variant", "duo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut batch = b"1 protocol_version\nflurb\n".to_vec();
    batch.extend_from_slice(b"\xff\xfe\n2 genmove b\n3 all_legal w\n4 genmove w\n");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&batch).unwrap();
    drop(stdin);
    let mut stdout = child.stdout.take().unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
    let answers: Vec<&str> = text
        .split("\n\n")
        .filter(|a| !a.is_empty())
        .map(|a| a.lines().next().unwrap())
        .collect();
    assert_eq!(answers.len(), 6, "{text}");
    assert_eq!(answers[0], "=1 2");
    assert!(answers[1].starts_with("? "), "{answers:?}");
    assert!(answers[2].starts_with("? ") && answers[2].contains("UTF-8"));
    assert!(
        answers[3].starts_with("=2 ") && answers[3].len() > 4,
        "{answers:?}"
    );
    assert!(answers[4].starts_with("=3 "), "{answers:?}");
    assert!(
        answers[5].starts_with("=4 ") && answers[5].len() > 4,
        "{answers:?}"
    );
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_level_plays_whole_games_and_an_unknown_level_is_refused() {
    // Level 1 (3 playouts a move) finishes a Duo game by genmove alone, every move legal.
    let mut gtp = Gtp::start(&["--variant", "duo", "--level", "1", "--nobook"]);
    let mut moves = 0;
    for turn in 0..60 {
        let colour = ["b", "w"][turn % 2];
        let legal = gtp.ok(&format!("all_legal {colour}"));
        let mv = gtp.ok(&format!("genmove {colour}"));
        if mv == "pass" {
            assert!(legal.is_empty(), "a pass with legal moves: {legal}");
            continue;
        }
        assert!(legal.lines().any(|l| l == mv), "{mv} is legal");
        moves += 1;
    }
    assert!(moves > 20, "{moves} moves");
    for bad in ["0", "11", "x"] {
        let status = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["gtp", "--level", bad])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "--level {bad} is refused");
    }
}

/// Callisto over GTP: the variants by `--variant` and `set_game`, the first two moves of each
/// colour single squares outside the centre section, then pieces joining their colour along an
/// edge; a whole two-colour game by genmove, every move in `all_legal`, scored without the
/// single squares.
#[test]
fn callisto_all_legal_genmove_and_a_whole_game() {
    let mut g = Gtp::start(&["--nodes", "200", "--variant", "callisto_2", "--seed", "1"]);
    assert_eq!(g.ok("all_legal b").lines().count(), 120);
    let centre = ["h6", "i6", "g7", "h7", "i7", "j7"];
    for colour in ["b", "w", "b", "w"] {
        let legal = g.ok(&format!("all_legal {colour}"));
        assert!(
            legal.lines().all(|m| !m.contains(',')),
            "single squares only"
        );
        let mv = g.ok(&format!("genmove {colour}"));
        assert!(!mv.contains(',') && !centre.contains(&mv.as_str()), "{mv}");
        assert!(legal.lines().any(|l| l == mv), "{mv} is legal");
    }
    assert_eq!(g.ok("final_score"), "0", "single squares score nothing");
    // Now larger pieces, each touching its colour along an edge.
    let legal = g.ok("all_legal b");
    assert!(legal.lines().any(|m| m.split(',').count() == 5));
    let mv = g.ok("genmove b");
    assert!(legal.lines().any(|l| l == mv), "{mv} is legal");
    let squares = mv.split(',').count() as i32;
    assert!(squares >= 4, "{mv}");
    assert_eq!(g.ok("final_score"), format!("B+{squares}"));
    g.ok("undo");
    // The rest of the game by genmove.
    let (mut idle, mut colour, mut moves) = (0, 0, 4);
    while idle < 2 {
        let c = ["b", "w"][colour];
        let legal = g.ok(&format!("all_legal {c}"));
        let mv = g.ok(&format!("genmove {c}"));
        if mv == "pass" {
            assert!(legal.is_empty());
            idle += 1;
        } else {
            assert!(legal.lines().any(|l| l == mv), "{mv} is legal");
            idle = 0;
            moves += 1;
        }
        colour = 1 - colour;
    }
    assert!(moves > 20, "{moves} moves");
    let board = g.ok("showboard");
    assert!(board.contains("game over"), "{board}");
    let score = g.ok("final_score");
    assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"));
    // The other variants by their reference-engine names.
    for (name, colour, first) in [
        ("Callisto", "4", 264),
        ("Callisto Two-Player Four-Color", "3", 264),
        ("Callisto Three-Player", "3", 196),
        ("callisto_2", "w", 120),
    ] {
        g.ok(&format!("set_game {name}"));
        assert_eq!(g.ok(&format!("all_legal {colour}")).lines().count(), first);
    }
    g.ok("set_game Callisto Three-Player");
    g.err("all_legal 4");
    let shown = g.ok("showboard");
    assert_eq!(
        shown.matches(',').count(),
        24,
        "the centre section: {shown}"
    );
    // The rules' refusals.
    g.ok("set_game Callisto Two-Player");
    assert!(
        g.err("play b h3,h4")
            .contains("first two pieces are single squares")
    );
    assert!(g.err("play b h8").contains("centre section"));
    for mv in ["h3", "h14", "a8", "p8"] {
        let c = if mv == "h3" || mv == "a8" { "b" } else { "w" };
        g.ok(&format!("play {c} {mv}"));
    }
    assert!(
        g.err("play b i4,i5").contains("along an edge"),
        "a corner only"
    );
    g.ok("play b h4,i4");
    g.ok("play b i5,j5,k5");
    assert_eq!(g.ok("final_score"), "B+5");
}

/// Nexos over GTP: Pentobi's game names, its count of first moves (515 for every colour), its
/// notation (segments only), a move refused with an error, its records replayed to its final
/// scores, and a whole four-colour game by genmove, every move in `all_legal`.
#[test]
fn nexos_rules_records_and_a_whole_game() {
    let mut g = Gtp::start(&["--nodes", "30", "--seed", "1"]);
    g.ok("set_game Nexos");
    for colour in 1..=4 {
        assert_eq!(g.ok(&format!("all_legal {colour}")).lines().count(), 515);
    }
    let e = g.err("play 1 e18");
    assert!(
        e.contains("one of its starting segments (e22 d21 f21 e20)"),
        "off the starting segments: {e}"
    );
    let e = g.err("play 1 e21");
    assert!(
        e.contains("'e21' in move 'e21' is a junction, not a segment"),
        "{e}"
    );
    assert!(g.err("play 1 zz9").contains("bad segment 'zz9'"));
    // An upright bar through the start: four segments, named without its junctions.
    g.ok("play 1 e22,e20,e18,e16");
    assert_eq!(g.ok("final_score"), "4 0 0 0");
    assert!(g.err("play 1 e20").contains("illegal move"), "covered");
    pentobi_records_score(&mut g, &[("nexos2", "B+2"), ("nexos", "73 59 79 81")]);
    g.ok("set_game Nexos");
    genmove_to_the_end(&mut g, &["1", "2", "3", "4"]);
}

/// Loads each committed Pentobi record (`tests/data/blokus/NAME-pentobi.blksgf`) and checks
/// `final_score` against Pentobi's.
fn pentobi_records_score(g: &mut Gtp, records: &[(&str, &str)]) {
    for (name, score) in records {
        let record = format!(
            "{}/tests/data/blokus/{name}-pentobi.blksgf",
            env!("CARGO_MANIFEST_DIR")
        );
        g.ok(&format!("loadsgf {record}"));
        assert_eq!(g.ok("final_score"), *score, "{name}: Pentobi's score");
    }
}

/// Plays a whole game by `genmove`, the colours in turn, each move one that `all_legal`
/// listed and a pass only without one, until every colour passes.
fn genmove_to_the_end(g: &mut Gtp, colours: &[&str]) {
    let (mut passes, mut turn) = (0, 0);
    while passes < colours.len() {
        let colour = colours[turn % colours.len()];
        let legal = g.ok(&format!("all_legal {colour}"));
        let mv = g.ok(&format!("genmove {colour}"));
        if mv == "pass" {
            assert!(legal.is_empty(), "passes only without a move");
            passes += 1;
        } else {
            assert!(legal.lines().any(|l| l == mv), "{mv} is legal");
            passes = 0;
        }
        turn += 1;
    }
}

/// GembloQ over GTP: Pentobi's game names, its count of first moves that its `play` accepts (82
/// in Two-Player), a first piece refused for covering only half of the starting square, quarter
/// points, Pentobi's records replayed to its final scores, and a whole game by genmove at level
/// 1 (three playouts a move), every move in `all_legal`.
#[test]
fn gembloq_rules_records_and_a_whole_game() {
    let mut g = Gtp::start(&["--seed", "1", "--level", "1"]);
    g.ok("set_game GembloQ Two-Player");
    for colour in ["b", "w"] {
        assert_eq!(g.ok(&format!("all_legal {colour}")).lines().count(), 82);
    }
    let e = g.err("play b p18,q18,p19,q19,r19,s19,p20,q20,r20,s20,o21,p21,q21,o22");
    assert!(e.contains("all four"), "half of the starting square: {e}");
    assert!(
        g.err("play b n21,o21,n20,o20").contains("invalid move"),
        "no piece"
    );
    g.ok("play b o22,n22,o21,n21");
    assert_eq!(g.ok("final_score"), "B+1");
    pentobi_records_score(
        &mut g,
        &[("gembloq2", "B+7.5"), ("gembloq", "73.5 69 66 74.5")],
    );
    g.ok("set_game GembloQ Two-Player");
    genmove_to_the_end(&mut g, &["b", "w"]);
    assert!(g.ok("final_score").starts_with(['B', 'W', '0']));
}

/// `genmove` at the start of a game plays the variant's built-in book move (the first move of
/// `data/blokus/book_<variant>.txt`) without a search; with `--nobook` it searches (the search
/// logs its budget).
/// `set_random_seed` makes the next moves those of an engine started with that seed, whatever
/// it searched before.
#[test]
fn set_random_seed_replays_the_moves_of_a_fresh_engine() {
    let args = [
        "--variant",
        "duo",
        "--nodes",
        "300",
        "--nobook",
        "--seed",
        "4",
    ];
    let mut fresh = Gtp::start(&args);
    let first: Vec<String> = ["b", "w", "b"]
        .iter()
        .map(|c| fresh.ok(&format!("genmove {c}")))
        .collect();
    let mut used = Gtp::start(&args);
    used.ok("set_random_seed 9");
    used.ok("genmove b");
    used.ok("genmove w");
    used.ok("clear_board");
    used.ok("set_random_seed 4");
    let again: Vec<String> = ["b", "w", "b"]
        .iter()
        .map(|c| used.ok(&format!("genmove {c}")))
        .collect();
    assert_eq!(first, again);
}

#[test]
fn the_book_answers_the_first_genmove_unless_nobook() {
    for variant in ["classic", "trigon_3", "nexos"] {
        let path = format!(
            "{}/data/blokus/book_{variant}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let first = (text.lines())
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .find(|l| !l.is_empty() && !l.starts_with("variant "))
            .unwrap();
        for nobook in [false, true] {
            let mut args = vec!["gtp", "--variant", variant, "--nodes", "30"];
            if nobook {
                args.push("--nobook");
            }
            let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
                .args(&args)
                .env("RUST_LOG", "debug")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"genmove 1\nquit\n")
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let (stdout, stderr) = (
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
            );
            let answer = stdout.lines().next().unwrap_or("");
            let searched = stderr.contains("budget");
            assert_eq!(searched, nobook, "{variant} {args:?}: {stderr}");
            if !nobook {
                assert_eq!(answer, format!("= {first}"), "{variant}");
            }
        }
    }
}
