//! A learned part of the evaluation: one value for each pattern of filled cells of each row,
//! column and 3x3 box (an n-tuple network: 27 tuples of 9 cells), added to the weighted
//! features. Row `i` and column `i` share a table (the board's transpose is as good or bad as
//! the board); each box has its own. The values are in the evaluation's units.
//!
//! They are learned by `tessera td blockudoku` (temporal-difference learning of afterstate
//! values) and kept as text: a header line, then one line of 512 values per table.

use super::board::{Board, SIZE};

/// Tables: rows and columns by index (0-8), then the boxes row by row (9-17).
pub const TABLES: usize = 2 * SIZE;
/// Patterns of a tuple's 9 cells.
pub const PATTERNS: usize = 1 << SIZE;
/// Tuples looked up per board: 9 rows, 9 columns, 9 boxes.
pub const TUPLES: usize = 3 * SIZE;
/// The first line of a tuple file.
const HEADER: &str = "tessera blockudoku tuples v1";

/// Cells 0, 9, 18, ..., 72: the first column.
const COLUMN0: u128 = {
    let mut c = 0u128;
    let mut r = 0;
    while r < SIZE {
        c |= 1 << (r * SIZE);
        r += 1;
    }
    c
};
/// Multiplying the first column's cells by this gathers them into bits 64-72 (cell `9r` lands
/// on `64 + r`; every partial product lands on its own bit, so nothing carries into them).
const GATHER: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < SIZE {
        m |= 1 << (64 - 8 * r);
        r += 1;
    }
    m
};
const PATTERN_MASK: u128 = (PATTERNS - 1) as u128;

/// The table entry (table x 512 + pattern) of each tuple of `board`.
#[inline(always)]
pub fn entries(board: Board) -> [u16; TUPLES] {
    let b = board.0;
    let mut out = [0u16; TUPLES];
    for i in 0..SIZE {
        let base = (i * PATTERNS) as u16;
        out[i] = base | ((b >> (i * SIZE)) & PATTERN_MASK) as u16;
        let column = (b >> i) & COLUMN0;
        out[SIZE + i] = base | ((column.wrapping_mul(GATHER) >> 64) & PATTERN_MASK) as u16;
        let (r, c) = (i / 3, i % 3);
        let x = b >> (27 * r + 3 * c);
        let pattern = (x & 0o7) | ((x >> 6) & 0o70) | ((x >> 12) & 0o700);
        out[2 * SIZE + i] = ((SIZE + i) * PATTERNS) as u16 | pattern as u16;
    }
    out
}

/// The tuple values, in the evaluation's units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tuples {
    values: Vec<i32>,
}

impl Default for Tuples {
    /// All values 0 (the features alone).
    fn default() -> Self {
        Tuples {
            values: vec![0; TABLES * PATTERNS],
        }
    }
}

impl Tuples {
    /// The summed values of `board`'s tuples.
    #[inline(always)]
    pub fn value(&self, board: Board) -> i32 {
        entries(board)
            .iter()
            .map(|&e| self.values[usize::from(e)])
            .sum()
    }

    /// One entry (as numbered by [`entries`]).
    pub fn get(&self, entry: u16) -> i32 {
        self.values[usize::from(entry)]
    }

    /// Sets one entry (as numbered by [`entries`]).
    pub fn set(&mut self, entry: u16, value: i32) {
        self.values[usize::from(entry)] = value;
    }

    /// The most the tuples can add to any board.
    pub fn max_sum(&self) -> i32 {
        let best = |t: usize| self.values[t * PATTERNS..(t + 1) * PATTERNS].iter().max();
        // Tables 0-8 serve a row and a column each.
        (0..TABLES)
            .map(|t| best(t).copied().unwrap_or(0).max(0) * if t < SIZE { 2 } else { 1 })
            .sum()
    }

    /// Parses a tuple file.
    pub fn parse(text: &str) -> Result<Tuples, String> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(HEADER) {
            return Err(format!("a tuple file starts with '{HEADER}'"));
        }
        let values = lines
            .flat_map(str::split_whitespace)
            .map(|v| {
                v.parse::<i32>()
                    .map_err(|e| format!("bad value '{v}': {e}"))
            })
            .collect::<Result<Vec<i32>, String>>()?;
        if values.len() != TABLES * PATTERNS {
            return Err(format!(
                "a tuple file holds {} values, not {}",
                TABLES * PATTERNS,
                values.len()
            ));
        }
        if values.iter().any(|v| v.abs() > 1 << 20) {
            return Err("tuple values must lie within +-2^20".into());
        }
        Ok(Tuples { values })
    }

    /// The text of a tuple file.
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for table in self.values.chunks(PATTERNS) {
            let line: Vec<String> = table.iter().map(i32::to_string).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_rows_columns_and_boxes() {
        let rows = [
            "#........",
            "##.......",
            ".........",
            "...#.....",
            ".........",
            ".........",
            ".........",
            ".........",
            "........#",
        ];
        let b = Board::parse(&rows.join("/")).unwrap();
        let e = entries(b);
        assert_eq!(e[0], 0b1);
        assert_eq!(e[1], 512 + 0b11);
        assert_eq!(e[3], 3 * 512 + 0b1000);
        assert_eq!(e[8], 8 * 512 + 0b1_0000_0000);
        // Column 0 has rows 0 and 1, column 1 row 1, column 3 row 3, column 8 row 8.
        assert_eq!(e[9], 0b11);
        assert_eq!(e[10], 512 + 0b10);
        assert_eq!(e[12], 3 * 512 + 0b1000);
        assert_eq!(e[17], 8 * 512 + 0b1_0000_0000);
        // Box 0: cells (0,0), (1,0), (1,1); box 4: (3,3); box 8: (8,8).
        assert_eq!(e[18], 9 * 512 + 0b011_001);
        assert_eq!(e[22], 13 * 512 + 0b1);
        assert_eq!(e[26], 17 * 512 + 0b100_000_000);
        assert_eq!(e[19], 10 * 512);
    }

    #[test]
    fn transposed_boards_have_the_same_value() {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(3);
        let mut tuples = Tuples::default();
        for t in 0..SIZE {
            for p in 0..PATTERNS {
                tuples.set((t * PATTERNS + p) as u16, rng.random_range(-50..50));
            }
        }
        for _ in 0..50 {
            let b = Board::random(&mut rng, 30);
            let mut t = 0u128;
            for r in 0..SIZE {
                for c in 0..SIZE {
                    if b.0 >> (r * SIZE + c) & 1 == 1 {
                        t |= 1 << (c * SIZE + r);
                    }
                }
            }
            // Only the line tables are set: they are symmetric under the transpose.
            assert_eq!(tuples.value(b), tuples.value(Board(t)));
        }
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let mut tuples = Tuples::default();
        tuples.set(5, -7);
        tuples.set(9000, 12);
        assert_eq!(Tuples::parse(&tuples.to_text()), Ok(tuples.clone()));
        assert!(Tuples::parse("nonsense").is_err());
        assert!(Tuples::parse(&format!("{HEADER}\n1 2 3")).is_err());
        assert!(
            Tuples::parse(&tuples.to_text().replace("-7", "x"))
                .unwrap_err()
                .contains("bad value")
        );
        assert!(tuples.max_sum() >= 12);
    }
}
