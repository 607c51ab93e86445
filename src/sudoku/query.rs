//! What a search of the solvers is asked and what it finds: the [`Extra`] restriction on top of
//! the grid, the [`Query`] (how many solutions, whether to keep one, a guess budget) and the
//! [`Outcome`]. Shared by the solver facade ([`super::solver`]) and the two solvers behind it.
use super::grid::Grid;

/// An extra restriction on top of a grid, so a caller need not copy the grid to ask about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extra {
    /// Nothing more.
    None,
    /// Also write this value in this cell (the move must be legal, else there is no solution).
    Place(usize, u8),
    /// This value may not go in this (empty) cell.
    Forbid(usize, u8),
}

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query {
    /// Stop after this many solutions.
    pub limit: u64,
    /// Keep the first solution found.
    pub want_solution: bool,
    /// Stop after this many guesses (then [`Outcome::aborted`] is set).
    pub budget: u64,
}

impl Query {
    /// Count solutions up to `limit`: no solution kept, no guess budget.
    pub fn count(limit: u64) -> Query {
        Query {
            limit,
            want_solution: false,
            budget: u64::MAX,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub count: u64,
    /// The first solution, when asked for.
    pub solution: Option<Grid>,
    /// Branches tried: 0 means propagation alone (singles and locked candidates) settled the
    /// question.
    pub guesses: u64,
    /// The guess budget ran out before the limit was reached (only for budgeted searches).
    pub aborted: bool,
}
