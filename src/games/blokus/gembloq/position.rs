//! A GembloQ position and its rules, as the reference engine's `play` applies them: a piece
//! covers only free triangles, never shares an edge with its own colour and touches it at a
//! corner; a colour's first piece covers all four triangles of its starting square. Points:
//! a quarter for each triangle covered (a square of four scores 1), no bonus.

use super::placements::{PIECES, Placements};
use super::variant::GembloqVariant;

/// Most colours.
const COLOURS: usize = 4;

/// A position: who covers what, which triangles each colour may not cover, pieces left.
#[derive(Clone)]
pub struct Position {
    variant: GembloqVariant,
    p: &'static Placements,
    /// Per triangle: 0 free, else the colour covering it + 1.
    owner: Vec<u8>,
    /// Per triangle, bit `c`: colour `c` may not cover it (covered, or beside `c`).
    forbidden: Vec<u8>,
    /// Per colour and piece: whether the colour still has it.
    left: [[bool; PIECES]; COLOURS],
    /// Per colour: the triangles it covers.
    covered: [Vec<u16>; COLOURS],
    to_play: usize,
}

/// Why a move is illegal, as a message.
pub type Refusal = String;

impl Position {
    /// The empty board of `variant`, the first colour to play.
    pub fn new(variant: GembloqVariant) -> Position {
        let p = variant.placements();
        Position {
            variant,
            p,
            owner: vec![0; p.geo.npoints()],
            forbidden: vec![0; p.geo.npoints()],
            left: [[true; PIECES]; COLOURS],
            covered: Default::default(),
            to_play: 0,
        }
    }

    /// The variant.
    pub fn variant(&self) -> GembloqVariant {
        self.variant
    }

