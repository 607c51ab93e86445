//! Which pieces the search looks at early in the game, in the tree and in the playouts alike:
//! the large pieces first, then smaller ones round by round (a round is a move of every
//! colour). As the reference engine plays them: on the Trigon boards a colour's first piece is
//! the bar (`I6`) or the wide chevron (`V`), and the hexagon (`O`), which neither reaches far
//! nor blocks, waits until the opening is over; on the Classic board the first piece is the
//! `V5` or the `Z5`, and the pentominoes that close up on themselves or stand out (`F`, `P`,
//! `T5`, `U`, `X`) wait a round or two. Where the starting points are shared (Trigon), a
//! colour's first piece goes to the free starting point farthest from the taken ones, and the
//! opening's first pieces head for the centre.

use super::board::Board;
use super::geometry::Grid;
use super::tables::Tables;

/// The opening's moves (all colours) whose pieces head for the centre on the Trigon boards.
const CENTRE_MOVES: usize = 4;
/// How much farther from the centre than the nearest candidate a first piece may reach, in
/// triangle sides.
const CENTRE_SLACK: f32 = 0.25;

/// The pieces considered in each opening round (a bit per piece); later rounds consider all.
pub struct Considered {
    /// Games of two colours (Duo, Junior, Callisto Two-Player).
    two_colours: Vec<u32>,
    /// Games of three or four colours.
    more_colours: Vec<u32>,
    all: u32,
}

impl Considered {
    /// The rounds of the piece set of `t`.
    pub fn new(t: &Tables) -> Considered {
        let all = if t.npieces() >= 32 {
            u32::MAX
        } else {
            (1u32 << t.npieces()) - 1
        };
        let at_least = |size: usize| -> u32 {
            (t.shapes.iter().enumerate())
                .filter(|(_, s)| s.cells.len() >= size)
                .fold(0, |mask, (k, _)| mask | 1 << k)
        };
        let named = |names: &[&str]| -> u32 {
            (t.shapes.iter().enumerate())
                .filter(|(_, s)| names.contains(&s.name))
                .fold(0, |mask, (k, _)| mask | 1 << k)
        };
        // Rounds per smallest size: the sizes of `rounds[i].0` or more until round
        // `rounds[i].1`.
        let by_size = |rounds: &[(usize, usize)]| -> Vec<u32> {
            let mut out = Vec::new();
            for &(size, until) in rounds {
                out.resize(until.max(out.len()), at_least(size));
            }
            out
        };
        match t.geo.grid {
            Grid::Square => {
                let mut more_colours = by_size(&[(5, 3), (4, 5), (3, 7)]);
                if named(&["V5", "Z5"]).count_ones() == 2 {
                    // The classic pieces on the big board: the first piece a V or a Z
                    // pentomino, then no pentominoes that close up or stand out.
                    more_colours[0] = named(&["V5", "Z5"]);
                    more_colours[1] &= !named(&["F", "P", "T5", "U", "X"]);
                    more_colours[2] &= !named(&["P", "U"]);
                }
                Considered {
                    two_colours: by_size(&[(5, 2), (4, 3), (3, 5)]),
                    more_colours,
                    all,
                }
            }
            // Nexos and GembloQ (whose pieces no placement table holds): every piece from
            // the start (no opening schedule measured yet).
            Grid::Segment | Grid::RightTriangle => Considered {
                two_colours: Vec::new(),
                more_colours: Vec::new(),
                all,
            },
            Grid::Triangle => {
                let mut rounds = by_size(&[(6, 4), (5, 5), (4, 7), (3, 9)]);
                for mask in &mut rounds[..4] {
                    *mask &= !named(&["O"]);
                }
                rounds[0] = named(&["I6", "V"]);
                Considered {
                    two_colours: rounds.clone(),
                    more_colours: rounds,
                    all,
                }
            }
        }
    }

    /// The pieces considered after `moves` moves of a game of `nc` colours.
    pub fn at(&self, moves: usize, nc: usize) -> u32 {
        let rounds = if nc <= 2 {
            &self.two_colours
        } else {
            &self.more_colours
        };
        rounds.get(moves / nc.max(1)).copied().unwrap_or(self.all)
    }

    /// Every piece.
    pub fn all(&self) -> u32 {
        self.all
    }
}

/// Where colour `c` places its first piece on boards whose starting points are shared
/// (Trigon): the free starting point farthest from the taken ones, those of its own player
/// counting double. `None` on other boards and once the colour has a piece.
pub fn first_piece_start(b: &Board, c: usize) -> Option<u16> {
    if !b.variant.shared_starts() || !b.is_first_piece(c) {
        return None;
    }
    let geo = &b.tables().geo;
    let starts = b.variant.starts(c);
    let me = b.player_of(c);
    let mut best = None;
    let mut farthest = f32::NEG_INFINITY;
    for &p in &starts {
        if !b.is_free_for(c, p as usize) {
            continue;
        }
        let (x, y) = geo.centre(p);
        let spread: f32 = (starts.iter())
            .filter_map(|&q| b.owner(q as usize).map(|o| (q, o)))
            .map(|(q, o)| {
                let (qx, qy) = geo.centre(q);
                let weight = if b.player_of(o) == me { 2.0 } else { 1.0 };
                weight * ((qx - x).powi(2) + (qy - y).powi(2)).sqrt()
            })
            .sum();
        if spread > farthest {
            best = Some(p);
            farthest = spread;
        }
    }
    best
}

