//! `tessera_engine.BlockudokuBatch`: many Blockudoku games stepped together in one call, for vector
//! environments. Each game is the same [`Game`] the single state plays.

use crate::arrays;
use crate::blockudoku_rules::{ACTIONS, Catalogue, Game, PIECE_BOX, SLOTS};
use crate::errors::value_error;
use numpy::{PyArray1, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use tessera::games::blockudoku::board::{CELLS, SIZE};
use tessera::games::blockudoku::rules::Scoring;

/// Cells of the hand's planes per game.
const HAND_CELLS: usize = SLOTS * PIECE_BOX * PIECE_BOX;

/// The arrays of one batched step or reset: boards (N, 9, 9) and hands (N, 3, 5, 5) as uint8,
/// masks (N, 243) as int8, rewards (N,) as float32, terminated and illegal (N,) as bool.
type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// N Blockudoku games. A game that ended is started again (new seed from the batch's
/// generator) at the next `step`, whose action for it is ignored: Gymnasium's next-step
/// autoreset.
#[pyclass(module = "tessera_engine._native")]
pub struct BlockudokuBatch {
    catalogue: Catalogue,
    scoring: Scoring,
    survival: bool,
    games: Vec<Game>,
    /// Seeds for restarted games and the draws of `sample_actions`.
    rng: SmallRng,
}

impl BlockudokuBatch {
    /// Starts every game afresh from seeds drawn from `rng`.
    fn restart_all(&mut self) {
        for game in &mut self.games {
            *game = Game::new(&self.catalogue, self.rng.random());
        }
    }

    /// New output arrays filled with every game's observation.
    fn observations<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let n = self.games.len();
        let boards = arrays::filled(py, [n, SIZE, SIZE], |boards: &mut [u8]| {
            for (game, out) in self.games.iter().zip(boards.chunks_exact_mut(CELLS)) {
                game.write_board(out);
            }
        })?;
        let hands = arrays::filled(
            py,
            [n, SLOTS, PIECE_BOX, PIECE_BOX],
            |hands: &mut [u8]| {
                for (game, out) in self.games.iter().zip(hands.chunks_exact_mut(HAND_CELLS)) {
                    game.write_pieces(&self.catalogue, out);
                }
            },
        )?;
        let masks = arrays::filled(py, [n, ACTIONS], |masks: &mut [i8]| {
            for (game, out) in self.games.iter().zip(masks.chunks_exact_mut(ACTIONS)) {
                game.write_mask(&self.catalogue, out);
            }
        })?;
        Ok((boards.into_any(), hands.into_any(), masks.into_any()))
    }
}

#[pymethods]
impl BlockudokuBatch {
    /// `n` games of one piece set and scoring; `reward` "score" (points) or "survival" (1 per
    /// placement); `seed` makes every deal reproducible.
    #[new]
    #[pyo3(signature = (n, pieceset = "standard47", scoring = "app", reward = "score", seed = None))]
    fn new(
        n: usize,
        pieceset: &str,
        scoring: &str,
        reward: &str,
        seed: Option<u64>,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(value_error("a batch needs at least one game"));
        }
        let survival = match reward {
            "score" => false,
            "survival" => true,
            _ => {
                return Err(value_error(format!(
                    "reward is score or survival, got '{reward}'"
                )));
            }
        };
        let catalogue = Catalogue::builtin(pieceset).map_err(value_error)?;
        let mut rng = SmallRng::seed_from_u64(seed.unwrap_or_else(rand::random));
        let games = (0..n)
            .map(|_| Game::new(&catalogue, rng.random()))
            .collect();
        Ok(BlockudokuBatch {
            catalogue,
            scoring: Scoring::parse(scoring).map_err(value_error)?,
            survival,
            games,
            rng,
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Starts every game again (from `seed` when given); returns boards, hands and masks.
    #[pyo3(signature = (seed = None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        if let Some(seed) = seed {
            self.rng = SmallRng::seed_from_u64(seed);
        }
        self.restart_all();
        self.observations(py)
    }

    /// Plays one action per game (an int array of N). A finished game is restarted instead
    /// (reward 0, not terminated); an illegal action changes nothing and is flagged. Returns
    /// boards, hands, masks, rewards, terminated and illegal.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let n = self.games.len();
        if actions.len() != n {
            return Err(value_error(format!(
                "step needs {n} actions, got an array of {}",
                actions.len()
            )));
        }
        let actions = actions.as_array();
        let mut rewards = vec![0f32; n];
        let mut terminated = vec![false; n];
        let mut illegal = vec![false; n];
        for (i, game) in self.games.iter_mut().enumerate() {
            if game.over {
                *game = Game::new(&self.catalogue, self.rng.random());
                continue;
            }
            let action = usize::try_from(actions[i]).unwrap_or(usize::MAX);
            if !game.is_legal(&self.catalogue, action) {
                illegal[i] = true;
                continue;
            }
            let points = game.play(&self.catalogue, self.scoring, action);
            rewards[i] = if self.survival { 1.0 } else { points as f32 };
            terminated[i] = game.over;
        }
        let (boards, hands, masks) = self.observations(py)?;
        Ok((
            boards,
            hands,
            masks,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, illegal),
        ))
    }

    /// A legal action for each game drawn uniformly from its mask (0 for a finished game, whose
    /// action the next step ignores).
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = Vec::with_capacity(self.games.len());
        for game in &self.games {
            let fits: [u128; SLOTS] = std::array::from_fn(|s| game.fits(&self.catalogue, s));
            let total: u32 = fits.iter().map(|f| f.count_ones()).sum();
            if total == 0 {
                out.push(0);
                continue;
            }
            let mut k = self.rng.random_range(0..total);
            let mut action = 0;
            for (slot, &f) in fits.iter().enumerate() {
                let count = f.count_ones();
                if k < count {
                    let cell = nth_set_bit(f, k);
                    action = (slot * CELLS + cell) as i64;
                    break;
                }
                k -= count;
            }
            out.push(action);
        }
        PyArray1::from_vec(py, out)
    }

    /// Every game's score.
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, self.games.iter().map(|g| g.position.score).collect())
    }

    /// Every game's placements so far.
    fn placements<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, self.games.iter().map(|g| g.placements).collect())
    }
}

/// The index of the `k`-th set bit (from 0) of `bits`, which has more than `k` set bits.
fn nth_set_bit(mut bits: u128, k: u32) -> usize {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as usize
}
