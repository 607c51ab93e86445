//! Sudoku solving, counting and generation for any box shape (m x n boxes, N = m*n, N <= 25).
//!
//! - [`Grid`]: an owned, fixed-size grid (values plus placed-value masks); moves and queries never
//!   allocate. [`Grid::is_solvable_after`] answers "is the grid still solvable after this move?".
//! - [`Solver`]: the reusable solver behind the `Grid` queries; 3x3 boxes use a band-oriented
//!   bitboard solver, every other shape a generic candidate-mask solver with the same API.
//! - [`generate`]: random solved grids and unique (optionally minimal) puzzles, reproducible
//!   from a seed.
//! - [`cli`]: the `tessera sudoku ...` subcommands.
pub mod budget;
pub mod cli;
pub mod feasible;
pub mod generate;
mod generic;
mod grid;
pub mod human;
mod nine;
mod query;
mod shape;
mod solver;

pub use grid::{Grid, GridError, MoveError, char_value, value_char};
pub use query::Outcome;
pub use shape::{MAX_CELLS, MAX_SIZE, Shape, ShapeError};
pub use solver::Solver;
