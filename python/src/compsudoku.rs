//! `tessera_engine.CompSudoku`: a Competitive Sudoku game (any box shape, every mode) as a Python
//! object, on the engine's rules and solver. Actions are `cell * N + value - 1`.

use crate::arrays;
use crate::errors::{game_over, illegal, value_error};
use crate::moves::MoveArg;
use crate::search::{self, Knobs, ProtocolState, SearchRequest, SearchResult};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::{Duration, Instant};
use tessera::games;
use tessera::games::compsudoku::rules::{Game, Mode, Move, Outcome, move_name, parse_move};
use tessera::games::compsudoku::session::{parse_position, position_string};
use tessera::sudoku::{Shape, Solver};

/// How long `passing_moves` may ask the solver (settled in milliseconds up to 16x16).
const PASSING_TIME: Duration = Duration::from_secs(60);

/// A Competitive Sudoku game: two players fill an N x N sudoku in turn and score 1, 3 or 7 for
/// completing one, two or three regions; a move that would leave the grid without a solution
/// becomes taboo (nothing placed, the turn passes). Moves are `e5=7` (values above 9 as
/// letters); actions `cell * N + value - 1`, cells row-major from the top-left.
#[pyclass(module = "tessera_engine._native")]
#[derive(Clone)]
pub struct CompSudoku {
    shape: Shape,
    mode: Mode,
    seed: u64,
    game: Game,
}

impl CompSudoku {
    fn n(&self) -> usize {
        self.shape.size()
    }

    fn action_count(&self) -> usize {
        self.n() * self.n() * self.n()
    }

    fn action_of(&self, mv: Move) -> usize {
        usize::from(mv.cell) * self.n() + usize::from(mv.value) - 1
    }

    /// The move of an argument, checked by the rules for the player to move.
    fn legal_move(&self, mv: &MoveArg) -> PyResult<Move> {
        if self.game.is_over() {
            return Err(game_over("play"));
        }
        let n = self.n();
        let parsed = match mv {
            MoveArg::Action(a) => usize::try_from(*a)
                .ok()
                .filter(|&a| a < self.action_count())
                .map(|a| Move {
                    cell: (a / n) as u16,
                    value: (a % n + 1) as u8,
                })
                .ok_or_else(|| {
                    illegal(format!("action {a} is outside 0..{}", self.action_count()))
                })?,
            MoveArg::Notation(text) => parse_move(text, n).map_err(illegal)?,
        };
        self.game
            .check(parsed)
            .map_err(|e| illegal(format!("{}: {e}", move_name(parsed, n))))?;
        Ok(parsed)
    }

    /// The tokens of the protocol's `position` command that recreate this state.
    fn position_tokens(&self) -> Vec<String> {
        position_string(&self.game)
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect()
    }

    fn newgame_params(&self) -> Vec<(String, String)> {
        vec![
            ("box".into(), self.shape.to_string()),
            ("mode".into(), self.mode.name().into()),
            ("seed".into(), self.seed.to_string()),
        ]
    }
}

#[pymethods]
impl CompSudoku {
    /// A new game: `box` "MxN" (boxes of M rows and N columns: 2x2, 2x3, 3x3, ...), `mode`
    /// classic, rows, border or random (`seed` draws the random mode's starting cells), and
    /// optionally `position`, the arguments of the protocol's `position` command
    /// (`"board .2../.41./2143/432. turn 2"`).
    #[new]
    #[pyo3(signature = (r#box = "3x3", mode = "classic", seed = 1, position = None))]
    fn new(r#box: &str, mode: &str, seed: u64, position: Option<&str>) -> PyResult<Self> {
        let shape: Shape = r#box.parse().map_err(|e| value_error(format!("{e}")))?;
        if shape.size() < 2 {
            return Err(value_error(format!(
                "box {box} is too small (N must be at least 2)"
            )));
        }
        let mode = Mode::parse(mode).map_err(value_error)?;
        let game = match position {
            Some(text) => {
                let args: Vec<String> = text.split_whitespace().map(String::from).collect();
                parse_position(shape, mode, seed, &args).map_err(value_error)?
            }
            None => Game::new(shape, mode, seed),
        };
        Ok(CompSudoku {
            shape,
            mode,
            seed,
            game,
        })
    }

    /// Grid side N.
    #[getter]
    fn size(&self) -> usize {
        self.n()
    }

