//! GembloQ's move chooser: a one-move lookahead that values each legal placement by its size,
//! the corners it opens to its own colour, the other colours' corners it takes, and (early on)
//! how far it reaches toward the middle of the board; a seeded draw breaks ties. It plays
//! legal moves quickly; it has no tree search.

use super::position::Position;
use crate::games::blokus::rng::Rng;

/// Weight of a triangle of the piece placed.
const SIZE: f32 = 2.0;
/// Weight of a new attach point of the colour's own.
const OPENED: f32 = 1.0;
/// Weight of another colour's attach point covered.
const TAKEN: f32 = 1.5;
/// Weight of a unit square of distance from the middle while the colour has placed fewer
/// than [`OPENING`] pieces.
const MIDDLE: f32 = 0.5;
/// Pieces after which the middle no longer counts.
const OPENING: usize = 5;

/// The placement colour `c` plays in `pos`, `None` if it has none; the same `seed` gives the
/// same choice.
pub fn choose(pos: &Position, c: usize, seed: u64) -> Option<u32> {
    let legal = pos.legal(c);
    let p = pos.placements();
    let geo = &p.geo;
    let n = geo.npoints();
    let mut own = vec![false; n];
    for a in pos.attach_points(c) {
        own[a as usize] = true;
    }
    let mut others = vec![false; n];
    for o in (0..pos.variant().ncolours()).filter(|&o| o != c) {
        for a in pos.attach_points(o) {
            others[a as usize] = true;
        }
    }
    let placed = (0..super::position::PIECES)
        .filter(|&k| !pos.has_piece(c, k))
        .count();
    let middle = ((geo.width / 2) as f32 / 2.0, geo.height as f32 / 2.0);
    let mut rng = Rng::new(seed);
    let mut best: Option<(f32, u32)> = None;
    for m in legal {
        let points = p.points(m);
        let mut opened: Vec<u16> = Vec::new();
        for &q in points {
            for &d in geo.diag(q) {
                let beside = geo.adj(d).iter().any(|a| points.contains(a));
                if pos.is_free_for(c, d)
                    && !own[d as usize]
                    && !points.contains(&d)
                    && !beside
                    && !opened.contains(&d)
                {
                    opened.push(d);
                }
            }
        }
        let taken = points.iter().filter(|&&q| others[q as usize]).count();
        let mut value =
            SIZE * points.len() as f32 + OPENED * opened.len() as f32 + TAKEN * taken as f32;
        if placed < OPENING {
            let reach = (points.iter())
                .map(|&q| {
                    let (x, y) = geo.centre(q);
                    (x - middle.0).abs() + (y - middle.1).abs()
                })
                .fold(f32::MAX, f32::min);
            value -= MIDDLE * reach;
        }
        value += rng.below(1000) as f32 * 1e-4;
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, m));
        }
    }
    best.map(|(_, m)| m)
}
