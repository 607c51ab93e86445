//! `tessera sudoku ...` driven through pipes: real binary, real stdin/stdout/stderr.
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `tessera sudoku ARGS` with `input` on stdin.
fn sudoku(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .arg("sudoku")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tessera");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sudoku")
        .join(name)
}

fn data_lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn value(ch: char) -> usize {
    match ch {
        '.' | '0' => 0,
        '1'..='9' => ch as usize - '0' as usize,
        _ => ch as usize - 'A' as usize + 10,
    }
}

/// Independent check: `solution` is a complete valid grid for m x n boxes extending `puzzle`.
fn assert_solves(m: usize, n: usize, puzzle: &str, solution: &str) {
    let size = m * n;
    let p: Vec<usize> = puzzle.chars().map(value).collect();
    let s: Vec<usize> = solution.chars().map(value).collect();
    assert_eq!(s.len(), size * size, "solution length for {puzzle}");
    for (i, (&a, &b)) in p.iter().zip(&s).enumerate() {
        assert!(a == 0 || a == b, "clue {i} changed in {solution}");
        assert!((1..=size).contains(&b), "cell {i} of {solution}");
    }
    let unit_ok = |cells: Vec<usize>| {
        let mut seen = vec![false; size + 1];
        cells
            .iter()
            .all(|&c| !std::mem::replace(&mut seen[s[c]], true))
    };
    for k in 0..size {
        assert!(
            unit_ok((0..size).map(|c| k * size + c).collect()),
            "row {k}"
        );
        assert!(
            unit_ok((0..size).map(|r| r * size + k).collect()),
            "column {k}"
        );
        let (r0, c0) = (k / m * m, k % m * n);
        let cells = (0..size)
            .map(|i| (r0 + i / n) * size + c0 + i % n)
            .collect();
        assert!(unit_ok(cells), "box {k} of {solution}");
    }
}

fn shape_of(spec: &str) -> (usize, usize) {
    let (m, n) = spec.split_once('x').unwrap();
    (m.parse().unwrap(), n.parse().unwrap())
}

#[test]
fn solves_nine_by_nine_dataset_puzzles() {
    let puzzles = data_lines("nine.txt");
    let solutions = data_lines("nine_solutions.txt");
    let run = sudoku(&["solve", data("nine.txt").to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines(), solutions);
    for (p, s) in puzzles.iter().zip(&solutions) {
        assert_solves(3, 3, p, s);
    }
    let counts = sudoku(&["solve", "--count", "5"], &puzzles.join("\n"));
    assert!(
        counts.lines().iter().all(|&c| c == "1"),
        "{}",
        counts.stdout
    );
}

#[test]
fn solves_every_box_shape() {
    for line in data_lines("shapes.txt") {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [shape, puzzle, solution] = fields[..] else {
            panic!("bad data line {line}");
        };
        let (m, n) = shape_of(shape);
        assert_solves(m, n, puzzle, solution);
        let run = sudoku(&["solve", "--box", shape], &format!("{puzzle}\n"));
        assert_eq!(run.stdout.trim(), solution, "{shape}: {}", run.stderr);
        let count = sudoku(&["solve", "--box", shape, "--count", "2"], puzzle);
        assert_eq!(count.stdout.trim(), "1", "{shape}");
    }
}

#[test]
fn square_boxes_need_no_box_option() {
    let run = sudoku(&["solve"], "1...\n");
    assert_eq!(run.stdout.trim(), "invalid"); // 4 cells: no default shape
    let run = sudoku(&["solve", "--count", "1000"], "................\n");
    assert_eq!(run.stdout.trim(), "288");
    let run = sudoku(&["solve", "--count", "1000"], "1234............\n");
    assert_eq!(run.stdout.trim(), "12");
}

#[test]
fn counts_multiple_solutions() {
    let run = sudoku(
        &[
            "solve",
            "--count",
            "1000",
            data("multiple.txt").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.lines(), vec!["872", "83", "38", "146"]);
    let run = sudoku(
        &[
            "solve",
            "--count",
            "2",
            data("multiple.txt").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.lines(), vec!["2"; 4]);
    // Rows 0 and 1 of a pattern grid emptied: three 3-cycles of column pairs, 2^3 solutions.
    let grid = "123456789456789123789123456234567891567891234891234567345678912678912345912345678";
    let puzzle = format!("{}{}", ".".repeat(18), &grid[18..]);
    let run = sudoku(&["solve", "--count", "100"], &puzzle);
    assert_eq!(run.stdout.trim(), "8");
    // Only the first row given: 28,200,960 6x6 grids / 6! first rows.
    let run = sudoku(
        &["solve", "--box", "2x3", "--count", "100000"],
        &format!("123456{}", ".".repeat(30)),
    );
    assert_eq!(run.stdout.trim(), (28_200_960 / 720).to_string());
}

#[test]
fn reports_bad_lines_and_keeps_going() {
    let good = data_lines("nine.txt")[0].clone();
    let solution = data_lines("nine_solutions.txt")[0].clone();
    let contradictory = format!("55{}", ".".repeat(79));
    // Legal clues, but no value fits the last cell of row 0 (1..8 in the row, 9 below it).
    let unsolvable = format!("12345678.{}9{}", ".".repeat(17), ".".repeat(54));
    let input = format!(
        "# comment\n{good}\n123\n\n{}x\n{contradictory}\n{unsolvable}\n{good}\n",
        ".".repeat(80)
    );
    let run = sudoku(&["solve"], &input);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.lines(),
        vec![
            &solution[..],
            "invalid",
            "invalid",
            "invalid",
            "none",
            &solution[..]
        ]
    );
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 3, "{}", run.stderr);
    assert!(errors[0].starts_with("error: line 3: "), "{}", errors[0]);
    assert!(errors[1].starts_with("error: line 5: ") && errors[1].contains("'x'"));
    assert!(errors[2].starts_with("error: line 6: ") && errors[2].contains("contradictory"));
    let run = sudoku(&["solve", "--count", "2"], &unsolvable);
    assert_eq!(run.stdout.trim(), "0");
    // 36 cells without --box is ambiguous (2x3 or 3x2); G is above 9 in a 9x9 grid.
    let run = sudoku(
        &["solve"],
        &format!("{}\nG{}\n", ".".repeat(36), ".".repeat(80)),
    );
    assert_eq!(run.lines(), vec!["invalid", "invalid"]);
    assert!(run.stderr.contains("--box") && run.stderr.contains("above 9"));
}

#[test]
fn unreadable_file_fails() {
    let run = sudoku(&["solve", "/nonexistent/puzzles.txt"], "");
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("cannot read"));
    assert_ne!(sudoku(&["solve", "--box", "7x7"], "").code, 0);
}

