//! `tessera tune-prior`: learns the Blokus prior weights (see `games::blokus::prior`, and
//! `games::blokus::gembloq::prior` for GembloQ's) from deep searches of recorded positions.
//!
//! Positions are drawn (from the seed) from game records; each is searched with many playouts,
//! and the root's visit shares are the target. The weights are fitted by gradient descent
//! (Adam) on the cross-entropy between the visit shares and the prior's softmax over the same
//! moves, with an L2 pull toward the built-in weights; a fifth of the positions is held out
//! and the progress lines report both losses. The searches can be saved (`--data`) and fitted
//! again without searching.

use super::jobs;
use crate::games::blokus::board::{Board, PASS};
use crate::games::blokus::gembloq::position::Position as GembloqPosition;
use crate::games::blokus::gembloq::prior as gembloq_prior;
use crate::games::blokus::gembloq::search::Tree;
use crate::games::blokus::gembloq::search_position::SearchPosition;
use crate::games::blokus::gembloq::variant::GembloqVariant;
use crate::games::blokus::mcts::Mcts;
use crate::games::blokus::playout::Local;
use crate::games::blokus::prior::{self, Kinds, WeightSet};
use crate::games::blokus::sgf;
use clap::{Args, ValueEnum};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use std::io::Write;
use std::path::PathBuf;

/// Options of `tessera tune-prior`.
#[derive(Debug, Args)]
pub struct TunePriorArgs {
    /// Game records (SGF; a file may hold several games): where positions are drawn from.
    #[arg(long)]
    pub records: Vec<PathBuf>,
    /// Positions drawn.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Playouts of each position's search.
    #[arg(long, default_value_t = 20_000)]
    pub playouts: u64,
    /// Positions searched at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Seed of the drawing and of the searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Saves the searches' results here; with no --records, fits the ones saved here.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Steps of the fit.
    #[arg(long, default_value_t = 2000)]
    pub steps: usize,
    /// Strength of the pull toward the built-in weights.
    #[arg(long, default_value_t = 0.001)]
    pub l2: f64,
    /// Writes the fitted weights here (comma-separated, in feature order).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The weights fitted (those of the records' boards): the fit starts from the built-in
    /// ones of this set and is pulled toward them.
    #[arg(long, value_enum, default_value_t = FitSet::Square)]
    pub set: FitSet,
}

/// The weights a fit learns: one of the Blokus board families' sets, or GembloQ's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FitSet {
    /// The square boards with corner contact.
    Square,
    /// Classic with four players, each for itself.
    Household,
    /// The triangle boards (Trigon).
    Triangle,
    /// Callisto's boards.
    Callisto,
    /// GembloQ's boards (any of its forms; the fit starts from its hand-set weights).
    Gembloq,
}

impl FitSet {
    /// The board family of a Blokus set (`None` for GembloQ).
    fn board(self) -> Option<WeightSet> {
        match self {
            FitSet::Square => Some(WeightSet::Square),
            FitSet::Household => Some(WeightSet::Household),
            FitSet::Triangle => Some(WeightSet::Triangle),
            FitSet::Callisto => Some(WeightSet::Callisto),
            FitSet::Gembloq => None,
        }
    }

    /// The weights the fit starts from and is pulled toward.
    fn start(self) -> Vec<f64> {
        let w: &[f32] = match self.board() {
            Some(set) => set.weights(),
            None => &gembloq_prior::HAND_WEIGHTS,
        };
        w.iter().map(|&x| f64::from(x)).collect()
    }

    /// The prior's temperature: a move's share is exp(score / this).
    fn temperature(self) -> f64 {
        f64::from(match self {
            FitSet::Gembloq => gembloq_prior::TEMPERATURE,
            _ => prior::TEMPERATURE,
        })
    }

    /// Number of features.
    fn features(self) -> usize {
        match self {
            FitSet::Gembloq => gembloq_prior::FEATURES,
            _ => prior::FEATURES,
        }
    }
}

/// One searched position: per root move, its visit count, its feature counts and the fixed
/// part of its score.
struct Sample {
    moves: Vec<(u32, Vec<u8>, f32)>,
}

