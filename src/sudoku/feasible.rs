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
use super::shape::Shape;
use super::solver::{Extra, Query, Solver};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// Fewest guesses allowed to one question in the first pass; each later pass allows four times
/// more.
const FIRST_BUDGET: u64 = 32;

/// The answer of a budgeted solver question.
enum Probe {
    Solution(Grid),
    NoSolution,
    Unsettled,
}

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

    /// The guesses that fit in the time left (at least one), capped at `cap`.
    fn budget(&self, cap: u64) -> u64 {
        if self.guesses == 0 {
            return cap;
        }
        let per_guess = self.spent.as_secs_f64() / self.guesses as f64;
        let fits = (self.left().as_secs_f64() / per_guess.max(1e-9)) as u64;
        fits.clamp(1, cap)
    }
}

/// Solves `grid` (plus `extra`) within `budget` guesses, in random order on the generic solver.
fn probe(
    solver: &mut Solver,
    grid: &Grid,
    extra: Extra,
    budget: u64,
    rng: &mut SmallRng,
    clock: &mut Clock,
) -> Probe {
    let query = Query {
        limit: 1,
        want_solution: true,
        budget,
    };
    let started = Instant::now();
    let out = if grid.shape() == Shape::CLASSIC {
        solver.run(grid, extra, query)
    } else {
        solver.run_random(grid, extra, query, rng)
    };
    clock.guesses += out.guesses.max(1);
    clock.spent += started.elapsed();
    match out.solution {
        Some(solution) => Probe::Solution(solution),
        None if out.aborted => Probe::Unsettled,
        None => Probe::NoSolution,
    }
}

/// Marks the values of `solution` as seen in a solution. Values in `free` (a mask) appear
/// nowhere in the grid that was solved, so swapping two of them in a solution gives another:
/// a cell holding one of them could hold any of them.
fn note(seen: &mut [u32], solution: &Grid, free: u32) {
    for (cell, &value) in solution.values().iter().enumerate() {
        let bit = 1 << (value - 1);
        seen[cell] |= if free & bit != 0 { free } else { bit };
    }
}

/// The values that appear nowhere in `grid`, as a mask.
fn absent_values(grid: &Grid) -> u32 {
    let present = grid
        .values()
        .iter()
        .filter(|&&v| v != 0)
        .fold(0u32, |mask, &v| mask | 1 << (v - 1));
    grid.shape().full_mask() & !present
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
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut clock = Clock {
        deadline,
        guesses: 0,
        spent: Duration::ZERO,
    };
    let mut answers: Vec<Option<bool>> = moves
        .iter()
        .map(|&(cell, value)| grid.check_move(cell, value).is_err().then_some(false))
        .collect();
    // Per cell, the values some solution holds.
    let mut seen = vec![0u32; grid.shape().cells()];
    match solvable_by_noting(solver, grid, &mut seen, &mut rng, &mut clock) {
        Some(true) => {}
        Some(false) => return vec![Some(false); moves.len()],
        None => return answers,
    }
    let absent = absent_values(grid);
    let mut cap = first_budget(grid);
    loop {
        let mut open = false;
        for (k, &(cell, value)) in moves.iter().enumerate() {
            if answers[k].is_some() {
                continue;
            }
            if seen[cell] >> (value - 1) & 1 == 1 {
                answers[k] = Some(true);
                continue;
            }
            if clock.left().is_zero() {
                return answers;
            }
            let extra = Extra::Place(cell, value);
            match probe(solver, grid, extra, clock.budget(cap), &mut rng, &mut clock) {
                Probe::Solution(solution) => {
                    note(&mut seen, &solution, absent & !(1 << (value - 1)));
                    answers[k] = Some(true);
                }
                Probe::NoSolution => answers[k] = Some(false),
                Probe::Unsettled => open = true,
            }
        }
        if !open {
            return answers;
        }
        cap = cap.saturating_mul(4);
    }
}

/// Guesses allowed to one question in the first pass: a solve from an almost empty grid
/// guesses about once per empty cell.
fn first_budget(grid: &Grid) -> u64 {
    FIRST_BUDGET.max((grid.shape().cells() - grid.filled()) as u64)
}

/// Settles whether `grid` has a solution, noting the values of the one found.
fn solvable_by_noting(
    solver: &mut Solver,
    grid: &Grid,
    seen: &mut [u32],
    rng: &mut SmallRng,
    clock: &mut Clock,
) -> Option<bool> {
    let mut cap = first_budget(grid);
    while !clock.left().is_zero() {
        match probe(solver, grid, Extra::None, clock.budget(cap), rng, clock) {
            Probe::Solution(solution) => {
                note(seen, &solution, absent_values(grid));
                return Some(true);
            }
            Probe::NoSolution => return Some(false),
            Probe::Unsettled => cap = cap.saturating_mul(4),
        }
    }
    None
}

/// Whether `grid` has a solution: `None` if that is not settled by `deadline`.
pub fn solvable_by(solver: &mut Solver, grid: &Grid, deadline: Instant) -> Option<bool> {
    let mut clock = Clock {
        deadline,
        guesses: 0,
        spent: Duration::ZERO,
    };
    let mut seen = vec![0u32; grid.shape().cells()];
    let mut rng = SmallRng::seed_from_u64(0);
    solvable_by_noting(solver, grid, &mut seen, &mut rng, &mut clock)
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
