//! Precomputed placement tables for one board (see `geometry`), piece set and way of joining
//! pieces ([`Rules`]): every placement ("move") gets an id, with its squares, the squares its
//! colour may no longer cover beside it and its attach points (where the colour's next pieces
//! may touch it); per square and piece, the list of placements covering that square.

use super::geometry::{Geometry, Grid};
use super::pieces::{self, Shape};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Most cells on any board (486 triangles of Trigon, rounded up to a multiple of 8).
pub const MAX_POINTS: usize = 488;

/// Most cells of a piece (Nexos's I4: four segments and the three junctions between them).
pub const MAX_PIECE: usize = 7;

/// The square that pads the points of placements smaller than 5 (see [`MoveInfo::padded`]):
/// just past the largest board, never covered, forbidden to no one.
pub const PAD: u16 = MAX_POINTS as u16;

/// Length of per-square arrays indexed with `p & (SQUARE_SLOTS - 1)` (every square and `PAD`):
/// a power of two, so that the mask proves the index in bounds without a check.
pub const SQUARE_SLOTS: usize = 512;

/// Squares around a square whose forbidden status (for the colour to move) selects the list of
/// placements to try there; see [`Tables::compatible`].
pub const STATUS_POINTS: usize = 6;
/// Number of such statuses.
const STATUSES: usize = 1 << STATUS_POINTS;

/// Bytes of a [`SquareBits`].
pub const BITS_BYTES: usize = 80;

/// A set of squares: bit `p % 8` of byte `p / 8` for square `p`, then zero bytes enough for a
/// 16-byte window at the byte of any square (see [`MoveBits`]).
pub type SquareBits = [u8; BITS_BYTES];

/// Asks the processor to bring the cache line holding `x` near (a hint with no effect on
/// results): the move generation reads placement tables too large for the caches in an order
/// known a little ahead.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and needs only SSE, which every x86_64 processor has.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Adds square `p` (not `PAD`) to `bits`.
#[inline]
pub fn set_bit(bits: &mut SquareBits, p: u16) {
    bits[(p as usize >> 3) & 63] |= 1 << (p & 7);
}

/// A placement as a window of a [`SquareBits`]: bit `i - 1` (`0 < i <= WINDOW`) is square
/// `off + i`, its first square `off` itself is implied, then `off` and the piece, packed into
/// 128 bits (the table of every placement stays 1 MB).
#[derive(Debug, Clone, Copy, Default)]
pub struct MoveBits(u128);

/// Squares a placement's window holds past its first: the widest placement (Nexos's upright
/// I4, across six rows of the segment grid) spans 114; a window read at a byte boundary
/// keeps 121 bits, enough for the first square and these.
const WINDOW: u32 = 114;
/// Where the window's first square is stored (9 bits: any square up to 511).
const OFF_SHIFT: u32 = WINDOW;
/// Where the piece is stored (5 bits).
const PIECE_SHIFT: u32 = OFF_SHIFT + 9;

impl MoveBits {
    fn new(points: &[u16], piece: u8) -> MoveBits {
        let off = points.iter().min().copied().unwrap_or(0);
        let mut x = 0u128;
        for &p in points {
            let i = u32::from(p - off);
            assert!(
                i <= WINDOW,
                "a placement spans at most {WINDOW} squares past its first"
            );
            if i > 0 {
                x |= 1 << (i - 1);
            }
        }
        assert!(off < 512 && piece < 32);
        MoveBits(x | u128::from(off) << OFF_SHIFT | u128::from(piece) << PIECE_SHIFT)
    }

    /// The piece.
    #[inline]
    pub fn piece(self) -> u8 {
        (self.0 >> PIECE_SHIFT) as u8
    }

    /// Whether the placement covers a square of `bits`.
    #[inline]
    pub fn meets(self, bits: &SquareBits) -> bool {
        self.overlap(bits) != 0
    }

    /// How many squares of `bits` the placement covers.
    #[inline]
    pub fn count_in(self, bits: &SquareBits) -> u32 {
        self.overlap(bits).count_ones()
    }

    /// The placement's window of `bits`: its squares that are in `bits` (bit `i` of byte `o`
    /// of [`MoveBits::aligned`]'s placing).
    #[inline]
    fn overlap(self, bits: &SquareBits) -> u128 {
        let (o, mask) = self.aligned();
        window(bits, o) & mask
    }