/// Runs the command; returns the exit code.
pub fn run(args: &TunePriorArgs) -> i32 {
    let samples = if args.records.is_empty() {
        let Some(path) = &args.data else {
            eprintln!("error: give --records to search positions, or --data to fit saved ones");
            return 2;
        };
        match read_data(path, args.set.features()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        }
    } else {
        let drawn = if args.set == FitSet::Gembloq {
            draw_gembloq(args).map(|p| search_gembloq(args, &p))
        } else {
            draw_positions(args).map(|p| search_all(args, &p))
        };
        let samples = match drawn {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
        if let Some(path) = &args.data
            && let Err(e) = write_data(path, &samples)
        {
            eprintln!("error: {e}");
            return 2;
        }
        samples
    };
    let fitted = fit(args, &samples);
    let text: Vec<String> = fitted.iter().map(|w| format!("{w:.3}")).collect();
    println!("weights {}", text.join(","));
    if let Some(out) = &args.out
        && let Err(e) = std::fs::write(out, text.join(",") + "\n")
    {
        eprintln!("error: cannot write '{}': {e}", out.display());
        return 2;
    }
    0
}

/// A position to search: the board with its colour to move set, and the moves before it.
struct Position {
    board: Board,
    history: Vec<(usize, u16)>,
}

/// Draws `--positions` positions (the colour to move has a move) from the records.
fn draw_positions(args: &TunePriorArgs) -> Result<Vec<Position>, String> {
    let mut all = Vec::new();
    for (path, game) in record_games(args)? {
        if GembloqVariant::parse(&sgf::game_name(&game).unwrap_or_default()).is_some() {
            return Err("the records are of GembloQ: fit them with --set gembloq".into());
        }
        let record = sgf::parse(&game).map_err(|e| format!("{path}: {e}"))?;
        for k in 0..record.moves.len() {
            all.push((game.clone(), k, record.moves[k].0));
        }
    }
    draw(args, all, |(game, k, colour)| {
        let g = sgf::load(&game, Some(k + 1))?;
        let set = WeightSet::of(g.board.variant);
        if Some(set) != args.set.board() {
            let name = set.to_possible_value().map(|v| v.get_name().to_string());
            return Err(format!(
                "the records are of {set:?} boards: fit them with --set {}",
                name.unwrap_or_default()
            ));
        }
        let mut board = g.board.clone();
        if !board.has_moves(colour) {
            return Ok(None);
        }
        board.set_to_play(colour);
        Ok(Some(Position {
            board,
            history: g.history,
        }))
    })
}

/// Every game of the `--records` files, with its file's name.
fn record_games(args: &TunePriorArgs) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let name = path.display().to_string();
        out.extend(games(&text).into_iter().map(|g| (name.clone(), g)));
    }
    Ok(out)
}

/// The first `--positions` that `make` builds from `candidates` shuffled by `--seed` (`make`
/// answers `None` for a candidate to skip).
fn draw<C, P>(
    args: &TunePriorArgs,
    mut candidates: Vec<C>,
    mut make: impl FnMut(C) -> Result<Option<P>, String>,
) -> Result<Vec<P>, String> {
    candidates.shuffle(&mut SmallRng::seed_from_u64(args.seed));
    let mut positions = Vec::new();
    for candidate in candidates {
        if positions.len() == args.positions {
            break;
        }
        if let Some(p) = make(candidate)? {
            positions.push(p);
        }
    }
    Ok(positions)
}

/// The games of a file of records: each from a `(` that opens a node (`;`, blanks between
/// allowed) to the next.
fn games(text: &str) -> Vec<String> {
    let starts: Vec<usize> = (text.match_indices('('))
        .filter(|(i, _)| text[i + 1..].trim_start().starts_with(';'))
        .map(|(i, _)| i)
        .collect();
    (starts.iter().enumerate())
        .map(|(k, &i)| text[i..starts.get(k + 1).copied().unwrap_or(text.len())].to_string())
        .collect()
}

