//! Results of finished simulations with quality bonuses: besides win, draw or loss, a bonus for
//! a score above the search's running mean (in standard deviations, squashed) and, for the
//! winner, for a game shorter than usual, so that the search prefers clearer wins and closer
//! losses even when it is sure of the outcome.

use super::board::Board;

/// Weight of the score bonus (the squashed score deviation lies in -1..1).
const SCORE_WEIGHT: f32 = 0.3;
/// Weight of the game-length bonus.
const LENGTH_WEIGHT: f32 = 0.12;
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
}

impl Quality {
    /// The result of the finished game `b` for each player (win 1, draw 0.5, loss 0, ranks in
    /// between with more players) plus the bonuses; two players' results add up to 1.
    pub fn results(&mut self, b: &Board) -> [f32; 4] {
        let res = b.player_results();
        let pts = b.player_points();
        let n = pts.len();
        let len = b.nmoves() as f32;
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
}
