//! The human solver's paths are sound on many puzzles of every level and several box shapes:
//! each placement is the solution's digit, no elimination removes it, every step removes or
//! places something, and the path ends with the grid solved.
use std::collections::BTreeMap;
use std::path::PathBuf;

use tessera::sudoku::generate::{Generator, Options};
use tessera::sudoku::human::{Board, Level, Technique, next_step, rate, unique_solution};
use tessera::sudoku::{Grid, Shape};

/// Walks the path of `puzzle`, checking every step; returns the techniques used.
fn check_path(puzzle: &Grid) -> Vec<Technique> {
    let solution = unique_solution(puzzle).expect("a unique solution");
    let mut board = Board::new(puzzle);
    let mut used = Vec::new();
    while !board.is_solved() {
        let step = next_step(&board, &solution).expect("some step applies");
        assert!(
            !step.placements.is_empty() || !step.eliminations.is_empty(),
            "{puzzle}: empty step {step:?}"
        );
        for &(cell, digit) in &step.placements {
            assert_eq!(board.value(cell), 0, "{puzzle}: {step:?} fills a full cell");
            assert_eq!(
                solution.get(cell),
                digit,
                "{puzzle}: wrong placement {step:?}"
            );
        }
        for &(cell, digit) in &step.eliminations {
            assert!(
                board.has(cell, digit),
                "{puzzle}: {step:?} removes a missing candidate"
            );
            assert_ne!(
                solution.get(cell),
                digit,
                "{puzzle}: unsound elimination {step:?}"
            );
        }
        step.apply(&mut board);
        used.push(step.technique);
    }
    assert_eq!(board.grid(), solution);
    used
}

fn sample() -> Vec<Grid> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sudoku/human_sample.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Grid::parse(Shape::CLASSIC, l).unwrap())
        .collect()
}

#[test]
fn paths_are_sound_on_the_varied_sample_and_reach_every_level() {
    let mut levels = BTreeMap::new();
    for puzzle in sample() {
        let used = check_path(&puzzle);
        let steps: Vec<_> = used.iter().collect();
        assert!(!steps.is_empty());
        let solution = unique_solution(&puzzle).unwrap();
        let path = tessera::sudoku::human::solve_board(Board::new(&puzzle), &solution);
        *levels.entry(rate(&path).level).or_insert(0) += 1;
    }
    for level in Level::ALL {
        assert!(levels.get(&level).copied().unwrap_or(0) > 0, "{levels:?}");
    }
}

#[test]
fn paths_are_sound_on_generated_puzzles_of_every_shape() {
    for (shape, count) in [
        ("2x2", 40),
        ("2x3", 60),
        ("3x2", 60),
        ("3x3", 100),
        ("3x4", 10),
        ("4x4", 2),
    ] {
        let mut generator = Generator::new(shape.parse().unwrap(), 51);
        let mut techniques = BTreeMap::new();
        for _ in 0..count {
            let p = generator.puzzle(&Options::default()).unwrap();
            for t in check_path(&p.puzzle) {
                *techniques.entry(t).or_insert(0) += 1;
            }
        }
        // 4x4 grids fall to singles; the larger ones need more.
        let wanted = if shape == "2x2" { 2 } else { 3 };
        assert!(techniques.len() >= wanted, "{shape}: {techniques:?}");
    }
}
