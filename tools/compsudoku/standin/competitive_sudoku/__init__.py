"""A small stand-in for the 2AMU10 course framework's interface (not its code), for tests.

STANDIN_API=v12 gives the 2023-24 interface (Move(i, j, value), current_player() a method, no
territory); anything else the 2024-26 one (Move((row, col), value), current_player an attribute,
allowed and occupied squares).
"""
