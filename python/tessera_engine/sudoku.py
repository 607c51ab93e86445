"""Sudoku solving, counting and generating for any box shape (m x n boxes, N = m*n <= 25), and
solving as people do: ``rate``, ``explain`` and ``hint`` (human techniques, HoDoKu's levels).

Grids are one line of N*N characters (``.`` or ``0`` empty, ``1``-``9``, then ``A`` = 10...),
or any array of N*N values (0 empty, flattened row-major). ``box="MxN"`` gives the box shape;
without it a grid of 16, 81, 256 or 625 cells has square boxes.
"""

from typing import Any, Dict, Iterable, Optional, Sequence, Tuple

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


def rate(grid, box: Optional[str] = None) -> Dict[str, Any]:
    """How hard ``grid`` is for people, as ``tessera sudoku rate`` says: ``level`` (easy, medium,
    hard, unfair, extreme), ``score``, ``hardest`` (a technique's name) and ``solved_by_logic``
    (False when the techniques stop and brute force finishes). ValueError for a grid with no
    solution or several."""
    return _native.rate(_grid(grid), box)


def explain(grid, box: Optional[str] = None) -> Dict[str, Any]:
    """The human solution path, as ``tessera sudoku explain --json``: the keys of :func:`rate`,
    ``puzzle`` and ``steps``; a step is a dict of ``technique``, ``placements`` and
    ``eliminations`` (``(row, column, digit)`` from 1), ``cells`` (the pattern's ``(row,
    column)``) and ``text`` (the step in words)."""
    return _native.explain(_grid(grid), box)


def hint(grid, candidates: Optional[Sequence[Iterable[int]]] = None,
         box: Optional[str] = None) -> Optional[Dict[str, Any]]:
    """The next step of a grid being solved (a step dict as in :func:`explain`), ``None`` when it
    is full. ``candidates``: the player's pencil marks, for each cell row-major the digits still
    possible (any for a filled cell); they must keep the solution's digit. ValueError for a grid
    with no solution or several, or marks that leave out the solution's digit."""
    marks = None if candidates is None else [[int(d) for d in cell] for cell in candidates]
    return _native.hint(_grid(grid), marks, box)


def to_array(line: str) -> np.ndarray:
    """A grid line as an (N, N) uint8 array of values (0 empty)."""
    values = [0 if ch in ".0" else int(ch, 36) for ch in line]
    n = int(round(len(values) ** 0.5))
    return np.array(values, np.uint8).reshape(n, n)
