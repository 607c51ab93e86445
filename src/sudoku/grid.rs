//! The owned grid: cell values plus, per row, column and box, the mask of values already placed.
//!
//! A [`Grid`] is a fixed-size value (no heap): copying it or trying a move never allocates. It only
//! ever holds grids without repeated values, so "legal" below means "no clash with a placed value";
//! whether the grid can still be completed is the solver's question: [`Grid::is_solvable`] and
//! the other solving methods are implemented in [`super::solver`].
use std::fmt;

use super::shape::{MAX_CELLS, MAX_SIZE, Shape};

/// A sudoku grid of any supported [`Shape`]. Cells are numbered row-major (`row * N + col`),
/// values are `1..=N`, and 0 means empty.
#[derive(Clone)]
pub struct Grid {
    shape: Shape,
    filled: u16,
    values: [u8; MAX_CELLS],
    rows: [u32; MAX_SIZE],
    cols: [u32; MAX_SIZE],
    boxes: [u32; MAX_SIZE],
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The cell index or the value is out of range for the shape.
    OutOfRange,
    /// The cell already holds a value.
    Occupied,
    /// The value is already in the cell's row, column or box.
    Conflict,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OutOfRange => "cell or value out of range",
            MoveError::Occupied => "cell already filled",
            MoveError::Conflict => "value already in the row, column or box",
        })
    }
}

impl std::error::Error for MoveError {}

/// Why a text line or a value list is not a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// Wrong number of cells.
    Length { expected: usize, found: usize },
    /// A character that encodes no value (position counted from 1).
    BadChar { pos: usize, ch: char },
    /// A value above N (position counted from 1).
    ValueTooLarge {
        pos: usize,
        value: usize,
        max: usize,
    },
    /// A value repeated in a row, column or box (rows and columns counted from 1).
    Conflict {
        row: usize,
        col: usize,
        value: u8,
        unit: &'static str,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GridError::Length { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            GridError::BadChar { pos, ch } => write!(f, "bad character {ch:?} at position {pos}"),
            GridError::ValueTooLarge { pos, value, max } => {
                write!(f, "value {value} at position {pos} is above {max}")
            }
            GridError::Conflict {
                row,
                col,
                value,
                unit,
            } => write!(
                f,
                "contradictory clues: {} at row {row}, column {col} repeats in its {unit}",
                value_char(value)
            ),
        }
    }
}

impl std::error::Error for GridError {}

