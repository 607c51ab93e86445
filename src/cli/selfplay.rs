//! `tessera selfplay blockudoku`: seeded games under uniform random hands, with survival
//! statistics. Games are independent and seeded by their index, so `--jobs` does not change
//! the results of node- or depth-limited runs. [`run`] is the whole `tessera selfplay`: it hands
//! `sudoku` to [`super::selfplay_sudoku`].

use super::cputime::thread_cpu_time;
use super::exit_code;
use super::progress::Progress;
use super::selfplay_args::{SelfplayArgs, limits, parse_numbers};
use crate::games::blockudoku::board::Board;
use crate::games::blockudoku::danger::death_chance;
use crate::games::blockudoku::eval::{Weights, features};
use crate::games::blockudoku::eval_file::Evaluation;
use crate::games::blockudoku::features::FEATURES;
use crate::games::blockudoku::piece::{Piece, PieceSet};
use crate::games::blockudoku::rules::{Position, Scoring, play_plan};
use crate::games::blockudoku::search::{Compared, HandSearch};
use crate::search::{Limits, SearchControl, iterative, time};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Boards of at least this many filled cells count as crowded in the statistics: most of the
/// risk of death lies there, so how often a player lets the board get there is a far less noisy
/// sign of danger than its deaths.
const CROWDED_FROM: u32 = 36;

/// How one game went.
#[derive(Debug, Clone)]
struct GameResult {
    /// The game's index (its deal).
    game: usize,
    start: usize,
    rounds: u64,
    died: bool,
    score: u64,
    cpu: Duration,
    wall: Duration,
    recorded: Option<Board>,
    /// Summed chance of dying over the rounds asked (with --death-chance).
    chance: f64,
    /// Hands dealt to boards of [`CROWDED_FROM`] filled cells or more.
    crowded: u64,
    /// The look-ahead's labels, a JSON line per hand (with --distill).
    labels: String,
    /// The boards the hands were dealt to, a JSON line per round (with --trace).
    trace: String,
}

struct Setup {
    set: PieceSet,
    eval: Evaluation,
    /// The evaluation of the separate labelling search (--distill-teacher).
    teacher: Option<Evaluation>,
    limits: Limits,
    starts: Vec<Board>,
}

/// Runs `tessera selfplay` for either game; returns the exit code.
pub fn run(args: &SelfplayArgs) -> i32 {
    if let Err(message) = options_fit_the_game(args) {
        return exit_code(Err(message));
    }
    if args.game == "sudoku" {
        return super::selfplay_sudoku::run(args);
    }
    exit_code(setup(args).map(|setup| play_all(args, &setup)))
}

