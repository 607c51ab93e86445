//! Sudoku solving, counting and generation for any box shape, by the engine's solver and
//! generator, without the GIL.

use crate::errors::value_error;
use pyo3::prelude::*;
use tessera::sudoku::generate::{Generator, Grade, Options};
use tessera::sudoku::{Grid, Shape, Solver};

/// A grid as Python gives it: one line of N*N characters (`.` or `0` empty, `1`-`9`, `A` = 10,
/// ...) or the N*N values row-major (0 empty).
#[derive(FromPyObject)]
pub enum GridArg {
    Text(String),
    Values(Vec<u8>),
}

/// The box shape: given as `MxN`, else the square shape of the grid's cell count.
fn shape_of(grid: &GridArg, r#box: Option<&str>) -> PyResult<Shape> {
    if let Some(text) = r#box {
        return text.parse().map_err(|e| value_error(format!("{e}")));
    }
    let cells = match grid {
        GridArg::Text(text) => text.chars().filter(|c| !c.is_whitespace()).count(),
        GridArg::Values(values) => values.len(),
    };
    Shape::from_cell_count(cells).ok_or_else(|| {
        value_error(format!(
            "a grid of {cells} cells needs box='MxN' (square boxes have 16, 81, 256 or 625 cells)"
        ))
    })
}

/// Parses a grid, refusing repeated values.
fn parse_grid(grid: &GridArg, r#box: Option<&str>) -> PyResult<Grid> {
    let shape = shape_of(grid, r#box)?;
    match grid {
        GridArg::Text(text) => {
            let line: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            Grid::parse(shape, &line)
        }
        GridArg::Values(values) => Grid::from_values(shape, values),
    }
    .map_err(|e| value_error(format!("bad grid: {e}")))
}

/// One solution of `grid` as a line of characters, `None` if it has none.
#[pyfunction]
#[pyo3(signature = (grid, r#box = None))]
pub fn solve(py: Python<'_>, grid: GridArg, r#box: Option<&str>) -> PyResult<Option<String>> {
    let grid = parse_grid(&grid, r#box)?;
    Ok(py.detach(|| Solver::new().solve(&grid).map(|g| g.to_string())))
}

/// The number of solutions of `grid`, counting up to `limit` (2 tells whether it is unique).
#[pyfunction]
#[pyo3(signature = (grid, limit = 2, r#box = None))]
pub fn count_solutions(
    py: Python<'_>,
    grid: GridArg,
    limit: u64,
    r#box: Option<&str>,
) -> PyResult<u64> {
    let grid = parse_grid(&grid, r#box)?;
    Ok(py.detach(|| Solver::new().count(&grid, limit)))
}

/// A puzzle with a unique solution, reproducible from `seed`: returns (puzzle, solution) as
/// lines of characters. `clues` stops carving at that many clues, `minimal` demands that no
/// clue be removable, `grade` (easy, medium, hard, fiendish) accepts only that difficulty;
/// `attempts` solved grids are tried before giving up.
#[pyfunction]
#[pyo3(signature = (r#box = "3x3", seed = 0, clues = None, minimal = false, grade = None, attempts = 1000))]
pub fn generate(
    py: Python<'_>,
    r#box: &str,
    seed: u64,
    clues: Option<usize>,
    minimal: bool,
    grade: Option<&str>,
    attempts: usize,
) -> PyResult<(String, String)> {
    let shape: Shape = r#box.parse().map_err(|e| value_error(format!("{e}")))?;
    let grade = grade
        .map(|g| g.parse::<Grade>())
        .transpose()
        .map_err(value_error)?;
    if clues.is_some_and(|c| c > shape.cells()) {
        return Err(value_error(format!(
            "a {box} grid has {} cells",
            shape.cells()
        )));
    }
    let options = Options {
        clues,
        minimal,
        grade,
        attempts,
        ..Options::default()
    };
    let puzzle = py
        .detach(|| Generator::new(shape, seed).puzzle(&options))
        .map_err(|e| value_error(e.to_string()))?;
    Ok((puzzle.puzzle.to_string(), puzzle.solution.to_string()))
}
