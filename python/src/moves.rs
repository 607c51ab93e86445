//! Moves as Python gives them: an action number or the protocol's notation.

use pyo3::FromPyObject;

/// A move argument: an action number (an `int`, NumPy integers included) or notation (`str`).
#[derive(FromPyObject)]
pub enum MoveArg {
    Action(i64),
    Notation(String),
}