    /// The placements of the board.
    pub fn placements(&self) -> &'static Placements {
        self.p
    }

    /// The colour covering triangle `q`, if any.
    pub fn owner(&self, q: u16) -> Option<usize> {
        self.owner[q as usize].checked_sub(1).map(usize::from)
    }

    /// Whether colour `c` still has piece `k`.
    pub fn has_piece(&self, c: usize, k: usize) -> bool {
        self.left[c][k]
    }

    /// Whether colour `c` has placed no piece yet.
    pub fn is_first_piece(&self, c: usize) -> bool {
        self.covered[c].is_empty()
    }

    /// Whether colour `c` may cover triangle `q` (free and not beside its own pieces).
    #[inline]
    pub fn is_free_for(&self, c: usize, q: u16) -> bool {
        self.forbidden[q as usize] >> c & 1 == 0
    }

    /// Colour `c`'s attach points: triangles it may cover that touch it at a corner.
    pub fn attach_points(&self, c: usize) -> Vec<u16> {
        let geo = &self.p.geo;
        let mut seen = vec![false; geo.npoints()];
        let mut out = Vec::new();
        for &q in &self.covered[c] {
            for &d in geo.diag(q) {
                if self.is_free_for(c, d) && !seen[d as usize] {
                    seen[d as usize] = true;
                    out.push(d);
                }
            }
        }
        out
    }

    /// Every legal placement of colour `c`, in id order.
    pub fn legal(&self, c: usize) -> Vec<u32> {
        let mut out = Vec::new();
        if self.is_first_piece(c) {
            let starts = self.variant.starts(c);
            for &m in self.p.covering(starts[0]) {
                if self.fits(c, m) && starts.iter().all(|s| self.p.points(m).contains(s)) {
                    out.push(m);
                }
            }
            return out;
        }
        let mut seen = vec![false; self.p.len()];
        for a in self.attach_points(c) {
            for &m in self.p.covering(a) {
                if !seen[m as usize] {
                    seen[m as usize] = true;
                    if self.fits(c, m) {
                        out.push(m);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Whether colour `c` has a legal placement.
    pub fn has_moves(&self, c: usize) -> bool {
        if self.is_first_piece(c) {
            return !self.legal(c).is_empty();
        }
        (self.attach_points(c).into_iter())
            .any(|a| self.p.covering(a).iter().any(|&m| self.fits(c, m)))
    }

    /// Whether placement `m` has a piece colour `c` still has and covers only triangles `c`
    /// may cover.
    fn fits(&self, c: usize, m: u32) -> bool {
        self.left[c][self.p.piece(m)] && self.p.points(m).iter().all(|&q| self.is_free_for(c, q))
    }

    /// `Ok` if colour `c` may play placement `m`, else why not.
    pub fn check(&self, c: usize, m: u32) -> Result<(), Refusal> {
        let name = self.variant.colour_names()[c];
        if !self.left[c][self.p.piece(m)] {
            let piece = self.p.shapes[self.p.piece(m)].name;
            return Err(format!("{name} has no piece {piece} left"));
        }
        if !self.p.points(m).iter().all(|&q| self.is_free_for(c, q)) {
            return Err(format!(
                "the piece covers a taken triangle or touches {name} along an edge"
            ));
        }
        let points = self.p.points(m);
        if self.is_first_piece(c) {
            if !self.variant.starts(c).iter().all(|s| points.contains(s)) {
                return Err(format!(
                    "{name}'s first piece must cover all four triangles of its starting square"
                ));
            }
        } else {
            let geo = &self.p.geo;
            let touches =
                (points.iter()).any(|&q| geo.diag(q).iter().any(|&d| self.owner(d) == Some(c)));
            if !touches {
                return Err(format!("the piece does not touch {name} at a corner"));
            }
        }
        Ok(())
    }

    /// Plays placement `m` for colour `c` (checked by [`Position::check`] before); the next
    /// colour in order is to play.
    pub fn play(&mut self, c: usize, m: u32) {
        let p = self.p;
        for &q in p.points(m) {
            self.owner[q as usize] = c as u8 + 1;
            self.forbidden[q as usize] = u8::MAX;
            for &a in p.geo.adj(q) {
                self.forbidden[a as usize] |= 1 << c;
            }
            self.covered[c].push(q);
        }
        self.left[c][p.piece(m)] = false;
        self.to_play = (c + 1) % self.variant.ncolours();
    }

    /// The colour that moves next: the colour in turn or the next in order with a legal move;
    /// `None` once no colour can move (the game is over).
    pub fn next_mover(&self) -> Option<usize> {
        let n = self.variant.ncolours();
        (0..n)
            .map(|k| (self.to_play + k) % n)
            .find(|&c| self.has_moves(c))
    }

    /// Colour `c`'s points in quarters: one for each triangle it covers (a square of four
    /// triangles scores one point).
    pub fn quarters(&self, c: usize) -> i32 {
        self.covered[c].len() as i32
    }

    /// Each player's points in quarters (Two-Player Four-Color: colours 1+3 and 2+4).
    pub fn player_quarters(&self) -> Vec<i32> {
        let v = self.variant;
        let mut out = vec![0; v.nplayers()];
        for c in 0..v.ncolours() {
            out[v.player_of(c)] += self.quarters(c);
        }
        out
    }

    /// The board as text rows from the top: `.` free, `1`..`4` a colour, a space off the
    /// board.
    pub fn rows(&self) -> Vec<String> {
        let geo = &self.p.geo;
        (0..geo.height)
            .rev()
            .map(|y| {
                (0..geo.width)
                    .map(|x| match geo.point(x as i32, y as i32) {
                        None => ' ',
                        Some(q) => self.owner(q).map_or('.', |c| char::from(b'1' + c as u8)),
                    })
                    .collect()
            })
            .collect()
    }
}

/// Points in quarters as the reference engine writes them: `7`, `7.25`, `7.5`, `7.75`.
pub fn quarters_text(q: i32) -> String {
    let sign = if q < 0 { "-" } else { "" };
    let q = q.unsigned_abs();
    let frac = ["", ".25", ".5", ".75"][(q % 4) as usize];
    format!("{sign}{}{frac}", q / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference engine's counts: placements on each board, and the first moves its
    /// `play` accepts (pieces covering all four triangles of a colour's starting square).
    #[test]
    fn placements_and_first_moves_as_the_reference_engine_counts_them() {
        for (v, placements, first) in [
            (GembloqVariant::Two, 15_018, &[82, 82][..]),
            (GembloqVariant::Four, 31_254, &[36, 36, 36, 36][..]),
            (GembloqVariant::Three, 23_518, &[112, 82, 82][..]),
        ] {
            assert_eq!(v.placements().len(), placements, "{v:?}");
            let pos = Position::new(v);
            let counts: Vec<usize> = (0..v.ncolours()).map(|c| pos.legal(c).len()).collect();
            assert_eq!(counts, first, "{v:?}");
        }
    }

    #[test]
    fn corners_edges_and_quarter_points() {
        let mut pos = Position::new(GembloqVariant::Two);
        let p = pos.placements();
        // Blue's square piece on its starting square: four triangles, one point.
        let square = p.parse("n21,o21,n22,o22").unwrap();
        // Two of the starting square's four triangles only (the reference engine's
        // `all_legal` lists it, its `play` refuses it).
        let half = p
            .parse("p18,q18,p19,q19,r19,s19,p20,q20,r20,s20,o21,p21,q21,o22")
            .unwrap();
        assert!(pos.check(0, half).unwrap_err().contains("all four"));
        pos.play(0, square);
        assert_eq!(quarters_text(pos.quarters(0)), "1");
        assert!(pos.check(0, square).is_err(), "covered");
        // A piece of one and a half squares beside it shares an edge with it; below it, it
        // touches it at a corner.
        assert!(
            pos.check(0, p.parse("n20,o20,n19,o19,l20,m20").unwrap())
                .is_ok()
        );
        let along = p.parse("l20,m20,n20,o20,l21,m21").unwrap();
        let e = pos.check(0, along).unwrap_err();
        assert!(e.contains("along an edge"), "{e}");
        let legal = pos.legal(0);
        assert!(!legal.is_empty() && legal.iter().all(|&m| pos.check(0, m).is_ok()));
        assert_eq!(quarters_text(-6), "-1.5");
        assert_eq!(quarters_text(29), "7.25");
    }
}
