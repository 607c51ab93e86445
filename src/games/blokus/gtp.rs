//! `tessera gtp`: Blokus over GTP 2, the text protocol of the strongest open Blokus engine, so
//! its match runner and GUIs drive tessera unchanged.
//!
//! Framing: `[id] command args` per line (`#` starts a comment); the answer is `=[id] result` or
//! `?[id] message`, then one empty line, flushed at once. Beside the reference engine's commands,
//! `tessera-analyze` values a position for every player, for game analysis (see
//! `position_value`).

use super::board::{MoveGen, Variant};
use super::book::Book;
use super::game::Game;
use super::gembloq::gtp::{Budget, GembloqGame};
use super::gembloq::variant::GembloqVariant;
use super::gtp_colour::parse_colour;
use super::last_tree::{self, LastTree};
use super::level;
use super::mcts::Mcts;
use super::position_value::{self, MAX_PLAYOUTS};
use super::session::{SearchSettings, search_tree};
use super::sgf;
use crate::games::FULL_STRENGTH;
use crate::stream::reader::{self, Input};
use crate::stream::{EXIT_PATIENCE, Output};

/// Options of `tessera gtp`.
#[derive(Debug, Clone, clap::Args)]
pub struct GtpArgs {
    /// Thinking time per `genmove`, in milliseconds (default 1000 unless --nodes is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Playouts per `genmove`.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Do not play the built-in opening book's moves.
    #[arg(long)]
    pub nobook: bool,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the search's random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Playing level, 1 (weakest) to 10 (full strength): level k below 10 searches the
    /// playouts the reference engine's level k does, one thread, no time limit unless given.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(FULL_STRENGTH)))]
    pub level: Option<u32>,
    /// Start with this variant (`classic`, `two`, `three`, `duo`, `junior`, `trigon`,
    /// `trigon_2`, `trigon_3`, `callisto`, `callisto_2`, `callisto_2_4`, `callisto_3`, `nexos`,
    /// `nexos_2`, `gembloq`, `gembloq_2`, `gembloq_2_4`, `gembloq_3`).
    #[arg(long, default_value = "classic")]
    pub variant: String,
}

/// The commands answered, as `list_commands` shows them.
pub const COMMANDS: &[&str] = &[
    "all_legal",
    "clear_board",
    "cputime",
    "final_score",
    "genmove",
    "known_command",
    "list_commands",
    "loadsgf",
    "name",
    "play",
    "protocol_version",
    "quit",
    "set_game",
    "set_random_seed",
    "showboard",
    "tessera-analyze",
    "undo",
    "version",
];

/// The playouts of `tessera-analyze` when neither its argument, `--nodes` nor a level below
/// full strength gives them.
pub const ANALYSIS_PLAYOUTS: u64 = 3000;

/// The names `set_game` accepts (as in the reference engine's game files).
pub use super::sgf::GAME_NAMES;

/// The GTP engine state.
pub struct Gtp {
    /// The Blokus game (kept, unused, while a GembloQ game is set).
    game: Game,
    /// The GembloQ game, when one is set (see [`super::gembloq`]).
    gembloq: Option<GembloqGame>,
    args: GtpArgs,
    seed: u64,
    genmoves: u64,
    /// The last search's tree, reused when the game went on from there.
    tree: LastTree,
}

/// What one command asks of the loop.
pub enum Reply {
    /// `=` with this text.
    Ok(String),
    /// `?` with this message.
    Err(String),
    /// `=` and exit.
    Quit,
}

/// CPU seconds used by this process (user + system), from `/proc/self/stat`.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

impl Gtp {
    /// A new engine; fails on an unknown `--variant`.
    pub fn new(args: GtpArgs) -> Result<Gtp, String> {
        let gembloq = GembloqVariant::parse(&args.variant).map(GembloqGame::new);
        let variant = match gembloq {
            Some(_) => Variant::Classic,
            None => Variant::parse(&args.variant)?,
        };
        Ok(Gtp {
            game: Game::new(variant),
            gembloq,
            seed: args.seed,
            args,
            genmoves: 0,
            tree: LastTree::default(),
        })
    }

