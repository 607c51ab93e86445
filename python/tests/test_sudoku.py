"""Sudoku solving, counting and generating."""

import numpy as np
import pytest

from tessera_engine import sudoku


def test_generated_puzzles_are_unique_and_solved():
    puzzle, solution = sudoku.generate(seed=3)
    assert sudoku.count_solutions(puzzle) == 1 and sudoku.solve(puzzle) == solution
    assert sudoku.solve(sudoku.to_array(puzzle)) == solution
    assert sudoku.generate(seed=3) == (puzzle, solution)


def test_other_shapes():
    puzzle, solution = sudoku.generate("2x3", seed=1)
    assert len(puzzle) == 36 and sudoku.solve(puzzle, box="2x3") == solution
    assert sudoku.count_solutions("." * 16, limit=1000) == 288
    assert sudoku.solve(np.zeros((4, 4), int)) is not None


def test_bad_grids_raise():
    with pytest.raises(ValueError, match="repeats"):
        sudoku.solve("11" + "." * 79)
    with pytest.raises(ValueError):
        sudoku.solve("." * 30)
    with pytest.raises(ValueError):
        sudoku.generate("6x6")
    assert sudoku.solve("12" + "." * 6 + "3" + "." * 72) is not None
