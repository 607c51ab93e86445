//! `tessera_engine._native`: the tessera engine's rules and searches as a Python extension module.
//!
//! - [`blockudoku`], [`blockudoku_batch`]: Blockudoku, one game or many stepped together.
//! - [`blokus`]: Blokus in every variant.
//! - [`compsudoku`]: Competitive Sudoku, any box shape, every mode.
//! - [`sudoku`]: solving, counting and generating sudokus.
//! - [`search`]: the engine's search of any of these states, without the GIL.
//!
//! Every method checks its input before it changes anything and raises a Python exception
//! ([`errors`]) on bad input, so no call from Python can leave a state half changed.

mod arrays;
mod blockudoku;
mod blockudoku_batch;
mod blockudoku_rules;
mod blokus;
mod compsudoku;
mod errors;
mod moves;
mod search;
mod sudoku;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("GameOverError", py.get_type::<errors::GameOverError>())?;
    m.add_class::<search::SearchResult>()?;
    m.add_class::<blockudoku::Blockudoku>()?;
    m.add_class::<blockudoku_batch::BlockudokuBatch>()?;
    m.add_class::<blokus::Blokus>()?;
    m.add_class::<compsudoku::CompSudoku>()?;
    m.add_function(wrap_pyfunction!(sudoku::solve, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::count_solutions, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::generate, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::rate, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::explain, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku::hint, m)?)?;
    Ok(())
}