/// Refuses an option that only the other game reads, rather than ignoring it.
fn options_fit_the_game(args: &SelfplayArgs) -> Result<(), String> {
    let blockudoku_only = [
        ("--time-limit", args.time_limit.is_some()),
        ("--first-game", args.first_game > 0),
        ("--starts", args.starts.is_some()),
        ("--jsonl", args.jsonl.is_some()),
        ("--record", args.record.is_some()),
        ("--distill", args.distill.is_some()),
        ("--distill-teacher", args.distill_teacher.is_some()),
        ("--trace", args.trace.is_some()),
        ("--eval-file", args.eval_file.is_some()),
    ];
    let sudoku_only = [
        ("--box", args.r#box.is_some()),
        ("--mode", args.mode.is_some()),
        ("--opponent", args.opponent.is_some()),
        ("--openings", args.openings > 0),
        ("--sprt", args.sprt.is_some()),
        ("--opponent-level", args.opponent_level.is_some()),
    ];
    let (foreign, owner): (&[(&str, bool)], &str) = match args.game.as_str() {
        "blockudoku" => (&sudoku_only, "sudoku"),
        "sudoku" => (&blockudoku_only, "blockudoku"),
        _ => return Ok(()),
    };
    match foreign.iter().find(|(_, given)| *given) {
        Some((name, _)) => Err(format!("{name} is for selfplay {owner}, not {}", args.game)),
        None => Ok(()),
    }
}

fn setup(args: &SelfplayArgs) -> Result<Setup, String> {
    if args.game != "blockudoku" {
        return Err(format!(
            "selfplay knows the games blockudoku and sudoku, not '{}'",
            args.game
        ));
    }
    let set = PieceSet::builtin(&args.pieceset)?;
    let mut eval = match &args.eval_file {
        Some(value) => Evaluation::from_option(value)?,
        None => Evaluation::builtin(),
    };
    if let Some(text) = &args.weights {
        eval.weights = parse_weights(text)?;
    }
    let teacher = match (&args.distill_teacher, &args.distill) {
        (Some(value), Some(_)) => Some(Evaluation::from_option(value)?),
        (Some(_), None) => return Err("--distill-teacher needs --distill".into()),
        (None, _) => None,
    };
    if args.trace.is_some() && args.death_chance.is_none() {
        return Err("--trace needs --death-chance".into());
    }
    let limits = limits(args)?;
    let starts = match &args.starts {
        Some(path) => read_starts(path)?,
        None => vec![Board::EMPTY],
    };
    Ok(Setup {
        set,
        eval,
        teacher,
        limits,
        starts,
    })
}

pub(super) fn parse_weights(text: &str) -> Result<Weights, String> {
    let values = parse_numbers(text)?;
    let array: [i32; FEATURES] = values
        .try_into()
        .map_err(|_| format!("--weights needs {FEATURES} numbers"))?;
    Ok(Weights(array))
}

pub(super) fn read_starts(path: &PathBuf) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let boards = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("# "))
        .map(|l| Board::parse(l.split_whitespace().next().unwrap_or("")))
        .collect::<Result<Vec<_>, _>>()?;
    if boards.is_empty() {
        return Err(format!("{}: no boards", path.display()));
    }
    Ok(boards)
}

fn play_all(args: &SelfplayArgs, setup: &Setup) {
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; args.games]);
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let progress = Progress::new(args.games as u64, "games");
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games || out_of_time(args, started) {
                        break;
                    }
                    let result = play_game(args, setup, args.first_game + game, started);
                    let mut all = results.lock().unwrap_or_else(|e| e.into_inner());
                    all[game] = Some(result);
                    show_progress(&progress, &all);
                }
            });
        }
    });
    progress.finish();
    let results: Vec<GameResult> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    write_side_files(args, &results);
    print_summary(args, &results, started.elapsed());
}

/// Games done, with their rounds and deaths so far.
fn show_progress(progress: &Progress, results: &[Option<GameResult>]) {
    let done: Vec<&GameResult> = results.iter().flatten().collect();
    let rounds: u64 = done.iter().map(|r| r.rounds).sum();
    let deaths = done.iter().filter(|r| r.died).count();
    progress.set(
        done.len() as u64,
        format!("{rounds} rounds, {deaths} deaths"),
    );
}

/// A hand of three pieces dealt uniformly (with replacement) from `set`.
pub(super) fn deal(rng: &mut SmallRng, set: &PieceSet) -> Vec<Piece> {
    (0..3)
        .map(|_| set.pieces[rng.random_range(0..set.pieces.len())].clone())
        .collect()
}

/// True once the run's `--time-limit` has passed.
fn out_of_time(args: &SelfplayArgs, started: Instant) -> bool {
    args.time_limit
        .is_some_and(|limit| started.elapsed().as_secs_f64() >= limit)
}

