//! The line protocol: commands in ([`Command`], parsed by [`parse::parse_line`]) and answers out
//! ([`answer`]). It knows the grammar of the lines, not the rules of any game: game-specific
//! arguments (`position`, `pieces`, `newgame` parameters) pass through as tokens.

pub mod answer;
pub mod parse;

pub use parse::{ParseError, parse_line};

use crate::search::Limits;

/// One client command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `tei`: the handshake.
    Tei,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <name> value <value>`.
    SetOption { name: String, value: String },
    /// `newgame <game> [<key> <value>]...`.
    NewGame {
        game: String,
        params: Vec<(String, String)>,
    },
    /// `position ...`: the game-specific tokens after the keyword.
    Position(Vec<String>),
    /// `pieces <shape>...`: the shape tokens.
    Pieces(Vec<String>),
    /// `go ...`.
    Go(Limits),
    /// `stop`.
    Stop,
    /// `show`.
    Show,
    /// `legal`.
    Legal,
    /// `hint ...`: the next human step of a sudoku grid (the tokens after the keyword).
    Hint(Vec<String>),
    /// `quit`.
    Quit,
}