    /// The placement as a mask over the 16 bytes of any square set from byte `o`: `(o,
    /// mask)`, for several sets tested with one placing (`window(set, o) & mask`).
    #[inline]
    pub fn aligned(self) -> (usize, u128) {
        let off = (self.0 >> OFF_SHIFT) as usize & 511;
        // The first square and the WINDOW past it, shifted by at most 7, stay within 128 bits.
        let mask = ((self.0 & ((1u128 << WINDOW) - 1)) << 1 | 1) << (off & 7);
        ((off >> 3) & 63, mask)
    }
}

/// A placement as the playouts test it: its [`MoveBits::aligned`] window already placed, with
/// its byte and its piece, so that each test of a square set is two loads and a mask (no
/// shift of 128 bits a test).
#[derive(Clone, Copy, Debug, Default)]
pub struct Placed {
    /// The low and high halves of the placed mask.
    lo: u64,
    hi: u64,
    /// The window's byte `o` (bits 0-7) and the piece (bits 8-15).
    at: u32,
}

impl Placed {
    fn new(bits: MoveBits) -> Placed {
        let (o, mask) = bits.aligned();
        Placed {
            lo: mask as u64,
            hi: (mask >> 64) as u64,
            at: o as u32 | u32::from(bits.piece()) << 8,
        }
    }

    /// The piece.
    #[inline]
    pub fn piece(self) -> usize {
        (self.at >> 8) as usize & 31
    }

    /// The placement's squares that are in `bits` (as [`MoveBits::aligned`] places them).
    #[inline]
    pub fn overlap(self, bits: &SquareBits) -> u128 {
        let w = window(bits, self.at as usize & 63);
        w & (u128::from(self.hi) << 64 | u128::from(self.lo))
    }

    /// Whether the placement covers a square of `bits`.
    #[inline]
    pub fn meets(self, bits: &SquareBits) -> bool {
        self.overlap(bits) != 0
    }

    /// Adds to `bits` the placement's squares that are not in `not`.
    #[inline]
    pub fn add_outside(self, bits: &mut SquareBits, not: &SquareBits) {
        let o = self.at as usize & 63;
        let mask = u128::from(self.hi) << 64 | u128::from(self.lo);
        let w = window(bits, o) | (mask & !window(not, o));
        bits[o..o + 16].copy_from_slice(&w.to_le_bytes());
    }

    /// Adds the placement's squares to `bits`.
    #[inline]
    pub fn add_to(self, bits: &mut SquareBits) {
        let o = self.at as usize & 63;
        let w = window(bits, o) | (u128::from(self.hi) << 64 | u128::from(self.lo));
        bits[o..o + 16].copy_from_slice(&w.to_le_bytes());
    }
}

/// The 16 bytes of `bits` from byte `o` (`o < 64`), as one number.
#[inline]
pub fn window(bits: &SquareBits, o: usize) -> u128 {
    let mut w = [0u8; 16];
    w.copy_from_slice(&bits[o & 63..(o & 63) + 16]);
    u128::from_le_bytes(w)
}

/// Where a piece must touch the pieces of its own colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact {
    /// Blokus: at a corner, never along an edge (a placement's edge neighbours are forbidden
    /// to its colour, its other corner neighbours are its attach points).
    Corner,
    /// Callisto: along an edge (a placement's edge neighbours are its attach points; nothing
    /// is forbidden beside it).
    Edge,
}

/// How the pieces of a set join the board: the rules a placement table is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Where a piece touches its own colour.
    pub contact: Contact,
    /// The loose pieces (bit k: piece k), Callisto's single squares: they need no contact and
    /// go on any free square outside the board's centre section, and they score nothing.
    pub loose: u32,
    /// Loose pieces a colour must place before any other piece.
    pub loose_first: u8,
}

impl Rules {
    /// Blokus and Trigon: corner contact, no loose pieces.
    pub const BLOKUS: Rules = Rules {
        contact: Contact::Corner,
        loose: 0,
        loose_first: 0,
    };

