//! Box shapes (m x n boxes, N = m*n) and the per-shape lookup tables the solvers use.
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Largest supported grid side (5x5 boxes); values fit a `u32` candidate mask.
pub const MAX_SIZE: usize = 25;
/// Largest supported number of cells (25 x 25).
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// The shape of a box: `rows` x `cols` cells. The grid is N x N with N = rows * cols, and the box
/// of cell (r, c) starts at row `r / rows * rows`, column `c / cols * cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

/// Why a box shape was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// Not of the form `MxN` with positive integers.
    Syntax(String),
    /// N = m*n is 0 or above [`MAX_SIZE`].
    TooLarge(usize, usize),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::Syntax(s) => write!(f, "bad box shape '{s}': expected MxN, e.g. 3x3"),
            ShapeError::TooLarge(m, n) => {
                write!(
                    f,
                    "box shape {m}x{n} unsupported: need 1 <= m*n <= {MAX_SIZE}"
                )
            }
        }
    }
}

impl std::error::Error for ShapeError {}

impl Shape {
    /// The classic 9x9 grid.
    pub const CLASSIC: Shape = Shape { rows: 3, cols: 3 };

    /// Boxes of `rows` x `cols` cells; N = rows * cols must be in 1..=25.
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        if rows == 0 || cols == 0 || rows * cols > MAX_SIZE {
            return Err(ShapeError::TooLarge(rows, cols));
        }
        Ok(Shape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// The square-box shape whose grid has `cells` cells (16 -> 2x2, 81 -> 3x3, 256 -> 4x4,
    /// 625 -> 5x5); `None` for other lengths, where the shape is ambiguous or impossible.
    pub fn from_cell_count(cells: usize) -> Option<Shape> {
        (2..=5)
            .find(|k| k * k * k * k == cells)
            .map(|k| Shape::new(k, k).expect("square shapes up to 5x5 are valid"))
    }

    /// Rows per box (m).
    pub const fn box_rows(self) -> usize {
        self.rows as usize
    }

    /// Columns per box (n).
    pub const fn box_cols(self) -> usize {
        self.cols as usize
    }

    /// Grid side N = m * n (also the number of values).
    pub const fn size(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Number of cells, N * N.
    pub const fn cells(self) -> usize {
        self.size() * self.size()
    }

    /// Mask with one bit per value: bit `v - 1` stands for value `v`.
    pub const fn full_mask(self) -> u32 {
        (1u32 << self.size()) - 1
    }

    /// Index of the box holding (row, col), counting boxes row-major.
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        row / self.box_rows() * self.box_rows() + col / self.box_cols()
    }

    /// The lookup tables for this shape (built once per shape, then shared).
    pub(crate) fn tables(self) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; (MAX_SIZE + 1) * (MAX_SIZE + 1)] =
            [const { OnceLock::new() }; (MAX_SIZE + 1) * (MAX_SIZE + 1)];
        TABLES[self.box_rows() * (MAX_SIZE + 1) + self.box_cols()].get_or_init(|| Tables::new(self))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(s.to_string());
        let (m, n) = s.split_once(['x', 'X']).ok_or_else(syntax)?;
        let m: usize = m.trim().parse().map_err(|_| syntax())?;
        let n: usize = n.trim().parse().map_err(|_| syntax())?;
        Shape::new(m, n)
    }
}

/// Units (rows, columns, boxes) and peers of every cell of one shape.
pub(crate) struct Tables {
    /// Cells of each unit: rows `0..N`, columns `N..2N`, boxes `2N..3N`; N cells each.
    pub units: Vec<u16>,
    /// Peers of each cell (same row, column or box, not the cell), `peer_count` per cell.
    pub peers: Vec<u16>,
    /// Number of peers of every cell: 2(N-1) + (m-1)(n-1).
    pub peer_count: usize,
    /// Per cell, a bit for each of its three units (numbered as in `units`).
    pub cell_units: Vec<u128>,
}

impl Tables {
    fn new(shape: Shape) -> Tables {
        let n = shape.size();
        let mut units = Vec::with_capacity(3 * n * n);
        for r in 0..n {
            units.extend((0..n).map(|c| (r * n + c) as u16));
        }
        for c in 0..n {
            units.extend((0..n).map(|r| (r * n + c) as u16));
        }
        for b in 0..n {
            let r0 = b / shape.box_rows() * shape.box_rows();
            let c0 = b % shape.box_rows() * shape.box_cols();
            for i in 0..n {
                let (r, c) = (r0 + i / shape.box_cols(), c0 + i % shape.box_cols());
                units.push((r * n + c) as u16);
            }
        }
        let peer_count = 2 * (n - 1) + (shape.box_rows() - 1) * (shape.box_cols() - 1);
        let mut peers = Vec::with_capacity(n * n * peer_count);
        for cell in 0..n * n {
            let (r, c) = (cell / n, cell % n);
            let before = peers.len();
            for other in 0..n * n {
                let (r2, c2) = (other / n, other % n);
                let shares = r2 == r || c2 == c || shape.box_of(r2, c2) == shape.box_of(r, c);
                if other != cell && shares {
                    peers.push(other as u16);
                }
            }
            debug_assert_eq!(peers.len() - before, peer_count);
        }
        let cell_units = (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                1u128 << r | 1u128 << (n + c) | 1u128 << (2 * n + shape.box_of(r, c))
            })
            .collect();
        Tables {
            units,
            peers,
            peer_count,
            cell_units,
        }
    }

    /// The peers of `cell`.
    pub fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_shapes() {
        let s: Shape = "3x4".parse().unwrap();
        assert_eq!(
            (s.box_rows(), s.box_cols(), s.size(), s.cells()),
            (3, 4, 12, 144)
        );
        assert_eq!(s.to_string(), "3x4");
        assert!("3".parse::<Shape>().is_err());
        assert!("6x5".parse::<Shape>().is_err());
        assert!("0x5".parse::<Shape>().is_err());
    }

    #[test]
    fn default_shapes_from_length() {
        assert_eq!(Shape::from_cell_count(16), Some(Shape::new(2, 2).unwrap()));
        assert_eq!(Shape::from_cell_count(81), Some(Shape::CLASSIC));
        assert_eq!(Shape::from_cell_count(625), Some(Shape::new(5, 5).unwrap()));
        assert_eq!(Shape::from_cell_count(36), None);
        assert_eq!(Shape::from_cell_count(144), None);
    }

    #[test]
    fn boxes_follow_the_shape() {
        let s = Shape::new(2, 3).unwrap();
        // 6x6 grid: boxes 2 rows x 3 columns; box 1 starts at row 0, column 3.
        assert_eq!(s.box_of(0, 3), 1);
        assert_eq!(s.box_of(2, 0), 2);
        let t = s.tables();
        let box1: Vec<u16> = t.units[2 * 6 * 6 + 6..2 * 6 * 6 + 12].to_vec();
        assert_eq!(box1, vec![3, 4, 5, 9, 10, 11]);
        assert_eq!(t.peer_count, 10 + 2);
        assert!(t.peers_of(0).contains(&7) && !t.peers_of(0).contains(&(3 * 6 + 4)));
    }
}
