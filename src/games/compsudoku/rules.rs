//! The rules of Competitive Sudoku: the game state the course framework holds (grid, scores,
//! player to move, taboo moves, territory), legality, taboo decisions, scoring, skips and the end.

use crate::sudoku::feasible;
use crate::sudoku::{Grid, MoveError, Shape, Solver, char_value, value_char};
use std::fmt;
use std::time::Instant;

/// Which cells a player may fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Any empty cell.
    Classic,
    /// Territory: player 1 starts from the top row, player 2 from the bottom row.
    Rows,
    /// Territory: both start from the whole outer edge.
    Border,
    /// Territory: each player starts from N random cells.
    Random,
}

impl Mode {
    /// All modes with their protocol names.
    pub const ALL: [(&'static str, Mode); 4] = [
        ("classic", Mode::Classic),
        ("rows", Mode::Rows),
        ("border", Mode::Border),
        ("random", Mode::Random),
    ];

    /// The mode of a protocol name.
    pub fn parse(name: &str) -> Result<Mode, String> {
        Mode::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, m)| m)
            .ok_or_else(|| {
                format!("unknown sudoku mode '{name}' (known: classic, rows, border, random)")
            })
    }

    /// The protocol name.
    pub fn name(self) -> &'static str {
        Mode::ALL
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("?", |(n, _)| n)
    }

    /// True for the modes where players may only play their own territory.
    pub fn is_territory(self) -> bool {
        self != Mode::Classic
    }
}

/// A move: a value written in a cell (row-major index, row 0 at the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub cell: u16,
    pub value: u8,
}

/// Why a move is refused (the framework would declare the mover the loser).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// Nobody can move any more.
    GameOver,
    /// The move is in the taboo list.
    Taboo,
    /// Cell or value out of range.
    OutOfRange,
    /// The cell is filled.
    Occupied,
    /// The value is already in the row, column or box.
    Conflict,
    /// Territory modes: the cell is not playable for the mover.
    NotPlayable,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::GameOver => "the game is over",
            Illegal::Taboo => "the move is taboo",
            Illegal::OutOfRange => "cell or value out of range",
            Illegal::Occupied => "cell already filled",
            Illegal::Conflict => "value already in the row, column or box",
            Illegal::NotPlayable => "cell not playable for the player to move",
        })
    }
}

/// What a legal move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The value was placed and scored this many points (0, 1, 3 or 7).
    Placed(u32),
    /// The grid would have had no solution: the move became taboo, nothing placed (a pass).
    Taboo,
}

/// Points for completing 0, 1, 2 or 3 regions at once.
pub const POINTS: [u32; 4] = [0, 1, 3, 7];

/// The 8-neighbourhood of every cell of an N x N grid.
pub fn neighbours(n: usize) -> Vec<Vec<u16>> {
    (0..n * n)
        .map(|cell| {
            let (r, c) = ((cell / n) as isize, (cell % n) as isize);
            let mut out = Vec::with_capacity(8);
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (r2, c2) = (r + dr, c + dc);
                    if (dr, dc) != (0, 0)
                        && (0..n as isize).contains(&r2)
                        && (0..n as isize).contains(&c2)
                    {
                        out.push((r2 as usize * n + c2 as usize) as u16);
                    }
                }
            }
            out
        })
        .collect()
}

/// The complete game state.
#[derive(Clone, Debug)]
pub struct Game {
    pub mode: Mode,
    pub grid: Grid,
    /// Points of player 1 and player 2.
    pub scores: [u32; 2],
    /// The player whose turn it is: 0 = player 1, 1 = player 2.
    pub turn: usize,
    /// Moves known to leave the grid unsolvable; they may not be played.
    pub taboo: Vec<Move>,
    /// Per cell: 0 = nobody (empty or a given), 1 or 2 = filled by that player.
    pub owner: Vec<u8>,
    /// Territory modes: per player, its starting cells (playable whenever empty).
    pub allowed: [Vec<bool>; 2],
}

