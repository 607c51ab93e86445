"""Python client for the tessera game engine.

- :mod:`tessera_client.engine`: start and drive the engine over its line protocol
  (:class:`Engine`, :class:`Limit`, ...), in the style of python-chess's ``chess.engine``.
- :mod:`tessera_client.blockudoku`: Blockudoku rules (boards, pieces, clears, scoring, piece
  sets) to apply the engine's moves and to check them.
"""

from . import blockudoku
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
]
