//! N-tuple tables: rectangles of cells whose pattern of filled cells indexes a table of values,
//! summed over the tuples. The learned part of the evaluation (see [`super::eval_file`]): a
//! board costs one table look-up per tuple, its index gathered with a shift and a mask per row
//! of the rectangle.
//!
//! Bit `i * width + j` of a tuple's index is the cell `(row + i, col + j)`, the order the
//! trainer (`tools/blockudoku_train/tuples.py`) writes its tables in.

use super::board::{Board, CELLS, SIZE};

/// The most cells a tuple may cover (its table has 2^cells entries).
pub const MAX_TUPLE_CELLS: usize = 12;
/// The most tuples an evaluation may have.
pub const MAX_TUPLES: usize = 64;
/// The largest magnitude of a table entry: shifted to a largest entry of 0, a table fits 16
/// bits (half the cache of 32-bit entries: the search looks them up on every final board).
pub const MAX_ENTRY: i32 = 16_000;

/// The first column's cells.
const COLUMN: u128 = {
    let mut cells = 0u128;
    let mut r = 0;
    while r < SIZE {
        cells |= 1 << (r * SIZE);
        r += 1;
    }
    cells
};
/// The multiplier that gathers a column's cells into bits 64-72: the sum of 2^(64 - 8i).
const GATHER: u128 = 0x1_0101_0101_0101_0101;

/// One tuple: where its rectangle lies and where its table starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tuple {
    /// The rectangle's first cell (`row * SIZE + col`).
    first: u8,
    height: u8,
    width: u8,
    /// Where its table starts in [`Tuples::values`].
    offset: u32,
}

/// A board's place in each table (see [`Tuples::frame`]).
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    /// Each tuple's index for the board.
    index: [u16; MAX_TUPLES],
    /// The board's summed values.
    sum: i32,
}

impl Frame {
    /// The frame of the empty board of no tuples (a placeholder).
    pub const NONE: Frame = Frame {
        index: [0; MAX_TUPLES],
        sum: 0,
    };

    /// The board's summed table values ([`Tuples::value`]).
    pub fn sum(&self) -> i32 {
        self.sum
    }
}

/// A tuple touched by the cells of a placement, and the bits they set in its index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Touch {
    /// Where the tuple's table starts in [`Tuples::values`].
    offset: u32,
    tuple: u8,
    bits: u16,
}

/// The tuples each placement of one piece touches (see [`Tuples::touches`]), by anchor.
#[derive(Debug, Clone)]
pub struct PieceTouches {
    /// Anchor `a`'s touches are `touches[starts[a]..starts[a + 1]]`.
    starts: [u16; CELLS + 1],
    touches: Vec<Touch>,
}

impl PieceTouches {
    /// The touches of the cells `at(anchor)` for each anchor of `anchors` (others touch
    /// nothing).
    pub fn new(tuples: &Tuples, anchors: u128, at: impl Fn(usize) -> u128) -> Self {
        let mut starts = [0u16; CELLS + 1];
        let mut touches = Vec::new();
        for anchor in 0..CELLS {
            if anchors >> anchor & 1 == 1 {
                touches.extend(tuples.touches(at(anchor)));
            }
            starts[anchor + 1] = touches.len() as u16;
        }
        PieceTouches { starts, touches }
    }

    /// The touches of the placement at `anchor`.
    #[inline(always)]
    pub fn at(&self, anchor: usize) -> &[Touch] {
        &self.touches[usize::from(self.starts[anchor])..usize::from(self.starts[anchor + 1])]
    }
}

/// A set of tuples and their tables. Every table's largest entry is 0, so the sum only
/// subtracts: a value computed without it is an upper bound (the search's cut-offs stay exact).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tuples {
    tuples: Vec<Tuple>,
    values: Vec<i16>,
}

impl Tuples {
    /// No tuples (a value of 0 for every board).
    pub fn none() -> Self {
        Tuples {
            tuples: Vec::new(),
            values: Vec::new(),
        }
    }

    /// True if there are no tuples.
    pub fn is_empty(&self) -> bool {
        self.tuples.is_empty()
    }

    /// How many tuples there are.
    pub fn len(&self) -> usize {
        self.tuples.len()
    }

