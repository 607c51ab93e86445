//! `sudoku rate` and `sudoku explain`: the human solution path of each puzzle, rated.
use std::io::{self, BufWriter, Write};

use super::input::{parse_line, puzzle_lines, read_input};
use super::{ExplainArgs, RateArgs};
use crate::sudoku::Grid;
use crate::sudoku::human::{Board, Step, rate as rate_path, solve_board, unique_solution};

/// Prints `puzzle TAB level TAB score TAB hardest technique` per puzzle; 1 if a line failed.
pub fn rate(args: &RateArgs) -> i32 {
    each_path(args.file.as_deref(), args.shape, |puzzle, _, steps| {
        let r = rate_path(steps);
        let hardest = r.hardest.map_or("-", |t| t.name());
        format!("{puzzle}\t{}\t{}\t{hardest}", r.level, r.score)
    })
}

/// Prints each puzzle's path, in words or as one JSON object per puzzle.
pub fn explain(args: &ExplainArgs) -> i32 {
    each_path(args.file.as_deref(), args.shape, |puzzle, board, steps| {
        if args.json {
            json(puzzle, board, steps)
        } else {
            words(puzzle, board, steps)
        }
    })
}

/// Solves every puzzle line, printing `show(puzzle, board, steps)`; errors go to stderr with the
/// line number and the other puzzles go on. Returns 1 if any line failed.
fn each_path(
    file: Option<&std::path::Path>,
    shape: Option<crate::sudoku::Shape>,
    mut show: impl FnMut(&Grid, &Board, &[Step]) -> String,
) -> i32 {
    let Ok(text) = read_input(file).inspect_err(|e| eprintln!("{e}")) else {
        return 1;
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut code = 0;
    for (line_no, line) in puzzle_lines(&text) {
        let solved = parse_line(shape, line).and_then(|grid| {
            let solution = unique_solution(&grid).map_err(|e| e.to_string())?;
            let board = Board::new(&grid);
            let steps = solve_board(board.clone(), &solution);
            Ok(show(&grid, &board, &steps))
        });
        match solved {
            Ok(text) => {
                if writeln!(out, "{text}").is_err() {
                    return code;
                }
            }
            Err(e) => {
                eprintln!("error: line {line_no}: {e}");
                code = 1;
            }
        }
    }
    let _ = out.flush();
    code
}

/// The path in words: the puzzle, one line per step, then the rating.
fn words(puzzle: &Grid, start: &Board, steps: &[Step]) -> String {
    let mut board = start.clone();
    let mut lines = vec![puzzle.to_string()];
    for step in steps {
        lines.push(step.describe(&board));
        step.apply(&mut board);
    }
    let r = rate_path(steps);
    let how = if r.by_logic {
        "solved by the techniques"
    } else {
        "the techniques stop before the end: brute force finishes"
    };
    lines.push(format!("level {} score {} ({how})\n", r.level, r.score));
    lines.join("\n")
}

/// The path as one JSON object.
fn json(puzzle: &Grid, board: &Board, steps: &[Step]) -> String {
    let r = rate_path(steps);
    let triples = |list: &[(usize, u8)]| {
        let items: Vec<String> = list
            .iter()
            .map(|&(c, d)| format!("[{},{},{d}]", board.row(c) + 1, board.col(c) + 1))
            .collect();
        format!("[{}]", items.join(","))
    };
    let steps: Vec<String> = steps
        .iter()
        .map(|s| {
            format!(
                "{{\"technique\":\"{}\",\"placements\":{},\"eliminations\":{}}}",
                s.technique,
                triples(&s.placements),
                triples(&s.eliminations)
            )
        })
        .collect();
    format!(
        "{{\"puzzle\":\"{puzzle}\",\"level\":\"{}\",\"score\":{},\"solved_by_logic\":{},\"steps\":[{}]}}",
        r.level,
        r.score,
        r.by_logic,
        steps.join(",")
    )
}
