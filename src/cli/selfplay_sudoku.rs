//! `tessera selfplay sudoku`: Competitive Sudoku matches of the engine against a baseline
//! (`greedy`: the best immediate score without a solvability check, like the course framework's
//! greedy_player; `random`; or `self`), colours alternating, printing wins, draws and losses.

use super::selfplay::SelfplayArgs;
use crate::games::compsudoku::rules::{Game, Mode, Move, Outcome, move_name};
use crate::games::compsudoku::search::{DEFAULT_WEIGHTS, SudokuSearch, Weights};
use crate::games::compsudoku::session::position_string;
use crate::search::{Limits, SearchControl, iterative, time};
use crate::sudoku::{Shape, Solver};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Who the engine plays against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// The framework's greedy_player: best immediate score, no solvability check.
    Greedy,
    /// Random moves the rules allow.
    Random,
    /// The engine with the default weights.
    Engine,
}

impl Opponent {
    /// `greedy`, `random` or `self`.
    pub fn parse(text: &str) -> Result<Opponent, String> {
        match text {
            "greedy" => Ok(Opponent::Greedy),
            "random" => Ok(Opponent::Random),
            "self" => Ok(Opponent::Engine),
            other => Err(format!(
                "unknown opponent '{other}' (known: greedy, random, self)"
            )),
        }
    }
}

/// `--box MxN`.
pub fn parse_box(text: &str) -> Result<Shape, String> {
    let shape: Shape = text.parse().map_err(|e| format!("{e}"))?;
    if shape.size() < 2 {
        return Err("--box needs N = m*n >= 2".into());
    }
    Ok(shape)
}

struct Setup {
    shape: Shape,
    mode: Mode,
    opponent: Opponent,
    limits: Limits,
    weights: Weights,
}

/// Runs `tessera selfplay sudoku ...`; returns the exit code.
pub fn run(args: &SelfplayArgs) -> i32 {
    super::selfplay::exit_code(setup(args).map(|setup| play_all(args, &setup)))
}

fn setup(args: &SelfplayArgs) -> Result<Setup, String> {
    let shape = args.r#box.unwrap_or(Shape::CLASSIC);
    let mode = args.mode.unwrap_or(Mode::Classic);
    let opponent = args.opponent.unwrap_or(Opponent::Greedy);
    let limits = super::selfplay::limits(args)?;
    let weights = match &args.weights {
        Some(text) => parse_weights(text)?,
        None => DEFAULT_WEIGHTS,
    };
    Ok(Setup {
        shape,
        mode,
        opponent,
        limits,
        weights,
    })
}

/// `parity,hot,territory` in centipoints (percent for hot).
fn parse_weights(text: &str) -> Result<Weights, String> {
    let values = super::selfplay::parse_numbers(text)?;
    match values[..] {
        [parity, hot, territory] => Ok(Weights {
            parity,
            hot,
            territory,
        }),
        _ => Err("--weights needs 3 numbers for sudoku: parity,hot,territory".into()),
    }
}

/// The engine's move.
fn engine_move(game: &Game, setup: &Setup, weights: Weights) -> Option<(Move, bool)> {
    let stop = Arc::new(AtomicBool::new(false));
    let control = SearchControl::new(
        stop,
        time::budget(&setup.limits, 0),
        setup.limits.nodes,
        setup.limits.depth,
    );
    let mut search = SudokuSearch::new(game, weights, &|| false);
    iterative::deepen(&mut search, &control, &mut |_| {});
    let pass = search.chosen_is_pass();
    search.chosen().map(|(mv, _)| (mv, pass))
}

/// The moves the rules allow (not checked for solvability) with the points each scores now.
fn rule_moves(game: &Game) -> Vec<(Move, u32)> {
    game.rule_moves()
        .into_iter()
        .map(|mv| (mv, game.points_for(usize::from(mv.cell))))
        .collect()
}

/// Greedy like the framework's greedy_player: a random move among those scoring most now.
fn greedy_move(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    let moves = rule_moves(game);
    let best = moves.iter().map(|&(_, p)| p).max()?;
    let top: Vec<Move> = moves
        .into_iter()
        .filter(|&(_, p)| p == best)
        .map(|(m, _)| m)
        .collect();
    Some(top[rng.random_range(0..top.len())])
}

