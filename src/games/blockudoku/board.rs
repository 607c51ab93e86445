//! The 9x9 board as an 81-bit set in a `u128`, its 27 regions, and its notation.
//!
//! Bit `row * 9 + col` is the cell in `row` (0 = top) and `col` (0 = left). In notation that cell
//! is the square `<a..i><9..1>`: `a9` is the top-left corner, `a1` the bottom-left.

/// Side of the board.
pub const SIZE: usize = 9;
/// Number of cells.
pub const CELLS: usize = SIZE * SIZE;
/// Every cell of the board.
pub const FULL: u128 = (1u128 << CELLS) - 1;

/// The 27 regions: 9 rows, 9 columns, 9 boxes of 3x3.
pub const REGIONS: [u128; 27] = regions();

const fn regions() -> [u128; 27] {
    let mut out = [0u128; 27];
    let mut i = 0;
    while i < SIZE {
        let mut j = 0;
        while j < SIZE {
            out[i] |= 1u128 << (i * SIZE + j); // row i
            out[SIZE + i] |= 1u128 << (j * SIZE + i); // column i
            let (r, c) = ((i / 3) * 3 + j / 3, (i % 3) * 3 + j % 3);
            out[2 * SIZE + i] |= 1u128 << (r * SIZE + c); // box i
            j += 1;
        }
        i += 1;
    }
    out
}

/// The cells of a column, for masking shifts.
pub const fn column(col: usize) -> u128 {
    REGIONS[SIZE + col]
}

/// The cells of a row.
pub const fn row(r: usize) -> u128 {
    REGIONS[r]
}

/// The first cell of each box.
const BOX_CORNERS: u128 =
    1 | 1 << 3 | 1 << 6 | 1 << 27 | 1 << 30 | 1 << 33 | 1 << 54 | 1 << 57 | 1 << 60;
/// The cells of row 0, column 0 and box 0.
const ROW0: u128 = row(0);
const COL0: u128 = column(0);
const BOX0: u128 = REGIONS[2 * SIZE];

/// The full regions of `filled`, each marked by its first cell: (rows, columns, boxes).
/// Bit-parallel: runs of 9 along rows and columns and 3x3 blocks are found with a few shifts
/// and ands.
#[inline(always)]
pub fn full_region_starts(filled: u128) -> (u128, u128, u128) {
    let f = filled;
    let a = f & (f >> 1);
    let b = a & (a >> 2);
    let rows = b & (b >> 4) & (f >> 8) & COL0;
    let a = f & (f >> SIZE);
    let b = a & (a >> (2 * SIZE));
    let cols = b & (b >> (4 * SIZE)) & (f >> (8 * SIZE)) & ROW0;
    let t = f & (f >> 1) & (f >> 2);
    let boxes = t & (t >> SIZE) & (t >> (2 * SIZE)) & BOX_CORNERS;
    (rows, cols, boxes)
}

/// The regions of each kind: rows, columns, boxes, each on its first cell (0).
pub const REGION_SHAPES: [u128; 3] = [ROW0, COL0, BOX0];

/// The cells of every full region of `filled`, and how many regions are full.
#[inline]
pub fn full_regions(filled: u128) -> (u128, u32) {
    let (rows, cols, boxes) = full_region_starts(filled);
    if rows | cols | boxes == 0 {
        return (0, 0);
    }
    let mut cleared = 0u128;
    let mut set = rows;
    while set != 0 {
        cleared |= ROW0 << set.trailing_zeros();
        set &= set - 1;
    }
    let mut set = cols;
    while set != 0 {
        cleared |= COL0 << set.trailing_zeros();
        set &= set - 1;
    }
    let mut set = boxes;
    while set != 0 {
        cleared |= BOX0 << set.trailing_zeros();
        set &= set - 1;
    }
    (
        cleared,
        rows.count_ones() + cols.count_ones() + boxes.count_ones(),
    )
}

