//! Sudoku solving, counting and generation for any box shape, by the engine's solver and
//! generator, without the GIL; and solving as people do: ratings, paths and hints.

use crate::errors::value_error;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tessera::sudoku::generate::{Generator, Grade, Options};
use tessera::sudoku::human::{
    Board, Step, check_candidates, next_step, rate as rate_path, solve_board, unique_solution,
};
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

/// A step as Python reads it: the technique's name, the placements and eliminations as
/// `(row, column, digit)` from 1, the cells of its pattern as `(row, column)`, and the step in
/// words (`Hidden Single: r3c4=5 (only place for 5 in box 2)`), said of `board` before it.
fn step_dict<'py>(py: Python<'py>, board: &Board, step: &Step) -> PyResult<Bound<'py, PyDict>> {
    let at = |&(cell, digit): &(usize, u8)| (board.row(cell) + 1, board.col(cell) + 1, digit);
    let dict = PyDict::new(py);
    dict.set_item("technique", step.technique.name())?;
    dict.set_item(
        "placements",
        step.placements.iter().map(at).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "eliminations",
        step.eliminations.iter().map(at).collect::<Vec<_>>(),
    )?;
    let cells: Vec<_> = step
        .cells
        .iter()
        .map(|&c| (board.row(c) + 1, board.col(c) + 1))
        .collect();
    dict.set_item("cells", cells)?;
    dict.set_item("text", step.describe(board))?;
    Ok(dict)
}

/// A puzzle's unique solution and its human path, or the reason there is none.
fn human_path(grid: &Grid) -> PyResult<(Board, Vec<Step>)> {
    let solution = unique_solution(grid).map_err(|e| value_error(e.to_string()))?;
    let board = Board::new(grid);
    let steps = solve_board(board.clone(), &solution);
    Ok((board, steps))
}

/// The rating of a path as a dict: level, score, hardest technique, solved by logic alone.
fn rating_dict<'py>(py: Python<'py>, steps: &[Step]) -> PyResult<Bound<'py, PyDict>> {
    let rating = rate_path(steps);
    let dict = PyDict::new(py);
    dict.set_item("level", rating.level.to_string())?;
    dict.set_item("score", rating.score)?;
    dict.set_item("hardest", rating.hardest.map(|t| t.name()))?;
    dict.set_item("solved_by_logic", rating.by_logic)?;
    Ok(dict)
}

/// How hard `grid` is for people, as `tessera sudoku rate` says: a dict of `level` (easy,
/// medium, hard, unfair, extreme), `score`, `hardest` (the hardest technique's name) and
/// `solved_by_logic`. A grid with no solution or several raises ValueError.
#[pyfunction]
#[pyo3(signature = (grid, r#box = None))]
pub fn rate<'py>(
    py: Python<'py>,
    grid: GridArg,
    r#box: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let grid = parse_grid(&grid, r#box)?;
    let (_, steps) = py.detach(|| human_path(&grid))?;
    rating_dict(py, &steps)
}

/// The human solution path of `grid`, as `tessera sudoku explain --json` gives it: the rating's
/// keys, `puzzle`, and `steps`, each a dict (`technique`, `placements`, `eliminations`,
/// `cells`, `text`).
#[pyfunction]
#[pyo3(signature = (grid, r#box = None))]
pub fn explain<'py>(
    py: Python<'py>,
    grid: GridArg,
    r#box: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let grid = parse_grid(&grid, r#box)?;
    let (mut board, steps) = py.detach(|| human_path(&grid))?;
    let dict = rating_dict(py, &steps)?;
    dict.set_item("puzzle", grid.to_string())?;
    let mut said = Vec::with_capacity(steps.len());
    for step in &steps {
        said.push(step_dict(py, &board, step)?);
        step.apply(&mut board);
    }
    dict.set_item("steps", said)?;
    Ok(dict)
}

/// The next step of a grid being solved, as a GUI's hint: a step dict (see `explain`), or `None`
/// when the grid is full. `candidates`, if given, are the player's pencil marks: for each cell
/// row-major the digits still possible (ignored in filled cells); they must keep the solution's
/// digit. A grid with no solution or several, or marks that leave out the solution, raise
/// ValueError.
#[pyfunction]
#[pyo3(signature = (grid, candidates = None, r#box = None))]
pub fn hint<'py>(
    py: Python<'py>,
    grid: GridArg,
    candidates: Option<Vec<Vec<u8>>>,
    r#box: Option<&str>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let grid = parse_grid(&grid, r#box)?;
    let board = match candidates {
        None => Board::new(&grid),
        Some(marks) => Board::with_candidates(&grid, &candidate_masks(&grid, &marks)?),
    };
    let solution = py
        .detach(|| unique_solution(&grid))
        .map_err(|e| value_error(e.to_string()))?;
    check_candidates(&board, &solution).map_err(|e| value_error(e.to_string()))?;
    match next_step(&board, &solution) {
        Some(step) => Ok(Some(step_dict(py, &board, &step)?)),
        None => Ok(None),
    }
}

/// Pencil marks as the solver's masks, checked against the grid's size.
fn candidate_masks(grid: &Grid, marks: &[Vec<u8>]) -> PyResult<Vec<u32>> {
    let shape = grid.shape();
    if marks.len() != shape.cells() {
        return Err(value_error(format!(
            "candidates: {} cells given, the grid has {}",
            marks.len(),
            shape.cells()
        )));
    }
    let size = shape.size();
    marks
        .iter()
        .map(|digits| {
            digits.iter().try_fold(0u32, |mask, &d| match d {
                1.. if usize::from(d) <= size => Ok(mask | 1 << (d - 1)),
                _ => Err(value_error(format!(
                    "candidates: {d} is not a digit of a grid of size {size}"
                ))),
            })
        })
        .collect()
}
