"""Environments on the engine's rules, loaded on first use (each needs its ecosystem package).

- ``BlockudokuEnv``: Gymnasium, ``gymnasium.make("tessera/Blockudoku-v0")``.
- ``BlockudokuVectorEnv``: Gymnasium vector env stepping many Blockudoku games in one call.
- ``blokus_env(variant=...)``, ``BlokusEnv``: PettingZoo AEC, every Blokus variant.
- ``compsudoku_env(box=..., mode=...)``, ``CompSudokuEnv``: PettingZoo AEC Competitive Sudoku.
"""

import importlib

_HOMES = {
    "BlockudokuEnv": "blockudoku",
    "BlockudokuVectorEnv": "blockudoku_vector",
    "BlokusEnv": "blokus",
    "blokus_env": "blokus",
    "CompSudokuEnv": "compsudoku",
    "compsudoku_env": "compsudoku",
}

__all__ = list(_HOMES)


def __getattr__(name):
    if name not in _HOMES:
        raise AttributeError(f"module 'tessera_engine.envs' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
