//! Random solved grids and puzzles with a unique solution, reproducible from a seed.
//!
//! Solved grids come from a randomised backtracking search on the empty grid (every grid can come
//! out, though not exactly uniformly) followed by a random symmetry. The seed notebook's method,
//! [`Method::Shuffle`], only applies a random symmetry to one fixed pattern grid: it reaches just
//! that grid's equivalence class (for 9x9 about 1.2e12 of the 6.7e21 grids).
//!
//! Puzzles are carved from a solved grid by removing clues in random order, keeping a removal
//! only if the solution stays unique. Removing clue `v` from cell `c` keeps the solution unique
//! exactly when no solution puts another value in `c`, so each test is one solvability question
//! with `v` forbidden in `c`. A full pass yields a minimal puzzle: a clue that was needed in a
//! larger puzzle is still needed in any puzzle with fewer clues.
use std::fmt;
use std::str::FromStr;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::grid::Grid;
use super::query::{Extra, Query};
use super::shape::{MAX_CELLS, MAX_SIZE, Shape};
use super::solver::Solver;

/// How solved grids are made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Randomised backtracking from the empty grid, then a random symmetry.
    #[default]
    Backtrack,
    /// A random symmetry of one pattern grid (reaches only that grid's equivalence class).
    Shuffle,
}

impl FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Method, String> {
        match s {
            "backtrack" => Ok(Method::Backtrack),
            "shuffle" => Ok(Method::Shuffle),
            _ => Err(format!(
                "unknown method '{s}': expected backtrack or shuffle"
            )),
        }
    }
}

/// A difficulty grade, from the number of guesses the solver needs to prove the puzzle unique.
/// Easy puzzles need none: singles and pointing/claiming alone solve them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    /// No guess.
    Easy,
    /// 1 to 3 guesses.
    Medium,
    /// 4 to 20 guesses.
    Hard,
    /// More than 20 guesses.
    Fiendish,
}

impl Grade {
    /// The grade of a puzzle whose uniqueness proof took `guesses` guesses.
    pub fn from_guesses(guesses: u64) -> Grade {
        match guesses {
            0 => Grade::Easy,
            1..=3 => Grade::Medium,
            4..=20 => Grade::Hard,
            _ => Grade::Fiendish,
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Fiendish => "fiendish",
        })
    }
}

impl FromStr for Grade {
    type Err = String;

    fn from_str(s: &str) -> Result<Grade, String> {
        match s {
            "easy" => Ok(Grade::Easy),
            "medium" => Ok(Grade::Medium),
            "hard" => Ok(Grade::Hard),
            "fiendish" => Ok(Grade::Fiendish),
            _ => Err(format!(
                "unknown grade '{s}': expected easy, medium, hard or fiendish"
            )),
        }
    }
}

/// What puzzles to make.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How the solved grid is made.
    pub method: Method,
    /// Stop removing clues at this count; `None` removes all it can (a minimal puzzle).
    pub clues: Option<usize>,
    /// With `clues`, also demand that no clue be removable.
    pub minimal: bool,
    /// Only accept puzzles of this grade.
    pub grade: Option<Grade>,
    /// Solved grids to try before giving up on `clues`, `minimal` or `grade`.
    pub attempts: usize,
    /// Guesses allowed per uniqueness check while carving; a clue whose check runs out is kept,
    /// so the puzzle stays unique but is then not proven minimal. `None`: unlimited up to 16x16,
    /// 1,000 above (25x25 checks can otherwise take seconds each).
    pub budget: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            method: Method::Backtrack,
            clues: None,
            minimal: false,
            grade: None,
            attempts: 1000,
            budget: None,
        }
    }
}

/// A generated puzzle with its solution and grade.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The clues.
    pub puzzle: Grid,
    /// The unique solution.
    pub solution: Grid,
    /// Guesses the solver needed to prove the solution unique.
    pub guesses: u64,
    /// The grade derived from `guesses`.
    pub grade: Grade,
    /// Every clue is proven needed.
    pub minimal: bool,
}

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError(pub String);

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenerateError {}

/// A seeded generator for one box shape.
pub struct Generator {
    shape: Shape,
    rng: SmallRng,
    solver: Solver,
}

impl Generator {
    /// A generator whose output depends only on `shape` and `seed`.
    pub fn new(shape: Shape, seed: u64) -> Generator {
        Generator {
            shape,
            rng: SmallRng::seed_from_u64(seed),
            solver: Solver::new(),
        }
    }

    /// A random solved grid.
    pub fn solved_grid(&mut self, method: Method) -> Grid {
        let base = match method {
            Method::Backtrack => self.backtrack_grid(),
            Method::Shuffle => pattern_grid(self.shape),
        };
        random_symmetry(&base, &mut self.rng)
    }

