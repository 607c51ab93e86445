//! The candidate board the human techniques read: values, and per empty cell the digits still
//! possible, with the unit and cell geometry of any box shape.
use crate::sudoku::shape::Tables;
use crate::sudoku::{Grid, Shape, value_char};

/// Values and pencil marks of a grid being solved by hand. Units are numbered as in the shape
/// tables: rows `0..N`, columns `N..2N`, boxes `2N..3N`.
#[derive(Clone)]
pub struct Board {
    shape: Shape,
    tables: &'static Tables,
    values: Vec<u8>,
    cands: Vec<u32>,
}

impl Board {
    /// The board of `grid` with every candidate its placed values allow.
    pub fn new(grid: &Grid) -> Board {
        let shape = grid.shape();
        let cells = shape.cells();
        Board {
            shape,
            tables: shape.tables(),
            values: grid.values().to_vec(),
            cands: (0..cells).map(|c| grid.candidates(c)).collect(),
        }
    }

    /// The board of `grid` with the given candidate masks (bit `d - 1` for digit `d`) in its
    /// empty cells.
    pub fn with_candidates(grid: &Grid, cands: &[u32]) -> Board {
        let mut board = Board::new(grid);
        for (cell, &mask) in cands.iter().enumerate() {
            if board.values[cell] == 0 {
                board.cands[cell] &= mask;
            }
        }
        board
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Grid side N (also the number of digits and of cells per unit).
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.values.len()
    }

    /// Number of units (3N).
    pub fn units(&self) -> usize {
        3 * self.size()
    }

    /// The value of `cell`, 0 if empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidate mask of `cell` (0 once filled).
    pub fn cands(&self, cell: usize) -> u32 {
        self.cands[cell]
    }

    /// True if `digit` is a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.cands[cell] & bit(digit) != 0
    }

    /// The values as a grid (the placed values only).
    pub fn grid(&self) -> Grid {
        Grid::from_values(self.shape, &self.values).expect("placements keep the grid valid")
    }

    /// True when every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The cells of `unit`.
    pub fn unit(&self, unit: usize) -> &'static [u16] {
        let n = self.size();
        &self.tables.units[unit * n..(unit + 1) * n]
    }

    /// The row (0-based) of `cell`.
    pub fn row(&self, cell: usize) -> usize {
        cell / self.size()
    }

    /// The column (0-based) of `cell`.
    pub fn col(&self, cell: usize) -> usize {
        cell % self.size()
    }

    /// The box (0-based) of `cell`.
    pub fn box_of(&self, cell: usize) -> usize {
        self.shape.box_of(self.row(cell), self.col(cell))
    }

    /// The row, column and box units of `cell`.
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        let n = self.size();
        [
            self.row(cell),
            n + self.col(cell),
            2 * n + self.box_of(cell),
        ]
    }

    /// True if two different cells share a row, column or box.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b
            && (self.row(a) == self.row(b)
                || self.col(a) == self.col(b)
                || self.box_of(a) == self.box_of(b))
    }

    /// The other cells of the units of `cell`.
    pub fn peers(&self, cell: usize) -> &'static [u16] {
        self.tables.peers_of(cell)
    }

    /// The empty cells of `unit` where `digit` is a candidate.
    pub fn places(&self, unit: usize, digit: u8) -> impl Iterator<Item = usize> + '_ {
        self.unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(move |&c| self.has(c, digit))
    }

    /// Where `digit` can go in `unit`: bit `i` for the unit's `i`-th cell.
    pub fn place_mask(&self, unit: usize, digit: u8) -> u32 {
        let b = bit(digit);
        self.unit(unit)
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.cands[c as usize] & b != 0)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// Writes `digit` in `cell` and removes it from the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.cands[cell] = 0;
        for &p in self.tables.peers_of(cell) {
            self.cands[p as usize] &= !bit(digit);
        }
    }

    /// Removes `digit` from the candidates of `cell`.
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        self.cands[cell] &= !bit(digit);
    }

    /// `r3c4`: the cell's row and column counted from 1.
    pub fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", self.row(cell) + 1, self.col(cell) + 1)
    }

    /// `row 3`, `column 4` or `box 2`, counted from 1.
    pub fn unit_name(&self, unit: usize) -> String {
        let n = self.size();
        match unit / n {
            0 => format!("row {}", unit + 1),
            1 => format!("column {}", unit - n + 1),
            _ => format!("box {}", unit - 2 * n + 1),
        }
    }
}

/// The mask bit of `digit`.
pub fn bit(digit: u8) -> u32 {
    1 << (digit - 1)
}

/// The digits of a mask, smallest first.
pub fn digits(mask: u32) -> impl Iterator<Item = u8> {
    (0..32u8).filter(move |i| mask >> i & 1 != 0).map(|i| i + 1)
}

/// The digits of a mask written together, e.g. `37`.
pub fn digit_list(mask: u32) -> String {
    digits(mask).map(value_char).collect()
}

/// A 9x9 board with no digit placed, every candidate open but for the masks given to some cells
/// (the technique tests' positions).
#[cfg(test)]
pub fn board_with(cands: &[(usize, u32)]) -> Board {
    let mut masks = vec![0x1ff; 81];
    for &(cell, mask) in cands {
        masks[cell] = mask;
    }
    Board::with_candidates(&Grid::empty(Shape::CLASSIC), &masks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_removes_the_digit_from_peers() {
        let shape = Shape::new(2, 3).unwrap();
        let mut board = Board::new(&Grid::empty(shape));
        board.place(0, 4);
        assert!(!board.has(5, 4) && !board.has(7, 4) && board.has(9, 4));
        assert_eq!(board.cell_name(9), "r2c4");
        assert_eq!(board.unit_name(14), "box 3");
        assert_eq!(board.place_mask(1, 4), 0b111000);
        assert!(board.sees(0, 7) && !board.sees(0, 9));
        assert_eq!(digit_list(0b101), "13");
    }
}