    /// Adds the tuple of the rectangle at (`row`, `col`), `height` x `width`, with its table
    /// (2^(height * width) entries, bit `i * width + j` of an index being the cell
    /// `(row + i, col + j)`). The table is shifted so that its largest entry is 0 (every board
    /// looks it up once, so no ranking of boards changes).
    pub fn push(
        &mut self,
        (row, col, height, width): (usize, usize, usize, usize),
        table: &[i32],
    ) -> Result<(), String> {
        if self.tuples.len() >= MAX_TUPLES {
            return Err(format!("more than {MAX_TUPLES} tuples"));
        }
        if height == 0 || width == 0 || row + height > SIZE || col + width > SIZE {
            return Err(format!(
                "tuple {row} {col} {height} {width} does not fit the 9x9 board"
            ));
        }
        let cells = height * width;
        if cells > MAX_TUPLE_CELLS {
            return Err(format!(
                "tuple {row} {col} {height} {width} has more than {MAX_TUPLE_CELLS} cells"
            ));
        }
        if table.len() != 1 << cells {
            return Err(format!(
                "tuple {row} {col} {height} {width} needs {} values, got {}",
                1 << cells,
                table.len()
            ));
        }
        if let Some(v) = table.iter().find(|v| v.abs() > MAX_ENTRY) {
            return Err(format!("tuple value {v} is beyond +-{MAX_ENTRY}"));
        }
        let top = table.iter().copied().max().unwrap_or(0);
        self.tuples.push(Tuple {
            first: (row * SIZE + col) as u8,
            height: height as u8,
            width: width as u8,
            offset: self.values.len() as u32,
        });
        self.values.extend(table.iter().map(|v| (v - top) as i16));
        Ok(())
    }

    /// The index of `tuple` on `board`.
    #[inline(always)]
    fn index(tuple: &Tuple, board: Board) -> usize {
        if tuple.width == 1 {
            // A column: its cells, 9 bits apart, are gathered by one multiplication (cell `i`,
            // at bit 9i, times 2^(64 - 8i) lands on bit 64 + i; no other product reaches bits
            // 64-72 and no two products share a bit, so nothing carries).
            let cells = (board.0 >> tuple.first) & COLUMN;
            let gathered = cells.wrapping_mul(GATHER) >> 64;
            return gathered as usize & ((1 << tuple.height) - 1);
        }
        let mask = (1u128 << tuple.width) - 1;
        let mut index = 0usize;
        let mut from = board.0 >> tuple.first;
        for i in 0..usize::from(tuple.height) {
            index |= ((from & mask) as usize) << (i * usize::from(tuple.width));
            from >>= SIZE;
        }
        index
    }

    /// The summed table values of `board` (0 or below).
    #[inline]
    pub fn value(&self, board: Board) -> i32 {
        self.tuples
            .iter()
            .map(|t| i32::from(self.values[t.offset as usize + Self::index(t, board)]))
            .sum()
    }

    /// Where `board` stands in each table: the parent's part of an incremental value (see
    /// [`Tuples::value_after`]).
    #[inline]
    pub fn frame(&self, board: Board) -> Frame {
        let mut frame = Frame::NONE;
        for (index, t) in frame.index.iter_mut().zip(&self.tuples) {
            *index = Self::index(t, board) as u16;
            frame.sum += i32::from(self.values[t.offset as usize + usize::from(*index)]);
        }
        frame
    }

    /// The summed table values of the board of `frame` with the cells of `touches` filled
    /// (cells that were empty: each touched table's index gains their bits). Equal to
    /// [`Tuples::value`] of that board at a look-up per touched tuple instead of one per tuple.
    #[inline(always)]
    pub fn value_after(&self, frame: &Frame, touches: &[Touch]) -> i32 {
        touches.iter().fold(frame.sum, |sum, touch| {
            let at = touch.offset as usize + usize::from(frame.index[usize::from(touch.tuple)]);
            sum + i32::from(self.values[at + usize::from(touch.bits)]) - i32::from(self.values[at])
        })
    }

    /// Moves `frame` to its board with the cells of `touches` filled (see
    /// [`Tuples::value_after`]).
    #[inline(always)]
    pub fn advance(&self, frame: &mut Frame, touches: &[Touch]) {
        for touch in touches {
            let index = &mut frame.index[usize::from(touch.tuple)];
            let at = touch.offset as usize + usize::from(*index);
            frame.sum +=
                i32::from(self.values[at + usize::from(touch.bits)]) - i32::from(self.values[at]);
            *index += touch.bits;
        }
    }

