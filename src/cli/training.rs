//! The Blockudoku weight tuner's options, the weights it starts from, and how it prints and
//! writes what it learned (`--out`: a weights file the evaluation can include).

use crate::games::blockudoku::eval::{DEFAULT_WEIGHTS, Weights};
use crate::games::blockudoku::features::FEATURE_NAMES;
use crate::games::blockudoku::piece::PieceSet;
use clap::Args;
use std::path::PathBuf;

/// The options of a weight learner.
#[derive(Debug, Args)]
pub struct TrainingArgs {
    /// Seed of the deals (and of the learner's own random choices).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Start weights, comma-separated (default: the built-in ones).
    #[arg(long, allow_hyphen_values = true)]
    pub from: Option<String>,
    /// Write the final weights here: an array, one weight a line with its feature's name.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Piece set the hands are dealt from.
    #[arg(long, default_value = "standard47")]
    pub pieceset: String,
}

impl TrainingArgs {
    /// The piece set of `--pieceset`.
    pub fn piece_set(&self) -> Result<PieceSet, String> {
        PieceSet::builtin(&self.pieceset)
    }

    /// The weights of `--from`, or the built-in ones.
    pub fn start_weights(&self) -> Result<Weights, String> {
        match &self.from {
            Some(text) => super::selfplay::parse_weights(text),
            None => Ok(DEFAULT_WEIGHTS),
        }
    }

    /// Prints the learned weights and writes them to `--out` if given.
    pub fn finish(&self, learned: &Weights) -> Result<(), String> {
        println!("learned {}", list(learned));
        match &self.out {
            Some(path) => std::fs::write(path, weights_file(learned))
                .map_err(|e| format!("{}: {e}", path.display())),
            None => Ok(()),
        }
    }
}

/// The piece features must keep weights <= 0: the search's bounds rely on it.
pub const NOT_POSITIVE: [&str; 3] = ["unfit", "scarce", "clear_shortfall"];

/// Weights as `--weights` takes them.
pub fn list(w: &Weights) -> String {
    w.0.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Weights as `--out` writes them: an array, one weight a line with its feature's name.
fn weights_file(w: &Weights) -> String {
    let mut out = String::from("[\n");
    for (name, v) in FEATURE_NAMES.iter().zip(w.0) {
        out.push_str(&format!("    {v}, // {name}\n"));
    }
    out.push_str("]\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blockudoku::features::FEATURES;

    #[test]
    fn the_weights_file_is_an_array_rust_can_include() {
        let text = weights_file(&DEFAULT_WEIGHTS);
        assert!(text.starts_with("[\n") && text.ends_with("]\n"));
        assert_eq!(text.lines().count(), FEATURES + 2);
        assert!(text.contains("// unfit"));
    }
}
