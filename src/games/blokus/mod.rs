//! Blokus: Classic, Two-Player, Three-Player, Duo and Junior; rules, placement tables, Monte
//! Carlo tree search, the protocol session and the GTP front end.

pub mod board;
pub mod game;
pub mod gtp;
pub mod mcts;
pub mod pieces;
pub mod playout;
pub mod quality;
pub mod session;
pub mod tables;
