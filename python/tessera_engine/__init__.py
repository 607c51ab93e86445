"""The tessera engine in-process: its own rules and searches for Blockudoku, Blokus,
Competitive Sudoku and sudoku, plus Gymnasium and PettingZoo environments built on them.

States (``Blockudoku``, ``Blokus``, ``CompSudoku``) hold a game; ``legal_moves()``,
``play()``, ``copy()``, ``action_mask()`` and the board arrays come from the engine, in Rust.
``best_move(state, movetime=..., nodes=..., depth=...)`` runs the engine's search without the
GIL. ``tessera_engine.sudoku``: ``solve``, ``count_solutions``, ``generate`` for any box shape.
Environments: ``gymnasium.make("tessera/Blockudoku-v0")`` (registered on import when
Gymnasium is installed), ``tessera_engine.envs.BlockudokuVectorEnv``,
``tessera_engine.envs.blokus_env()`` and ``tessera_engine.envs.compsudoku_env()`` (PettingZoo AEC).
"""

from ._native import (
    Blockudoku,
    BlockudokuBatch,
    Blokus,
    CompSudoku,
    GameOverError,
    IllegalMoveError,
    SearchResult,
)
from .search import best_move, search
from . import sudoku

__all__ = [
    "Blockudoku",
    "BlockudokuBatch",
    "Blokus",
    "CompSudoku",
    "GameOverError",
    "IllegalMoveError",
    "SearchResult",
    "best_move",
    "search",
    "sudoku",
]


def _register_gymnasium_envs() -> None:
    """Registers ``tessera/Blockudoku-v0`` when Gymnasium is installed."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:
        return
    if "tessera/Blockudoku-v0" not in registry:
        register(id="tessera/Blockudoku-v0",
                 entry_point="tessera_engine.envs.blockudoku:BlockudokuEnv")


_register_gymnasium_envs()
