//! Competitive Sudoku in protocol mode: `newgame sudoku [box MxN] [mode classic|rows|border|random]
//! [seed S]`, `position ...` (see [`parse_position`]), `legal`, `show`, `go`.

use super::levels::{self, Play};
use super::rules::{Game, Mode, Move, move_name, parse_move, parse_square, square_name};
use super::search::{DEFAULT_WEIGHTS, SCALE, SudokuSearch, Weights};
use crate::games::{EngineOptions, GameSession, Legal, SearchJob};
use crate::search::{Info, Limits, SearchControl, iterative};
use crate::sudoku::{Grid, Shape, Solver, feasible, value_char};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The longest `position` and `legal` spend on solver questions, so that the session answers
/// the next command (`isready`) at once even on the largest grids.
pub const ORACLE_TIME: Duration = Duration::from_millis(40);

/// The game state the protocol sees.
pub struct SudokuSession {
    shape: Shape,
    mode: Mode,
    seed: u64,
    game: Game,
}

impl SudokuSession {
    /// A new game from `newgame` parameters.
    pub fn new(params: &[(String, String)]) -> Result<Self, String> {
        let mut shape = Shape::CLASSIC;
        let mut mode = Mode::Classic;
        let mut seed = 1;
        for (key, value) in params {
            match key.as_str() {
                "box" => {
                    shape = value.parse().map_err(|e| format!("{e}"))?;
                    if shape.size() < 2 {
                        return Err(format!("box {value} is too small (N must be at least 2)"));
                    }
                }
                "mode" => mode = Mode::parse(value)?,
                "seed" => {
                    seed = value.parse().map_err(|_| {
                        format!("sudoku seed needs a non-negative integer, got '{value}'")
                    })?
                }
                _ => {
                    return Err(format!(
                        "unknown sudoku parameter '{key}' (known: box, mode, seed)"
                    ));
                }
            }
        }
        Ok(SudokuSession {
            shape,
            mode,
            seed,
            game: Game::new(shape, mode, seed),
        })
    }

    /// The current game state.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

/// Rows of N characters each, separated by '/', top row first.
fn parse_rows(text: &str, n: usize, what: &str) -> Result<Vec<char>, String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != n {
        return Err(format!(
            "{what} has {n} rows separated by '/', got {}",
            rows.len()
        ));
    }
    let mut cells = Vec::with_capacity(n * n);
    for (i, row) in rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != n {
            return Err(format!(
                "{what} row {} has {} cells, expected {n}",
                i + 1,
                chars.len()
            ));
        }
        cells.extend(chars);
    }
    Ok(cells)
}

/// A comma-separated list of squares, or `-` for none.
fn parse_squares(text: &str, n: usize) -> Result<Vec<bool>, String> {
    let mut set = vec![false; n * n];
    if text != "-" {
        for square in text.split(',') {
            set[parse_square(square, n)?] = true;
        }
    }
    Ok(set)
}

fn is_keyword(token: &str) -> bool {
    matches!(
        token,
        "startpos"
            | "board"
            | "owners"
            | "turn"
            | "scores"
            | "taboo"
            | "allowed1"
            | "allowed2"
            | "moves"
    )
}

