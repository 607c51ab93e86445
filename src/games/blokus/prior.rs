//! The prior judgement of moves at node creation: a linear score (log scale) over the kinds of
//! squares a move touches. Each square the move covers, each square beside it (an edge
//! neighbour, which the colour may no longer cover) and each of its new corner points falls in
//! one kind, judged from the colour's and its opponents' corner points and free squares; the
//! piece's size and whether the move answers the opponents' latest moves (see
//! `playout::Local`) add their own weights.

use super::board::{Board, Variant};
use super::geometry::Grid;
use super::tables::{Contact, MAX_POINTS, SQUARE_SLOTS, Tables};
use crate::isa;

/// Kinds of covered squares: an opponent's live corner point; beside one that its opponent
/// could still extend through; any other.
pub const COVER_KINDS: usize = 3;
/// Kinds of squares beside the move: forbidden to the colour and occupied; forbidden and
/// empty; the colour's own live corner point (wasted); any other free square.
pub const BESIDE_KINDS: usize = 4;
/// Kinds of corner points of the move: occupied by the colour; otherwise forbidden to it; free
/// with 0 to 4 free edge neighbours; the same five again where an opponent has a live corner
/// point too (contested).
pub const CORNER_KINDS: usize = 12;
/// Index of the first beside kind in the features.
const BESIDE_AT: usize = COVER_KINDS;
/// Index of the first corner kind.
const CORNER_AT: usize = BESIDE_AT + BESIDE_KINDS;
/// Index of the weight for a piece of one square (then two, ..., five).
const SIZE_AT: usize = CORNER_AT + CORNER_KINDS;
/// Piece sizes with a weight of their own: one to six cells (Nexos's pieces of seven share
/// the sixth).
const SIZES: usize = 6;
/// Index of the weight of a move that answers the opponents' latest moves.
pub const LOCAL_AT: usize = SIZE_AT + SIZES;
/// Number of features (and weights).
pub const FEATURES: usize = LOCAL_AT + 1;

/// The size weight of a placement of `size` cells (1..=`tables::MAX_PIECE`): its index past
/// `SIZE_AT`.
#[inline]
fn size_index(size: u8) -> usize {
    (size as usize).clamp(1, SIZES) - 1
}

/// Temperature of the judgement: a move's prior weight is exp(score / this).
pub const TEMPERATURE: f32 = 0.84;

/// Weights of the features.
pub type PriorWeights = [f32; FEATURES];

/// The weights in use.
pub const WEIGHTS: PriorWeights = [
    // covered: opponent's corner, beside one, other
    1.4, 1.4, 0.4, //
    // beside: occupied, forbidden, own corner, other
    0.35, 0.4, -1.15, -0.45, //
    // corner points: own, forbidden, free with 0..4 free neighbours, contested with 0..4
    -0.1, -0.3, -0.2, -0.1, 0.33, 0.6, 0.9, -0.2, -0.1, 0.33, 0.6, 0.9, //
    // piece size 1..6 (6: triangles only)
    0.3, -0.4, -0.85, -0.25, 1.15, 1.15, //
    // answers the latest moves
    0.34,
];

/// The weights of the household game (Classic: four players on the big square board, each for
/// itself), learnt from searches of its positions: 700 positions of 24 games of tessera's level
/// 6 against three of the reference engine's, 10,000 playouts each (`tessera tune-prior --set
/// square --positions 700 --playouts 10000 --seed 11`, the square weights then in use): held-out
/// loss 3.2005 with the square weights, 3.1418 with these. Contested corner points are worth
/// less than with one opponent, the tetrominoes more.
pub const HOUSEHOLD_WEIGHTS: PriorWeights = [
    // covered: opponent's corner, beside one, other
    1.294, 1.342, 0.563, //
    // beside: occupied, forbidden, own corner, other
    0.303, 0.295, -1.046, -0.393, //
    // corner points: own, forbidden, free with 0..4 free neighbours, contested with 0..4
    -0.196, -0.347, -0.364, -0.099, 0.349, 0.601, 0.743, -0.371, -0.32, 0.098, 0.564, 0.481, //
    // piece size 1..6 (6: none)
    0.252, -0.471, -0.789, 0.035, 0.924, 1.15, //
    // answers the latest moves
    0.463,
];

