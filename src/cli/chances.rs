//! `tessera chances BOARDS REFEREE.jsonl`: the death rate of any Blockudoku player from the
//! exact chances of the boards it met, not from its few deaths.
//!
//! `tools/blockudoku_referee.py --record-crowded BOARDS --min-filled N --jsonl REFEREE.jsonl`
//! records every board of N+ cells each player met before a hand, and each game's rounds. This
//! sums the exact chance that a uniform hand cannot be placed (`games::blockudoku::danger`)
//! over each game's boards, prints per player the chance per round asked and its hazard mean
//! with a 95% interval (as `selfplay --death-chance` does for tessera's own games), and with
//! `--out` writes the referee's lines with each game's `chance` added: `tessera compare` then
//! compares two players game by game on the same deals. A line per player also tells how many
//! boards of each band of filled cells it met and their summed chance: where its risk lies.

use super::compare::value;
use super::selfplay::{chance_line, rate_and_error};
use crate::games::blockudoku::board::Board;
use crate::games::blockudoku::danger::death_chance;
use crate::games::blockudoku::piece::PieceSet;
use clap::Args;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// The lower ends of the bands of filled cells the report splits the chances into.
const BANDS: [u32; 5] = [0, 27, 30, 33, 36];

/// Options of `tessera chances`.
#[derive(Debug, Args)]
pub struct ChancesArgs {
    /// The boards the players met (the referee's `--record-crowded` file).
    pub boards: PathBuf,
    /// The referee's `--jsonl` file of the same run.
    pub jsonl: PathBuf,
    /// The `--min-filled` the boards were recorded with (for the report).
    #[arg(long, default_value_t = 24)]
    pub min_filled: u32,
    /// Write the referee's lines with each game's summed chance added here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Piece set the hands were dealt from.
    #[arg(long, default_value = "standard47")]
    pub pieceset: String,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &ChancesArgs) -> i32 {
    super::exit_code(chances(args))
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The number after `word` in a line of words.
fn after(line: &str, word: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == word)?;
    words.next()?.parse().ok()
}

fn chances(args: &ChancesArgs) -> Result<(), String> {
    let set = PieceSet::builtin(&args.pieceset)?;
    // Summed chance by (player, game), and by player and filled cells: (boards, chance).
    let mut summed: HashMap<(u64, u64), f64> = HashMap::new();
    let mut by_filled: BTreeMap<u64, [(u64, f64); BANDS.len()]> = BTreeMap::new();
    for (i, line) in read(&args.boards)?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || {
            format!(
                "{}:{}: not 'BOARD player P game G'",
                args.boards.display(),
                i + 1
            )
        };
        let board = Board::parse(line.split_whitespace().next().ok_or_else(bad)?)
            .map_err(|e| format!("{}:{}: {e}", args.boards.display(), i + 1))?;
        let key = (
            after(line, "player").ok_or_else(bad)?,
            after(line, "game").ok_or_else(bad)?,
        );
        let chance = death_chance(board, &set);
        *summed.entry(key).or_default() += chance;
        let band = BANDS
            .iter()
            .rposition(|&b| board.filled() >= b)
            .unwrap_or(0);
        let cell = &mut by_filled.entry(key.0).or_insert([(0, 0.0); BANDS.len()])[band];
        *cell = (cell.0 + 1, cell.1 + chance);
    }
    // Per player: each game's (chance, rounds asked).
    let mut players: BTreeMap<u64, (String, Vec<(f64, f64)>)> = BTreeMap::new();
    let mut out = String::new();
    for (i, line) in read(&args.jsonl)?.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let field = |key: &str| {
            value(line, key).ok_or(format!("{}:{}: no {key}", args.jsonl.display(), i + 1))
        };
        let number = |key: &str| -> Result<u64, String> {
            field(key)?
                .parse()
                .map_err(|_| format!("{}:{}: bad {key}", args.jsonl.display(), i + 1))
        };
        let (player, game, rounds) = (number("player")?, number("game")?, number("rounds")?);
        let died = field("died")? == "true";
        let chance = summed.remove(&(player, game)).unwrap_or(0.0);
        let engine = value(line, "engine")
            .unwrap_or("")
            .trim_matches('"')
            .to_string();
        let entry = players.entry(player).or_insert((engine, Vec::new()));
        entry.1.push((chance, (rounds + u64::from(died)) as f64));
        let body = line.trim_end().trim_end_matches('}');
        out.push_str(&format!("{body},\"chance\":{chance:.6e}}}\n"));
    }
    if let Some(((player, game), _)) = summed.iter().next() {
        return Err(format!(
            "{}: player {player} game {game} has boards but no line in {}",
            args.boards.display(),
            args.jsonl.display()
        ));
    }
    for (player, (engine, games)) in &players {
        let (rate, se) = rate_and_error(games);
        let rounds: f64 = games.iter().map(|g| g.1).sum();
        println!(
            "player {player} games {} rounds {rounds} {}  # {engine}",
            games.len(),
            chance_line(rate, se, args.min_filled)
        );
        if let Some(bands) = by_filled.get(player) {
            let parts: Vec<String> = bands
                .iter()
                .zip(BANDS)
                .map(|(&(boards, chance), from)| format!("{from}+: {boards} boards {chance:.3}"))
                .collect();
            println!(
                "  boards and summed chance by filled cells: {}",
                parts.join(", ")
            );
        }
    }
    if let Some(path) = &args.out {
        std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
