//! GembloQ (four colours, Two-Player, Three-Player, Two-Player Four-Color) as the reference
//! engine plays it: pieces of squares and triangles on a board of triangles (see
//! [`super::geometry::Geometry::gembloq`]). Its boards and pieces are far larger than the
//! placement tables of the other variants hold (up to 1,564 triangles, pieces of up to 22),
//! so GembloQ has rules of its own on the shared geometry and pieces, a tree search of its
//! own on them, and its GTP commands.

pub mod book;
pub mod gtp;
pub mod placements;
pub mod position;
pub mod prior;
pub mod search;
pub mod search_position;
pub mod variant;
