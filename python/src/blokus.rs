//! `tessera_engine.Blokus`: a Blokus game of any variant as a Python object, on the engine's board,
//! move generation and placement tables. Actions are the engine's placement ids.

use crate::arrays;
use crate::errors::{game_over, illegal, value_error};
use crate::moves::MoveArg;
use crate::search::{self, Knobs, ProtocolState, SearchRequest, SearchResult};
use numpy::PyArray1;
use pyo3::prelude::*;
use std::cell::RefCell;
use tessera::games::blokus::board::{MoveGen, PASS, Variant};
use tessera::games::blokus::game::Game;
use tessera::games::blokus::move_lists::MoveLists;
use tessera::games::blokus::tables::Tables;

thread_local! {
    /// Move-generation scratch per placement table (its marks are as long as the table).
    static SCRATCH: RefCell<Vec<(usize, MoveGen)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's move-generation scratch for the tables `t`.
fn with_scratch<T>(t: &'static Tables, f: impl FnOnce(&mut MoveGen) -> T) -> T {
    let key = t as *const Tables as usize;
    SCRATCH.with(|cell| {
        let mut all = cell.borrow_mut();
        let index = match all.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                all.push((key, MoveGen::new(t)));
                all.len() - 1
            }
        };
        f(&mut all[index].1)
    })
}

/// A Blokus game: `classic` (4 players), `two` (colours 1+3 against 2+4), `three` (the fourth
/// colour played in turn), `duo` and `junior` (14x14, 2 colours), Trigon (`trigon`, `trigon_2`,
/// `trigon_3`) and Callisto (`callisto`, `callisto_2`, `callisto_2_4`, `callisto_3`; the rules as
/// the reference engine plays them, see protocol.md). A colour that cannot move is
/// skipped; the game ends when no colour can move. Moves are the squares of the piece joined by
/// commas (`e9,d10,e10,f10,e11`); actions are placement ids `0..action_count`.
#[pyclass(module = "tessera_engine._native")]
#[derive(Clone)]
pub struct Blokus {
    game: Game,
    /// Each colour's legal placements, kept from one of its turns to the next (finding them is
    /// the costly part of a step).
    lists: MoveLists,
    /// The colour to move, once found in this position (`Some(None)`: the game is over).
    mover: Option<Option<usize>>,
}

impl Blokus {
    fn tables(&self) -> &'static Tables {
        self.game.board.tables()
    }

    /// The legal placements of colour `c`.
    fn legal_of(&mut self, c: usize) -> &[u16] {
        let Game { board, history, .. } = &mut self.game;
        let lists = &mut self.lists;
        with_scratch(board.tables(), move |mg| lists.legal(board, history, c, mg))
    }

    /// The colour to move (after skipping colours that cannot move); `None` at the end.
    fn mover(&mut self) -> Option<usize> {
        if let Some(mover) = self.mover {
            return mover;
        }
        let mut c = self.game.board.to_play();
        let mut mover = None;
        for _ in 0..self.game.board.ncolours() {
            if !self.game.board.is_out(c) {
                if !self.legal_of(c).is_empty() {
                    mover = Some(c);
                    break;
                }
                // Marks the colour as out of the game for the board's own searches.
                self.game.board.has_moves(c);
            }
            c = self.game.board.next_colour(c);
        }
        self.mover = Some(mover);
        mover
    }

    /// The legal placements of the colour to move (none at the end).
    fn legal_ids(&mut self) -> &[u16] {
        match self.mover() {
            Some(c) => self.legal_of(c),
            None => &[],
        }
    }

    /// The placement id of a move argument, checked against the rules for the colour to move.
    fn legal_id(&mut self, mv: &MoveArg) -> PyResult<(usize, u16)> {
        let Some(colour) = self.mover() else {
            return Err(game_over("play"));
        };
        let id = match mv {
            MoveArg::Action(a) => u16::try_from(*a)
                .ok()
                .filter(|&id| usize::from(id) < self.tables().moves.len())
                .ok_or_else(|| {
                    illegal(format!(
                        "action {a} is outside 0..{}",
                        self.tables().moves.len()
                    ))
                })?,
            MoveArg::Notation(text) => self.tables().parse_move(text).map_err(illegal)?,
        };
        Ok((colour, id))
    }
}

