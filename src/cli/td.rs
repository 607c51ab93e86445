//! `tessera td blockudoku`: learns tuple values (see `games::blockudoku::tuples`) by
//! temporal-difference learning of afterstate values.
//!
//! The value of an afterstate (the board after a whole hand) is the discounted sum of the
//! exact chances of losing on each next hand (`games::blockudoku::danger`), negated: a dense
//! reward that is there on every crowded board, where a counted loss would come once in
//! thousands of rounds. It is estimated as `scale * evaluation / 1000 + bias + tuples`, all
//! learned together by normalised least mean squares towards the lambda-returns of each game
//! (computed when it ends; a game cut at `--cap` is continued by its last value).
//!
//! The games are played by the evaluation being improved (the weights and the `--from` tuples),
//! which stays fixed during the run: learning the value of a fixed player is plain regression,
//! while a player that changed with every step chased its own noise (tried: its losses
//! multiplied). The learned values, converted to evaluation units and added to the `--from`
//! tuples, make the improved player; a further run from them is the next step of policy
//! iteration. A run is reproducible from its seed.

use super::selfplay::{deal, read_starts, read_tuples};
use crate::games::blockudoku::board::Board;
use crate::games::blockudoku::danger::death_chance;
use crate::games::blockudoku::eval::{DEFAULT_WEIGHTS, Weights, evaluate};
use crate::games::blockudoku::piece::PieceSet;
use crate::games::blockudoku::rules::{Position, Scoring, play_plan};
use crate::games::blockudoku::search::HandSearch;
use crate::games::blockudoku::tuples::{PATTERNS, TABLES, TUPLES, Tuples, entries};
use crate::search::time::Budget;
use crate::search::{SearchControl, iterative};
use clap::Args;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Options of `tessera td`.
#[derive(Debug, Args)]
pub struct TdArgs {
    /// The game whose tuples are learned (blockudoku).
    pub game: String,
    /// Rounds to learn from in all.
    #[arg(long, default_value_t = 500_000)]
    pub rounds: u64,
    /// Rounds a game lasts at most (then the next start board).
    #[arg(long, default_value_t = 300)]
    pub cap: u64,
    /// Step size (normalised: the share of the error corrected at once).
    #[arg(long, default_value_t = 0.01)]
    pub alpha: f64,
    /// Discount a round.
    #[arg(long, default_value_t = 0.99)]
    pub gamma: f64,
    /// Lambda of the returns (0: one-step temporal differences; 1: the whole game's chances).
    #[arg(long, default_value_t = 0.9)]
    pub lambda: f64,
    /// Boards with fewer filled cells count no chance of losing (it is not computed).
    #[arg(long, default_value_t = 24)]
    pub min_filled: u32,
    /// Start boards, one a line (default: the empty board); games take them in turn.
    #[arg(long)]
    pub starts: Option<PathBuf>,
    /// Tuple file the player starts from, and the learned values add to (default: all 0).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Write the improved tuples here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Feature weights, comma-separated (default: the built-in ones).
    #[arg(long, allow_hyphen_values = true)]
    pub weights: Option<String>,
    /// A progress line every this many rounds.
    #[arg(long, default_value_t = 50_000)]
    pub report: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Piece set the hands are dealt from.
    #[arg(long, default_value = "standard47")]
    pub pieceset: String,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &TdArgs) -> i32 {
    super::selfplay::exit_code(learn(args))
}

/// The evaluation is divided by this in the value (so its coefficient is not tiny).
const EVAL_UNIT: f64 = 1000.0;

/// The value estimate being learned: `scale * evaluation / 1000 + bias + tuples`, everything
/// in value units (the negated discounted chance of losing).
struct Value {
    scale: f64,
    bias: f64,
    tuples: Vec<f64>,
}

impl Value {
    fn of(&self, eval: f64, entries: &[u16; TUPLES]) -> f64 {
        self.scale * eval
            + self.bias
            + entries
                .iter()
                .map(|&e| self.tuples[usize::from(e)])
                .sum::<f64>()
    }

