//! The command line of `tessera selfplay`, one for both games (`blockudoku` in
//! [`super::selfplay`], `sudoku` in [`super::selfplay_sudoku`]), with the option values and
//! parsers both read.

use crate::games::FULL_STRENGTH;
use crate::search::Limits;
use crate::sudoku::Shape;
use clap::Args;
use std::path::PathBuf;

/// Options of `tessera selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The game to play: blockudoku or sudoku.
    pub game: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Blockudoku: the index of the first game (the games of the run are this one and the
    /// next ones: a run can go on where another stopped, on the same deals).
    #[arg(long, default_value_t = 0)]
    pub first_game: usize,
    /// Seed of the deals (game i uses seed and i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Think time per round in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Node budget per round (deterministic).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Iteration depth per round (1 = greedy, 2 = full hand search, 3+ = look-ahead).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Stop a game after this many rounds (it counts as surviving).
    #[arg(long, default_value_t = 100_000)]
    pub cap: u64,
    /// Blockudoku: stop after this many seconds; games in play end as if capped, later games are not
    /// started (for long survival runs that must end on time).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Start boards, one a line (rows joined by '/'); game i starts from board i mod count.
    #[arg(long)]
    pub starts: Option<PathBuf>,
    /// Write one JSON line per game to this file.
    #[arg(long)]
    pub jsonl: Option<PathBuf>,
    /// Piece set the hands are dealt from.
    #[arg(long, default_value = "standard47")]
    pub pieceset: String,
    /// Evaluation weights, comma-separated (for tuning). Blockudoku: they replace the linear
    /// weights of --eval-file's evaluation.
    #[arg(long, allow_hyphen_values = true)]
    pub weights: Option<String>,
    /// Blockudoku: the evaluation, as the engine's `EvalFile` option: `builtin` (the default),
    /// `handmade` (the linear weights alone) or an evaluation file (docs/blockudoku-distill.md).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Append the board of each lost game, --record-before rounds before the loss, to this file
    /// (crowded start positions for tuning).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// How many rounds before the loss --record takes its board.
    #[arg(long, default_value_t = 5)]
    pub record_before: usize,
    /// Blockudoku: also estimate the death rate from the exact chance that each round's hand
    /// cannot be placed (see `games::blockudoku::danger`), on boards with at least this many
    /// filled cells (emptier boards count 0): far less noisy than counting deaths.
    #[arg(long)]
    pub death_chance: Option<u32>,
    /// Blockudoku: write the look-ahead's labels to this file, one JSON line for every hand it
    /// looked ahead (the teacher's data for a learned evaluation; format in
    /// docs/blockudoku-distill.md).
    #[arg(long)]
    pub distill: Option<PathBuf>,
    /// Blockudoku, with --distill: the labels come from a separate teacher, the look-ahead
    /// (`--depth 4`, on every board) with this evaluation (as --eval-file: `handmade`, `builtin`
    /// or a file), while the game is played by the player the other options set (DAgger: the
    /// student's positions, the teacher's labels). Without it the labelling search plays.
    #[arg(long)]
    pub distill_teacher: Option<String>,
    /// Blockudoku, with --death-chance: write every board a hand was dealt to, one JSON line a
    /// round (the board, its features and its exact death chance), so that each board can be
    /// labelled by what the next hands did (format in docs/blockudoku-distill.md).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Blockudoku: look ahead (iterations 3+) only on boards with at least this many filled
    /// cells (the engine's `LookaheadFrom` option; 0 = on every board).
    #[arg(long, default_value_t = crate::games::blockudoku::search::LOOKAHEAD_FROM)]
    pub lookahead_from: u32,
    /// Playing level, 1 (weakest) to 10 (full strength, the default): the engine's `Level`
    /// option (Sudoku: 1 random, 2 greedy, 3-9 capped searches).
    #[arg(long, default_value_t = FULL_STRENGTH,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(FULL_STRENGTH)))]
    pub level: u32,
    /// Sudoku: box shape MxN (default 3x3).
    #[arg(long = "box", value_parser = parse_box)]
    pub r#box: Option<Shape>,
    /// Sudoku: classic, rows, border or random (default classic).
    #[arg(long, value_parser = crate::games::compsudoku::rules::Mode::parse)]
    pub mode: Option<crate::games::compsudoku::rules::Mode>,
    /// Sudoku: greedy, random, self or engine:PATH (another engine binary, e.g. an older build;
    /// default greedy).
    #[arg(long, value_parser = Opponent::parse)]
    pub opponent: Option<Opponent>,
    /// Sudoku: the opponent's level, for `--opponent self` or `engine:PATH` (sent as the
    /// `Level` option); default full strength.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::games::FULL_STRENGTH as i64))]
    pub opponent_level: Option<u32>,
    /// Sudoku: random moves that open every pair of games (one game with each colour).
    #[arg(long, default_value_t = 0)]
    pub openings: usize,
    /// Sudoku: stop when an SPRT of ELO0 against ELO1 (alpha = beta = 0.05) decides, e.g. 0,30.
    #[arg(long)]
    pub sprt: Option<String>,
}

/// Who the engine plays against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opponent {
    /// The framework's greedy_player: best immediate score, no solvability check.
    Greedy,
    /// Random moves the rules allow.
    Random,
    /// The engine with the default weights (at `--opponent-level`).
    Engine,
    /// Another engine binary, driven over the protocol with the same limits.
    External(PathBuf),
}

impl Opponent {
    /// `greedy`, `random`, `self` or `engine:PATH`.
    pub fn parse(text: &str) -> Result<Opponent, String> {
        match text {
            "greedy" => Ok(Opponent::Greedy),
            "random" => Ok(Opponent::Random),
            "self" => Ok(Opponent::Engine),
            other => match other.strip_prefix("engine:") {
                Some(path) if !path.is_empty() => Ok(Opponent::External(PathBuf::from(path))),
                _ => Err(format!(
                    "unknown opponent '{other}' (known: greedy, random, self, engine:PATH)"
                )),
            },
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

/// The search limits per move: `--movetime`, `--nodes` and `--depth`, at least one of them.
pub(super) fn limits(args: &SelfplayArgs) -> Result<Limits, String> {
    let limits = Limits {
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        ..Limits::default()
    };
    if limits.movetime.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
        return Err("give --movetime, --nodes or --depth".into());
    }
    Ok(limits)
}

/// The numbers of a `--weights` list (`-5,90,-12`).
pub(super) fn parse_numbers(text: &str) -> Result<Vec<i32>, String> {
    text.split(',')
        .map(|w| w.trim().parse().map_err(|_| format!("bad weight '{w}'")))
        .collect()
}