fn random_move(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    let moves = rule_moves(game);
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())].0)
}

struct GameResult {
    /// Engine's score minus the opponent's.
    margin: i64,
    engine_first: bool,
    engine_passes: u32,
    opponent_taboos: u32,
    illegal: Option<String>,
}

fn play_game(args: &SelfplayArgs, setup: &Setup, index: usize) -> GameResult {
    let seed = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(setup.shape, setup.mode, seed);
    let engine_player = index % 2;
    let mut solver = Solver::new();
    let (mut engine_passes, mut opponent_taboos) = (0, 0);
    let mut illegal = None;
    let trace = std::env::var_os("TESSERA_TRACE").is_some();
    while let Some(player) = game.mover() {
        let ours = player == engine_player;
        let mv = if ours {
            engine_move(&game, setup, setup.weights).map(|(mv, pass)| {
                engine_passes += u32::from(pass);
                mv
            })
        } else {
            match setup.opponent {
                Opponent::Greedy => greedy_move(&game, &mut rng),
                Opponent::Random => random_move(&game, &mut rng),
                Opponent::Engine => engine_move(&game, setup, DEFAULT_WEIGHTS).map(|(m, _)| m),
            }
        };
        let Some(mv) = mv else {
            illegal = Some(format!("player {} proposed no move", player + 1));
            break;
        };
        let before = trace.then(|| position_string(&game));
        let result = game.play(mv, &mut solver);
        if let Some(before) = before {
            eprintln!(
                "{before}  ->  player {} {} {}: {result:?}",
                player + 1,
                if ours { "engine" } else { "opponent" },
                move_name(mv, game.size())
            );
        }
        match result {
            Ok(Outcome::Taboo) if !ours => opponent_taboos += 1,
            Ok(_) => {}
            Err(e) => {
                illegal = Some(format!("player {} played an illegal move: {e}", player + 1));
                break;
            }
        }
    }
    let margin = game.scores[engine_player] as i64 - game.scores[1 - engine_player] as i64;
    GameResult {
        margin,
        engine_first: engine_player == 0,
        engine_passes,
        opponent_taboos,
        illegal,
    }
}

fn play_all(args: &SelfplayArgs, setup: &Setup) {
    let started = Instant::now();
    let (mut wins, mut draws, mut losses, mut illegal) = (0, 0, 0, 0);
    let mut first = [0usize; 3];
    let mut margin = 0i64;
    let (mut passes, mut taboos) = (0u64, 0u64);
    for index in 0..args.games {
        let r = play_game(args, setup, index);
        let outcome = if r.illegal.is_some() {
            illegal += 1;
            eprintln!("game {index}: {}", r.illegal.as_deref().unwrap_or_default());
            2
        } else {
            match r.margin.cmp(&0) {
                std::cmp::Ordering::Greater => {
                    wins += 1;
                    0
                }
                std::cmp::Ordering::Equal => {
                    draws += 1;
                    1
                }
                std::cmp::Ordering::Less => {
                    losses += 1;
                    2
                }
            }
        };
        if r.engine_first {
            first[outcome] += 1;
        }
        margin += r.margin;
        passes += u64::from(r.engine_passes);
        taboos += u64::from(r.opponent_taboos);
        eprintln!(
            "game {index}: engine {} margin {:+} passes {} opponent taboos {}",
            if r.engine_first { "first" } else { "second" },
            r.margin,
            r.engine_passes,
            r.opponent_taboos
        );
    }
    let games = args.games.max(1) as f64;
    println!(
        "games {} wins {wins} draws {draws} losses {losses} illegal {illegal} (as first: {}-{}-{})",
        args.games, first[0], first[1], first[2]
    );
    println!(
        "margin_mean {:.2} engine_passes_mean {:.2} opponent_taboos_mean {:.2} elapsed_s {:.1}",
        margin as f64 / games,
        passes as f64 / games,
        taboos as f64 / games,
        started.elapsed().as_secs_f64()
    );
}