    /// Moves the value of a board (evaluation `eval`, in thousands) towards `target`.
    fn learn(&mut self, eval: f64, entries: &[u16; TUPLES], target: f64, alpha: f64) -> f64 {
        let error = target - self.of(eval, entries);
        // Every input is 1 but the evaluation's: the step is shared by the squared norm.
        let step = alpha * error / (eval * eval + (TUPLES + 1) as f64);
        self.scale += step * eval;
        self.bias += step;
        for &e in entries {
            self.tuples[usize::from(e)] += step;
        }
        error
    }

    /// The learned tuples in evaluation units, added to `base`.
    fn tuples_in_eval_units(&self, base: &Tuples) -> Result<Tuples, String> {
        if self.scale <= 0.0 {
            return Err(format!(
                "no link was found between the evaluation and the danger (scale {:.3e}): more \
                 --rounds or crowded --starts",
                self.scale
            ));
        }
        let mut out = base.clone();
        for e in 0..TABLES * PATTERNS {
            let learned = self.tuples[e] / self.scale * EVAL_UNIT;
            let v = f64::from(base.get(e as u16)) + learned.round();
            out.set(
                e as u16,
                v.clamp(-f64::from(1 << 20), f64::from(1 << 20)) as i32,
            );
        }
        Ok(out)
    }
}

