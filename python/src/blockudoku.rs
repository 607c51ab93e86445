//! `tessera_engine.Blockudoku`: one Blockudoku game as a Python object.

use crate::arrays;
use crate::blockudoku_rules::{
    ACTIONS, Catalogue, EMPTY_SLOT, Game, PIECE_BOX, SLOTS, parse_board,
};
use crate::errors::{game_over, illegal, value_error};
use crate::moves::MoveArg;
use crate::search::{self, Knobs, ProtocolState, SearchRequest, SearchResult};
use numpy::PyArray1;
use pyo3::prelude::*;
use std::sync::Arc;
use tessera::games::blockudoku::board::{self, CELLS, SIZE};
use tessera::games::blockudoku::piece::cells_of;
use tessera::games::blockudoku::rules::{Placement, Scoring};

/// A Blockudoku game: a 9x9 board, a hand of three pieces in fixed slots (a placed slot stays
/// empty until the next hand is dealt), score and streak. Moves are `<slot>@<square>` with the
/// slot 1 to 3 of the dealt hand and the square the top-left cell of the piece's bounding box;
/// actions are `slot * 81 + row * 9 + column` (row 0 at the top, slot from 0). The game is lost
/// once the rest of the hand cannot be placed whole, the engine's rule.
#[pyclass(module = "tessera_engine._native")]
#[derive(Clone)]
pub struct Blockudoku {
    catalogue: Arc<Catalogue>,
    scoring: Scoring,
    game: Game,
}

/// The protocol name of a scoring system.
fn scoring_name(scoring: Scoring) -> &'static str {
    Scoring::ALL
        .iter()
        .find(|(_, s)| *s == scoring)
        .map_or("?", |(n, _)| n)
}

impl Blockudoku {
    /// The action of a move in notation (`2@c7`) or an action number, if legal.
    fn legal_action(&self, mv: &MoveArg) -> PyResult<usize> {
        if self.game.over {
            return Err(game_over("play"));
        }
        let action = match mv {
            MoveArg::Action(a) => usize::try_from(*a)
                .ok()
                .filter(|&a| a < ACTIONS)
                .ok_or_else(|| illegal(format!("action {a} is outside 0..{ACTIONS}")))?,
            MoveArg::Notation(text) => {
                let p = Placement::parse(text, SLOTS).map_err(illegal)?;
                usize::from(p.slot) * CELLS + usize::from(p.anchor)
            }
        };
        let slot = action / CELLS;
        if self.game.hand[slot] == EMPTY_SLOT {
            return Err(illegal(format!(
                "{}: slot {} is already placed",
                self.move_name(action),
                slot + 1
            )));
        }
        if !self.game.is_legal(&self.catalogue, action) {
            return Err(illegal(format!(
                "{}: the piece does not fit there",
                self.move_name(action)
            )));
        }
        Ok(action)
    }

    fn move_name(&self, action: usize) -> String {
        Placement {
            slot: (action / CELLS) as u8,
            anchor: (action % CELLS) as u8,
        }
        .notation()
    }

    fn legal_action_list(&self) -> Vec<usize> {
        (0..SLOTS)
            .flat_map(|slot| {
                cells_of(self.game.fits(&self.catalogue, slot)).map(move |cell| slot * CELLS + cell)
            })
            .collect()
    }
}

#[pymethods]
impl Blockudoku {
    /// A new game: `pieceset` standard47, blocksudoku59 or woodoku49; `scoring` app, simple or
    /// squared; `seed` makes the deals reproducible (random without it).
    #[new]
    #[pyo3(signature = (pieceset = "standard47", scoring = "app", seed = None))]
    fn new(pieceset: &str, scoring: &str, seed: Option<u64>) -> PyResult<Self> {
        let catalogue = Catalogue::builtin(pieceset).map_err(value_error)?;
        let scoring = Scoring::parse(scoring).map_err(value_error)?;
        let seed = seed.unwrap_or_else(rand::random);
        let game = Game::new(&catalogue, seed);
        Ok(Blockudoku {
            catalogue: Arc::new(catalogue),
            scoring,
            game,
        })
    }

