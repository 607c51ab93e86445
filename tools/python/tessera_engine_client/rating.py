"""Rated games against the engine's levels, kept as Pentobi keeps them, and the person's rating.

Level k stands for the nominal rating ``1000 + 150 (k - 1)``: 1000 at level 1, 2350 at level 10
(full strength). The person starts at 1000; after each rated game the rating moves by
``K (S - E)``: ``S`` is the game's score (1 a win, 1/2 a draw, 0 a loss; with more players the
share of the opponents the person finished ahead of, a tie counting half), ``E = 1 / (1 +
10^((R_level - R) / 400))`` the score expected against the level, and ``K`` is 40 for the
first 10 games, then 20. Each variant (a Blokus variant, a sudoku box and mode) has its own
rating, estimated again from its games whenever it is shown::

    game = RatedGame.finished(level=3, mine=45, others=[38], variant="duo")
    record(settings, game)                       # appended to the GUI's settings file
    print(describe(rated_games(settings, "duo")))  # "rating 1034 after 1 game: 1 won, ..."
"""

from __future__ import annotations

import datetime
from dataclasses import asdict, dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .settings import Settings

__all__ = ["START", "RatedGame", "level_rating", "expected_score", "outcome", "rating",
           "rated_games", "record", "describe"]

START = 1000.0
"""The rating of a person without rated games (that of level 1)."""


def level_rating(level: int) -> int:
    """The nominal rating of engine level ``level`` (1..10): ``1000 + 150 (level - 1)``."""
    return 1000 + 150 * (level - 1)


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expectation of a player rated ``rating`` against one rated ``opponent``."""
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))


def outcome(mine: int, others: Sequence[int]) -> Tuple[str, float]:
    """The result word and score of a game the person ended with ``mine`` points against the
    opponents' ``others``: ``win`` (ahead of all), ``draw`` (sharing the lead) or ``loss``, and
    the share of opponents beaten (ties half)."""
    score = sum(1.0 if mine > o else 0.5 if mine == o else 0.0 for o in others) / len(others)
    best = max(others)
    return ("win" if mine > best else "draw" if mine == best else "loss"), score


@dataclass(frozen=True)
class RatedGame:
    """One finished rated game as stored in the settings file."""

    level: int
    result: str
    """``win``, ``draw`` or ``loss``."""
    score: float
    """1 for a win, 1/2 a draw, 0 a loss; with more players the share of opponents beaten."""
    variant: str
    date: str
    """The day it ended, ISO (``2026-11-26``)."""

    @classmethod
    def finished(cls, level: int, mine: int, others: Sequence[int], variant: str,
                 date: Optional[str] = None) -> "RatedGame":
        """The record of a game that just ended with these points (today by default)."""
        result, score = outcome(mine, others)
        return cls(level, result, score, variant, date or datetime.date.today().isoformat())

    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "RatedGame":
        """From the settings file's dict."""
        return cls(int(data["level"]), str(data["result"]), float(data["score"]),
                   str(data["variant"]), str(data["date"]))


def rating(games: Iterable[RatedGame]) -> float:
    """The person's rating after ``games``, in the order played (see the module's text)."""
    value = START
    for n, game in enumerate(games):
        k = 40.0 if n < 10 else 20.0
        value += k * (game.score - expected_score(value, level_rating(game.level)))
    return value


def rated_games(settings: Settings, variant: Optional[str] = None) -> List[RatedGame]:
    """The rated games in ``settings`` (of ``variant`` only, if given), oldest first; entries
    that do not read are left out."""
    games = []
    for data in settings.get("rated", []):
        try:
            game = RatedGame.from_json(data)
        except (KeyError, TypeError, ValueError):
            continue
        if variant is None or game.variant == variant:
            games.append(game)
    return games


def record(settings: Settings, game: RatedGame) -> None:
    """Appends ``game`` to the rated games in ``settings`` (written at once)."""
    settings.update(rated=list(settings.get("rated", [])) + [asdict(game)])


def describe(games: Sequence[RatedGame]) -> str:
    """``rating 1112 after 3 games: 2 won, 0 drawn, 1 lost`` (or that there are none yet)."""
    if not games:
        return f"rating {START:.0f}: no rated game yet"
    counts = {word: sum(1 for g in games if g.result == word) for word in ("win", "draw", "loss")}
    plural = "s" if len(games) != 1 else ""
    return (f"rating {rating(games):.0f} after {len(games)} game{plural}: {counts['win']} won, "
            f"{counts['draw']} drawn, {counts['loss']} lost")
