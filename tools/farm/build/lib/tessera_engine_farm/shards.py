"""Shards: a run's games cut by game index, so that the cut never depends on how many workers
play them, and the seeds that make one ``tessera selfplay`` call play exactly games
``first .. first + count - 1`` of a seeded run.

Seed slices. ``tessera selfplay`` seeds game ``i`` of a run seeded ``s`` from
``s * GOLDEN ^ i`` (mod 2^64; Competitive Sudoku with ``--openings``: pair ``i // 2``) and has no
option to start at a game other than 0. When ``first`` is a multiple of a power of two ``2^k``
and ``count <= 2^k``, ``first + j == first ^ j`` for every ``j < count``; GOLDEN is odd, hence
invertible mod 2^64, so the run seeded ``s' = (s * GOLDEN ^ first) * GOLDEN^-1`` plays as its game
``j`` exactly game ``first + j`` of the run seeded ``s``. Everything else the games draw from the
seed itself (Blockudoku's look-ahead samples, seeded ``s ^ round``) differs in the slice, so
slices are exact for Competitive Sudoku and for Blockudoku searches that never look ahead
(``--depth`` 2 or less).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List

from .rustrand import GOLDEN, MASK64

GOLDEN_INVERSE = pow(GOLDEN, -1, 1 << 64)


@dataclass(frozen=True)
class Shard:
    """Games ``first .. first + count - 1`` of a run, stored under ``name``."""

    name: str
    first: int
    count: int
    payload: Dict[str, Any] = field(default_factory=dict, compare=False)
    """What this shard plays beyond the run's setup (tune: the candidate's weights)."""

    @property
    def last(self) -> int:
        return self.first + self.count - 1

    def describe(self) -> str:
        """``shard games-000008 (games 8-11)``, for messages."""
        return f"shard {self.name} (games {self.first}-{self.last})"


def split(games: int, shard_games: int, prefix: str = "games",
          payload: Dict[str, Any] | None = None) -> List[Shard]:
    """Games ``0 .. games - 1`` in shards of ``shard_games`` (the last one may be shorter),
    named by their first game after ``prefix``."""
    if games < 1 or shard_games < 1:
        raise ValueError("games and shard size must be at least 1")
    return [
        Shard(f"{prefix}-{first:06d}", first, min(shard_games, games - first), payload or {})
        for first in range(0, games, shard_games)
    ]


def power_of_two_at_least(n: int) -> int:
    """The smallest power of two >= n (n >= 1)."""
    return 1 << (n - 1).bit_length()


def slice_seed(seed: int, first: int) -> int:
    """The selfplay seed whose game ``j`` is game ``first + j`` of the run seeded ``seed``, for
    every ``j`` below the largest power of two dividing ``first`` (see the module docstring)."""
    return (((seed * GOLDEN) & MASK64) ^ first) * GOLDEN_INVERSE & MASK64
