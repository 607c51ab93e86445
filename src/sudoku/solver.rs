//! The solver facade: one API for every box shape. 3x3 boxes go to the band-oriented bitboard
//! solver ([`super::nine`]), all other shapes to the generic candidate-mask solver.
use std::cell::RefCell;

use rand::rngs::SmallRng;

use super::generic::Workspace;
use super::grid::Grid;
use super::nine;
use super::query::{Extra, Outcome, Query};
use super::shape::Shape;

/// A reusable solver. Holding one avoids even the thread-local lookup of the `Grid` methods; the
/// 9x9 path never allocates, the generic path only the first time a search depth is reached.
pub struct Solver {
    workspace: Workspace,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty workspace.
    pub fn new() -> Solver {
        Solver {
            workspace: Workspace::new(),
        }
    }

    /// One solution of `grid`, if any.
    pub fn solve(&mut self, grid: &Grid) -> Option<Grid> {
        let query = Query {
            want_solution: true,
            ..Query::count(1)
        };
        self.run(grid, Extra::None, query).solution
    }

    /// The number of solutions of `grid`, stopping at `limit` (use 2 to test uniqueness).
    pub fn count(&mut self, grid: &Grid, limit: u64) -> u64 {
        self.run(grid, Extra::None, Query::count(limit)).count
    }

    /// True if `grid` has a solution.
    pub fn is_solvable(&mut self, grid: &Grid) -> bool {
        self.count(grid, 1) > 0
    }

    /// True if writing `value` in `cell` is legal and leaves `grid` solvable; `grid` is not copied.
    pub fn is_solvable_after(&mut self, grid: &Grid, cell: usize, value: u8) -> bool {
        grid.check_move(cell, value).is_ok()
            && self
                .run(grid, Extra::Place(cell, value), Query::count(1))
                .count
                > 0
    }

    /// Counts solutions up to `limit` and reports how many guesses that took.
    pub fn analyse(&mut self, grid: &Grid, limit: u64) -> Outcome {
        self.run(grid, Extra::None, Query::count(limit))
    }

    /// Runs a query on the solver suited to the grid's shape.
    pub(crate) fn run(&mut self, grid: &Grid, extra: Extra, query: Query) -> Outcome {
        if grid.shape() == Shape::CLASSIC {
            nine::run(grid, extra, query, None)
        } else {
            self.workspace.run(grid, extra, query, None)
        }
    }

    /// A search with branches tried in random order (any shape).
    pub(crate) fn run_random(
        &mut self,
        grid: &Grid,
        extra: Extra,
        query: Query,
        rng: &mut SmallRng,
    ) -> Outcome {
        if grid.shape() == Shape::CLASSIC {
            nine::run(grid, extra, query, Some(rng))
        } else {
            self.workspace.run(grid, extra, query, Some(rng))
        }
    }
}

/// Runs `f` with this thread's shared solver.
fn with_thread_solver<R>(f: impl FnOnce(&mut Solver) -> R) -> R {
    thread_local! {
        static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
    }
    SOLVER.with(|s| f(&mut s.borrow_mut()))
}

/// The solving questions of a grid, answered by this thread's solver. They are here rather than
/// with the rest of [`Grid`] because the solvers are built on the grid, not the other way round.
impl Grid {
    /// One solution, if any.
    pub fn solve(&self) -> Option<Grid> {
        with_thread_solver(|s| s.solve(self))
    }

    /// The number of solutions, counting stops at `limit`.
    pub fn count_solutions(&self, limit: u64) -> u64 {
        with_thread_solver(|s| s.count(self, limit))
    }

    /// True if the grid has at least one solution.
    pub fn is_solvable(&self) -> bool {
        with_thread_solver(|s| s.is_solvable(self))
    }

    /// True if the grid has exactly one solution.
    pub fn has_unique_solution(&self) -> bool {
        self.count_solutions(2) == 1
    }