fn play_game(args: &SelfplayArgs, setup: &Setup, game: usize, started: Instant) -> GameResult {
    let mut rng =
        SmallRng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game as u64);
    let start = game % setup.starts.len();
    let mut position = Position {
        board: setup.starts[start],
        ..Position::default()
    };
    let mut history: VecDeque<Board> = VecDeque::new();
    let (cpu0, wall0) = (thread_cpu_time(), Instant::now());
    let mut rounds = 0;
    let mut died = false;
    let mut chance = 0.0;
    let mut crowded = 0;
    let mut labels = String::new();
    let mut trace = String::new();
    let budget = time::budget(&setup.limits, 0);
    while rounds < args.cap && !out_of_time(args, started) {
        history.push_back(position.board);
        if history.len() > args.record_before + 1 {
            history.pop_front();
        }
        let board_chance = match args.death_chance {
            Some(min) if position.board.filled() >= min => death_chance(position.board, &setup.set),
            _ => 0.0,
        };
        chance += board_chance;
        if args.trace.is_some() {
            trace += &trace_line(game, rounds, position.board, board_chance, &setup.set);
        }
        crowded += u64::from(position.board.filled() >= CROWDED_FROM);
        let hand = deal(&mut rng, &setup.set);
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let control = SearchControl::new(stop, budget, setup.limits.nodes, setup.limits.depth);
        let seed = args.seed ^ rounds;
        let mut search = HandSearch::new(&setup.set, setup.eval.clone(), position, &hand, seed)
            .lookahead_from(args.lookahead_from)
            .level(args.level);
        iterative::deepen(&mut search, &control, &mut |_| {});
        if args.distill.is_some() {
            let compared = match &setup.teacher {
                Some(teacher) => teacher_compared(setup, teacher, position, &hand, seed),
                None => search.compared(),
            };
            labels += &label_line(game, rounds, position.board, &hand, &compared, &setup.set);
        }
        let Some(plan) = search.chosen_plan() else {
            died = true;
            break;
        };
        position = play_plan(position, &hand, &plan, Scoring::App)
            .unwrap_or_else(|e| panic!("the engine's plan is illegal: {e}"));
        rounds += 1;
    }
    let wall = wall0.elapsed();
    let cpu = match (cpu0, thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall,
    };
    let recorded = (died && history.len() > args.record_before).then(|| history[0]);
    GameResult {
        game,
        start,
        rounds,
        died,
        score: position.score,
        cpu,
        wall,
        recorded,
        chance,
        crowded,
        labels,
        trace,
    }
}

/// The `--trace` line of one round: the board the hand was dealt to, its features and its
/// exact death chance (0 below `--death-chance`'s filled cells).
fn trace_line(game: usize, round: u64, board: Board, chance: f64, set: &PieceSet) -> String {
    let f: Vec<String> = features(board, set).iter().map(i32::to_string).collect();
    format!(
        "{{\"game\":{game},\"round\":{round},\"board\":\"{board}\",\"chance\":{chance:.6e},\"features\":[{}]}}\n",
        f.join(",")
    )
}

/// The depth of the separate labelling search (--distill-teacher): the look-ahead's full
/// iterations, as `--depth 4`.
const TEACHER_DEPTH: u32 = 4;

/// The final boards that the separate teacher (--distill-teacher) compares for `hand` on
/// `position`: the look-ahead to [`TEACHER_DEPTH`] on every board, whatever the player does.
fn teacher_compared(
    setup: &Setup,
    teacher: &Evaluation,
    position: Position,
    hand: &[Piece],
    seed: u64,
) -> Vec<Compared> {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let limits = Limits {
        depth: Some(TEACHER_DEPTH),
        ..Limits::default()
    };
    let control = SearchControl::new(stop, time::budget(&limits, 0), None, limits.depth);
    let mut search =
        HandSearch::new(&setup.set, teacher.clone(), position, hand, seed).lookahead_from(0);
    iterative::deepen(&mut search, &control, &mut |_| {});
    search.compared()
}

/// The `--distill` line of one hand (empty if the search did not look ahead): the position,
/// the hand and the final boards the look-ahead compared, in the order of their static values,
/// with their features (see `docs/blockudoku-distill.md`).
fn label_line(
    game: usize,
    round: u64,
    board: Board,
    hand: &[Piece],
    compared: &[Compared],
    set: &PieceSet,
) -> String {
    if compared.is_empty() {
        return String::new();
    }
    let shapes: Vec<String> = hand.iter().map(|p| format!("\"{}\"", p.shape)).collect();
    let candidates: Vec<String> = compared
        .iter()
        .map(|c| {
            let f: Vec<String> = features(c.board, set).iter().map(i32::to_string).collect();
            format!(
                "{{\"board\":\"{}\",\"eval\":{},\"total\":{},\"samples\":{},\"chosen\":{},\"features\":[{}]}}",
                c.board,
                c.eval,
                c.total,
                c.samples,
                c.chosen,
                f.join(",")
            )
        })
        .collect();
    format!(
        "{{\"game\":{game},\"round\":{round},\"board\":\"{board}\",\"hand\":[{}],\"candidates\":[{}]}}\n",
        shapes.join(","),
        candidates.join(",")
    )
}

