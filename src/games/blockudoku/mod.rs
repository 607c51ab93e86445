//! Blockudoku (Block Sudoku): place a hand of pieces on a 9x9 board, clear full rows, columns
//! and boxes, survive as long as possible.

pub mod board;
mod board_set;
pub mod danger;
pub mod eval;
pub mod eval_file;
pub mod features;
pub mod level;
pub mod ntuple;
pub mod piece;
pub mod rules;
pub mod search;
pub mod session;
mod simd;
pub mod weights;