    /// The box shape, `MxN`.
    #[getter]
    fn r#box(&self) -> String {
        self.shape.to_string()
    }

    /// The mode's name.
    #[getter]
    fn mode(&self) -> &'static str {
        self.mode.name()
    }

    /// Points of player 0 and player 1.
    #[getter]
    fn scores(&self) -> (u32, u32) {
        (self.game.scores[0], self.game.scores[1])
    }

    /// The moves known to be taboo, in notation.
    #[getter]
    fn taboo(&self) -> Vec<String> {
        self.game
            .taboo
            .iter()
            .map(|&m| move_name(m, self.n()))
            .collect()
    }

    /// The number of actions, N * N * N.
    #[getter(action_count)]
    fn action_count_getter(&self) -> usize {
        self.action_count()
    }

    /// The state as the arguments of the protocol's `position` command.
    #[getter]
    fn position(&self) -> String {
        self.position_tokens().join(" ")
    }

    /// The player to move (0 or 1, skipping one with no playable cell); `None` at the end.
    fn player_to_move(&self) -> Option<usize> {
        self.game.mover()
    }

    /// True when the grid is full or nobody can move.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The winner once the game is over: 0 or 1, or -1 for a draw; `None` before the end.
    fn winner(&self) -> Option<i32> {
        self.game
            .is_over()
            .then(|| i32::from(self.game.winner()) - 1)
    }

    /// Every legal move of the player to move, in notation: those that place a value and those
    /// that would become taboo (passes).
    fn legal_moves(&self) -> Vec<String> {
        let n = self.n();
        self.game
            .rule_moves()
            .into_iter()
            .map(|m| move_name(m, n))
            .collect()
    }

    /// The legal moves that would leave the grid without a solution, so become taboo and pass
    /// (the solver decides, without the GIL).
    fn passing_moves(&self, py: Python<'_>) -> Vec<String> {
        let game = &self.game;
        let passes = py.detach(|| {
            game.legal_moves(&mut Solver::new(), Instant::now() + PASSING_TIME)
                .passes
        });
        passes.into_iter().map(|m| move_name(m, self.n())).collect()
    }

    /// Every legal action, in increasing order.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut actions: Vec<i64> = self
            .game
            .rule_moves()
            .into_iter()
            .map(|m| self.action_of(m) as i64)
            .collect();
        actions.sort_unstable();
        PyArray1::from_vec(py, actions)
    }

    /// The legal actions as a boolean array of N * N * N.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        arrays::filled(py, [self.action_count()], |mask| {
            for m in self.game.rule_moves() {
                mask[self.action_of(m)] = true;
            }
        })
    }

    /// Whether a move (notation or action) is legal for the player to move.
    fn is_legal(&self, mv: MoveArg) -> bool {
        self.legal_move(&mv).is_ok()
    }

    /// Plays a move (notation or action) for the player to move; the solver decides (without
    /// the GIL) whether it places its value or becomes taboo. Returns `{"placed": bool,
    /// "points": int}`. An illegal move raises `IllegalMoveError`, a finished game
    /// `GameOverError`; the state is unchanged.
    fn play<'py>(&mut self, py: Python<'py>, mv: MoveArg) -> PyResult<Bound<'py, PyDict>> {
        let checked = self.legal_move(&mv)?;
        let mut game = self.game.clone();
        let outcome = py
            .detach(move || game.play(checked, &mut Solver::new()).map(|o| (o, game)))
            .map_err(|e| illegal(e.to_string()))?;
        self.game = outcome.1;
        let (placed, points) = match outcome.0 {
            Outcome::Placed(points) => (true, points),
            Outcome::Taboo => (false, 0),
        };
        let result = PyDict::new(py);
        result.set_item("placed", placed)?;
        result.set_item("points", points)?;
        Ok(result)
    }

    /// The action of a move in notation (legal or not).
    fn move_to_action(&self, mv: &str) -> PyResult<usize> {
        Ok(self.action_of(parse_move(mv, self.n()).map_err(value_error)?))
    }

    /// The notation of an action.
    fn action_to_move(&self, action: usize) -> PyResult<String> {
        if action >= self.action_count() {
            return Err(value_error(format!(
                "action {action} is outside 0..{}",
                self.action_count()
            )));
        }
        let n = self.n();
        Ok(move_name(
            Move {
                cell: (action / n) as u16,
                value: (action % n + 1) as u8,
            },
            n,
        ))
    }

    /// The grid as an (N, N) uint8 array of values (0 empty), row 0 at the top.
    fn board_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<u8>>> {
        let n = self.n();
        arrays::filled(py, [n, n], |cells| {
            cells.copy_from_slice(self.game.grid.values())
        })
    }

    /// Observation planes from the view of `player` (default: the player to move, else 0): an
    /// (N, N, 2N + 2) uint8 array, row 0 at the top: value v in channel v - 1, the taboo value
    /// v in channel N + v - 1, then the cells `player` may fill, then those the opponent may.
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        let me = match player {
            Some(p) if p < 2 => p,
            Some(p) => return Err(value_error(format!("player {p} is not 0 or 1"))),
            None => self.game.mover().unwrap_or(0),
        };
        let n = self.n();
        let channels = 2 * n + 2;
        arrays::filled(py, [n, n, channels], |planes: &mut [u8]| {
            for (cell, out) in planes.chunks_exact_mut(channels).enumerate() {
                let value = usize::from(self.game.grid.get(cell));
                if value > 0 {
                    out[value - 1] = 1;
                }
                out[2 * n] = u8::from(self.game.is_playable(me, cell));
                out[2 * n + 1] = u8::from(self.game.is_playable(1 - me, cell));
            }
            for mv in &self.game.taboo {
                planes[usize::from(mv.cell) * channels + n + usize::from(mv.value) - 1] = 1;
            }
        })
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

    /// The engine's search for the player to move (the protocol's `go`: iterative-deepening
    /// alpha-beta), without the GIL; the move may be a pass (a move that becomes taboo).
    /// Limits `movetime` (ms), `nodes`, `depth` combine; none thinks 1000 ms.
    #[pyo3(signature = (movetime = None, nodes = None, depth = None, seed = 0, level = 10, multipv = 1))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        seed: u64,
        level: u32,
        multipv: usize,
    ) -> PyResult<SearchResult> {
        let request = SearchRequest::new(movetime, nodes, depth, Knobs::new(seed, level, multipv))?;
        if self.game.is_over() {
            return Ok(SearchResult::empty());
        }
        let state = ProtocolState {
            game: "sudoku",
            params: self.newgame_params(),
            position: self.position_tokens(),
            pieces: None,
        };
        search::run(py, state, request)
    }

    /// The position for people, as the engine's `show` draws it.
    fn render(&self) -> PyResult<String> {
        let mut session = games::new_game("sudoku", &self.newgame_params()).map_err(value_error)?;
        session
            .set_position(&self.position_tokens())
            .map_err(value_error)?;
        Ok(session.show().join("\n"))
    }

    fn __str__(&self) -> PyResult<String> {
        self.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "CompSudoku(box='{}', mode='{}', position='{}')",
            self.shape,
            self.mode.name(),
            self.position()
        )
    }
}
