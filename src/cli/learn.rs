//! `tessera learn blockudoku`: learns the Blockudoku evaluation weights from experiments on the
//! decisions its own play meets (approximate policy iteration).
//!
//! Each iteration plays seeded games from the start boards with the current weights (the whole
//! hand searched, no look-ahead). At a share of the rounds dealt to boards of `--from-filled`
//! or more cells, it runs an experiment: the best distinct final boards the search found for
//! the hand (up to eight) are each played on for `--horizon` rounds, all with the same hands,
//! and each one's danger is the summed exact chance of losing on the next hand (see
//! `games::blockudoku::danger`) over the boards of its continuation: a dense, low-noise measure
//! of how close to a loss it led. A conditional Poisson regression (`crate::regression`) then
//! fits how the danger is shared among the alternatives of a decision to the current
//! evaluation and the features: the evaluation's coefficient sets the scale, the features'
//! (held back by the ridge penalty whose fit, cross-validated, picks the safest finalists)
//! correct the weights, and the next iteration plays with the corrected weights, if that fit's
//! picks were safer than the evaluation's. Only differences inside a decision inform the fit,
//! so what decisions share (how crowded, how hard the hands) biases nothing. Each iteration's
//! progress line shows the death rate its weights met on the played games (the hazard mean
//! from the exact chances, as in `selfplay --death-chance`). A run is reproducible from its
//! seed whatever `--jobs` is.