    /// Callisto: edge contact; the single squares (piece 0) are loose, and each colour places
    /// two of them first.
    pub const CALLISTO: Rules = Rules {
        contact: Contact::Edge,
        loose: 1,
        loose_first: 2,
    };
}

/// One placement of a piece on the board.
#[derive(Debug, Clone, Copy)]
pub struct MoveInfo {
    /// Index of the piece in the piece set.
    pub piece: u8,
    /// Number of squares (1..=[`MAX_PIECE`]).
    pub size: u8,
    /// The squares, sorted, then [`PAD`] up to [`MAX_PIECE`].
    points: [u16; MAX_PIECE],
    adj_start: u32,
    adj_len: u8,
    att_len: u8,
}

/// All placements of one piece set on one board size.
#[derive(Debug)]
pub struct Tables {
    /// The board.
    pub geo: Geometry,
    /// The piece shapes.
    pub shapes: &'static [Shape],
    /// Copies of each piece a colour has.
    pub copies: &'static [u8],
    /// How pieces join the board.
    pub rules: Rules,
    /// Per piece: the points it scores (its cells but junctions; nothing for a loose piece).
    scores: Vec<u16>,
    /// The placements of loose pieces that keep out of the centre section.
    loose_moves: Vec<u16>,
    /// All placements, indexed by move id.
    pub moves: Vec<MoveInfo>,
    /// All placements as windows of square sets, indexed by move id (any `u16`: zero past the
    /// placements).
    bits: Box<[MoveBits; 1 << 16]>,
    /// The same, placed (see [`Placed`]).
    placed: Box<[Placed; 1 << 16]>,
    /// Per placement: the distance of its nearest square's centre from the board's centre (in
    /// grid units).
    nearest_centre: Vec<f32>,
    /// Per square: the square and its edge neighbours, placed (see [`Tables::around`]).
    around: Vec<Placed>,
    extra: Vec<u16>,
    /// Per square: the squares whose forbidden status selects its move lists.
    status_points: Vec<[u16; STATUS_POINTS]>,
    compatible_start: Vec<u32>,
    compatible: Vec<u16>,
    index: HashMap<u64, u16>,
}

impl MoveInfo {
    /// The squares of this placement.
    pub fn points(&self) -> &[u16] {
        &self.points[..self.size as usize]
    }

    /// The squares, then [`PAD`] up to [`MAX_PIECE`]: for branch-free loops over a fixed
    /// length, with tables that have an entry for `PAD`.
    #[inline]
    pub fn padded(&self) -> &[u16; MAX_PIECE] {
        &self.points
    }
}

