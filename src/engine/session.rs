//! The session state machine: one command in, its answers out.

use super::worker::Worker;
use crate::games::blockudoku::board::CELLS;
use crate::games::blockudoku::eval_file::Evaluation;
use crate::games::blockudoku::search::LOOKAHEAD_FROM;
use crate::games::{self, EngineOptions, FULL_STRENGTH, GameSession, MAX_MULTIPV};
use crate::protocol::{Command, answer, parse_line};
use crate::stream::Output;
use std::time::Instant;

/// Default of the `MoveOverhead` option, in milliseconds.
const DEFAULT_OVERHEAD_MS: u64 = 10;
/// Largest accepted `MoveOverhead`.
const MAX_OVERHEAD_MS: u64 = 5000;
/// Largest accepted `Threads`.
const MAX_THREADS: u64 = 64;

/// The options' values before any `setoption` (the ones `tei` announces).
impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            seed: 0,
            threads: 1,
            own_book: true,
            lookahead_from: LOOKAHEAD_FROM,
            level: FULL_STRENGTH,
            multipv: 1,
            blockudoku_eval: Evaluation::builtin(),
        }
    }
}

/// The engine's state between commands.
pub struct Session {
    output: Output,
    game: Option<Box<dyn GameSession>>,
    options: EngineOptions,
    overhead_ms: u64,
    worker: Worker,
}

impl Session {
    /// A session with no game yet, answering on `output`.
    pub fn new(output: Output) -> Self {
        let worker = Worker::spawn(output.clone());
        Session {
            output,
            game: None,
            options: EngineOptions::default(),
            overhead_ms: DEFAULT_OVERHEAD_MS,
            worker,
        }
    }

    /// Handles one input line, read at `received`; returns false when the session must end
    /// (`quit`).
    pub fn handle_line(&mut self, line: &str, received: Instant) -> bool {
        let command = match parse_line(line) {
            Ok(Some(command)) => command,
            Ok(None) => return true,
            Err(e) => {
                self.reject(&e.0);
                return true;
            }
        };
        if command == Command::Quit {
            return false;
        }
        if let Err(message) = self.execute(command, received) {
            self.reject(&message);
        }
        true
    }

    /// Answers a refused command with one `error` line.
    pub fn reject(&self, why: &str) {
        self.output.line(&answer::error(why));
    }

    /// Ends any running search (its `bestmove` is printed) before the process exits.
    pub fn shutdown(&mut self) {
        self.worker.finish();
    }

    fn execute(&mut self, command: Command, received: Instant) -> Result<(), String> {
        match command {
            Command::Tei => self.handshake(),
            Command::IsReady => self.output.line("readyok"),
            Command::SetOption { name, value } => {
                self.worker.finish();
                self.set_option(&name, &value)?;
            }
            Command::NewGame { game, params } => {
                self.worker.finish();
                self.game = Some(games::new_game(&game, &params)?);
            }
            Command::Position(args) => {
                self.worker.finish();
                self.game_mut()?.set_position(&args)?;
            }
            Command::Pieces(args) => {
                self.worker.finish();
                self.game_mut()?.set_pieces(&args)?;
            }
            Command::Go(limits) => {
                self.worker.finish();
                let job = self.game()?.search_job(&limits, &self.options)?;
                self.worker.start(job, &limits, self.overhead_ms, received);
            }
            Command::Stop => self.worker.finish(),
            Command::Show => {
                for line in self.game()?.show() {
                    self.output.line(&answer::info_string(&line));
                }
            }
            Command::Legal => {
                let legal = self.game()?.legal_moves();
                if let Some(note) = &legal.note {
                    self.output.line(&answer::info_string(note));
                }
                let mut line = String::from("legal");
                for mv in legal.moves {
                    line.push(' ');
                    line.push_str(&mv);
                }
                self.output.line(&line);
            }
            Command::Hint(args) => self.output.line(&crate::sudoku::human::hint(&args)?),
            Command::Quit => unreachable!("handled by handle_line"),
        }
        Ok(())
    }

    fn game(&self) -> Result<&dyn GameSession, String> {
        self.game
            .as_deref()
            .ok_or_else(|| "no game: send newgame first".to_string())
    }

    fn game_mut(&mut self) -> Result<&mut Box<dyn GameSession>, String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: send newgame first".to_string())
    }

    fn handshake(&self) {
        let out = &self.output;
        out.line(&format!("id name tessera {}", env!("CARGO_PKG_VERSION")));
        out.line("id author the tessera developers");
        for game in games::GAMES {
            out.line(&format!("game {game}"));
        }
        out.line(&format!(
            "option name MoveOverhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        ));
        out.line(&format!(
            "option name Seed type spin default 0 min 0 max {}",
            u64::MAX
        ));
        out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        out.line("option name OwnBook type check default true");
        out.line(&format!(
            "option name LookaheadFrom type spin default {LOOKAHEAD_FROM} min 0 max {CELLS}"
        ));
        out.line(&format!(
            "option name Level type spin default {FULL_STRENGTH} min 1 max {FULL_STRENGTH}"
        ));
        out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        out.line("option name EvalFile type string default builtin");
        out.line("teiok");
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |max: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(n) if n <= max => Ok(n),
                _ => Err(format!(
                    "option {name} needs an integer from 0 to {max}, got '{value}'"
                )),
            }
        };
        let in_range = |min: u64, max: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option {name} needs an integer from {min} to {max}, got '{value}'"
                )),
            }
        };
        match name {
            "MoveOverhead" => self.overhead_ms = number(MAX_OVERHEAD_MS)?,
            "Seed" => self.options.seed = number(u64::MAX)?,
            "Threads" => self.options.threads = number(MAX_THREADS)?.max(1) as usize,
            "OwnBook" => {
                self.options.own_book = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("option OwnBook needs true or false, got '{value}'")),
                }
            }
            "LookaheadFrom" => self.options.lookahead_from = number(CELLS as u64)? as u32,
            "Level" => self.options.level = in_range(1, u64::from(FULL_STRENGTH))? as u32,
            "MultiPV" => self.options.multipv = in_range(1, MAX_MULTIPV as u64)? as usize,
            "EvalFile" => {
                self.options.blockudoku_eval =
                    Evaluation::from_option(value).map_err(|e| format!("option EvalFile: {e}"))?
            }
            _ => {
                return Err(format!(
                    "unknown option '{name}' (known: MoveOverhead, Seed, Threads, OwnBook, \
                     LookaheadFrom, Level, MultiPV, EvalFile)"
                ));
            }
        }
        Ok(())
    }
}
