//! Solving as people do: techniques in HoDoKu's families, one step at a time, each step an
//! explanation (technique, cells, placements, eliminations), and a difficulty rating from the
//! path (HoDoKu's scores and levels).
//!
//! Done: singles, locked candidates, locked/naked/hidden subsets, basic fish. When nothing
//! applies the path falls back to brute force (the solution's digit in one cell, level extreme).
//! Works on every box shape: the units are the rows, columns and boxes.
mod board;
mod fish;
mod intersections;
mod path;
mod singles;
mod step;
mod subsets;
mod technique;

pub use board::Board;
pub use path::{
    PathError, Rating, check_candidates, next_step, rate, solve_board, unique_solution,
};
pub use step::Step;
pub use technique::{Level, Technique};