/// The character of a value: `.` for 0, `1`-`9`, then `A` = 10, `B` = 11, ... up to `P` = 25.
pub fn value_char(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a character (`.` and `0` are empty, letters in either case); `None` if it is not
/// a value character at all (letters stop at `P` = 25).
pub fn char_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

impl Grid {
    /// An empty grid.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            filled: 0,
            values: [0; MAX_CELLS],
            rows: [0; MAX_SIZE],
            cols: [0; MAX_SIZE],
            boxes: [0; MAX_SIZE],
        }
    }

    /// A complete grid from a solver's solution, without re-checking it (debug builds do): every
    /// row, column and box then holds every value.
    pub(crate) fn from_solution(shape: Shape, values: &[u8]) -> Grid {
        debug_assert!(
            Grid::from_values(shape, values).is_ok_and(|g| g.is_complete()),
            "not a solution"
        );
        let (n, full) = (shape.size(), shape.full_mask());
        let mut grid = Grid::empty(shape);
        grid.values[..values.len()].copy_from_slice(values);
        grid.filled = values.len() as u16;
        grid.rows[..n].fill(full);
        grid.cols[..n].fill(full);
        grid.boxes[..n].fill(full);
        grid
    }

    /// A grid from one value per cell (0 = empty), refusing repeated values.
    pub fn from_values(shape: Shape, values: &[u8]) -> Result<Grid, GridError> {
        let n = shape.size();
        if values.len() != shape.cells() {
            return Err(GridError::Length {
                expected: shape.cells(),
                found: values.len(),
            });
        }
        let mut grid = Grid::empty(shape);
        for (cell, &value) in values.iter().enumerate() {
            if value as usize > n {
                return Err(GridError::ValueTooLarge {
                    pos: cell + 1,
                    value: value as usize,
                    max: n,
                });
            }
            if value == 0 {
                continue;
            }
            let (row, col) = (cell / n, cell % n);
            let bit = 1 << (value - 1);
            let unit = if grid.rows[row] & bit != 0 {
                "row"
            } else if grid.cols[col] & bit != 0 {
                "column"
            } else if grid.boxes[shape.box_of(row, col)] & bit != 0 {
                "box"
            } else {
                grid.set(cell, value);
                continue;
            };
            return Err(GridError::Conflict {
                row: row + 1,
                col: col + 1,
                value,
                unit,
            });
        }
        Ok(grid)
    }

    /// Parses one line of N*N characters (`.` or `0` empty, `1`-`9`, `A` = 10, ...).
    pub fn parse(shape: Shape, line: &str) -> Result<Grid, GridError> {
        let mut values = [0u8; MAX_CELLS];
        let mut len = 0;
        for (i, ch) in line.chars().enumerate() {
            let value = char_value(ch).ok_or(GridError::BadChar { pos: i + 1, ch })?;
            if len < MAX_CELLS {
                values[len] = value;
            }
            len += 1;
        }
        if len != shape.cells() {
            return Err(GridError::Length {
                expected: shape.cells(),
                found: len,
            });
        }
        Grid::from_values(shape, &values[..len])
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Grid side N.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// All cell values, row-major, 0 for empty.
    pub fn values(&self) -> &[u8] {
        &self.values[..self.shape.cells()]
    }

    /// The value of `cell` (0 if empty). Panics if `cell` is out of range.
    pub fn get(&self, cell: usize) -> u8 {
        self.values()[cell]
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.filled as usize
    }

    /// True when every cell holds a value (the grid is then a valid solution).
    pub fn is_complete(&self) -> bool {
        self.filled() == self.shape.cells()
    }

    /// Values (bit `v - 1` for value `v`) that `cell` could take without clashing with a placed
    /// value; 0 for a filled cell.
    pub fn candidates(&self, cell: usize) -> u32 {
        let n = self.size();
        if self.values[cell] != 0 {
            return 0;
        }
        let (row, col) = (cell / n, cell % n);
        let used = self.rows[row] | self.cols[col] | self.boxes[self.shape.box_of(row, col)];
        self.shape.full_mask() & !used
    }

    /// Checks that `value` may be written in `cell` by the rules (not whether the grid stays
    /// solvable).
    pub fn check_move(&self, cell: usize, value: u8) -> Result<(), MoveError> {
        if cell >= self.shape.cells() || value == 0 || value as usize > self.size() {
            Err(MoveError::OutOfRange)
        } else if self.values[cell] != 0 {
            Err(MoveError::Occupied)
        } else if self.candidates(cell) & (1 << (value - 1)) == 0 {
            Err(MoveError::Conflict)
        } else {
            Ok(())
        }
    }

    /// Writes `value` in `cell` if the rules allow it.
    pub fn place(&mut self, cell: usize, value: u8) -> Result<(), MoveError> {
        self.check_move(cell, value)?;
        self.set(cell, value);
        Ok(())
    }

    /// A copy of the grid with `value` written in `cell`.
    pub fn with_move(&self, cell: usize, value: u8) -> Result<Grid, MoveError> {
        let mut next = self.clone();
        next.place(cell, value)?;
        Ok(next)
    }

    /// Empties `cell`; returns the value it held (0 if it was empty).
    pub fn clear(&mut self, cell: usize) -> u8 {
        let value = self.values[cell];
        if value != 0 {
            let n = self.size();
            let (row, col) = (cell / n, cell % n);
            let bit = 1 << (value - 1);
            self.rows[row] &= !bit;
            self.cols[col] &= !bit;
            self.boxes[self.shape.box_of(row, col)] &= !bit;
            self.values[cell] = 0;
            self.filled -= 1;
        }
        value
    }

    fn set(&mut self, cell: usize, value: u8) {
        let n = self.size();
        let (row, col) = (cell / n, cell % n);
        let bit = 1 << (value - 1);
        self.rows[row] |= bit;
        self.cols[col] |= bit;
        self.boxes[self.shape.box_of(row, col)] |= bit;
        self.values[cell] = value;
        self.filled += 1;
    }

    /// A multi-line drawing with box separators: values separated by spaces, `|` between boxes,
    /// a line of dashes between bands of boxes, `.` for empty cells.
    pub fn pretty(&self) -> String {
        let n = self.size();
        let (m, bc) = (self.shape.box_rows(), self.shape.box_cols());
        let mut lines: Vec<String> = Vec::with_capacity(n + m);
        for row in 0..n {
            if row > 0 && row % m == 0 {
                let width = lines.last().map_or(0, |l| l.chars().count());
                lines.push("-".repeat(width));
            }
            let mut line = String::new();
            for col in 0..n {
                if col > 0 && col % bc == 0 {
                    line.push_str("| ");
                }
                line.push(value_char(self.values[row * n + col]));
                line.push(' ');
            }
            lines.push(line.trim_end().to_string());
        }
        lines.join("\n")
    }
}

