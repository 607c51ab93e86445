//! The exceptions the module raises, and conversions of the engine's error strings to them.

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    tessera_engine,
    IllegalMoveError,
    PyValueError,
    "A move or action the rules do not allow in this state; the state is unchanged."
);
create_exception!(
    tessera_engine,
    GameOverError,
    IllegalMoveError,
    "A move asked of a finished game; the state is unchanged."
);

/// A `ValueError` with the engine's message (bad notation, unknown names, bad shapes).
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// An [`IllegalMoveError`] with the engine's message.
pub fn illegal(message: impl Into<String>) -> PyErr {
    IllegalMoveError::new_err(message.into())
}

/// A [`GameOverError`] naming what was asked.
pub fn game_over(what: &str) -> PyErr {
    GameOverError::new_err(format!("{what}: the game is over"))
}