/// The weights of triangle boards (Trigon), learnt from searches of Trigon positions (`tessera
/// tune-prior --set triangle`), twice: first 300 positions of 14 games of the reference engine's
/// level 5 against itself, 8,000 playouts each (held-out loss 4.484 with the square weights,
/// 4.271 fitted); then, searching with those, 1,200 positions of 340 games of tessera against
/// Pentobi (240 of four colours, 100 Two-Player), 10,000 playouts each (held-out loss 3.732 ->
/// 3.692).
pub const TRIGON_WEIGHTS: PriorWeights = [
    // covered: opponent's corner, beside one, other
    1.096, 1.086, 0.528, //
    // beside: occupied, forbidden, own corner, other
    0.529, 0.513, -0.614, -0.522, //
    // corner points: own, forbidden, free with 0..4 free neighbours, contested with 0..4
    -0.136, -0.271, -0.435, -0.337, -0.026, 0.317, 0.9, -0.269, -0.147, 0.173, 0.238, 0.9, //
    // piece size 1..6
    0.518, -0.474, -0.843, -0.124, 0.571, 1.452, //
    // answers the latest moves
    0.529,
];

/// The weights of Callisto boards, learnt from searches of Callisto positions (`tessera
/// tune-prior --set callisto`): 800 positions of 196 games (Two-Player: 16 of the reference
/// engine's level 5 against itself, 140 of tessera against its level 6; 40 of four colours),
/// 8,000 playouts each; held-out loss 3.797 with the square weights, 3.623 with these. Pieces
/// join along edges there, so a move's "corner points" are the free squares beside it and
/// nothing is forbidden beside it: the "beside" weights are never used.
pub const CALLISTO_WEIGHTS: PriorWeights = [
    // covered: opponent's corner, beside one, other
    1.514, 1.344, 0.414, //
    // beside: occupied, forbidden, own corner, other
    0.35, 0.4, -1.15, -0.45, //
    // corner points: own, forbidden, free with 0..4 free neighbours, contested with 0..4
    -0.203, -0.338, -0.2, -0.405, 0.172, 0.027, 0.487, -0.2, -0.242, -0.197, -0.079, 0.9, //
    // piece size 1..6 (6: none)
    0.306, -0.898, -0.428, 0.301, 0.668, 1.15, //
    // answers the latest moves
    0.36,
];

/// The families of boards and rules that have weights of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WeightSet {
    /// The square boards with corner contact (Duo, Junior, Classic's Two- and Three-Player
    /// forms) and Nexos.
    Square,
    /// Classic with four players, each for itself.
    Household,
    /// The triangle boards (Trigon).
    Triangle,
    /// Callisto's boards, where pieces join along edges.
    Callisto,
}

impl WeightSet {
    /// The set for variant `v`'s boards and rules.
    pub fn of(v: Variant) -> WeightSet {
        let t = v.tables();
        match (t.rules.contact, t.geo.grid) {
            (Contact::Edge, _) => WeightSet::Callisto,
            (Contact::Corner, Grid::Triangle | Grid::RightTriangle) => WeightSet::Triangle,
            (Contact::Corner, Grid::Square) if v == Variant::Classic => WeightSet::Household,
            (Contact::Corner, Grid::Square | Grid::Segment) => WeightSet::Square,
        }
    }

    /// The weights in use for this set.
    pub fn weights(self) -> &'static PriorWeights {
        match self {
            WeightSet::Square => &WEIGHTS,
            WeightSet::Household => &HOUSEHOLD_WEIGHTS,
            WeightSet::Triangle => &TRIGON_WEIGHTS,
            WeightSet::Callisto => &CALLISTO_WEIGHTS,
        }
    }
}

/// The weights in use in `b`'s variant.
pub fn weights(b: &Board) -> &'static PriorWeights {
    WeightSet::of(b.variant).weights()
}