impl fmt::Display for Grid {
    /// The one-line form: N*N characters, `.` for empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.values()
            .iter()
            .try_for_each(|&v| write!(f, "{}", value_char(v)))
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, {self})", self.shape)
    }
}

impl PartialEq for Grid {
    fn eq(&self, other: &Grid) -> bool {
        self.shape == other.shape && self.values() == other.values()
    }
}

impl Eq for Grid {}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_GRID: &str =
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678";

    #[test]
    fn from_solution_matches_from_values() {
        let checked = Grid::parse(Shape::CLASSIC, SEED_GRID).unwrap();
        let fast = Grid::from_solution(Shape::CLASSIC, checked.values());
        assert_eq!(fast, checked);
        assert_eq!(fast.filled(), 81);
        assert_eq!(
            (fast.rows, fast.cols, fast.boxes),
            (checked.rows, checked.cols, checked.boxes)
        );
    }

    #[test]
    fn parses_and_prints_round_trip() {
        let g = Grid::parse(Shape::CLASSIC, SEED_GRID).unwrap();
        assert!(g.is_complete());
        assert_eq!(g.to_string(), SEED_GRID);
        let p = Grid::parse(Shape::new(2, 2).unwrap(), "1.3.0000........").unwrap();
        assert_eq!(p.to_string(), "1.3.............");
        assert_eq!(p.filled(), 2);
    }

    #[test]
    fn letters_encode_values_above_nine() {
        assert_eq!(char_value('A'), Some(10));
        assert_eq!(char_value('p'), Some(25));
        assert_eq!(value_char(16), 'G');
        let shape = Shape::new(4, 4).unwrap();
        let mut line = String::from("G");
        line.push_str(&".".repeat(255));
        assert_eq!(Grid::parse(shape, &line).unwrap().get(0), 16);
        line.replace_range(0..1, "H");
        assert!(matches!(
            Grid::parse(shape, &line),
            Err(GridError::ValueTooLarge {
                pos: 1,
                value: 17,
                max: 16
            })
        ));
    }

    #[test]
    fn reports_bad_input() {
        let s = Shape::CLASSIC;
        assert!(matches!(
            Grid::parse(s, "123"),
            Err(GridError::Length {
                expected: 81,
                found: 3
            })
        ));
        let bad = format!("12x{}", ".".repeat(78));
        assert!(matches!(
            Grid::parse(s, &bad),
            Err(GridError::BadChar { pos: 3, ch: 'x' })
        ));
        let clash = format!("5{}5{}", ".".repeat(9), ".".repeat(70));
        let err = Grid::parse(s, &clash).unwrap_err();
        assert!(matches!(
            err,
            GridError::Conflict {
                row: 2,
                col: 2,
                value: 5,
                unit: "box"
            }
        ));
        assert!(err.to_string().contains("contradictory"));
    }

    #[test]
    fn moves_follow_the_rules() {
        let mut g = Grid::empty(Shape::new(2, 3).unwrap());
        assert_eq!(g.place(0, 4), Ok(()));
        assert_eq!(g.place(0, 5), Err(MoveError::Occupied));
        assert_eq!(g.place(5, 4), Err(MoveError::Conflict));
        assert_eq!(g.place(7, 4), Err(MoveError::Conflict)); // same 2x3 box
        assert_eq!(g.place(9, 4), Ok(())); // row 1, column 3: another box
        assert_eq!(g.place(1, 7), Err(MoveError::OutOfRange));
        assert_eq!(g.candidates(1), 0b110111);
        assert_eq!(g.clear(0), 4);
        assert_eq!(g.filled(), 1);
        assert_eq!(g.with_move(0, 4).unwrap().get(0), 4);
    }

    #[test]
    fn pretty_prints_with_box_separators() {
        let g = Grid::parse(Shape::CLASSIC, SEED_GRID).unwrap();
        let text = g.pretty();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "1 2 3 | 4 5 6 | 7 8 9");
        assert_eq!(lines[3], "-".repeat(21));
        assert_eq!(lines.len(), 11);
    }
}
