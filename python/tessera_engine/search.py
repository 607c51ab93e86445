"""The engine's search of any state, as one function for every game."""

from typing import Optional

from ._native import SearchResult


def search(state, movetime: Optional[int] = None, nodes: Optional[int] = None,
           depth: Optional[int] = None, **options) -> SearchResult:
    """Searches ``state`` with the engine (the GIL is released meanwhile).

    Limits combine, the first reached ends the search: ``movetime`` in milliseconds,
    ``nodes`` (Blokus: playouts), ``depth`` (iterations); with none the engine thinks 1000 ms.
    ``options`` are the engine's options: ``seed``, ``level`` (1 weakest to 10, full strength,
    the default), ``multipv`` (how many best lines the result's ``lines`` holds, 1 to 32);
    Blokus ``threads`` and ``own_book``; Blockudoku ``lookahead_from``.
    """
    return state.search(movetime=movetime, nodes=nodes, depth=depth, **options)


def best_move(state, movetime: Optional[int] = None, nodes: Optional[int] = None,
              depth: Optional[int] = None, **options) -> Optional[str]:
    """The engine's move in ``state`` in notation, ``None`` when there is no legal move.

    Blockudoku: the first placement of the best plan for the rest of the hand.
    """
    return search(state, movetime=movetime, nodes=nodes, depth=depth, **options).best_move
