//! Conditional Poisson regression: within each group of alternatives, how a non-negative
//! outcome (a count or a rate) is shared among them, as `exp(c·x)` of each one's inputs.
//!
//! Used to learn an evaluation from experiments: at a decision, each alternative is played on
//! from the same deals and its danger measured; only the differences inside a group say which
//! inputs make an alternative worse, so whatever the groups share (how crowded the position
//! was, how hard its deals) cannot bias the coefficients. The fit maximizes the multinomial
//! likelihood of the shares (the Poisson likelihood given each group's total) by Newton's
//! method, with a ridge penalty on the coefficients of the standardized inputs.

/// The alternatives of one decision: `p` inputs per alternative (row-major) and the outcome of
/// each.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Inputs, `p` per alternative.
    pub x: Vec<f64>,
    /// Outcomes, one per alternative, not negative.
    pub y: Vec<f64>,
}

/// A fitted model, in the units of the inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareFit {
    /// One coefficient per input; 0 for an input that never differs inside a group.
    pub coef: Vec<f64>,
    /// Mean log-likelihood of the outcomes' shares per unit of outcome (0 is a perfect fit).
    pub log_likelihood: f64,
    /// Newton steps taken.
    pub steps: usize,
}

/// Fits the coefficients. `ridge[j]` is the penalty per squared coefficient of input `j` in
/// units of its spread inside the groups, per unit of total outcome.
pub fn fit_shares(groups: &[Group], p: usize, ridge: &[f64]) -> ShareFit {
    assert_eq!(ridge.len(), p);
    let groups: Vec<&Group> = groups
        .iter()
        .filter(|g| g.y.len() > 1 && g.y.iter().sum::<f64>() > 0.0)
        .collect();
    for g in &groups {
        assert_eq!(g.x.len(), g.y.len() * p, "p inputs per alternative");
    }
    let total: f64 = groups.iter().flat_map(|g| &g.y).sum();
    let sd = spread_within(&groups, p);
    let used: Vec<usize> = (0..p).filter(|&j| sd[j] > 1e-12).collect();
    let k = used.len();
    let z = |g: &Group, c: usize, slot: usize| g.x[c * p + used[slot]] / sd[used[slot]];
    // Minus the log-likelihood per unit of outcome, plus the penalty; and its derivatives.
    let assess = |beta: &[f64], derivatives: bool| {
        let mut loss = 0.0;
        let mut grad = vec![0.0; k];
        let mut hess = vec![0.0; if derivatives { k * k } else { 0 }];
        let mut eta = Vec::new();
        let mut mean = vec![0.0; k];
        for g in &groups {
            let n = g.y.len();
            eta.clear();
            eta.extend((0..n).map(|c| (0..k).map(|s| beta[s] * z(g, c, s)).sum::<f64>()));
            let top = eta.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = eta.iter().map(|e| (e - top).exp()).sum();
            let log_sum = top + sum.ln();
            let y_total: f64 = g.y.iter().sum();
            loss -= (0..n).map(|c| g.y[c] * (eta[c] - log_sum)).sum::<f64>();
            if !derivatives {
                continue;
            }
            mean.iter_mut().for_each(|m| *m = 0.0);
            for (c, e) in eta.iter().enumerate() {
                let share = (e - log_sum).exp();
                for s in 0..k {
                    let v = z(g, c, s);
                    mean[s] += share * v;
                    grad[s] -= g.y[c] * v;
                }
                for a in 0..k {
                    let va = z(g, c, a);
                    for b in 0..=a {
                        hess[a * k + b] += y_total * share * va * z(g, c, b);
                    }
                }
            }
            for a in 0..k {
                grad[a] += y_total * mean[a];
                for b in 0..=a {
                    hess[a * k + b] -= y_total * mean[a] * mean[b];
                }
            }
        }
        let scale = total.max(1e-300);
        loss /= scale;
        for a in 0..k {
            let r = ridge[used[a]];
            loss += r * beta[a] * beta[a];
            grad[a] = grad[a] / scale + 2.0 * r * beta[a];
            if derivatives {
                for b in 0..=a {
                    hess[a * k + b] /= scale;
                    hess[b * k + a] = hess[a * k + b];
                }
                hess[a * k + a] += 2.0 * r;
            }
        }
        (loss, grad, hess)
    };
    let mut beta = vec![0.0; k];
    let mut current = assess(&beta, false).0;
    let mut steps = 0;
    for _ in 0..100 {
        let (_, grad, hess) = assess(&beta, true);
        let Some(step) = solve(&hess, &grad, k) else {
            break;
        };
        // Halve the step until the loss falls.
        let mut scale = 1.0;
        let mut next = beta.clone();
        let mut improved = false;
        for _ in 0..40 {
            for a in 0..k {
                next[a] = beta[a] - scale * step[a];
            }
            let l = assess(&next, false).0;
            if l.is_finite() && l < current {
                improved = current - l > 1e-15;
                current = l;
                break;
            }
            scale /= 2.0;
        }
        if !improved {
            break;
        }
        beta = next;
        steps += 1;
    }
    let mut coef = vec![0.0; p];
    for (slot, &j) in used.iter().enumerate() {
        coef[j] = beta[slot] / sd[j];
    }
    let penalty: f64 = (0..k).map(|a| ridge[used[a]] * beta[a] * beta[a]).sum();
    ShareFit {
        coef,
        log_likelihood: -(current - penalty),
        steps,
    }
}