/// Checks through the binary that each puzzle is unique and, if asked, minimal.
fn assert_unique_and_minimal(shape: &str, puzzles: &[&str], minimal: bool) {
    let counts = sudoku(
        &["solve", "--box", shape, "--count", "2"],
        &puzzles.join("\n"),
    );
    assert!(
        counts.lines().iter().all(|&c| c == "1"),
        "{shape}: {}",
        counts.stdout
    );
    if minimal {
        // Every clue removed in turn must leave a puzzle with 2 or more solutions.
        let mut reduced = Vec::new();
        for p in puzzles {
            for (i, ch) in p.char_indices().filter(|&(_, c)| c != '.') {
                reduced.push(format!("{}.{}", &p[..i], &p[i + ch.len_utf8()..]));
            }
        }
        let counts = sudoku(
            &["solve", "--box", shape, "--count", "2"],
            &reduced.join("\n"),
        );
        assert_eq!(counts.lines().len(), reduced.len());
        assert!(
            counts.lines().iter().all(|&c| c == "2"),
            "{shape} not minimal"
        );
    }
}

#[test]
fn generates_unique_minimal_puzzles_for_every_shape() {
    for shape in ["2x2", "2x3", "3x2", "3x3", "3x4", "4x3", "4x4"] {
        let count = if shape == "4x4" { "2" } else { "10" };
        let run = sudoku(
            &["generate", "--box", shape, "--count", count, "--seed", "1"],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let puzzles = run.lines();
        assert_eq!(puzzles.len(), count.parse::<usize>().unwrap());
        let (m, n) = shape_of(shape);
        assert!(puzzles.iter().all(|p| p.len() == (m * n) * (m * n)));
        assert_unique_and_minimal(shape, &puzzles, true);
    }
}

#[test]
fn generation_is_reproducible_from_the_seed() {
    let args = ["generate", "--count", "5", "--seed", "77"];
    let a = sudoku(&args, "");
    assert_eq!(a.stdout, sudoku(&args, "").stdout);
    assert_ne!(
        a.stdout,
        sudoku(&["generate", "--count", "5", "--seed", "78"], "").stdout
    );
}

#[test]
fn generates_to_a_clue_count() {
    let run = sudoku(
        &["generate", "--count", "5", "--seed", "3", "--clues", "32"],
        "",
    );
    let puzzles = run.lines();
    assert_eq!(puzzles.len(), 5);
    for p in &puzzles {
        assert_eq!(p.chars().filter(|&c| c != '.').count(), 32);
    }
    assert_unique_and_minimal("3x3", &puzzles, false);
    let run = sudoku(
        &[
            "generate",
            "--count",
            "2",
            "--seed",
            "3",
            "--clues",
            "26",
            "--minimal",
        ],
        "",
    );
    let puzzles = run.lines();
    assert_eq!(puzzles.len(), 2, "{}", run.stderr);
    assert!(
        puzzles
            .iter()
            .all(|p| p.chars().filter(|&c| c != '.').count() == 26)
    );
    assert_unique_and_minimal("3x3", &puzzles, true);
    let impossible = sudoku(&["generate", "--seed", "3", "--clues", "10"], "");
    assert_ne!(impossible.code, 0);
    assert!(impossible.stderr.contains("10 clues"));
}

#[test]
fn generates_solved_grids_with_both_methods() {
    for method in ["backtrack", "shuffle"] {
        for shape in ["2x3", "3x3", "4x3"] {
            let args = [
                "generate", "--solved", "--box", shape, "--count", "5", "--method", method,
            ];
            let run = sudoku(&[&args[..], &["--seed", "9"]].concat(), "");
            let (m, n) = shape_of(shape);
            let grids = run.lines();
            assert_eq!(grids.len(), 5);
            for g in grids {
                assert_solves(m, n, &".".repeat(g.len()), g);
            }
        }
    }
}

#[test]
fn generate_info_reports_grade() {
    let run = sudoku(&["generate", "--count", "3", "--seed", "5", "--info"], "");
    for line in run.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 7, "{line}");
        let clues = fields[0].chars().filter(|&c| c != '.').count();
        assert_eq!(fields[1], format!("clues={clues}"));
        assert!(fields[2].starts_with("guesses=") && fields[3].starts_with("grade="));
        assert_eq!(fields[4], "minimal=true");
        assert!(fields[5].starts_with("level=") && fields[6].starts_with("score="));
    }
    let run = sudoku(
        &[
            "generate", "--count", "2", "--seed", "5", "--grade", "easy", "--info",
        ],
        "",
    );
    assert!(
        run.lines()
            .iter()
            .all(|l| l.contains("guesses=0\tgrade=easy"))
    );
}

