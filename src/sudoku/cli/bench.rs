//! `sudoku bench`: first-solution and count-to-2 timings over a puzzle file.
//!
//! Times are wall time (`std::time::Instant`) and, where Linux exposes it, the CPU time of the
//! running thread from `/proc/thread-self/schedstat` (nanoseconds on the CPU). Parsing is not
//! timed. With `--repeat N` each pass runs N times: the wall time is the fastest run's, the CPU
//! time the mean over the runs.
use std::time::{Duration, Instant};

use super::BenchArgs;
use super::input::{parse_line, puzzle_lines, read_input};
use crate::sudoku::{Grid, Solver};

/// Runs both passes and prints one summary line each.
pub fn bench(args: &BenchArgs) -> i32 {
    let Ok(text) = read_input(Some(&args.file)).inspect_err(|e| eprintln!("{e}")) else {
        return 1;
    };
    let mut grids = Vec::new();
    for (line_no, line) in puzzle_lines(&text).take(args.limit.unwrap_or(usize::MAX)) {
        match parse_line(args.shape, line) {
            Ok(grid) => grids.push(grid),
            Err(e) => eprintln!("error: line {line_no}: {e}"),
        }
    }
    println!("{}: {} puzzles", args.file.display(), grids.len());
    if grids.is_empty() {
        return 0;
    }
    let mut solver = Solver::new();
    let repeat = args.repeat.max(1);
    let solved = timed("first solution", &grids, repeat, || {
        grids.iter().filter(|g| solver.solve(g).is_some()).count()
    });
    println!("  solved: {solved}");
    let (unique, multiple, guesses) = timed("count to 2", &grids, repeat, || {
        let (mut unique, mut multiple, mut guesses) = (0, 0, 0);
        for g in &grids {
            let outcome = solver.analyse(g, 2);
            guesses += outcome.guesses;
            match outcome.count {
                1 => unique += 1,
                2 => multiple += 1,
                _ => {}
            }
        }
        (unique, multiple, guesses)
    });
    let none = grids.len() - unique - multiple;
    println!(
        "  unique: {unique}, multiple: {multiple}, none: {none}, guesses/puzzle: {:.1}",
        guesses as f64 / grids.len() as f64
    );
    0
}

/// Runs `f` `repeat` times, printing per grid the wall time of the fastest run and the CPU time
/// of all runs divided by their number (the CPU clock read here advances in scheduler ticks, so
/// it is only read around the whole series), and the total wall time.
fn timed<R>(label: &str, grids: &[Grid], repeat: usize, mut f: impl FnMut() -> R) -> R {
    let (start, cpu_start) = (Instant::now(), cpu_time());
    let mut best_wall = Duration::MAX;
    let mut result = None;
    for _ in 0..repeat {
        let pass = Instant::now();
        result = Some(f());
        best_wall = best_wall.min(pass.elapsed());
    }
    let wall = start.elapsed();
    let per = |d: Duration| d.as_secs_f64() * 1e6 / grids.len() as f64;
    let cpu = match (cpu_start, cpu_time()) {
        (Some(a), Some(b)) => format!(
            "{:.2} µs/puzzle CPU",
            per(b.saturating_sub(a)) / repeat as f64
        ),
        _ => "CPU time unavailable".to_string(),
    };
    println!(
        "{label}: {:.2} µs/puzzle wall, {cpu}, {:.3} s total",
        per(best_wall),
        wall.as_secs_f64()
    );
    result.expect("at least one run")
}

/// CPU time of the current thread, if `/proc/thread-self/schedstat` is readable.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}
