//! The search's prior for GembloQ moves: a linear score over the kinds of triangles a move
//! touches, as the other variants' prior (`games::blokus::prior`) judges squares. Each triangle
//! the move covers, each beside it (sharing an edge) and each at its corners falls in one kind,
//! judged from the colour's, its partner colour's (the player's other colour, in the forms of
//! two colours a player) and the other players' attach points and free triangles; the piece's
//! size and the local triangles it covers (attach points the other players' last moves opened)
//! add their own weights. For a colour's first pieces the distance toward the middle of the
//! board is a fixed cost, outside the weights.

use super::search_position::SearchPosition;
use super::variant::GembloqVariant;

/// Kinds of covered triangles: another player's attach point; beside one that player could
/// still cover; any other.
const COVER_KINDS: usize = 3;
/// A covered triangle that is the partner colour's attach point (beside its cover kind).
const PARTNER_COVER: usize = COVER_KINDS;
/// A covered local triangle (beside its cover kind).
const LOCAL: usize = PARTNER_COVER + 1;
/// Index of the first kind of triangle beside the move: occupied; forbidden to the colour and
/// empty; the colour's own attach point (wasted); any other free triangle.
const BESIDE_AT: usize = LOCAL + 1;
/// Kinds of triangles beside the move.
const BESIDE_KINDS: usize = 4;
/// Index of the first kind of corner triangle: occupied; forbidden to the colour and empty;
/// already the colour's attach point; a new attach point with 0 to 3 free neighbours.
const CORNER_AT: usize = BESIDE_AT + BESIDE_KINDS;
/// Kinds of corner triangles.
const CORNER_KINDS: usize = 7;
/// A corner triangle that is the partner colour's attach point too (beside its kind).
const PARTNER_CORNER: usize = CORNER_AT + CORNER_KINDS;
/// A new attach point that is another player's attach point too (contested, beside its kind).
const CONTESTED: usize = PARTNER_CORNER + 1;
/// Index of the weight of a piece of one square (of four triangles, or six), two, ... five.
const SIZE_AT: usize = CONTESTED + 1;
/// Piece sizes with a weight of their own.
const SIZES: usize = 5;
/// Number of features (and weights).
pub const FEATURES: usize = SIZE_AT + SIZES;

/// Weights of the features.
pub type PriorWeights = [f32; FEATURES];

/// Prior values this far apart differ by a factor e in the prior's shares.
pub const TEMPERATURE: f32 = 3.0;

/// The hand-set weights the features started from: two a triangle covered, 1.5 more for
/// another player's attach point, one for a local triangle and one for each new attach point.
pub const HAND_WEIGHTS: PriorWeights = [
    // covered: another player's attach point, beside one, other; the partner's; local
    3.5, 2.0, 2.0, 0.0, 1.0, //
    // beside: occupied, forbidden, own attach point, other
    0.0, 0.0, 0.0, 0.0, //
    // corners: occupied, forbidden, own attach point, new with 0..3 free neighbours
    0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, //
    // corners: the partner's attach point, contested
    0.0, 0.0, //
    // piece size 1..5 squares
    0.0, 0.0, 0.0, 0.0, 0.0,
];

/// The weights of the forms of more than two colours, learnt from searches of Two-Player
/// Four-Color positions (`tessera tune-prior --set gembloq`): 1,000 positions of 90 games
/// (tessera against itself and against Pentobi), 10,000 playouts each with the hand-set
/// weights; held-out loss 3.262 with those, 2.837 with these. Four colours and Three-Player,
/// with no partner colour, use the same.
pub const LEARNT_WEIGHTS: PriorWeights = [
    // covered: another player's attach point, beside one, other; the partner's; local
    1.347, 1.735, 1.233, -0.157, 1.0, //
    // beside: occupied, forbidden, own attach point, other
    0.899, 0.388, 0.322, -0.669, //
    // corners: occupied, forbidden, own attach point, new with 0..3 free neighbours
    -0.351, 0.218, -0.202, 1.0, 0.342, 0.375, 0.201, //
    // corners: the partner's attach point, contested
    -0.315, -0.038, //
    // piece size 1..5 squares
    0.177, -0.217, -0.748, -0.401, 1.189,
];

/// The weights of Two-Player (two colours), learnt from searches of its positions (`tessera
/// tune-prior --set gembloq --positions 800 --playouts 8000 --seed 21`): 800 positions of 102
/// games (tessera against itself and against Pentobi), searched with the hand-set weights;
/// held-out loss 3.776 with those, 3.028 with these. The partner's features have no weight
/// (there is none), nor has the local one (a search's root has no local triangles).
pub const TWO_WEIGHTS: PriorWeights = [
    // covered: another player's attach point, beside one, other; the partner's; local
    0.863, 2.338, 1.157, 0.000, 1.000, //
    // beside: occupied, forbidden, own attach point, other
    0.688, 0.336, 0.033, -0.692, //
    // corners: occupied, forbidden, own attach point, new with 0..3 free neighbours
    -0.065, 0.600, 0.040, 1.000, 1.217, 0.489, 0.186, //
    // corners: the partner's attach point, contested
    0.000, 0.028, //
    // piece size 1..5 squares
    -0.157, -0.248, -0.311, -0.020, 0.737,
];