    /// True if `value` may be written in `cell` and the grid stays solvable afterwards; the grid
    /// itself is not copied.
    pub fn is_solvable_after(&self, cell: usize, value: u8) -> bool {
        with_thread_solver(|s| s.is_solvable_after(self, cell, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hard 9x9 puzzle (magictour top1465 #1) and its unique solution.
    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    const HARD_SOLUTION: &str =
        "468931527751624839392578461134756298289413675675289314846192753513867942927345186";

    fn grid(shape: &str, line: &str) -> Grid {
        Grid::parse(shape.parse().unwrap(), line).unwrap()
    }

    /// Solves with the generic solver even for 9x9, to cross-check the band solver.
    fn generic(grid: &Grid, limit: u64) -> Outcome {
        let query = Query {
            want_solution: true,
            ..Query::count(limit)
        };
        Workspace::new().run(grid, Extra::None, query, None)
    }

    fn extends(puzzle: &Grid, solution: &Grid) -> bool {
        solution.is_complete()
            && puzzle
                .values()
                .iter()
                .zip(solution.values())
                .all(|(&p, &s)| p == 0 || p == s)
    }

    #[test]
    fn solves_a_hard_nine_by_nine_both_ways() {
        let g = grid("3x3", HARD);
        let mut solver = Solver::new();
        assert_eq!(solver.solve(&g).unwrap().to_string(), HARD_SOLUTION);
        assert_eq!(solver.count(&g, 2), 1);
        let out = generic(&g, 2);
        assert_eq!(out.count, 1);
        assert_eq!(out.solution.unwrap().to_string(), HARD_SOLUTION);
    }

    #[test]
    fn counts_all_288_four_by_four_grids() {
        let empty = Grid::empty(Shape::new(2, 2).unwrap());
        assert_eq!(empty.count_solutions(1000), 288);
        assert_eq!(empty.count_solutions(100), 100);
    }

    #[test]
    fn counts_multiple_solutions_both_ways() {
        // Emptying rows 0 and 1 of this grid leaves each column a pair of values; the pairs form
        // three 3-cycles ({1,4,7}, {2,5,8}, {3,6,9}), each fillable 2 ways: 8 solutions.
        let seed =
            "123456789456789123789123456234567891567891234891234567345678912678912345912345678";
        let mut g = grid("3x3", seed);
        for cell in 0..18 {
            g.clear(cell);
        }
        assert_eq!(Solver::new().count(&g, 100), 8);
        assert_eq!(generic(&g, 100).count, 8);
        assert_eq!(Solver::new().count(&g, 2), 2);
        let mut first_row = Grid::empty(Shape::new(2, 2).unwrap());
        for (cell, value) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
            first_row.place(cell, value).unwrap();
        }
        assert_eq!(first_row.count_solutions(1000), 288 / 24);
        let empty = Grid::empty(Shape::CLASSIC);
        assert_eq!(Solver::new().count(&empty, 5000), 5000);
        assert_eq!(generic(&empty, 5000).count, 5000);
    }

    #[test]
    fn detects_unsolvable_grids() {
        // Legal so far, but the top-left cell can take no value.
        let mut g = Grid::empty(Shape::CLASSIC);
        for (cell, value) in [
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
            (9, 8),
        ] {
            g.place(cell, value).unwrap();
        }
        g.place(27, 9).unwrap();
        assert!(!g.is_solvable());
        assert_eq!(generic(&g, 1).count, 0);
        let mut h = Grid::empty(Shape::new(2, 3).unwrap());
        h.place(0, 1).unwrap();
        assert!(h.is_solvable());
        assert!(!h.is_solvable_after(0, 2)); // occupied
        assert!(h.is_solvable_after(1, 2));
    }

    #[test]
    fn solvable_after_matches_copying_the_grid() {
        let g = grid("3x3", HARD);
        let mut solver = Solver::new();
        for cell in 0..81 {
            for value in 1..=9 {
                let copied = g
                    .with_move(cell, value)
                    .is_ok_and(|next| solver.is_solvable(&next));
                assert_eq!(solver.is_solvable_after(&g, cell, value), copied);
                let right = g.get(cell) == 0 && HARD_SOLUTION.as_bytes()[cell] == b'0' + value;
                assert_eq!(copied, right);
            }
        }
    }

    #[test]
    fn solves_every_shape() {
        let mut solver = Solver::new();
        for shape in ["2x2", "2x3", "3x2", "3x4", "4x3", "4x4", "2x5", "5x5"] {
            let empty = Grid::empty(shape.parse().unwrap());
            let solution = solver.solve(&empty).unwrap();
            assert!(extends(&empty, &solution), "{shape}");
        }
    }
}
