//! `sudoku generate`.
use std::io::{self, BufWriter, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use super::GenerateArgs;
use crate::sudoku::generate::{GenerateError, Generator, Options, Puzzle};
use crate::sudoku::human::{self, Board, Level, Rating};

/// Puzzles made and rated before `--level` gives up on one.
const LEVEL_ATTEMPTS: usize = 20_000;

/// Prints `--count` puzzles (or solved grids), one per line.
pub fn generate(args: &GenerateArgs) -> i32 {
    let seed = args.seed.unwrap_or_else(|| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let seed = now.as_secs() ^ u64::from(now.subsec_nanos()) << 20;
        eprintln!("seed: {seed}");
        seed
    });
    let mut generator = Generator::new(args.shape, seed);
    let options = Options {
        method: args.method,
        clues: args.clues,
        minimal: args.minimal,
        grade: args.grade,
        ..Options::default()
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let start = Instant::now();
    let mut code = 0;
    for _ in 0..args.count {
        let line = if args.solved {
            generator.solved_grid(args.method).to_string()
        } else {
            match puzzle_at_level(&mut generator, &options, args.level) {
                Ok((p, r)) if args.info => format!(
                    "{}\tclues={}\tguesses={}\tgrade={}\tminimal={}\tlevel={}\tscore={}",
                    p.puzzle,
                    p.puzzle.filled(),
                    p.guesses,
                    p.grade,
                    p.minimal,
                    r.level,
                    r.score
                ),
                Ok((p, _)) => p.puzzle.to_string(),
                Err(e) => {
                    eprintln!("error: {e}");
                    code = 1;
                    break;
                }
            }
        };
        if writeln!(out, "{line}").is_err() {
            return code;
        }
    }
    let _ = out.flush();
    if args.stats {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{} {} in {secs:.3} s: {:.1} per second",
            args.count,
            if args.solved { "grids" } else { "puzzles" },
            args.count as f64 / secs.max(1e-9)
        );
    }
    code
}

/// A puzzle as `options` ask, with its human rating; of `level` when given (up to
/// [`LEVEL_ATTEMPTS`] puzzles are made and rated).
fn puzzle_at_level(
    generator: &mut Generator,
    options: &Options,
    level: Option<Level>,
) -> Result<(Puzzle, Rating), GenerateError> {
    for _ in 0..LEVEL_ATTEMPTS {
        let p = generator.puzzle(options)?;
        let steps = human::solve_board(Board::new(&p.puzzle), &p.solution);
        let rating = human::rate(&steps);
        if level.is_none_or(|l| l == rating.level) {
            return Ok((p, rating));
        }
    }
    Err(GenerateError(format!(
        "no puzzle of level {} in {LEVEL_ATTEMPTS} attempts",
        level.expect("only a level can be missed")
    )))
}