    /// The tuples that the cells of `mask` touch, with the bits those cells set in each one's
    /// index.
    pub fn touches(&self, mask: u128) -> impl Iterator<Item = Touch> + '_ {
        self.tuples.iter().enumerate().filter_map(move |(k, t)| {
            let bits = Self::index(t, Board(mask));
            (bits != 0).then_some(Touch {
                offset: t.offset,
                tuple: k as u8,
                bits: bits as u16,
            })
        })
    }

    /// The tuples as `tuple ROW COL HEIGHT WIDTH values` lines (the evaluation file's).
    pub fn lines(&self) -> Vec<String> {
        self.tuples
            .iter()
            .map(|t| {
                let size = 1usize << (usize::from(t.height) * usize::from(t.width));
                let start = t.offset as usize;
                let values: Vec<String> = self.values[start..start + size]
                    .iter()
                    .map(i16::to_string)
                    .collect();
                format!(
                    "tuple {} {} {} {} {}",
                    usize::from(t.first) / SIZE,
                    usize::from(t.first) % SIZE,
                    t.height,
                    t.width,
                    values.join(",")
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::parse(&rows.join("/")).unwrap()
    }

    #[test]
    fn indexes_follow_the_rectangles_rows_then_columns() {
        let b = board(&[
            "#........",
            ".#.......",
            "#.#......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "#########",
        ]);
        let mut box_table: Vec<i32> = (0..512).map(|i| -i).collect();
        // Cells (0,0), (1,1), (2,0), (2,2): bits 0, 4, 6, 8.
        let box_index = 1 | 1 << 4 | 1 << 6 | 1 << 8;
        box_table[0] = 7; // the largest: shifted to 0
        let mut tuples = Tuples::none();
        tuples.push((0, 0, 3, 3), &box_table).unwrap();
        assert_eq!(tuples.value(b), -box_index - 7);
        // The first column: cells (0,0), (2,0), (8,0): bits 0, 2, 8.
        let column: Vec<i32> = (0..512).map(|i| -2 * i).collect();
        tuples.push((0, 0, 9, 1), &column).unwrap();
        assert_eq!(tuples.value(b), -box_index - 7 - 2 * (1 | 1 << 2 | 1 << 8));
        // The last row, full.
        let row: Vec<i32> = (0..512).map(|i| if i == 511 { -1000 } else { 0 }).collect();
        tuples.push((8, 0, 1, 9), &row).unwrap();
        assert_eq!(tuples.value(b), -box_index - 7 - 2 * 261 - 1000);
        assert_eq!(
            tuples.value(Board::EMPTY),
            0,
            "the empty box had the largest entry"
        );
    }

    #[test]
    fn every_rectangle_gathers_its_cells_in_order() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        for _ in 0..3000 {
            let (height, width) = match rng.random_range(0..3) {
                0 => (rng.random_range(1..=SIZE), 1),
                1 => (1, rng.random_range(1..=SIZE)),
                _ => (rng.random_range(1..=3), rng.random_range(1..=3)),
            };
            let row = rng.random_range(0..=SIZE - height);
            let col = rng.random_range(0..=SIZE - width);
            let marks = rng.random_range(0..81);
            let b = Board::random(&mut rng, marks);
            let mut expected = 0;
            for i in 0..height {
                for j in 0..width {
                    let cell = (row + i) * SIZE + col + j;
                    expected |= ((b.0 >> cell) as usize & 1) << (i * width + j);
                }
            }
            let tuple = Tuple {
                first: (row * SIZE + col) as u8,
                height: height as u8,
                width: width as u8,
                offset: 0,
            };
            assert_eq!(
                Tuples::index(&tuple, b),
                expected,
                "{row} {col} {height} {width} {b}"
            );
        }
    }

    #[test]
    fn incremental_values_equal_the_whole_sum() {
        use super::super::piece::{PieceSet, cells_of};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(31);
        let mut tuples = Tuples::none();
        for rect in [
            (0, 0, 3, 3),
            (3, 3, 3, 3),
            (6, 0, 1, 9),
            (0, 5, 9, 1),
            (2, 4, 3, 4),
        ] {
            let table: Vec<i32> = (0..1 << (rect.2 * rect.3))
                .map(|_| rng.random_range(-500..500))
                .collect();
            tuples.push(rect, &table).unwrap();
        }
        let set = PieceSet::builtin("standard47").unwrap();
        let mut checked = 0;
        for piece in &set.pieces {
            let touches = PieceTouches::new(&tuples, piece.anchors(), |a| piece.at(a));
            for _ in 0..20 {
                let marks = rng.random_range(0..60);
                let board = Board::random(&mut rng, marks);
                let frame = tuples.frame(board);
                assert_eq!(frame.sum(), tuples.value(board));
                for anchor in cells_of(piece.fits(board)) {
                    let after = Board(board.0 | piece.at(anchor));
                    let got = tuples.value_after(&frame, touches.at(anchor));
                    assert_eq!(got, tuples.value(after), "{board} {anchor}");
                    let mut next = frame;
                    tuples.advance(&mut next, touches.at(anchor));
                    assert_eq!(next.sum(), got);
                    assert_eq!(next.index, tuples.frame(after).index, "{board} {anchor}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked} placements");
    }

    #[test]
    fn bad_tuples_are_refused_and_change_nothing() {
        let mut tuples = Tuples::none();
        tuples.push((0, 0, 1, 2), &[0, -1, -2, -3]).unwrap();
        let before = tuples.clone();
        assert!(
            tuples.push((8, 0, 2, 2), &[0; 16]).is_err(),
            "off the board"
        );
        assert!(tuples.push((0, 0, 4, 4), &[0; 65536]).is_err(), "too big");
        assert!(tuples.push((0, 0, 1, 3), &[0; 7]).is_err(), "short table");
        assert!(tuples.push((0, 0, 1, 1), &[0, 16_001]).is_err(), "huge");
        assert_eq!(tuples, before);
        assert_eq!(tuples.lines(), vec!["tuple 0 0 1 2 0,-1,-2,-3"]);
        let mut widest = Tuples::none();
        widest.push((0, 0, 1, 1), &[-16_000, 16_000]).unwrap();
        assert_eq!(
            widest.value(Board::EMPTY),
            -32_000,
            "16 bits hold the shifted table"
        );
    }
}
