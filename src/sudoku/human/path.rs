//! The solution path: the first technique (in [`Technique::ALL`] order) that makes progress is
//! applied, again and again, until the grid is full; and its rating.
use std::fmt;

use super::board::Board;
use super::step::Step;
use super::technique::{Level, Technique};
use super::{
    chains, coloring, fish, intersections, single_digit, singles, subsets, uniqueness, wings,
};
use crate::sudoku::{Grid, Solver};

/// Why a grid has no path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// The grid has no solution.
    NoSolution,
    /// The grid has several solutions (human techniques assume one).
    SeveralSolutions,
    /// Given candidates remove the solution's digit from a cell.
    WrongCandidates { row: usize, col: usize, digit: u8 },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PathError::NoSolution => f.write_str("the puzzle has no solution"),
            PathError::SeveralSolutions => f.write_str("the puzzle has several solutions"),
            PathError::WrongCandidates { row, col, digit } => write!(
                f,
                "the candidates of r{row}c{col} leave out {}, the digit of the solution",
                crate::sudoku::value_char(digit)
            ),
        }
    }
}

impl std::error::Error for PathError {}

/// The unique solution of `grid`.
pub fn unique_solution(grid: &Grid) -> Result<Grid, PathError> {
    let mut solver = Solver::new();
    match solver.count(grid, 2) {
        0 => Err(PathError::NoSolution),
        1 => Ok(solver.solve(grid).expect("one solution")),
        _ => Err(PathError::SeveralSolutions),
    }
}

/// Checks that `board`'s candidates keep every digit of `solution`.
pub fn check_candidates(board: &Board, solution: &Grid) -> Result<(), PathError> {
    match (0..board.cells()).find(|&c| board.value(c) == 0 && !board.has(c, solution.get(c))) {
        Some(c) => Err(PathError::WrongCandidates {
            row: board.row(c) + 1,
            col: board.col(c) + 1,
            digit: solution.get(c),
        }),
        None => Ok(()),
    }
}

/// The step `technique` finds on `board`, if any (brute force reads `solution`).
pub fn find(board: &Board, technique: Technique, solution: &Grid) -> Option<Step> {
    use Technique as T;
    match technique {
        T::FullHouse => singles::full_house(board),
        T::NakedSingle => singles::naked_single(board),
        T::HiddenSingle => singles::hidden_single(board),
        T::LockedPair => subsets::locked(board, 2),
        T::LockedTriple => subsets::locked(board, 3),
        T::Pointing => intersections::pointing(board),
        T::Claiming => intersections::claiming(board),
        T::NakedPair => subsets::naked(board, 2),
        T::NakedTriple => subsets::naked(board, 3),
        T::NakedQuad => subsets::naked(board, 4),
        T::HiddenPair => subsets::hidden(board, 2),
        T::HiddenTriple => subsets::hidden(board, 3),
        T::HiddenQuad => subsets::hidden(board, 4),
        T::XWing => fish::basic(board, 2),
        T::Swordfish => fish::basic(board, 3),
        T::Jellyfish => fish::basic(board, 4),
        T::BugPlusOne => uniqueness::bug_plus_one(board),
        T::Skyscraper | T::TwoStringKite | T::TurbotFish => single_digit::turbot(board, technique),
        T::EmptyRectangle => single_digit::empty_rectangle(board),
        T::WWing => wings::w_wing(board),
        T::XyWing => wings::xy_wing(board, false),
        T::XyzWing => wings::xy_wing(board, true),
        T::UniqueRectangle1 => uniqueness::unique_rectangle(board, 1),
        T::UniqueRectangle2 => uniqueness::unique_rectangle(board, 2),
        T::FinnedXWing => fish::finned(board, 2, false),
        T::SashimiXWing => fish::finned(board, 2, true),
        T::FinnedSwordfish => fish::finned(board, 3, false),
        T::SashimiSwordfish => fish::finned(board, 3, true),
        T::FinnedJellyfish => fish::finned(board, 4, false),
        T::SashimiJellyfish => fish::finned(board, 4, true),
        T::SimpleColorsTrap => coloring::simple_colors(board, false),
        T::SimpleColorsWrap => coloring::simple_colors(board, true),
        T::XChain | T::XyChain | T::Aic => chains::chain(board, technique),
        T::BruteForce => brute_force(board, solution),
    }
}

/// The next step on `board`: the first technique that applies.
pub fn next_step(board: &Board, solution: &Grid) -> Option<Step> {
    Technique::ALL
        .iter()
        .find_map(|&t| find(board, t, solution))
}

/// When no technique applies: the solution's digit in the first cell with the fewest candidates.
fn brute_force(board: &Board, solution: &Grid) -> Option<Step> {
    let cell = (0..board.cells())
        .filter(|&c| board.value(c) == 0)
        .min_by_key(|&c| board.cands(c).count_ones())?;
    Some(Step::placing(
        Technique::BruteForce,
        cell,
        solution.get(cell),
        "no technique applies: the solution's digit".to_string(),
    ))
}

/// The steps that solve `board`, whose unique solution is `solution`.
pub fn solve_board(mut board: Board, solution: &Grid) -> Vec<Step> {
    let mut steps = Vec::new();
    while !board.is_solved() {
        let step = next_step(&board, solution).expect("brute force always applies");
        step.apply(&mut board);
        steps.push(step);
    }
    steps
}

/// A puzzle's rating from its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The hardest technique's level, raised while the score exceeds the level's ceiling.
    pub level: Level,
    /// The sum of the steps' scores.
    pub score: u32,
    /// The technique of the highest level and score used (`None` for a full grid).
    pub hardest: Option<Technique>,
    /// True when the techniques solved it without brute force.
    pub by_logic: bool,
}

/// Rates a path.
pub fn rate(steps: &[Step]) -> Rating {
    let score = steps.iter().map(|s| s.technique.score()).sum();
    let hardest = steps
        .iter()
        .map(|s| s.technique)
        .max_by_key(|t| (t.level(), t.score()));
    let mut level = hardest.map_or(Level::Easy, Technique::level);
    while score > level.max_score() {
        level = level.next();
    }
    Rating {
        level,
        score,
        hardest,
        by_logic: hardest != Some(Technique::BruteForce),
    }
}
