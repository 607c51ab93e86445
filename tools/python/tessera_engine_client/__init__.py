"""Python client for the tessera game engine.

- :mod:`tessera_engine_client.engine`: start and drive the engine over its line protocol
  (:class:`Engine`, :class:`Limit`, ...), in the style of python-chess's ``chess.engine``.
- :mod:`tessera_engine_client.blockudoku`: Blockudoku rules (boards, pieces, clears, scoring, piece
  sets) to apply the engine's moves and to check them.
- :mod:`tessera_engine_client.blokus`: Blokus rules (all five variants: legality, attach corners, turn
  order, scores); :mod:`tessera_engine_client.blokus_sgf`: Blokus SGF game records (``.blksgf``);
  :mod:`tessera_engine_client.blokus_analysis`: the engine's value after every move of a game.
- :mod:`tessera_engine_client.compsudoku`: Competitive Sudoku (moves, game states, the course's board
  files) and :class:`~tessera_engine_client.compsudoku.SudokuSession`, a game the engine referees.
- :mod:`tessera_engine_client.background`: :class:`~tessera_engine_client.background.EngineThread`, an engine
  serving requests on a background thread (the GUIs' worker).
"""

from . import blockudoku, compsudoku
from .engine import (
    AnalysisResult,
    Engine,
    EngineError,
    EngineTerminated,
    EngineTimeout,
    Limit,
    Move,
    Option,
    PlayResult,
    parse_info,
)

from . import blokus, blokus_sgf

__version__ = "0.1.0"

__all__ = [
    "AnalysisResult",
    "Engine",
    "EngineError",
    "EngineTerminated",
    "EngineTimeout",
    "Limit",
    "Move",
    "Option",
    "PlayResult",
    "parse_info",
    "blockudoku",
    "blokus",
    "blokus_sgf",
    "compsudoku",
]
