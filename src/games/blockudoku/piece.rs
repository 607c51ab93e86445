//! Pieces (fixed shapes: never rotated or mirrored), their placements, and the piece sets.

use super::board::{self, Board, SIZE};

/// The bit of offset 0 in [`Piece::covers`]' reversed shape (above the largest offset, 40).
const REVERSED_AT: u32 = 40;

/// A shape in notation: rows top to bottom separated by `/`, `#` cell, `.` gap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The shape in canonical notation (trimmed to its bounding box).
    pub shape: String,
    /// Number of cells.
    pub cells: u32,
    /// The cells with the bounding box's top-left corner on cell 0.
    pub mask: u128,
    /// Cell offsets (`row * 9 + col`) from the top-left corner.
    offsets: Vec<usize>,
    /// The top-left cells (anchors) at which the piece lies inside the board.
    anchors: u128,
    /// The shape reversed: bit `REVERSED_AT - offset` for each offset.
    reversed: u128,
    /// The shape as few straight runs: (offset, kind) where kind `k < 8` is a horizontal run of
    /// `k` cells and `8 + k` a vertical one (see [`EmptyRuns`]).
    runs: Vec<(u8, u8)>,
}

/// Empty-cell runs of a board shared by every piece's fit test: `h[k]` holds the cells that
/// start `k` empty cells in a row to the right (wrapping across rows: callers mask by anchors),
/// `v[k]` the same downwards.
#[derive(Debug, Clone, Copy)]
pub struct EmptyRuns {
    /// Horizontal runs, `h[1]` = the empty cells.
    pub h: [u128; 6],
    /// Vertical runs.
    pub v: [u128; 6],
}

impl EmptyRuns {
    /// The runs of the empty cells of `board`.
    #[inline]
    pub fn new(board: Board) -> Self {
        let e = board.empty_cells();
        let h2 = e & (e >> 1);
        let h3 = h2 & (e >> 2);
        let h4 = h2 & (h2 >> 2);
        let h5 = h4 & (e >> 4);
        let v2 = e & (e >> SIZE);
        let v3 = v2 & (e >> (2 * SIZE));
        let v4 = v2 & (v2 >> (2 * SIZE));
        let v5 = v4 & (e >> (4 * SIZE));
        EmptyRuns {
            h: [0, e, h2, h3, h4, h5],
            v: [0, e, v2, v3, v4, v5],
        }
    }

    /// The run mask of a kind (`k < 8`: horizontal of `k` cells, `8 + k`: vertical).
    #[inline]
    pub fn run_of(&self, kind: u8) -> u128 {
        self.run(kind)
    }

    #[inline]
    fn run(&self, kind: u8) -> u128 {
        if kind < 8 {
            self.h[usize::from(kind)]
        } else {
            self.v[usize::from(kind - 8)]
        }
    }
}

/// Splits a set of cells (offsets in a piece's box) into straight runs of at most 5 cells,
/// along rows (`vertical` false) or columns.
fn runs_of(cells: &[(usize, usize)], vertical: bool) -> Vec<(u8, u8)> {
    let key = |&(r, c): &(usize, usize)| if vertical { (c, r) } else { (r, c) };
    let mut sorted: Vec<(usize, usize)> = cells.iter().map(key).collect();
    sorted.sort_unstable();
    let mut out: Vec<(usize, usize, usize)> = Vec::new(); // (line, start, len)
    for (line, pos) in sorted {
        match out.last_mut() {
            Some((l, start, len)) if *l == line && *start + *len == pos && *len < 5 => *len += 1,
            _ => out.push((line, pos, 1)),
        }
    }
    out.into_iter()
        .map(|(line, start, len)| {
            let (r, c) = if vertical {
                (start, line)
            } else {
                (line, start)
            };
            (
                (r * SIZE + c) as u8,
                len as u8 + if vertical { 8 } else { 0 },
            )
        })
        .collect()
}