/// Parses `position [startpos] [board <rows>] [owners <rows>] [turn 1|2] [scores <a> <b>]
/// [taboo <move>...] [allowed1 <squares>] [allowed2 <squares>] [moves <move>...]` into a new
/// game state; nothing is changed on error.
pub fn parse_position(
    shape: Shape,
    mode: Mode,
    seed: u64,
    args: &[String],
) -> Result<Game, String> {
    let n = shape.size();
    let mut game = Game::new(shape, mode, seed);
    let mut owners: Option<Vec<char>> = None;
    let mut moves: Vec<Move> = Vec::new();
    let mut i = 0;
    let value_of = |i: usize, key: &str| {
        args.get(i + 1)
            .map(String::as_str)
            .ok_or_else(|| format!("position {key} needs a value"))
    };
    while i < args.len() {
        let key = args[i].as_str();
        match key {
            "startpos" => i += 1,
            "board" => {
                let cells = parse_rows(value_of(i, key)?, n, "a board")?;
                let line: String = cells.into_iter().collect();
                game.grid = Grid::parse(shape, &line).map_err(|e| format!("bad board: {e}"))?;
                i += 2;
            }
            "owners" => {
                owners = Some(parse_rows(value_of(i, key)?, n, "owners")?);
                i += 2;
            }
            "turn" => {
                game.turn = match value_of(i, key)? {
                    "1" => 0,
                    "2" => 1,
                    other => return Err(format!("position turn is 1 or 2, got '{other}'")),
                };
                i += 2;
            }
            "scores" => {
                for p in 0..2 {
                    let text = args
                        .get(i + 1 + p)
                        .ok_or("position scores needs two numbers")?;
                    game.scores[p] = text.parse().map_err(|_| {
                        format!("position scores needs non-negative integers, got '{text}'")
                    })?;
                }
                i += 3;
            }
            "taboo" => {
                i += 1;
                let mut listed: HashSet<Move> = game.taboo.iter().copied().collect();
                while i < args.len() && !is_keyword(&args[i]) {
                    let mv = parse_move(&args[i], n).map_err(|e| format!("taboo: {e}"))?;
                    if listed.insert(mv) {
                        game.taboo.push(mv);
                    }
                    i += 1;
                }
            }
            "allowed1" | "allowed2" => {
                if !mode.is_territory() {
                    return Err(format!(
                        "position {key} needs a territory mode, not classic"
                    ));
                }
                let set = parse_squares(value_of(i, key)?, n)?;
                game.allowed[usize::from(key == "allowed2")] = set;
                i += 2;
            }
            "moves" => {
                for text in &args[i + 1..] {
                    moves.push(parse_move(text, n)?);
                }
                i = args.len();
            }
            _ => {
                return Err(format!(
                    "unknown position field '{key}' (known: startpos, board, owners, turn, \
                     scores, taboo, allowed1, allowed2, moves)"
                ));
            }
        }
    }
    if let Some(owners) = owners {
        if !mode.is_territory() {
            return Err("position owners needs a territory mode, not classic".into());
        }
        for (cell, ch) in owners.into_iter().enumerate() {
            let owner = match ch {
                '.' => 0,
                '1' | '+' => 1,
                '2' | '-' => 2,
                _ => return Err(format!("owners: bad character {ch:?} (expected . 1 2)")),
            };
            if owner != 0 && game.grid.get(cell) == 0 {
                return Err(format!(
                    "owners: square {} is owned but empty",
                    square_name(cell, n)
                ));
            }
            game.owner[cell] = owner;
        }
    }
    // Solver questions share one deadline; what is not settled by then counts as solvable.
    let deadline = Instant::now() + ORACLE_TIME;
    let mut solver = Solver::new();
    if feasible::solvable_by(&mut solver, &game.grid, deadline) == Some(false) {
        return Err("impossible board: the grid has no solution".into());
    }
    if let Some(mover) = game.mover() {
        game.turn = mover;
    }
    for (k, mv) in moves.into_iter().enumerate() {
        let illegal = |e| format!("move {} ({}) is illegal: {e}", k + 1, move_name(mv, n));
        game.check(mv).map_err(illegal)?;
        let asked = [(usize::from(mv.cell), mv.value)];
        let verdict = feasible::classify(&mut solver, &game.grid, &asked, deadline, 1)[0];
        game.play_judged(mv, verdict != Some(false))
            .map_err(illegal)?;
    }
    Ok(game)
}

