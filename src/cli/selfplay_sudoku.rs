//! `tessera selfplay sudoku`: Competitive Sudoku matches of the engine against a baseline
//! (`greedy`: the best immediate score without a solvability check, like the course framework's
//! greedy_player; `random`; `self`; or another engine over the protocol, e.g. an older build),
//! colours alternating, printing wins, draws and losses, the score with its interval and Elo,
//! optionally stopped by an SPRT. With `--openings K` each pair of games starts from the same K
//! random moves, one game with each colour. `--level` and `--opponent-level` set the `Level`
//! of the engine and of a `self` or external opponent.

use super::cputime::thread_cpu_time;
use super::exit_code;
use super::external::ExternalEngine;
use super::progress::Progress;
use super::selfplay_args::{Opponent, SelfplayArgs, limits, parse_numbers};
use super::sprt::{Sprt, Tally, Verdict};
use crate::games::FULL_STRENGTH;
use crate::games::compsudoku::levels::{self, Play, greedy_move, random_move};
use crate::games::compsudoku::rules::{Game, Mode, Move, Outcome, move_name, parse_move};
use crate::games::compsudoku::search::{DEFAULT_WEIGHTS, SudokuSearch, Weights};
use crate::games::compsudoku::session::position_string;
use crate::search::{Limits, SearchControl, iterative, time};
use crate::sudoku::{Shape, Solver};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

struct Setup {
    shape: Shape,
    mode: Mode,
    opponent: Opponent,
    limits: Limits,
    weights: Weights,
    sprt: Option<Sprt>,
    /// The `Level` of the engine and of a `self` or external opponent.
    levels: [u32; 2],
}

/// Runs `tessera selfplay sudoku ...`; returns the exit code.
pub fn run(args: &SelfplayArgs) -> i32 {
    exit_code(setup(args).map(|setup| play_all(args, &setup)))
}

