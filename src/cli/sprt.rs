//! Match statistics: score with a 95% interval, Elo difference, and the sequential probability
//! ratio test (the normal approximation of the generalised SPRT used by chess engine testing)
//! that stops a match once a change is proven better or worse.

/// Wins, draws and losses of one side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// Expected score of a side `elo` points stronger.
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score (clamped away from 0 and 1).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (win 1, draw 1/2) and its per-game variance.
    fn mean_and_variance(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let (w, d) = (self.wins as f64 / n, self.draws as f64 / n);
        let mean = w + d / 2.0;
        (mean, w + d / 4.0 - mean * mean)
    }

    /// Mean score and its 95% interval.
    pub fn score(&self) -> (f64, f64, f64) {
        let (mean, variance) = self.mean_and_variance();
        let half = 1.96 * (variance.max(0.0) / self.games().max(1) as f64).sqrt();
        (mean, (mean - half).max(0.0), (mean + half).min(1.0))
    }

    /// One line: `W-D-L, score 61.2% (95% 52.0-70.4), Elo +79 (+14 .. +151)`.
    pub fn summary(&self) -> String {
        let (mean, low, high) = self.score();
        format!(
            "{}-{}-{}, score {:.1}% (95% {:.1}-{:.1}), Elo {:+.0} ({:+.0} .. {:+.0})",
            self.wins,
            self.draws,
            self.losses,
            100.0 * mean,
            100.0 * low,
            100.0 * high,
            elo(mean),
            elo(low),
            elo(high)
        )
    }
}

/// An SPRT of H0 "Elo = elo0" against H1 "Elo = elo1".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where a running SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the change is better by about elo1.
    Better,
    /// H0 accepted: it is not better by elo1.
    NotBetter,
    /// More games needed.
    Continue,
}

impl Sprt {
    /// `elo0,elo1` with alpha = beta = 0.05.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--sprt needs ELO0,ELO1, got '{text}'"))?;
        match parts[..] {
            [elo0, elo1] if elo1 > elo0 => Ok(Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            }),
            _ => Err(format!(
                "--sprt needs ELO0,ELO1 with ELO0 < ELO1, got '{text}'"
            )),
        }
    }

    /// The log-likelihood ratio of the results so far.
    pub fn llr(&self, tally: &Tally) -> f64 {
        let (mean, variance) = tally.mean_and_variance();
        if tally.games() == 0 || variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected(self.elo0), expected(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) * tally.games() as f64 / (2.0 * variance)
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for the results so far.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = self.llr(tally);
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::Better
        } else if llr <= low {
            Verdict::NotBetter
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_and_elo() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (mean, low, high) = even.score();
        assert!((mean - 0.5).abs() < 1e-9 && low < 0.5 && high > 0.5);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert!(even.summary().starts_with("10-0-10, score 50.0%"));
    }

    #[test]
    fn sprt_accepts_a_clear_winner_and_rejects_a_loser() {
        let sprt = Sprt::parse("0,50").unwrap();
        let (low, high) = sprt.bounds();
        assert!((high - 2.944).abs() < 0.01 && (low + 2.944).abs() < 0.01);
        let strong = Tally {
            wins: 70,
            draws: 10,
            losses: 20,
        };
        assert_eq!(sprt.verdict(&strong), Verdict::Better);
        let weak = Tally {
            wins: 35,
            draws: 10,
            losses: 55,
        };
        assert_eq!(sprt.verdict(&weak), Verdict::NotBetter);
        let early = Tally {
            wins: 3,
            draws: 0,
            losses: 2,
        };
        assert_eq!(sprt.verdict(&early), Verdict::Continue);
        assert!(Sprt::parse("5,0").is_err() && Sprt::parse("x").is_err());
    }
}
