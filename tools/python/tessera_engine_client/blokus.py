"""Blokus rules for clients: variants, pieces, placements, legality, turn order and scores.

The same rules as the engine (``newgame blokus``), in pure Python, so a GUI can check a move
before sending it, draw each colour's pieces and attach corners, and score a game::

    from tessera_engine_client.blokus import Game, parse_move

    game = Game("duo")
    game.play(parse_move("e9,d10,e10,f10,e11"))        # for the colour to play
    print(game.position.points(0), game.position.to_play_text())

Square boards (Classic, Two-Player, Three-Player, Duo, Junior): squares are ``(x, y)`` pairs,
``x`` the column from the left and ``y`` the row from the bottom, both 0-based: ``a1`` is
``(0, 0)``. A move is a frozenset of squares; in text it is the squares joined by commas
(``e9,d10,e10,f10,e11``), in any order and case.

Blokus Trigon (``trigon``: 4 colours and players; ``trigon_2``: 4 colours, colours 1+3 against
2+4; ``trigon_3``: 3 colours and players), as the reference program Pentobi plays it: the board
is a hexagon of triangles (edge 9, or 8 for ``trigon_3``) on a grid of ``4 * edge - 1`` columns
and ``2 * edge`` rows. A point (a triangle) is ``(x, y)``: ``x`` the column from the left,
``y`` the row from the bottom, both 0-based, exactly the reference program's names: column
letters ``a`` .. ``z``, ``aa``, ``ab``, ... (``x`` = 0 is ``a``), then the row number from the
bottom, so ``r15`` is ``(17, 14)``. Neighbouring points of a row alternate between upward
triangles (apex at the top, sharing their lower edge with the point below) and downward ones
(sharing their upper edge with the point above): see :meth:`TrigonGeometry.is_up`. Row ``y``
covers the columns ``edge - 1 - d`` .. ``width - edge + d`` where ``d`` is the distance of the
row from the nearer of the top and bottom rows. Two points touch along an edge
(:meth:`Geometry.adj`, 3 neighbours) or only at a corner (:meth:`Geometry.diag`, 9). The 22
pieces have 1 to 6 triangles; each colour's first piece must cover one of six starting points
shared by all colours (``j7 j12 r4 r15 z7 z12``; ``trigon_3``: ``h6 h11 p3 p14 x6 x11``), every
later one must touch its own colour at a corner and never along an edge.

Callisto (``callisto``: 4 colours and players; ``callisto_2``: 2 colours; ``callisto_2_4``: 4
colours, colours 1+3 against 2+4; ``callisto_3``: 3 colours and players), as Pentobi plays it:
the board is a square grid (20x20; 16x16 for ``callisto_2``) cut to an octagon whose top,
bottom, left and right sides are 6 squares long (2 for ``callisto_2`` and ``callisto_3``), the
corners cut at 45 degrees in steps of one square: 288, 144 and 220 squares. Squares are named as
on the square boards over the whole grid (``a1`` is off the octagon). The 24 squares of the
octagon of edge 2 in the 6x6 squares at the middle are the centre section
(:meth:`CallistoGeometry.in_centre_section`). Each colour has 21 pieces of 12 shapes
(:data:`CALLISTO_PIECES`): three single squares, two of each shape of two to four squares, one
of each of five. There are no starting points; a piece touches its own colour along an edge
(touching it at corners is allowed too), except the single squares: they are loose, go on any
free square outside the centre section and score nothing, and each colour places two of them
before any other piece (whose first one then touches one of them along an edge). Points are
the squares of the other pieces, with no bonus; equal points go to the later player
(:meth:`Position.ranks`).

Nexos (``nexos``: 4 colours and players; ``nexos_2``: 4 colours, colours 1+3 against 2+4), as
Pentobi plays it: pieces of one to four unit segments of a 12x12 square lattice, held on a
25x25 grid (:class:`NexosGeometry`): a point with an odd column and even row is a horizontal
segment, one with an even column and odd row a vertical segment, one with both even a junction
(with both odd: off the board). A move names its segments only (``e22,e20``); it also covers
the junctions its straight runs pass through (:meth:`Geometry.covered`), which no other piece
may cover. A segment touches, at its ends, the segments continuing and crossing it there (its
corner neighbours, where its colour's next piece joins it; segments have no edge neighbours).
Each colour's first piece covers one of the four segments around its own junction (``e21``,
``u21``, ``u5``, ``e5``); points are the segments placed, +10 with every piece placed.

GembloQ (``gembloq``: 4 colours and players; ``gembloq_2``: 2; ``gembloq_3``: 3; ``gembloq_2_4``:
4 colours, colours 1+3 against 2+4), as Pentobi plays it: the board is right triangles, each half a
unit square cut along a diagonal, the diagonals alternating so that they form diamonds
(:class:`GembloQGeometry`); a piece's square is the four triangles of a diamond, its half-square
two. Triangles sharing an edge may not hold the same colour, a later piece touches its colour at
a corner, and a colour's first piece covers all four triangles of its starting square. Points:
a quarter for each triangle (:meth:`Position.points` is then a float), no bonus.

Everything that depends on the board's shape is a :class:`Geometry` (:class:`SquareGeometry`,
:class:`TrigonGeometry`, :class:`CallistoGeometry`, :class:`NexosGeometry`,
:class:`GembloQGeometry`): which points are on the board, their edge
and corner neighbours, their names, the piece set and the pieces' orientations
(:attr:`VariantInfo.geometry`); how pieces join is the variant's (:attr:`VariantInfo.contact`,
:attr:`VariantInfo.loose`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import (Any, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set,
                    Tuple, Union)

__all__ = [
    "PIECES",
    "TRIGON_PIECES",
    "CALLISTO_PIECES",
    "VARIANTS",
    "VariantInfo",
    "Geometry",
    "SquareGeometry",
    "TrigonGeometry",
    "CallistoGeometry",
    "GembloQGeometry",
    "GEMBLOQ_PIECES",
    "IllegalMove",
    "Position",
    "Game",
    "variant_info",
    "column_name",
    "parse_square",
    "square_name",
    "parse_move",
    "move_text",
    "engine_move_text",
    "orientations",
    "normalize",
    "piece_of",
    "transform",
]

Square = Tuple[int, int]
Point = Square
Move = FrozenSet[Square]

# The 21 pieces (names as the reference engine names them), cells (x, y) with y upwards.
PIECES: Dict[str, Tuple[Square, ...]] = {
    "1": ((0, 0),),
    "2": ((0, 0), (1, 0)),
    "I3": ((0, 0), (1, 0), (2, 0)),
    "V3": ((0, 0), (1, 0), (0, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "L4": ((0, 0), (1, 0), (2, 0), (0, 1)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "Z4": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "F": ((1, 0), (2, 0), (0, 1), (1, 1), (1, 2)),
    "I5": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L5": ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1)),
    "N": ((0, 0), (1, 0), (2, 0), (2, 1), (3, 1)),
    "P": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "T5": ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "U": ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    "V5": ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "Y": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 1)),
    "Z5": ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)),
}
CLASSIC_SET = tuple(PIECES)
JUNIOR_SET = ("1", "2", "I3", "V3", "I4", "L4", "O", "T4", "Z4", "I5", "L5", "P")

# The 22 Trigon pieces (names and order as the reference program's), triangles (x, y) on the
# piece lattice: y upwards, (x, y) an upward triangle when x + y is even, a downward one when
# it is odd; (x - 1, y) and (x + 1, y) share its slanted edges, (x, y - 1) the lower edge of an
# upward one, (x, y + 1) the upper edge of a downward one.
TRIGON_PIECES: Dict[str, Tuple[Point, ...]] = {
    "I6": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)),
    "L6": ((0, 0), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)),
    "V": ((0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (4, 1)),
    "S": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
    "P6": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)),
    "F": ((0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (3, 1)),
    "W": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 1), (2, 2)),
    "A6": ((0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0)),
    "G": ((0, 0), (1, 0), (1, 1), (2, 1), (3, 0), (3, 1)),
    "Y": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "X": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)),
    "O": ((1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)),
    "I5": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "L5": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)),
    "C5": ((1, 0), (1, 1), (2, 0), (2, 1), (3, 0)),
    "P5": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "I4": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "C4": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "A4": ((0, 0), (1, 0), (1, 1), (2, 0)),
    "I3": ((0, 0), (1, 0), (1, 1)),
    "2": ((0, 0), (1, 0)),
    "1": ((0, 0),),
}
TRIGON_SET = tuple(TRIGON_PIECES)

# The 12 Callisto shapes (names as the reference program's: I and V of three squares, L and Z
# of four), smallest first, and how many of each a colour has (21 pieces, 71 squares).
CALLISTO_PIECES: Dict[str, Tuple[Square, ...]] = {
    "1": ((0, 0),),
    "2": ((0, 0), (1, 0)),
    "I": ((0, 0), (1, 0), (2, 0)),
    "V": ((0, 0), (1, 0), (0, 1)),
    "L": ((0, 0), (1, 0), (2, 0), (0, 1)),
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "Z": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "T5": ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "U": ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
}
CALLISTO_SET = tuple(CALLISTO_PIECES)

# The 24 Nexos pieces, smallest first, as their segments on the Nexos grid (horizontal: odd x,
# even y; vertical: even x, odd y); the junctions they cover follow from them.
NEXOS_PIECES: Dict[str, Tuple[Square, ...]] = {
    "1": ((1, 0),),
    "I2": ((0, 1), (0, 3)),
    "V2": ((1, 2), (2, 1)),
    "I3": ((0, 1), (0, 3), (0, 5)),
    "L3": ((0, 1), (0, 3), (1, 4)),
    "T3": ((1, 0), (2, 1), (3, 0)),
    "Z3": ((1, 0), (2, 1), (3, 2)),
    "U3": ((0, 1), (1, 2), (2, 1)),
    "I4": ((0, 1), (0, 3), (0, 5), (0, 7)),
    "L4": ((0, 1), (0, 3), (0, 5), (1, 6)),
    "Y": ((1, 2), (2, 1), (2, 3), (2, 5)),
    "N": ((0, 1), (1, 2), (2, 3), (2, 5)),
    "V4": ((1, 4), (3, 4), (4, 1), (4, 3)),
    "W": ((0, 1), (1, 2), (2, 3), (3, 4)),
    "Z4": ((1, 0), (2, 1), (2, 3), (3, 4)),
    "T4": ((1, 0), (2, 1), (2, 3), (3, 0)),
    "E": ((1, 4), (2, 1), (2, 3), (3, 2)),
    "U4": ((0, 1), (1, 2), (3, 2), (4, 1)),
    "X": ((1, 2), (2, 1), (2, 3), (3, 2)),
    "F": ((0, 1), (0, 3), (1, 0), (1, 2)),
    "H": ((0, 1), (0, 3), (1, 2), (2, 3)),
    "J": ((0, 3), (1, 4), (2, 1), (2, 3)),
    "G": ((0, 3), (1, 2), (1, 4), (2, 1)),
    "O": ((0, 1), (1, 0), (1, 2), (2, 1)),
}
NEXOS_SET = tuple(NEXOS_PIECES)

# The 21 GembloQ pieces (names and order as Pentobi's, smallest first), as the triangles of the
# GembloQ lattice (see :class:`GembloQGeometry`): a square is four triangles meeting at their
# right angles, a half-square two.
GEMBLOQ_PIECES: Dict[str, Tuple[Square, ...]] = {
    "1": ((1, 0), (1, 1), (2, 0), (2, 1)),
    "1.5": ((1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (4, 0)),
    "2": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1)),
    "L2.5": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1), (7, 1), (8, 1)),
    "I3": ((1, 2), (1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0),
        (6, 1)),
    "V": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1), (7, 1), (7, 2), (8, 1),
        (8, 2)),
    "L3.5": ((1, 2), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1),
        (7, 1), (7, 2), (8, 1), (8, 2)),
    "I4": ((3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2), (8, 1),
        (8, 2), (9, 0), (9, 1), (10, 0), (10, 1)),
    "L4": ((1, 2), (1, 3), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0),
        (6, 1), (7, 1), (7, 2), (8, 1), (8, 2)),
    "T4": ((1, 0), (1, 1), (2, 0), (2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2),
        (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)),
    "O": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2),
        (6, 3), (7, 1), (7, 2), (8, 1), (8, 2)),
    "N4.5": ((2, 4), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4),
        (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)),
    "L5": ((3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2), (8, 1),
        (8, 2), (9, 0), (9, 1), (10, 0), (10, 1), (11, 1), (11, 2), (12, 1), (12, 2)),
    "T5": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2), (7, 3),
        (7, 4), (8, 1), (8, 2), (8, 3), (8, 4), (9, 0), (9, 1), (10, 0), (10, 1)),
    "N5": ((1, 4), (1, 5), (2, 4), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (4, 3),
        (4, 4), (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)),
    "Y": ((3, 1), (3, 2), (3, 3), (3, 4), (4, 1), (4, 2), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2),
        (6, 3), (7, 1), (7, 2), (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1)),
    "Z": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 2), (5, 3), (6, 2), (6, 3), (7, 1), (7, 2), (8, 1),
        (8, 2), (9, 0), (9, 1), (10, 0), (10, 1), (11, 1), (11, 2), (12, 1), (12, 2)),
    "W": ((3, 1), (3, 2), (4, 1), (4, 2), (5, 0), (5, 1), (6, 0), (6, 1), (7, 1), (7, 2), (8, 1),
        (8, 2), (9, 0), (9, 1), (10, 0), (10, 1), (11, 1), (11, 2), (12, 1), (12, 2)),
    "X": ((1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1),
        (4, 2), (5, 0), (5, 1), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2), (6, 3)),
    "I5": ((1, 4), (1, 5), (2, 4), (2, 5), (3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (6, 2),
        (6, 3), (7, 1), (7, 2), (8, 1), (8, 2), (9, 0), (9, 1), (10, 0), (10, 1)),
    "P": ((3, 3), (3, 4), (4, 3), (4, 4), (5, 2), (5, 3), (5, 4), (5, 5), (6, 2), (6, 3), (6, 4),
        (6, 5), (7, 1), (7, 2), (7, 3), (7, 4), (8, 1), (8, 2), (8, 3), (8, 4), (9, 0), (9, 1)),
}
GEMBLOQ_SET = tuple(GEMBLOQ_PIECES)
CALLISTO_COPIES = (3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1)


# ------------------------------------------------------------------ notation
def column_name(x: int) -> str:
    """A column's letters: ``a`` .. ``z`` for 0 .. 25, then ``aa``, ``ab``, ... (bijective base
    26, as the reference program names the columns of its wide Trigon boards)."""
    out = ""
    x += 1
    while x > 0:
        x, r = divmod(x - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def _split_name(text: str) -> Optional[Square]:
    """``aa12`` -> ``(26, 11)`` (any case, no bounds), None if it is no point name."""
    t = text.strip().lower()
    k = 0
    while k < len(t) and "a" <= t[k] <= "z":
        k += 1
    if k == 0 or k == len(t) or not t[k:].isdigit() or not t[k:].isascii():
        return None
    x = 0
    for ch in t[:k]:
        x = 26 * x + ord(ch) - ord("a") + 1
    return (x - 1, int(t[k:]) - 1)


def square_name(sq: Square) -> str:
    """``(0, 0)`` -> ``a1``; ``(26, 4)`` -> ``aa5``."""
    return f"{column_name(sq[0])}{sq[1] + 1}"


# ------------------------------------------------------------------ geometries
class Geometry:
    """A board's shape: its points, their neighbours and names, and a piece set with the
    pieces' orientations. Points are ``(x, y)``, ``y`` the row from the bottom; a piece's
    cells live on the geometry's piece lattice (:meth:`normalize`)."""

    kind = ""
    """The grid: ``square`` (also Callisto's octagons), ``trigon``, ``nexos`` or ``gembloq``."""
    cell_word = "square"
    """What a point is called in messages."""

    def __init__(self, width: int, height: int, pieces: Dict[str, Tuple[Point, ...]]) -> None:
        self.width = width
        self.height = height
        self.pieces = pieces
        self.max_piece_size = max(len(c) for c in pieces.values())
        self._points = tuple(p for y in range(height) for x in range(width)
                             if self.on_board(p := (x, y)))
        self.point_set: FrozenSet[Point] = frozenset(self._points)
        self._adj = {p: tuple(q for q in self._adj_coords(p) if self.on_board(q))
                     for p in self._points}
        self._diag = {p: tuple(q for q in self._diag_coords(p) if self.on_board(q))
                      for p in self._points}
        self._orientations: Dict[str, List[Tuple[Point, ...]]] = {}
        self._anchors: Dict[str, List[Tuple[Tuple[Point, ...], Tuple[Tuple[Point, ...], ...]]]] = {}
        self._shape_of: Dict[Tuple[Point, ...], str] = {}

    # -- the board
    def on_board(self, p: Point) -> bool:
        raise NotImplementedError

    def points(self) -> Tuple[Point, ...]:
        """Every point of the board, row by row from the bottom, left to right."""
        return self._points

    def adj(self, p: Point) -> Tuple[Point, ...]:
        """The points on the board that share an edge with ``p``."""
        return self._adj.get(p, ())

    def diag(self, p: Point) -> Tuple[Point, ...]:
        """The points on the board that share a corner but no edge with ``p``."""
        return self._diag.get(p, ())

    def point_type(self, p: Point) -> int:
        """0 for every square; Trigon: 0 for an upward triangle, 1 for a downward one."""
        return 0

    def in_centre_section(self, p: Point) -> bool:
        """Whether ``p`` lies in the board's centre section (only Callisto's boards have one)."""
        return False

    def is_junction(self, p: Point) -> bool:
        """Whether ``p`` is a junction of segments (Nexos), covered by pieces but never named
        in a move."""
        return False

    def covered(self, move: Iterable[Point]) -> FrozenSet[Point]:
        """The points a move covers: its points (Nexos: with its junctions)."""
        return frozenset(move)

    def describe(self) -> str:
        """The board for messages (``14x14``, ``Trigon (edge 9)``)."""
        raise NotImplementedError

    def name(self, p: Point) -> str:
        return square_name(p)

    def parse(self, text: str) -> Point:
        """A point's name -> ``(x, y)`` (case-insensitive); ValueError off the board."""
        p = _split_name(text)
        word = self.cell_word if self.kind == "square" else "point"
        if p is None:
            raise ValueError(f"bad {word} {text!r}")
        if not self.on_board(p):
            raise ValueError(f"{word} {text!r} is off the {self.describe()} board")
        return p

    # -- pieces
    def _adj_coords(self, p: Point) -> Sequence[Point]:
        raise NotImplementedError

    def _diag_coords(self, p: Point) -> Sequence[Point]:
        raise NotImplementedError

    def normalize(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        """Board cells (or piece cells) shifted onto the piece lattice with their smallest
        coordinates as small as the lattice allows; sorted. Equal for two placements exactly
        when one is a translation of the other."""
        raise NotImplementedError

    def shape_type(self, cell: Point) -> int:
        """:meth:`point_type` of a cell of the piece lattice."""
        return 0

    def rotate(self, cells: Iterable[Point], steps: int = 1) -> Tuple[Point, ...]:
        """Turns piece cells clockwise by ``steps`` of the smallest turn (a quarter turn on
        squares, 60 degrees on triangles; negative: anticlockwise); normalized."""
        raise NotImplementedError

    def flip(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        """Mirrors piece cells left to right; normalized."""
        raise NotImplementedError

    def turns(self) -> int:
        """How many of :meth:`rotate`'s steps make a full turn."""
        raise NotImplementedError

    def types(self) -> int:
        """How many :meth:`point_type` values there are (pieces keep a point's type)."""
        return 2

    def orientations(self, piece: str) -> List[Tuple[Point, ...]]:
        """The distinct orientations of a piece (turned and mirrored), normalized."""
        got = self._orientations.get(piece)
        if got is None:
            got = []
            cells = self.rotate(self.pieces[piece], 0)  # normalized on the piece lattice
            for _ in range(2):
                for _ in range(self.turns()):
                    if cells not in got:
                        got.append(cells)
                    cells = self.rotate(cells)
                cells = self.flip(cells)
            self._orientations[piece] = got
        return got

    def anchors(self, piece: str) -> List[Tuple[Tuple[Point, ...], Tuple[Tuple[Point, ...], ...]]]:
        """Each orientation of a piece with its cells by :meth:`shape_type` (the cells that
        may be laid on a point of that type)."""
        got = self._anchors.get(piece)
        if got is None:
            got = []
            for o in self.orientations(piece):
                by_type = tuple(tuple(c for c in o if self.shape_type(c) == t)
                                for t in range(self.types()))
                got.append((o, by_type))
            self._anchors[piece] = got
        return got

    def piece_of(self, cells: Iterable[Point]) -> Optional[str]:
        """The name of the piece a set of points forms, None if it is no piece."""
        if not self._shape_of:
            for name in self.pieces:
                for o in self.orientations(name):
                    self._shape_of[o] = name
        cells = list(cells)
        if not cells or len(cells) > self.max_piece_size:
            return None
        return self._shape_of.get(self.normalize(cells))

    indexed = False
    """Whether :meth:`Position.legal_moves` looks its moves up in :meth:`covering` (GembloQ,
    whose pieces of up to 22 triangles make trying each cell on each corner slow)."""

    def covering(self, p: Point, piece: str) -> List[Move]:
        """The placements of ``piece`` on the empty board that cover ``p``."""
        index = getattr(self, "_covering", None)
        if index is None:
            index = {}
            for name, m in self.placements():
                for q in m:
                    index.setdefault((q, name), []).append(m)
            self._covering: Dict[Tuple[Point, str], List[Move]] = index
        return index.get((p, piece), [])

    def placements(self, pieces: Optional[Sequence[str]] = None) -> List[Tuple[str, Move]]:
        """Every placement of the pieces (default: all) on the empty board, each once."""
        seen: Set[Move] = set()
        out: List[Tuple[str, Move]] = []
        board = self.point_set
        for piece in pieces or self.pieces:
            for o, by_type in self.anchors(piece):
                ax, ay = by_type[0][0] if by_type[0] else by_type[1][0]
                t = self.shape_type((ax, ay))
                for px, py in self._points:
                    if self.point_type((px, py)) != t:
                        continue
                    dx, dy = px - ax, py - ay
                    squares = frozenset((x + dx, y + dy) for x, y in o)
                    if squares <= board and squares not in seen:
                        seen.add(squares)
                        out.append((piece, squares))
        return out


class SquareGeometry(Geometry):
    """A square board of ``size`` x ``size`` squares with the 21 (or Junior's 12) pieces."""

    kind = "square"

    def __init__(self, size: int, pieces: Optional[Dict[str, Tuple[Point, ...]]] = None) -> None:
        self.size = size
        super().__init__(size, size, pieces or PIECES)

    def on_board(self, p: Point) -> bool:
        return 0 <= p[0] < self.size and 0 <= p[1] < self.size

    def describe(self) -> str:
        return f"{self.size}x{self.size}"

    def _adj_coords(self, p: Point) -> Sequence[Point]:
        x, y = p
        return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))

    def _diag_coords(self, p: Point) -> Sequence[Point]:
        x, y = p
        return ((x + 1, y + 1), (x + 1, y - 1), (x - 1, y + 1), (x - 1, y - 1))

    def normalize(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        return normalize(cells)

    def rotate(self, cells: Iterable[Point], steps: int = 1) -> Tuple[Point, ...]:
        return transform(cells, steps % 4)

    def flip(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        return transform(cells, 0, True)

    def turns(self) -> int:
        return 4


class NexosGeometry(Geometry):
    """The Nexos board: the 12x12 lattice's segments on a 25x25 grid (junctions: both
    coordinates even), the 24 Nexos pieces. The points of moves are the segments."""

    kind = "nexos"
    cell_word = "segment"

    def __init__(self) -> None:
        super().__init__(25, 25, NEXOS_PIECES)

    def on_board(self, p: Point) -> bool:
        x, y = p
        return 0 <= x < 25 and 0 <= y < 25 and (x + y) % 2 == 1

    def is_junction(self, p: Point) -> bool:
        x, y = p
        return 0 <= x < 25 and 0 <= y < 25 and x % 2 == 0 and y % 2 == 0

    def covered(self, move: Iterable[Point]) -> FrozenSet[Point]:
        """The segments, and each junction where exactly two of them meet in line."""
        segs = frozenset(move)
        out = set(segs)
        ends = set()
        for x, y in segs:
            ends.update([(x - 1, y), (x + 1, y)] if x % 2 else [(x, y - 1), (x, y + 1)])
        for jx, jy in ends:
            w, e = (jx - 1, jy) in segs, (jx + 1, jy) in segs
            s, n = (jx, jy - 1) in segs, (jx, jy + 1) in segs
            if w + e + s + n == 2 and ((w and e) or (s and n)):
                out.add((jx, jy))
        return frozenset(out)

    def describe(self) -> str:
        return "Nexos"

    def point_type(self, p: Point) -> int:
        """0 for a horizontal segment, 1 for a vertical one."""
        return 0 if p[0] % 2 else 1

    def shape_type(self, cell: Point) -> int:
        return self.point_type(cell)

    def _adj_coords(self, p: Point) -> Sequence[Point]:
        return ()

    def _diag_coords(self, p: Point) -> Sequence[Point]:
        x, y = p
        ends = [(x - 1, y - 1), (x + 1, y + 1), (x - 1, y + 1), (x + 1, y - 1)]
        ahead = [(x - 2, y), (x + 2, y)] if x % 2 else [(x, y - 2), (x, y + 2)]
        return ahead + ends

    def normalize(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        cells = list(cells)
        mx = min(c[0] for c in cells)
        my = min(c[1] for c in cells)
        mx, my = mx - mx % 2, my - my % 2  # junctions stay on even coordinates
        return tuple(sorted((x - mx, y - my) for x, y in cells))

    def rotate(self, cells: Iterable[Point], steps: int = 1) -> Tuple[Point, ...]:
        out = []
        for x, y in cells:
            for _ in range(steps % 4):
                x, y = y, -x
            out.append((x, y))
        return self.normalize(out)

    def flip(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        return self.normalize((-x, y) for x, y in cells)

    def turns(self) -> int:
        return 4


class TrigonGeometry(Geometry):
    """The Trigon hexagon of triangles with edge ``edge`` (9: ``trigon``, ``trigon_2``; 8:
    ``trigon_3``): ``4 * edge - 1`` columns, ``2 * edge`` rows, the 22 Trigon pieces."""

    kind = "trigon"
    cell_word = "triangle"

    def __init__(self, edge: int) -> None:
        self.edge = edge
        self.parity = edge % 2
        super().__init__(4 * edge - 1, 2 * edge, TRIGON_PIECES)

    def on_board(self, p: Point) -> bool:
        x, y = p
        if not 0 <= y < self.height:
            return False
        d = min(y, self.height - 1 - y)
        return self.edge - 1 - d <= x <= self.width - self.edge + d

    def describe(self) -> str:
        return f"Trigon (edge {self.edge})"

    def is_up(self, p: Point) -> bool:
        """An upward triangle (its apex at the top). Along a row the points alternate; the
        leftmost point of the middle rows points up on both board sizes."""
        return (p[0] + p[1] + self.parity) % 2 == 0

    def point_type(self, p: Point) -> int:
        return 0 if self.is_up(p) else 1

    def shape_type(self, cell: Point) -> int:
        return (cell[0] + cell[1]) % 2

    def _adj_coords(self, p: Point) -> Sequence[Point]:
        x, y = p
        return ((x - 1, y), (x + 1, y), (x, y - 1) if self.is_up(p) else (x, y + 1))

    def _diag_coords(self, p: Point) -> Sequence[Point]:
        # The base side of a triangle (below an upward one) touches four triangles of the
        # next row at a corner only, its apex side three; and two of its own row.
        x, y = p
        base, apex = (y - 1, y + 1) if self.is_up(p) else (y + 1, y - 1)
        return ((x - 2, y), (x + 2, y),
                (x - 2, base), (x - 1, base), (x + 1, base), (x + 2, base),
                (x - 1, apex), (x, apex), (x + 1, apex))

    def normalize(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        # Board points with (x + y + parity) even point up, as piece cells with x + y even:
        # shift by (dx, dy) with dx + dy of the board's parity.
        return _tri_normalize(cells, self.parity)

    def rotate(self, cells: Iterable[Point], steps: int = 1) -> Tuple[Point, ...]:
        out = _tri_normalize(cells, 0)
        for _ in range((-steps) % 6):
            out = _tri_rotate60(out)
        return out

    def flip(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        # The mirror line x = 1/2 (in units of an edge) runs through corners of the lattice:
        # cell x goes to 2 - x and keeps its type.
        return _tri_normalize([(2 - x, y) for x, y in _tri_normalize(cells, 0)], 0)

    def turns(self) -> int:
        return 6


def _gembloq_type(x: int, y: int) -> int:
    """The GembloQ point type of triangle (x, y): where its right angle is, 0 top left, 1
    bottom right, 2 bottom left, 3 top right. Columns 2u and 2u + 1 of a row halve the unit
    square u of that row along a diagonal: from the bottom left corner up (types 0, 1) where
    u + y is odd, from the top left corner down where it is even."""
    return 2 * ((x // 2 + y + 1) % 2) + x % 2


def _gembloq_vertices(x: int, y: int) -> Tuple[Point, Point, Point]:
    """The corners of triangle (x, y), in unit squares (``y`` up), right angle first."""
    u = x // 2
    bl, br, tl, tr = (u, y), (u + 1, y), (u, y + 1), (u + 1, y + 1)
    return ((tl, tr, bl), (br, tr, bl), (bl, tl, br), (tr, tl, br))[_gembloq_type(x, y)]


def _gembloq_triangle(corners: Sequence[Point]) -> Point:
    """The triangle (x, y) with these corners (a right angle first, as
    :func:`_gembloq_vertices` gives them; any lattice, before normalizing)."""
    ax = corners[0][0]
    u = min(c[0] for c in corners)
    y = min(c[1] for c in corners)
    return (2 * u + (1 if ax > u else 0), y)


class GembloQGeometry(Geometry):
    """A GembloQ board (Pentobi's): right isosceles triangles, each half a unit square cut
    along a diagonal, the diagonals alternating so that they form diamonds; a GembloQ square
    is the four triangles of a diamond around its centre, a half-square two of them. The grid
    has ``2 * height`` columns (two triangles per unit square) and ``height`` rows (28 for
    four colours, 22 for two, 26 for three); each row loses ``(width - 4 * edge) / 2 - 1 - 2d``
    columns at both ends, ``d`` the row's distance from the nearer of the top and bottom rows
    (``edge`` 13, 4 and 6). Two triangles touch along an edge when they share two corners (3
    neighbours), at a corner when they share one (11)."""

    kind = "gembloq"
    cell_word = "triangle"
    indexed = True

    def __init__(self, height: int, edge: int) -> None:
        self.edge = edge
        self._on = frozenset(
            (x, y) for y in range(height) for x in range(2 * height)
            if self._on_grid(x, y, 2 * height, height, edge))
        at: Dict[Point, List[Point]] = {}
        for p in self._on:
            for v in _gembloq_vertices(*p):
                at.setdefault(v, []).append(p)
        self._shared: Dict[Point, Dict[Point, int]] = {}
        for p in self._on:
            count: Dict[Point, int] = {}
            for v in _gembloq_vertices(*p):
                for q in at[v]:
                    if q != p:
                        count[q] = count.get(q, 0) + 1
            self._shared[p] = count
        super().__init__(2 * height, height, GEMBLOQ_PIECES)

    @staticmethod
    def _on_grid(x: int, y: int, width: int, height: int, edge: int) -> bool:
        d = min(y, height - 1 - y)
        cut = max(0, (width - 4 * edge) // 2 - 1 - 2 * d)
        return 0 <= y < height and cut <= x < width - cut

    def on_board(self, p: Point) -> bool:
        return p in self._on

    def describe(self) -> str:
        return f"GembloQ {self.width}x{self.height}"

    def point_type(self, p: Point) -> int:
        return _gembloq_type(*p)

    def corners(self, p: Point) -> Tuple[Point, Point, Point]:
        """The corners of triangle ``p`` (or of a piece cell) in unit squares, ``y`` up: its
        right angle first, then the two ends of its long side (where the GUI draws it)."""
        return _gembloq_vertices(*p)

    def shape_type(self, cell: Point) -> int:
        return _gembloq_type(*cell)

    def types(self) -> int:
        return 4

    def _adj_coords(self, p: Point) -> Sequence[Point]:
        return sorted(q for q, n in self._shared.get(p, {}).items() if n == 2)

    def _diag_coords(self, p: Point) -> Sequence[Point]:
        return sorted(q for q, n in self._shared.get(p, {}).items() if n == 1)

    def normalize(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        # Shifts by (2 du, dy) with du + dy even keep every triangle's type.
        cells = list(cells)
        du = -min(x // 2 for x, _ in cells)
        dy = -min(y for _, y in cells)
        if (du + dy) % 2:
            du += 1
        return tuple(sorted((x + 2 * du, y + dy) for x, y in cells))

    def _turned(self, cells: Iterable[Point], corner: Any) -> Tuple[Point, ...]:
        """Cells moved by ``corner``, a map of the plane that keeps the lattice of corners."""
        return self.normalize(_gembloq_triangle([corner(v) for v in _gembloq_vertices(*c)])
                              for c in cells)

    def rotate(self, cells: Iterable[Point], steps: int = 1) -> Tuple[Point, ...]:
        out = self.normalize(cells)
        for _ in range(steps % 4):
            out = self._turned(out, lambda v: (v[1], -v[0]))  # clockwise, y up
        return out

    def flip(self, cells: Iterable[Point]) -> Tuple[Point, ...]:
        return self._turned(cells, lambda v: (-v[0], v[1]))

    def turns(self) -> int:
        return 4


def _in_octagon(x: int, y: int, size: int, edge: int) -> bool:
    """Whether square (x, y) of a ``size`` x ``size`` grid lies in the octagon whose four
    straight sides are ``edge`` squares long (the corners cut at 45 degrees)."""
    if not (0 <= x < size and 0 <= y < size):
        return False
    d = min(y, size - 1 - y)
    lo = max(0, (size - edge) // 2 - d)
    return lo <= x <= size - 1 - lo


class CallistoGeometry(SquareGeometry):
    """Callisto's board: a ``size`` x ``size`` square grid cut to an octagon whose top, bottom,
    left and right sides are ``edge`` squares long (20/6: 288 squares, four colours; 16/2: 144,
    two; 20/2: 220, three), with its centre section: the octagon of edge 2 within the 6 x 6
    squares at the middle (24 squares). The 12 Callisto shapes; squares named as on a square
    board of the grid's size."""

    def __init__(self, size: int, edge: int) -> None:
        self.edge = edge
        super().__init__(size, CALLISTO_PIECES)
        lo = size // 2 - 3
        self.centre_section: FrozenSet[Point] = frozenset(
            p for p in self.points() if _in_octagon(p[0] - lo, p[1] - lo, 6, 2))

    def on_board(self, p: Point) -> bool:
        return _in_octagon(p[0], p[1], self.size, self.edge)

    def in_centre_section(self, p: Point) -> bool:
        return p in self.centre_section

    def describe(self) -> str:
        return f"Callisto {self.size}x{self.size}"


def _tri_normalize(cells: Iterable[Point], parity: int) -> Tuple[Point, ...]:
    """Shifts triangles of a lattice whose upward points have ``x + y + parity`` even onto the
    piece lattice (``x + y`` even), the smallest y 0 and the smallest x 0 or 1; sorted."""
    cells = list(cells)
    dy = -min(y for _, y in cells)
    dx = -min(x for x, _ in cells)
    if (dx + dy - parity) % 2:
        dx += 1
    return tuple(sorted((x + dx, y + dy) for x, y in cells))


def _tri_rotate60(cells: Iterable[Point]) -> Tuple[Point, ...]:
    """Turns piece-lattice triangles 60 degrees anticlockwise about the corner at (1/2, 0)
    (edge 1), through their centres: with the centre of (x, y) at X = 3x / 6 across and
    V = 3y + 1 (upward) or 3y + 2 (downward) thirds of a row height up, a turn by 60 degrees
    about the origin sends (X, V) to ((X - 3V) / 2, (X + V) / 2) in those units."""
    out = []
    for x, y in cells:
        cx = 3 * x - 3  # about the corner at x = 1/2
        cv = 3 * y + (1 if (x + y) % 2 == 0 else 2)
        nx, nv = (cx - 3 * cv) // 2, (cx + cv) // 2
        ny, third = divmod(nv, 3)
        out.append(((nx + 3) // 3, ny))
        assert third == (1 if (out[-1][0] + ny) % 2 == 0 else 2), "not a lattice turn"
    return _tri_normalize(out, 0)


_GEOMETRIES: Dict[Tuple[str, int, int], Geometry] = {}


def geometry(kind: str, size: int, edge: int = 0) -> Geometry:
    """The shared geometry ``square`` of side ``size``, ``trigon`` of edge ``size`` or
    ``callisto`` of side ``size`` and edge ``edge``."""
    key = (kind, size, edge)
    got = _GEOMETRIES.get(key)
    if got is None:
        if kind == "callisto":
            got = CallistoGeometry(size, edge)
        elif kind == "nexos":
            got = NexosGeometry()
        elif kind == "gembloq":
            got = GembloQGeometry(size, edge)
        else:
            got = SquareGeometry(size) if kind == "square" else TrigonGeometry(size)
        _GEOMETRIES[key] = got
    return got


@dataclass(frozen=True)
class VariantInfo:
    """What differs between the variants."""

    name: str
    """tessera's name (``newgame blokus variant NAME``): classic, two, three, duo, junior,
    trigon, trigon_2, trigon_3, callisto, callisto_2, callisto_2_4, callisto_3."""
    game_name: str
    """The SGF ``GM`` value and GTP ``set_game`` name, e.g. ``Blokus Duo``."""
    title: str
    size: int
    """The side of a square board (Callisto: of its grid); the grid width of a Trigon
    board."""
    ncolours: int
    nplayers: int
    pieces: Tuple[str, ...]
    copies: int
    """Copies of each piece a colour has (unless :attr:`piece_copies` says otherwise)."""
    bonus: bool
    starts: Tuple[Square, ...]
    """Square boards: each colour's starting square; Trigon: the starting points, any colour
    may begin on any of them; none in Callisto."""
    colour_names: Tuple[str, ...]
    """Names for people (the GTP colours are b/w or 1..4)."""
    edge: int = 0
    """The edge of a Trigon hexagon, or of a Callisto octagon (0 on square boards)."""
    board: str = "square"
    """The board's family: ``square``, ``trigon`` or ``callisto``."""
    piece_copies: Tuple[int, ...] = ()
    """Copies of each piece, in the order of :attr:`pieces` (Callisto's); empty: :attr:`copies`
    of each."""
    contact: str = "corner"
    """Where a piece touches its own colour: ``corner`` (and never along an edge: Blokus,
    Trigon) or ``edge`` (Callisto; corners may touch too)."""
    loose: Tuple[str, ...] = ()
    """Pieces that need no contact and go on any free point outside the centre section,
    scoring nothing (Callisto's single squares)."""
    loose_first: int = 0
    """Loose pieces a colour places before any other piece."""
    later_player_wins_ties: bool = False
    """Equal points go to the player whose colours move later (Callisto)."""
    bonus_points: Tuple[int, int] = (15, 5)
    """With :attr:`bonus`: points for placing every piece, and more if the last was the
    single square (Nexos: 10 and none)."""

    @property
    def geometry(self) -> Geometry:
        """The board's :class:`Geometry`."""
        if self.board == "callisto":
            return geometry("callisto", self.size, self.edge)
        if self.board == "nexos":
            return geometry("nexos", self.size)
        if self.board == "gembloq":
            return geometry("gembloq", self.size, self.edge)
        return geometry("trigon", self.edge) if self.edge else geometry("square", self.size)

    @property
    def first_covers_all_starts(self) -> bool:
        """GembloQ: a colour's first piece covers all four triangles of its starting square
        (Pentobi's ``play``; its ``all_legal`` also lists pieces covering some of them)."""
        return self.board == "gembloq"

    @property
    def shared_starts(self) -> bool:
        """Trigon: the starting points belong to no colour."""
        return self.board == "trigon"

    def copies_of(self, piece: str) -> int:
        """How many of ``piece`` a colour has (0 if it is not in the set)."""
        if piece not in self.pieces:
            return 0
        if self.piece_copies:
            return self.piece_copies[self.pieces.index(piece)]
        return self.copies

    @property
    def max_copies(self) -> int:
        """The most copies of any one piece a colour has."""
        return max(self.piece_copies) if self.piece_copies else self.copies

    @property
    def total_pieces(self) -> int:
        """Pieces a colour has, copies counted."""
        return sum(self.copies_of(p) for p in self.pieces)

    def starts_of(self, colour: int) -> Tuple[Square, ...]:
        """The points one of which a colour's first piece must cover."""
        if self.board in ("nexos", "gembloq"):
            return self.starts[4 * colour: 4 * colour + 4]
        return self.starts if self.shared_starts else (self.starts[colour],)

    def player_of(self, colour: int) -> Optional[int]:
        """The player a colour scores for (None: the shared fourth colour of Three-Player)."""
        if self.ncolours == 4 and self.nplayers == 2:
            return colour % 2
        if self.ncolours == 4 and self.nplayers == 3:
            return colour if colour < 3 else None
        return colour

    def player_names(self) -> List[str]:
        """Names of the players for result tables."""
        if self.ncolours == 4 and self.nplayers == 2:
            n = self.colour_names
            return [f"{n[0]}+{n[2]}", f"{n[1]}+{n[3]}"]
        return list(self.colour_names[: self.nplayers])

    def sgf_colour(self, colour: int) -> str:
        """The SGF move property of a colour: ``B``/``W`` with two colours, ``1``..``4``."""
        return ("B", "W")[colour] if self.ncolours == 2 else str(colour + 1)


_CORNERS = ((0, 19), (19, 19), (19, 0), (0, 0))
_FOUR = ("Blue", "Yellow", "Red", "Green")
# The six starting points of each Trigon board (as Pentobi places them).
_TRIGON_STARTS = ((9, 6), (9, 11), (17, 3), (17, 14), (25, 6), (25, 11))
_TRIGON3_STARTS = ((7, 5), (7, 10), (15, 2), (15, 13), (23, 5), (23, 10))


def _callisto(name: str, game_name: str, title: str, size: int, edge: int, ncolours: int,
              nplayers: int, colour_names: Tuple[str, ...]) -> VariantInfo:
    return VariantInfo(name, game_name, title, size, ncolours, nplayers, CALLISTO_SET, 1, False,
                       (), colour_names, edge=edge, board="callisto",
                       piece_copies=CALLISTO_COPIES, contact="edge", loose=("1",), loose_first=2,
                       later_player_wins_ties=True)


def _nexos_starts() -> Tuple[Square, ...]:
    """The four segments around each colour's junction, colour by colour."""
    out: List[Square] = []
    for jx, jy in ((4, 20), (20, 20), (20, 4), (4, 4)):
        out += [(jx, jy + 1), (jx - 1, jy), (jx + 1, jy), (jx, jy - 1)]
    return tuple(out)


def _gembloq(name: str, game_name: str, title: str, height: int, edge: int, ncolours: int,
             nplayers: int, starts: Sequence[Square]) -> VariantInfo:
    """A GembloQ variant; ``starts`` gives each colour's starting square as Pentobi places it:
    the column and the row from the top of its first triangle, the square being the four
    triangles of two columns and two rows from there."""
    out: List[Square] = []
    for x, top in starts:
        out += [(x + dx, height - 1 - top - dy) for dy in (0, 1) for dx in (0, 1)]
    names = ("Blue", "Green") if ncolours == 2 else _FOUR[:ncolours]
    return VariantInfo(name, game_name, title, height, ncolours, nplayers, GEMBLOQ_SET, 1, False,
                       tuple(out), names, edge=edge, board="gembloq")


def _nexos(name: str, game_name: str, title: str, nplayers: int) -> VariantInfo:
    return VariantInfo(name, game_name, title, 25, 4, nplayers, NEXOS_SET, 1, True,
                       _nexos_starts(), _FOUR, board="nexos", bonus_points=(10, 0))


VARIANTS: Dict[str, VariantInfo] = {
    "classic": VariantInfo("classic", "Blokus", "Classic", 20, 4, 4, CLASSIC_SET, 1, True,
                           _CORNERS, _FOUR),
    "two": VariantInfo("two", "Blokus Two-Player", "Two-Player", 20, 4, 2, CLASSIC_SET, 1, True,
                       _CORNERS, _FOUR),
    "three": VariantInfo("three", "Blokus Three-Player", "Three-Player", 20, 4, 3, CLASSIC_SET, 1,
                         True, _CORNERS, _FOUR),
    "duo": VariantInfo("duo", "Blokus Duo", "Duo", 14, 2, 2, CLASSIC_SET, 1, True,
                       ((4, 9), (9, 4)), ("Purple", "Orange")),
    "junior": VariantInfo("junior", "Blokus Junior", "Junior", 14, 2, 2, JUNIOR_SET, 2, False,
                          ((4, 9), (9, 4)), ("Green", "Orange")),
    "trigon": VariantInfo("trigon", "Blokus Trigon", "Trigon", 35, 4, 4, TRIGON_SET, 1, True,
                          _TRIGON_STARTS, _FOUR, edge=9, board="trigon"),
    "trigon_2": VariantInfo("trigon_2", "Blokus Trigon Two-Player", "Trigon Two-Player", 35, 4,
                            2, TRIGON_SET, 1, True, _TRIGON_STARTS, _FOUR, edge=9,
                            board="trigon"),
    "trigon_3": VariantInfo("trigon_3", "Blokus Trigon Three-Player", "Trigon Three-Player", 31,
                            3, 3, TRIGON_SET, 1, True, _TRIGON3_STARTS, _FOUR[:3], edge=8,
                            board="trigon"),
    # Pentobi's boards: 20x20 with sides of 6 for four colours, 16x16 and 20x20 with sides of 2
    # for two and three; Callisto Two-Player's colours are Blue and Green.
    "callisto": _callisto("callisto", "Callisto", "Callisto", 20, 6, 4, 4, _FOUR),
    "callisto_2": _callisto("callisto_2", "Callisto Two-Player", "Callisto Two-Player", 16, 2,
                            2, 2, ("Blue", "Green")),
    "callisto_2_4": _callisto("callisto_2_4", "Callisto Two-Player Four-Color",
                              "Callisto Two-Player Four-Colour", 20, 6, 4, 2, _FOUR),
    "callisto_3": _callisto("callisto_3", "Callisto Three-Player", "Callisto Three-Player", 20,
                            2, 3, 3, _FOUR[:3]),
    "nexos": _nexos("nexos", "Nexos", "Nexos", 4),
    "nexos_2": _nexos("nexos_2", "Nexos Two-Player", "Nexos Two-Player", 2),
    # Pentobi's boards and starting squares (the top left triangle's column and row from the
    # top): 56x28 for four colours, 44x22 for two, 52x26 for three.
    "gembloq": _gembloq("gembloq", "GembloQ", "GembloQ", 28, 13, 4, 4,
                        ((1, 0), (53, 0), (53, 26), (1, 26))),
    "gembloq_2": _gembloq("gembloq_2", "GembloQ Two-Player", "GembloQ Two-Player", 22, 4, 2, 2,
                          ((13, 0), (29, 20))),
    "gembloq_2_4": _gembloq("gembloq_2_4", "GembloQ Two-Player Four-Color",
                            "GembloQ Two-Player Four-Colour", 28, 13, 4, 2,
                            ((1, 0), (53, 0), (53, 26), (1, 26))),
    "gembloq_3": _gembloq("gembloq_3", "GembloQ Three-Player", "GembloQ Three-Player", 26, 6, 3,
                          3, ((25, 24), (1, 6), (49, 6))),
}


def variant_info(name: str) -> VariantInfo:
    """A variant by tessera's name (``duo``) or its SGF/GTP game name (``Blokus Duo``)."""
    if name in VARIANTS:
        return VARIANTS[name]
    for v in VARIANTS.values():
        if v.game_name == name:
            return v
    known = ", ".join(VARIANTS)
    raise ValueError(f"unknown Blokus variant {name!r} (known: {known}, or the SGF game names)")


class IllegalMove(ValueError):
    """A move that breaks the rules (the message says why)."""


Board = Union[int, VariantInfo, Geometry]


def _geometry_of(board: Board) -> Geometry:
    if isinstance(board, Geometry):
        return board
    if isinstance(board, VariantInfo):
        return board.geometry
    return geometry("square", board)


def parse_square(text: str, size: Board = 20) -> Square:
    """``a1`` -> ``(0, 0)`` (case-insensitive); ValueError off the board. ``size``: the side of
    a square board, or a :class:`VariantInfo` or :class:`Geometry` (Trigon: ``aa5``...)."""
    return _geometry_of(size).parse(text)


def parse_move(text: str, size: Board = 20) -> Move:
    """``e9,d10,e10`` -> frozenset of points (any order); ValueError if malformed. ``size``:
    the side of a square board, or a :class:`VariantInfo` or :class:`Geometry`."""
    geo = _geometry_of(size)
    parts = [p for p in text.strip().split(",")]
    squares = [geo.parse(p) for p in parts]
    if len(set(squares)) != len(squares):
        raise ValueError(f"a {geo.cell_word} twice in move {text!r}")
    if not 1 <= len(squares) <= geo.max_piece_size:
        raise ValueError(f"a piece has 1 to {geo.max_piece_size} {geo.cell_word}s, "
                         f"got {len(squares)} in {text!r}")
    return frozenset(squares)


def move_text(move: Iterable[Square]) -> str:
    """The record order of the reference program: ``a1, b1, ..., a2, b2, ...`` (row by row
    from the bottom, left to right), so each move has one spelling."""
    return ",".join(square_name(s) for s in sorted(move, key=lambda s: (s[1], s[0])))


def engine_move_text(move: Iterable[Square]) -> str:
    """The order tessera writes: top row first, left to right."""
    return ",".join(square_name(s) for s in sorted(move, key=lambda s: (-s[1], s[0])))


# ------------------------------------------------------------------ shapes (square boards)
def normalize(cells: Iterable[Square]) -> Tuple[Square, ...]:
    """Shifts cells so the smallest x and y are 0; sorted (square boards; Trigon:
    :meth:`Geometry.normalize`)."""
    cells = list(cells)
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def transform(cells: Iterable[Square], rotation: int = 0, flip: bool = False) -> Tuple[Square, ...]:
    """Mirrors (left-right) if ``flip``, then turns ``rotation`` quarter turns clockwise;
    normalized (square boards; Trigon: :meth:`Geometry.rotate`, :meth:`Geometry.flip`)."""
    out = []
    for x, y in cells:
        if flip:
            x = -x
        for _ in range(rotation % 4):
            x, y = y, -x  # clockwise with y upwards
        out.append((x, y))
    return normalize(out)


def orientations(piece: str, board: Board = 20) -> List[Tuple[Square, ...]]:
    """The distinct orientations of a piece (turned and mirrored), normalized; a square
    board's piece unless ``board`` names another geometry."""
    return _geometry_of(board).orientations(piece)


def piece_of(move: Iterable[Square], board: Board = 20) -> Optional[str]:
    """The name of the piece a set of points forms, None if it is no piece (square boards
    unless ``board`` names another geometry)."""
    return _geometry_of(board).piece_of(move)


_UNKNOWN = object()


# ------------------------------------------------------------------ positions
class Position:
    """A board: who covers each point, each colour's pieces left, whose turn it is."""

    def __init__(self, variant: str = "classic") -> None:
        self.variant = variant_info(variant)
        v = self.variant
        self.geometry = v.geometry
        self.cells: Dict[Square, int] = {}
        self.left: List[Dict[str, int]] = [{p: v.copies_of(p) for p in v.pieces}
                                           for _ in range(v.ncolours)]
        self.to_play = 0
        """The colour whose turn it is by order (it may have no move: see
        :meth:`effective_to_play`)."""
        self.last_piece: List[Optional[str]] = [None] * v.ncolours
        self.last_move: List[Optional[Move]] = [None] * v.ncolours
        self._forbidden: Dict[int, Set[Square]] = {}
        self._effective: Any = _UNKNOWN

    def copy(self) -> "Position":
        p = Position.__new__(Position)
        p.variant = self.variant
        p.geometry = self.geometry
        p.cells = dict(self.cells)
        p.left = [dict(d) for d in self.left]
        p.to_play = self.to_play
        p.last_piece = list(self.last_piece)
        p.last_move = list(self.last_move)
        p._forbidden = {}
        p._effective = _UNKNOWN
        return p

    # -- queries
    @property
    def size(self) -> int:
        return self.variant.size

    def on_board(self, sq: Square) -> bool:
        return self.geometry.on_board(sq)

    def pieces_left(self, colour: int) -> List[str]:
        """The pieces a colour has left, each copy listed (in the set's order)."""
        return [p for p in self.variant.pieces for _ in range(self.left[colour][p])]

    def placed(self, colour: int) -> int:
        """How many pieces the colour has placed."""
        return self.variant.total_pieces - sum(self.left[colour].values())

    def loose_placed(self, colour: int) -> int:
        """How many loose pieces (Callisto's single squares) the colour has placed."""
        v = self.variant
        return sum(v.copies_of(p) - self.left[colour][p] for p in v.loose)

    def contact_open(self, colour: int) -> bool:
        """Whether the colour's other pieces may be placed: it has placed the loose pieces it
        places first (always so without loose pieces)."""
        return self.loose_placed(colour) >= self.variant.loose_first

    def forbidden(self, colour: int) -> Set[Square]:
        """Points a piece of ``colour`` may not cover: occupied, or (corner contact) along an
        edge of its own."""
        got = self._forbidden.get(colour)
        if got is None:
            got = set(self.cells)
            if self.variant.contact == "corner":
                adj = self.geometry.adj
                for p, c in self.cells.items():
                    if c == colour:
                        got.update(adj(p))
            self._forbidden[colour] = got
        return got

    def corners(self, colour: int) -> Set[Square]:
        """The colour's attach points: free points a new piece of it may cover to touch it
        corner to corner (before its first piece: its starting square, or the free Trigon
        starting points); in Callisto along an edge, once it has placed the loose pieces it
        places first (loose pieces need none)."""
        bad = self.forbidden(colour)
        v = self.variant
        if v.starts and self.placed(colour) == 0:
            return {s for s in v.starts_of(colour) if s not in bad}
        if not self.contact_open(colour):
            return set()
        out = set()
        near = self.geometry.adj if v.contact == "edge" else self.geometry.diag
        for p, c in self.cells.items():
            if c == colour:
                out.update(q for q in near(p) if q not in bad)
        return out

    def check(self, colour: int, move: Iterable[Square]) -> Optional[str]:
        """Why ``move`` is illegal for ``colour``, or None if it is legal."""
        squares = frozenset(move)
        geo = self.geometry
        piece = geo.piece_of(squares)
        if piece is None:
            return f"these {geo.cell_word}s are not the shape of a piece"
        name = self.variant.colour_names[colour]
        if self.left[colour].get(piece, 0) == 0:
            if piece not in self.variant.pieces:
                return f"there is no piece {piece} in {self.variant.title}"
            return f"{name} has no piece {piece} left"
        if not all(self.on_board(s) for s in squares):
            return "the piece does not fit on the board"
        if any(s in self.cells for s in geo.covered(squares)):
            return f"the piece covers an occupied {geo.cell_word}" + (
                " or junction" if geo.kind == "nexos" else "")
        v = self.variant
        if piece in v.loose:
            if any(geo.in_centre_section(s) for s in squares):
                return f"piece {piece} may not go in the centre section"
            return None
        if not self.contact_open(colour):
            return (f"{name} must place {v.loose_first} single {geo.cell_word}s (piece "
                    f"{'/'.join(v.loose)}) before any other piece")
        if v.starts and self.placed(colour) == 0:
            starts = self.variant.starts_of(colour)
            if self.variant.first_covers_all_starts:
                if not all(s in squares for s in starts):
                    names = " ".join(move_text([s]) for s in sorted(starts))
                    return (f"{name}'s first piece must cover all four triangles of its starting "
                            f"square ({names})")
            elif len(starts) > 1 and not self.variant.shared_starts:
                if not any(s in squares for s in starts):
                    names = " ".join(move_text([s]) for s in sorted(starts))
                    return f"{name}'s first piece must cover one of its starting segments ({names})"
            elif not self.variant.shared_starts:
                if starts[0] not in squares:
                    return (f"{name}'s first piece must cover its starting square "
                            f"{square_name(starts[0])}")
            elif not any(s in squares for s in starts):
                names = " ".join(move_text([s]) for s in sorted(starts))
                return f"{name}'s first piece must cover a starting point ({names})"
            return None
        if any(s in self.forbidden(colour) for s in squares):
            return f"the piece touches {name} along an edge"
        if not any(s in self.corners(colour) for s in squares):
            where = "along an edge" if v.contact == "edge" else "at a corner"
            return f"the piece does not touch {name} {where}"
        return None

    def is_legal(self, colour: int, move: Iterable[Square]) -> bool:
        return self.check(colour, move) is None

    def legal_moves(self, colour: int, pieces: Optional[Sequence[str]] = None) -> Iterator[Move]:
        """Every legal move of ``colour`` (each once), optionally of some pieces only."""
        geo = self.geometry
        v = self.variant
        free = geo.point_set - self.forbidden(colour)
        corners = [(c, geo.point_type(c)) for c in self.corners(colour)]
        seen: Set[Move] = set()
        names = [p for p in (pieces or v.pieces) if self.left[colour].get(p, 0) > 0]
        whole_start = (frozenset(v.starts_of(colour))
                       if v.first_covers_all_starts and self.placed(colour) == 0 else None)
        for piece in names:
            if piece in v.loose:
                # Anywhere free outside the centre section, no contact needed.
                for o in geo.orientations(piece):
                    for px, py in geo.points():
                        squares = [(x + px, y + py) for x, y in o]
                        if all(s in free and not geo.in_centre_section(s) for s in squares):
                            m = frozenset(squares)
                            if m not in seen:
                                seen.add(m)
                                yield m
                continue
            if geo.indexed:
                # Big pieces on a big board: the placements through each corner, precomputed.
                for c, _ in corners:
                    for m in geo.covering(c, piece):
                        if m <= free and m not in seen and (whole_start is None
                                                            or whole_start <= m):
                            seen.add(m)
                            yield m
                continue
            for o, by_type in geo.anchors(piece):
                for (cx, cy), t in corners:
                    # Only cells of the corner's type may lie on it (triangles keep pointing
                    # the way they point).
                    for ox, oy in by_type[t]:
                        dx, dy = cx - ox, cy - oy
                        squares = [(x + dx, y + dy) for x, y in o]
                        if all(s in free for s in squares):
                            m = frozenset(squares)
                            if whole_start is not None and not whole_start <= m:
                                continue
                            if geo.kind == "nexos" and any(j in self.cells
                                                           for j in geo.covered(m)):
                                continue
                            if m not in seen:
                                seen.add(m)
                                yield m

    def moves_covering(self, colour: int, cells: Iterable[Square]) -> List[Move]:
        """Every legal move of ``colour`` that covers all of ``cells`` (in record order): the
        moves a person who clicked those points may mean. Empty for no cells."""
        want = frozenset(cells)
        if not want:
            return []
        geo = self.geometry
        x0, y0 = min(want)
        kind = geo.point_type((x0, y0))
        found: Set[Move] = set()
        for piece in self.variant.pieces:
            if self.left[colour].get(piece, 0) == 0 or len(geo.pieces[piece]) < len(want):
                continue
            for o, by_type in geo.anchors(piece):
                for ox, oy in by_type[kind]:
                    m = frozenset((x + x0 - ox, y + y0 - oy) for x, y in o)
                    if want <= m and m not in found and self.is_legal(colour, m):
                        found.add(m)
        return sorted(found, key=move_text)

    def has_moves(self, colour: int) -> bool:
        for _ in self.legal_moves(colour):
            return True
        return False

    def effective_to_play(self) -> Optional[int]:
        """The colour that moves next: the colour in turn, or the next one in order that can
        move; None when no colour can move (the game is over)."""
        if self._effective is _UNKNOWN:
            n = self.variant.ncolours
            self._effective = next(
                ((self.to_play + k) % n for k in range(n) if self.has_moves((self.to_play + k) % n)),
                None)
        return self._effective

    def game_over(self) -> bool:
        return self.effective_to_play() is None

    def to_play_text(self) -> str:
        c = self.effective_to_play()
        return "game over" if c is None else f"{self.variant.colour_names[c]} to play"

    # -- scores
    def points(self, colour: int) -> Union[int, float]:
        """Squares (triangles) placed, +15 with every piece placed, +5 more if the last was
        the piece of one square (triangle); no bonus in Junior and Callisto, whose loose single
        squares score nothing; Nexos: segments, +10 with every piece placed; GembloQ: squares
        (a quarter for each triangle), no bonus."""
        v = self.variant
        geo = self.geometry
        squares = sum(1 for p, c in self.cells.items() if c == colour and not geo.is_junction(p))
        if v.board == "gembloq":
            return squares / 4
        for p in v.loose:
            squares -= len(self.geometry.pieces[p]) * (v.copies_of(p) - self.left[colour][p])
        if v.bonus and sum(self.left[colour].values()) == 0:
            squares += v.bonus_points[0]
            if self.last_piece[colour] == "1":
                squares += v.bonus_points[1]
        return squares

    def player_points(self) -> List[int]:
        """Points per player (Two-Player: colours 1+3 and 2+4; Three-Player: the shared fourth
        colour counts for nobody)."""
        v = self.variant
        out = [0] * v.nplayers
        for c in range(v.ncolours):
            p = v.player_of(c)
            if p is not None:
                out[p] += self.points(c)
        return out

    def ranks(self) -> List[int]:
        """Each player's rank by points (1 = best; tied players share the better rank, but in
        Callisto the later player ranks above the earlier one on equal points)."""
        pts = self.ranking_points()
        return [1 + sum(1 for q in pts if q > p) for p in pts]

    def ranking_points(self) -> List[float]:
        """:meth:`player_points` for ranking: in Callisto each player's points plus a
        thousandth per player before it, so equal points go to the later player."""
        later = self.variant.later_player_wins_ties
        return [p + (i / 1000 if later else 0) for i, p in enumerate(self.player_points())]

    # -- changes
    def play(self, colour: int, move: Iterable[Square]) -> str:
        """Places a legal move for ``colour`` (the next colour in order plays after it).
        Returns the piece's name; raises :class:`IllegalMove` (nothing changes) otherwise."""
        squares = frozenset(move)
        why = self.check(colour, squares)
        if why is not None:
            raise IllegalMove(why)
        piece = self.geometry.piece_of(squares)
        assert piece is not None
        for s in self.geometry.covered(squares):
            self.cells[s] = colour
        self.left[colour][piece] -= 1
        self.last_piece[colour] = piece
        self.last_move[colour] = squares
        self.to_play = (colour + 1) % self.variant.ncolours
        self._forbidden = {}
        self._effective = _UNKNOWN
        return piece

    def rows(self) -> List[str]:
        """The board as text rows from the top (``.`` empty, ``,`` empty in Callisto's centre
        section, ``1``..``4`` colours), as the engine's ``show`` prints them; Trigon and
        Callisto rows are ``width`` long, a space off the hexagon or octagon."""
        geo = self.geometry

        def char(p: Square) -> str:
            if p in self.cells:
                return str(self.cells[p] + 1)
            if not geo.on_board(p) and not geo.is_junction(p):
                return " "
            return "," if geo.in_centre_section(p) else "."

        return ["".join(char((x, y)) for x in range(geo.width))
                for y in reversed(range(geo.height))]


@dataclass(frozen=True)
class Played:
    """One move of a game: the colour, its squares and the piece."""

    colour: int
    squares: Move
    piece: str

    @property
    def text(self) -> str:
        return move_text(self.squares)


class Game:
    """A game with its moves and a cursor (for undo/redo and browsing a record).

    ``position`` is the position after the first ``cursor`` moves. :meth:`play` at a cursor
    before the end drops the moves after it.
    """

    def __init__(self, variant: str = "classic") -> None:
        self.variant = variant_info(variant)
        self.moves: List[Played] = []
        self._positions: List[Position] = [Position(self.variant.name)]
        self.cursor = 0

    @property
    def position(self) -> Position:
        return self._positions[self.cursor]

    def __len__(self) -> int:
        return len(self.moves)

    def play(self, move: Iterable[Square], colour: Optional[int] = None) -> Played:
        """Plays a move for ``colour`` (default: the colour to play) at the cursor. Before the
        end of the game the moves after the cursor are dropped, unless this is the move that
        follows (then the cursor just moves on)."""
        pos = self.position
        if colour is None:
            colour = pos.effective_to_play()
            if colour is None:
                raise IllegalMove("the game is over")
        squares = frozenset(move)
        if self.cursor < len(self.moves):
            following = self.moves[self.cursor]
            if following.colour == colour and following.squares == squares:
                self.cursor += 1  # the move the game went on with: keep the rest
                return following
        nxt = pos.copy()
        piece = nxt.play(colour, squares)
        del self.moves[self.cursor:]
        del self._positions[self.cursor + 1:]
        played = Played(colour, squares, piece)
        self.moves.append(played)
        self._positions.append(nxt)
        self.cursor += 1
        return played

    def undo(self) -> bool:
        """One move back (kept for :meth:`redo`)."""
        if self.cursor == 0:
            return False
        self.cursor -= 1
        return True

    def redo(self) -> bool:
        if self.cursor >= len(self.moves):
            return False
        self.cursor += 1
        return True

    def goto(self, k: int) -> None:
        self.cursor = max(0, min(len(self.moves), k))

    def position_at(self, k: int) -> Position:
        return self._positions[max(0, min(len(self.moves), k))]

    def engine_moves(self, upto: Optional[int] = None) -> Optional[List[str]]:
        """The moves up to ``upto`` (default: the cursor) for the engine's ``position startpos
        moves ...``, or None if some move was made out of turn (the engine takes moves in the
        playing order, skipping colours that cannot move)."""
        upto = self.cursor if upto is None else upto
        out = []
        for k, m in enumerate(self.moves[:upto]):
            if self._positions[k].effective_to_play() != m.colour:
                return None
            out.append(engine_move_text(m.squares))
        return out

    def last_moves(self) -> List[Optional[Played]]:
        """The last move of each colour up to the cursor."""
        out: List[Optional[Played]] = [None] * self.variant.ncolours
        for m in self.moves[: self.cursor]:
            out[m.colour] = m
        return out
