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


def engine_lines(*args: str, stdin: str) -> list:
    """The release binary's answer to ``tessera sudoku ARGS`` (TESSERA_ENGINE or the checkout's
    build)."""
    import os
    import subprocess
    from pathlib import Path

    engine = os.environ.get("TESSERA_ENGINE") or str(
        Path(__file__).resolve().parents[2] / "target" / "release" / "tessera")
    run = subprocess.run([engine, "sudoku", *args], input=stdin, capture_output=True,
                         text=True, check=True, timeout=60)
    return run.stdout.splitlines()


PUZZLES = [sudoku.generate(seed=s)[0] for s in range(1, 7)]


def test_rate_and_explain_say_what_the_command_line_says():
    import json

    rated = engine_lines("rate", stdin="\n".join(PUZZLES) + "\n")
    explained = engine_lines("explain", "--json", stdin="\n".join(PUZZLES) + "\n")
    for puzzle, line, path in zip(PUZZLES, rated, explained):
        ours = sudoku.rate(puzzle)
        assert line.split("\t") == [puzzle, ours["level"], str(ours["score"]), ours["hardest"]]
        theirs, mine = json.loads(path), sudoku.explain(puzzle)
        assert (mine["puzzle"], mine["level"], mine["score"]) == (
            theirs["puzzle"], theirs["level"], theirs["score"])
        assert [(s["technique"], [list(p) for p in s["placements"]],
                 [list(e) for e in s["eliminations"]]) for s in mine["steps"]] == [
            (s["technique"], s["placements"], s["eliminations"]) for s in theirs["steps"]]
        assert all(s["text"].startswith(s["technique"] + ": ") for s in mine["steps"])


@pytest.mark.parametrize("box,seed", [("3x3", 11), ("3x3", 12), ("2x3", 5), ("2x2", 2)])
def test_hints_solve_a_puzzle_with_sound_steps(box, seed):
    """Hint after hint, each applied to the grid and to the pencil marks as a player would:
    every placement is the solution's digit, no elimination removes it, and the grid ends
    solved."""
    puzzle, solution = sudoku.generate(box, seed=seed)
    size = len(sudoku.to_array(puzzle))
    answer = sudoku.to_array(solution)
    grid = sudoku.to_array(puzzle).astype(int)
    marks = [set(range(1, size + 1)) for _ in range(size * size)]
    for _ in range(size ** 4):
        step = sudoku.hint(grid, [sorted(m) for m in marks], box=box)
        if step is None:
            break
        assert step["placements"] or step["eliminations"], step
        for row, col, digit in step["placements"]:
            assert answer[row - 1, col - 1] == digit, step
            grid[row - 1, col - 1] = digit
        for row, col, digit in step["eliminations"]:
            assert answer[row - 1, col - 1] != digit, step
            marks[(row - 1) * size + col - 1].discard(digit)
    assert (grid == answer).all()


def test_bad_grids_and_marks_raise():
    puzzle, solution = sudoku.generate(seed=4)
    with pytest.raises(ValueError, match="several solutions"):
        sudoku.rate("." * 81)
    with pytest.raises(ValueError, match="no solution"):  # r1c8, r1c9 need 8 and 9: box 3 has them
        sudoku.explain("1234567.." + "......89." + "." * 63)
    empty = puzzle.index(".")
    wrong = [list(range(1, 10)) for _ in range(81)]
    wrong[empty].remove(int(solution[empty]))
    with pytest.raises(ValueError, match="leave out"):
        sudoku.hint(puzzle, wrong)
    with pytest.raises(ValueError, match="cells given"):
        sudoku.hint(puzzle, [[1]] * 80)
    with pytest.raises(ValueError, match="not a digit"):
        sudoku.hint(puzzle, [[10]] * 81)
    assert sudoku.hint(solution) is None