    /// Starts again on the empty board with a new hand (from `seed` when given).
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, seed: Option<u64>) {
        self.game = Game::new(&self.catalogue, seed.unwrap_or_else(rand::random));
    }

    /// The piece set's name.
    #[getter]
    fn pieceset(&self) -> String {
        self.catalogue.name.clone()
    }

    /// The scoring system's name.
    #[getter]
    fn scoring(&self) -> &'static str {
        scoring_name(self.scoring)
    }

    /// The board in notation: rows from the top joined by `/`, `.` empty, `#` filled.
    #[getter]
    fn board(&self) -> String {
        self.game.position.board.to_string()
    }

    /// Points so far.
    #[getter]
    fn score(&self) -> u64 {
        self.game.position.score
    }

    /// Whether the last placement cleared a region (the app scoring's streak).
    #[getter]
    fn streak(&self) -> bool {
        self.game.position.streak
    }

    /// Placements made so far.
    #[getter]
    fn placements(&self) -> u64 {
        self.game.placements
    }

    /// Hands dealt so far (the first included).
    #[getter]
    fn hands(&self) -> u64 {
        self.game.hands
    }

    /// The hand's shapes in notation by slot; `None` for a placed slot.
    #[getter]
    fn hand(&self) -> Vec<Option<String>> {
        self.game
            .hand
            .iter()
            .map(|&i| (i != EMPTY_SLOT).then(|| self.catalogue.piece(i).shape.clone()))
            .collect()
    }

    /// True once the game is lost (the rest of the hand cannot be placed whole).
    fn is_over(&self) -> bool {
        self.game.over
    }

    /// Sets board, score and streak (the protocol's `position`); the hand stays. A board with
    /// a full region is refused.
    #[pyo3(signature = (board = None, score = 0, streak = false))]
    fn set_position(&mut self, board: Option<&str>, score: u64, streak: bool) -> PyResult<()> {
        let parsed = match board {
            Some(text) => parse_board(text).map_err(value_error)?,
            None => board::Board::EMPTY,
        };
        let mut game = self.game.clone();
        game.position.board = parsed;
        game.position.score = score;
        game.position.streak = streak;
        game.judge(&self.catalogue);
        self.game = game;
        Ok(())
    }

    /// Sets the hand (the protocol's `pieces`): up to three pieces by slot, each a name in the
    /// set (its 1-based number), an inline shape (`##/#.`) or `None` for an empty slot; at
    /// least one piece.
    fn set_hand(&mut self, pieces: Vec<Option<String>>) -> PyResult<()> {
        if pieces.len() > SLOTS || pieces.iter().all(Option::is_none) {
            return Err(value_error("a hand has 1 to 3 pieces"));
        }
        let mut catalogue = (*self.catalogue).clone();
        let mut hand = [EMPTY_SLOT; SLOTS];
        for (slot, token) in pieces.iter().enumerate() {
            if let Some(token) = token {
                hand[slot] = catalogue.resolve(token).map_err(value_error)?;
            }
        }
        if catalogue.pieces.len() != self.catalogue.pieces.len() {
            self.catalogue = Arc::new(catalogue);
        }
        self.game.hand = hand;
        self.game.judge(&self.catalogue);
        Ok(())
    }

    /// Every legal move in notation, slot by slot.
    fn legal_moves(&self) -> Vec<String> {
        let actions = self.legal_action_list();
        actions.into_iter().map(|a| self.move_name(a)).collect()
    }

    /// Every legal action number, in increasing order.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let actions = self.legal_action_list();
        PyArray1::from_vec(py, actions.into_iter().map(|a| a as i64).collect())
    }

    /// The legal actions as a boolean array of 243.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        arrays::filled(py, [ACTIONS], |mask| {
            self.game.write_mask(&self.catalogue, mask)
        })
    }

    /// Whether a move (notation or action number) is legal now.
    fn is_legal(&self, mv: MoveArg) -> bool {
        self.legal_action(&mv).is_ok()
    }

    /// Plays a move (notation or action number) and returns the points it scored. An illegal
    /// move raises `IllegalMoveError`, a finished game `GameOverError`; the state is unchanged.
    fn play(&mut self, mv: MoveArg) -> PyResult<u64> {
        let action = self.legal_action(&mv)?;
        Ok(self.game.play(&self.catalogue, self.scoring, action))
    }

    /// Plays an action number if it is legal and returns its points; `None` (nothing changed)
    /// if it is not. A finished game raises `GameOverError`.
    fn play_if_legal(&mut self, action: i64) -> PyResult<Option<u64>> {
        if self.game.over {
            return Err(game_over("play"));
        }
        let legal = usize::try_from(action)
            .ok()
            .filter(|&a| self.game.is_legal(&self.catalogue, a));
        Ok(legal.map(|a| self.game.play(&self.catalogue, self.scoring, a)))
    }

    /// The action number of a move in notation (it need not be legal).
    fn move_to_action(&self, mv: &str) -> PyResult<usize> {
        let p = Placement::parse(mv, SLOTS).map_err(value_error)?;
        Ok(usize::from(p.slot) * CELLS + usize::from(p.anchor))
    }

    /// The notation of an action number.
    fn action_to_move(&self, action: usize) -> PyResult<String> {
        if action >= ACTIONS {
            return Err(value_error(format!(
                "action {action} is outside 0..{ACTIONS}"
            )));
        }
        Ok(self.move_name(action))
    }

    /// The board as a (9, 9) uint8 array, 1 = filled, row 0 at the top.
    fn board_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<u8>>> {
        arrays::filled(py, [SIZE, SIZE], |cells| self.game.write_board(cells))
    }

    /// The hand as a (3, 5, 5) uint8 array, each piece in its top-left corner, zeros for a
    /// placed slot.
    fn hand_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        arrays::filled(py, [SLOTS, PIECE_BOX, PIECE_BOX], |planes| {
            self.game.write_pieces(&self.catalogue, planes)
        })
    }

    /// The observation in one call: the board (9, 9) and hand (3, 5, 5) as uint8 arrays and the
    /// action mask (243,) as int8, all new arrays.
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray2<u8>>,
        Bound<'py, numpy::PyArray3<u8>>,
        Bound<'py, PyArray1<i8>>,
    )> {
        let mask = arrays::filled(py, [ACTIONS], |mask: &mut [i8]| {
            self.game.write_mask(&self.catalogue, mask)
        })?;
        Ok((self.board_array(py)?, self.hand_array(py)?, mask))
    }

    /// A step of an environment in one call: plays `action` if legal (nothing changes if not),
    /// then returns [`Blockudoku::observe`]'s arrays, the points scored (`None` for an illegal
    /// action) and whether the game is over. A finished game raises `GameOverError`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray2<u8>>,
        Bound<'py, numpy::PyArray3<u8>>,
        Bound<'py, PyArray1<i8>>,
        Option<u64>,
        bool,
    )> {
        let points = self.play_if_legal(action)?;
        let (board, hand, mask) = self.observe(py)?;
        Ok((board, hand, mask, points, self.game.over))
    }

    /// An independent copy (same deals to come).
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The engine's search of the rest of the hand (the protocol's `go`), without the GIL:
    /// limits `movetime` (ms), `nodes`, `depth` combine; none at all thinks 1000 ms. The line
    /// gives the placements of the whole rest of the hand in play order, in this object's slots.
    #[pyo3(signature = (movetime = None, nodes = None, depth = None, seed = 0, lookahead_from = None, level = 10, multipv = 1))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        seed: u64,
        lookahead_from: Option<u32>,
        level: u32,
        multipv: usize,
    ) -> PyResult<SearchResult> {
        let knobs = Knobs {
            lookahead_from,
            ..Knobs::new(seed, level, multipv)
        };
        let request = SearchRequest::new(movetime, nodes, depth, knobs)?;
        if self.game.over {
            return Ok(SearchResult::empty());
        }
        let remaining = self.game.remaining(&self.catalogue);
        let slots: Vec<usize> = remaining.iter().map(|(slot, _)| *slot).collect();
        let state = ProtocolState {
            game: "blockudoku",
            params: vec![
                ("pieceset".into(), self.catalogue.name.clone()),
                ("scoring".into(), scoring_name(self.scoring).into()),
            ],
            position: vec![
                "board".into(),
                self.game.position.board.to_string(),
                "score".into(),
                self.game.position.score.to_string(),
                "streak".into(),
                u8::from(self.game.position.streak).to_string(),
            ],
            pieces: Some(remaining.iter().map(|(_, p)| p.shape.clone()).collect()),
        };
        let mut result = search::run(py, state, request)?;
        // The session numbers the slots of the pieces it was given; back to this hand's slots.
        for mv in &mut result.line {
            let p = Placement::parse(mv, slots.len()).map_err(value_error)?;
            *mv = Placement {
                slot: slots[usize::from(p.slot)] as u8,
                anchor: p.anchor,
            }
            .notation();
        }
        Ok(result)
    }

    /// The position for people: board with coordinates, score, streak and hand.
    fn render(&self) -> String {
        let mut lines = vec![format!(
            "score {} streak {} placements {}{}",
            self.game.position.score,
            u8::from(self.game.position.streak),
            self.game.placements,
            if self.game.over { " game over" } else { "" }
        )];
        lines.push("   a b c d e f g h i".into());
        for (r, row) in self.game.position.board.rows().iter().enumerate() {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            lines.push(format!("{}  {}", SIZE - r, cells.join(" ")));
        }
        let hand: Vec<String> = self
            .hand()
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}:{}", i + 1, s.as_deref().unwrap_or("-")))
            .collect();
        lines.push(format!("hand {}", hand.join(" ")));
        lines.join("\n")
    }

    fn __str__(&self) -> String {
        self.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "Blockudoku(pieceset='{}', scoring='{}', board='{}', score={}, hand={:?})",
            self.catalogue.name,
            self.scoring(),
            self.board(),
            self.game.position.score,
            self.hand()
        )
    }
}
