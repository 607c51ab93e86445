//! Game-independent parameter tuning: separable CMA-ES (Ros and Hansen, 2008), the evolution
//! strategy with a diagonal covariance, for noisy objectives over a few dozen parameters.
//!
//! The caller asks for a population, scores it (higher is better) and hands the scores back:
//! ```text
//! let mut es = SepCma::new(start, sigma, seed);
//! loop { let xs = es.ask(); let scores = evaluate(&xs); es.tell(&xs, &scores); }
//! ```
//! Coordinates are the caller's: scale parameters so that one unit is a sensible first step.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The state of a separable CMA-ES run.
#[derive(Debug, Clone)]
pub struct SepCma {
    mean: Vec<f64>,
    sigma: f64,
    /// The diagonal of the covariance.
    diag: Vec<f64>,
    path_sigma: Vec<f64>,
    path_c: Vec<f64>,
    generation: u64,
    lambda: usize,
    weights: Vec<f64>,
    mu_eff: f64,
    c_sigma: f64,
    d_sigma: f64,
    c_c: f64,
    c_1: f64,
    c_mu: f64,
    /// The expected length of an n-dimensional standard normal vector.
    chi_n: f64,
    rng: SmallRng,
}

impl SepCma {
    /// A run starting at `mean` with step `sigma` and the default population (4 + 3 ln n).
    pub fn new(mean: Vec<f64>, sigma: f64, seed: u64) -> SepCma {
        let n = mean.len().max(1) as f64;
        let lambda = 4 + (3.0 * n.ln()).floor() as usize;
        Self::with_population(mean, sigma, lambda, seed)
    }

    /// A run with a population of `lambda` (at least 4).
    pub fn with_population(mean: Vec<f64>, sigma: f64, lambda: usize, seed: u64) -> SepCma {
        let lambda = lambda.max(4);
        let n = mean.len().max(1) as f64;
        let mu = lambda / 2;
        let raw: Vec<f64> = (0..mu)
            .map(|i| ((mu as f64) + 0.5).ln() - ((i + 1) as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let c_sigma = (mu_eff + 2.0) / (n + mu_eff + 5.0);
        let d_sigma = 1.0 + 2.0 * (((mu_eff - 1.0) / (n + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma;
        let c_c = (4.0 + mu_eff / n) / (n + 4.0 + 2.0 * mu_eff / n);
        // The separable variant learns the diagonal (n + 2) / 3 times faster.
        let speed = (n + 2.0) / 3.0;
        let c_1 = (2.0 / ((n + 1.3).powi(2) + mu_eff) * speed).min(1.0);
        let c_mu = (2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((n + 2.0).powi(2) + mu_eff) * speed)
            .min(1.0 - c_1);
        let chi_n = n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
        let dim = mean.len();
        SepCma {
            mean,
            sigma,
            diag: vec![1.0; dim],
            path_sigma: vec![0.0; dim],
            path_c: vec![0.0; dim],
            generation: 0,
            lambda,
            weights,
            mu_eff,
            c_sigma,
            d_sigma,
            c_c,
            c_1,
            c_mu,
            chi_n,
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    /// The current mean: the best estimate of the optimum.
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// The current overall step size.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The current step size of each coordinate.
    pub fn steps(&self) -> Vec<f64> {
        self.diag.iter().map(|d| self.sigma * d.sqrt()).collect()
    }

    /// Generations told so far.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Samples a population around the mean.
    pub fn ask(&mut self) -> Vec<Vec<f64>> {
        (0..self.lambda)
            .map(|_| {
                self.mean
                    .iter()
                    .zip(&self.diag)
                    .map(|(m, d)| m + self.sigma * d.sqrt() * normal(&mut self.rng))
                    .collect()
            })
            .collect()
    }

    /// Updates the distribution from the population `xs` (as asked, possibly clamped by the
    /// caller) and their scores, higher better.
    pub fn tell(&mut self, xs: &[Vec<f64>], scores: &[f64]) {
        assert_eq!(xs.len(), scores.len(), "one score per point");
        let mut order: Vec<usize> = (0..xs.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let n = self.mean.len();
        let steps: Vec<Vec<f64>> = order
            .iter()
            .take(self.weights.len())
            .map(|&i| {
                (0..n)
                    .map(|k| (xs[i][k] - self.mean[k]) / self.sigma)
                    .collect()
            })
            .collect();
        let shift: Vec<f64> = (0..n)
            .map(|k| self.weights.iter().zip(&steps).map(|(w, y)| w * y[k]).sum())
            .collect();
        for (m, s) in self.mean.iter_mut().zip(&shift) {
            *m += self.sigma * s;
        }
        let scale = (self.c_sigma * (2.0 - self.c_sigma) * self.mu_eff).sqrt();
        for ((p, s), d) in self.path_sigma.iter_mut().zip(&shift).zip(&self.diag) {
            *p = (1.0 - self.c_sigma) * *p + scale * s / d.sqrt();
        }
        let norm = self.path_sigma.iter().map(|p| p * p).sum::<f64>().sqrt();
        self.generation += 1;
        let decay = 1.0 - (1.0 - self.c_sigma).powi(2 * self.generation as i32);
        let h_sigma = norm / decay.sqrt() < (1.4 + 2.0 / (n as f64 + 1.0)) * self.chi_n;
        let scale_c = (self.c_c * (2.0 - self.c_c) * self.mu_eff).sqrt();
        for (k, s) in shift.iter().enumerate() {
            self.path_c[k] =
                (1.0 - self.c_c) * self.path_c[k] + if h_sigma { scale_c * s } else { 0.0 };
            let rank_mu: f64 = self
                .weights
                .iter()
                .zip(&steps)
                .map(|(w, y)| w * y[k] * y[k])
                .sum();
            self.diag[k] = (1.0 - self.c_1 - self.c_mu) * self.diag[k]
                + self.c_1 * self.path_c[k] * self.path_c[k]
                + self.c_mu * rank_mu;
        }
        self.sigma *= ((self.c_sigma / self.d_sigma) * (norm / self.chi_n - 1.0)).exp();
    }
}

/// A standard normal sample (Box-Muller).
fn normal(rng: &mut SmallRng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>();
    let v: f64 = rng.random::<f64>();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shifted, badly scaled sphere: the minimum is at (1, 2, ..., n).
    fn score(x: &[f64]) -> f64 {
        -x.iter()
            .enumerate()
            .map(|(i, v)| {
                let d = v - (i + 1) as f64;
                d * d * (1.0 + 9.0 * (i % 2) as f64)
            })
            .sum::<f64>()
    }

    #[test]
    fn finds_the_minimum_of_a_scaled_sphere() {
        let mut es = SepCma::new(vec![0.0; 8], 1.0, 7);
        for _ in 0..300 {
            let xs = es.ask();
            let scores: Vec<f64> = xs.iter().map(|x| score(x)).collect();
            es.tell(&xs, &scores);
        }
        for (i, m) in es.mean().iter().enumerate() {
            assert!((m - (i + 1) as f64).abs() < 1e-3, "coordinate {i} at {m}");
        }
        assert!(es.sigma() < 0.01, "the step shrinks at the optimum");
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let run = |seed| {
            let mut es = SepCma::new(vec![0.5; 5], 0.3, seed);
            for _ in 0..20 {
                let xs = es.ask();
                let scores: Vec<f64> = xs.iter().map(|x| score(x)).collect();
                es.tell(&xs, &scores);
            }
            es.mean().to_vec()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }
}
