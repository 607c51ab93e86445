//! Solver questions with a guess budget, for callers that must stay fast on large grids (an
//! almost empty 25x25 grid with one wrong value can take the backtracking solver very long).

use super::grid::Grid;
use super::query::{Extra, Query};
use super::solver::Solver;

/// `Some(true)` if writing `value` in `cell` is legal and leaves `grid` solvable, `Some(false)`
/// if not, `None` if the solver gave up after `guesses` branches.
pub fn solvable_after_within(
    solver: &mut Solver,
    grid: &Grid,
    cell: usize,
    value: u8,
    guesses: u64,
) -> Option<bool> {
    if grid.check_move(cell, value).is_err() {
        return Some(false);
    }
    let out = solver.run(
        grid,
        Extra::Place(cell, value),
        Query {
            limit: 1,
            want_solution: false,
            budget: guesses,
        },
    );
    if out.count > 0 {
        Some(true)
    } else if out.aborted {
        None
    } else {
        Some(false)
    }
}

/// Solutions of `grid` counted up to `limit`, or `None` if the solver gave up after `guesses`.
pub fn count_within(solver: &mut Solver, grid: &Grid, limit: u64, guesses: u64) -> Option<u64> {
    let out = solver.run(
        grid,
        Extra::None,
        Query {
            limit,
            want_solution: false,
            budget: guesses,
        },
    );
    (!out.aborted || out.count >= limit).then_some(out.count)
}
