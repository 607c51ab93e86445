//! Which moves keep a grid solvable, settled within a time limit.
//!
//! Each solution the solver finds proves every value it holds: a move that places a value seen
//! in some solution keeps the grid solvable without a search of its own. So one solve per move
//! is needed only for moves no solution has shown yet, and the solutions come in random order
//! (on the generic solver) to show as many new values as possible. The solver's guess budget
//! grows pass by pass while time is left, sized from the time guesses have taken so far, so a
//! question the solver cannot settle in time (almost empty 16x16 and larger grids) stays
//! unsettled instead of holding the caller.

use super::grid::Grid;
use super::query::{Extra, Outcome, Query};
use super::shape::Shape;
use super::solver::Solver;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// The cost of one guess assumed before any is measured, in nanoseconds per cell.
const PRIOR_GUESS_NANOS_PER_CELL: u64 = 100;

/// Fewest guesses allowed to one question in the first pass; each later pass allows four times
/// more.
const FIRST_BUDGET: u64 = 32;

/// Keeps the solver's time per guess, to size budgets so that one question ends near the
/// deadline at the latest.
struct Clock {
    deadline: Instant,
    guesses: u64,
    spent: Duration,
}

impl Clock {
    fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The guesses that fit in the time left (at least one), capped at `cap`. Before the first
    /// measurement a guess is taken to cost [`PRIOR_GUESS_NANOS_PER_CELL`] per cell of a grid of
    /// `cells` cells (above what the solvers take).
    fn budget(&self, cap: u64, cells: usize) -> u64 {
        let per_guess = if self.guesses == 0 {
            (PRIOR_GUESS_NANOS_PER_CELL * cells as u64) as f64 * 1e-9
        } else {
            self.spent.as_secs_f64() / self.guesses as f64
        };
        let fits = (self.left().as_secs_f64() / per_guess.max(1e-9)) as u64;
        fits.clamp(1, cap)
    }
}

/// Looks for one solution of `grid` (plus `extra`) within `budget` guesses, trying values in
/// random order where the solver can (every shape but 9x9), so repeated questions see
/// different solutions.
fn one_solution(
    solver: &mut Solver,
    grid: &Grid,
    extra: Extra,
    budget: u64,
    rng: &mut SmallRng,
) -> Outcome {
    let query = Query {
        limit: 1,
        want_solution: true,
        budget,
    };
    if grid.shape() == Shape::CLASSIC {
        solver.run(grid, extra, query)
    } else {
        solver.run_random(grid, extra, query, rng)
    }
}

/// Asks the solver budgeted questions about one grid and keeps, per cell, the values seen in
/// the solutions found.
struct Prover<'a> {
    solver: &'a mut Solver,
    grid: &'a Grid,
    rng: SmallRng,
    clock: Clock,
    seen: Vec<u32>,
    /// The values that appear nowhere in the grid, as a mask.
    absent: u32,
}

impl<'a> Prover<'a> {
    fn new(solver: &'a mut Solver, grid: &'a Grid, deadline: Instant, seed: u64) -> Self {
        let present = grid
            .values()
            .iter()
            .filter(|&&v| v != 0)
            .fold(0u32, |mask, &v| mask | 1 << (v - 1));
        Prover {
            solver,
            grid,
            rng: SmallRng::seed_from_u64(seed),
            clock: Clock {
                deadline,
                guesses: 0,
                spent: Duration::ZERO,
            },
            seen: vec![0; grid.shape().cells()],
            absent: grid.shape().full_mask() & !present,
        }
    }

    /// Looks for a solution of the grid (plus `extra`) within `cap` guesses (fewer if time is
    /// short), in random order on the generic solver: `Some(true)` found (its values are noted),
    /// `Some(false)` there is none, `None` not settled.
    fn probe(&mut self, extra: Extra, cap: u64) -> Option<bool> {
        let budget = self.clock.budget(cap, self.grid.shape().cells());
        let started = Instant::now();
        let out = one_solution(self.solver, self.grid, extra, budget, &mut self.rng);
        self.clock.guesses += out.guesses.max(1);
        self.clock.spent += started.elapsed();
        let Some(solution) = out.solution else {
            return (!out.aborted).then_some(false);
        };
        // Values absent from the grid solved are interchangeable: swapping two of them in a
        // solution gives another, so a cell holding one of them could hold any of them.
        let free = match extra {
            Extra::Place(_, value) => self.absent & !(1 << (value - 1)),
            _ => self.absent,
        };
        for (cell, &value) in solution.values().iter().enumerate() {
            let bit = 1 << (value - 1);
            self.seen[cell] |= if free & bit != 0 { free } else { bit };
        }
        Some(true)
    }

    /// Settles whether the grid has a solution, with growing budgets until the deadline.
    fn solvable(&mut self) -> Option<bool> {
        let mut cap = self.first_budget();
        while !self.clock.left().is_zero() {
            if let Some(answer) = self.probe(Extra::None, cap) {
                return Some(answer);
            }
            cap = cap.saturating_mul(4);
        }
        None
    }

    /// Guesses allowed to one question in the first pass: a solve from an almost empty grid
    /// guesses about once per empty cell.
    fn first_budget(&self) -> u64 {
        FIRST_BUDGET.max((self.grid.shape().cells() - self.grid.filled()) as u64)
    }
}