/// Whether the search tree's children at `b` (colour `c` to move) are exactly the moves a
/// playout list of colour `c` holds there, in the same order: not so for a first piece on
/// shared starting points (one starting point) or while the opening heads for the centre.
pub fn tree_moves_are_playout_moves(b: &Board, c: usize) -> bool {
    !(b.variant.shared_starts() && (b.is_first_piece(c) || b.nmoves() < CENTRE_MOVES))
}

/// Keeps, among the moves of the opening's first pieces on the Trigon boards, those that come
/// nearest the centre of the board (within a quarter of a triangle side); elsewhere and later, all.
pub fn keep_central(b: &Board, moves: &mut Vec<u16>) {
    if !b.variant.shared_starts() || b.nmoves() >= CENTRE_MOVES {
        return;
    }
    let t = b.tables();
    let n = t.geo.npoints() as u16;
    let (sx, sy) = (0..n)
        .map(|p| t.geo.centre(p))
        .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
    let (cx, cy) = (sx / n as f32, sy / n as f32);
    let reach = |m: u16| {
        (t.moves[m as usize].points().iter())
            .map(|&p| {
                let (x, y) = t.geo.centre(p);
                ((x - cx).powi(2) + (y - cy).powi(2)).sqrt()
            })
            .fold(f32::INFINITY, f32::min)
    };
    let nearest = moves
        .iter()
        .map(|&m| reach(m))
        .fold(f32::INFINITY, f32::min);
    moves.retain(|&m| reach(m) <= nearest + CENTRE_SLACK);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::{MoveGen, Variant};

    fn names(t: &Tables, mask: u32) -> Vec<&'static str> {
        (t.shapes.iter().enumerate())
            .filter(|(k, _)| mask >> k & 1 != 0)
            .map(|(_, s)| s.name)
            .collect()
    }

    #[test]
    fn trigon_opens_with_the_bar_or_the_chevron_and_keeps_the_hexagon_back() {
        let t = Variant::Trigon.tables();
        let c = Considered::new(t);
        assert_eq!(names(t, c.at(3, 4)), ["I6", "V"]);
        let second = names(t, c.at(4, 4));
        assert_eq!(
            second,
            ["I6", "L6", "V", "S", "P6", "F", "W", "A6", "G", "Y", "X"]
        );
        assert_eq!(names(t, c.at(15, 4)), second, "the fourth round");
        assert!(names(t, c.at(16, 4)).contains(&"O"));
        assert!(names(t, c.at(16, 4)).contains(&"I5"));
        assert!(!names(t, c.at(16, 4)).contains(&"I4"));
        // Three colours: the rounds are shorter.
        assert_eq!(names(t, c.at(3, 3)), second);
        assert_eq!(c.at(36, 4), c.all());
    }

    #[test]
    fn square_boards_consider_sizes_by_round() {
        let t = Variant::Duo.tables();
        let c = Considered::new(t);
        assert!(names(t, c.at(3, 2)).iter().all(|n| !n.ends_with('4')));
        assert!(names(t, c.at(4, 2)).contains(&"L4"));
        assert!(!names(t, c.at(4, 2)).contains(&"I3"));
        assert_eq!(c.at(10, 2), c.all());
        let t = Variant::Classic.tables();
        let c = Considered::new(t);
        assert_eq!(names(t, c.at(3, 4)), ["V5", "Z5"]);
        assert_eq!(
            names(t, c.at(4, 4)),
            ["I5", "L5", "N", "V5", "W", "Y", "Z5"]
        );
        assert_eq!(
            names(t, c.at(11, 4)).len(),
            10,
            "no P or U in the third round"
        );
        assert_eq!(
            names(t, c.at(12, 4)).len(),
            12 + 5,
            "the pentominoes and tetrominoes"
        );
        // Three colours: the first round is three moves.
        assert_eq!(names(t, c.at(2, 3)), ["V5", "Z5"]);
        assert_eq!(c.at(28, 4), c.all());
    }

    #[test]
    fn a_trigon_colour_starts_far_from_the_others_and_heads_for_the_centre() {
        let v = Variant::Trigon2;
        let t = v.tables();
        let mut b = Board::new(v);
        let first = first_piece_start(&b, 0).expect("a free start");
        let mut moves = Vec::new();
        b.gen_moves(0, &mut MoveGen::new(t), &mut moves);
        moves.retain(|&m| t.moves[m as usize].points().contains(&first));
        let before = moves.len();
        keep_central(&b, &mut moves);
        assert!(
            !moves.is_empty() && moves.len() < before,
            "{} of {before}",
            moves.len()
        );
        b.play(0, moves[0]);
        assert_eq!(first_piece_start(&b, 0), None, "placed");
        // Colour 2 is blue's partner: its start is the farthest from blue's (counted double).
        let far = first_piece_start(&b, 2).expect("free starts left");
        let d = |p: u16| {
            let ((x, y), (fx, fy)) = (t.geo.centre(p), t.geo.centre(first));
            ((x - fx).powi(2) + (y - fy).powi(2)).sqrt()
        };
        for s in v.starts(2) {
            assert!(d(s) <= d(far) + 1e-4, "{} is farther", t.geo.point_name(s));
        }
        assert_eq!(first_piece_start(&Board::new(Variant::Duo), 0), None);
    }
}
