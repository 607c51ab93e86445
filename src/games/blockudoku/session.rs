//! Blockudoku in protocol mode: `newgame blockudoku [pieceset NAME] [scoring NAME]`,
//! `position [board ROWS] [score N] [streak 0|1]`, `pieces SHAPE...`, `legal`, `show`, `go`.

use super::board::{self, Board};
use super::eval_file::Evaluation;
use super::piece::{Piece, PieceSet, cells_of};
use super::rules::{self, Placement, Position, Scoring};
use super::search::HandSearch;
use crate::games::{EngineOptions, GameSession, Legal, SearchJob};
use crate::search::{Info, Limits, SearchControl, iterative};
use std::sync::Arc;

/// Most pieces in a hand.
pub const MAX_HAND: usize = 3;

/// The game state the protocol sees.
pub struct BlockudokuSession {
    set: Arc<PieceSet>,
    scoring: Scoring,
    position: Position,
    hand: Vec<Piece>,
}

impl BlockudokuSession {
    /// A new game from `newgame` parameters.
    pub fn new(params: &[(String, String)]) -> Result<Self, String> {
        let mut set = None;
        let mut scoring = Scoring::App;
        for (key, value) in params {
            match key.as_str() {
                "pieceset" => set = Some(PieceSet::builtin(value)?),
                "scoring" => scoring = Scoring::parse(value)?,
                _ => {
                    return Err(format!(
                        "unknown blockudoku parameter '{key}' (known: pieceset, scoring)"
                    ));
                }
            }
        }
        let set = match set {
            Some(set) => set,
            None => PieceSet::builtin("standard47")?,
        };
        Ok(BlockudokuSession {
            set: Arc::new(set),
            scoring,
            position: Position::default(),
            hand: Vec::new(),
        })
    }
}

/// Parses the `position` arguments into a new position (nothing is changed on error).
fn parse_position(args: &[String]) -> Result<Position, String> {
    let mut position = Position::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i].as_str();
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("position {key} needs a value"))?;
        match key {
            "board" => position.board = Board::parse(value)?,
            "score" => {
                position.score = value.parse().map_err(|_| {
                    format!("position score needs a non-negative integer, got '{value}'")
                })?
            }
            "streak" => {
                position.streak = match value.as_str() {
                    "0" => false,
                    "1" => true,
                    _ => return Err(format!("position streak is 0 or 1, got '{value}'")),
                }
            }
            _ => {
                return Err(format!(
                    "unknown position field '{key}' (known: board, score, streak)"
                ));
            }
        }
        i += 2;
    }
    if let Some(full) = board::REGIONS
        .iter()
        .position(|&r| position.board.0 & r == r)
    {
        return Err(format!(
            "impossible board: region {} is full and would have been cleared",
            full + 1
        ));
    }
    Ok(position)
}

impl GameSession for BlockudokuSession {
    fn name(&self) -> &'static str {
        "blockudoku"
    }

    fn set_position(&mut self, args: &[String]) -> Result<(), String> {
        self.position = parse_position(args)?;
        Ok(())
    }

    fn set_pieces(&mut self, args: &[String]) -> Result<(), String> {
        if args.is_empty() || args.len() > MAX_HAND {
            return Err(format!(
                "pieces takes 1 to {MAX_HAND} shapes, got {}",
                args.len()
            ));
        }
        let hand = args
            .iter()
            .map(|a| self.set.resolve(a))
            .collect::<Result<Vec<_>, _>>()?;
        self.hand = hand;
        Ok(())
    }

    fn legal_moves(&self) -> Legal {
        let mut moves = Vec::new();
        for (slot, piece) in self.hand.iter().enumerate() {
            for anchor in cells_of(piece.fits(self.position.board)) {
                moves.push(
                    Placement {
                        slot: slot as u8,
                        anchor: anchor as u8,
                    }
                    .notation(),
                );
            }
        }
        moves.into()
    }

    fn show(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "blockudoku pieceset {} scoring {} score {} streak {}",
            self.set.name,
            Scoring::ALL
                .iter()
                .find(|(_, s)| *s == self.scoring)
                .map_or("?", |(n, _)| n),
            self.position.score,
            u8::from(self.position.streak)
        )];
        lines.push("   a b c d e f g h i".to_string());
        for (r, row) in self.position.board.rows().iter().enumerate() {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            lines.push(format!("{}  {}", board::SIZE - r, cells.join(" ")));
        }
        let hand: Vec<String> = self
            .hand
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}:{}", i + 1, p.shape))
            .collect();
        lines.push(format!(
            "hand {}",
            if hand.is_empty() {
                "none".into()
            } else {
                hand.join(" ")
            }
        ));
        lines.push(format!("board {}", self.position.board));
        lines
    }

    fn search_job(
        &self,
        _limits: &Limits,
        options: &EngineOptions,
    ) -> Result<Box<dyn SearchJob>, String> {
        if self.hand.is_empty() {
            return Err("no pieces: send pieces before go".into());
        }
        let fallback = rules::first_fit(self.position, &self.hand, self.scoring);
        Ok(Box::new(BlockudokuJob {
            fallback: fallback.iter().map(|p| p.notation()).collect(),
            set: self.set.clone(),
            eval: options.blockudoku_eval.clone(),
            position: self.position,
            hand: self.hand.clone(),
            seed: options.seed,
            lookahead_from: options.lookahead_from,
            level: options.level,
            lines: options.multipv,
        }))
    }
}

/// A search of one hand, owned by the worker thread.
struct BlockudokuJob {
    fallback: Vec<String>,
    set: Arc<PieceSet>,
    eval: Evaluation,
    position: Position,
    hand: Vec<Piece>,
    seed: u64,
    lookahead_from: u32,
    level: u32,
    lines: usize,
}

impl SearchJob for BlockudokuJob {
    fn run(self: Box<Self>, control: &SearchControl, report: &mut dyn FnMut(&Info)) -> Vec<String> {
        let mut search = HandSearch::new(
            &self.set,
            self.eval.clone(),
            self.position,
            &self.hand,
            self.seed,
        )
        .lookahead_from(self.lookahead_from)
        .level(self.level)
        .lines(self.lines);
        iterative::deepen(&mut search, control, report)
    }

    fn fallback(&self) -> Vec<String> {
        self.fallback.clone()
    }

    fn answers_whole_line(&self) -> bool {
        true
    }
}