/// For each move (cell, value), whether placing it keeps `grid` solvable: `Some(true)` yes,
/// `Some(false)` no (or the move breaks a rule), `None` not settled by `deadline`. The moves are
/// settled in order, so the first ones are the likeliest to be settled. Deterministic for a
/// `seed` whenever the deadline is not reached.
pub fn classify(
    solver: &mut Solver,
    grid: &Grid,
    moves: &[(usize, u8)],
    deadline: Instant,
    seed: u64,
) -> Vec<Option<bool>> {
    let mut answers: Vec<Option<bool>> = moves
        .iter()
        .map(|&(cell, value)| grid.check_move(cell, value).is_err().then_some(false))
        .collect();
    let mut prover = Prover::new(solver, grid, deadline, seed);
    match prover.solvable() {
        Some(true) => {}
        Some(false) => return vec![Some(false); moves.len()],
        None => return answers,
    }
    let mut cap = prover.first_budget();
    loop {
        let mut open = false;
        for (k, &(cell, value)) in moves.iter().enumerate() {
            if answers[k].is_some() {
                continue;
            }
            if prover.seen[cell] >> (value - 1) & 1 == 1 {
                answers[k] = Some(true);
                continue;
            }
            if prover.clock.left().is_zero() {
                return answers;
            }
            answers[k] = prover.probe(Extra::Place(cell, value), cap);
            open |= answers[k].is_none();
        }
        if !open {
            return answers;
        }
        cap = cap.saturating_mul(4);
    }
}

/// Whether `grid` has a solution: `None` if that is not settled by `deadline`.
pub fn solvable_by(solver: &mut Solver, grid: &Grid, deadline: Instant) -> Option<bool> {
    Prover::new(solver, grid, deadline, 0).solvable()
}

/// Most guesses in one round of [`solve_until`]: the longest it goes without asking `stop`.
const ROUND_GUESSES: u64 = 1 << 15;

/// One solution of `grid`, looked for in rounds of growing guess budgets (random restarts on the
/// generic solver) until one is found, the grid is proven to have none, or `stop` says so.
pub fn solve_until(solver: &mut Solver, grid: &Grid, stop: &dyn Fn() -> bool) -> Option<Grid> {
    let mut rng = SmallRng::seed_from_u64(0);
    let mut budget = FIRST_BUDGET.max((grid.shape().cells() - grid.filled()) as u64);
    while !stop() {
        let out = one_solution(solver, grid, Extra::None, budget, &mut rng);
        if out.solution.is_some() || !out.aborted {
            return out.solution;
        }
        budget = (budget * 2).min(ROUND_GUESSES);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// Every candidate move of `grid`, with the plain solver's verdict.
    fn candidates_and_truth(grid: &Grid) -> (Vec<(usize, u8)>, Vec<Option<bool>>) {
        let mut solver = Solver::new();
        let mut moves = Vec::new();
        let mut truth = Vec::new();
        for cell in 0..grid.shape().cells() {
            if grid.get(cell) != 0 {
                continue;
            }
            for value in 1..=grid.size() as u8 {
                if grid.candidates(cell) >> (value - 1) & 1 == 1 {
                    moves.push((cell, value));
                    truth.push(Some(solver.is_solvable_after(grid, cell, value)));
                }
            }
        }
        (moves, truth)
    }

    #[test]
    fn agrees_with_one_solve_per_move() {
        // 9x9 (band solver) and 8x8 (generic solver) puzzles with one solution each.
        let nine = Grid::parse(
            Shape::CLASSIC,
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .unwrap();
        let eight = Grid::parse(
            Shape::new(2, 4).unwrap(),
            "...217.....3...6...6...5.48.62...2..56.1......845.1......8......",
        )
        .unwrap();
        for grid in [nine, eight] {
            let (moves, truth) = candidates_and_truth(&grid);
            let got = classify(&mut Solver::new(), &grid, &moves, far(), 7);
            assert_eq!(got, truth);
            assert!(truth.contains(&Some(false)) && truth.contains(&Some(true)));
        }
    }

    #[test]
    fn an_unsolvable_grid_has_no_move_that_keeps_it_solvable() {
        // The top row of this 4x4 grid needs a 4 in its last cell, which the column holds already.
        let grid = Grid::parse(Shape::new(2, 2).unwrap(), "123....4........").unwrap();
        assert_eq!(solvable_by(&mut Solver::new(), &grid, far()), Some(false));
        let got = classify(&mut Solver::new(), &grid, &[(4, 4), (5, 1)], far(), 1);
        assert_eq!(got, [Some(false), Some(false)]);
    }

    #[test]
    fn a_deadline_leaves_questions_unsettled_instead_of_waiting() {
        let grid = Grid::empty(Shape::new(5, 5).unwrap());
        let moves: Vec<(usize, u8)> = (0..625)
            .flat_map(|c| (1..=25).map(move |v| (c, v)))
            .collect();
        let got = classify(&mut Solver::new(), &grid, &moves, Instant::now(), 1);
        assert!(got.iter().all(Option::is_none));
        assert_eq!(solvable_by(&mut Solver::new(), &grid, Instant::now()), None);
    }
}
