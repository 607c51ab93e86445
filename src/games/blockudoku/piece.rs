//! Pieces (fixed shapes: never rotated or mirrored), their placements, and the piece sets.

use super::board::{Board, SIZE};

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
        Ok(Piece {
            shape,
            cells: offsets.len() as u32,
            mask,
            offsets,
            anchors,
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

    /// The cells the piece covers when its top-left corner is on `anchor`.
    #[inline]
    pub fn at(&self, anchor: usize) -> u128 {
        self.mask << anchor
    }
}

/// Iterates the cell indexes of a set.
#[inline]
pub fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let cell = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(cell)
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
        assert_eq!(anchors.count_ones(), 72 - 2);
    }
}
