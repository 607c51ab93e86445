//! The evaluation in use and its file: the 20 linear weights of [`super::eval`] plus n-tuple
//! tables ([`super::ntuple`]) learned from the look-ahead (`tools/blockudoku_train`).
//!
//! The file is text, one item a line (`#` starts a comment line):
//! - `linear W1,...,W20`: the weights, in the order of [`super::features::FEATURE_NAMES`]
//!   (once);
//! - `tuple ROW COL HEIGHT WIDTH V0,V1,...`: a rectangle of cells and its table of
//!   2^(HEIGHT * WIDTH) values (any number of these, up to [`super::ntuple::MAX_TUPLES`]).
//!
//! The engine's option `EvalFile` (and `selfplay --eval-file`) takes such a file, `builtin` (the
//! shipped evaluation, the default) or `handmade` (the linear weights alone).

use super::features::FEATURES;
use super::ntuple::Tuples;
use super::weights::{DEFAULT_WEIGHTS, Weights};
use std::sync::{Arc, OnceLock};

/// The evaluation shipped with the engine (`data/blockudoku/eval.txt`).
const SHIPPED: &str = include_str!("../../../data/blockudoku/eval.txt");

/// Linear weights and n-tuple tables.
#[derive(Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// The weights of the features.
    pub weights: Weights,
    /// The tables (none for the hand-made evaluation).
    pub tuples: Arc<Tuples>,
}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Evaluation({:?}, {} tuples)",
            self.weights.0,
            self.tuples.len()
        )
    }
}

impl From<Weights> for Evaluation {
    /// The linear evaluation with `weights`, no tuples.
    fn from(weights: Weights) -> Self {
        Evaluation {
            weights,
            tuples: Arc::new(Tuples::none()),
        }
    }
}

impl Default for Evaluation {
    /// [`Evaluation::builtin`].
    fn default() -> Self {
        Evaluation::builtin()
    }
}

impl Evaluation {
    /// The hand-made evaluation: the built-in weights alone.
    pub fn handmade() -> Self {
        DEFAULT_WEIGHTS.into()
    }

    /// The evaluation shipped with the engine (parsed once).
    pub fn builtin() -> Self {
        static BUILTIN: OnceLock<Evaluation> = OnceLock::new();
        BUILTIN
            .get_or_init(|| Evaluation::parse(SHIPPED).expect("the shipped evaluation parses"))
            .clone()
    }

    /// The evaluation an option value names: `builtin`, `handmade` or a file's path.
    pub fn from_option(value: &str) -> Result<Self, String> {
        match value {
            "builtin" => Ok(Evaluation::builtin()),
            "handmade" => Ok(Evaluation::handmade()),
            path => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                Evaluation::parse(&text).map_err(|e| format!("{path}: {e}"))
            }
        }
    }

    /// Reads an evaluation file (see the module's documentation).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut weights = None;
        let mut tuples = Tuples::none();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", number + 1);
            let mut words = line.split_whitespace();
            match words.next() {
                Some("linear") => {
                    if weights.is_some() {
                        return Err(at("a second linear line".into()));
                    }
                    let values = numbers(words.next().unwrap_or("")).map_err(at)?;
                    let array: [i32; FEATURES] = values.try_into().map_err(|v: Vec<i32>| {
                        at(format!("linear needs {FEATURES} weights, got {}", v.len()))
                    })?;
                    weights = Some(Weights(array));
                }
                Some("tuple") => {
                    let words: Vec<&str> = words.collect();
                    let [row, col, height, width, values] = words[..] else {
                        return Err(at("tuple needs ROW COL HEIGHT WIDTH VALUES".into()));
                    };
                    let size = |w: &str| w.parse::<usize>().map_err(|_| at(format!("bad '{w}'")));
                    let rect = (size(row)?, size(col)?, size(height)?, size(width)?);
                    tuples
                        .push(rect, &numbers(values).map_err(at)?)
                        .map_err(at)?;
                }
                Some(other) => return Err(at(format!("unknown item '{other}'"))),
                None => {}
            }
        }
        let weights = weights.ok_or("no linear line")?;
        Ok(Evaluation {
            weights,
            tuples: Arc::new(tuples),
        })
    }

    /// The evaluation as a file [`Evaluation::parse`] reads back.
    pub fn to_file(&self) -> String {
        let weights: Vec<String> = self.weights.0.iter().map(i32::to_string).collect();
        let mut lines = vec![format!("linear {}", weights.join(","))];
        lines.extend(self.tuples.lines());
        lines.join("\n") + "\n"
    }
}

/// Comma-separated integers.
fn numbers(text: &str) -> Result<Vec<i32>, String> {
    text.split(',')
        .map(|v| v.trim().parse().map_err(|_| format!("bad number '{v}'")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_and_writes_back_the_same() {
        let builtin = Evaluation::builtin();
        assert_eq!(Evaluation::parse(&builtin.to_file()), Ok(builtin.clone()));
        assert_eq!(Evaluation::from_option("builtin"), Ok(builtin));
        assert_eq!(
            Evaluation::from_option("handmade"),
            Ok(Evaluation::from(DEFAULT_WEIGHTS))
        );
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let linear = format!("linear {}", ["1"; FEATURES].join(","));
        let ok = format!("# a comment\n{linear}\ntuple 0 0 1 2 0,-1,-2,-3\n");
        let parsed = Evaluation::parse(&ok).unwrap();
        assert_eq!(parsed.weights, Weights([1; FEATURES]));
        assert_eq!(parsed.tuples.len(), 1);
        for (text, why) in [
            ("tuple 0 0 1 2 0,-1,-2,-3\n".to_string(), "no linear line"),
            (
                "linear 1,2,3\n".to_string(),
                "line 1: linear needs 20 weights, got 3",
            ),
            (
                format!("{linear}\n{linear}\n"),
                "line 2: a second linear line",
            ),
            (
                format!("{linear}\ntuple 0 0 1 2 0,-1,-2\n"),
                "line 2: tuple 0 0 1 2 needs 4 values, got 3",
            ),
            (
                format!("{linear}\ntuple 0 0 1\n"),
                "line 2: tuple needs ROW COL HEIGHT WIDTH VALUES",
            ),
            (
                format!("{linear}\ntuple 0 0 1 2 0,x,1,2\n"),
                "line 2: bad number 'x'",
            ),
            (
                format!("{linear}\nweights 1\n"),
                "line 2: unknown item 'weights'",
            ),
        ] {
            assert_eq!(Evaluation::parse(&text), Err(why.to_string()), "{text}");
        }
        let missing = Evaluation::from_option("/nonexistent/eval.txt").unwrap_err();
        assert!(missing.starts_with("/nonexistent/eval.txt: "), "{missing}");
    }
}
