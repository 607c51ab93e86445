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

/// Scratch space, kept between calls.
pub struct Prior {
    /// Per triangle: what covering it is worth beyond its size (another player's attach
    /// point, a local triangle); zero between calls.
    worth: Vec<f32>,
    /// The triangles whose `worth` is set.
    set: Vec<u16>,
    /// The local triangles.
    local_points: Vec<u16>,
}

impl Prior {
    /// The prior of `pos`'s board.
    pub fn new(pos: &SearchPosition) -> Prior {
        let n = pos.placements().geo.npoints();
        Prior {
            worth: vec![0.0; n],
            set: Vec::new(),
            local_points: Vec::new(),
        }
    }

    /// Sets `worth` of the triangles that the other players' colours may still attach to
    /// ([`TAKEN`]) and of the local ones ([`LOCAL`] more).
    fn set_worth(&mut self, pos: &SearchPosition, c: usize) {
        let v = pos.variant();
        for o in (0..v.ncolours()).filter(|&o| v.player_of(o) != v.player_of(c)) {
            for &q in pos.attach_list(o) {
                if pos.is_attach(o, q) && self.worth[q as usize] == 0.0 {
                    self.worth[q as usize] = TAKEN;
                    self.set.push(q);
                }
            }
        }
        pos.local_points(c, &mut self.local_points);
        for &q in &self.local_points {
            if self.worth[q as usize] == 0.0 {
                self.set.push(q);
            }
            self.worth[q as usize] += LOCAL;
        }
    }

    /// The value of each of colour `c`'s `moves` in `pos`; only the [`OPENED_FOR`] best by
    /// the other features have their opened corners counted (the others get none).
    pub fn values(&mut self, pos: &SearchPosition, c: usize, moves: &[u32]) -> Vec<f32> {
        let p = pos.placements();
        let opening = pos.placed(c) < OPENING;
        self.set_worth(pos, c);
        let mut values: Vec<f32> = moves
            .iter()
            .map(|&m| {
                let points = p.points(m);
                let worth: f32 = points.iter().map(|&q| self.worth[q as usize]).sum();
                let mut value = SIZE * points.len() as f32 + worth;
                if opening {
                    value -= MIDDLE * p.middle_distance(m);
                }
                value
            })
            .collect();
        for &q in &self.set {
            self.worth[q as usize] = 0.0;
        }
        self.set.clear();
        let mut order: Vec<usize> = (0..moves.len()).collect();
        if order.len() > OPENED_FOR {
            order.select_nth_unstable_by(OPENED_FOR, |&a, &b| {
                values[b]
                    .total_cmp(&values[a])
                    .then(moves[a].cmp(&moves[b]))
            });
            order.truncate(OPENED_FOR);
        }
        for k in order {
            values[k] += OPENED * Self::opened(pos, c, moves[k]) as f32;
        }
        values
    }

    /// The attach points placement `m` would open to colour `c` that it has not yet.
    fn opened(pos: &SearchPosition, c: usize, m: u32) -> usize {
        (pos.placements().corners(m).iter())
            .filter(|&&d| pos.is_free_for(c, d) && !pos.is_attach(c, d))
            .count()
    }
}