/// The [`STATUS_POINTS`] squares most often covered together with square `p` by the
/// placements covering it (`covering`, per piece), most often first (ties: lower square).
fn most_covered_with(p: u16, covering: &[Vec<u16>], moves: &[MoveInfo]) -> Vec<u16> {
    let mut count: HashMap<u16, usize> = HashMap::new();
    for &m in covering.iter().flatten() {
        for &q in moves[m as usize].points() {
            if q != p {
                *count.entry(q).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(u16, usize)> = count.into_iter().collect();
    ranked.sort_unstable_by_key(|&(q, n)| (std::cmp::Reverse(n), q));
    ranked.iter().take(STATUS_POINTS).map(|&(q, _)| q).collect()
}

fn key(points: &[u16]) -> u64 {
    points.iter().fold(0u64, |k, &p| (k << 9) | (p as u64 + 1))
}

impl Tables {
    fn build(
        geo: Geometry,
        shapes: &'static [Shape],
        copies: &'static [u8],
        rules: Rules,
    ) -> Tables {
        assert_eq!(shapes.len(), copies.len());
        let npoints = geo.npoints();
        let mut moves = Vec::new();
        let mut bits: Box<[MoveBits; 1 << 16]> = vec![MoveBits::default(); 1 << 16]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("length 1 << 16"));
        let mut extra = Vec::new();
        let mut index = HashMap::new();
        let mut scores = vec![0; shapes.len()];
        let mut covering: Vec<Vec<Vec<u16>>> = vec![vec![Vec::new(); shapes.len()]; npoints];
        for (k, shape) in shapes.iter().enumerate() {
            for cells in geo.placements(shape) {
                let mut points = cells.clone();
                points.sort_unstable();
                let contains = |q: u16| cells.contains(&q);
                // The cells beside the placement (edge neighbours), then those touching only a
                // corner of it.
                let mut beside: Vec<u16> = Vec::new();
                let mut corners: Vec<u16> = Vec::new();
                for &p in &cells {
                    for &q in geo.adj(p) {
                        if !contains(q) && !beside.contains(&q) {
                            beside.push(q);
                        }
                    }
                }
                for &p in &cells {
                    for &q in geo.diag(p) {
                        if !contains(q) && !beside.contains(&q) && !corners.contains(&q) {
                            corners.push(q);
                        }
                    }
                }
                let (adj, att) = match rules.contact {
                    Contact::Corner => (beside, corners),
                    Contact::Edge => (Vec::new(), beside),
                };
                let id = moves.len() as u16;
                let mut arr = [PAD; MAX_PIECE];
                arr[..points.len()].copy_from_slice(&points);
                bits[moves.len()] = MoveBits::new(&points, k as u8);
                moves.push(MoveInfo {
                    piece: k as u8,
                    size: points.len() as u8,
                    points: arr,
                    adj_start: extra.len() as u32,
                    adj_len: adj.len() as u8,
                    att_len: att.len() as u8,
                });
                extra.extend_from_slice(&adj);
                extra.extend_from_slice(&att);
                let named: Vec<u16> = (points.iter().copied())
                    .filter(|&p| !geo.is_junction(p))
                    .collect();
                if rules.loose >> k & 1 == 0 {
                    scores[k] = named.len() as u16;
                }
                index.insert(key(&named), id);
                for &p in &points {
                    covering[p as usize][k].push(id);
                }
            }
        }
        // Per square: the squares around it whose forbidden status selects a move list, padded
        // with PAD. Square boards: the geometry's choice; triangles: the neighbours most often
        // covered together with the square, which rule out the most placements when blocked.
        let status_points: Vec<[u16; STATUS_POINTS]> = (0..npoints as u16)
            .map(|p| {
                let around = match geo.grid {
                    Grid::Square => geo.status_points(p, STATUS_POINTS),
                    Grid::Triangle | Grid::Segment | Grid::RightTriangle => {
                        most_covered_with(p, &covering[p as usize], &moves)
                    }
                };
                let mut slots = [PAD; STATUS_POINTS];
                for (slot, q) in slots.iter_mut().zip(around) {
                    *slot = q;
                }
                slots
            })
            .collect();
        // Per square, status and piece: the placements covering the square that cover none of
        // the status points the status marks forbidden.
        let mut compatible_start = Vec::with_capacity(npoints * STATUSES * shapes.len() + 1);
        let mut compatible = Vec::new();
        for (p, per_point) in covering.iter().enumerate() {
            // Per piece: which status points each placement covers (bit i: point i).
            let covers: Vec<Vec<u8>> = per_point
                .iter()
                .map(|list| {
                    list.iter()
                        .map(|&m| {
                            let pts = moves[m as usize].points();
                            status_points[p]
                                .iter()
                                .enumerate()
                                .fold(0, |acc, (i, q)| acc | (u8::from(pts.contains(q)) << i))
                        })
                        .collect()
                })
                .collect();
            for status in 0..STATUSES as u8 {
                for (list, covers) in per_point.iter().zip(&covers) {
                    compatible_start.push(compatible.len() as u32);
                    compatible.extend(
                        list.iter()
                            .zip(covers)
                            .filter(|&(_, &cover)| cover & status == 0)
                            .map(|(&m, _)| m),
                    );
                }
            }
        }
        compatible_start.push(compatible.len() as u32);
        let loose_moves = (0..moves.len())
            .filter(|&m| {
                let mi: &MoveInfo = &moves[m];
                rules.loose >> mi.piece & 1 != 0
                    && !mi.points().iter().any(|&p| geo.in_centre_section(p))
            })
            .map(|m| m as u16)
            .collect();
        let mut placed: Box<[Placed; 1 << 16]> = vec![Placed::default(); 1 << 16]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("length 1 << 16"));
        for (p, &b) in placed.iter_mut().zip(bits.iter()).take(moves.len()) {
            *p = Placed::new(b);
        }
        let half = (geo.width as f32 - 1.0) / 2.0;
        let centre_distance: Vec<f32> = (0..npoints as u16)
            .map(|p| {
                let (x, y) = geo.centre(p);
                ((x - half).powi(2) + (y - half).powi(2)).sqrt()
            })
            .collect();
        let nearest_centre = (moves.iter())
            .map(|mi| {
                (mi.points().iter())
                    .map(|&p| centre_distance[p as usize])
                    .fold(f32::INFINITY, f32::min)
            })
            .collect();
        let around = (0..npoints as u16)
            .map(|p| {
                let mut points = geo.adj(p).to_vec();
                points.push(p);
                Placed::new(MoveBits::new(&points, 0))
            })
            .collect();
        Tables {
            geo,
            shapes,
            copies,
            rules,
            scores,
            loose_moves,
            moves,
            bits,
            placed,
            nearest_centre,
            around,
            extra,
            status_points,
            compatible_start,
            compatible,
            index,
        }
    }

    /// Number of pieces in the set.
    pub fn npieces(&self) -> usize {
        self.shapes.len()
    }

    /// Squares on the board.
    pub fn npoints(&self) -> usize {
        self.geo.npoints()
    }

    /// Pieces a colour has (copies counted).
    pub fn total_pieces(&self) -> usize {
        self.copies.iter().map(|&n| n as usize).sum()
    }

    /// Whether piece `k` is loose (see [`Rules::loose`]).
    #[inline]
    pub fn is_loose(&self, k: usize) -> bool {
        self.rules.loose >> k & 1 != 0
    }

    /// The points piece `k` scores: its squares (Nexos: its segments), nothing for a loose
    /// piece.
    #[inline]
    pub fn score(&self, k: usize) -> u16 {
        self.scores[k]
    }

    /// The placements of loose pieces outside the centre section: those a colour may make
    /// wherever their squares are free.
    #[inline]
    pub fn loose_moves(&self) -> &[u16] {
        &self.loose_moves
    }

    /// Move `m` as a window of square sets.
    #[inline]
    pub fn bits(&self, m: u16) -> MoveBits {
        self.bits[m as usize]
    }

    /// All moves as windows of square sets, indexed by move id (any `u16`).
    #[inline]
    pub fn all_bits(&self) -> &[MoveBits; 1 << 16] {
        &self.bits
    }

    /// Square `p` and its edge neighbours as a [`Placed`] window (its piece 0).
    #[inline]
    pub fn around(&self, p: u16) -> Placed {
        self.around[p as usize]
    }

    /// All moves as [`Placed`] windows, indexed by move id (any `u16`).
    #[inline]
    pub fn all_placed(&self) -> &[Placed; 1 << 16] {
        &self.placed
    }

    /// The distance from the centre of the board's grid (its middle column and row) of the
    /// centre of placement `m`'s nearest square, in grid units.
    #[inline]
    pub fn nearest_centre(&self, m: u16) -> f32 {
        self.nearest_centre[m as usize]
    }

    /// The placements of `piece` covering square `p`.
    #[inline]
    pub fn at(&self, p: usize, piece: usize) -> &[u16] {
        self.compatible(p, 0, piece)
    }

    /// The squares around `p` that make its status (bit i of a status: square i here; `PAD`
    /// where the board ends).
    #[inline]
    pub fn status_points(&self, p: usize) -> &[u16; STATUS_POINTS] {
        &self.status_points[p]
    }

    /// The placements of `piece` covering square `p` that cover none of the status points of
    /// `p` marked in `status`: when `status` marks those a colour may not cover, the only
    /// candidates for that colour at `p`.
    #[inline]
    pub fn compatible(&self, p: usize, status: u8, piece: usize) -> &[u16] {
        let i = (p * STATUSES + status as usize) * self.shapes.len() + piece;
        &self.compatible[self.compatible_start[i] as usize..self.compatible_start[i + 1] as usize]
    }

    /// The starts, in the lists of all squares back to back, of the lists [`Tables::compatible`]
    /// gives for square `p` and `status`, one per piece and then the end: piece `k`'s list is
    /// `starts[k]..starts[k + 1]`, and the lists of consecutive pieces are contiguous.
    #[inline]
    fn compatible_starts(&self, p: usize, status: u8) -> &[u32] {
        let i = (p * STATUSES + status as usize) * self.shapes.len();
        &self.compatible_start[i..i + self.shapes.len() + 1]
    }

    /// Prefetches what [`Tables::for_usable_runs`] reads first at square `p` and `status`:
    /// the starts of its lists.
    #[inline(always)]
    pub fn prefetch_starts(&self, p: usize, status: u8) {
        let i = (p * STATUSES + status as usize) * self.shapes.len();
        prefetch(&self.compatible_start[i]);
        prefetch(&self.compatible_start[i + self.shapes.len()]);
    }

    /// Prefetches what [`Tables::for_usable_runs`] reads next at square `p` and `status`
    /// with the pieces `usable`: the head of its first list (best after
    /// [`Tables::prefetch_starts`] had time to arrive).
    #[inline(always)]
    pub fn prefetch_first_run(&self, p: usize, status: u8, usable: u32) {
        if usable != 0 {
            let start = self.compatible_starts(p, status)[usable.trailing_zeros() as usize];
            if let Some(m) = self.compatible.get(start as usize) {
                prefetch(m);
            }
        }
    }

    /// Calls `visit` with the placements covering square `p` (blocked squares `status`) of
    /// every piece in `usable` (bit k = piece k): one slice per run of consecutive usable
    /// pieces, whose lists lie back to back.
    #[inline(always)]
    pub fn for_usable_runs(
        &self,
        p: usize,
        status: u8,
        usable: u32,
        mut visit: impl FnMut(&[u16]),
    ) {
        let starts = self.compatible_starts(p, status);
        let mut rest = usable;
        while rest != 0 {
            let k0 = rest.trailing_zeros() as usize;
            let k1 = k0 + (rest >> k0).trailing_ones() as usize;
            rest &= u32::MAX.checked_shl(k1 as u32).unwrap_or(0);
            visit(&self.compatible[starts[k0] as usize..starts[k1] as usize]);
        }
    }

    /// The squares beside a placement that its colour may no longer cover: its edge
    /// neighbours under corner contact, none under edge contact.
    #[inline]
    pub fn adj(&self, m: u16) -> &[u16] {
        let mi = &self.moves[m as usize];
        &self.extra[mi.adj_start as usize..mi.adj_start as usize + mi.adj_len as usize]
    }

    /// Prefetches what a judgement of placement `m` reads first: its [`MoveInfo`] and its
    /// [`Placed`] window (its neighbour lists a little later: see
    /// [`Tables::prefetch_neighbours`]).
    #[inline]
    pub fn prefetch_info(&self, m: u16) {
        if let Some(mi) = self.moves.get(m as usize) {
            prefetch(mi);
        }
        prefetch(&self.placed[m as usize]);
    }

    /// Prefetches placement `m`'s neighbour lists ([`Tables::adj_attach`]); reads its
    /// [`MoveInfo`], which should have arrived (see [`Tables::prefetch_info`]).
    #[inline]
    pub fn prefetch_neighbours(&self, m: u16) {
        if let Some(mi) = self.moves.get(m as usize)
            && let Some(first) = self.extra.get(mi.adj_start as usize)
        {
            prefetch(first);
        }
    }

    /// Both [`Tables::adj`] and [`Tables::attach`] of a placement.
    #[inline]
    pub fn adj_attach(&self, m: u16) -> (&[u16], &[u16]) {
        let mi = &self.moves[m as usize];
        let s = mi.adj_start as usize;
        let both = &self.extra[s..s + mi.adj_len as usize + mi.att_len as usize];
        both.split_at(mi.adj_len as usize)
    }

    /// Attach points of a placement, where its colour's later pieces may touch it: its corner
    /// neighbours that are not edge neighbours under corner contact, its edge neighbours under
    /// edge contact.
    #[inline]
    pub fn attach(&self, m: u16) -> &[u16] {
        let mi = &self.moves[m as usize];
        let s = mi.adj_start as usize + mi.adj_len as usize;
        &self.extra[s..s + mi.att_len as usize]
    }

    /// The placement covering exactly these squares (Nexos: these segments, with the
    /// junctions between them).
    pub fn find(&self, points: &[u16]) -> Option<u16> {
        let mut sorted: Vec<u16> = (points.iter().copied())
            .filter(|&p| !self.geo.is_junction(p))
            .collect();
        sorted.sort_unstable();
        self.index.get(&key(&sorted)).copied()
    }

    /// A square in notation: column letters and row number, `a1` bottom left.
    pub fn point_name(&self, p: u16) -> String {
        self.geo.point_name(p)
    }

    /// Parses a square in notation.
    pub fn parse_point(&self, s: &str) -> Option<u16> {
        self.geo.parse_point(s)
    }

    /// A placement in notation: its squares (Nexos: its segments, not junctions) joined by
    /// commas, top row first.
    pub fn move_name(&self, m: u16) -> String {
        let mut pts: Vec<u16> = (self.moves[m as usize].points().iter().copied())
            .filter(|&p| !self.geo.is_junction(p))
            .collect();
        pts.sort_by_key(|&p| {
            let (x, y) = self.geo.coords(p);
            (std::cmp::Reverse(y), x)
        });
        pts.iter()
            .map(|&p| self.point_name(p))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Parses a placement in notation (squares in any order, case-insensitive).
    pub fn parse_move(&self, s: &str) -> Result<u16, String> {
        let lower = s.to_ascii_lowercase();
        let word = self.geo.cell_word();
        let mut points = Vec::new();
        for part in lower.split(',') {
            let p = self
                .parse_point(part.trim())
                .ok_or_else(|| format!("bad {word} '{part}' in move '{s}'"))?;
            if self.geo.is_junction(p) {
                return Err(format!(
                    "'{part}' in move '{s}' is a junction, not a segment: a move names its segments"
                ));
            }
            if points.contains(&p) {
                return Err(format!("{word} '{part}' twice in move '{s}'"));
            }
            points.push(p);
        }
        let most = self.shapes.iter().map(|s| s.cells.len()).max().unwrap_or(0);
        if points.len() > most {
            return Err(format!(
                "a piece has at most {most} {word}s, got {} in '{s}'",
                points.len()
            ));
        }
        self.find(&points)
            .ok_or_else(|| format!("'{s}' is not the shape of any piece"))
    }
}

/// 20x20 with the 21 classic pieces.
pub fn classic() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        Tables::build(
            Geometry::square(20),
            pieces::CLASSIC,
            &[1; 21],
            Rules::BLOKUS,
        )
    })
}