use super::selfplay::{deal, read_starts};
use super::training::{NOT_POSITIVE, TrainingArgs, list};
use crate::games::blockudoku::board::Board;
use crate::games::blockudoku::danger::death_chance;
use crate::games::blockudoku::eval::{self, FEATURE_NAMES, FEATURES, Weights};
use crate::games::blockudoku::piece::{Piece, PieceSet};
use crate::games::blockudoku::rules::{Placement, Position, Scoring, play_plan};
use crate::games::blockudoku::search::HandSearch;
use crate::regression::{Group, fit_shares};
use crate::search::time::Budget;
use crate::search::{SearchControl, iterative};
use clap::Args;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Options of `tessera learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The game whose evaluation is learned (blockudoku).
    pub game: String,
    /// Games per iteration.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Rounds a game lasts at most.
    #[arg(long, default_value_t = 3000)]
    pub cap: u64,
    /// Iterations (play and experiment, then fit).
    #[arg(long, default_value_t = 3)]
    pub iterations: usize,
    /// Experiments are run on hands dealt to boards of at least this many filled cells.
    #[arg(long, default_value_t = 20)]
    pub from_filled: u32,
    /// The share of those rounds that get an experiment.
    #[arg(long, default_value_t = 0.25)]
    pub share: f64,
    /// Rounds each alternative of an experiment is played on.
    #[arg(long, default_value_t = 10)]
    pub horizon: u64,
    /// Boards with fewer filled cells count no danger (their exact chance is not computed).
    #[arg(long, default_value_t = 24)]
    pub min_filled: u32,
    /// Multiply the learned weights by this (more resolution for the integer weights).
    #[arg(long, default_value_t = 1.0)]
    pub gain: f64,
    /// Start boards, one a line (default: the empty board).
    #[arg(long)]
    pub starts: Option<PathBuf>,
    /// Seed, jobs, start weights, output, piece set.
    #[command(flatten)]
    pub common: TrainingArgs,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &LearnArgs) -> i32 {
    super::selfplay::exit_code(learn(args))
}

fn learn(args: &LearnArgs) -> Result<(), String> {
    if args.game != "blockudoku" {
        return Err(format!("learn knows blockudoku, not '{}'", args.game));
    }
    if args.horizon == 0 || !(0.0..=1.0).contains(&args.share) || args.gain <= 0.0 {
        return Err("--horizon and --gain must be positive, --share within 0..1".into());
    }
    let set = args.common.piece_set()?;
    let starts = match &args.starts {
        Some(path) => read_starts(path)?,
        None => vec![Board::EMPTY],
    };
    let mut weights = args.common.start_weights()?;
    println!(
        "learn blockudoku: {} games x {} rounds an iteration from {} start board(s); \
         experiments on {:.0}% of the hands dealt to {}+ cells, {} rounds each, \
         danger on boards of {}+ cells; seed {}",
        args.games,
        args.cap,
        starts.len(),
        args.share * 100.0,
        args.from_filled,
        args.horizon,
        args.min_filled,
        args.common.seed
    );
    let began = Instant::now();
    for iteration in 0..args.iterations {
        let games = play_games(args, &set, &starts, weights);
        let rounds: u64 = games.iter().map(|g| g.rounds).sum();
        let deaths = games.iter().filter(|g| g.died).count();
        let chance: f64 = games.iter().map(|g| g.chance).sum();
        let groups: Vec<Group> = games.into_iter().flat_map(|g| g.experiments).collect();
        let informative = groups
            .iter()
            .filter(|g| g.y.iter().any(|&y| y > 0.0))
            .count();
        // The ridge whose fit picks the safest finalists on experiments it was not fitted to.
        let mut chosen: Option<(f64, f64)> = None;
        let mut picks = Vec::new();
        let mut evaluation_pick = 0.0;
        for &r in &RIDGES {
            let (first, fitted, best) = cross_validated_picks(&groups, &ridge_of(r));
            if r == RIDGES[0] {
                evaluation_pick = first;
                picks.push(format!("the evaluation's {first:.5}, the best {best:.5}"));
            }
            picks.push(format!("ridge {r}: {fitted:.5}"));
            if chosen.is_none_or(|(_, d)| fitted < d) {
                chosen = Some((r, fitted));
            }
        }
        let ridge = chosen.map_or(RIDGES[0], |(r, _)| r);
        let fit = fit_shares(&groups, FEATURES + 1, &ridge_of(ridge));
        println!(
            "iteration {}/{}: {} rounds, {} deaths, hazard mean {:.0} (from the exact chances); \
             {} experiments, {} with danger; fit (ridge {ridge}): log-likelihood {:.4} per unit \
             of danger, evaluation coefficient {:.3e}, {} steps; {:.0} s",
            iteration + 1,
            args.iterations,
            rounds,
            deaths,
            rounds as f64 / chance.max(1e-300),
            groups.len(),
            informative,
            fit.log_likelihood,
            fit.coef[0],
            fit.steps,
            began.elapsed().as_secs_f64()
        );
        println!(
            "  danger after each experiment's pick (mean; fits cross-validated in 2 folds): {}",
            picks.join(", ")
        );
        let safer = chosen.is_some_and(|(_, d)| d < evaluation_pick);
        match corrected(&weights, &fit.coef, args.gain).filter(|_| safer) {
            Some(next) => weights = next,
            None => println!("  no fit picks safer finalists than the evaluation; weights kept"),
        }
        println!("  weights {}", list(&weights));
    }
    args.common.finish(&weights)
}

/// The ridge penalties tried on the corrections.
const RIDGES: [f64; 5] = [1e-3, 1e-2, 1e-1, 1.0, 10.0];

/// The penalties of the inputs: none on the evaluation, `ridge` on the features' corrections.
fn ridge_of(ridge: f64) -> Vec<f64> {
    let mut r = vec![ridge; FEATURES + 1];
    r[0] = 0.0;
    r
}

/// The mean danger of the alternative each experiment would pick: the evaluation's (the first),
/// the fit's (fitted on the other half of the experiments, alternate ones), and the least.
fn cross_validated_picks(groups: &[Group], ridge: &[f64]) -> (f64, f64, f64) {
    let half = |parity: usize| -> Vec<Group> {
        groups
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 2 == parity)
            .map(|(_, g)| g.clone())
            .collect()
    };
    let p = ridge.len();
    let fits = [
        fit_shares(&half(1), p, ridge),
        fit_shares(&half(0), p, ridge),
    ];
    let (mut first, mut fitted, mut best) = (0.0, 0.0, 0.0);
    for (i, g) in groups.iter().enumerate() {
        let coef = &fits[i % 2].coef;
        let log_danger =
            |c: usize| -> f64 { (0..p).map(|j| coef[j] * g.x[c * p + j]).sum::<f64>() };
        let pick = (0..g.y.len())
            .min_by(|&a, &b| log_danger(a).total_cmp(&log_danger(b)))
            .unwrap_or(0);
        first += g.y[0];
        fitted += g.y[pick];
        best += g.y.iter().cloned().fold(f64::INFINITY, f64::min);
    }
    let n = groups.len().max(1) as f64;
    (first / n, fitted / n, best / n)
}

/// The weights corrected by a fit of the log-danger to `[evaluation, features...]`: the fitted
/// log-danger, divided by minus the evaluation's coefficient (so the weights keep their scale),
/// times `gain`. `None` unless a better evaluation meant less danger (a negative coefficient).
fn corrected(weights: &Weights, coef: &[f64], gain: f64) -> Option<Weights> {
    let scale = -coef[0];
    if scale <= 0.0 {
        return None;
    }
    let mut w = [0i32; FEATURES];
    for k in 0..FEATURES {
        let log_danger = coef[0] * f64::from(weights.0[k]) + coef[k + 1];
        let value = (-log_danger / scale * gain).round();
        w[k] = value.clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i32;
        if NOT_POSITIVE.contains(&FEATURE_NAMES[k]) {
            w[k] = w[k].min(0);
        }
    }
    Some(Weights(w))
}

/// One game of an iteration: how it went, and its experiments.
struct Game {
    rounds: u64,
    died: bool,
    /// Summed exact chance of losing over the rounds played.
    chance: f64,
    experiments: Vec<Group>,
}

/// Plays the iteration's games, `--jobs` at once, with a progress line on stderr.
fn play_games(args: &LearnArgs, set: &PieceSet, starts: &[Board], weights: Weights) -> Vec<Game> {
    let indexes: Vec<usize> = (0..args.games).collect();
    let done = AtomicUsize::new(0);
    let experiments = AtomicUsize::new(0);
    let began = Instant::now();
    let games = super::jobs::map(&indexes, args.common.jobs, usize::MAX, |_, &game| {
        let result = play_game(args, set, starts, weights, game);
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        let run = experiments.fetch_add(result.experiments.len(), Ordering::Relaxed)
            + result.experiments.len();
        eprint!(
            "\r  {finished}/{} games, {run} experiments, {:.0} s ",
            args.games,
            began.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
        result
    });
    eprintln!();
    games
}

/// The random stream of game `game`'s hands, or of its experiment at `round` (`Some`).
fn deal_rng(seed: u64, game: usize, round: Option<u64>) -> SmallRng {
    let mix = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game as u64;
    let mix = match round {
        Some(r) => mix ^ (r + 1).wrapping_mul(0xD1B5_4A32_D192_ED03),
        None => mix,
    };
    SmallRng::seed_from_u64(mix)
}

/// Searches `hand` from `position` to the whole hand; with `finalists`, keeps the best final
/// boards. Returns the search (its plan, or none if the hand cannot be placed).
fn search<'a>(
    set: &'a PieceSet,
    weights: Weights,
    position: Position,
    hand: &'a [Piece],
    seed: u64,
    finalists: bool,
) -> HandSearch<'a> {
    let unlimited = Budget {
        soft: None,
        hard: None,
    };
    let control = SearchControl::new(Arc::new(AtomicBool::new(false)), unlimited, None, Some(2));
    let mut search = HandSearch::new(set, weights, position, hand, seed);
    if finalists {
        search = search.keep_finalists();
    }
    iterative::deepen(&mut search, &control, &mut |_| {});
    search
}

/// The danger of a board: its exact chance of losing on the next hand, 0 below `min_filled`.
fn danger(board: Board, set: &PieceSet, min_filled: u32) -> f64 {
    if board.filled() >= min_filled {
        death_chance(board, set)
    } else {
        0.0
    }
}

fn play_game(
    args: &LearnArgs,
    set: &PieceSet,
    starts: &[Board],
    weights: Weights,
    game: usize,
) -> Game {
    let mut rng = deal_rng(args.common.seed, game, None);
    let mut position = Position {
        board: starts[game % starts.len()],
        ..Position::default()
    };
    let mut out = Game {
        rounds: 0,
        died: false,
        chance: 0.0,
        experiments: Vec::new(),
    };
    while out.rounds < args.cap {
        out.chance += danger(position.board, set, args.min_filled);
        let hand = deal(&mut rng, set);
        let experiment = position.board.filled() >= args.from_filled && rng.random_bool(args.share);
        let searched = search(
            set,
            weights,
            position,
            &hand,
            args.common.seed ^ out.rounds,
            experiment,
        );
        if experiment {
            let finalists = searched.finalists();
            if finalists.len() > 1 {
                let rounds = Some(out.rounds);
                out.experiments.push(experiment_group(
                    args, set, weights, position, &hand, &finalists, game, rounds,
                ));
            }
        }
        let next = searched
            .chosen_plan()
            .and_then(|plan| play_plan(position, &hand, &plan, Scoring::App).ok());
        let Some(next) = next else {
            out.died = true;
            break;
        };
        position = next;
        out.rounds += 1;
    }
    out
}

/// Plays each finalist on for `--horizon` rounds with the same hands: the group of their
/// inputs (the current evaluation, then the features) and dangers.
#[allow(clippy::too_many_arguments)]
fn experiment_group(
    args: &LearnArgs,
    set: &PieceSet,
    weights: Weights,
    position: Position,
    hand: &[Piece],
    finalists: &[(Board, Vec<Placement>)],
    game: usize,
    round: Option<u64>,
) -> Group {
    let mut group = Group {
        x: Vec::new(),
        y: Vec::new(),
    };
    for (board, plan) in finalists {
        let features = eval::features(*board, set);
        group.x.push(f64::from(
            features
                .iter()
                .zip(weights.0)
                .map(|(f, w)| f * w)
                .sum::<i32>(),
        ));
        group.x.extend(features.iter().map(|&f| f64::from(f)));
        let Ok(mut at) = play_plan(position, hand, plan, Scoring::App) else {
            group.y.push(0.0);
            continue;
        };
        let mut rng = deal_rng(args.common.seed, game, round);
        let mut total = 0.0;
        for step in 0..args.horizon {
            total += danger(at.board, set, args.min_filled);
            let next_hand = deal(&mut rng, set);
            let searched = search(set, weights, at, &next_hand, args.common.seed ^ step, false);
            let next = searched
                .chosen_plan()
                .and_then(|p| play_plan(at, &next_hand, &p, Scoring::App).ok());
            match next {
                Some(next) => at = next,
                None => break,
            }
        }
        group.y.push(total);
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blockudoku::eval::DEFAULT_WEIGHTS;

    #[test]
    fn corrections_keep_the_scale_of_the_weights_and_piece_weights_not_positive() {
        let mut w = DEFAULT_WEIGHTS;
        w.0[5] = -10;
        let mut coef = vec![0.0; FEATURES + 1];
        coef[0] = -0.01; // one unit of evaluation: 1% less danger
        let same = corrected(&w, &coef, 1.0).unwrap();
        assert_eq!(same, w);
        coef[1] = 0.05; // each filled cell 5% more dangerous than the evaluation says
        coef[6] = -0.5; // unfit pieces would be rewarded: held at 0
        let next = corrected(&w, &coef, 2.0).unwrap();
        assert_eq!(next.0[0], 2 * (w.0[0] - 5));
        assert_eq!(next.0[5], 0);
        assert_eq!(next.0[1], 2 * w.0[1]);
        coef[0] = 0.01;
        assert_eq!(corrected(&w, &coef, 1.0), None);
    }

    #[test]
    fn an_experiment_compares_the_finalists_on_the_same_hands() {
        let set = PieceSet::builtin("standard47").unwrap();
        let args = LearnArgs {
            game: "blockudoku".into(),
            games: 1,
            cap: 1,
            iterations: 1,
            from_filled: 0,
            share: 1.0,
            horizon: 4,
            min_filled: 30,
            gain: 1.0,
            starts: None,
            common: TrainingArgs {
                seed: 3,
                jobs: 1,
                from: None,
                out: None,
                pieceset: "standard47".into(),
            },
        };
        let crowded = Board::parse(
            "###.#####/##..#####/#...#.###/####..###/###...###/.........\
             /###.####./#.#.###../###.#####",
        )
        .unwrap();
        let position = Position {
            board: crowded,
            ..Position::default()
        };
        let hand = deal(&mut deal_rng(1, 0, None), &set);
        let searched = search(&set, DEFAULT_WEIGHTS, position, &hand, 1, true);
        let finalists = searched.finalists();
        assert!(finalists.len() > 1);
        let run = |round| {
            experiment_group(
                &args,
                &set,
                DEFAULT_WEIGHTS,
                position,
                &hand,
                &finalists,
                0,
                round,
            )
        };
        let group = run(Some(0));
        assert_eq!(group.y.len(), finalists.len());
        assert_eq!(group.x.len(), finalists.len() * (FEATURES + 1));
        // The first input is the evaluation of the finalist's board.
        let value = eval::evaluate(finalists[0].0, &set, &DEFAULT_WEIGHTS);
        assert_eq!(group.x[0], f64::from(value));
        // A crowded board has danger ahead, and the experiment is reproducible.
        assert!(group.y.iter().any(|&y| y > 0.0), "{group:?}");
        assert!(group.y.iter().all(|&y| (0.0..=4.0).contains(&y)));
        assert_eq!(run(Some(0)), group);
    }
}
