"""Sudoku solving, counting and generating for any box shape (m x n boxes, N = m*n <= 25).

Grids are one line of N*N characters (``.`` or ``0`` empty, ``1``-``9``, then ``A`` = 10...),
or any array of N*N values (0 empty, flattened row-major). ``box="MxN"`` gives the box shape;
without it a grid of 16, 81, 256 or 625 cells has square boxes.
"""

from typing import Optional, Tuple

import numpy as np

from . import _native


def _grid(grid):
    return grid if isinstance(grid, str) else [int(v) for v in np.asarray(grid).ravel()]


def solve(grid, box: Optional[str] = None) -> Optional[str]:
    """One solution of ``grid`` as a line of characters, ``None`` if it has none."""
    return _native.solve(_grid(grid), box)


def count_solutions(grid, limit: int = 2, box: Optional[str] = None) -> int:
    """The number of solutions, counting up to ``limit`` (2 tells whether it is unique)."""
    return _native.count_solutions(_grid(grid), limit, box)


def generate(box: str = "3x3", seed: int = 0, clues: Optional[int] = None,
             minimal: bool = False, grade: Optional[str] = None,
             attempts: int = 1000) -> Tuple[str, str]:
    """A puzzle with a unique solution from ``seed``: (puzzle, solution) as lines. See
    ``tessera sudoku generate``: ``clues``, ``minimal``, ``grade`` (easy, medium, hard,
    fiendish)."""
    return _native.generate(box, seed, clues, minimal, grade, attempts)


def to_array(line: str) -> np.ndarray:
    """A grid line as an (N, N) uint8 array of values (0 empty)."""
    values = [0 if ch in ".0" else int(ch, 36) for ch in line]
    n = int(round(len(values) ** 0.5))
    return np.array(values, np.uint8).reshape(n, n)
