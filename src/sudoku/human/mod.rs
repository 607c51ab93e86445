//! Solving as people do: techniques in HoDoKu's families, one step at a time, each step an
//! explanation (technique, cells, placements, eliminations), and a difficulty rating from the
//! path (HoDoKu's scores and levels).
//!
//! Done: singles; locked candidates; locked, naked and hidden subsets; basic, finned and sashimi
//! fish up to Jellyfish; Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle; W-, XY- and
//! XYZ-Wing; Unique Rectangle types 1 and 2, BUG+1; simple colors; X-Chain, XY-Chain, AIC.
//! Left: Remote Pair, UR types 3-6 and hidden/avoidable rectangles, multi colors, grouped nice
//! loops, ALS techniques, Sue de Coq, Franken/mutant fish, forcing chains. When nothing applies
//! the path falls back to brute force (the solution's digit in one cell, level extreme).
//! Works on every box shape: the units are the rows, columns and boxes.
mod board;
mod chains;
mod coloring;
mod fish;
mod intersections;
mod path;
mod single_digit;
mod singles;
mod step;
mod subsets;
mod technique;
mod uniqueness;
mod wings;

pub use board::Board;
pub use path::{
    PathError, Rating, check_candidates, next_step, rate, solve_board, unique_solution,
};
pub use step::Step;
pub use technique::{Level, Technique};
