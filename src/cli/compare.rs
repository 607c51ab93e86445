//! `tessera compare A.jsonl B.jsonl`: are two Blockudoku self-play runs different?
//!
//! Two tests, both exact:
//! - the death rates: given the deaths of both runs, under equal hazard each death falls in run A
//!   with probability rounds_A / (rounds_A + rounds_B) (a conditional binomial test; right for
//!   long runs with few deaths and for runs of different lengths);
//! - the paired games: runs with the same `--seed` (and `--starts`) deal the same hands to game
//!   i, so games lost by only one of the two players are a sign test (right for short games from
//!   crowded starts, where most deaths are shared bad luck).
//!
//! Runs made with `selfplay --death-chance` also carry each game's summed exact chance of dying;
//! then the paired games' chances are compared too (mean difference per game and its standard
//! error), which tells players apart with far fewer games than their deaths. Runs that carry
//! each game's count of hands dealt to crowded boards (36+ filled cells, where most of the risk
//! lies) get the same paired test of those counts.

use super::selfplay::survival;
use clap::Args;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Options of `tessera compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first run's `selfplay --jsonl` file.
    pub a: PathBuf,
    /// The second run's `selfplay --jsonl` file.
    pub b: PathBuf,
}

/// One game of a run, as `selfplay --jsonl` wrote it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Game {
    seed: Option<u64>,
    game: u64,
    rounds: u64,
    died: bool,
    /// The summed chance of dying over the game's rounds (`selfplay --death-chance`).
    chance: Option<f64>,
    /// Hands dealt to crowded boards (`selfplay --jsonl` writes it).
    crowded: Option<f64>,
}

/// Runs the subcommand; returns the exit code.
pub fn run(args: &CompareArgs) -> i32 {
    match (read_run(&args.a), read_run(&args.b)) {
        (Ok(a), Ok(b)) => {
            for line in report(&a, &b) {
                println!("{line}");
            }
            0
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn read_run(path: &Path) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_game(l).ok_or(format!("{}:{}: not a game line", path.display(), i + 1)))
        .collect()
}

/// The raw value of `"key":` in a flat JSON object line.
pub(super) fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &line[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn parse_game(line: &str) -> Option<Game> {
    Some(Game {
        seed: value(line, "seed").and_then(|v| v.parse().ok()),
        game: value(line, "game")?.parse().ok()?,
        rounds: value(line, "rounds")?.parse().ok()?,
        died: match value(line, "died")? {
            "true" => true,
            "false" => false,
            _ => return None,
        },
        chance: value(line, "chance").and_then(|v| v.parse().ok()),
        crowded: value(line, "crowded").and_then(|v| v.parse().ok()),
    })
}

/// The report's lines.
fn report(a: &[Game], b: &[Game]) -> Vec<String> {
    let mut lines = Vec::new();
    let totals = |run: &[Game]| {
        let rounds: u64 = run.iter().map(|g| g.rounds).sum();
        let deaths = run.iter().filter(|g| g.died).count() as u64;
        (rounds, deaths)
    };
    let (ra, da) = totals(a);
    let (rb, db) = totals(b);
    for (name, run, rounds, deaths) in [("A", a, ra, da), ("B", b, rb, db)] {
        let s = survival(rounds, deaths);
        lines.push(format!(
            "{name}: games {} deaths {deaths} rounds {rounds} hazard_mean {:.1} ci95 {:.1} {:.1}",
            run.len(),
            s.hazard_mean,
            s.interval.0,
            s.interval.1
        ));
    }
    if ra > 0 && rb > 0 {
        let p = two_sided_binomial(da, da + db, ra as f64 / (ra + rb) as f64);
        lines.push(format!(
            "rates: deaths per round A/B {:.3} p {p:.4} (exact, deaths given rounds)",
            (da as f64 / ra as f64) / (db as f64 / rb as f64)
        ));
    }
    let by_deal: HashMap<(Option<u64>, u64), &Game> =
        b.iter().map(|g| ((g.seed, g.game), g)).collect();
    let (mut pairs, mut both, mut only_a, mut only_b) = (0u64, 0u64, 0u64, 0u64);
    for g in a {
        let Some(h) = by_deal.get(&(g.seed, g.game)) else {
            continue;
        };
        pairs += 1;
        match (g.died, h.died) {
            (true, true) => both += 1,
            (true, false) => only_a += 1,
            (false, true) => only_b += 1,
            (false, false) => {}
        }
    }
    if pairs > 0 {
        let p = two_sided_binomial(only_a, only_a + only_b, 0.5);
        lines.push(format!(
            "paired: games {pairs} lost_by_both {both} only_A {only_a} only_B {only_b} p {p:.4} (sign test)"
        ));
    }
    let paired = |field: fn(&Game) -> Option<f64>| -> Vec<(f64, f64)> {
        a.iter()
            .filter_map(|g| Some((field(g)?, field(by_deal.get(&(g.seed, g.game))?)?)))
            .collect()
    };
    lines.extend(paired_sums("chance", &paired(|g| g.chance)));
    lines.extend(paired_sums("crowded", &paired(|g| g.crowded)));
    lines
}

/// The paired games' sums of one quantity (A, B), e.g. the summed death chances: their totals,
/// the ratio, and the mean difference per game with its standard error (a paired z test; games
/// are independent).
fn paired_sums(name: &str, pairs: &[(f64, f64)]) -> Option<String> {
    if pairs.len() < 2 {
        return None;
    }
    let n = pairs.len() as f64;
    let (sum_a, sum_b) = pairs
        .iter()
        .fold((0.0, 0.0), |(x, y), (a, b)| (x + a, y + b));
    let mean = (sum_a - sum_b) / n;
    let var = pairs
        .iter()
        .map(|(a, b)| (a - b - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    let se = (var / n).sqrt();
    Some(format!(
        "{name}: paired games {} summed A {sum_a:.4} B {sum_b:.4} A/B {:.3} mean_difference {mean:.3e} \
         se {se:.1e} z {:.2}",
        pairs.len(),
        sum_a / sum_b,
        if se > 0.0 { mean / se } else { 0.0 }
    ))
}

/// Two-sided exact binomial test: the probability, with `n` trials of success probability
/// `p`, of a count at least as far out in its tail as `k` (twice the smaller tail, at most 1).
fn two_sided_binomial(k: u64, n: u64, p: f64) -> f64 {
    if n == 0 || p <= 0.0 || p >= 1.0 {
        return 1.0;
    }
    // ln(i!) for i = 0..=n.
    let mut ln_fact = vec![0.0f64; n as usize + 1];
    for i in 1..=n as usize {
        ln_fact[i] = ln_fact[i - 1] + (i as f64).ln();
    }
    let pmf = |i: u64| {
        let (i, n) = (i as usize, n as usize);
        (ln_fact[n] - ln_fact[i] - ln_fact[n - i]
            + i as f64 * p.ln()
            + (n - i) as f64 * (1.0 - p).ln())
        .exp()
    };
    let lower: f64 = (0..=k).map(pmf).sum();
    let upper: f64 = (k..=n).map(pmf).sum();
    (2.0 * lower.min(upper)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_test_matches_known_values() {
        // 20 against 10 discordant pairs: two-sided sign test p = 0.0987.
        assert!((two_sided_binomial(10, 30, 0.5) - 0.0987).abs() < 1e-4);
        assert!((two_sided_binomial(20, 30, 0.5) - 0.0987).abs() < 1e-4);
        // 0 of 10 at p = 0.2: 2 * 0.8^10.
        assert!((two_sided_binomial(0, 10, 0.2) - 2.0 * 0.8f64.powi(10)).abs() < 1e-9);
        assert_eq!(two_sided_binomial(5, 10, 0.5), 1.0);
        assert_eq!(two_sided_binomial(0, 0, 0.5), 1.0);
    }

    #[test]
    fn game_lines_parse_with_and_without_seed() {
        let g = parse_game(r#"{"game":7,"seed":3,"start":1,"rounds":12,"died":true,"score":5}"#);
        assert_eq!(
            g,
            Some(Game {
                seed: Some(3),
                game: 7,
                rounds: 12,
                died: true,
                chance: None,
                crowded: None,
            })
        );
        let with_chance =
            parse_game(r#"{"game":1,"seed":3,"rounds":40,"died":false,"chance":2.5e-3}"#);
        assert_eq!(with_chance.and_then(|g| g.chance), Some(2.5e-3));
        let crowded = parse_game(r#"{"game":1,"rounds":40,"died":false,"crowded":17}"#);
        assert_eq!(crowded.and_then(|g| g.crowded), Some(17.0));
        let old = parse_game(r#"{"game":7,"start":1,"rounds":12,"died":false,"score":5}"#);
        assert_eq!(old.map(|g| (g.seed, g.died)), Some((None, false)));
        assert_eq!(parse_game(r#"{"game":7,"rounds":"x","died":true}"#), None);
    }

    #[test]
    fn paired_sums_give_the_mean_difference_and_its_error() {
        // Differences 0.1, 0.3: mean 0.2, sample variance 0.02, se 0.1, z 2.
        let line = paired_sums("chance", &[(0.5, 0.4), (0.6, 0.3)]).unwrap();
        assert!(line.starts_with("chance: paired games 2"), "{line}");
        assert!(line.contains("summed A 1.1000 B 0.7000"), "{line}");
        assert!(line.contains("mean_difference 2.000e-1"), "{line}");
        assert!(line.contains("se 1.0e-1 z 2.00"), "{line}");
        assert_eq!(paired_sums("crowded", &[(5.0, 4.0)]), None);
    }
}