impl Piece {
    /// Parses an inline shape such as `##/#.`; empty outer rows and columns are trimmed.
    pub fn parse(text: &str) -> Result<Piece, String> {
        let rows: Vec<&str> = text.split('/').collect();
        let mut cells = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '#' => cells.push((r, c)),
                    '.' => {}
                    _ => return Err(format!("shape '{text}' has '{ch}': use '#', '.' and '/'")),
                }
            }
        }
        if cells.is_empty() {
            return Err(format!("shape '{text}' has no cell"));
        }
        let top = cells.iter().map(|&(r, _)| r).min().unwrap_or(0);
        let left = cells.iter().map(|&(_, c)| c).min().unwrap_or(0);
        let height = cells.iter().map(|&(r, _)| r).max().unwrap_or(0) - top + 1;
        let width = cells.iter().map(|&(_, c)| c).max().unwrap_or(0) - left + 1;
        if height > SIZE || width > SIZE {
            return Err(format!("shape '{text}' does not fit on a 9x9 board"));
        }
        let offsets: Vec<usize> = cells
            .iter()
            .map(|&(r, c)| (r - top) * SIZE + c - left)
            .collect();
        let mask = offsets.iter().fold(0u128, |m, &o| m | 1u128 << o);
        let mut anchors = 0u128;
        for r in 0..=SIZE - height {
            for c in 0..=SIZE - width {
                anchors |= 1u128 << (r * SIZE + c);
            }
        }
        let shape = (0..height)
            .map(|r| {
                (0..width)
                    .map(|c| {
                        if mask >> (r * SIZE + c) & 1 == 1 {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect::<Vec<String>>()
            .join("/");
        let local: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| (r - top, c - left)).collect();
        let (rows, cols) = (runs_of(&local, false), runs_of(&local, true));
        let runs = if cols.len() < rows.len() { cols } else { rows };
        let reversed = offsets
            .iter()
            .fold(0u128, |m, &o| m | 1u128 << (REVERSED_AT as usize - o));
        Ok(Piece {
            shape,
            cells: offsets.len() as u32,
            mask,
            offsets,
            anchors,
            reversed,
            runs,
        })
    }

    /// The anchors (top-left cells) where the piece fits on `board`, as a cell set.
    #[inline]
    pub fn fits(&self, board: Board) -> u128 {
        let empty = board.empty_cells();
        self.offsets
            .iter()
            .fold(self.anchors, |acc, &o| acc & (empty >> o))
    }

    /// The anchors (not all of them inside the board) at which the piece covers `cell`.
    #[inline(always)]
    fn covers(&self, cell: u32) -> u128 {
        (self.reversed << cell) >> REVERSED_AT
    }

    /// The anchors of `fits` (where the piece fits on `board`) at which placing it completes
    /// a region, so that [`Board::place`] clears something. Only the regions that the union of
    /// all placements would complete are looked at.
    #[inline(always)]
    pub fn clearing(&self, board: Board, fits: u128) -> u128 {
        if fits == 0 {
            return 0;
        }
        let reach = self.offsets.iter().fold(0u128, |m, &o| m | fits << o);
        let starts = board::full_region_starts(board.0 | reach);
        if starts.0 | starts.1 | starts.2 == 0 {
            return 0;
        }
        let empty = board.empty_cells();
        let mut out = 0u128;
        for (shape, set) in board::REGION_SHAPES
            .into_iter()
            .zip([starts.0, starts.1, starts.2])
        {
            for start in cells_of(set) {
                let left = (shape << start) & empty;
                if left.count_ones() > self.cells {
                    continue;
                }
                // Every anchor covering each empty cell of the region (all when none is left).
                out |= cells_of(left).fold(fits, |acc, c| acc & self.covers(c as u32));
            }
        }
        out & fits
    }

    /// The same as [`Piece::fits`] from precomputed runs of empty cells (a few ands).
    #[inline]
    pub fn fits_runs(&self, runs: &EmptyRuns) -> u128 {
        self.runs.iter().fold(self.anchors, |acc, &(offset, kind)| {
            acc & (runs.run(kind) >> offset)
        })
    }

    /// The number of straight runs [`Piece::fits_runs`] ands.
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// The straight runs: (offset from the anchor, kind) as read by [`EmptyRuns::run_of`].
    pub fn runs(&self) -> &[(u8, u8)] {
        &self.runs
    }

    /// The anchors where the piece lies inside the board (ignoring filled cells).
    pub fn anchors(&self) -> u128 {
        self.anchors
    }

    /// True if the piece's cells, shifted somehow, cover all of `other`'s cells (then wherever
    /// this piece fits, `other` fits too).
    pub fn contains(&self, other: &Piece) -> bool {
        // Shift `other` so that its box lies inside this piece's box, at every offset.
        let (h, w) = box_size(self.mask);
        let (oh, ow) = box_size(other.mask);
        if oh > h || ow > w {
            return false;
        }
        (0..=h - oh).any(|dr| {
            (0..=w - ow).any(|dc| {
                let shifted = other.mask << (dr * SIZE + dc);
                shifted & !self.mask == 0
            })
        })
    }

    /// The cells the piece covers when its top-left corner is on `anchor`.
    #[inline]
    pub fn at(&self, anchor: usize) -> u128 {
        self.mask << anchor
    }
}

/// Height and width of the bounding box of a shape mask whose top-left corner is on cell 0.
fn box_size(mask: u128) -> (usize, usize) {
    let cells: Vec<usize> = cells_of(mask).collect();
    let h = cells.iter().map(|c| c / SIZE).max().unwrap_or(0) + 1;
    let w = cells.iter().map(|c| c % SIZE).max().unwrap_or(0) + 1;
    (h, w)
}

/// Iterates the cell indexes of a set, in increasing order.
#[inline]
pub fn cells_of(set: u128) -> impl Iterator<Item = usize> {
    let (mut low, mut high) = (set as u64, (set >> 64) as u64);
    std::iter::from_fn(move || {
        if low != 0 {
            let cell = low.trailing_zeros() as usize;
            low &= low - 1;
            return Some(cell);
        }
        if high != 0 {
            let cell = 64 + high.trailing_zeros() as usize;
            high &= high - 1;
            return Some(cell);
        }
        None
    })
}

/// A named list of pieces; hands are dealt from it and the evaluation looks at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceSet {
    /// The set's name (`standard47`, ...).
    pub name: String,
    /// The pieces in file order; a piece's name in `pieces` is its 1-based index here.
    pub pieces: Vec<Piece>,
}

/// The piece sets embedded in the binary: (name, file text).
const BUILTIN_SETS: [(&str, &str); 3] = [
    (
        "standard47",
        include_str!("../../../data/blockudoku/standard47.txt"),
    ),
    (
        "blocksudoku59",
        include_str!("../../../data/blockudoku/blocksudoku59.txt"),
    ),
    (
        "woodoku49",
        include_str!("../../../data/blockudoku/woodoku49.txt"),
    ),
];

/// The names of the embedded piece sets.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN_SETS.iter().map(|(name, _)| *name).collect()
}

