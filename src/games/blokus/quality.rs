//! Results of finished simulations with quality bonuses: besides win, draw or loss, a bonus for
//! a score above the search's running mean (in standard deviations, squashed) and, for the
//! winner, for a game shorter than usual, so that the search prefers clearer wins and closer
//! losses even when it is sure of the outcome. In two-player games of four colours and in
//! Callisto Two-Player, a small bonus also goes to the player with more live corner points at
//! the end, a trait of the better final position (the reference engine's, mainly for Trigon).

use super::board::Board;

/// Weight of the score bonus (the squashed score deviation lies in -1..1).
const SCORE_WEIGHT: f32 = 0.3;
/// Weight of the game-length bonus.
const LENGTH_WEIGHT: f32 = 0.12;
/// Weight of the live-corner bonus.
const ATTACH_WEIGHT: f32 = 0.1;
/// Steepness of the squashing.
const STEEP: f32 = 2.0;

/// Running mean and variance (Welford).
#[derive(Debug, Clone, Copy, Default)]
struct Stat {
    n: f32,
    mean: f32,
    m2: f32,
}

impl Stat {
    fn add(&mut self, x: f32) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    /// `x` in standard deviations from the mean, squashed into -1..1 (0 without spread yet).
    fn squashed(&self, x: f32) -> f32 {
        let var = if self.n > 1.0 { self.m2 / self.n } else { 0.0 };
        if var <= 0.0 {
            return 0.0;
        }
        let z = (x - self.mean) / var.sqrt();
        -1.0 + 2.0 / (1.0 + (-STEEP * z).exp())
    }
}

/// The running statistics of one search's simulations.
#[derive(Debug, Clone, Default)]
pub struct Quality {
    length: Stat,
    score: [Stat; 4],
    attach: Stat,
}

impl Quality {
    /// The result of the finished game `b` for each player (win 1, draw 0.5, loss 0, ranks in
    /// between with more players) plus the bonuses; two players' results add up to 1.
    pub fn results(&mut self, b: &Board) -> [f32; 4] {
        let pts = b.player_points();
        let mut out = self.scored(&b.player_results(), &pts, b.nmoves());
        if pts.len() == 2 {
            out[0] += self.attach_bonus(b);
            out[1] = 1.0 - out[0];
        }
        out
    }

    /// Each player's result `res` of a finished game (as [`Quality::results`] gives them) plus
    /// the score and length bonuses, from the players' points `pts` and the game's `moves`;
    /// two players' results add up to 1. Any board's games: the bonuses count in standard
    /// deviations, whatever the unit of the points.
    pub fn scored(&mut self, res: &[f32], pts: &[i32], moves: usize) -> [f32; 4] {
        let n = pts.len();
        let len = moves as f32;
        self.length.add(len);
        let len_dev = self.length.squashed(len);
        let mut out = [0.0f32; 4];
        let total: i32 = pts.iter().sum();
        for i in 0..n {
            if n == 2 && i == 1 {
                out[1] = 1.0 - out[0];
                break;
            }
            let score = if n == 2 {
                (pts[0] - pts[1]) as f32
            } else {
                pts[i] as f32 - (total - pts[i]) as f32 / (n - 1) as f32
            };
            self.score[i].add(score);
            out[i] = res[i] - LENGTH_WEIGHT * (res[i] - 0.5) * len_dev
                + SCORE_WEIGHT * self.score[i].squashed(score);
        }
        out
    }

    /// The first player's bonus for more live corner points than the second's at the end of
    /// a two-player game, where it applies (see [`super::board::Variant::rewards_live_corners`]).
    fn attach_bonus(&mut self, b: &Board) -> f32 {
        if !b.variant.rewards_live_corners() {
            return 0.0;
        }
        let lead: i32 = (0..b.ncolours())
            .map(|c| {
                let live = b.live_attach_count(c) as i32;
                if b.player_of(c) == 0 { live } else { -live }
            })
            .sum();
        self.attach.add(lead as f32);
        ATTACH_WEIGHT * self.attach.squashed(lead as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::board::Variant;

    #[test]
    fn bonus_follows_the_score_and_keeps_two_players_zero_sum() {
        let mut q = Quality::default();
        let t = Variant::Duo.tables();
        let mut b = Board::new(Variant::Duo);
        let first = q.results(&b);
        assert_eq!(&first[..2], &[0.5, 0.5], "no spread yet, no bonus");
        b.play(0, t.parse_move("e10").unwrap());
        let ahead = q.results(&b);
        assert!(ahead[0] > 1.0 && (ahead[0] + ahead[1] - 1.0).abs() < 1e-6);
        b.play(1, t.parse_move("j5").unwrap());
        let level = q.results(&b);
        assert!(level[0] < 0.5, "a draw below the mean margin");
    }

    /// The difference between the first player's live-corner bonuses after the second and
    /// the first of two opening moves (after the empty board, to give the statistics spread).
    fn attach_effect(v: Variant, first: u16, second: u16) -> f32 {
        let mut q = Quality::default();
        let start = Board::new(v);
        q.attach_bonus(&start);
        let mut bonus = |m: u16| {
            let mut b = start.clone();
            let c = b.skip_to_mover().unwrap();
            b.play(c, m);
            q.attach_bonus(&b)
        };
        let a = bonus(first);
        bonus(second) - a
    }

    #[test]
    fn more_live_corners_earn_a_bonus_where_the_rule_applies() {
        let t = Variant::Trigon2.tables();
        let mut b = Board::new(Variant::Trigon2);
        let c = b.skip_to_mover().unwrap();
        let (mut mg, mut moves) = (crate::games::blokus::board::MoveGen::new(t), Vec::new());
        b.gen_moves(c, &mut mg, &mut moves);
        // The first piece with the fewest and the most corner points.
        let corners = |m: u16| {
            let mut after = b.clone();
            after.play(c, m);
            after.live_attach_count(c)
        };
        let few = *moves.iter().min_by_key(|&&m| corners(m)).unwrap();
        let many = *moves.iter().max_by_key(|&&m| corners(m)).unwrap();
        assert!(corners(few) < corners(many));
        let d = attach_effect(Variant::Trigon2, few, many);
        assert!(d > 0.0, "more live corners, a larger bonus: {d}");
        let duo = Variant::Duo.tables();
        let (e10, x) = (duo.parse_move("e10"), duo.parse_move("e11,d10,e10,f10,e9"));
        assert_eq!(attach_effect(Variant::Duo, e10.unwrap(), x.unwrap()), 0.0);
    }
}