#[pymethods]
impl Blokus {
    /// A new game of `variant` (classic, two, three, duo, junior, the trigon and callisto
    /// variants), optionally after `moves` (notation, in playing order).
    #[new]
    #[pyo3(signature = (variant = "classic", moves = None))]
    fn new(variant: &str, moves: Option<Vec<String>>) -> PyResult<Self> {
        let mut game = Game::new(Variant::parse(variant).map_err(value_error)?);
        for (i, text) in moves.unwrap_or_default().iter().enumerate() {
            game.play_text(text)
                .map_err(|e| illegal(format!("move {} ('{text}'): {e}", i + 1)))?;
        }
        Ok(Blokus {
            game,
            lists: MoveLists::new(),
            mover: None,
        })
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// Board side of the square boards (20 or 14); on Trigon's the grid's width.
    #[getter]
    fn size(&self) -> usize {
        self.tables().geo.width
    }

    /// Rows of the board's grid (Trigon: a hexagon of triangles within its grid).
    #[getter]
    fn height(&self) -> usize {
        self.tables().geo.height
    }

    /// Columns of the board's grid.
    #[getter]
    fn width(&self) -> usize {
        self.tables().geo.width
    }

    /// The point at grid row `row` (0 the top) and column `x`, if on the board.
    fn grid_point(&self, row: usize, x: usize) -> Option<usize> {
        let geo = &self.tables().geo;
        let y = geo.height.checked_sub(row + 1)?;
        geo.point(x as i32, y as i32).map(usize::from)
    }

    /// Number of colours.
    #[getter]
    fn colours(&self) -> usize {
        self.game.board.ncolours()
    }

    /// Number of players.
    #[getter]
    fn players(&self) -> usize {
        self.game.variant().nplayers()
    }

    /// The colour names in playing order.
    #[getter]
    fn colour_names(&self) -> Vec<&'static str> {
        self.game.variant().colour_names().to_vec()
    }

    /// Number of placements (actions), the length of the action mask.
    #[getter]
    fn action_count(&self) -> usize {
        self.tables().moves.len()
    }

    /// Number of piece shapes (21, Junior 12).
    #[getter]
    fn piece_count(&self) -> usize {
        self.tables().npieces()
    }

    /// The moves played so far, in notation (skipped colours leave no entry).
    #[getter]
    fn moves(&self) -> Vec<String> {
        let t = self.tables();
        self.game
            .history
            .iter()
            .filter(|&&(_, m)| m != PASS)
            .map(|&(_, m)| t.move_name(m))
            .collect()
    }

    /// The colour to move (0-based, after skipping colours that cannot move); `None` at the end.
    fn colour_to_move(&mut self) -> Option<usize> {
        self.mover()
    }

    /// The player who moves now (Two: colours 1+3 are player 0; Three: the fourth colour's
    /// player rotates); `None` at the end.
    fn player_to_move(&mut self) -> Option<usize> {
        let colour = self.mover()?;
        Some(self.game.board.player_of(colour))
    }

    /// True when no colour can move.
    fn is_over(&mut self) -> bool {
        self.mover().is_none()
    }

    /// Points of each colour: squares placed, +15 with all pieces placed, +5 more if the last
    /// was the monomino (no bonus in Junior).
    fn points(&self) -> Vec<i32> {
        (0..self.game.board.ncolours())
            .map(|c| self.game.board.points(c))
            .collect()
    }

    /// Points of each player (Two: both colours; Three: without the shared colour).
    fn player_points(&self) -> Vec<i32> {
        self.game.board.player_points()
    }

    /// Result of each player: 1 for the sole winner, 0 for the sole loser, ranks in between
    /// spread evenly, ties sharing.
    fn results(&self) -> Vec<f32> {
        self.game.board.player_results()
    }

    /// Every legal move of the colour to move, in notation.
    fn legal_moves(&mut self) -> Vec<String> {
        let t = self.tables();
        self.legal_ids().iter().map(|&m| t.move_name(m)).collect()
    }