/// The weights of `v`'s boards: Two-Player's own, the forms of more colours the ones learnt
/// in Two-Player Four-Color.
pub fn weights(v: GembloqVariant) -> &'static PriorWeights {
    match v {
        GembloqVariant::Two => &TWO_WEIGHTS,
        _ => &LEARNT_WEIGHTS,
    }
}

/// Weight of a unit square of distance from the middle while the colour has placed fewer
/// than [`OPENING`] pieces (a fixed cost, outside the weights).
const MIDDLE: f32 = 0.5;
/// Pieces after which the middle no longer counts.
const OPENING: usize = 5;

/// The size index of a piece of `triangles` triangles.
#[inline]
fn size_index(triangles: usize) -> usize {
    (triangles / 4).clamp(1, SIZES) - 1
}

/// Per triangle, for one colour in one position: its kinds and the weights they add. Kept
/// between calls.
pub struct Prior {
    cover: Vec<u8>,
    beside: Vec<u8>,
    corner: Vec<u8>,
    /// Per triangle: bit 0 the partner's attach point, bit 1 another player's, bit 2 local.
    extra: Vec<u8>,
    cover_w: Vec<f32>,
    beside_w: Vec<f32>,
    corner_w: Vec<f32>,
    /// Scratch: each triangle's attach points, bit `c` for colour `c`.
    live: Vec<u8>,
    /// Scratch: the local triangles.
    local_points: Vec<u16>,
    /// The weights in use.
    w: PriorWeights,
}

impl Prior {
    /// The prior of `pos`'s board with its variant's weights.
    pub fn new(pos: &SearchPosition) -> Prior {
        let n = pos.placements().geo.npoints();
        Prior {
            cover: vec![0; n],
            beside: vec![0; n],
            corner: vec![0; n],
            extra: vec![0; n],
            cover_w: vec![0.0; n],
            beside_w: vec![0.0; n],
            corner_w: vec![0.0; n],
            live: vec![0; n],
            local_points: Vec::new(),
            w: *weights(pos.variant()),
        }
    }

    /// Sorts the triangles of `pos` for colour `c` (every triangle's kinds and weights set
    /// anew).
    fn set(&mut self, pos: &SearchPosition, c: usize) {
        let v = pos.variant();
        let geo = &pos.placements().geo;
        let n = geo.npoints();
        let all = (1u8 << v.ncolours()) - 1;
        let (mut opp, mut partner) = (0u8, 0u8);
        for o in 0..v.ncolours() {
            if v.player_of(o) != v.player_of(c) {
                opp |= 1 << o;
            } else if o != c {
                partner |= 1 << o;
            }
        }
        let bit = 1u8 << c;
        for q in 0..n as u16 {
            self.live[q as usize] = pos.attach_mask(q);
        }
        let w = &self.w;
        for q in 0..n as u16 {
            let i = q as usize;
            let f = pos.forbidden_mask(q);
            let here = self.live[i];
            let (cover, beside, corner) = if f & all == all {
                (2, 0, 0)
            } else if f & bit != 0 {
                (2, 1, 1)
            } else {
                let mut around = 0u8;
                let mut free = 0u8;
                for &a in geo.adj(q) {
                    around |= self.live[a as usize];
                    free += u8::from(pos.forbidden_mask(a) & bit == 0);
                }
                let cover = if here & opp != 0 {
                    0
                } else if around & opp & !f != 0 {
                    1
                } else {
                    2
                };
                let (beside, corner) = if here & bit != 0 {
                    (2, 2)
                } else {
                    (3, 3 + free.min(3))
                };
                (cover, beside, corner)
            };
            let extra = u8::from(here & partner != 0) | u8::from(here & opp != 0) << 1;
            self.cover[i] = cover;
            self.beside[i] = beside;
            self.corner[i] = corner;
            self.extra[i] = extra;
            self.cover_w[i] = w[cover as usize]
                + if extra & 1 != 0 {
                    w[PARTNER_COVER]
                } else {
                    0.0
                };
            self.beside_w[i] = w[BESIDE_AT + beside as usize];
            self.corner_w[i] = w[CORNER_AT + corner as usize]
                + if extra & 1 != 0 {
                    w[PARTNER_CORNER]
                } else {
                    0.0
                }
                + if extra & 2 != 0 && corner >= 3 {
                    w[CONTESTED]
                } else {
                    0.0
                };
        }
        pos.local_points(c, &mut self.local_points);
        for &q in &self.local_points {
            self.extra[q as usize] |= 4;
            self.cover_w[q as usize] += w[LOCAL];
        }
    }

