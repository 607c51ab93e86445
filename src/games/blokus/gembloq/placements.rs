//! Every placement of the GembloQ pieces on a GembloQ board, with the placements covering each
//! triangle and a lookup by the triangles covered.

use crate::games::blokus::geometry::Geometry;
use crate::games::blokus::pieces::{GEMBLOQ, Shape};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Pieces of each colour.
pub const PIECES: usize = 21;

/// The placements of one board.
#[derive(Debug)]
pub struct Placements {
    /// The board.
    pub geo: Geometry,
    /// The pieces.
    pub shapes: &'static [Shape],
    /// Per placement: its piece.
    piece: Vec<u8>,
    /// Per placement: where its triangles start in `points` (one more entry at the end).
    start: Vec<u32>,
    /// The triangles of every placement, each placement's sorted.
    points: Vec<u16>,
    /// Per triangle: the placements covering it, in id order (so grouped by piece).
    covering: Vec<Vec<u32>>,
    /// Per triangle: where each piece's placements start in its `covering` list (one more
    /// entry at the end).
    piece_start: Vec<[u16; PIECES + 1]>,
    /// The placement covering exactly these triangles (sorted).
    index: HashMap<Vec<u16>, u32>,
}

impl Placements {
    fn build(geo: Geometry) -> Placements {
        let mut p = Placements {
            covering: vec![Vec::new(); geo.npoints()],
            piece_start: vec![[0; PIECES + 1]; geo.npoints()],
            geo,
            shapes: GEMBLOQ,
            piece: Vec::new(),
            start: vec![0],
            points: Vec::new(),
            index: HashMap::new(),
        };
        for (k, shape) in GEMBLOQ.iter().enumerate() {
            for mut cells in p.geo.placements(shape) {
                cells.sort_unstable();
                let id = p.piece.len() as u32;
                for &q in &cells {
                    p.covering[q as usize].push(id);
                }
                p.piece.push(k as u8);
                p.points.extend_from_slice(&cells);
                p.start.push(p.points.len() as u32);
                p.index.insert(cells, id);
            }
        }
        for (q, list) in p.covering.iter().enumerate() {
            let starts = &mut p.piece_start[q];
            for (k, start) in starts.iter_mut().enumerate() {
                *start = list.partition_point(|&m| (p.piece[m as usize] as usize) < k) as u16;
            }
        }
        p
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.piece.len()
    }

    /// Whether there are none (never, on a real board).
    pub fn is_empty(&self) -> bool {
        self.piece.is_empty()
    }

    /// The piece of placement `m`.
    #[inline]
    pub fn piece(&self, m: u32) -> usize {
        self.piece[m as usize] as usize
    }

    /// The triangles of placement `m`, sorted (bottom row first, left to right).
    #[inline]
    pub fn points(&self, m: u32) -> &[u16] {
        let m = m as usize;
        &self.points[self.start[m] as usize..self.start[m + 1] as usize]
    }

    /// The placements covering triangle `p`.
    #[inline]
    pub fn covering(&self, p: u16) -> &[u32] {
        &self.covering[p as usize]
    }

    /// The placements of piece `k` covering triangle `p`.
    #[inline]
    pub fn covering_piece(&self, p: u16, k: usize) -> &[u32] {
        let starts = &self.piece_start[p as usize];
        &self.covering[p as usize][starts[k] as usize..starts[k + 1] as usize]
    }

    /// A placement in notation: its triangles in the reference engine's order (bottom row
    /// first, left to right), joined by commas.
    pub fn name(&self, m: u32) -> String {
        let names: Vec<String> = (self.points(m).iter())
            .map(|&p| self.geo.point_name(p))
            .collect();
        names.join(",")
    }

    /// The placement a move text names (its triangles in any order and case).
    pub fn parse(&self, text: &str) -> Result<u32, String> {
        let mut cells = Vec::new();
        for part in text.split(',') {
            let name = part.trim().to_ascii_lowercase();
            let p = self
                .geo
                .parse_point(&name)
                .ok_or_else(|| format!("'{}' is no triangle of the board", part.trim()))?;
            cells.push(p);
        }
        cells.sort_unstable();
        if cells.windows(2).any(|w| w[0] == w[1]) {
            return Err("a triangle twice".into());
        }
        self.index
            .get(&cells)
            .copied()
            .ok_or_else(|| "these triangles are no piece on the board".into())
    }
}

/// The four-colour board (Four, Two-Player Four-Color): 56 x 28.
pub fn four() -> &'static Placements {
    static P: OnceLock<Placements> = OnceLock::new();
    P.get_or_init(|| Placements::build(Geometry::gembloq(28, 13)))
}

/// The Two-Player board: 44 x 22.
pub fn two() -> &'static Placements {
    static P: OnceLock<Placements> = OnceLock::new();
    P.get_or_init(|| Placements::build(Geometry::gembloq(22, 4)))
}

/// The Three-Player board: 52 x 26.
pub fn three() -> &'static Placements {
    static P: OnceLock<Placements> = OnceLock::new();
    P.get_or_init(|| Placements::build(Geometry::gembloq(26, 6)))
}