fn write_side_files(args: &SelfplayArgs, results: &[GameResult]) {
    if let Some(path) = &args.jsonl {
        let lines: String = results
            .iter()
            .map(|r| {
                let chance = match args.death_chance {
                    Some(_) => format!(",\"chance\":{:.6e}", r.chance),
                    None => String::new(),
                };
                format!(
                    "{{\"game\":{},\"seed\":{},\"start\":{},\"rounds\":{},\"died\":{},\"score\":{},\"cpu_ms\":{:.3},\"crowded\":{}{chance}}}\n",
                    r.game,
                    args.seed,
                    r.start,
                    r.rounds,
                    r.died,
                    r.score,
                    r.cpu.as_secs_f64() * 1000.0,
                    r.crowded
                )
            })
            .collect();
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("error: {}: {e}", path.display());
        }
    }
    if let Some(path) = &args.distill {
        let lines: String = results.iter().map(|r| r.labels.as_str()).collect();
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("error: {}: {e}", path.display());
        }
    }
    if let Some(path) = &args.trace {
        let lines: String = results.iter().map(|r| r.trace.as_str()).collect();
        if let Err(e) = std::fs::write(path, lines) {
            eprintln!("error: {}: {e}", path.display());
        }
    }
    if let Some(path) = &args.record {
        let boards: String = results
            .iter()
            .filter_map(|r| r.recorded)
            .map(|b| format!("{b}\n"))
            .collect();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path);
        if let Err(e) = file.and_then(|mut f| f.write_all(boards.as_bytes())) {
            eprintln!("error: {}: {e}", path.display());
        }
    }
}

/// The survival statistics of a set of games.
#[derive(Debug, Clone, PartialEq)]
pub struct Survival {
    /// Rounds played over all games.
    pub rounds: u64,
    /// Games lost.
    pub deaths: u64,
    /// Mean rounds per game if game length is exponential: rounds / deaths.
    pub hazard_mean: f64,
    /// 95% interval of that mean.
    pub interval: (f64, f64),
}

/// Estimates the mean game length from total rounds and deaths (games stopped at the cap count
/// their rounds and no death), with a 95% interval from the Poisson count of deaths.
pub fn survival(rounds: u64, deaths: u64) -> Survival {
    let t = rounds as f64;
    let d = deaths as f64;
    // Deaths ~ Poisson(t / mean); an approximate 95% interval for the count (Wilson-Hilferty
    // style bounds) turns into one for the mean.
    let low_count = if deaths == 0 {
        0.0
    } else {
        d * (1.0 - 1.0 / (9.0 * d) - 1.96 / (3.0 * d.sqrt())).powi(3)
    };
    let high_count = {
        let d1 = d + 1.0;
        d1 * (1.0 - 1.0 / (9.0 * d1) + 1.96 / (3.0 * d1.sqrt())).powi(3)
    };
    let hazard_mean = if deaths == 0 { f64::INFINITY } else { t / d };
    let upper = if low_count > 0.0 {
        t / low_count
    } else {
        f64::INFINITY
    };
    Survival {
        rounds,
        deaths,
        hazard_mean,
        interval: (t / high_count, upper),
    }
}

/// The mean chance of dying per round asked over all games, and its standard error from the
/// spread between games (a ratio estimator: games differ in length).
fn chance_rate(results: &[GameResult]) -> (f64, f64) {
    let games: Vec<(f64, f64)> = results
        .iter()
        .map(|r| (r.chance, (r.rounds + u64::from(r.died)) as f64))
        .collect();
    rate_and_error(&games)
}

/// [`chance_rate`] of games given as (summed chance, rounds asked).
pub(super) fn rate_and_error(games: &[(f64, f64)]) -> (f64, f64) {
    let rounds: f64 = games.iter().map(|g| g.1).sum();
    let rate = games.iter().map(|g| g.0).sum::<f64>() / rounds.max(1.0);
    let g = games.len() as f64;
    let spread: f64 = games
        .iter()
        .map(|(chance, asked)| (chance - rate * asked).powi(2))
        .sum();
    let se = if g > 1.0 {
        (spread * g / (g - 1.0)).sqrt() / rounds
    } else {
        f64::INFINITY
    };
    (rate, se)
}