/// Each input's standard deviation about its group means, over all alternatives.
fn spread_within(groups: &[&Group], p: usize) -> Vec<f64> {
    let mut square = vec![0.0; p];
    let mut count = 0usize;
    for g in groups {
        let n = g.y.len();
        for (j, square) in square.iter_mut().enumerate() {
            let mean = (0..n).map(|c| g.x[c * p + j]).sum::<f64>() / n as f64;
            *square += (0..n).map(|c| (g.x[c * p + j] - mean).powi(2)).sum::<f64>();
        }
        count += n;
    }
    square
        .iter()
        .map(|s| (s / count.max(1) as f64).sqrt())
        .collect()
}

/// Solves `a x = b` for a symmetric positive definite `a` (k x k, row-major) by Cholesky;
/// `None` if `a` is not positive definite.
fn solve(a: &[f64], b: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let s: f64 = (0..j).map(|m| l[i * k + m] * l[j * k + m]).sum();
            if i == j {
                let d = a[i * k + i] - s;
                if d <= 0.0 {
                    return None;
                }
                l[i * k + i] = d.sqrt();
            } else {
                l[i * k + j] = (a[i * k + j] - s) / l[j * k + j];
            }
        }
    }
    let mut z = vec![0.0; k];
    for i in 0..k {
        let s: f64 = (0..i).map(|m| l[i * k + m] * z[m]).sum();
        z[i] = (b[i] - s) / l[i * k + i];
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|m| l[m * k + i] * x[m]).sum();
        x[i] = (z[i] - s) / l[i * k + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// Groups whose outcomes are exactly `level * exp(truth·x)`, each group at its own level.
    fn exact_groups(truth: &[f64], groups: usize, seed: u64) -> Vec<Group> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..groups)
            .map(|_| {
                let level: f64 = rng.random_range(0.01..100.0);
                let mut g = Group {
                    x: Vec::new(),
                    y: Vec::new(),
                };
                for _ in 0..rng.random_range(2..9) {
                    let row: Vec<f64> = truth.iter().map(|_| rng.random_range(0.0..3.0)).collect();
                    let eta: f64 = row.iter().zip(truth).map(|(a, b)| a * b).sum();
                    g.x.extend(row);
                    g.y.push(level * eta.exp());
                }
                g
            })
            .collect()
    }

    #[test]
    fn exact_shares_give_back_their_coefficients_whatever_each_group_level() {
        let truth = [0.8, -1.5, 0.0];
        let fit = fit_shares(&exact_groups(&truth, 300, 4), 3, &[0.0; 3]);
        for (c, t) in fit.coef.iter().zip(truth) {
            assert!((c - t).abs() < 1e-6, "{fit:?}");
        }
        assert!(fit.steps > 0);
    }

    #[test]
    fn inputs_equal_inside_every_group_get_no_coefficient() {
        let mut groups = exact_groups(&[1.0, 0.0], 100, 5);
        for (i, g) in groups.iter_mut().enumerate() {
            let n = g.y.len();
            for c in 0..n {
                g.x[c * 2 + 1] = i as f64; // differs between groups only
            }
        }
        let fit = fit_shares(&groups, 2, &[0.0; 2]);
        assert_eq!(fit.coef[1], 0.0);
        assert!((fit.coef[0] - 1.0).abs() < 1e-6, "{fit:?}");
    }

    #[test]
    fn the_ridge_shrinks_a_coefficient_towards_zero() {
        let groups = exact_groups(&[1.0, -0.5], 200, 6);
        let free = fit_shares(&groups, 2, &[0.0, 0.0]);
        let held = fit_shares(&groups, 2, &[0.0, 10.0]);
        assert!(held.coef[1].abs() < free.coef[1].abs() / 5.0, "{held:?}");
        assert!(held.coef[1] < 0.0);
    }
}