/// The kind of every square for one colour in one position, and the weight each kind adds.
pub struct Kinds {
    cover: [u8; MAX_POINTS],
    beside: [u8; MAX_POINTS],
    corner: [u8; MAX_POINTS],
    cover_w: [f32; SQUARE_SLOTS],
    beside_w: [f32; SQUARE_SLOTS],
    corner_w: [f32; SQUARE_SLOTS],
    /// Scratch: the live corner points of each square (see [`Board::attach_mask`]).
    live: [u8; SQUARE_SLOTS],
}

impl Default for Kinds {
    fn default() -> Kinds {
        Kinds {
            cover: [0; MAX_POINTS],
            beside: [0; MAX_POINTS],
            corner: [0; MAX_POINTS],
            cover_w: [0.0; SQUARE_SLOTS],
            beside_w: [0.0; SQUARE_SLOTS],
            corner_w: [0.0; SQUARE_SLOTS],
            live: [0; SQUARE_SLOTS],
        }
    }
}

impl Kinds {
    isa::twin! {
        /// Sorts the squares of `b` for colour `c` with opponents `opp` (bit mask of colours), with
        /// weights `w`.
        pub fn set / set_v3 = set_body(&mut self, b: &Board, c: usize, opp: u8, w: &PriorWeights)
    }

    #[inline(always)]
    fn set_body(&mut self, b: &Board, c: usize, opp: u8, w: &PriorWeights) {
        let t = b.tables();
        let bit = 1u8 << c;
        // The live corner points of every square, read once here and up to four times below.
        let live = &mut self.live;
        b.attach_masks(live);
        for p in 0..t.npoints().min(MAX_POINTS) {
            let f = b.forbidden_at(p as u16);
            let (cover, beside, corner) = if f & bit != 0 {
                // Squares the colour may not cover: only beside or as corner points.
                let owner = b.owner(p);
                (2, u8::from(owner.is_none()), u8::from(owner != Some(c)))
            } else {
                let here = live[p];
                let mut around = 0u8;
                let mut free = 0u8;
                for &q in t.geo.adj(p as u16) {
                    around |= live[q as usize & (SQUARE_SLOTS - 1)];
                    free += u8::from(b.forbidden_at(q) & bit == 0);
                }
                let near = here | (around & !f);
                let corner_of_opp = here & opp != 0;
                let cover = if corner_of_opp {
                    0
                } else if near & opp != 0 {
                    1
                } else {
                    2
                };
                let beside = if here & bit != 0 { 2 } else { 3 };
                let corner = 2 + free + if corner_of_opp { 5 } else { 0 };
                (cover, beside, corner)
            };
            self.cover[p] = cover;
            self.beside[p] = beside;
            self.corner[p] = corner;
            self.cover_w[p] = w[cover as usize];
            self.beside_w[p] = w[BESIDE_AT + beside as usize];
            self.corner_w[p] = w[CORNER_AT + corner as usize];
        }
    }

    /// The judgement of move `m` with weights `w` (as set); `local`: whether it answers the
    /// latest moves.
    #[inline(always)]
    pub fn score(&self, t: &Tables, m: u16, local: bool, w: &PriorWeights) -> f32 {
        let mi = &t.moves[m as usize];
        // Sums in order from -0.0, as `Iterator::sum` adds.
        let sum = |pts: &[u16], v: &[f32; SQUARE_SLOTS]| -> f32 {
            let mut s = -0.0f32;
            for &p in pts {
                s += v[p as usize & (SQUARE_SLOTS - 1)];
            }
            s
        };
        let (adj, attach) = t.adj_attach(m);
        sum(mi.points(), &self.cover_w)
            + sum(adj, &self.beside_w)
            + sum(attach, &self.corner_w)
            + w[(SIZE_AT + size_index(mi.size)) & 31]
            + if local { w[LOCAL_AT] } else { 0.0 }
    }