/// Small deterministic generator for the random mode's starting cells.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The starting cells of both players in a mode (empty lists in classic mode). `seed` draws the
/// random mode's 2N distinct cells, the first N for player 1.
pub fn starting_cells(mode: Mode, n: usize, seed: u64) -> [Vec<bool>; 2] {
    let mut sets = [vec![false; n * n], vec![false; n * n]];
    match mode {
        Mode::Classic => {}
        Mode::Rows => {
            for c in 0..n {
                sets[0][c] = true;
                sets[1][(n - 1) * n + c] = true;
            }
        }
        Mode::Border => {
            let edge: Vec<bool> = (0..n * n)
                .map(|cell| {
                    let (r, c) = (cell / n, cell % n);
                    r == 0 || c == 0 || r == n - 1 || c == n - 1
                })
                .collect();
            sets = [edge.clone(), edge];
        }
        Mode::Random => {
            let mut state = seed;
            let mut drawn: Vec<usize> = Vec::with_capacity(2 * n);
            while drawn.len() < (2 * n).min(n * n) {
                let cell = (splitmix(&mut state) % (n * n) as u64) as usize;
                if !drawn.contains(&cell) {
                    drawn.push(cell);
                }
            }
            for (i, cell) in drawn.into_iter().enumerate() {
                sets[usize::from(i >= n)][cell] = true;
            }
        }
    }
    sets
}

impl Game {
    /// An empty board in a mode; `seed` only matters for the random mode.
    pub fn new(shape: Shape, mode: Mode, seed: u64) -> Game {
        let n = shape.size();
        Game {
            mode,
            grid: Grid::empty(shape),
            scores: [0, 0],
            turn: 0,
            taboo: Vec::new(),
            owner: vec![0; n * n],
            allowed: starting_cells(mode, n, seed),
        }
    }

    /// Grid side N.
    pub fn size(&self) -> usize {
        self.grid.size()
    }

    /// True if `player` (0 or 1) may fill the empty `cell`.
    pub fn is_playable(&self, player: usize, cell: usize) -> bool {
        if self.grid.get(cell) != 0 {
            return false;
        }
        if !self.mode.is_territory() {
            return true;
        }
        if self.allowed[player][cell] {
            return true;
        }
        let n = self.size();
        let (r, c) = (cell / n, cell % n);
        let own = player as u8 + 1;
        for r2 in r.saturating_sub(1)..=(r + 1).min(n - 1) {
            for c2 in c.saturating_sub(1)..=(c + 1).min(n - 1) {
                if self.owner[r2 * n + c2] == own {
                    return true;
                }
            }
        }
        false
    }

    /// The cells `player` may fill now.
    pub fn playable_cells(&self, player: usize) -> Vec<usize> {
        (0..self.grid.shape().cells())
            .filter(|&cell| self.is_playable(player, cell))
            .collect()
    }

    /// True if `player` has a cell to fill.
    pub fn can_move(&self, player: usize) -> bool {
        (0..self.grid.shape().cells()).any(|cell| self.is_playable(player, cell))
    }

    /// The player who moves now (skipping one who cannot), or `None` at the end of the game.
    pub fn mover(&self) -> Option<usize> {
        if self.can_move(self.turn) {
            Some(self.turn)
        } else if self.can_move(1 - self.turn) {
            Some(1 - self.turn)
        } else {
            None
        }
    }

    /// True when the game is over: the grid is full or nobody can move.
    pub fn is_over(&self) -> bool {
        self.mover().is_none()
    }

    /// Points a placement in `cell` would score now (by the regions it completes).
    pub fn points_for(&self, cell: usize) -> u32 {
        let n = self.size();
        let shape = self.grid.shape();
        let (r, c) = (cell / n, cell % n);
        let values = self.grid.values();
        let row_full = (0..n).all(|c2| c2 == c || values[r * n + c2] != 0);
        let col_full = (0..n).all(|r2| r2 == r || values[r2 * n + c] != 0);
        let (r0, c0) = (
            r / shape.box_rows() * shape.box_rows(),
            c / shape.box_cols() * shape.box_cols(),
        );
        let box_full = (r0..r0 + shape.box_rows()).all(|r2| {
            (c0..c0 + shape.box_cols()).all(|c2| (r2, c2) == (r, c) || values[r2 * n + c2] != 0)
        });
        POINTS[usize::from(row_full) + usize::from(col_full) + usize::from(box_full)]
    }