/// 14x14 with the 21 classic pieces (Duo).
pub fn duo() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        Tables::build(
            Geometry::square(14),
            pieces::CLASSIC,
            &[1; 21],
            Rules::BLOKUS,
        )
    })
}

/// 14x14 with the Junior pieces, two of each.
pub fn junior() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        Tables::build(
            Geometry::square(14),
            pieces::JUNIOR,
            &[2; 12],
            Rules::BLOKUS,
        )
    })
}

/// The Trigon hexagon of edge 9 (486 triangles) with the 22 Trigon pieces.
pub fn trigon() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::build(Geometry::trigon(9), pieces::TRIGON, &[1; 22], Rules::BLOKUS))
}

/// The Trigon hexagon of edge 8 (384 triangles, Three-Player) with the 22 Trigon pieces.
pub fn trigon_3() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::build(Geometry::trigon(8), pieces::TRIGON, &[1; 22], Rules::BLOKUS))
}

/// The Nexos board (see [`Geometry::nexos`]) with the 24 Nexos pieces.
pub fn nexos() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::build(Geometry::nexos(), pieces::NEXOS, &[1; 24], Rules::BLOKUS))
}

/// Callisto's pieces on a Callisto octagon (see [`Geometry::callisto`]).
fn callisto_tables(size: usize, edge: usize) -> Tables {
    Tables::build(
        Geometry::callisto(size, edge),
        pieces::CALLISTO,
        &pieces::CALLISTO_COPIES,
        Rules::CALLISTO,
    )
}