#[test]
fn show_draws_box_separators() {
    let run = sudoku(
        &["show", "--box", "2x3"],
        &format!("123456{}\n", ".".repeat(30)),
    );
    let lines = run.lines();
    assert_eq!(lines[0], "1 2 3 | 4 5 6");
    assert_eq!(lines[1], ". . . | . . .");
    assert_eq!(lines[2], "-------------");
    assert_eq!(lines.len(), 9); // 6 rows, 2 separators, 1 blank line
}

#[test]
fn bench_reports_both_passes() {
    let run = sudoku(&["bench", data("nine.txt").to_str().unwrap()], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("12 puzzles"), "{}", run.stdout);
    assert!(run.stdout.contains("solved: 12"));
    assert!(run.stdout.contains("unique: 12, multiple: 0, none: 0"));
}

#[test]
fn rate_gives_level_score_and_hardest_and_goes_on_after_bad_lines() {
    let easy = "....3...1......8....19854.3....1.3...26.......98..4.2...2....45.548.....96.....8.";
    let several = ".".repeat(81);
    let none = format!("11{}", ".".repeat(79));
    let input = format!("{easy}\nabc\n{several}\n# comment\n{none}\n{easy}\n");
    let run = sudoku(&["rate"], &input);
    assert_eq!(run.code, 1, "a failed line makes the exit status 1");
    let expected = format!("{easy}\teasy\t340\tHidden Single");
    assert_eq!(run.lines(), vec![expected.as_str(), expected.as_str()]);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 3, "{}", run.stderr);
    assert!(errors[0].starts_with("error: line 2: "));
    assert!(errors[1].starts_with("error: line 3: ") && errors[1].contains("several solutions"));
    assert!(errors[2].starts_with("error: line 5: ") && errors[2].contains("contradictory"));
}

#[test]
fn explain_prints_steps_in_words_and_as_json() {
    let puzzle =
        "...1.8..6471...........3...............5.....5.3876.....5.3.96..39....5486.4..13.";
    let words = sudoku(&["explain"], &format!("{puzzle}\n"));
    assert_eq!(words.code, 0, "{}", words.stderr);
    let lines = words.lines();
    assert_eq!(lines[0], puzzle);
    assert!(lines.iter().any(|l| l.starts_with("Naked Pair: ")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("level medium score 490"))
    );
    let json = sudoku(&["explain", "--json"], &format!("{puzzle}\n"));
    let line = json.stdout.trim();
    assert!(line.starts_with(&format!(
        "{{\"puzzle\":\"{puzzle}\",\"level\":\"medium\",\"score\":490,"
    )));
    assert!(line.contains("{\"technique\":\"Naked Pair\",\"placements\":[],\"eliminations\":[["));
    assert_eq!(json.lines().len(), 1);
}

#[test]
fn generate_by_level_rates_what_it_prints() {
    let run = sudoku(
        &[
            "generate", "--level", "medium", "--count", "2", "--seed", "3",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rated = sudoku(&["rate"], &run.stdout);
    for line in rated.lines() {
        assert_eq!(line.split('\t').nth(1), Some("medium"), "{line}");
    }
    let bad = sudoku(&["generate", "--level", "fiendish"], "");
    assert_ne!(bad.code, 0);
    assert!(
        bad.stderr
            .contains("expected easy, medium, hard, unfair or extreme")
    );
}