    /// The feature counts of move `m`: its score is their dot product with the weights.
    pub fn features(&self, t: &Tables, m: u16, local: bool) -> [u8; FEATURES] {
        let mi = &t.moves[m as usize];
        let mut f = [0u8; FEATURES];
        for &p in mi.points() {
            f[self.cover[p as usize] as usize] += 1;
        }
        for &p in t.adj(m) {
            f[BESIDE_AT + self.beside[p as usize] as usize] += 1;
        }
        for &p in t.attach(m) {
            f[CORNER_AT + self.corner[p as usize] as usize] += 1;
        }
        f[SIZE_AT + size_index(mi.size)] = 1;
        f[LOCAL_AT] = u8::from(local);
        f
    }
}

/// Whether the board is the big square one, where the first pieces head for the centre (see
/// [`centre_pull`]).
pub fn pulls_to_centre(t: &Tables) -> bool {
    t.geo.grid == Grid::Square && t.geo.width == 20
}

/// On the big square board, while the colour has placed fewer than ten pieces, the first
/// pieces head for the centre: minus a quarter of the distance of the move's nearest square to
/// it (at least 2). Zero elsewhere.
pub fn centre_pull(b: &Board, c: usize, m: u16) -> f32 {
    let t = b.tables();
    if !pulls_to_centre(t) || b.pieces_left(c) <= 21 - 10 {
        return 0.0;
    }
    -0.25 * t.nearest_centre(m).max(2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::{MoveGen, Variant};

    /// Every legal move's score is the dot product of its features with the weights, and the
    /// kinds follow the position: the answer to the opponent's corner is a cover of kind 0.
    #[test]
    fn scores_are_the_features_dot_the_weights() {
        let t = Variant::Duo.tables();
        let mut b = Board::new(Variant::Duo);
        for m in ["e10,f10,f9,g9,f8", "j5,j6,k6,k7,j7", "g7,h7,h6,i6,i5"] {
            let c = b.to_play();
            b.play(c, t.parse_move(m).unwrap());
        }
        let c = b.to_play();
        let mut kinds = Box::<Kinds>::default();
        kinds.set(&b, c, b.opponents_mask(c), &WEIGHTS);
        let mut moves = Vec::new();
        b.gen_moves(c, &mut MoveGen::new(t), &mut moves);
        assert!(!moves.is_empty());
        for &m in &moves {
            for local in [false, true] {
                let f = kinds.features(t, m, local);
                let dot: f32 = f.iter().zip(&WEIGHTS).map(|(&x, w)| f32::from(x) * w).sum();
                assert!((dot - kinds.score(t, m, local, &WEIGHTS)).abs() < 1e-4);
                let size = t.moves[m as usize].size;
                assert_eq!(f[..COVER_KINDS].iter().sum::<u8>(), size);
                assert_eq!(f[SIZE_AT + size_index(size)], 1);
            }
        }
        // Covered opponents' live corners are kind 0, and some move covers one.
        let opp = b.opponents_mask(c);
        let mut covering = 0;
        for &m in &moves {
            let n = (t.moves[m as usize].points().iter())
                .filter(|&&p| b.attach_mask(p as usize) & opp != 0)
                .count();
            assert_eq!(kinds.features(t, m, false)[0] as usize, n);
            covering += usize::from(n > 0);
        }
        assert!(covering > 0);
    }

    /// Each family of boards and rules searches with its own weights: Callisto's (edge
    /// contact) differ from the square boards' though both are square grids, and the
    /// household game's (four players) from its two- and three-player forms' on the same board.
    #[test]
    fn each_family_has_its_weights() {
        for (v, set) in [
            (Variant::Duo, WeightSet::Square),
            (Variant::Two, WeightSet::Square),
            (Variant::Three, WeightSet::Square),
            (Variant::Nexos, WeightSet::Square),
            (Variant::Classic, WeightSet::Household),
            (Variant::Trigon2, WeightSet::Triangle),
            (Variant::Callisto2, WeightSet::Callisto),
            (Variant::Callisto, WeightSet::Callisto),
        ] {
            assert_eq!(WeightSet::of(v), set, "{v:?}");
            // By value: a constant's address may differ from one use to the next.
            assert_eq!(weights(&Board::new(v)), set.weights(), "{v:?}");
        }
        assert_ne!(CALLISTO_WEIGHTS, WEIGHTS);
        assert_ne!(HOUSEHOLD_WEIGHTS, WEIGHTS);
    }
}