/// Searches every position (`--jobs` at once), printing progress.
fn search_all(args: &TunePriorArgs, positions: &[Position]) -> Vec<Sample> {
    jobs::map(positions, args.jobs, "positions", |i, p| {
        search(p, args.playouts, args.seed.wrapping_add(i as u64))
    })
}

/// One position's search: the root moves with their visits and features.
fn search(p: &Position, playouts: u64, seed: u64) -> Sample {
    let mut mcts = Mcts::new(&p.board, seed);
    mcts.set_history(&p.history);
    for _ in 0..playouts {
        mcts.run_once();
    }
    let root = mcts.root().clone();
    let c = root.to_play();
    let t = root.tables();
    let recent: Vec<(u8, u16)> = (p.history.iter())
        .filter(|&&(_, m)| m != PASS)
        .map(|&(c, m)| (c as u8, m))
        .collect();
    let mut local = Local::new();
    local.set(&root, c, &recent[recent.len().saturating_sub(3)..]);
    let mut kinds = Box::<Kinds>::default();
    kinds.set(&root, c, root.opponents_mask(c), prior::weights(&root));
    let moves = (mcts.root_stats().into_iter())
        .map(|(m, visits, _)| {
            let is_local = local.touches(t, m);
            (
                visits,
                kinds.features(t, m, is_local).to_vec(),
                prior::centre_pull(&root, c, m),
            )
        })
        .collect();
    Sample { moves }
}

/// Draws `--positions` GembloQ positions (the colour to move has a move) from the records:
/// each with the colour to move.
fn draw_gembloq(args: &TunePriorArgs) -> Result<Vec<(GembloqPosition, usize)>, String> {
    let mut all = Vec::new();
    for (path, game) in record_games(args)? {
        let name = sgf::game_name(&game).map_err(|e| format!("{path}: {e}"))?;
        let Some(v) = GembloqVariant::parse(&name) else {
            return Err(format!("{path}: the records are of '{name}', not GembloQ"));
        };
        let moves = sgf::main_line_moves(&game, v.ncolours())?;
        for k in 0..moves.len() {
            all.push((v, moves.clone(), k));
        }
    }
    draw(args, all, |(v, moves, k)| {
        let mut pos = GembloqPosition::new(v);
        let p = v.placements();
        for (c, text) in &moves[..k] {
            let m = p.parse(text)?;
            pos.check(*c, m)?;
            pos.play(*c, m);
        }
        let c = moves[k].0;
        Ok(pos.has_moves(c).then_some((pos, c)))
    })
}

/// Searches every GembloQ position (`--jobs` at once): the root moves with their visits and
/// features.
fn search_gembloq(args: &TunePriorArgs, positions: &[(GembloqPosition, usize)]) -> Vec<Sample> {
    jobs::map(positions, args.jobs, "positions", |i, (pos, c)| {
        let mut tree = Tree::new(pos, *c, args.seed.wrapping_add(i as u64));
        for _ in 0..args.playouts {
            tree.run_once();
        }
        let stats = tree.root_stats();
        let root = SearchPosition::new(pos, *c);
        let moves: Vec<u32> = stats.iter().map(|s| s.0).collect();
        let features = gembloq_prior::Prior::new(&root).features(&root, *c, &moves);
        let moves = (stats.iter().zip(features))
            .map(|(s, f)| {
                (
                    s.1,
                    f.to_vec(),
                    gembloq_prior::Prior::offset(&root, *c, s.0),
                )
            })
            .collect();
        Sample { moves }
    })
}

