//! Every placement of the GembloQ pieces on a GembloQ board, with the placements covering each
//! triangle and a lookup by the triangles covered.

use crate::games::blokus::geometry::Geometry;
use crate::games::blokus::pieces::{GEMBLOQ, Shape};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Pieces of each colour.
pub const PIECES: usize = 21;
/// Rows of the board a placement spans at most (its row masks, see [`Placements::rows`]).
pub const ROWS: usize = 6;

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
    /// Per placement: its lowest row.
    low_row: Vec<u8>,
    /// Per placement: its triangles as bits (bit `x` for column `x`) of its [`ROWS`] rows from
    /// the lowest up.
    masks: Vec<[u64; ROWS]>,
    /// Per placement: where its lists start in `beside` and `corners` (one more entry at the
    /// end).
    ring_start: Vec<[u32; 2]>,
    /// The triangles beside each placement (sharing an edge with it, not in it).
    beside: Vec<u16>,
    /// The triangles touching each placement only at a corner (neither in it nor beside it).
    corners: Vec<u16>,
    /// Per placement: the least distance of its triangles' centres from the middle of the
    /// board, in unit squares along the axes.
    middle: Vec<f32>,
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
            low_row: Vec::new(),
            masks: Vec::new(),
            middle: Vec::new(),
            ring_start: vec![[0, 0]],
            beside: Vec::new(),
            corners: Vec::new(),
        };
        let centre = ((p.geo.width / 2) as f32 / 2.0, p.geo.height as f32 / 2.0);
        let middle: Vec<f32> = (0..p.geo.npoints() as u16)
            .map(|q| {
                let (x, y) = p.geo.centre(q);
                (x - centre.0).abs() + (y - centre.1).abs()
            })
            .collect();
        // Per triangle: the stamp of the placement that listed it (in it, beside it, at a
        // corner).
        let (mut seen, mut stamp) = (vec![0u32; p.geo.npoints()], 0u32);
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
                let low = cells.iter().map(|&q| p.geo.coords(q).1).min().unwrap_or(0);
                let mut masks = [0u64; ROWS];
                for &q in &cells {
                    let (x, y) = p.geo.coords(q);
                    assert!(
                        y - low < ROWS && x < 64,
                        "a GembloQ piece spans six rows at most"
                    );
                    masks[y - low] |= 1 << x;
                }
                p.low_row.push(low as u8);
                p.masks.push(masks);
                let near = cells.iter().map(|&q| middle[q as usize]);
                p.middle.push(near.fold(f32::MAX, f32::min));
                stamp += 1;
                for &q in &cells {
                    seen[q as usize] = stamp;
                }
                for &q in &cells {
                    for &a in p.geo.adj(q) {
                        if seen[a as usize] != stamp {
                            seen[a as usize] = stamp;
                            p.beside.push(a);
                        }
                    }
                }
                for &q in &cells {
                    for &d in p.geo.diag(q) {
                        if seen[d as usize] != stamp {
                            seen[d as usize] = stamp;
                            p.corners.push(d);
                        }
                    }
                }
                p.ring_start
                    .push([p.beside.len() as u32, p.corners.len() as u32]);
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

    /// Placement `m`'s lowest row and its triangles as row masks from that row up.
    #[inline]
    pub fn rows(&self, m: u32) -> (usize, &[u64; ROWS]) {
        (self.low_row[m as usize] as usize, &self.masks[m as usize])
    }

    /// The triangles beside placement `m` (sharing an edge with it, not in it).
    #[inline]
    pub fn beside(&self, m: u32) -> &[u16] {
        let m = m as usize;
        &self.beside[self.ring_start[m][0] as usize..self.ring_start[m + 1][0] as usize]
    }

    /// The triangles touching placement `m` only at a corner (neither in it nor beside it).
    #[inline]
    pub fn corners(&self, m: u32) -> &[u16] {
        let m = m as usize;
        &self.corners[self.ring_start[m][1] as usize..self.ring_start[m + 1][1] as usize]
    }

    /// The least distance of placement `m`'s triangles from the middle of the board (unit
    /// squares along the axes).
    #[inline]
    pub fn middle_distance(&self, m: u32) -> f32 {
        self.middle[m as usize]
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
