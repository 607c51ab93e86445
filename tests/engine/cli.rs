//! The `selfplay`, `bench`, `compare` and `book` subcommands: deterministic, with real statistics.

use std::process::Command;
use tessera::games::blockudoku::eval::DEFAULT_WEIGHTS;

fn tessera(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs tessera expecting it to fail with exit code 2; returns what it wrote on stderr.
fn tessera_fails<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    stderr
}

/// The value after `key` on the line that holds it.
fn field(text: &str, key: &str) -> String {
    text.split_whitespace()
        .skip_while(|w| *w != key)
        .nth(1)
        .unwrap_or_else(|| panic!("no {key} in {text}"))
        .to_string()
}

#[test]
fn selfplay_is_reproducible_and_independent_of_jobs() {
    // Four short depth-1 games of a seed.
    let games = |seed| {
        let args = "selfplay blockudoku --games 4 --depth 1 --cap 40 --seed";
        let mut args: Vec<&str> = args.split(' ').collect();
        args.push(seed);
        args
    };
    let args = games("9");
    let one = tessera(&args);
    let mut parallel = args.clone();
    parallel.extend(["--jobs", "2"]);
    let two = tessera(&parallel);
    for key in ["games", "deaths", "rounds", "median", "score_mean"] {
        assert_eq!(field(&one, key), field(&two, key), "{key}: {one} / {two}");
    }
    assert_eq!(field(&one, "games"), "4");
    let rounds: u64 = field(&one, "rounds").parse().unwrap();
    let deaths: u64 = field(&one, "deaths").parse().unwrap();
    assert!(rounds > 0 && rounds <= 160);
    assert!(deaths <= 4);
    let other_seed = tessera(&games("10"));
    assert_ne!(
        field(&one, "score_mean"),
        field(&other_seed, "score_mean"),
        "seeds matter"
    );
}