/// The line that reports a death rate from exact chances: per round, hazard mean, interval.
pub(super) fn chance_line(rate: f64, se: f64, min_filled: u32) -> String {
    format!(
        "death_chance_per_round {rate:.3e} se {se:.1e} hazard_mean {:.1} ci95 {:.1} {:.1} \
         (boards of {min_filled}+ cells)",
        1.0 / rate,
        1.0 / (rate + 1.96 * se),
        1.0 / (rate - 1.96 * se).max(0.0),
    )
}

fn print_summary(args: &SelfplayArgs, results: &[GameResult], elapsed: Duration) {
    let mut rounds: Vec<u64> = results.iter().map(|r| r.rounds).collect();
    rounds.sort_unstable();
    let total: u64 = rounds.iter().sum();
    let deaths = results.iter().filter(|r| r.died).count() as u64;
    let games = results.len().max(1) as f64;
    let median = if rounds.is_empty() {
        0.0
    } else if rounds.len() % 2 == 1 {
        rounds[rounds.len() / 2] as f64
    } else {
        (rounds[rounds.len() / 2 - 1] + rounds[rounds.len() / 2]) as f64 / 2.0
    };
    let s = survival(total, deaths);
    let cpu: Duration = results.iter().map(|r| r.cpu).sum();
    let wall: Duration = results.iter().map(|r| r.wall).sum();
    let per_round = |d: Duration| d.as_secs_f64() * 1000.0 / total.max(1) as f64;
    let score: u64 = results.iter().map(|r| r.score).sum();
    println!(
        "games {} deaths {} rounds {} mean {:.1} median {:.1} cap {}",
        results.len(),
        deaths,
        total,
        total as f64 / games,
        median,
        args.cap
    );
    println!(
        "hazard_mean {:.1} ci95 {:.1} {:.1}",
        s.hazard_mean, s.interval.0, s.interval.1
    );
    if let Some(min) = args.death_chance {
        let (rate, se) = chance_rate(results);
        println!("{}", chance_line(rate, se, min));
    }
    println!(
        "score_mean {:.1} cpu_ms_per_round {:.3} wall_ms_per_round {:.3} elapsed_s {:.1}",
        score as f64 / games,
        per_round(cpu),
        per_round(wall),
        elapsed.as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::{survival, trace_line};
    use crate::games::blockudoku::board::Board;
    use crate::games::blockudoku::eval::features;
    use crate::games::blockudoku::piece::PieceSet;

    #[test]
    fn trace_line_holds_the_board_its_features_and_its_chance() {
        let set = PieceSet::builtin("standard47").unwrap();
        let text = "##......./#......../........./........./........./........./........./........./........#";
        let board = Board::parse(text).unwrap();
        let line = trace_line(3, 7, board, 0.25, &set);
        let expected: Vec<String> = features(board, &set).iter().map(i32::to_string).collect();
        assert_eq!(
            line,
            format!(
                "{{\"game\":3,\"round\":7,\"board\":\"{text}\",\"chance\":2.500000e-1,\"features\":[{}]}}\n",
                expected.join(",")
            )
        );
        assert!(
            expected[0] == "4",
            "the first feature counts the filled cells"
        );
    }

    #[test]
    fn survival_interval_brackets_the_estimate() {
        let s = survival(1_000_000, 19);
        assert!((s.hazard_mean - 52_631.6).abs() < 1.0);
        assert!(s.interval.0 < s.hazard_mean && s.hazard_mean < s.interval.1);
        // Exact Poisson bounds for 19 deaths: 11.44..29.67 -> mean 33.7k..87.4k.
        assert!((s.interval.0 - 33_700.0).abs() < 700.0, "{:?}", s.interval);
        assert!(
            (s.interval.1 - 87_400.0).abs() < 1_800.0,
            "{:?}",
            s.interval
        );
        let none = survival(5000, 0);
        assert!(none.hazard_mean.is_infinite());
        assert!((none.interval.0 - 5000.0 / 3.69).abs() < 20.0);
    }
}