    fn colour(&self, arg: Option<&str>) -> Result<usize, String> {
        parse_colour(arg, self.game.variant().ncolours())
    }

    /// Executes one command (without its id).
    pub fn execute(&mut self, name: &str, args: &[&str]) -> Reply {
        match self.command(name, args) {
            Ok(Some(text)) => Reply::Ok(text),
            Ok(None) => Reply::Quit,
            Err(e) => Reply::Err(e),
        }
    }

    fn command(&mut self, name: &str, args: &[&str]) -> Result<Option<String>, String> {
        if let Some(g) = &mut self.gembloq {
            // The seed moves on with every `genmove`, as in the other variants, so that the
            // games of one process differ.
            let budget = Budget {
                seed: (self.seed).wrapping_add(self.genmoves.wrapping_mul(0x1000_0001)),
                level: self.args.level,
                nodes: self.args.nodes,
                movetime: self.args.movetime,
                nobook: self.args.nobook,
            };
            if name == "genmove" {
                self.genmoves += 1;
            }
            if let Some(answer) = g.command(name, args, &budget) {
                return answer.map(Some);
            }
            if name == "tessera-analyze" {
                return Err("tessera-analyze is not available in GembloQ".into());
            }
        }
        let t = self.game.board.tables();
        let text = match name {
            "protocol_version" => "2".to_string(),
            "name" => "tessera".to_string(),
            "version" => env!("CARGO_PKG_VERSION").to_string(),
            "list_commands" => COMMANDS.join("\n"),
            "known_command" => {
                let c = args.first().ok_or("missing argument")?;
                (if COMMANDS.contains(c) {
                    "true"
                } else {
                    "false"
                })
                .to_string()
            }
            "quit" => return Ok(None),
            "set_game" => {
                let line = args.join(" ");
                if let Some(v) = GembloqVariant::parse(&line) {
                    self.gembloq = Some(GembloqGame::new(v));
                    return Ok(Some(String::new()));
                }
                let variant = GAME_NAMES
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(&line))
                    .map(|&(_, v)| v)
                    .or_else(|| Variant::parse(&line).ok())
                    .ok_or("invalid argument")?;
                self.game = Game::new(variant);
                self.gembloq = None;
                self.tree.clear();
                String::new()
            }
            "loadsgf" => {
                // `loadsgf FILE [MOVE_NUMBER]`: the position before that move of the record's
                // main line, the last position without it; on error nothing changes.
                let (file, number) = match args {
                    [file] => (*file, None),
                    [file, n] => {
                        let k = n
                            .parse::<usize>()
                            .map_err(|_| format!("invalid move number '{n}'"))?;
                        (*file, Some(k))
                    }
                    _ => return Err("loadsgf needs FILE [MOVE_NUMBER]".into()),
                };
                let text = sgf::read_file(file)?;
                match GembloqVariant::parse(&sgf::game_name(&text).unwrap_or_default()) {
                    Some(v) => {
                        let g =
                            load_gembloq(v, &text, number).map_err(|e| format!("'{file}': {e}"))?;
                        self.gembloq = Some(g);
                    }
                    None => {
                        self.game =
                            sgf::load(&text, number).map_err(|e| format!("'{file}': {e}"))?;
                        self.gembloq = None;
                    }
                }
                self.tree.clear();
                String::new()
            }
            "clear_board" => {
                self.game = Game::new(self.game.variant());
                self.tree.clear();
                String::new()
            }
            "play" => {
                let c = self.colour(args.first().copied())?;
                let mv = args[1..].join("");
                if mv.is_empty() {
                    return Err("missing move argument".into());
                }
                if mv.eq_ignore_ascii_case("pass") {
                    return Err("play pass not supported".into());
                }
                let m = t
                    .parse_move(&mv)
                    .map_err(|e| format!("invalid move: {e}"))?;
                self.game.play(c, m)?;
                String::new()
            }
            "genmove" => {
                let c = self.colour(args.first().copied())?;
                self.genmove(c)
            }
            "all_legal" => {
                let c = self.colour(args.first().copied())?;
                let moves: Vec<String> =
                    self.game.legal(c).iter().map(|&m| t.move_name(m)).collect();
                moves.join("\n")
            }
            "final_score" => {
                let b = &self.game.board;
                if self.game.variant().nplayers() > 2 {
                    (0..b.ncolours())
                        .map(|c| format!("{} ", b.points(c)))
                        .collect::<String>()
                        .trim_end()
                        .to_string()
                } else {
                    let p = b.player_points();
                    let d = p[0] - p[1];
                    match d.cmp(&0) {
                        std::cmp::Ordering::Greater => format!("B+{d}"),
                        std::cmp::Ordering::Less => format!("W+{}", -d),
                        std::cmp::Ordering::Equal => "0".to_string(),
                    }
                }
            }
            "cputime" => {
                let s = process_cpu_seconds().ok_or("cannot determine cpu time")?;
                format!("{s:.3}")
            }
            "showboard" => format!("\n{}", self.game.show().join("\n")),
            "undo" => {
                if !self.game.undo() {
                    return Err("cannot undo".into());
                }
                self.tree.clear();
                String::new()
            }
            "tessera-analyze" => {
                let playouts = match args {
                    [] => self.analysis_playouts(),
                    [n] => n
                        .parse::<u64>()
                        .ok()
                        .filter(|n| (1..=MAX_PLAYOUTS).contains(n))
                        .ok_or_else(|| format!("invalid playouts '{n}' (1 to {MAX_PLAYOUTS})"))?,
                    _ => return Err("tessera-analyze takes at most one argument".into()),
                };
                let values = position_value::player_values(
                    &self.game.board,
                    &self.game.history,
                    playouts,
                    self.seed,
                );
                let texts: Vec<String> = values.iter().map(|v| format!("{v:.3}")).collect();
                texts.join(" ")
            }
            "set_random_seed" => {
                let s = args.first().ok_or("missing argument")?;
                self.seed = s.parse().map_err(|_| format!("invalid seed '{s}'"))?;
                // The genmoves from here on are those of a process started with this seed at
                // this position: no count of earlier searches, no tree from them.
                self.genmoves = 0;
                self.tree.clear();
                String::new()
            }
            _ => return Err("unknown command".into()),
        };
        Ok(Some(text))
    }

    /// The playouts of `tessera-analyze` without an argument: `--nodes`, else the level's
    /// budget for the colour to move, else [`ANALYSIS_PLAYOUTS`].
    fn analysis_playouts(&self) -> u64 {
        let mut board = self.game.board.clone();
        let by_level = match (self.args.level, board.skip_to_mover()) {
            (Some(level), Some(c)) => level::playout_budget(&board, c, level),
            _ => None,
        };
        self.args.nodes.or(by_level).unwrap_or(ANALYSIS_PLAYOUTS)
    }

    fn genmove(&mut self, c: usize) -> String {
        let mut board = self.game.board.clone();
        if !board.has_moves(c) {
            return "pass".to_string();
        }
        board.set_to_play(c);
        let level = self.args.level.unwrap_or(FULL_STRENGTH);
        if !self.args.nobook
            && level::uses_book(level, self.game.history.len(), board.ncolours())
            && let Some(m) = Book::builtin(board.variant)
                .and_then(|book| book.lookup(board.variant, &self.game.history))
            && board.is_legal(c, m)
            && self.game.history.len() % board.ncolours() == c
            && self.game.play(c, m).is_ok()
        {
            return board.tables().move_name(m);
        }
        let playouts = self
            .args
            .level
            .and_then(|level| level::playout_budget(&board, c, level));
        let seed = self
            .seed
            .wrapping_add(self.genmoves.wrapping_mul(0x1000_0001));
        self.genmoves += 1;
        let history = self.game.history.clone();
        let reused = self.tree.take_for(&history, &board, seed);
        // A level counts the root's visits, the reused ones included (as the reference
        // engine's levels do).
        let reused_visits = reused.as_ref().map_or(0, Mcts::root_visits);
        let level_playouts = playouts.map(|p| last_tree::playouts_left(p, reused_visits));
        log::debug!("budget {playouts:?} reused {reused_visits}");
        let control =
            last_tree::genmove_control(self.args.movetime, self.args.nodes, level_playouts);
        let threads = level::threads(playouts, self.args.threads);
        let report = &mut |info: &crate::search::Info| {
            log::debug!(
                "nodes {} time {} score {} pv {}",
                info.nodes,
                info.time_ms,
                info.score,
                info.pv.join(" ")
            );
        };
        let settings = SearchSettings {
            seed,
            threads,
            lines: 1,
        };
        let (line, tree) = search_tree(reused, &board, &history, &settings, &control, report);
        log::debug!(
            "searched: root visits {}",
            tree.as_ref().map_or(0, Mcts::root_visits)
        );
        self.tree.keep(history, tree);
        let t = board.tables();
        let m = line
            .first()
            .and_then(|s| t.parse_move(s).ok())
            .unwrap_or_else(|| {
                let mut out = Vec::new();
                board.gen_moves(c, &mut MoveGen::new(t), &mut out);
                out[0]
            });
        // The search only proposes legal moves; play it through the checked path regardless.
        match self.game.play(c, m) {
            Ok(()) => t.move_name(m),
            Err(_) => "pass".to_string(),
        }
    }
}

