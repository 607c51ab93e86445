//! Blokus: Classic, Two-Player, Three-Player, Duo, Junior, Trigon, Callisto, Nexos and GembloQ (their
//! rules as the reference engine plays them); rules, placement tables, Monte Carlo tree search,
//! the protocol session, the GTP front end and game records (SGF).

pub mod board;
pub mod book;
pub mod considered;
pub mod game;
pub mod gembloq;
pub mod geometry;
pub mod gtp;
pub mod gtp_colour;
pub mod last_tree;
pub mod level;
pub mod mcts;
pub mod move_lists;
pub mod node_stats;
pub mod pieces;
pub mod playout;
pub mod position_value;
pub mod prior;
pub mod quality;
pub mod reply;
pub mod rng;
pub mod session;
pub mod sgf;
pub mod tables;
pub mod tree_memory;