impl PieceSet {
    /// An embedded piece set by name.
    pub fn builtin(name: &str) -> Result<PieceSet, String> {
        let (_, text) = BUILTIN_SETS
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| {
                format!(
                    "unknown piece set '{name}' (known: {})",
                    builtin_names().join(", ")
                )
            })?;
        PieceSet::parse(name, text)
    }

    /// Parses a piece-set file: one shape a line; lines starting with `# ` are comments and
    /// the line `#` alone is the monomino.
    pub fn parse(name: &str, text: &str) -> Result<PieceSet, String> {
        let mut pieces = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("# ") {
                continue;
            }
            let piece = Piece::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
            if !pieces.contains(&piece) {
                pieces.push(piece);
            }
        }
        if pieces.is_empty() {
            return Err(format!("piece set '{name}' has no pieces"));
        }
        Ok(PieceSet {
            name: name.to_string(),
            pieces,
        })
    }

    /// A piece given by name (its 1-based index in the set) or inline shape.
    pub fn resolve(&self, token: &str) -> Result<Piece, String> {
        if let Ok(index) = token.parse::<usize>() {
            return match index.checked_sub(1).and_then(|i| self.pieces.get(i)) {
                Some(piece) => Ok(piece.clone()),
                None => Err(format!(
                    "no piece {token} in {} (pieces 1 to {})",
                    self.name,
                    self.pieces.len()
                )),
            };
        }
        Piece::parse(token)
    }
}

