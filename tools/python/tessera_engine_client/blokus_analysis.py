"""Blokus game analysis, as Pentobi's GUI has it: the engine's value of the position after
every move of a game, for the player who made the move, and the moves that lost most.

The values come from ``tessera gtp`` (any GTP engine with the command ``tessera-analyze
[PLAYOUTS]``, which searches the position and answers each player's value, 1 a sure win and 0
a sure loss)::

    from tessera_engine_client import blokus_sgf
    from tessera_engine_client.blokus_analysis import Analyzer, worst_moves

    game = blokus_sgf.load("game.blksgf").replay()
    values = Analyzer("target/release/tessera gtp", playouts=1000).run(game)
    for v in values:
        print(v.number, v.colour, f"{v.value:.3f}")
    print([v.number for v in worst_moves(values)])

A move's value is the mover's value of the position after it (Three-Player's shared colour:
the value of the player whose turn it was with it); its *drop* is the mover's value of the
position before the move less that value, so a move that threw a won game away has a drop near
1. Every position is searched afresh with the same number of playouts and the engine's fixed
seed, so the same game gives the same values.
"""

from __future__ import annotations

import shlex
import threading
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Union

from . import blokus
from .blokus_match import EngineFailure, GtpEngine, GtpError, gtp_colour, mover

__all__ = ["AnalysisError", "Analyzer", "MoveValue", "worst_moves"]


class AnalysisError(Exception):
    """The engine could not analyse the game (it did not start, refused a command or died)."""


@dataclass(frozen=True)
class MoveValue:
    """One analysed move."""

    number: int
    """The move's number in the game, 1 for the first."""
    colour: int
    """The colour that made it (0 = the first colour)."""
    player: int
    """The player who made it."""
    value: float
    """The mover's value of the position after the move, 0 to 1."""
    drop: float
    """The mover's value before the move less its value after it (positive: the move lost)."""


class Analyzer:
    """Analyses games with one engine process per :meth:`run`.

    ``command``: the GTP engine's command line (a string split as a shell would, or a list);
    ``playouts``: the search of each position (more is slower and surer).
    """

    def __init__(self, command: Union[str, Sequence[str]], playouts: int) -> None:
        if playouts < 1:
            raise ValueError("playouts must be positive")
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.playouts = playouts
        self._engine: Optional[GtpEngine] = None
        self._cancelled = threading.Event()

    def run(self, game: blokus.Game,
            on_value: Optional[Callable[[MoveValue], None]] = None) -> List[MoveValue]:
        """The value of every move of ``game`` (all of its moves, whatever its cursor), each
        also handed to ``on_value`` as soon as it is known. After :meth:`cancel` it returns the
        moves analysed so far. Raises :class:`AnalysisError` if the engine fails."""
        info = game.variant
        out: List[MoveValue] = []
        if self._cancelled.is_set():
            return out
        try:
            engine = GtpEngine(self.command)
        except OSError as e:
            raise AnalysisError(f"cannot start {self.command!r}: {e}") from None
        self._engine = engine
        try:
            if self._cancelled.is_set():  # cancelled while the engine started
                return out
            engine.send(f"set_game {info.game_name}")
            before = self._values(engine)
            for k, move in enumerate(game.moves, 1):
                engine.send(f"play {gtp_colour(info, move.colour)} "
                            f"{blokus.engine_move_text(move.squares)}")
                after = self._values(engine)
                p = mover(info, game.position_at(k - 1), move.colour)
                value = MoveValue(k, move.colour, p, after[p], before[p] - after[p])
                out.append(value)
                if on_value is not None:
                    on_value(value)
                before = after
        except (GtpError, EngineFailure, ValueError, IndexError) as e:
            if not self._cancelled.is_set():
                raise AnalysisError(f"the engine failed: {e}") from None
        finally:
            self._engine = None
            engine.close()
        return out

    def _values(self, engine: GtpEngine) -> List[float]:
        return [float(v) for v in engine.send(f"tessera-analyze {self.playouts}").split()]

    def cancel(self) -> None:
        """Stops :meth:`run` at once (from any thread): the engine is killed."""
        self._cancelled.set()
        engine = self._engine
        if engine is not None:
            engine.dead = True
            engine.proc.kill()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()


def worst_moves(values: Sequence[MoveValue], count: int = 5,
                min_drop: float = 0.05) -> List[MoveValue]:
    """The ``count`` moves that lost most (the largest drops, at least ``min_drop``), the worst
    first; ties by move number."""
    lost = [v for v in values if v.drop >= min_drop]
    return sorted(lost, key=lambda v: (-v.drop, v.number))[:count]