    /// A puzzle with a unique solution, as `options` ask.
    pub fn puzzle(&mut self, options: &Options) -> Result<Puzzle, GenerateError> {
        let mut fewest = usize::MAX;
        let large = self.shape.size() > 16;
        let budget = options
            .budget
            .unwrap_or(if large { 1_000 } else { u64::MAX });
        for _ in 0..options.attempts.max(1) {
            let solution = self.solved_grid(options.method);
            let (puzzle, mut minimal) = self.carve(&solution, options.clues, budget);
            fewest = fewest.min(puzzle.filled());
            if options.clues.is_some_and(|c| puzzle.filled() != c) {
                continue;
            }
            if options.clues.is_some() && options.minimal {
                minimal = self.is_minimal_within(&puzzle, budget) == Some(true);
            }
            if options.minimal && !minimal {
                continue;
            }
            let query = Query {
                budget,
                ..Query::count(2)
            };
            let outcome = self.solver.run(&puzzle, Extra::None, query);
            debug_assert!(outcome.aborted || outcome.count == 1);
            let grade = Grade::from_guesses(outcome.guesses);
            if options.grade.is_some_and(|g| g != grade) {
                continue;
            }
            return Ok(Puzzle {
                puzzle,
                solution,
                guesses: outcome.guesses,
                grade,
                minimal,
            });
        }
        let mut wanted = Vec::new();
        if let Some(c) = options.clues {
            wanted.push(format!("{c} clues (fewest reached: {fewest})"));
        }
        if options.minimal {
            wanted.push("minimal".to_string());
        }
        if let Some(g) = options.grade {
            wanted.push(format!("grade {g}"));
        }
        Err(GenerateError(format!(
            "no {} puzzle with {} in {} attempts",
            self.shape,
            wanted.join(", "),
            options.attempts.max(1)
        )))
    }

    /// True if every clue of `puzzle` (which must have a unique solution) is needed.
    pub fn is_minimal(&mut self, puzzle: &Grid) -> bool {
        self.is_minimal_within(puzzle, u64::MAX) == Some(true)
    }

    /// Like [`Generator::is_minimal`] with `budget` guesses per clue; `None` if undecided.
    fn is_minimal_within(&mut self, puzzle: &Grid, budget: u64) -> Option<bool> {
        let mut p = puzzle.clone();
        let mut answer = Some(true);
        for cell in 0..p.shape().cells() {
            let value = p.clear(cell);
            if value != 0 {
                match self.other_solution_exists(&p, cell, value, budget) {
                    Some(true) => {}
                    Some(false) => return Some(false),
                    None => answer = None,
                }
                p.place(cell, value).expect("restoring a clue");
            }
        }
        answer
    }

    /// Does `grid` have a solution with something other than `value` in `cell`? `None` if
    /// `budget` guesses did not settle it.
    fn other_solution_exists(
        &mut self,
        grid: &Grid,
        cell: usize,
        value: u8,
        budget: u64,
    ) -> Option<bool> {
        let query = Query {
            budget,
            ..Query::count(1)
        };
        let outcome = self.solver.run(grid, Extra::Forbid(cell, value), query);
        (!outcome.aborted).then_some(outcome.count > 0)
    }

    /// Removes clues in random order while the solution stays unique, stopping at `target`.
    /// Also says whether the result is proven minimal (full pass, every check settled).
    fn carve(&mut self, solution: &Grid, target: Option<usize>, budget: u64) -> (Grid, bool) {
        let cells = self.shape.cells();
        let mut order = [0u16; MAX_CELLS];
        for (i, slot) in order[..cells].iter_mut().enumerate() {
            *slot = i as u16;
        }
        order[..cells].shuffle(&mut self.rng);
        let mut puzzle = solution.clone();
        let mut minimal = true;
        for &cell in &order[..cells] {
            if target.is_some_and(|t| puzzle.filled() <= t) {
                return (puzzle, false);
            }
            let cell = cell as usize;
            let value = puzzle.clear(cell);
            let other = self.other_solution_exists(&puzzle, cell, value, budget);
            if other != Some(false) {
                minimal &= other.is_some();
                puzzle.place(cell, value).expect("restoring a clue");
            }
        }
        (puzzle, minimal)
    }

    /// Randomised backtracking on the empty grid, restarted if a search wanders too long.
    fn backtrack_grid(&mut self) -> Grid {
        let empty = Grid::empty(self.shape);
        let query = Query {
            want_solution: true,
            budget: 20 * self.shape.cells() as u64,
            ..Query::count(1)
        };
        loop {
            let outcome = self
                .solver
                .run_random(&empty, Extra::None, query, &mut self.rng);
            if let Some(grid) = outcome.solution {
                return grid;
            }
        }
    }
}