/// The GembloQ game of a record's moves before move `number` (all with `None`).
fn load_gembloq(
    v: GembloqVariant,
    text: &str,
    number: Option<usize>,
) -> Result<GembloqGame, String> {
    let moves = sgf::main_line_moves(text, v.ncolours())?;
    let count = sgf::moves_before(moves.len(), number)?;
    GembloqGame::from_moves(v, &moves[..count])
}

/// Splits a GTP line into (id, command, args); `None` for empty lines and comments.
pub fn parse_line(line: &str) -> Option<(Option<String>, String, Vec<String>)> {
    let line = line.split('#').next().unwrap_or("");
    let cleaned: String = line
        .chars()
        .filter(|&ch| ch == '\t' || ch == ' ' || !ch.is_control())
        .map(|ch| if ch == '\t' { ' ' } else { ch })
        .collect();
    let mut words = cleaned.split_whitespace();
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (
            Some(first.to_string()),
            words.next().unwrap_or("").to_string(),
        )
    } else {
        (None, first.to_string())
    };
    Some((id, name, words.map(String::from).collect()))
}

/// Runs the GTP loop on stdin/stdout until `quit` or end of input; returns the exit code.
pub fn run(args: &GtpArgs) -> i32 {
    let mut gtp = match Gtp::new(args.clone()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("tessera gtp: {e}");
            return 2;
        }
    };
    // Answers never wait for the client to read them, so a client that writes ahead and reads
    // behind cannot deadlock the loop.
    let output = Output::stdout();
    let mut stdin = std::io::stdin().lock();
    while let Some(input) = reader::read_line(&mut stdin) {
        let line = match input {
            Input::Line(line, _) => line,
            Input::Rejected(why) => {
                output.line(&format!("? {why}\n"));
                continue;
            }
        };
        let Some((id, name, words)) = parse_line(&line) else {
            continue;
        };
        let id = id.unwrap_or_default();
        let reply = if name.is_empty() {
            Reply::Err("missing command".into())
        } else {
            let refs: Vec<&str> = words.iter().map(String::as_str).collect();
            gtp.execute(&name, &refs)
        };
        let (text, quit) = match reply {
            Reply::Ok(body) => (format!("={id} {}", body.trim_end()), false),
            Reply::Err(msg) => (format!("?{id} {}", msg.trim_end()), false),
            Reply::Quit => (format!("={id} "), true),
        };
        output.line(&format!("{text}\n"));
        if quit {
            break;
        }
    }
    output.drain(EXIT_PATIENCE);
    0
}