fn setup(args: &SelfplayArgs) -> Result<Setup, String> {
    let shape = args.r#box.unwrap_or(Shape::CLASSIC);
    let mode = args.mode.unwrap_or(Mode::Classic);
    let opponent = args.opponent.clone().unwrap_or(Opponent::Greedy);
    let limits = limits(args)?;
    let weights = match &args.weights {
        Some(text) => parse_weights(text)?,
        None => DEFAULT_WEIGHTS,
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if args.opponent_level.is_some() && matches!(opponent, Opponent::Greedy | Opponent::Random) {
        return Err("--opponent-level needs --opponent self or engine:PATH".into());
    }
    let levels = [args.level, args.opponent_level.unwrap_or(FULL_STRENGTH)];
    Ok(Setup {
        shape,
        mode,
        opponent,
        limits,
        weights,
        sprt,
        levels,
    })
}

/// `parity,hot,territory` in centipoints (percent for hot).
fn parse_weights(text: &str) -> Result<Weights, String> {
    let values = parse_numbers(text)?;
    match values[..] {
        [parity, hot, territory] => Ok(Weights {
            parity,
            hot,
            territory,
        }),
        _ => Err("--weights needs 3 numbers for sudoku: parity,hot,territory".into()),
    }
}

/// The engine's move at `level` (none only when it has none), and whether it is a deliberate
/// pass; `seed` draws the random choices of the low levels.
fn engine_move(
    game: &Game,
    setup: &Setup,
    weights: Weights,
    level: u32,
    seed: u64,
) -> Option<(Move, bool)> {
    let play = levels::play(level);
    let Play::Search(caps) = play else {
        return levels::baseline_move(game, play, seed).map(|mv| (mv, false));
    };
    let stop = Arc::new(AtomicBool::new(false));
    let control = SearchControl::new(
        stop,
        time::budget(&setup.limits, 0),
        setup.limits.nodes,
        setup.limits.depth,
    )
    .capped(caps.nodes, caps.depth);
    let mut search = SudokuSearch::new(game, weights, &|| false)
        .with_noise(caps.noise, levels::position_seed(seed, game));
    iterative::deepen(&mut search, &control, &mut |_| {});
    let pass = search.chosen_is_pass();
    match search.chosen() {
        Some((mv, _)) => Some((mv, pass)),
        // Out of time before a first result: the first rule move, as the protocol's `go`.
        None => game.rule_moves().first().map(|&mv| (mv, false)),
    }
}

struct GameResult {
    /// Engine's score minus the opponent's.
    margin: i64,
    engine_first: bool,
    engine_passes: u32,
    opponent_taboos: u32,
    /// Why the game stopped early, and whether the engine (not the opponent) is to blame: the
    /// side at fault loses it.
    illegal: Option<(String, bool)>,
    /// CPU time and moves of each side: `[engine, opponent]`.
    cpu: [MoveClock; 2],
}

/// CPU time spent on a side's moves, and how many moves it was measured over.
#[derive(Clone, Copy, Default)]
struct MoveClock {
    cpu: Duration,
    moves: u32,
}

impl MoveClock {
    /// Adds one move that took `before..after` of CPU (nothing where a reading is missing).
    fn add(&mut self, before: Option<Duration>, after: Option<Duration>) {
        if let (Some(before), Some(after)) = (before, after) {
            self.cpu += after.saturating_sub(before);
            self.moves += 1;
        }
    }

    fn merge(&mut self, other: MoveClock) {
        self.cpu += other.cpu;
        self.moves += other.moves;
    }

    /// Milliseconds per measured move, or `-` when none was measured.
    fn per_move(&self) -> String {
        if self.moves == 0 {
            "-".into()
        } else {
            format!(
                "{:.1}",
                self.cpu.as_secs_f64() * 1000.0 / f64::from(self.moves)
            )
        }
    }
}

/// The `go` arguments of the limits, for an external opponent.
fn go_arguments(limits: &Limits) -> String {
    let mut words = Vec::new();
    if let Some(ms) = limits.movetime {
        words.push(format!("movetime {ms}"));
    }
    if let Some(nodes) = limits.nodes {
        words.push(format!("nodes {nodes}"));
    }
    if let Some(depth) = limits.depth {
        words.push(format!("depth {depth}"));
    }
    words.join(" ")
}

/// The opponent's CPU time so far: an external engine's process, else this thread (where the
/// built-in opponents play).
fn opponent_cpu(external: Option<&ExternalEngine>) -> Option<Duration> {
    match external {
        Some(engine) => engine.cpu_time(),
        None => thread_cpu_time(),
    }
}

/// The external opponent's move for `game`.
fn external_move(
    engine: &mut ExternalEngine,
    game: &Game,
    setup: &Setup,
) -> Result<Option<Move>, String> {
    engine.send(&position_string(game))?;
    let best = engine.bestmove(&go_arguments(&setup.limits))?;
    match best.first().map(String::as_str) {
        None | Some("none") => Ok(None),
        Some(text) => parse_move(text, game.size()).map(Some),
    }
}

/// Plays `count` random moves that keep the grid solvable (the opening of a pair of games).
fn play_opening(game: &mut Game, count: usize, rng: &mut SmallRng, solver: &mut Solver) {
    for _ in 0..count {
        let mut moves = game.rule_moves();
        let placing = loop {
            if moves.is_empty() {
                return;
            }
            let mv = moves.swap_remove(rng.random_range(0..moves.len()));
            if solver.is_solvable_after(&game.grid, usize::from(mv.cell), mv.value) {
                break mv;
            }
        };
        let _ = game.play(placing, solver);
    }
}

fn play_game(args: &SelfplayArgs, setup: &Setup, index: usize) -> GameResult {
    // Games 2k and 2k+1 share their seed, hence the random mode's cells and the opening.
    let pair = if args.openings > 0 { index / 2 } else { index };
    let seed = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair as u64;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(setup.shape, setup.mode, seed);
    let engine_player = index % 2;
    let mut solver = Solver::new();
    play_opening(&mut game, args.openings, &mut rng, &mut solver);
    let (mut engine_passes, mut opponent_taboos) = (0, 0);
    let mut illegal = None;
    let mut cpu = [MoveClock::default(); 2];
    let mut external = match &setup.opponent {
        Opponent::External(path) => match ExternalEngine::start(path).and_then(|mut engine| {
            if setup.levels[1] != FULL_STRENGTH {
                engine.send(&format!("setoption name Level value {}", setup.levels[1]))?;
            }
            engine.send(&format!(
                "newgame sudoku box {} mode {} seed {seed}",
                setup.shape,
                setup.mode.name()
            ))?;
            Ok(engine)
        }) {
            Ok(engine) => Some(engine),
            Err(e) => {
                return GameResult {
                    margin: 0,
                    engine_first: engine_player == 0,
                    engine_passes: 0,
                    opponent_taboos: 0,
                    // Counted against the engine: the match cannot be played as asked.
                    illegal: Some((e, true)),
                    cpu: [MoveClock::default(); 2],
                };
            }
        },
        _ => None,
    };
    let trace = std::env::var_os("TESSERA_TRACE").is_some();
    while let Some(player) = game.mover() {
        let ours = player == engine_player;
        let mv = if ours {
            let before = thread_cpu_time();
            let mv = engine_move(&game, setup, setup.weights, setup.levels[0], seed).map(
                |(mv, pass)| {
                    engine_passes += u32::from(pass);
                    mv
                },
            );
            cpu[0].add(before, thread_cpu_time());
            mv
        } else {
            let before = opponent_cpu(external.as_ref());
            let mv = match (&setup.opponent, external.as_mut()) {
                (Opponent::Greedy, _) => greedy_move(&game, &mut rng),
                (Opponent::Random, _) => random_move(&game, &mut rng),
                (Opponent::Engine, _) => {
                    engine_move(&game, setup, DEFAULT_WEIGHTS, setup.levels[1], seed)
                        .map(|(m, _)| m)
                }
                (Opponent::External(_), Some(engine)) => {
                    match external_move(engine, &game, setup) {
                        Ok(mv) => mv,
                        Err(e) => {
                            illegal = Some((format!("player {}: {e}", player + 1), false));
                            break;
                        }
                    }
                }
                (Opponent::External(_), None) => None,
            };
            cpu[1].add(before, opponent_cpu(external.as_ref()));
            mv
        };
        let Some(mv) = mv else {
            illegal = Some((format!("player {} proposed no move", player + 1), ours));
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
                illegal = Some((
                    format!("player {} played an illegal move: {e}", player + 1),
                    ours,
                ));
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
        cpu,
    }
}

fn play_all(args: &SelfplayArgs, setup: &Setup) {
    let started = Instant::now();
    let (mut wins, mut draws, mut losses, mut forfeits) = (0, 0, 0, 0);
    let mut first = [0usize; 3];
    let mut margin = 0i64;
    let (mut passes, mut taboos) = (0u64, 0u64);
    let mut tally = Tally::default();
    let mut verdict = Verdict::Continue;
    let mut cpu = [MoveClock::default(); 2];
    let progress = Progress::new(args.games as u64, "games");
    for index in 0..args.games {
        let r = play_game(args, setup, index);
        cpu[0].merge(r.cpu[0]);
        cpu[1].merge(r.cpu[1]);
        let outcome = if let Some((why, by_engine)) = &r.illegal {
            forfeits += 1;
            progress.note(&format!("game {index}: {why}"));
            if *by_engine {
                losses += 1;
                2
            } else {
                wins += 1;
                0
            }
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
        match outcome {
            0 => tally.wins += 1,
            1 => tally.draws += 1,
            _ => tally.losses += 1,
        }
        progress.note(&format!(
            "game {index}: engine {} margin {:+} passes {} opponent taboos {} cpu_ms_per_move {} / {}",
            if r.engine_first { "first" } else { "second" },
            r.margin,
            r.engine_passes,
            r.opponent_taboos,
            r.cpu[0].per_move(),
            r.cpu[1].per_move()
        ));
        progress.set(
            index as u64 + 1,
            format!("engine {}-{}-{}", tally.wins, tally.draws, tally.losses),
        );
        if let Some(sprt) = &setup.sprt {
            // Whole pairs only: both colours of an opening.
            if args.openings == 0 || index % 2 == 1 {
                verdict = sprt.verdict(&tally);
                if verdict != Verdict::Continue {
                    break;
                }
            }
        }
    }
    progress.finish();
    let games = tally.games().max(1) as f64;
    println!(
        "games {} wins {wins} draws {draws} losses {losses} forfeits {forfeits} (as first: {}-{}-{})",
        tally.games(),
        first[0],
        first[1],
        first[2]
    );
    println!("engine: {}", tally.summary());
    if let Some(sprt) = &setup.sprt {
        let (low, high) = sprt.bounds();
        println!(
            "sprt elo0 {} elo1 {}: llr {:.2} (bounds {low:.2} {high:.2}) {}",
            sprt.elo0,
            sprt.elo1,
            sprt.llr(&tally),
            match verdict {
                Verdict::Better => "H1 accepted: better",
                Verdict::NotBetter => "H0 accepted: not better",
                Verdict::Continue => "undecided",
            }
        );
    }
    println!(
        "cpu_ms_per_move engine {} opponent {} (moves measured {} / {})",
        cpu[0].per_move(),
        cpu[1].per_move(),
        cpu[0].moves,
        cpu[1].moves
    );
    println!(
        "margin_mean {:.2} engine_passes_mean {:.2} opponent_taboos_mean {:.2} elapsed_s {:.1}",
        margin as f64 / games,
        passes as f64 / games,
        taboos as f64 / games,
        started.elapsed().as_secs_f64()
    );
}