    /// Checks a move by the rules for the player to move, without the solvability question.
    pub fn check(&self, mv: Move) -> Result<usize, Illegal> {
        let player = self.mover().ok_or(Illegal::GameOver)?;
        if self.taboo.contains(&mv) {
            return Err(Illegal::Taboo);
        }
        match self.grid.check_move(mv.cell as usize, mv.value) {
            Err(MoveError::OutOfRange) => return Err(Illegal::OutOfRange),
            Err(MoveError::Occupied) => return Err(Illegal::Occupied),
            Err(MoveError::Conflict) => return Err(Illegal::Conflict),
            Ok(()) => {}
        }
        if !self.is_playable(player, mv.cell as usize) {
            return Err(Illegal::NotPlayable);
        }
        Ok(player)
    }

    /// Plays a move for the player to move: places and scores it, or records it as taboo when
    /// the grid would have no solution; either way the turn passes. Nothing changes on error.
    pub fn play(&mut self, mv: Move, solver: &mut Solver) -> Result<Outcome, Illegal> {
        self.check(mv)?;
        let keeps_solution = solver.is_solvable_after(&self.grid, mv.cell as usize, mv.value);
        self.play_judged(mv, keeps_solution)
    }

    /// [`Game::play`] with the solvability question already answered: `keeps_solution` says
    /// whether the grid keeps a solution after the move.
    pub fn play_judged(&mut self, mv: Move, keeps_solution: bool) -> Result<Outcome, Illegal> {
        let player = self.check(mv)?;
        let cell = mv.cell as usize;
        let outcome = if keeps_solution {
            let points = self.points_for(cell);
            self.grid
                .place(cell, mv.value)
                .map_err(|_| Illegal::Conflict)?;
            if self.mode.is_territory() {
                self.owner[cell] = player as u8 + 1;
            }
            self.scores[player] += points;
            Outcome::Placed(points)
        } else {
            self.taboo.push(mv);
            Outcome::Taboo
        };
        self.turn = 1 - player;
        if let Some(next) = self.mover() {
            self.turn = next;
        }
        Ok(outcome)
    }

    /// 1 or 2 for the winner, 0 for a draw (meaningful once the game is over).
    pub fn winner(&self) -> u8 {
        match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// The moves the rules allow the player to move, before any solvability check: a playable
    /// empty cell, a value free in its row, column and box, not taboo.
    pub fn rule_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let Some(player) = self.mover() else {
            return moves;
        };
        let n = self.size();
        let mut taboo = vec![0u32; n * n];
        for mv in &self.taboo {
            if let Some(mask) = taboo.get_mut(usize::from(mv.cell)) {
                *mask |= 1 << (mv.value - 1);
            }
        }
        for cell in (0..n * n).filter(|&cell| self.is_playable(player, cell)) {
            let mut mask = self.grid.candidates(cell) & !taboo[cell];
            while mask != 0 {
                let value = mask.trailing_zeros() as u8 + 1;
                mask &= mask - 1;
                moves.push(Move {
                    cell: cell as u16,
                    value,
                });
            }
        }
        moves
    }

    /// The legal moves of the player to move: those that place a value (keep the grid solvable)
    /// and those that would become taboo (passes). Solver questions stop at `deadline`: a move
    /// not settled by then (almost empty grids of 16x16 and larger) is listed as placing a value.
    pub fn legal_moves(&self, solver: &mut Solver, deadline: Instant) -> LegalMoves {
        let moves = self.rule_moves();
        let asked: Vec<(usize, u8)> = moves
            .iter()
            .map(|mv| (usize::from(mv.cell), mv.value))
            .collect();
        let verdicts = feasible::classify(solver, &self.grid, &asked, deadline, 1);
        let mut legal = LegalMoves::default();
        for (mv, verdict) in moves.into_iter().zip(verdicts) {
            match verdict {
                Some(false) => legal.passes.push(mv),
                Some(true) => legal.real.push(mv),
                None => {
                    legal.real.push(mv);
                    legal.unsettled += 1;
                }
            }
        }
        legal
    }
}

