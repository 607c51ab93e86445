//! Competitive Sudoku (protocol name `sudoku`): two players fill a sudoku in turn and score for
//! completed rows, columns and boxes; a move that would leave the grid unsolvable becomes taboo
//! and passes the turn. Classic mode and the territory modes (rows, border, random).
//!
//! - [`rules`]: the game state, legality, taboo decisions, scoring, skips, the end.
//! - [`search`]: iterative-deepening alpha-beta over cells.
//! - [`session`]: the protocol front (`newgame sudoku box 3x3 mode classic`, `position`, ...).
//! - [`levels`]: the `Level` ladder, from random and greedy play to the full search.
//! - [`boards`]: the course framework's board files (v12 and v14 formats).

pub mod boards;
pub mod levels;
pub mod rules;
pub mod search;
pub mod session;
