//! Sudoku solving, counting and generation for any box shape (m x n boxes, N = m*n).
pub mod cli;
