//! `tessera tune blockudoku`: learns the Blockudoku evaluation weights by separable CMA-ES,
//! scoring each candidate by how many rounds it survives from crowded start boards.
//!
//! Every generation deals new games (start board and hands, from the seed and the generation),
//! the same for every candidate, so candidates are compared on equal deals; the start weights
//! and the current mean play the same deals too, and the progress line shows both. Games are
//! searched to a fixed depth, so a run is reproducible from its seed whatever `--jobs` is.

use super::progress::Progress;
use super::selfplay::read_starts;
use super::training::{NOT_POSITIVE, TrainingArgs, list};
use crate::games::blockudoku::board::Board;
use crate::games::blockudoku::eval::Weights;
use crate::games::blockudoku::features::{FEATURE_NAMES, FEATURES};
use crate::games::blockudoku::piece::{Piece, PieceSet};
use crate::games::blockudoku::rules::{Position, Scoring, play_plan};
use crate::games::blockudoku::search::HandSearch;
use crate::search::time::Budget;
use crate::search::{SearchControl, iterative};
use crate::tuning::SepCma;
use clap::Args;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Options of `tessera tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The game whose evaluation is tuned (blockudoku).
    pub game: String,
    /// Start boards, one a line (crowded boards from real losses decide the most).
    #[arg(long)]
    pub starts: PathBuf,
    /// Games per candidate and generation.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Rounds a game lasts at most.
    #[arg(long, default_value_t = 30)]
    pub rounds: u64,
    /// Generations.
    #[arg(long, default_value_t = 30)]
    pub generations: u64,
    /// Candidates per generation (default 4 + 3 ln n).
    #[arg(long)]
    pub population: Option<usize>,
    /// First step, as a share of each weight.
    #[arg(long, default_value_t = 0.3)]
    pub sigma: f64,
    /// Search depth per round (2 = the whole hand, no look-ahead).
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Seed, jobs, start weights, output, piece set.
    #[command(flatten)]
    pub common: TrainingArgs,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &TuneArgs) -> i32 {
    super::exit_code(tune(args))
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    if args.game != "blockudoku" {
        return Err(format!("tune knows blockudoku, not '{}'", args.game));
    }
    let set = args.common.piece_set()?;
    let starts = read_starts(&args.starts)?;
    let start = args.common.start_weights()?;
    let scale: Vec<f64> = start.0.iter().map(|w| f64::from(w.abs().max(4))).collect();
    let x0: Vec<f64> = start
        .0
        .iter()
        .zip(&scale)
        .map(|(&w, s)| f64::from(w) / s)
        .collect();
    let mut es = match args.population {
        Some(n) => SepCma::with_population(x0, args.sigma, n, args.common.seed),
        None => SepCma::new(x0, args.sigma, args.common.seed),
    };
    let to_weights = |x: &[f64]| -> Weights {
        let mut w = [0i32; FEATURES];
        for k in 0..FEATURES {
            w[k] = (x[k] * scale[k]).round() as i32;
            if NOT_POSITIVE.contains(&FEATURE_NAMES[k]) {
                w[k] = w[k].min(0);
            }
        }
        Weights(w)
    };
    let began = Instant::now();
    println!(
        "tune blockudoku: {} start boards, {} games x {} rounds per candidate, depth {}, seed {}",
        starts.len(),
        args.games,
        args.rounds,
        args.depth,
        args.common.seed
    );
    let progress = Progress::new(args.generations, "generations");
    for generation in 0..args.generations {
        let xs = es.ask();
        let mut candidates: Vec<Weights> = xs.iter().map(|x| to_weights(x)).collect();
        candidates.push(to_weights(es.mean()));
        candidates.push(start);
        let deals = Deals {
            seed: args.common.seed,
            generation,
            games: args.games,
            rounds: args.rounds,
        };
        let scores = play_all(
            &set,
            &starts,
            &candidates,
            &deals,
            args.depth,
            args.common.jobs,
        );
        let survived: Vec<f64> = scores.iter().map(|s| s.rounds as f64).collect();
        es.tell(&xs, &survived[..xs.len()]);
        let (mean, base) = (scores[xs.len()], scores[xs.len() + 1]);
        let best = scores[..xs.len()].iter().map(|s| s.rounds).max();
        let lines = format!(
            "gen {:>3}/{}  mean: {} deaths {} rounds  start weights: {} deaths {} rounds  \
             best candidate {} rounds  sigma {:.3}  {:.0} s\n  weights {}",
            generation + 1,
            args.generations,
            mean.deaths,
            mean.rounds,
            base.deaths,
            base.rounds,
            best.unwrap_or(0),
            es.sigma(),
            began.elapsed().as_secs_f64(),
            list(&to_weights(es.mean()))
        );
        progress.suspend(|| println!("{lines}"));
        progress.set(generation + 1, format!("mean {} rounds", mean.rounds));
    }
    progress.finish();
    args.common.finish(&to_weights(es.mean()))
}

/// The deals of one generation.
struct Deals {
    seed: u64,
    generation: u64,
    games: usize,
    rounds: u64,
}

impl Deals {
    /// The random stream of game `game` (start board choice and hands).
    fn rng(&self, game: usize) -> SmallRng {
        let mix = self
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(self.generation.wrapping_mul(0xD1B5_4A32_D192_ED03))
            ^ game as u64;
        SmallRng::seed_from_u64(mix)
    }
}

/// How one candidate did over a generation's deals.
#[derive(Debug, Clone, Copy, Default)]
struct Score {
    rounds: u64,
    deaths: u64,
}

/// Plays every candidate on every deal, `jobs` games at once.
fn play_all(
    set: &PieceSet,
    starts: &[Board],
    candidates: &[Weights],
    deals: &Deals,
    depth: u32,
    jobs: usize,
) -> Vec<Score> {
    let rounds: Vec<AtomicU64> = candidates.iter().map(|_| AtomicU64::new(0)).collect();
    let deaths: Vec<AtomicU64> = candidates.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let total = candidates.len() * deals.games;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= total {
                        break;
                    }
                    let (c, game) = (job % candidates.len(), job / candidates.len());
                    let (survived, died) =
                        play_deal(set, starts, candidates[c], deals, game, depth);
                    rounds[c].fetch_add(survived, Ordering::Relaxed);
                    deaths[c].fetch_add(u64::from(died), Ordering::Relaxed);
                }
            });
        }
    });
    rounds
        .iter()
        .zip(&deaths)
        .map(|(r, d)| Score {
            rounds: r.load(Ordering::Relaxed),
            deaths: d.load(Ordering::Relaxed),
        })
        .collect()
}

/// Plays deal `game` with `weights`: the rounds survived and whether the game was lost.
fn play_deal(
    set: &PieceSet,
    starts: &[Board],
    weights: Weights,
    deals: &Deals,
    game: usize,
    depth: u32,
) -> (u64, bool) {
    let mut rng = deals.rng(game);
    let mut position = Position {
        board: starts[rng.random_range(0..starts.len())],
        ..Position::default()
    };
    let unlimited = Budget {
        soft: None,
        hard: None,
    };
    for round in 0..deals.rounds {
        let hand: Vec<Piece> = (0..3)
            .map(|_| set.pieces[rng.random_range(0..set.pieces.len())].clone())
            .collect();
        let control = SearchControl::new(
            Arc::new(AtomicBool::new(false)),
            unlimited,
            None,
            Some(depth),
        );
        let mut search = HandSearch::new(set, weights, position, &hand, deals.seed ^ round);
        iterative::deepen(&mut search, &control, &mut |_| {});
        let Some(plan) = search.chosen_plan() else {
            return (round, true);
        };
        position = match play_plan(position, &hand, &plan, Scoring::App) {
            Ok(next) => next,
            Err(_) => return (round, true),
        };
    }
    (deals.rounds, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blockudoku::eval::DEFAULT_WEIGHTS;

    #[test]
    fn a_crowded_deal_is_played_the_same_way_twice() {
        let set = PieceSet::builtin("standard47").unwrap();
        let crowded = Board::parse(
            "###.#####/##..#####/#...#.###/####..###/###...###/.........\
             /###.####./#.#.###../###.#####",
        )
        .unwrap();
        let deals = Deals {
            seed: 3,
            generation: 0,
            games: 4,
            rounds: 6,
        };
        let play = |g| play_deal(&set, &[crowded], DEFAULT_WEIGHTS, &deals, g, 2);
        for game in 0..4 {
            let (rounds, died) = play(game);
            assert!(rounds <= 6);
            assert_eq!(died, rounds < 6, "a game ends early only by a loss");
            assert_eq!(play(game), (rounds, died));
        }
    }
}
