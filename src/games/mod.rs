//! The games, each in its own folder, and what the protocol session needs of a game.

pub mod blockudoku;
pub mod blokus;
pub mod compsudoku;

use crate::search::{Info, Limits, SearchControl};

/// Engine-wide settings a game may use when it searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// Seed for every random choice of the search (`Seed` option).
    pub seed: u64,
    /// Search threads (`Threads` option); games that cannot use more than one ignore it.
    pub threads: usize,
    /// Whether a game with an opening book plays its moves (`OwnBook` option).
    pub own_book: bool,
    /// Blockudoku: the fewest filled cells of a board whose hand is looked ahead
    /// (`LookaheadFrom` option).
    pub lookahead_from: u32,
    /// Playing strength, 1 (weakest) to [`FULL_STRENGTH`] (`Level` option); each game has its
    /// own ladder below full strength.
    pub level: u32,
    /// How many best lines a search reports (`MultiPV` option), 1 to [`MAX_MULTIPV`].
    pub multipv: usize,
    /// Blockudoku: the evaluation (`EvalFile` option: `builtin`, `handmade` or a file).
    pub blockudoku_eval: blockudoku::eval_file::Evaluation,
}

/// The `Level` of full strength, the default: no cap on the search but the client's limits.
pub const FULL_STRENGTH: u32 = 10;
/// The largest `MultiPV`.
pub const MAX_MULTIPV: usize = 32;

/// A search ready to run on the worker thread: it owns a snapshot of the position.
pub trait SearchJob: Send {
    /// Searches until the control says stop, reporting progress; returns the best line
    /// (empty when there is no legal move).
    fn run(self: Box<Self>, control: &SearchControl, report: &mut dyn FnMut(&Info)) -> Vec<String>;
    /// A legal answer found without searching, given when a `stop` or the deadline comes before
    /// the search has published a line; empty when there is no legal move. It is computed on the
    /// session thread, so it must be quick on every position the game accepts.
    fn fallback(&self) -> Vec<String>;
    /// Whether `bestmove` gives the whole best line (Blockudoku: every placement of the hand)
    /// rather than its first move.
    fn answers_whole_line(&self) -> bool {
        false
    }
}

/// The answer to `legal`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Legal {
    /// The words of the `legal` line.
    pub moves: Vec<String>,
    /// A remark for people (`info string`), e.g. when the answer is incomplete.
    pub note: Option<String>,
}

impl From<Vec<String>> for Legal {
    fn from(moves: Vec<String>) -> Legal {
        Legal { moves, note: None }
    }
}

/// A game as the protocol session drives it. Every method that takes client input validates it
/// completely before changing anything, so a rejected command leaves the state intact.
pub trait GameSession: Send {
    /// The game's protocol name.
    fn name(&self) -> &'static str;
    /// `position ...` with the tokens after the keyword.
    fn set_position(&mut self, args: &[String]) -> Result<(), String>;
    /// `pieces ...`; most games have no hand.
    fn set_pieces(&mut self, _args: &[String]) -> Result<(), String> {
        Err(format!("{} has no pieces command", self.name()))
    }
    /// The legal moves of the side to move, in notation. Quick on every position the game
    /// accepts (it runs on the session thread).
    fn legal_moves(&self) -> Legal;
    /// Lines that show the position to people.
    fn show(&self) -> Vec<String>;
    /// A search of the current position, or why none can run (e.g. no hand yet).
    fn search_job(
        &self,
        limits: &Limits,
        options: &EngineOptions,
    ) -> Result<Box<dyn SearchJob>, String>;
}

/// The games `newgame` accepts, as announced by `tei`.
pub const GAMES: &[&str] = &["blockudoku", "blokus", "sudoku"];

/// Starts a game from `newgame <game> [<key> <value>]...`.
pub fn new_game(game: &str, params: &[(String, String)]) -> Result<Box<dyn GameSession>, String> {
    match game {
        "blockudoku" => Ok(Box::new(blockudoku::session::BlockudokuSession::new(
            params,
        )?)),
        "blokus" => Ok(Box::new(blokus::session::BlokusSession::new(params)?)),
        "sudoku" => Ok(Box::new(compsudoku::session::SudokuSession::new(params)?)),
        _ => Err(format!(
            "unknown game '{game}' (known: {})",
            GAMES.join(", ")
        )),
    }
}