/// Callisto for four colours: the 20x20 octagon with sides of 6 (288 squares).
pub fn callisto() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| callisto_tables(20, 6))
}

/// Callisto for two colours: the 16x16 octagon with sides of 2 (144 squares).
pub fn callisto_2() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| callisto_tables(16, 2))
}

/// Callisto for three colours: the 20x20 octagon with sides of 2 (220 squares).
pub fn callisto_3() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| callisto_tables(20, 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_counts_match_the_reference_engine() {
        assert_eq!(duo().moves.len(), 13_729);
        assert_eq!(classic().moves.len(), 30_433);
        assert_eq!(junior().moves.len(), 7_217);
        assert_eq!(trigon().moves.len(), 32_131);
        assert_eq!(trigon_3().moves.len(), 24_859);
        assert_eq!(callisto().moves.len(), 9_433);
        assert_eq!(callisto_2().moves.len(), 4_265);
        assert_eq!(callisto_3().moves.len(), 6_885);
        assert_eq!(nexos().moves.len(), 15_157);
    }

    /// Whether square `p` is in `bits`.
    fn set_bit_of(bits: &SquareBits, p: u16) -> bool {
        bits[p as usize >> 3] >> (p & 7) & 1 != 0
    }

    /// A placement's window (and its placed form) counts and meets exactly the squares of a set
    /// that it covers (and adds them to it), on every board's shapes, wherever the set's squares lie against its byte
    /// boundaries.
    #[test]
    fn placement_windows_count_the_squares_of_a_set() {
        for t in [duo(), classic(), trigon(), callisto(), nexos()] {
            for m in (0..t.moves.len() as u16).step_by(97) {
                let points = t.moves[m as usize].points();
                for stride in [2, 3, 5] {
                    let mut set = [0; BITS_BYTES];
                    let mut inside = 0;
                    for p in (m % stride..t.npoints() as u16).step_by(stride as usize) {
                        set_bit(&mut set, p);
                        inside += u32::from(points.contains(&p));
                    }
                    assert_eq!(
                        t.bits(m).count_in(&set),
                        inside,
                        "move {m}, stride {stride}"
                    );
                    assert_eq!(t.bits(m).meets(&set), inside > 0);
                    let placed = t.all_placed()[m as usize];
                    assert_eq!(placed.overlap(&set).count_ones(), inside);
                    assert_eq!(placed.meets(&set), inside > 0);
                    assert_eq!(placed.piece(), t.moves[m as usize].piece as usize);
                    let mut added = set;
                    placed.add_to(&mut added);
                    for p in 0..t.npoints() as u16 {
                        let want = set_bit_of(&set, p) || points.contains(&p);
                        assert_eq!(set_bit_of(&added, p), want, "move {m}, square {p}");
                    }
                }
            }
        }
    }

    /// Callisto: a placement's attach points are its edge neighbours and nothing beside it is
    /// forbidden; the single squares may go on every square but the 24 of the centre section.
    #[test]
    fn callisto_placements_attach_along_edges() {
        let t = callisto_2();
        let m = t.parse_move("h8,h9").unwrap();
        assert!(t.adj(m).is_empty());
        let mut att: Vec<String> = t.attach(m).iter().map(|&p| t.point_name(p)).collect();
        att.sort();
        assert_eq!(att, ["g8", "g9", "h10", "h7", "i8", "i9"]);
        assert_eq!(t.total_pieces(), 21);
        assert_eq!((t.score(0), t.score(1), t.score(11)), (0, 2, 5));
        for (t, cells) in [(callisto(), 288), (callisto_2(), 144), (callisto_3(), 220)] {
            assert_eq!(t.loose_moves().len(), cells - 24);
            assert!(
                t.loose_moves()
                    .iter()
                    .all(|&m| t.moves[m as usize].size == 1)
            );
        }
        assert!(classic().loose_moves().is_empty());
    }

    #[test]
    fn notation_round_trips() {
        let t = duo();
        let m = t.parse_move("e9,d10,e10,f10,e11").unwrap();
        assert_eq!(t.moves[m as usize].piece as usize, 18, "X");
        assert_eq!(t.move_name(m), "e11,d10,e10,f10,e9");
        assert_eq!(t.parse_move(&t.move_name(m)), Ok(m));
        assert!(t.parse_move("e9,e11").is_err());
        assert!(t.parse_move("o1").is_err());
        assert!(t.parse_move("a1,a1").is_err());
        assert!(t.parse_move("").is_err());
    }
}