/// A board: which cells are filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Board(pub u128);

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// A board with `marks` cells drawn at random (repeats count once): for tests.
    #[cfg(test)]
    pub fn random(rng: &mut impl rand::Rng, marks: usize) -> Board {
        use rand::RngExt;
        Board((0..marks).fold(0, |bits, _| bits | 1u128 << rng.random_range(0..CELLS)))
    }

    /// Filled cells.
    pub fn filled(self) -> u32 {
        self.0.count_ones()
    }

    /// Empty cells as a mask.
    pub fn empty_cells(self) -> u128 {
        !self.0 & FULL
    }

    /// Fills `mask` (which must be empty), then clears every region that is full; regions are
    /// found first and cleared together. Returns the new board and the number of regions cleared.
    #[inline]
    pub fn place(self, mask: u128) -> (Board, u32) {
        debug_assert_eq!(self.0 & mask, 0, "placement overlaps");
        let filled = self.0 | mask;
        let (cleared, count) = full_regions(filled);
        (Board(filled & !cleared), count)
    }

    /// Parses 9 rows from the top, separated by `/`, `.` empty and `#` filled.
    pub fn parse(text: &str) -> Result<Board, String> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != SIZE {
            return Err(format!(
                "a board has 9 rows separated by '/', got {}",
                rows.len()
            ));
        }
        let mut bits = 0u128;
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != SIZE {
                return Err(format!("board row {} needs 9 cells, got '{row}'", r + 1));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '#' => bits |= 1u128 << (r * SIZE + c),
                    '.' => {}
                    _ => return Err(format!("board cell '{ch}' is neither '.' nor '#'")),
                }
            }
        }
        Ok(Board(bits))
    }

    /// The rows from the top, as lines of `.` and `#`.
    pub fn rows(self) -> Vec<String> {
        (0..SIZE)
            .map(|r| {
                (0..SIZE)
                    .map(|c| {
                        if self.0 >> (r * SIZE + c) & 1 == 1 {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl std::fmt::Display for Board {
    /// The board in protocol notation (rows joined by `/`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.rows().join("/"))
    }
}

/// The square name of a cell index (`0` -> `a9`).
pub fn square_name(cell: usize) -> String {
    let (r, c) = (cell / SIZE, cell % SIZE);
    format!("{}{}", (b'a' + c as u8) as char, SIZE - r)
}

/// The cell index of a square name (`a9` -> `0`).
pub fn parse_square(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let col = chars.next()?;
    let rank: usize = chars.as_str().parse().ok()?;
    if !('a'..='i').contains(&col) || !(1..=SIZE).contains(&rank) || chars.as_str().starts_with('+')
    {
        return None;
    }
    Some((SIZE - rank) * SIZE + (col as usize - 'a' as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_cover_each_cell_three_times() {
        for cell in 0..CELLS {
            let n = REGIONS.iter().filter(|r| *r >> cell & 1 == 1).count();
            assert_eq!(n, 3);
        }
        assert!(REGIONS.iter().all(|r| r.count_ones() == 9));
    }

    #[test]
    fn squares_round_trip() {
        assert_eq!(square_name(0), "a9");
        assert_eq!(square_name(80), "i1");
        assert_eq!(parse_square("a1"), Some(72));
        for cell in 0..CELLS {
            assert_eq!(parse_square(&square_name(cell)), Some(cell));
        }
        for bad in ["j1", "a0", "a10", "", "a", "1a", "a+1"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_row_and_a_box_clear_together_and_count_twice() {
        // Row 0 full but for cell 2; box 0 full but for cell 2.
        let mut text = vec!["##.######", "###......", "###......"];
        text.extend(["........."; 6]);
        let board = Board::parse(&text.join("/")).unwrap();
        let (after, cleared) = board.place(1 << 2);
        assert_eq!(cleared, 2);
        assert_eq!(after, Board::EMPTY);
    }

    #[test]
    fn full_regions_match_the_region_list() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..20_000 {
            // Dense random boards, plus some regions forced full.
            let mut f = (u128::from(next()) << 64 | u128::from(next()))
                | (u128::from(next()) << 64 | u128::from(next()));
            f |= REGIONS[i % 27] | REGIONS[(i * 7) % 27];
            f &= FULL;
            let mut cleared = 0;
            let mut count = 0;
            for region in REGIONS {
                if f & region == region {
                    cleared |= region;
                    count += 1;
                }
            }
            assert_eq!(full_regions(f), (cleared, count));
        }
        assert_eq!(full_regions(FULL), (FULL, 27));
        assert_eq!(full_regions(0), (0, 0));
    }

    #[test]
    fn parse_rejects_bad_boards() {
        assert!(Board::parse("........./........").is_err());
        assert!(Board::parse(&["........x"; 9].join("/")).is_err());
        assert!(Board::parse(&["........"; 9].join("/")).is_err());
        let full = Board::parse(&["#########"; 9].join("/")).unwrap();
        assert_eq!(full.0, FULL);
        assert_eq!(full.to_string(), ["#########"; 9].join("/"));
    }
}