    /// The value of each of colour `c`'s `moves` in `pos` (log scale, [`TEMPERATURE`]).
    pub fn values(&mut self, pos: &SearchPosition, c: usize, moves: &[u32]) -> Vec<f32> {
        self.set(pos, c);
        let p = pos.placements();
        let opening = pos.placed(c) < OPENING;
        let sum = |pts: &[u16], v: &[f32]| -> f32 { pts.iter().map(|&q| v[q as usize]).sum() };
        (moves.iter())
            .map(|&m| {
                let points = p.points(m);
                let mut value = sum(points, &self.cover_w)
                    + sum(p.beside(m), &self.beside_w)
                    + sum(p.corners(m), &self.corner_w)
                    + self.w[SIZE_AT + size_index(points.len())];
                if opening {
                    value -= MIDDLE * p.middle_distance(m);
                }
                value
            })
            .collect()
    }

    /// The feature counts of colour `c`'s moves `moves` in `pos` (their values less the fixed
    /// cost of [`Prior::offset`] are their dot products with the weights).
    pub fn features(
        &mut self,
        pos: &SearchPosition,
        c: usize,
        moves: &[u32],
    ) -> Vec<[u8; FEATURES]> {
        self.set(pos, c);
        let p = pos.placements();
        (moves.iter())
            .map(|&m| {
                let mut f = [0u8; FEATURES];
                let points = p.points(m);
                for &q in points {
                    let i = q as usize;
                    f[self.cover[i] as usize] += 1;
                    f[PARTNER_COVER] += self.extra[i] & 1;
                    f[LOCAL] += self.extra[i] >> 2 & 1;
                }
                for &q in p.beside(m) {
                    f[BESIDE_AT + self.beside[q as usize] as usize] += 1;
                }
                for &q in p.corners(m) {
                    let i = q as usize;
                    f[CORNER_AT + self.corner[i] as usize] += 1;
                    f[PARTNER_CORNER] += self.extra[i] & 1;
                    f[CONTESTED] += u8::from(self.extra[i] & 2 != 0 && self.corner[i] >= 3);
                }
                f[SIZE_AT + size_index(points.len())] = 1;
                f
            })
            .collect()
    }

    /// The fixed part of colour `c`'s move `m`'s value in `pos`: the pull to the middle.
    pub fn offset(pos: &SearchPosition, c: usize, m: u32) -> f32 {
        if pos.placed(c) < OPENING {
            -MIDDLE * pos.placements().middle_distance(m)
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::*;

    /// Along a Two-Player Four-Color game (the prior's best moves), every legal move's value
    /// is its features dotted with the weights plus the fixed cost; the covered kinds add up
    /// to its triangles, and the counts of another player's and of the partner colour's attach
    /// points covered are those of the position; some moves cover each.
    #[test]
    fn values_are_the_features_dot_the_weights() {
        let v = GembloqVariant::TwoFour;
        let (p, w) = (v.placements(), weights(v));
        let mut pos = Position::new(v);
        let (mut taking, mut covering_partner) = (0, 0);
        for ply in 0..40 {
            let c = pos.next_mover().expect("moves left");
            let sp = SearchPosition::new(&pos, c);
            let moves = pos.legal(c);
            let mut prior = Prior::new(&sp);
            let values = prior.values(&sp, c, &moves);
            let features = prior.features(&sp, c, &moves);
            let partner = (c + 2) % 4;
            for ((&m, value), f) in moves.iter().zip(&values).zip(&features) {
                let dot: f32 = f.iter().zip(w).map(|(&x, w)| f32::from(x) * w).sum();
                assert!((dot + Prior::offset(&sp, c, m) - value).abs() < 1e-3);
                let points = p.points(m);
                let covered = f[..COVER_KINDS].iter().sum::<u8>();
                assert_eq!(usize::from(covered), points.len());
                assert_eq!(f[SIZE_AT..].iter().sum::<u8>(), 1);
                let opp = (points.iter())
                    .filter(|&&q| sp.is_attach((c + 1) % 4, q) || sp.is_attach((c + 3) % 4, q))
                    .count();
                assert_eq!(usize::from(f[0]), opp, "ply {ply}");
                let own = points.iter().filter(|&&q| sp.is_attach(partner, q)).count();
                assert_eq!(usize::from(f[PARTNER_COVER]), own, "ply {ply}");
                taking += usize::from(opp > 0);
                covering_partner += usize::from(own > 0);
            }
            let best = (0..moves.len()).max_by(|&a, &b| values[a].total_cmp(&values[b]));
            pos.play(c, moves[best.expect("a move")]);
        }
        assert!(
            taking > 0 && covering_partner > 0,
            "{taking} {covering_partner}"
        );
    }

    /// Two-Player searches with its own learnt weights, the forms of more colours with those
    /// learnt in Two-Player Four-Color.
    #[test]
    fn each_form_has_its_weights() {
        assert!(std::ptr::eq(weights(GembloqVariant::Two), &TWO_WEIGHTS));
        for v in [
            GembloqVariant::Four,
            GembloqVariant::Three,
            GembloqVariant::TwoFour,
        ] {
            assert!(std::ptr::eq(weights(v), &LEARNT_WEIGHTS), "{v:?}");
        }
        assert_ne!(HAND_WEIGHTS, LEARNT_WEIGHTS);
        assert_ne!(TWO_WEIGHTS, LEARNT_WEIGHTS);
    }
}