/// The legal moves of a position, split by what they do.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LegalMoves {
    /// Moves that place a value (the grid keeps a solution), unsettled ones included.
    pub real: Vec<Move>,
    /// Moves that would make the grid unsolvable and become taboo.
    pub passes: Vec<Move>,
    /// How many of `real` the solver did not settle in time.
    pub unsettled: usize,
}

/// `e5`-style name of a cell: column letter, row number with row 1 at the bottom.
pub fn square_name(cell: usize, n: usize) -> String {
    let (r, c) = (cell / n, cell % n);
    format!("{}{}", (b'a' + c as u8) as char, n - r)
}

/// The cell of an `e5`-style square.
pub fn parse_square(text: &str, n: usize) -> Result<usize, String> {
    let mut chars = text.chars();
    let col = chars
        .next()
        .filter(|c| c.is_ascii_lowercase())
        .map(|c| (c as u8 - b'a') as usize)
        .ok_or_else(|| format!("bad square '{text}': expected e.g. e5"))?;
    let row: usize = chars
        .as_str()
        .parse()
        .ok()
        .filter(|_| chars.as_str().bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("bad square '{text}': expected e.g. e5"))?;
    if col >= n || row == 0 || row > n {
        return Err(format!("square '{text}' is off the {n}x{n} board"));
    }
    Ok((n - row) * n + col)
}

/// `e5=7` notation of a move (values above 9 as letters: A = 10).
pub fn move_name(mv: Move, n: usize) -> String {
    format!(
        "{}={}",
        square_name(mv.cell as usize, n),
        value_char(mv.value)
    )
}

/// Parses `<square>=<value>`; the value is a digit or letter (`A` = 10) or a decimal number.
pub fn parse_move(text: &str, n: usize) -> Result<Move, String> {
    let (square, value) = text
        .split_once('=')
        .ok_or_else(|| format!("bad move '{text}': expected <square>=<value>, e.g. e5=7"))?;
    let cell = parse_square(square, n)?;
    let value = if value.len() > 1 && value.bytes().all(|b| b.is_ascii_digit()) {
        value.parse::<usize>().ok()
    } else {
        let mut chars = value.chars();
        match (chars.next(), chars.next()) {
            (Some(ch), None) => char_value(ch).map(usize::from),
            _ => None,
        }
    }
    .filter(|&v| v >= 1)
    .ok_or_else(|| format!("bad value in move '{text}'"))?;
    if value > n {
        return Err(format!("value {value} in move '{text}' is above {n}"));
    }
    Ok(Move {
        cell: cell as u16,
        value: value as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        assert_eq!(square_name(0, 9), "a9");
        assert_eq!(square_name(80, 9), "i1");
        assert_eq!(parse_square("e5", 9), Ok(4 * 9 + 4));
        let mv = parse_move("a1=G", 16).unwrap();
        assert_eq!((mv.cell, mv.value), (15 * 16, 16));
        assert_eq!(move_name(mv, 16), "a1=G");
        assert_eq!(parse_move("a1=16", 16).unwrap(), mv);
        assert!(parse_move("a1=0", 4).is_err());
        assert!(parse_move("a1=5", 4).is_err());
        assert!(parse_move("e1=1", 4).is_err());
        assert!(parse_move("a5=1", 4).is_err());
        assert!(parse_move("a1", 4).is_err());
    }

    #[test]
    fn scoring_counts_completed_regions() {
        let shape = Shape::new(2, 2).unwrap();
        let mut game = Game::new(shape, Mode::Classic, 0);
        game.grid = Grid::parse(shape, "12343412214.....").unwrap();
        // cell 11 completes row 2 only (column 3 and box 3 still have empty cells).
        assert_eq!(game.points_for(11), 1);
        let mut solver = Solver::new();
        let out = game.play(Move { cell: 11, value: 3 }, &mut solver);
        assert_eq!(out, Ok(Outcome::Placed(1)));
        assert_eq!(game.scores, [1, 0]);
        assert_eq!(game.turn, 1);
    }
}
