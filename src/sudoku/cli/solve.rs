//! `sudoku solve` and `sudoku show`.
use std::io::{self, BufWriter, Write};
use std::time::{Duration, Instant};

use super::input::{parse_line, puzzle_lines, read_input};
use super::{ShowArgs, SolveArgs};
use crate::sudoku::Solver;

/// Prints a solution (or `none`, or the solution count) per puzzle line.
pub fn solve(args: &SolveArgs) -> i32 {
    let Ok(text) = read_input(args.file.as_deref()).inspect_err(|e| eprintln!("{e}")) else {
        return 1;
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut solver = Solver::new();
    let (mut puzzles, mut spent) = (0u64, Duration::ZERO);
    for (line_no, line) in puzzle_lines(&text) {
        let answer = match parse_line(args.shape, line) {
            Err(e) => {
                eprintln!("error: line {line_no}: {e}");
                "invalid".to_string()
            }
            Ok(grid) => {
                let start = Instant::now();
                let answer = match args.count {
                    Some(limit) => solver.count(&grid, limit).to_string(),
                    None => solver
                        .solve(&grid)
                        .map_or_else(|| "none".to_string(), |s| s.to_string()),
                };
                spent += start.elapsed();
                puzzles += 1;
                answer
            }
        };
        if writeln!(out, "{answer}").is_err() {
            return 0;
        }
    }
    // A closed stdout (e.g. piped into `head`) is not an error of the run.
    let _ = out.flush();
    if args.stats {
        print_stats(puzzles, spent);
    }
    0
}

fn print_stats(puzzles: u64, spent: Duration) {
    let secs = spent.as_secs_f64();
    let per_second = if secs > 0.0 {
        puzzles as f64 / secs
    } else {
        0.0
    };
    let micros = if puzzles > 0 {
        secs * 1e6 / puzzles as f64
    } else {
        0.0
    };
    eprintln!(
        "{puzzles} puzzles in {secs:.3} s (wall time of solving only): \
         {per_second:.0} puzzles/s, {micros:.2} µs/puzzle"
    );
}

/// Pretty-prints each grid, a blank line after each.
pub fn show(args: &ShowArgs) -> i32 {
    let Ok(text) = read_input(args.file.as_deref()).inspect_err(|e| eprintln!("{e}")) else {
        return 1;
    };
    let mut out = BufWriter::new(io::stdout().lock());
    for (line_no, line) in puzzle_lines(&text) {
        let shown = match parse_line(args.shape, line) {
            Ok(grid) => grid.pretty(),
            Err(e) => {
                eprintln!("error: line {line_no}: {e}");
                "invalid".to_string()
            }
        };
        if writeln!(out, "{shown}\n").is_err() {
            return 0;
        }
    }
    let _ = out.flush();
    0
}