/// The pattern grid the shuffle method starts from: row `r` is the sequence 1..N shifted by
/// `n * (r % m) + r / m` (the seed's grid for 3x3).
pub fn pattern_grid(shape: Shape) -> Grid {
    let (m, n, size) = (shape.box_rows(), shape.box_cols(), shape.size());
    let values: Vec<u8> = (0..shape.cells())
        .map(|i| {
            let (r, c) = (i / size, i % size);
            ((n * (r % m) + r / m + c) % size) as u8 + 1
        })
        .collect();
    Grid::from_values(shape, &values).expect("the pattern grid is valid")
}

/// A random validity-preserving transformation of `grid`: relabel the values, permute the bands
/// and the rows inside each band, the stacks and the columns inside each stack, and transpose
/// when the boxes are square.
pub fn random_symmetry(grid: &Grid, rng: &mut SmallRng) -> Grid {
    let shape = grid.shape();
    let (m, n, size) = (shape.box_rows(), shape.box_cols(), shape.size());
    let mut relabel = [0u8; MAX_SIZE + 1];
    let mut labels: Vec<u8> = (1..=size as u8).collect();
    labels.shuffle(rng);
    relabel[1..=size].copy_from_slice(&labels);
    // A band is m rows (there are n bands); a stack is n columns (there are m stacks).
    let rows = line_order(n, m, rng);
    let cols = line_order(m, n, rng);
    let transpose = m == n && rng.random_range(0..2) == 1;
    let values: Vec<u8> = (0..shape.cells())
        .map(|i| {
            let (mut r, mut c) = (rows[i / size], cols[i % size]);
            if transpose {
                std::mem::swap(&mut r, &mut c);
            }
            relabel[grid.get(r * size + c) as usize]
        })
        .collect();
    Grid::from_values(shape, &values).expect("symmetries keep a grid valid")
}

/// A random order of `groups * width` lines that keeps groups of `width` consecutive lines
/// together: the groups are shuffled, and the lines inside each group.
fn line_order(groups: usize, width: usize, rng: &mut SmallRng) -> Vec<usize> {
    let mut group_order: Vec<usize> = (0..groups).collect();
    group_order.shuffle(rng);
    let mut order = Vec::with_capacity(groups * width);
    for g in group_order {
        let mut inner: Vec<usize> = (g * width..(g + 1) * width).collect();
        inner.shuffle(rng);
        order.extend(inner);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPES: [&str; 7] = ["2x2", "2x3", "3x2", "3x3", "3x4", "4x3", "4x4"];

    #[test]
    fn pattern_grid_matches_the_seed() {
        assert_eq!(
            pattern_grid(Shape::CLASSIC).to_string(),
            "123456789456789123789123456234567891567891234891234567345678912678912345912345678"
        );
        for shape in SHAPES {
            assert!(pattern_grid(shape.parse().unwrap()).is_complete());
        }
    }

    #[test]
    fn solved_grids_are_valid_for_both_methods() {
        for shape in SHAPES {
            let mut g = Generator::new(shape.parse().unwrap(), 7);
            for method in [Method::Backtrack, Method::Shuffle] {
                // Grids are built through Grid::from_values, which refuses repeated values.
                assert!(g.solved_grid(method).is_complete());
            }
        }
    }

    #[test]
    fn puzzles_are_unique_and_minimal() {
        for shape in SHAPES {
            let mut g = Generator::new(shape.parse().unwrap(), 11);
            for _ in 0..3 {
                let p = g.puzzle(&Options::default()).unwrap();
                assert_eq!(p.puzzle.count_solutions(2), 1, "{shape}");
                assert_eq!(p.puzzle.solve().unwrap(), p.solution);
                assert!(p.minimal && g.is_minimal(&p.puzzle), "{shape}");
            }
        }
    }

    #[test]
    fn same_seed_same_puzzles() {
        let make = |seed| {
            let mut g = Generator::new(Shape::CLASSIC, seed);
            (0..3)
                .map(|_| g.puzzle(&Options::default()).unwrap().puzzle.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(make(5), make(5));
        assert_ne!(make(5), make(6));
    }

    #[test]
    fn clue_target_is_met() {
        let mut g = Generator::new(Shape::CLASSIC, 3);
        let options = Options {
            clues: Some(30),
            ..Options::default()
        };
        let p = g.puzzle(&options).unwrap();
        assert_eq!(p.puzzle.filled(), 30);
        assert_eq!(p.puzzle.count_solutions(2), 1);
        let impossible = Options {
            clues: Some(12),
            attempts: 3,
            ..Options::default()
        };
        assert!(g.puzzle(&impossible).is_err());
    }

    #[test]
    fn grade_target_is_met() {
        let mut g = Generator::new(Shape::CLASSIC, 9);
        for grade in [Grade::Easy, Grade::Medium] {
            let options = Options {
                grade: Some(grade),
                ..Options::default()
            };
            assert_eq!(g.puzzle(&options).unwrap().grade, grade);
        }
    }
}
