//! The search's prior for GembloQ moves: a cheap value of each legal placement from its size,
//! the corners it opens to its own colour, the other players' attach points it takes, the
//! attach points the other players' last moves opened that it answers, and (for a colour's
//! first pieces) how far it reaches toward the middle of the board.

use super::search_position::SearchPosition;

/// Weight of a triangle of the piece placed.
const SIZE: f32 = 2.0;
/// Weight of a new attach point of the colour's own.
const OPENED: f32 = 1.0;
/// Weight of another player's attach point covered.
const TAKEN: f32 = 1.5;
/// Weight of an attach point covered that another player's last move opened (beside
/// [`TAKEN`]).
const LOCAL: f32 = 1.0;
/// Weight of a unit square of distance from the middle while the colour has placed fewer
/// than [`OPENING`] pieces.
const MIDDLE: f32 = 0.5;
/// Pieces after which the middle no longer counts.
const OPENING: usize = 5;
/// Moves whose opened corners are counted: the best by the other features.
const OPENED_FOR: usize = 120;

/// Scratch space and the board's distances to the middle, kept between calls.
pub struct Prior {
    /// Per triangle: its distance (unit squares, along the axes) from the middle.
    middle: Vec<f32>,
    /// Per triangle: the stamp of the placement it belongs to or borders.
    near: Vec<u32>,
    /// Per triangle: the stamp of the placement that counted it as opened.
    counted: Vec<u32>,
    /// Per triangle: whether it is local for the colour valued (see
    /// [`SearchPosition::local_points`]).
    local: Vec<bool>,
    /// The local triangles.
    local_points: Vec<u16>,
    stamp: u32,
}

impl Prior {
    /// The prior of `pos`'s board.
    pub fn new(pos: &SearchPosition) -> Prior {
        let geo = &pos.placements().geo;
        let middle = ((geo.width / 2) as f32 / 2.0, geo.height as f32 / 2.0);
        let n = geo.npoints();
        Prior {
            middle: (0..n as u16)
                .map(|q| {
                    let (x, y) = geo.centre(q);
                    (x - middle.0).abs() + (y - middle.1).abs()
                })
                .collect(),
            near: vec![0; n],
            counted: vec![0; n],
            local: vec![false; n],
            local_points: Vec::new(),
            stamp: 0,
        }
    }

    /// The value of each of colour `c`'s `moves` in `pos`; only the [`OPENED_FOR`] best by
    /// the other features have their opened corners counted (the others get none).
    pub fn values(&mut self, pos: &SearchPosition, c: usize, moves: &[u32]) -> Vec<f32> {
        let p = pos.placements();
        let v = pos.variant();
        let others: Vec<usize> = (0..v.ncolours())
            .filter(|&o| v.player_of(o) != v.player_of(c))
            .collect();
        let opening = pos.placed(c) < OPENING;
        pos.local_points(c, &mut self.local_points);
        for &q in &self.local_points {
            self.local[q as usize] = true;
        }
        let mut values: Vec<f32> = moves
            .iter()
            .map(|&m| {
                let points = p.points(m);
                let taken = (points.iter())
                    .filter(|&&q| others.iter().any(|&o| pos.is_attach(o, q)))
                    .count();
                let local = points.iter().filter(|&&q| self.local[q as usize]).count();
                let mut value =
                    SIZE * points.len() as f32 + TAKEN * taken as f32 + LOCAL * local as f32;
                if opening {
                    let reach = (points.iter())
                        .map(|&q| self.middle[q as usize])
                        .fold(f32::MAX, f32::min);
                    value -= MIDDLE * reach;
                }
                value
            })
            .collect();
        for &q in &self.local_points {
            self.local[q as usize] = false;
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        if order.len() > OPENED_FOR {
            order.select_nth_unstable_by(OPENED_FOR, |&a, &b| {
                values[b].total_cmp(&values[a]).then(a.cmp(&b))
            });
            order.truncate(OPENED_FOR);
        }
        for k in order {
            values[k] += OPENED * self.opened(pos, c, moves[k]) as f32;
        }
        values
    }

    /// The attach points placement `m` would open to colour `c` that it has not yet.
    fn opened(&mut self, pos: &SearchPosition, c: usize, m: u32) -> usize {
        let geo = &pos.placements().geo;
        self.stamp = self.stamp.wrapping_add(1);
        let s = self.stamp;
        let points = pos.placements().points(m);
        for &q in points {
            self.near[q as usize] = s;
            for &a in geo.adj(q) {
                self.near[a as usize] = s;
            }
        }
        let mut opened = 0;
        for &q in points {
            for &d in geo.diag(q) {
                let d = d as usize;
                if self.near[d] != s
                    && self.counted[d] != s
                    && pos.is_free_for(c, d as u16)
                    && !pos.is_attach(c, d as u16)
                {
                    self.counted[d] = s;
                    opened += 1;
                }
            }
        }
        opened
    }
}