fn write_data(path: &PathBuf, samples: &[Sample]) -> Result<(), String> {
    let mut out = String::new();
    for (i, s) in samples.iter().enumerate() {
        for (visits, f, offset) in &s.moves {
            let f: Vec<String> = f.iter().map(|x| x.to_string()).collect();
            out += &format!("{i} {visits} {offset} {}\n", f.join(" "));
        }
    }
    std::fs::File::create(path)
        .and_then(|mut file| file.write_all(out.as_bytes()))
        .map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// The saved searches in `path`, of `features` features a move.
fn read_data(path: &PathBuf, features: usize) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let mut samples: Vec<Sample> = Vec::new();
    let mut last = None;
    for (n, line) in text.lines().enumerate() {
        let bad = || format!("{}: line {}: not a saved search", path.display(), n + 1);
        let v: Vec<&str> = line.split_whitespace().collect();
        if v.len() != 3 + features {
            return Err(bad());
        }
        let id: usize = v[0].parse().map_err(|_| bad())?;
        let visits: u32 = v[1].parse().map_err(|_| bad())?;
        let offset: f32 = v[2].parse().map_err(|_| bad())?;
        let f = (v[3..].iter())
            .map(|s| s.parse().map_err(|_| bad()))
            .collect::<Result<Vec<u8>, String>>()?;
        if last != Some(id) {
            samples.push(Sample { moves: Vec::new() });
            last = Some(id);
        }
        if let Some(s) = samples.last_mut() {
            s.moves.push((visits, f, offset));
        }
    }
    Ok(samples)
}

/// Cross-entropy of the visit shares against the prior with weights `w` at `temperature`, per
/// position, and its gradient (added into `grad` when given).
fn loss(samples: &[Sample], w: &[f64], temperature: f64, mut grad: Option<&mut [f64]>) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let visits: f64 = s.moves.iter().map(|m| f64::from(m.0)).sum();
        if visits == 0.0 {
            continue;
        }
        let scores: Vec<f64> = (s.moves.iter())
            .map(|(_, f, off)| {
                let dot: f64 = f.iter().zip(w).map(|(&x, w)| f64::from(x) * w).sum();
                (dot + f64::from(*off)) / temperature
            })
            .collect();
        let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = scores.iter().map(|x| (x - best).exp()).sum();
        let log_z = best + z.ln();
        for ((v, f, _), x) in s.moves.iter().zip(&scores) {
            let target = f64::from(*v) / visits;
            total -= target * (x - log_z);
            if let Some(g) = grad.as_deref_mut() {
                let p = (x - log_z).exp();
                for (gi, &fi) in g.iter_mut().zip(f) {
                    *gi += (p - target) * f64::from(fi) / temperature;
                }
            }
        }
    }
    total / samples.len().max(1) as f64
}