fn learn(args: &TdArgs) -> Result<(), String> {
    if args.game != "blockudoku" {
        return Err(format!("td knows blockudoku, not '{}'", args.game));
    }
    let fits = (f64::EPSILON..=1.0).contains(&args.alpha)
        && args.gamma > 0.0
        && args.gamma < 1.0
        && (0.0..=1.0).contains(&args.lambda)
        && args.cap > 0
        && args.report > 0;
    if !fits {
        return Err(
            "--alpha must lie in (0, 1], --gamma in (0, 1), --lambda in [0, 1]; \
                    --cap and --report must be positive"
                .into(),
        );
    }
    let set = PieceSet::builtin(&args.pieceset)?;
    let weights = match &args.weights {
        Some(text) => super::selfplay::parse_weights(text)?,
        None => DEFAULT_WEIGHTS,
    };
    let starts = match &args.starts {
        Some(path) => read_starts(path)?,
        None => vec![Board::EMPTY],
    };
    let base = match &args.from {
        Some(path) => read_tuples(path)?,
        None => Tuples::default(),
    };
    println!(
        "td blockudoku: {} rounds, games of at most {} rounds from {} start board(s), alpha {}, \
         gamma {}, lambda {}, chances from {} cells, seed {}",
        args.rounds,
        args.cap,
        starts.len(),
        args.alpha,
        args.gamma,
        args.lambda,
        args.min_filled,
        args.seed
    );
    let mut trainer = Trainer {
        args,
        set: &set,
        weights,
        base: Arc::new(base),
        value: Value {
            scale: 0.01,
            bias: 0.0,
            tuples: vec![0.0; TABLES * PATTERNS],
        },
        began: Instant::now(),
        window: Window::default(),
    };
    trainer.run(&starts)?;
    let learned = trainer.value.tuples_in_eval_units(&trainer.base)?;
    if let Some(path) = &args.out {
        std::fs::write(path, learned.to_text()).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// What the progress line reports, since the last one.
#[derive(Default)]
struct Window {
    rounds: u64,
    games: u64,
    deaths: u64,
    chance: f64,
    error: f64,
}

/// One afterstate of a game: its evaluation (in thousands), tuples and chance of losing.
struct Step {
    eval: f64,
    entries: [u16; TUPLES],
    chance: f64,
}

struct Trainer<'a> {
    args: &'a TdArgs,
    set: &'a PieceSet,
    weights: Weights,
    /// The player's tuples.
    base: Arc<Tuples>,
    value: Value,
    began: Instant,
    window: Window,
}

impl Trainer<'_> {
    fn run(&mut self, starts: &[Board]) -> Result<(), String> {
        let args = self.args;
        let mut rng = SmallRng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut round = 0u64;
        let mut game = 0usize;
        let mut steps: Vec<Step> = Vec::new();
        while round < args.rounds {
            let mut position = Position {
                board: starts[game % starts.len()],
                ..Position::default()
            };
            game += 1;
            steps.clear();
            let mut died = false;
            while steps.len() < args.cap as usize && round < args.rounds {
                steps.push(self.step(position.board));
                round += 1;
                if round.is_multiple_of(args.report) {
                    self.report(round);
                }
                let hand = deal(&mut rng, self.set);
                let seed = args.seed ^ round;
                let mut search = HandSearch::with_tuples(
                    self.set,
                    self.weights,
                    Some(&self.base),
                    position,
                    &hand,
                    seed,
                );
                let unlimited = Budget {
                    soft: None,
                    hard: None,
                };
                let stop = Arc::new(AtomicBool::new(false));
                let control = SearchControl::new(stop, unlimited, None, Some(2));
                iterative::deepen(&mut search, &control, &mut |_| {});
                let Some(plan) = search.chosen_plan() else {
                    died = true;
                    break;
                };
                position = play_plan(position, &hand, &plan, Scoring::App)
                    .map_err(|e| format!("the engine's plan is illegal: {e}"))?;
            }
            self.window.games += 1;
            self.window.deaths += u64::from(died);
            // A game cut short goes on from its last board: its value ends the returns.
            let end = if died {
                None
            } else {
                Some(self.afterstate(position.board))
            };
            self.learn_game(&steps, end.as_ref());
        }
        Ok(())
    }

    /// A board met before a hand, counted in the progress window.
    fn step(&mut self, board: Board) -> Step {
        let step = self.afterstate(board);
        self.window.chance += step.chance;
        self.window.rounds += 1;
        step
    }

    fn afterstate(&self, board: Board) -> Step {
        let chance = if board.filled() >= self.args.min_filled {
            death_chance(board, self.set)
        } else {
            0.0
        };
        Step {
            eval: f64::from(evaluate(board, self.set, &self.weights) + self.base.value(board))
                / EVAL_UNIT,
            entries: entries(board),
            chance,
        }
    }

    /// Learns from a game's afterstates, last first, towards their lambda-returns. After the
    /// last one comes `end` (the board the game was cut at), or a loss.
    fn learn_game(&mut self, steps: &[Step], end: Option<&Step>) {
        let (gamma, lambda) = (self.args.gamma, self.args.lambda);
        let Some(last) = steps.last() else {
            return;
        };
        // The return after the last afterstate: its successor's value, or after a loss the
        // last afterstate's own (the loss itself is in its chance).
        let after = end.unwrap_or(last);
        let mut next_value = self.value.of(after.eval, &after.entries);
        let mut next_return = next_value;
        for s in steps.iter().rev() {
            let target = -s.chance
                + gamma * (1.0 - s.chance) * ((1.0 - lambda) * next_value + lambda * next_return);
            next_value = self.value.of(s.eval, &s.entries);
            let error = self
                .value
                .learn(s.eval, &s.entries, target, self.args.alpha);
            self.window.error += error.abs();
            next_return = target;
        }
    }

    fn report(&mut self, round: u64) {
        let w = std::mem::take(&mut self.window);
        println!(
            "{round} rounds: {} games, {} deaths, hazard mean {:.0} (exact chances), \
             mean |error| {:.2e}; scale {:.3e}, bias {:.3e}; {:.0} s",
            w.games,
            w.deaths,
            w.rounds as f64 / w.chance.max(1e-300),
            w.error / w.rounds.max(1) as f64,
            self.value.scale,
            self.value.bias,
            self.began.elapsed().as_secs_f64()
        );
    }
}