/// Total placements of all pieces of a set on a board.
pub fn placement_count(set: &PieceSet, board: Board) -> u32 {
    set.pieces.iter().map(|p| p.fits(board).count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    fn board_from_cells(cells: &[usize]) -> Board {
        Board(cells.iter().fold(0u128, |m, &c| m | 1u128 << c))
    }

    #[test]
    fn builtin_sets_have_their_sizes() {
        assert_eq!(PieceSet::builtin("standard47").unwrap().pieces.len(), 47);
        assert_eq!(PieceSet::builtin("blocksudoku59").unwrap().pieces.len(), 59);
        assert_eq!(PieceSet::builtin("woodoku49").unwrap().pieces.len(), 49);
        assert!(PieceSet::builtin("tetris").is_err());
    }

    #[test]
    fn standard47_has_2656_placements_on_the_empty_board() {
        let set = PieceSet::builtin("standard47").unwrap();
        assert_eq!(placement_count(&set, Board::EMPTY), 2656);
    }

    #[test]
    fn shapes_parse_trim_and_place() {
        let l = Piece::parse("..../.#../.##.").unwrap();
        assert_eq!(l.shape, "#./##");
        assert_eq!(l.cells, 3);
        assert_eq!(l.fits(Board::EMPTY).count_ones(), 64);
        assert!(Piece::parse("../..").is_err());
        assert!(Piece::parse("#x").is_err());
        assert!(Piece::parse("##########").is_err());
        let set = PieceSet::builtin("standard47").unwrap();
        assert_eq!(set.resolve("1").unwrap().shape, "#");
        assert!(set.resolve("48").is_err());
        assert!(set.resolve("0").is_err());
    }

    #[test]
    fn fits_respects_filled_cells() {
        let board = board_from_cells(&[0, 1, 2]);
        let domino = Piece::parse("##").unwrap();
        let anchors = domino.fits(board);
        assert_eq!(anchors >> 2 & 1, 0);
        assert_eq!(anchors >> 3 & 1, 1);
        assert_eq!(anchors.count_ones(), 72 - 3);
    }

    #[test]
    fn fits_from_runs_equals_fits() {
        let set = PieceSet::builtin("blocksudoku59").unwrap();
        let mut x = 0x2545_F491_4F6C_DD1D_u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(23).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            // Sparse-ish boards: the and of two random words.
            let board = Board(
                (u128::from(x) << 64 | u128::from(y))
                    & u128::from(x ^ y) << 17
                    & super::super::board::FULL,
            );
            let runs = EmptyRuns::new(board);
            for p in &set.pieces {
                assert_eq!(p.fits_runs(&runs), p.fits(board), "{}", p.shape);
            }
        }
        let line = Piece::parse("#/#/#/#/#").unwrap();
        assert_eq!(line.run_count(), 1);
        let u = Piece::parse("#.#/###").unwrap();
        assert_eq!(u.run_count(), 3);
    }

    #[test]
    fn clearing_anchors_are_the_placements_that_clear() {
        let set = PieceSet::builtin("blocksudoku59").unwrap();
        let mut rng = SmallRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.random::<u64>();
        let full = super::super::board::FULL;
        for i in 0..3000 {
            // Boards half or 3/4 full, some with regions nearly or wholly full.
            let mut bits = u128::from(next()) << 64 | u128::from(next());
            if i % 2 == 0 {
                bits |= u128::from(next()) << 64 | u128::from(next());
            }
            if i % 3 == 0 {
                bits |= super::super::board::REGIONS[i % 27];
                bits &= !(1u128 << (next() % 81));
            }
            let board = Board(bits & full);
            for p in &set.pieces {
                let fits = p.fits(board);
                let expected = cells_of(fits)
                    .filter(|&a| board.place(p.at(a)).1 > 0)
                    .fold(0u128, |m, a| m | 1u128 << a);
                assert_eq!(p.clearing(board, fits), expected, "{} on {board}", p.shape);
            }
        }
    }

    #[test]
    fn containment_between_shapes() {
        let l = Piece::parse("#./##").unwrap();
        let square = Piece::parse("##/##").unwrap();
        let domino = Piece::parse("##").unwrap();
        let diag = Piece::parse("#./.#").unwrap();
        assert!(square.contains(&l));
        assert!(square.contains(&domino));
        assert!(square.contains(&diag));
        assert!(l.contains(&domino));
        assert!(!l.contains(&square));
        assert!(!domino.contains(&diag));
        assert!(
            Piece::parse("#####")
                .unwrap()
                .contains(&Piece::parse("###").unwrap())
        );
    }
}