/// The `position` command that recreates `game` (without `moves`).
pub fn position_string(game: &Game) -> String {
    let n = game.size();
    let rows = |f: &dyn Fn(usize) -> char| -> String {
        (0..n)
            .map(|r| (0..n).map(|c| f(r * n + c)).collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut out = format!(
        "position board {} turn {} scores {} {}",
        rows(&|cell| value_char(game.grid.get(cell))),
        game.turn + 1,
        game.scores[0],
        game.scores[1]
    );
    if !game.taboo.is_empty() {
        out.push_str(" taboo");
        for &mv in &game.taboo {
            out.push(' ');
            out.push_str(&move_name(mv, n));
        }
    }
    if game.mode.is_territory() {
        out.push_str(" owners ");
        out.push_str(&rows(&|cell| match game.owner[cell] {
            1 => '1',
            2 => '2',
            _ => '.',
        }));
        for p in 0..2 {
            let squares: Vec<String> = (0..n * n)
                .filter(|&cell| game.allowed[p][cell])
                .map(|cell| square_name(cell, n))
                .collect();
            let list = if squares.is_empty() {
                "-".to_string()
            } else {
                squares.join(",")
            };
            out.push_str(&format!(" allowed{} {list}", p + 1));
        }
    }
    out
}

/// The `legal` answer: real moves, then the marker `pass` and the moves that would become taboo;
/// a note when the solver did not settle every move in time.
pub fn legal_answer(game: &Game) -> Legal {
    let n = game.size();
    let deadline = Instant::now() + ORACLE_TIME;
    let legal = game.legal_moves(&mut Solver::new(), deadline);
    let mut moves: Vec<String> = legal.real.iter().map(|&m| move_name(m, n)).collect();
    if !legal.passes.is_empty() {
        moves.push("pass".into());
        moves.extend(legal.passes.iter().map(|&m| move_name(m, n)));
    }
    let note = (legal.unsettled > 0).then(|| {
        format!(
            "legal: {} of {} moves not settled by the solver within {} ms, listed as placing moves",
            legal.unsettled,
            legal.real.len() + legal.passes.len(),
            ORACLE_TIME.as_millis()
        )
    });
    Legal { moves, note }
}

impl GameSession for SudokuSession {
    fn name(&self) -> &'static str {
        "sudoku"
    }

    fn set_position(&mut self, args: &[String]) -> Result<(), String> {
        self.game = parse_position(self.shape, self.mode, self.seed, args)?;
        Ok(())
    }

    fn legal_moves(&self) -> Legal {
        legal_answer(&self.game)
    }

    fn show(&self) -> Vec<String> {
        let game = &self.game;
        let n = game.size();
        let status = match game.mover() {
            Some(p) => format!("to move {}", p + 1),
            None => format!(
                "game over {}",
                match game.winner() {
                    0 => "draw".to_string(),
                    w => format!("winner {w}"),
                }
            ),
        };
        let mut lines = vec![format!(
            "sudoku box {} mode {} scores {} {} {status} taboo {}",
            self.shape,
            self.mode.name(),
            game.scores[0],
            game.scores[1],
            game.taboo.len()
        )];
        let letters: String = (0..n)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        lines.push(format!("   {letters}"));
        for r in 0..n {
            let row: String = (0..n)
                .map(|c| {
                    let cell = r * n + c;
                    let mark = match game.owner[cell] {
                        1 => '+',
                        2 => '-',
                        _ => ' ',
                    };
                    format!("{}{mark}", value_char(game.grid.get(cell)))
                })
                .collect();
            lines.push(format!("{:>2}  {}", n - r, row.trim_end()));
        }
        lines.push(position_string(game));
        lines
    }

    fn search_job(
        &self,
        _limits: &Limits,
        options: &EngineOptions,
    ) -> Result<Box<dyn SearchJob>, String> {
        let n = self.game.size();
        Ok(Box::new(SudokuJob {
            fallback: self
                .game
                .rule_moves()
                .first()
                .map(|&mv| move_name(mv, n))
                .into_iter()
                .collect(),
            game: self.game.clone(),
            weights: DEFAULT_WEIGHTS,
            play: levels::play(options.level),
            seed: options.seed,
            lines: options.multipv,
        }))
    }
}

/// A search of one position, owned by the worker thread.
struct SudokuJob {
    fallback: Vec<String>,
    game: Game,
    weights: Weights,
    /// How the `Level` plays.
    play: Play,
    /// The `Seed` option.
    seed: u64,
    /// The `MultiPV` option.
    lines: usize,
}

impl SudokuJob {
    /// The one line of a level that does not search, reported as an iteration of depth 1
    /// without nodes (score: the margin after the move's points).
    fn baseline_line(&self, control: &SearchControl, report: &mut dyn FnMut(&Info)) -> Vec<String> {
        let Some(mv) = levels::baseline_move(&self.game, self.play, self.seed) else {
            return Vec::new();
        };
        let mover = self.game.mover().unwrap_or(self.game.turn);
        let points = self.game.points_for(usize::from(mv.cell));
        let scores = self.game.scores.map(i64::from);
        let margin = scores[mover] + i64::from(points) - scores[1 - mover];
        let pv = vec![move_name(mv, self.game.size())];
        report(&Info {
            depth: 1,
            multipv: None,
            score: margin * i64::from(SCALE),
            nodes: 0,
            time_ms: control.elapsed().as_millis() as u64,
            pv: pv.clone(),
        });
        pv
    }
}

impl SearchJob for SudokuJob {
    fn run(self: Box<Self>, control: &SearchControl, report: &mut dyn FnMut(&Info)) -> Vec<String> {
        let Play::Search(caps) = self.play else {
            return self.baseline_line(control, report);
        };
        let control = control.capped(caps.nodes, caps.depth);
        let mut search = SudokuSearch::new(&self.game, self.weights, &|| control.must_stop(0))
            .with_lines(self.lines)
            .with_noise(caps.noise, levels::position_seed(self.seed, &self.game));
        iterative::deepen(&mut search, &control, report)
    }

    fn fallback(&self) -> Vec<String> {
        self.fallback.clone()
    }
}