    /// Every legal action (placement id) of the colour to move.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let ids = self.legal_ids();
        PyArray1::from_vec(py, ids.iter().map(|&m| i64::from(m)).collect())
    }

    /// The legal actions as a boolean array of `action_count`.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let count = self.action_count();
        let ids = self.legal_ids();
        arrays::filled(py, [count], |mask| {
            for &id in ids {
                mask[usize::from(id)] = true;
            }
        })
    }

    /// Whether a move (notation or action) is legal for the colour to move.
    fn is_legal(&mut self, mv: MoveArg) -> bool {
        match self.legal_id(&mv) {
            Ok((colour, id)) => self.game.board.is_legal(colour, id),
            Err(_) => false,
        }
    }

    /// Plays a move (notation or action) for the colour to move. An illegal move raises
    /// `IllegalMoveError`, a finished game `GameOverError`; the state is unchanged.
    fn play(&mut self, mv: MoveArg) -> PyResult<()> {
        let (colour, id) = self.legal_id(&mv)?;
        self.game.play(colour, id).map_err(illegal)?;
        self.mover = None;
        Ok(())
    }

    /// The action (placement id) of a move in notation (legal or not).
    fn move_to_action(&self, mv: &str) -> PyResult<u16> {
        self.tables().parse_move(mv).map_err(value_error)
    }

    /// The notation of an action.
    fn action_to_move(&self, action: usize) -> PyResult<String> {
        if action >= self.action_count() {
            return Err(value_error(format!(
                "action {action} is outside 0..{}",
                self.action_count()
            )));
        }
        Ok(self.tables().move_name(action as u16))
    }

    /// The board as a (height, width) int8 array, row 0 at the top: 0 empty, else colour + 1
    /// (-1 off the board: around Trigon's hexagon).
    fn board_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<i8>>> {
        let (height, width) = (self.height(), self.width());
        arrays::filled(py, [height, width], |cells: &mut [i8]| {
            for (i, cell) in cells.iter_mut().enumerate() {
                *cell = match self.grid_point(i / width, i % width) {
                    None => -1,
                    Some(point) => self.game.board.owner(point).map_or(0, |c| c as i8 + 1),
                };
            }
        })
    }

    /// Observation planes from the view of `colour` (default: the colour to move, else the
    /// first): a (height, width, 2 * colours) uint8 array, row 0 at the top, holding for each
    /// colour in playing order from `colour` on its squares then its live corner squares (where
    /// its next piece may attach); and the pieces each of them has left, (colours, pieces).
    #[pyo3(signature = (colour = None))]
    #[allow(clippy::type_complexity)]
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        colour: Option<usize>,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray3<u8>>,
        Bound<'py, numpy::PyArray2<u8>>,
    )> {
        let n = self.colours();
        let me = match colour {
            Some(c) if c < n => c,
            Some(c) => return Err(value_error(format!("colour {c} is outside 0..{n}"))),
            None => self.mover().unwrap_or(0),
        };
        let board = &self.game.board;
        let (height, width, channels) = (self.height(), self.width(), 2 * n);
        // Channel pair of each colour: its place in playing order from `me`.
        let pair: Vec<usize> = (0..n).map(|c| 2 * ((c + n - me) % n)).collect();
        let planes = arrays::filled(py, [height, width, channels], |planes: &mut [u8]| {
            for (row, cells) in planes.chunks_exact_mut(width * channels).enumerate() {
                for (x, cell) in cells.chunks_exact_mut(channels).enumerate() {
                    let Some(point) = self.grid_point(row, x) else {
                        continue;
                    };
                    if let Some(owner) = board.owner(point) {
                        cell[pair[owner]] = 1;
                    }
                    let mut corners = board.attach_mask(point);
                    while corners != 0 {
                        cell[pair[corners.trailing_zeros() as usize] + 1] = 1;
                        corners &= corners - 1;
                    }
                }
            }
        })?;
        let pieces = self.tables().npieces();
        let left = arrays::filled(py, [n, pieces], |left: &mut [u8]| {
            for (i, count) in left.iter_mut().enumerate() {
                *count = board.left((me + i / pieces) % n, i % pieces);
            }
        })?;
        Ok((planes, left))
    }

    /// An agent's observation in one call: [`Blokus::observation`]'s planes and pieces left
    /// from the view of `colour` (default: the colour to move), and the action mask as int8
    /// (1 = legal), all zeros unless `with_mask`.
    #[pyo3(signature = (colour = None, with_mask = true))]
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        colour: Option<usize>,
        with_mask: bool,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray3<u8>>,
        Bound<'py, numpy::PyArray2<u8>>,
        Bound<'py, PyArray1<i8>>,
    )> {
        let (planes, left) = self.observation(py, colour)?;
        let count = self.action_count();
        let ids = if with_mask { self.legal_ids() } else { &[] };
        let mask = arrays::filled(py, [count], |mask: &mut [i8]| {
            for &id in ids {
                mask[usize::from(id)] = 1;
            }
        })?;
        Ok((planes, left, mask))
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The engine's search for the colour to move (the protocol's `go`: Monte Carlo tree
    /// search, the Duo opening book unless `own_book=False`), without the GIL. Limits
    /// `movetime` (ms), `nodes` (playouts), `depth` combine; none thinks 1000 ms.
    #[pyo3(signature = (movetime = None, nodes = None, depth = None, seed = 0, threads = 1, own_book = true, level = 10, multipv = 1))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        py: Python<'_>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        seed: u64,
        threads: usize,
        own_book: bool,
        level: u32,
        multipv: usize,
    ) -> PyResult<SearchResult> {
        let knobs = Knobs {
            threads,
            own_book,
            ..Knobs::new(seed, level, multipv)
        };
        let request = SearchRequest::new(movetime, nodes, depth, knobs)?;
        if self.mover().is_none() {
            return Ok(SearchResult::empty());
        }
        let mut position = vec!["startpos".to_string(), "moves".to_string()];
        position.extend(self.moves());
        let state = ProtocolState {
            game: "blokus",
            params: vec![("variant".into(), self.variant().into())],
            position,
            pieces: None,
        };
        search::run(py, state, request)
    }

    /// The position for people: the board (`.` empty, `1`..`4` colours), each colour's points
    /// and pieces left, and who is to play.
    fn render(&self) -> String {
        self.game.show().join("\n")
    }

    fn __str__(&self) -> String {
        self.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "Blokus(variant='{}', moves={})",
            self.variant(),
            self.game.history.len()
        )
    }
}