/// Fits the weights of `--set` (Adam) on four fifths of the samples, reporting the held-out
/// loss.
fn fit(args: &TunePriorArgs, samples: &[Sample]) -> Vec<f32> {
    let held = samples.len() / 5;
    let (test, train) = samples.split_at(held);
    let start = args.set.start();
    let t = args.set.temperature();
    let n = start.len();
    let mut w = start.clone();
    let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
    let (rate, b1, b2) = (0.01, 0.9, 0.999);
    println!(
        "positions {} (held out {held}) start loss train {:.4} held out {:.4}",
        samples.len(),
        loss(train, &w, t, None),
        loss(test, &w, t, None)
    );
    for step in 1..=args.steps {
        let mut g = vec![0.0f64; n];
        loss(train, &w, t, Some(&mut g));
        for i in 0..n {
            g[i] = g[i] / train.len().max(1) as f64 + 2.0 * args.l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-8);
        }
        if step % 200 == 0 || step == args.steps {
            println!(
                "step {step} loss train {:.4} held out {:.4}",
                loss(train, &w, t, None),
                loss(test, &w, t, None)
            );
        }
    }
    w.iter().map(|&x| x as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(steps: usize) -> TunePriorArgs {
        TunePriorArgs {
            records: Vec::new(),
            positions: 0,
            playouts: 0,
            jobs: 1,
            seed: 1,
            data: None,
            steps,
            l2: 0.0,
            out: None,
            set: FitSet::Square,
        }
    }

    /// Searches that give nine tenths of their visits to the move covering an opponent's corner
    /// (feature 0) teach the fit to weigh that feature up to about T ln 9 = 1.85 above the
    /// other (from 1.0), and the loss falls.
    #[test]
    fn the_fit_follows_the_visits() {
        let mut samples = Vec::new();
        for _ in 0..50 {
            let mut with = vec![0u8; prior::FEATURES];
            with[0] = 1;
            let mut without = vec![0u8; prior::FEATURES];
            without[2] = 1;
            samples.push(Sample {
                moves: vec![(90, with, 0.0), (10, without, 0.0)],
            });
        }
        let start = FitSet::Square.start();
        let w: Vec<f64> = fit(&args(1000), &samples)
            .into_iter()
            .map(f64::from)
            .collect();
        assert!((w[0] - w[2] - 1.85).abs() < 0.1, "{:?}", &w[..3]);
        let t = FitSet::Square.temperature();
        assert!(loss(&samples, &w, t, None) < loss(&samples, &start, t, None));
    }

    /// Records of one family of boards fit only that family's weights: Trigon records and
    /// four-player Classic ones with the square set are refused with the set to use, and drawn
    /// with their own.
    #[test]
    fn records_must_match_the_weight_set() {
        for (file, name, set) in [
            ("trigon-twogtp.blksgf", "triangle", FitSet::Triangle),
            ("classic-twogtp.blksgf", "household", FitSet::Household),
        ] {
            let mut a = args(1);
            a.records = vec![
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/data/blokus")
                    .join(file),
            ];
            a.positions = 3;
            let err = draw_positions(&a).err().unwrap();
            assert!(err.contains(&format!("--set {name}")), "{err}");
            a.set = set;
            assert_eq!(draw_positions(&a).unwrap().len(), 3);
        }
    }

    /// Games are found whether their '(' and ';' are on one line or not.
    #[test]
    fn games_split_in_both_layouts() {
        let one = "(;GM[Blokus];1[a20];2[t20])";
        let lines = "(\n;GM[Blokus]\n;1[a20]\n;2[t20]\n)\n";
        for text in [format!("{one}{one}"), format!("{lines}{lines}")] {
            let g = games(&text);
            assert_eq!(g.len(), 2, "{text}");
            for game in g {
                assert_eq!(sgf::parse(&game).unwrap().moves.len(), 2, "{game}");
            }
        }
    }

    /// Saved searches read back as written.
    #[test]
    fn data_round_trip() {
        let mut f = vec![0u8; prior::FEATURES];
        f[3] = 2;
        f[prior::FEATURES - 1] = 1;
        let samples = vec![
            Sample {
                moves: vec![(5, f.clone(), -0.5), (0, vec![0; prior::FEATURES], 0.0)],
            },
            Sample {
                moves: vec![(7, f, 0.0)],
            },
        ];
        let path = std::env::temp_dir().join(format!("tessera-prior-{}.txt", std::process::id()));
        write_data(&path, &samples).unwrap();
        let back = read_data(&path, prior::FEATURES).unwrap();
        assert!(read_data(&path, gembloq_prior::FEATURES).is_err());
        let _ = std::fs::remove_file(&path);
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].moves, samples[0].moves);
        assert_eq!(back[1].moves, samples[1].moves);
    }

    /// GembloQ records are drawn and searched with GembloQ's features, and a short search's
    /// visit shares teach the fit something: its loss on them falls from the hand-set weights'.
    #[test]
    fn gembloq_positions_fit_gembloqs_weights() {
        let mut a = args(300);
        a.records = vec![PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/blokus/gembloq2-pentobi.blksgf"
        ))];
        a.positions = 4;
        a.playouts = 400;
        let err = draw_positions(&a).err().unwrap();
        assert!(err.contains("--set gembloq"), "{err}");
        a.set = FitSet::Gembloq;
        let positions = draw_gembloq(&a).unwrap();
        assert_eq!(positions.len(), 4);
        let samples = search_gembloq(&a, &positions);
        for s in &samples {
            assert!(s.moves.iter().all(|m| m.1.len() == gembloq_prior::FEATURES));
            assert_eq!(s.moves.iter().map(|m| m.0).sum::<u32>(), 400);
        }
        let t = FitSet::Gembloq.temperature();
        let start = FitSet::Gembloq.start();
        let w: Vec<f64> = fit(&a, &samples).into_iter().map(f64::from).collect();
        assert!(loss(&samples, &w, t, None) < loss(&samples, &start, t, None));
    }
}