#[test]
fn selfplay_from_start_boards_writes_jsonl() {
    let dir = std::env::temp_dir().join(format!("tessera-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let starts = dir.join("starts.txt");
    let checker =
        "#.#.#.#.#/.#.#.#.#./#.#.#.#.#/.#.#.#.#./#.#.#.#.#/.#.#.#.#./#.#.#.#.#/.#.#.#.#./#.#.#.#.#";
    std::fs::write(&starts, format!("# a lost board\n{checker}\n")).unwrap();
    let jsonl = dir.join("games.jsonl");
    let out = tessera(&[
        "selfplay",
        "blockudoku",
        "--games",
        "3",
        "--depth",
        "2",
        "--cap",
        "5",
        "--starts",
        starts.to_str().unwrap(),
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--death-chance",
        "30",
    ]);
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(lines.lines().count(), 3);
    assert!(
        lines
            .lines()
            .all(|l| l.starts_with("{\"game\":") && l.contains("\"rounds\":"))
    );
    // From a checkerboard of single holes most hands (anything but monominoes) are lost at once.
    let deaths: u64 = field(&out, "deaths").parse().unwrap();
    assert!(deaths >= 2, "{out}");
    // Its exact chance of losing is 1 - 1/47^3 (three monominoes); the games lost at once
    // weigh most in the chance per round asked.
    let chance: f64 = field(&out, "death_chance_per_round").parse().unwrap();
    assert!(chance > 0.5 && chance < 1.0, "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_first_game_continues_on_the_same_deals() {
    let dir = std::env::temp_dir().join(format!("tessera-cli-first-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let mut args = vec![
            "selfplay",
            "blockudoku",
            "--depth",
            "2",
            "--cap",
            "40",
            "--seed",
            "3",
            "--jsonl",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        tessera(&args);
        let text = std::fs::read_to_string(&path).unwrap();
        // Each game without its CPU time: index, deal, rounds, score.
        text.lines()
            .map(|l| {
                let keys = ["game", "seed", "rounds", "score"];
                keys.map(|k| json_value(l, k).to_string()).join(" ")
            })
            .collect::<Vec<String>>()
    };
    let whole = run("whole.jsonl", &["--games", "3"]);
    let rest = run("rest.jsonl", &["--games", "2", "--first-game", "1"]);
    assert_eq!(rest, whole[1..].to_vec());
    assert!(rest[0].starts_with("1 3 "), "{rest:?}");
    assert_ne!(whole[0], whole[1], "the deals differ by game");
    std::fs::remove_dir_all(&dir).ok();
}

/// The value of `key` in the JSON object `text` (a number, `true`/`false` or a string's
/// content), at its first occurrence.
fn json_value<'a>(text: &'a str, key: &str) -> &'a str {
    let at = text
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no {key} in {text}"));
    let rest = &text[at + key.len() + 3..];
    let rest = rest.strip_prefix('"').unwrap_or(rest);
    let end = rest.find(['"', ',', '}']).unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn selfplay_distill_writes_the_look_ahead_labels() {
    let dir = std::env::temp_dir().join(format!("tessera-distill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let starts = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/blockudoku/starts/hard100.txt"
    );
    let run = |name: &str, jobs: &str| {
        let path = dir.join(name);
        tessera(&[
            "selfplay",
            "blockudoku",
            "--games",
            "4",
            "--depth",
            "4",
            "--cap",
            "3",
            "--seed",
            "3",
            "--starts",
            starts,
            "--jobs",
            jobs,
            "--distill",
            path.to_str().unwrap(),
            // The teacher's labels come from the linear evaluation alone (the trainer
            // recovers its weights from `eval`).
            "--eval-file",
            "handmade",
        ]);
        std::fs::read_to_string(path).unwrap()
    };
    let text = run("one.jsonl", "1");
    assert!(text.lines().count() >= 4, "{text}");
    for line in text.lines() {
        let board = json_value(line, "board");
        assert!(
            board.matches('#').count() >= 28,
            "looked ahead only when crowded: {line}"
        );
        let hand = &line[line.find("\"hand\":[").unwrap()..line.find("],").unwrap()];
        assert_eq!(hand.matches('"').count(), 2 + 3 * 2, "three shapes: {line}");
        let candidates: Vec<(i64, i64, i64, bool)> = line
            .split("{\"board\":")
            .skip(1)
            .map(|c| {
                let number = |key| json_value(c, key).parse::<i64>().unwrap();
                // The static value is the default weights times the features.
                let features = &c[c.find("\"features\":[").unwrap() + 12..c.find(']').unwrap()];
                let dot: i64 = features
                    .split(',')
                    .zip(DEFAULT_WEIGHTS.0)
                    .map(|(f, w)| f.parse::<i64>().unwrap() * i64::from(w))
                    .sum();
                assert_eq!(features.split(',').count(), DEFAULT_WEIGHTS.0.len(), "{c}");
                assert_eq!(dot, number("eval"), "{c}");
                (
                    number("eval"),
                    number("total"),
                    number("samples"),
                    json_value(c, "chosen") == "true",
                )
            })
            .collect();
        assert!((2..=8).contains(&candidates.len()), "{line}");
        assert!(
            candidates.windows(2).all(|w| w[0].0 >= w[1].0),
            "static order: {line}"
        );
        assert!(candidates.iter().all(|c| c.2 == 8 || c.2 == 24), "{line}");
        let chosen: Vec<usize> = (0..candidates.len()).filter(|&i| candidates[i].3).collect();
        assert_eq!(chosen.len(), 1, "{line}");
        // The choice is the best total among the boards sampled most, ties to the earlier.
        let most = candidates.iter().map(|c| c.2).max().unwrap();
        let best = (0..candidates.len())
            .filter(|&i| candidates[i].2 == most)
            .max_by_key(|&i| (candidates[i].1, std::cmp::Reverse(i)))
            .unwrap();
        assert_eq!(chosen[0], best, "{line}");
    }
    assert_eq!(run("two.jsonl", "2"), text, "independent of --jobs");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_distill_teacher_labels_the_players_positions() {
    let dir = std::env::temp_dir().join(format!("tessera-dagger-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, extra: &[&str]| {
        let (labels, games) = (dir.join(format!("{name}.labels")), dir.join(name));
        let mut args = vec!["selfplay", "blockudoku", "--games", "2", "--cap", "4"];
        args.extend_from_slice(&["--seed", "41", "--jsonl", games.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let with_labels = extra.contains(&"--distill");
        let labels_path = labels.to_str().unwrap().to_owned();
        if with_labels {
            let at = args.iter().position(|a| *a == "--distill").unwrap();
            args.insert(at + 1, &labels_path);
        }
        tessera(&args);
        let games = std::fs::read_to_string(games).unwrap();
        let scores: Vec<String> = games
            .lines()
            .map(|l| format!("{} {}", json_value(l, "rounds"), json_value(l, "score")))
            .collect();
        let labels = with_labels.then(|| std::fs::read_to_string(labels).unwrap());
        (scores, labels)
    };
    let (played, _) = run("player", &["--depth", "2"]);
    let teacher = ["--distill-teacher", "handmade"];
    let (dagger, labels) = run(
        "dagger",
        &[&["--depth", "2", "--distill"], &teacher[..]].concat(),
    );
    assert_eq!(dagger, played, "the player plays, not the teacher");
    let labels = labels.unwrap();
    assert_eq!(labels.lines().count(), 8, "a label every round: {labels}");
    // The first hand of each game meets the same board, so the separate teacher labels it as
    // the teacher that plays does (the hand-made look-ahead on every board).
    let own = [
        "--depth",
        "4",
        "--lookahead-from",
        "0",
        "--eval-file",
        "handmade",
    ];
    let (_, own_labels) = run("teacher", &[&own[..], &["--distill"]].concat());
    let first = |text: &str| text.lines().next().unwrap().to_owned();
    assert_eq!(first(&labels), first(&own_labels.unwrap()));
    let no_file = tessera_fails(&[
        "selfplay",
        "blockudoku",
        "--depth",
        "2",
        "--distill-teacher",
        "handmade",
    ]);
    assert!(
        no_file.contains("--distill-teacher needs --distill"),
        "{no_file}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_time_limit_ends_a_long_run_with_its_rounds_counted() {
    let out = tessera(&[
        "selfplay",
        "blockudoku",
        "--games",
        "50",
        "--movetime",
        "20",
        "--cap",
        "100000",
        "--time-limit",
        "0.5",
    ]);
    // The first game is still alive when the time is up: it ends uncapped but counted, and no
    // other game starts.
    assert_eq!(field(&out, "games"), "1", "{out}");
    assert_eq!(field(&out, "deaths"), "0", "{out}");
    let rounds: u64 = field(&out, "rounds").parse().unwrap();
    assert!(rounds >= 1, "{out}");
}

#[test]
fn compare_tests_death_rates_and_paired_games() {
    let dir = std::env::temp_dir().join(format!("tessera-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = |game: u32, rounds: u32, died: bool| {
        format!(
            "{{\"game\":{game},\"seed\":5,\"start\":0,\"rounds\":{rounds},\"died\":{died},\"score\":0,\"cpu_ms\":1.0}}\n"
        )
    };
    // A loses games 0-9 after 10 rounds; B loses only game 0 and survives the others to 10.
    let a: String = (0..10).map(|g| line(g, 10, true)).collect();
    let b: String = (0..10).map(|g| line(g, 10, g == 0)).collect();
    let (fa, fb) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::fs::write(&fa, a).unwrap();
    std::fs::write(&fb, b).unwrap();
    let out = tessera(&["compare", fa.to_str().unwrap(), fb.to_str().unwrap()]);
    assert!(out.contains("A: games 10 deaths 10 rounds 100"), "{out}");
    assert!(out.contains("B: games 10 deaths 1 rounds 100"), "{out}");
    // 11 deaths, each in A with probability 1/2: P(X >= 10) = 12/2048, two-sided 0.0117.
    assert!(
        out.contains("rates: deaths per round A/B 10.000 p 0.0117"),
        "{out}"
    );
    // 9 games lost by A only: sign test p = 2/512.
    assert!(
        out.contains("paired: games 10 lost_by_both 1 only_A 9 only_B 0 p 0.0039"),
        "{out}"
    );
    let missing = tessera_fails(&["compare", fa.to_str().unwrap(), "/nonexistent.jsonl"]);
    assert!(missing.starts_with("error: "), "{missing}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn selfplay_rejects_bad_arguments() {
    assert!(tessera_fails(&["selfplay", "chess", "--depth", "1"]).contains("blockudoku"));
    // An option of the other game is refused, not silently ignored.
    for (args, message) in [
        (
            ["selfplay", "sudoku", "--time-limit", "5"],
            "--time-limit is for selfplay blockudoku",
        ),
        (
            ["selfplay", "blockudoku", "--opponent", "random"],
            "--opponent is for selfplay sudoku",
        ),
    ] {
        let stderr = tessera_fails(&args);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn blokus_bench_prints_a_stable_visit_signature() {
    let args = ["bench", "--game", "blokus", "--playouts", "400"];
    let (first, second) = (tessera(&args), tessera(&args));
    let signature = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Visits signature"))
            .expect("signature")
            .rsplit(' ')
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    assert_eq!(signature(&first), signature(&second));
    // Four positions; the most visited root moves hold a real share of the playouts.
    assert_eq!(
        first.lines().filter(|l| l.starts_with("position ")).count(),
        4
    );
    assert!(signature(&first) > 4 * 10 && signature(&first) <= 3 * 400 + 100);
}

#[test]
fn bench_prints_a_stable_node_signature() {
    let first = tessera(&["bench", "--depth", "2"]);
    let second = tessera(&["bench", "--depth", "2"]);
    let nodes = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("Nodes searched"))
            .expect("signature")
            .to_string()
    };
    assert_eq!(nodes(&first), nodes(&second));
    let signature: u64 = nodes(&first).rsplit(' ').next().unwrap().parse().unwrap();
    assert!(signature > 1000);
    assert_eq!(
        first.lines().filter(|l| l.starts_with("position ")).count(),
        6
    );
}

#[test]
fn selfplay_sudoku_against_another_engine_binary_with_an_sprt() {
    let engine = format!("engine:{}", env!("CARGO_BIN_EXE_tessera"));
    let out = tessera(&[
        "selfplay",
        "sudoku",
        "--box",
        "2x2",
        "--games",
        "4",
        "--depth",
        "3",
        "--openings",
        "2",
        "--opponent",
        &engine,
        "--sprt",
        "0,50",
    ]);
    assert!(out.contains("games 4 "), "{out}");
    assert!(out.contains("forfeits 0"), "{out}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("engine: "))
        .expect("a summary");
    assert!(
        summary.contains("score ") && summary.contains("Elo "),
        "{summary}"
    );
    assert!(out.contains("sprt elo0 0 elo1 50: llr "), "{out}");
}

/// `tessera book` writes a book: the variant, the first move, then one answer per first move
/// asked for; the same seed gives the same book whatever `--jobs` is.
#[test]
fn book_writes_a_readable_reproducible_book() {
    let dir = std::env::temp_dir();
    let a = dir.join(format!("tessera-book-a-{}.txt", std::process::id()));
    let b = dir.join(format!("tessera-book-b-{}.txt", std::process::id()));
    for (path, jobs) in [(&a, "1"), (&b, "2")] {
        let p = path.to_str().unwrap();
        let args = [
            "book",
            "--variant",
            "duo",
            "--playouts",
            "300",
            "--answers",
            "3",
            "--jobs",
            jobs,
            "--out",
            p,
        ];
        tessera(&args);
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(
        text,
        std::fs::read_to_string(&b).unwrap(),
        "jobs do not matter"
    );
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
    let lines: Vec<&str> = (text.lines())
        .filter(|l| !l.starts_with('#') && !l.starts_with("variant"))
        .collect();
    assert!(text.contains("\nvariant duo\n"));
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0].split_whitespace().count(), 1, "the first move");
    for l in &lines[1..] {
        assert_eq!(
            l.split_whitespace().count(),
            2,
            "a first move and its answer: {l}"
        );
    }
}

#[test]
fn chances_sums_the_exact_chances_of_each_players_boards() {
    use tessera::games::blockudoku::board::Board;
    use tessera::games::blockudoku::danger::death_chance;
    use tessera::games::blockudoku::piece::PieceSet;
    let dir = std::env::temp_dir().join(format!("tessera-chances-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let crowded = [
        "#########/#########/#########/###.#####/###.#####/####..###/#########/#########/.........",
        "####.####/####.####/####.####/####.####/####.####/##......./#########/#########/#########",
        "###...###/###...###/###...###/#########/#########/####.####/###...###/####.####/#########",
    ];
    let set = PieceSet::builtin("standard47").unwrap();
    let chance = |b: &str| death_chance(Board::parse(b).unwrap(), &set);
    let boards = dir.join("boards.txt");
    std::fs::write(
        &boards,
        format!(
            "{} player 1 game 0\n{} player 1 game 0\n{} player 2 game 1\n",
            crowded[0], crowded[1], crowded[2]
        ),
    )
    .unwrap();
    let jsonl = dir.join("run.jsonl");
    let line = |p: u32, g: u32, died: bool| {
        format!("{{\"player\":{p},\"game\":{g},\"rounds\":30,\"died\":{died},\"engine\":\"x\"}}\n")
    };
    std::fs::write(
        &jsonl,
        [
            line(1, 0, true),
            line(1, 1, false),
            line(2, 0, false),
            line(2, 1, false),
        ]
        .concat(),
    )
    .unwrap();
    let out = dir.join("out.jsonl");
    let args = |o: &std::path::Path| {
        vec![
            "chances".to_string(),
            boards.display().to_string(),
            jsonl.display().to_string(),
            "--out".to_string(),
            o.display().to_string(),
        ]
    };
    let text = tessera(&args(&out).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        text.contains("player 1 games 2 rounds 61 death_chance_per_round"),
        "{text}"
    );
    assert!(
        text.contains("player 2 games 2 rounds 60 death_chance_per_round"),
        "{text}"
    );
    // Every test board has 36+ cells: player 1's two are in the last band, none below.
    let bands = "by filled cells: 0+: 0 boards 0.000, 27+: 0 boards 0.000, 30+: 0 boards 0.000, \
                 33+: 0 boards 0.000, 36+: 2 boards";
    assert!(text.contains(bands), "{text}");
    let written = std::fs::read_to_string(&out).unwrap();
    let chances: Vec<f64> = written
        .lines()
        .map(|l| {
            field(&l.replace([',', ':', '}'], " "), "\"chance\"")
                .parse()
                .unwrap()
        })
        .collect();
    let expected = [
        chance(crowded[0]) + chance(crowded[1]),
        0.0,
        0.0,
        chance(crowded[2]),
    ];
    for (got, want) in chances.iter().zip(expected) {
        assert!((got - want).abs() <= 1e-6 * want.max(1e-6), "{got} {want}");
    }
    assert!(
        expected[0] > 0.0 && expected[3] > 0.0,
        "the boards can lose"
    );
    // Boards of a game the referee's file does not have: refused.
    std::fs::write(&jsonl, line(1, 0, true)).unwrap();
    assert!(tessera_fails(&args(&out)).contains("player 2 game 1 has boards"));
    std::fs::remove_dir_all(&dir).unwrap();
}
