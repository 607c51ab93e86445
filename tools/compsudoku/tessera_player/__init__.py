"""A Competitive Sudoku player for the 2AMU10 course framework that runs the tessera engine.

Copy this folder next to the framework's simulate_game.py and select it with
--first=tessera_player (or --second=tessera_player). The engine command comes from the
TESSERA_ENGINE environment variable, else `tessera` on PATH.
"""
