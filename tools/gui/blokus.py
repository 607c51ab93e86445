#!/usr/bin/env python3
"""Blokus with the tessera engine: play, let the engine play any colours, analyse records.

    python3 tools/gui/blokus.py [--engine CMD] [--variant classic|two|...|trigon|callisto|...]
                                [--movetime MS] [--level N] [--computer COLOURS]
                                [--open FILE.blksgf [--game K] [--goto N]]
                                [--autoplay N [--exit-after-autoplay]] [--save FILE]
                                [--analyze [--exit-after-analysis]] [--analysis-nodes N]
                                [--screenshot FILE.png]

Every variant (Classic, Two-Player, Three-Player, Duo, Junior; Blokus Trigon: ``trigon``,
``trigon_2``, ``trigon_3``, a hexagon of triangles with its six starting points ringed; Callisto:
``callisto``, ``callisto_2``, ``callisto_2_4``, ``callisto_3``, an octagon of squares with its
centre section shaded darker, where the single squares may not go: each colour places two of
them first, anywhere else, then its pieces join it along an edge; a piece's squares are drawn
joined, a single square as a ring, as Pentobi draws them; Nexos: ``nexos``, ``nexos_2``, pieces
of line segments drawn as bars on the lattice, a junction coloured where a piece runs straight
through it, each colour's four starting segments dotted; GembloQ: ``gembloq``, ``gembloq_2``,
``gembloq_3``, ``gembloq_2_4``, unit squares cut along alternating diagonals into right
triangles whose long sides draw a lattice of diamonds, a piece's square being the four
triangles of one and a half-square two, each colour's starting square dotted; the engine plays
it through ``tessera gtp``, its hint is one move and its game analysis is not there yet). Each
colour's pieces are drawn in the side panel; click one of the colour to play, turn it with ``r``
or the mouse wheel (a quarter turn on squares, 60 degrees on triangles), flip it with ``f``, and
the board shows it under the mouse, green where it may go and red where not; click to place
it. The engine plays the colours ticked under "Computer plays" with the chosen think time, on
a background thread (the window never freezes) at the chosen level (1 to 10, 10 = full
strength); **Hint** shows its three best moves for the colour to play, numbered 1 to 3 on the
board (1 shaded) with their expected results. Back/Next and the first/last buttons browse
the game (also a record opened from a ``.blksgf`` file); "Save" writes the game in Blokus SGF
as the reference Blokus program does. The last move of each colour is marked with dots,
"Corners" shows a colour's attach corners, and the score panel gives points, pieces left and,
at the end, the rank.

**A game on a real table** (the house player: people play some colours on a real board, the
engine the others): the box under the board announces the computer's move in large type (the
piece, its squares by the board's letters and numbers, the piece's shape) while a heavy outline
marks it on the board, until a person's next move (several in a row are listed together). A person's move is entered by clicking
its squares with no piece picked: once the squares clicked fit one legal move only and no
larger one, it is placed at once; Enter places the move the squares make (or the only legal
move that contains them, drawn dashed); squares that fit no legal move are said so at once,
with the reason. **Undo** (the big button, or Ctrl+Z) takes back the last move a person made
and the computer's replies after it, so that it can be entered again.

**Game analysis**, as in Pentobi: "Analyze game" has a second engine process (``tessera gtp``,
its ``tessera-analyze`` command) value the position after every move, for the player who made
it, at the chosen playouts a position, in the background (*Cancel* stops it); a graph under
the board shows each move's value in its colour, the moves that lost most are ringed and
listed, and a click on the graph goes to that position.

**Rated games**, as in Pentobi: "Rated game at level N" starts a game of the current variant
against the engine at the chosen level; you play one player's colours (the first player in
your first game of the variant, then the next one in turn), without hints or undo. At the end
the result (level, win/draw/loss, date, variant) is stored and your rating in that variant is
estimated from all of them: level k counts as rating 1000 + 150 (k - 1); you start at 1000 and
move by K (S - E) after each game, S = 1 for a win, 1/2 a draw, 0 a loss (with three or four
players the share of the opponents you finished ahead of), E the expected score against the
level's rating, K = 40 for the first 10 games, then 20. A rated game left unfinished (new
game, another variant, a record opened) is not counted. The level and the rated games are kept
in ``~/.config/tessera/blokus.json`` (``$XDG_CONFIG_HOME``).

Keys: r / wheel turn, f flip, Esc drop the piece or the squares, Enter place the squares,
h hint, c computer move for the colour to play, Ctrl+Z undo a person's move, Left / Right back /
forward, Home / End, Ctrl+N new game, Ctrl+O open, Ctrl+S save.

Headless (CI): ``--autoplay N --exit-after-autoplay`` plays up to N moves with the engine on
every colour (fewer if the game ends), prints ``moves M score P1 P2 ...`` (each colour's
points) and exits 0; ``--save FILE`` writes the game record first and ``--screenshot FILE``
a PNG of the window (read from the X server through libX11; no other tool needed); with
``--level N`` it prints ``level N`` first, once the engine took the level. ``--open FILE
--analyze --exit-after-analysis`` analyses the record without a window and prints ``move K
colour C value V`` for every move (K from 1, C the colour's number from 1, V the mover's value
after the move, 0 to 1, 3 decimals), at ``--analysis-nodes`` playouts a position; ``--analyze``
with a window starts the analysis at once (with ``--screenshot``: the picture once it is
done).
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import functools
import math
import os
import shlex
import struct
import sys
import zlib
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

REPO = Path(__file__).resolve().parents[2]
if (REPO / "tools" / "python" / "tessera_engine_client").is_dir():
    # The client next to this file matches it, even if an older one is installed.
    sys.path.insert(0, str(REPO / "tools" / "python"))

from tessera_engine_client import EngineError, Limit  # noqa: E402
from tessera_engine_client import blokus, blokus_sgf  # noqa: E402
from tessera_engine_client.background import EngineThread  # noqa: E402
from tessera_engine_client.blokus import Played, Square  # noqa: E402
from tessera_engine_client.blokus_analysis import AnalysisError, Analyzer, MoveValue  # noqa: E402
from tessera_engine_client.blokus_match import (  # noqa: E402
    EngineFailure, GtpEngine, GtpError, gtp_colour, score_text)
from tessera_engine_client.rating import RatedGame, rated_games  # noqa: E402
from tessera_engine_client.settings import LEVELS, Settings  # noqa: E402
from gui_common import (  # noqa: E402
    HINT_LINES, RANK_COLORS, LevelChooser, RatedPanel, badge, hint_lines)
from blokus_analysis_panel import AnalysisPanel  # noqa: E402

import tkinter as tk  # noqa: E402
from tkinter import filedialog, messagebox, simpledialog, ttk  # noqa: E402

# ---------------------------------------------------------------------------------- look
BOARD_PX = 600
BX0, BY0 = 26, 10           # top-left of the board on its canvas
BOARD_W = BX0 + BOARD_PX + 8  # the board canvas's width
ANNOUNCE_H = 96             # the box under the board that announces moves
SIDE_W = 430                # the pieces canvas
BG = "#eef0f4"
EMPTY = "#f7f7f9"
GRID = "#c9ccd6"
TEXT = "#22283a"
MUTED = "#6b7285"
GOOD = "#1faa3f"
ANNOUNCE_BG = "#fff6cf"     # the box that announces the computer's move
BAD = "#e0302b"
PALETTE = {
    "classic": ["#2f6ad9", "#e9b90e", "#d8383a", "#27a04f"],
    "duo": ["#8a3fc0", "#ee7d1b"],
    "junior": ["#27a04f", "#ee7d1b"],
}
for _name in ("two", "three", "trigon", "trigon_2", "trigon_3", "callisto", "callisto_2_4",
              "callisto_3", "nexos", "nexos_2", "gembloq", "gembloq_2_4", "gembloq_3"):
    PALETTE[_name] = PALETTE["classic"]
for _name in ("callisto_2", "gembloq_2"):  # Blue and Green
    PALETTE[_name] = [PALETTE["classic"][0], PALETTE["classic"][3]]
CENTRE = "#d6d9e1"          # Callisto's centre section (empty squares)
THINK = [("0.1 s", 100), ("0.25 s", 250), ("0.5 s", 500), ("1 s", 1000), ("2 s", 2000),
         ("5 s", 5000), ("10 s", 10000), ("30 s", 30000)]
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
SQRT3 = math.sqrt(3)

GTP_ONLY = ("gembloq",)
"""Board families the engine plays over GTP only (``tessera gtp``): GembloQ."""


def shade(colour: str, factor: float) -> str:
    """A lighter (factor > 1) or darker (< 1) version of ``#rrggbb``."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    if factor >= 1:
        f = factor - 1
        r, g, b = (int(v + (255 - v) * f) for v in (r, g, b))
    else:
        r, g, b = (int(v * factor) for v in (r, g, b))
    return f"#{min(255, r):02x}{min(255, g):02x}{min(255, b):02x}"


@functools.lru_cache(maxsize=None)
def display_cells(piece: str, geo: Optional[blokus.Geometry] = None) -> Tuple[Square, ...]:
    """The orientation a piece is pictured in: on squares the first one at least as wide as
    high; on triangles the flattest one (fewest rows, then the narrowest)."""
    geo = geo or blokus.variant_info("classic").geometry
    shapes = geo.orientations(piece)
    if geo.kind in ("trigon", "gembloq"):
        return min(shapes, key=lambda o: (max(y for _, y in o) - min(y for _, y in o),
                                          max(x for x, _ in o) - min(x for x, _ in o)))
    for o in shapes:
        w = max(x for x, _ in o) + 1
        h = max(y for _, y in o) + 1
        if w >= h:
            return o
    return shapes[0]


def _spot(geo: Optional[blokus.Geometry], c: Square) -> Tuple[float, float]:
    """Where a cell's centre is, in cells (triangles: half a side across, a row height up)."""
    if geo is not None and geo.kind == "trigon":
        return c[0] * 0.5, c[1] * SQRT3 / 2
    if isinstance(geo, blokus.GembloQGeometry):
        corners = geo.corners(c)
        return sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3
    return float(c[0]), float(c[1])


def anchor_cell(cells: Sequence[Square], geo: Optional[blokus.Geometry] = None,
                kind: Optional[int] = None) -> Square:
    """The cell of an oriented piece that sits under the mouse: the one nearest its centre (of
    :meth:`~tessera_engine_client.blokus.Geometry.shape_type` ``kind`` if given: a triangle goes on a
    triangle pointing the same way)."""
    spots = [_spot(geo, c) for c in cells]
    cx = sum(x for x, _ in spots) / len(spots)
    cy = sum(y for _, y in spots) / len(spots)
    pool = [c for c in cells if kind is None or geo is None or geo.shape_type(c) == kind]
    return min(pool or cells, key=lambda c: ((_spot(geo, c)[0] - cx) ** 2
                                             + (_spot(geo, c)[1] - cy) ** 2, c))


def shrink(poly: Sequence[float], factor: float) -> List[float]:
    """A polygon (x0, y0, x1, y1, ...) scaled about its centroid."""
    xs, ys = poly[0::2], poly[1::2]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    out: List[float] = []
    for x, y in zip(xs, ys):
        out += [cx + (x - cx) * factor, cy + (y - cy) * factor]
    return out


def shape_polygons(geo: blokus.Geometry, cells: Sequence[Square], x0: float, y0: float,
                   unit: float) -> Tuple[List[Tuple[Square, List[float]]], float, float]:
    """A piece's cells drawn from the top-left corner (x0, y0): each cell's polygon, and the
    drawing's width and height. ``unit``: a square's side, or a triangle's side."""
    if geo.kind == "nexos":
        return nexos_shape_polygons(geo, cells, x0, y0, unit)
    if isinstance(geo, blokus.GembloQGeometry):
        return gembloq_shape_polygons(geo, cells, x0, y0, unit)
    mx = min(x for x, _ in cells)
    top = max(y for _, y in cells)
    out = []
    if geo.kind == "trigon":
        row = unit * SQRT3 / 2
        for x, y in cells:
            cx = x0 + (x - mx + 1) * unit / 2
            ty = y0 + (top - y) * row
            if geo.shape_type((x, y)) == 0:  # up
                poly = [cx - unit / 2, ty + row, cx + unit / 2, ty + row, cx, ty]
            else:
                poly = [cx - unit / 2, ty, cx + unit / 2, ty, cx, ty + row]
            out.append(((x, y), poly))
        width = (max(x for x, _ in cells) - mx + 2) * unit / 2
        return out, width, (top - min(y for _, y in cells) + 1) * row
    my = min(y for _, y in cells)
    for x, y in cells:
        px, py = x0 + (x - mx) * unit, y0 + (top - y) * unit
        out.append(((x, y), [px, py, px + unit, py, px + unit, py + unit, px, py + unit]))
    return out, (max(x for x, _ in cells) - mx + 1) * unit, (top - my + 1) * unit


def nexos_polygon(p: Square, cx: float, cy: float, step: float) -> List[float]:
    """A Nexos point centred at (cx, cy) on a grid of ``step`` pixels a point: a segment is a
    bar with pointed ends reaching towards its two junctions, a junction a small square."""
    t = step * 0.56  # a bar's thickness, and a junction's side
    if p[0] % 2 == 0 and p[1] % 2 == 0:
        h = t / 2
        return [cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h]
    a, h = step * 0.94, t / 2  # half a bar's length, half its thickness
    if p[0] % 2:  # horizontal
        return [cx - a, cy, cx - a + h, cy - h, cx + a - h, cy - h, cx + a, cy,
                cx + a - h, cy + h, cx - a + h, cy + h]
    return [cx, cy - a, cx + h, cy - a + h, cx + h, cy + a - h, cx, cy + a,
            cx - h, cy + a - h, cx - h, cy - a + h]


def nexos_shape_polygons(geo: blokus.Geometry, cells: Sequence[Square], x0: float, y0: float,
                         unit: float) -> Tuple[List[Tuple[Square, List[float]]], float, float]:
    """:func:`shape_polygons` for Nexos: the segments and the junctions a piece covers, on a
    grid of ``unit`` pixels a point (a segment is two points long)."""
    points = sorted(geo.covered(cells))
    raw = [(p, nexos_polygon(p, p[0] * unit, -p[1] * unit, unit)) for p in points]
    xs = [v for _, poly in raw for v in poly[0::2]]
    ys = [v for _, poly in raw for v in poly[1::2]]
    dx, dy = x0 - min(xs), y0 - min(ys)
    out = [(p, [v + (dx if i % 2 == 0 else dy) for i, v in enumerate(poly)]) for p, poly in raw]
    return out, max(xs) - min(xs), max(ys) - min(ys)


def gembloq_shape_polygons(geo: blokus.GembloQGeometry, cells: Sequence[Square], x0: float,
                           y0: float, unit: float
                           ) -> Tuple[List[Tuple[Square, List[float]]], float, float]:
    """:func:`shape_polygons` for GembloQ: each triangle from its corners, ``unit`` pixels a
    unit square (a GembloQ square's diagonal is two)."""
    corners = {c: geo.corners(c) for c in cells}
    xs = [x for cs in corners.values() for x, _ in cs]
    ys = [y for cs in corners.values() for _, y in cs]
    left, top = min(xs), max(ys)
    out = [(c, [v for x, y in cs for v in (x0 + (x - left) * unit, y0 + (top - y) * unit)])
           for c, cs in corners.items()]
    return out, (max(xs) - left) * unit, (top - min(ys)) * unit


@functools.lru_cache(maxsize=None)
def gembloq_silhouette(geo: blokus.GembloQGeometry, cells: Tuple[Square, ...]
                       ) -> Tuple[Tuple[int, int], ...]:
    """The corners around a GembloQ piece's outside in order (unit squares, ``y`` up): its
    triangles' sides that no other of its triangles shares, joined into one loop."""
    count: Dict[Tuple[Tuple[int, int], Tuple[int, int]], int] = {}
    for c in cells:
        right, a, b = geo.corners(c)
        for ends in ((a, b), (right, a), (right, b)):
            key = (min(ends), max(ends))
            count[key] = count.get(key, 0) + 1
    nxt: Dict[Tuple[int, int], List[Tuple[int, int]]] = {}
    for (a, b), n in count.items():
        if n == 1:
            nxt.setdefault(a, []).append(b)
            nxt.setdefault(b, []).append(a)
    start = min(nxt)
    loop, prev, at = [start], None, start
    while True:
        step = next(q for q in nxt[at] if q != prev)
        if step == start:
            return tuple(loop)
        loop.append(step)
        prev, at = at, step


def draw_block(cv: tk.Canvas, poly: Sequence[float], colour: str, tags: Any = ()) -> None:
    """A placed piece's cell: a bevelled square, or a triangle with a dark rim and a light
    upper edge."""
    if len(poly) == 8:  # a square: light top and left, dark bottom and right
        x, y, s = poly[0], poly[1], poly[2] - poly[0]
        b = max(1.5, s * 0.12)
        cv.create_rectangle(x, y, x + s, y + s, fill=shade(colour, 0.72), outline="", tags=tags)
        cv.create_polygon(x, y, x + s, y, x + s - b, y + b, x + b, y + b, x + b, y + s - b,
                          x, y + s, fill=shade(colour, 1.45), outline="", tags=tags)
        cv.create_rectangle(x + b, y + b, x + s - b, y + s - b, fill=colour, outline="",
                            tags=tags)
        return
    cv.create_polygon(*poly, fill=shade(colour, 0.72), outline="", tags=tags)
    light = shrink(poly, 0.86)
    cv.create_polygon(*[v - 0.8 for v in light], fill=shade(colour, 1.45), outline="", tags=tags)
    cv.create_polygon(*shrink(poly, 0.68), fill=colour, outline="", tags=tags)


def draw_ring(cv: tk.Canvas, poly: Sequence[float], colour: str, tags: Any = ()) -> None:
    """Hollows a square drawn by :func:`draw_block`: a loose single square (Callisto's, which
    scores nothing) is a ring, as Pentobi draws it."""
    x, y, s = poly[0], poly[1], poly[2] - poly[0]
    b = s * 0.3
    cv.create_rectangle(x + b, y + b, x + s - b, y + s - b, fill=shade(colour, 1.6),
                        outline=shade(colour, 0.72), tags=tags)


class BoardView:
    """Where a board's points are drawn on the board canvas, and which point the mouse is on."""

    def __init__(self, info: blokus.VariantInfo) -> None:
        self.info = info
        self.geo = info.geometry
        self.unit = 1.0
        """A square's side, or a triangle's side, in pixels."""

    def polygon(self, p: Square) -> List[float]:
        raise NotImplementedError

    def centre(self, p: Square) -> Tuple[float, float]:
        poly = self.polygon(p)
        xs, ys = poly[0::2], poly[1::2]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    @property
    def inradius(self) -> float:
        """The radius of the circle inside a cell."""
        raise NotImplementedError

    def inset(self, p: Square, by: float) -> List[float]:
        """The cell's polygon with its sides moved ``by`` pixels inwards."""
        r = self.inradius
        return shrink(self.polygon(p), max(0.05, (r - by) / r))

    def point_at(self, px: float, py: float) -> Optional[Square]:
        raise NotImplementedError

    def draw_frame(self, cv: tk.Canvas) -> None:
        raise NotImplementedError

    def cell(self, cv: tk.Canvas, p: Square, inset: float = 0.0, **opts: Any) -> None:
        """A cell's shape (moved in by ``inset`` pixels) with canvas options."""
        cv.create_polygon(*(self.inset(p, inset) if inset else self.polygon(p)), **opts)

    def dot(self, cv: tk.Canvas, p: Square, radius: float, **opts: Any) -> None:
        x, y = self.centre(p)
        cv.create_oval(x - radius, y - radius, x + radius, y + radius, **opts)


class SquareView(BoardView):
    def __init__(self, info: blokus.VariantInfo) -> None:
        super().__init__(info)
        self.unit = BOARD_PX // info.size

    def xy(self, p: Square) -> Tuple[float, float]:
        """The top-left corner of a square."""
        return BX0 + p[0] * self.unit, BY0 + (self.info.size - 1 - p[1]) * self.unit

    def polygon(self, p: Square) -> List[float]:
        x, y = self.xy(p)
        s = self.unit
        return [x, y, x + s, y, x + s, y + s, x, y + s]

    @property
    def inradius(self) -> float:
        return self.unit / 2

    def cell(self, cv: tk.Canvas, p: Square, inset: float = 0.0, **opts: Any) -> None:
        x, y = self.xy(p)
        s = self.unit
        cv.create_rectangle(x + inset, y + inset, x + s - inset, y + s - inset, **opts)

    def point_at(self, px: float, py: float) -> Optional[Square]:
        size, cell = self.info.size, self.unit
        x = int((px - BX0) // cell)
        y = size - 1 - int((py - BY0) // cell)
        if px < BX0 or py < BY0 or not (0 <= x < size and 0 <= y < size):
            return None
        return (x, y)

    def draw_frame(self, cv: tk.Canvas) -> None:
        size, cell = self.info.size, self.unit
        side = size * cell
        cv.create_rectangle(BX0 - 3, BY0 - 3, BX0 + side + 3, BY0 + side + 3, fill="#9aa0b0",
                            outline="")
        for i in range(size):
            x, _ = self.xy((i, 0))
            cv.create_text(x + cell / 2, BY0 + side + 13, text=chr(ord("a") + i), fill=MUTED,
                           font=("DejaVu Sans", 9))
            _, y = self.xy((0, i))
            cv.create_text(BX0 - 14, y + cell / 2, text=str(i + 1), fill=MUTED,
                           font=("DejaVu Sans", 9))


class CallistoView(SquareView):
    """Callisto's octagon on its square grid, the centre section shaded."""

    def point_at(self, px: float, py: float) -> Optional[Square]:
        p = super().point_at(px, py)
        return p if p is not None and self.geo.on_board(p) else None

    def draw_frame(self, cv: tk.Canvas) -> None:
        size, cell, e = self.info.size, self.unit, self.geo.edge
        cut = (size - e) // 2 * cell  # the corners are cut at 45 degrees
        x0, y0, side = BX0 - 3, BY0 - 3, size * cell + 6
        cv.create_polygon(x0 + cut, y0, x0 + side - cut, y0, x0 + side, y0 + cut,
                          x0 + side, y0 + side - cut, x0 + side - cut, y0 + side, x0 + cut,
                          y0 + side, x0, y0 + side - cut, x0, y0 + cut, fill="#9aa0b0",
                          outline="")
        for i in range(size):
            x, _ = self.xy((i, 0))
            cv.create_text(x + cell / 2, BY0 + size * cell + 13, text=blokus.column_name(i),
                           fill=MUTED, font=("DejaVu Sans", 9))
            first = min(x for x in range(size) if self.geo.on_board((x, i)))
            x, y = self.xy((first, i))
            cv.create_text(x - 14, y + cell / 2, text=str(i + 1), fill=MUTED,
                           font=("DejaVu Sans", 9))

    def draw_pieces(self, cv: tk.Canvas, placed: Sequence[Tuple[int, frozenset, bool]],
                    colours: Sequence[str]) -> None:
        """Placed pieces (colour, squares, loose) as Pentobi draws them: a piece's squares
        joined into one raised shape and a gap around each piece, so that pieces of a colour
        touching along an edge stay apart; a loose single square as a ring."""
        s = self.unit
        a = max(1.5, s * 0.06)      # half the gap between two pieces
        b = max(1.5, s * 0.11)      # the raised rim
        for colour, squares, loose in placed:
            base = colours[colour]
            light, dark = shade(base, 1.45), shade(base, 0.72)
            for px, py in squares:
                x, y = self.xy((px, py))
                left, right = (px - 1, py) in squares, (px + 1, py) in squares
                up, down = (px, py + 1) in squares, (px, py - 1) in squares
                # The square, reaching across the gap to the squares of its piece.
                x0, x1 = x - a if left else x + a, x + s + a if right else x + s - a
                y0, y1 = y - a if up else y + a, y + s + a if down else y + s - a
                cv.create_rectangle(x0, y0, x1, y1, fill=base, outline="")
                # The rim on the piece's outside: light above and left, dark below and right.
                if not down:
                    cv.create_rectangle(x0, y1 - b, x1, y1, fill=dark, outline="")
                if not right:
                    cv.create_rectangle(x1 - b, y0, x1, y1, fill=dark, outline="")
                if not up:
                    cv.create_rectangle(x0, y0, x1, y0 + b, fill=light, outline="")
                if not left:
                    cv.create_rectangle(x0, y0, x0 + b, y1, fill=light, outline="")
                if loose:
                    draw_ring(cv, [x0, y0, x1, y0, x1, y1, x0, y1], base)


    def outline(self, cv: tk.Canvas, squares: frozenset, **opts: Any) -> None:
        """Lines around a placed piece's outside (one inside its gap)."""
        s, a = self.unit, max(1.5, self.unit * 0.06) + 1
        for px, py in squares:
            x, y = self.xy((px, py))
            x0 = x - a if (px - 1, py) in squares else x + a
            x1 = x + s + a if (px + 1, py) in squares else x + s - a
            y0 = y - a if (px, py + 1) in squares else y + a
            y1 = y + s + a if (px, py - 1) in squares else y + s - a
            for side, line in (((px, py + 1), (x0, y + a, x1, y + a)),
                               ((px, py - 1), (x0, y + s - a, x1, y + s - a)),
                               ((px - 1, py), (x + a, y0, x + a, y1)),
                               ((px + 1, py), (x + s - a, y0, x + s - a, y1))):
                if side not in squares:
                    cv.create_line(*line, **opts)


class TrigonView(BoardView):
    """The Trigon hexagon: row y from the bottom, each point a triangle half a side right of
    the one before."""

    def __init__(self, info: blokus.VariantInfo) -> None:
        super().__init__(info)
        geo = self.geo
        self.unit = min(BOARD_PX / ((geo.width + 1) / 2), BOARD_PX / (geo.height * SQRT3 / 2))
        self.row = self.unit * SQRT3 / 2
        self.x0 = BX0 + (BOARD_PX - (geo.width + 1) * self.unit / 2) / 2

    def polygon(self, p: Square) -> List[float]:
        geo, s = self.geo, self.unit
        cx = self.x0 + (p[0] + 1) * s / 2
        top = BY0 + (geo.height - 1 - p[1]) * self.row
        if geo.is_up(p):
            return [cx - s / 2, top + self.row, cx + s / 2, top + self.row, cx, top]
        return [cx - s / 2, top, cx + s / 2, top, cx, top + self.row]

    @property
    def inradius(self) -> float:
        return self.unit / (2 * SQRT3)

    def point_at(self, px: float, py: float) -> Optional[Square]:
        geo = self.geo
        r = math.floor((py - BY0) / self.row)
        y = geo.height - 1 - r
        if not 0 <= y < geo.height:
            return None
        guess = round(2 * (px - self.x0) / self.unit - 1)
        for x in (guess - 1, guess, guess + 1):
            p = (x, y)
            if geo.on_board(p) and _inside(self.polygon(p), px, py):
                return p
        return None

    def draw_frame(self, cv: tk.Canvas) -> None:
        geo, s, e = self.geo, self.unit, self.geo.edge
        top, mid = BY0, BY0 + e * self.row
        bottom = BY0 + geo.height * self.row
        left, right = self.x0, self.x0 + (geo.width + 1) * s / 2
        inner_l, inner_r = self.x0 + e * s / 2, self.x0 + (geo.width - e + 1) * s / 2
        cv.create_polygon(left, mid, inner_l, top, inner_r, top, right, mid, inner_r, bottom,
                          inner_l, bottom, fill="#9aa0b0", outline="#9aa0b0", width=6,
                          joinstyle=tk.MITER)
        for x in range(geo.width):
            cx = self.x0 + (x + 1) * self.unit / 2
            cv.create_text(cx, bottom + 12 + 9 * (x % 2), text=blokus.column_name(x),
                           fill=MUTED, font=("DejaVu Sans", 7))
        for y in range(geo.height):
            first = min(x for x in range(geo.width) if geo.on_board((x, y)))
            left = self.polygon((first, y))
            cv.create_text(min(left[0::2]) - 12, BY0 + (geo.height - 0.5 - y) * self.row,
                           text=str(y + 1), fill=MUTED, font=("DejaVu Sans", 8))


class NexosView(BoardView):
    """The Nexos board: the 12x12 lattice's segments (bars between junctions) on its 25x25
    grid, row 1 at the bottom; a junction a piece passes straight through is coloured too."""

    def __init__(self, info: blokus.VariantInfo) -> None:
        super().__init__(info)
        self.step = BOARD_PX / 25
        self.unit = self.step

    def centre(self, p: Square) -> Tuple[float, float]:
        return (BX0 + (p[0] + 0.5) * self.step, BY0 + (24.5 - p[1]) * self.step)

    def polygon(self, p: Square) -> List[float]:
        return nexos_polygon(p, *self.centre(p), self.step)

    @property
    def inradius(self) -> float:
        return self.step * 0.28

    def point_at(self, px: float, py: float) -> Optional[Square]:
        gx = (px - BX0) / self.step - 0.5
        gy = 24.5 - (py - BY0) / self.step
        near = [(x, y) for x in range(round(gx) - 1, round(gx) + 2)
                for y in range(round(gy) - 1, round(gy) + 2) if self.geo.on_board((x, y))]
        if not near:
            return None
        best = min(near, key=lambda p: (p[0] - gx) ** 2 + (p[1] - gy) ** 2)
        return best if (best[0] - gx) ** 2 + (best[1] - gy) ** 2 <= 1.5 else None

    def draw_frame(self, cv: tk.Canvas) -> None:
        side = 25 * self.step
        cv.create_rectangle(BX0 - 3, BY0 - 3, BX0 + side + 3, BY0 + side + 3, fill="#9aa0b0",
                            outline="")
        cv.create_rectangle(BX0, BY0, BX0 + side, BY0 + side, fill="#c4c8d2", outline="")
        for i in range(25):
            x, _ = self.centre((i, 0))
            cv.create_text(x, BY0 + side + 10 + 8 * (i % 2), text=blokus.column_name(i),
                           fill=MUTED, font=("DejaVu Sans", 7))
            _, y = self.centre((0, i))
            cv.create_text(BX0 - 13, y, text=str(i + 1), fill=MUTED, font=("DejaVu Sans", 7))
        for x in range(0, 25, 2):
            for y in range(0, 25, 2):
                self.cell(cv, (x, y), inset=2, fill=GRID, outline="")


class GembloqView(BoardView):
    """The GembloQ board as Pentobi draws it: unit squares cut along alternating diagonals into
    right triangles, so that the long sides draw a lattice of diamonds (a GembloQ square is
    the four triangles of one, a half-square two); row 1 at the bottom, the corners cut. A
    piece's triangles are filled edge to edge, with a line along its outside and along the
    long sides that part its squares."""

    def __init__(self, info: blokus.VariantInfo) -> None:
        super().__init__(info)
        geo = self.geo
        assert isinstance(geo, blokus.GembloQGeometry)
        self.gq = geo
        self.unit = BOARD_PX / geo.height  # a unit square's side: two columns, one row
        self.edges: List[Tuple[Square, Optional[Square], bool, List[float]]] = []
        """Every side of a triangle once: (triangle, the one across it or None at the board's
        edge, whether it is a long side, its line)."""
        self.sides: Dict[Square, List[int]] = {p: [] for p in geo.points()}
        """Each triangle's three sides (indices into :attr:`edges`)."""
        seen: Dict[Tuple[Square, Square], int] = {}
        for p in geo.points():
            right, a, b = geo.corners(p)
            for ends, long in (((a, b), True), ((right, a), False), ((right, b), False)):
                key = (min(ends), max(ends))
                if key not in seen:
                    seen[key] = len(self.edges)
                    across = next((q for q in geo.adj(p) if set(key) <= set(geo.corners(q))),
                                  None)
                    self.edges.append((p, across, long, [*self.xy(key[0]), *self.xy(key[1])]))
                self.sides[p].append(seen[key])
        self.rows: List[List[float]] = []
        """Each row's outline (its triangles make a convex strip)."""
        for y in range(geo.height):
            xs = [x for x in range(geo.width) if geo.on_board((x, y))]
            ends = {self.xy(c) for x in (xs[0], xs[-1]) for c in geo.corners((x, y))}
            self.rows.append([v for c in _hull(ends) for v in c])

    def xy(self, corner: Square) -> Tuple[float, float]:
        """Where a corner of the lattice (in unit squares, ``y`` up) is on the canvas."""
        return BX0 + corner[0] * self.unit, BY0 + (self.gq.height - corner[1]) * self.unit

    def polygon(self, p: Square) -> List[float]:
        return [v for c in self.gq.corners(p) for v in self.xy(c)]

    @property
    def inradius(self) -> float:
        return self.unit * (2 - math.sqrt(2)) / 2

    def point_at(self, px: float, py: float) -> Optional[Square]:
        u = math.floor((px - BX0) / self.unit)
        y = self.gq.height - 1 - math.floor((py - BY0) / self.unit)
        for p in ((2 * u, y), (2 * u + 1, y)):
            if self.gq.on_board(p) and _inside(self.polygon(p), px, py):
                return p
        return None

    def draw_frame(self, cv: tk.Canvas) -> None:
        geo = self.gq
        for _, across, _, line in self.edges:
            if across is None:
                cv.create_line(*line, fill="#9aa0b0", width=6, capstyle=tk.ROUND)
        for x in range(0, geo.width, 2):
            cx = BX0 + (x / 2 + 0.5) * self.unit
            cv.create_text(cx - self.unit / 4, BY0 + BOARD_PX + 10, text=blokus.column_name(x),
                           fill=MUTED, font=("DejaVu Sans", 7))
            cv.create_text(cx + self.unit / 4, BY0 + BOARD_PX + 19,
                           text=blokus.column_name(x + 1), fill=MUTED, font=("DejaVu Sans", 7))
        for y in range(geo.height):
            first = min(x for x in range(geo.width) if geo.on_board((x, y)))
            cv.create_text(BX0 + first // 2 * self.unit - 12,
                           BY0 + (geo.height - 0.5 - y) * self.unit, text=str(y + 1),
                           fill=MUTED, font=("DejaVu Sans", 7))

    def draw_lines(self, cv: tk.Canvas, cells: Dict[Square, int], colours: Sequence[str]) -> None:
        """The triangles' sides over the filled board: the diamonds' lattice on empty
        triangles (their short sides fainter), each piece's outside dark in its colour and the
        long sides between its squares lighter."""
        for p, across, long, line in self.edges:
            a, b = cells.get(p), None if across is None else cells.get(across)
            if a is None and b is None:
                cv.create_line(*line, fill=GRID if long else "#e3e5eb")
            elif a == b:
                if long:
                    cv.create_line(*line, fill=shade(colours[a], 1.5), width=1.5)
            else:
                ink = shade(colours[a if a is not None else b], 0.55)
                cv.create_line(*line, fill=ink if a is None or b is None else TEXT, width=2)

    def draw_empty(self, cv: tk.Canvas) -> None:
        """The board's area in the colour of an empty triangle (a polygon a row)."""
        for row in self.rows:
            cv.create_polygon(*row, fill=EMPTY, outline="")

    def outline(self, cv: tk.Canvas, squares: frozenset, **opts: Any) -> None:
        """Lines along a move's outside."""
        for e in {e for p in squares for e in self.sides.get(p, ())}:
            p, across, _, line = self.edges[e]
            if (p in squares) != (across in squares):
                cv.create_line(*line, capstyle=tk.ROUND, **opts)


def _hull(points: Iterable[Tuple[float, float]]) -> List[Tuple[float, float]]:
    """The convex hull of points, in order around it (Andrew's monotone chain)."""
    pts = sorted(set(points))

    def half(seq: Sequence[Tuple[float, float]]) -> List[Tuple[float, float]]:
        out: List[Tuple[float, float]] = []
        for p in seq:
            while len(out) > 1 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    return half(pts) + half(pts[::-1])


def _inside(poly: Sequence[float], px: float, py: float) -> bool:
    """Whether (px, py) lies in a convex polygon (either orientation)."""
    n = len(poly) // 2
    sign = 0
    for i in range(n):
        x1, y1 = poly[2 * i], poly[2 * i + 1]
        x2, y2 = poly[2 * ((i + 1) % n)], poly[2 * ((i + 1) % n) + 1]
        cross = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)
        if cross:
            s = 1 if cross > 0 else -1
            if sign and s != sign:
                return False
            sign = s
    return True


def board_view(info: blokus.VariantInfo) -> BoardView:
    if info.board == "callisto":
        return CallistoView(info)
    if info.board == "nexos":
        return NexosView(info)
    if info.board == "gembloq":
        return GembloqView(info)
    return TrigonView(info) if info.geometry.kind == "trigon" else SquareView(info)


# ---------------------------------------------------------------------------------- screenshot
class _XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.c_void_p),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                ("bits_per_pixel", ctypes.c_int), ("red_mask", ctypes.c_ulong),
                ("green_mask", ctypes.c_ulong), ("blue_mask", ctypes.c_ulong)]


def screenshot(widget: tk.Misc, path: str) -> Tuple[int, int]:
    """Writes a PNG of the window's area of the screen (X11 only: libX11 through ctypes, the
    PNG with zlib). Returns (width, height)."""
    widget.update_idletasks()
    widget.update()
    name = ctypes.util.find_library("X11") or "libX11.so.6"
    x11 = ctypes.cdll.LoadLibrary(name)
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XDisplayWidth.argtypes = x11.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x11.XGetImage.restype = ctypes.POINTER(_XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                              ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(widget.winfo_screen().encode())
    if not display:
        raise RuntimeError("cannot open the X display for a screenshot")
    try:
        x0, y0 = max(0, widget.winfo_rootx()), max(0, widget.winfo_rooty())
        w = min(widget.winfo_width(), x11.XDisplayWidth(display, 0) - x0)
        h = min(widget.winfo_height(), x11.XDisplayHeight(display, 0) - y0)
        if w <= 0 or h <= 0:
            raise RuntimeError("the window is not on the screen")
        root = x11.XDefaultRootWindow(display)
        img_p = x11.XGetImage(display, root, x0, y0, w, h, 0xFFFFFFFF, 2)  # ZPixmap
        if not img_p:
            raise RuntimeError("XGetImage failed")
        img = img_p.contents
        if img.bits_per_pixel != 32:
            raise RuntimeError(f"unsupported screen depth ({img.bits_per_pixel} bits per pixel)")
        data = ctypes.string_at(img.data, img.bytes_per_line * h)
        shifts = [(m & -m).bit_length() - 1 for m in (img.red_mask, img.green_mask, img.blue_mask)]
        little = img.byte_order == 0
        raw = bytearray()
        for row in range(h):
            line = data[row * img.bytes_per_line: row * img.bytes_per_line + 4 * w]
            out = bytearray(3 * w)
            for k, shift in enumerate(shifts):
                index = shift // 8 if little else 3 - shift // 8
                out[k::3] = line[index::4]
            raw += b"\x00" + out
    finally:
        x11.XCloseDisplay(display)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))
    Path(path).write_bytes(png)
    return w, h


# ---------------------------------------------------------------------------------- engine thread
class EngineWorker(EngineThread):
    """The engine on a background thread (:class:`EngineThread`), with the Blokus searches;
    the variants it plays over GTP only (:data:`GTP_ONLY`) go to a ``tessera gtp`` process of
    the same engine, started when first needed and again for another variant or level.

    Requests: ("search", token, variant, moves, colour, movetime, level, lines), ("quit",);
    ``moves`` are the game's moves as (colour, move text), ``colour`` the one to move.
    Answers: ("ready", name), ("failed", message), ("level", level), ("info", token, info),
    ("best", token, move or None, info, lines), ("error", token, message), ("dead", message);
    ``lines`` are up to ``lines`` (score, moves), best first (the first one's move is ``move``;
    over GTP one move and no score).
    """

    def __init__(self, command: Sequence[str]) -> None:
        super().__init__(list(command), handlers={"search": self.search_handler(
            self._search, errors=(EngineError, GtpError, EngineFailure))})
        self.variant: Optional[str] = None
        self.book = True  # the engine's OwnBook: off for hints, which want several moves
        self.gtp: Optional[GtpEngine] = None
        self.gtp_setup: Tuple[str, int] = ("", 0)  # the GTP process's variant and level
        self.gtp_moves: List[Tuple[int, str]] = []  # the moves its game holds
        self.gtp_busy = False  # a genmove runs: a cancel kills the process

    def _search(self, token: int, variant: str, moves: List[Tuple[int, str]], colour: int,
                movetime: int, level: int, lines: int) -> None:
        if blokus.variant_info(variant).board in GTP_ONLY:
            self._gtp_search(token, variant, moves, colour, level)
            return
        assert self.engine is not None
        try:
            self.set_level(level)
            if (lines == 1) != self.book and "OwnBook" in self.engine.options:
                self.book = lines == 1
                self.engine.configure(OwnBook=self.book)
            if variant != self.variant:
                self.engine.new_game("blokus", variant=variant)
                self.variant = variant
            self.engine.position_startpos([text for _, text in moves])
            result = self.analyse(token, Limit(movetime=movetime), every=0.1,
                                  multipv=lines if lines > 1 else None)
        except EngineError:
            self.variant = None  # a new game before the next search
            raise
        move = None if result.none else result.bestmove
        self.answers.put(("best", token, move, result.info,
                          hint_lines([move] if move else [], result.lines)))

    def _gtp_search(self, token: int, variant: str, moves: List[Tuple[int, str]], colour: int,
                    level: int) -> None:
        """``genmove`` of a ``tessera gtp --variant V --level L`` process whose game is brought
        to ``moves`` first (only the new ones played when it holds the start of them), then
        ``undo``: the window plays the move itself, and a hint is not played."""
        info = blokus.variant_info(variant)
        gtp = self.gtp
        if gtp is None or gtp.dead or self.gtp_setup != (variant, level):
            self._close_gtp()
            command = shlex.join([*self.command, "gtp", "--variant", variant, "--level",
                                  str(level)])
            try:
                gtp = self.gtp = GtpEngine(command)
            except OSError as e:
                raise EngineFailure(f"cannot start {command}: {e}") from None
            self.gtp_setup, self.gtp_moves = (variant, level), []
            self.answers.put(("level", level))
        try:
            if moves[:len(self.gtp_moves)] != self.gtp_moves:
                gtp.send("clear_board")
                self.gtp_moves = []
            for c, text in moves[len(self.gtp_moves):]:
                gtp.send(f"play {gtp_colour(info, c)} {text}")
                self.gtp_moves.append((c, text))
            if token <= self.cancelled:
                return
            self.gtp_busy = True
            try:
                answer = gtp.send(f"genmove {gtp_colour(info, colour)}").strip()
            finally:
                self.gtp_busy = False
            move = None if answer.lower() == "pass" else answer
            if move is not None:
                gtp.send("undo")
        except EngineFailure:
            self._close_gtp()
            raise
        self.answers.put(("best", token, move, {}, hint_lines([move] if move else [], [])))

    def _stop_engine(self) -> None:
        """A cancelled ``genmove`` ends with its process (GTP has no stop); a search of the
        engine's own protocol is stopped."""
        gtp = self.gtp
        if self.gtp_busy and gtp is not None:
            gtp.dead = True
            gtp.proc.kill()
            return
        super()._stop_engine()

    def move_now(self, token: int) -> None:
        if not self.gtp_busy:  # GTP's genmove cannot be ended early
            super().move_now(token)

    def _close_gtp(self) -> None:
        if self.gtp is not None:
            self.gtp.close()
            self.gtp = None

    def run(self) -> None:
        try:
            super().run()
        finally:
            self._close_gtp()


# ---------------------------------------------------------------------------------- the window
class BlokusApp:
    def __init__(self, root: tk.Tk, args: argparse.Namespace) -> None:
        self.root = root
        self.args = args
        self.fast = bool(args.exit_after_autoplay)
        self.worker = EngineWorker(args.engine)
        self.engine_ready = False
        self.engine_name = "tessera"
        self.token = 0
        self.version = 0                 # bumped on every change of the position
        self.pending: Optional[Tuple[int, str, int]] = None  # (token, purpose, version)
        self.autoplay_left: Optional[int] = None
        self.autoplay_done = False
        self.exit_code = 0
        self.closed = False
        self.game = blokus.Game(args.variant)
        self.selected: Optional[str] = None
        self.cells: Tuple[Square, ...] = ()  # the picked piece as it is turned and flipped
        self._view: Optional[BoardView] = None
        self.hover: Optional[Square] = None
        self.entry: Set[Square] = set()
        self.completion: Optional[frozenset] = None  # the one legal move containing the entry
        self.computer_played: Dict[int, Played] = {}  # the engine's moves, by index
        self.hint: List[Tuple[int, frozenset, Optional[int]]] = []  # (colour, move, score)
        self.settings = Settings("blokus")
        self.level = args.level or self.settings.level
        self.rated: Optional[Tuple[int, int]] = None  # a rated game: (level, your player)
        self.piece_slots: List[Tuple[float, float, float, float, int, str]] = []
        self.computer_vars: List[tk.BooleanVar] = []
        self.corner_vars: List[tk.BooleanVar] = []
        self.filename: Optional[str] = None

        root.title("Blokus · tessera")
        root.configure(bg=BG)
        self._build_widgets()
        self._setup_variant(args.variant, computer=args.computer)
        self.worker.start()
        root.protocol("WM_DELETE_WINDOW", self.close)
        self.worker.poll(root, self._answer, lambda: self.closed)
        self._poll_analysis()
        if args.open:
            self.open_record(args.open, args.game, args.goto)
        if args.autoplay:
            self.autoplay_left = args.autoplay
        if self.fast:
            budget = 30 + args.autoplay * (args.movetime / 1000 + 1.0)
            root.after(int(1000 * budget), self._watchdog)
        elif args.analyze:
            root.after(100, self.analyze_game)
        elif args.screenshot and not args.autoplay:
            root.after(800, self._screenshot_soon)
        self.redraw()

    # ------------------------------------------------------------------ widgets
    def _build_widgets(self) -> None:
        style = ttk.Style(self.root)
        if "clam" in style.theme_names():
            style.theme_use("clam")
        style.configure(".", background=BG, foreground=TEXT, font=("DejaVu Sans", 10))
        style.configure("TButton", padding=(6, 2))
        style.configure("TLabelframe", background=BG)
        style.configure("TLabelframe.Label", background=BG, foreground=MUTED,
                        font=("DejaVu Sans", 9, "bold"))
        style.configure("Turn.TLabel", font=("DejaVu Sans", 14, "bold"))
        style.configure("Head.TLabel", font=("DejaVu Sans", 10, "bold"))
        style.configure("Muted.TLabel", foreground=MUTED, font=("DejaVu Sans", 9))

        bar = ttk.Frame(self.root, padding=(6, 6, 6, 2))
        bar.pack(side=tk.TOP, fill=tk.X)
        ttk.Label(bar, text="Variant").pack(side=tk.LEFT)
        self.variant_var = tk.StringVar()
        titles = [v.title for v in blokus.VARIANTS.values()]
        self.variant_box = ttk.Combobox(bar, textvariable=self.variant_var, values=titles,
                                        width=31, state="readonly")
        self.variant_box.pack(side=tk.LEFT, padx=(4, 4))
        self.variant_box.bind("<<ComboboxSelected>>", lambda e: self.new_game())
        for text, command in (("New game", self.new_game), ("Open…", self.open_dialog),
                              ("Save…", self.save_dialog), ("Analyze game", self.analyze_game)):
            ttk.Button(bar, text=text, command=command, width=len(text) + 1).pack(
                side=tk.LEFT, padx=2)
        ttk.Separator(bar, orient=tk.VERTICAL).pack(side=tk.LEFT, fill=tk.Y, padx=8)
        ttk.Button(bar, text="|◀", width=3, command=lambda: self.navigate("first")).pack(
            side=tk.LEFT, padx=1)
        ttk.Button(bar, text="◀ Back", width=7, command=lambda: self.navigate("back")).pack(
            side=tk.LEFT, padx=1)
        ttk.Button(bar, text="Next ▶", width=7, command=lambda: self.navigate("forward")).pack(
            side=tk.LEFT, padx=1)
        ttk.Button(bar, text="▶|", width=3, command=lambda: self.navigate("last")).pack(
            side=tk.LEFT, padx=1)
        self.move_label = ttk.Label(bar, text="", width=16)
        self.move_label.pack(side=tk.LEFT, padx=8)

        bar2 = ttk.Frame(self.root, padding=(6, 2, 6, 4))
        bar2.pack(side=tk.TOP, fill=tk.X)
        ttk.Label(bar2, text="Computer plays:").pack(side=tk.LEFT)
        self.computer_box = ttk.Frame(bar2)
        self.computer_box.pack(side=tk.LEFT, padx=(2, 10))
        ttk.Label(bar2, text="Think").pack(side=tk.LEFT)
        self.think_var = tk.StringVar()
        labels = [t for t, _ in THINK]
        current = next((t for t, ms in THINK if ms == self.args.movetime), None)
        if current is None:
            current = f"{self.args.movetime} ms"
            labels.insert(0, current)
        self.think_var.set(current)
        ttk.Combobox(bar2, textvariable=self.think_var, values=labels, width=7,
                     state="readonly").pack(side=tk.LEFT, padx=(4, 10))
        self.hint_button = ttk.Button(bar2, text="Hint (H)", command=self.ask_hint)
        self.hint_button.pack(side=tk.LEFT, padx=2)
        self.play_button = ttk.Button(bar2, text="Computer move (C)", command=self.computer_move)
        self.play_button.pack(side=tk.LEFT, padx=2)
        self.stop_button = ttk.Button(bar2, text="Move now", command=self.move_now)
        self.stop_button.pack(side=tk.LEFT, padx=2)
        ttk.Label(bar2, text="Level").pack(side=tk.LEFT, padx=(10, 0))
        self.level_chooser = LevelChooser(bar2, self.settings, self.level, self._level_chosen)
        self.level_chooser.pack(side=tk.LEFT, padx=(4, 0))

        main = ttk.Frame(self.root, padding=(6, 0, 6, 6))
        main.pack(side=tk.TOP, fill=tk.BOTH, expand=True)
        self.canvas = tk.Canvas(main, width=BOARD_W, height=BY0 + BOARD_PX + 26,
                                bg=BG, highlightthickness=0)
        self.canvas.grid(row=0, column=0, sticky="n")
        self._build_announce(main).grid(row=1, column=0, sticky="nw")
        self.analysis = AnalysisPanel(main, BOARD_W, self.args.engine + ["gtp"],
                                      self.args.analysis_nodes, self.goto_move,
                                      self._analysis_finished)
        self.analysis.grid(row=2, column=0, sticky="nw")
        self.analysis.grid_remove()
        self.canvas.bind("<Motion>", self._on_motion)
        self.canvas.bind("<Leave>", self._on_leave)
        self.canvas.bind("<Button-1>", self._on_click)
        self.canvas.bind("<Button-3>", lambda e: self.drop())
        for seq, step in (("<Button-4>", 1), ("<Button-5>", -1)):
            self.canvas.bind(seq, lambda e, s=step: self.turn_piece(s))
        self.canvas.bind("<MouseWheel>", lambda e: self.turn_piece(1 if e.delta > 0 else -1))

        side = ttk.Frame(main, padding=(10, 0, 0, 0))
        side.grid(row=0, column=1, rowspan=3, sticky="nw")
        self.turn_label = ttk.Label(side, text="", style="Turn.TLabel")
        self.turn_label.pack(anchor="w")
        self.status = tk.Label(side, text="", bg=BG, fg=TEXT, justify=tk.LEFT, anchor="w",
                               wraplength=SIDE_W, font=("DejaVu Sans", 10))
        self.status.pack(anchor="w", fill=tk.X, pady=(2, 0))
        self.info_label = ttk.Label(side, text="", style="Muted.TLabel")
        self.info_label.pack(anchor="w", pady=(0, 4))

        pick = ttk.Frame(side)
        pick.pack(anchor="w", fill=tk.X)
        self.pick_canvas = tk.Canvas(pick, width=70, height=70, bg=BG, highlightthickness=0)
        self.pick_canvas.pack(side=tk.LEFT)
        pick_text = ttk.Frame(pick)
        pick_text.pack(side=tk.LEFT, padx=6)
        self.pick_label = ttk.Label(pick_text, text="", style="Head.TLabel")
        self.pick_label.pack(anchor="w")
        ttk.Label(pick_text, text="r / wheel: turn · f: flip · Esc: drop\n"
                  "no piece picked: click squares, then Enter",
                  style="Muted.TLabel").pack(anchor="w")
        row = ttk.Frame(pick_text)
        row.pack(anchor="w", pady=(2, 0))
        ttk.Button(row, text="Turn", command=lambda: self.turn_piece(1)).pack(side=tk.LEFT)
        ttk.Button(row, text="Flip", command=self.flip_piece).pack(side=tk.LEFT, padx=2)
        ttk.Button(row, text="Place squares", command=self.place_entry).pack(side=tk.LEFT,
                                                                              padx=2)

        self.pieces_canvas = tk.Canvas(side, width=SIDE_W, height=360, bg=BG,
                                       highlightthickness=0)
        self.pieces_canvas.pack(anchor="w", pady=(6, 0))
        self.pieces_canvas.bind("<Button-1>", self._on_piece_click)

        corners = ttk.Frame(side)
        corners.pack(anchor="w", pady=(2, 4))
        self.corner_label = ttk.Label(corners, text="Corners:")
        self.corner_label.pack(side=tk.LEFT)
        self.corner_box = ttk.Frame(corners)
        self.corner_box.pack(side=tk.LEFT)

        self.result_frame = ttk.LabelFrame(side, text="Score", padding=(8, 4))
        self.result_frame.pack(anchor="w", fill=tk.X, pady=(4, 0))
        self.result_title = ttk.Label(self.result_frame, text="", style="Head.TLabel",
                                      wraplength=SIDE_W - 30)
        self.result_title.grid(row=0, column=0, columnspan=4, sticky="w")
        self.result_rows: List[List[ttk.Label]] = []

        self.rated_panel = RatedPanel(side, self.settings, self.start_rated, width=SIDE_W - 30)
        self.rated_panel.pack(anchor="w", fill=tk.X, pady=(6, 0))

        self.bottom = ttk.Label(self.root, text=KEYS_HELP, style="Muted.TLabel",
                                padding=(8, 0, 8, 4))
        self.bottom.pack(side=tk.BOTTOM, anchor="w")

        keys = {
            "r": lambda: self.turn_piece(1), "R": lambda: self.turn_piece(-1),
            "f": self.flip_piece, "F": self.flip_piece, "h": self.ask_hint, "H": self.ask_hint,
            "c": self.computer_move, "C": self.computer_move,
        }
        for key, action in keys.items():
            self.root.bind(f"<KeyPress-{key}>", lambda e, a=action: a())
        self.root.bind("<Escape>", lambda e: self.drop())
        self.root.bind("<Return>", lambda e: self.place_entry())
        self.root.bind("<KP_Enter>", lambda e: self.place_entry())
        self.root.bind("<Left>", lambda e: self.navigate("back"))
        self.root.bind("<Right>", lambda e: self.navigate("forward"))
        self.root.bind("<Home>", lambda e: self.navigate("first"))
        self.root.bind("<End>", lambda e: self.navigate("last"))
        self.root.bind("<Control-n>", lambda e: self.new_game())
        self.root.bind("<Control-o>", lambda e: self.open_dialog())
        self.root.bind("<Control-s>", lambda e: self.save_dialog())
        for seq in ("<Control-z>", "<Control-Z>"):
            self.root.bind(seq, lambda e: self.undo_to_human())

    def _build_announce(self, parent: tk.Misc) -> tk.Frame:
        """The box under the board: the computer's move in large type (or whose turn it is and
        how to enter a move), with the big Undo button."""
        box = tk.Frame(parent, bg=BG, width=BOARD_W, height=ANNOUNCE_H, highlightthickness=2,
                       highlightbackground=BG)
        box.grid_propagate(False)
        box.columnconfigure(1, weight=1)
        self.announce_box = box
        self.announce_piece = tk.Canvas(box, width=84, height=84, bg=BG, highlightthickness=0)
        self.announce_piece.grid(row=0, column=0, rowspan=3, padx=(4, 8), pady=4)
        self.announce_lines = []
        for row, font in enumerate((("DejaVu Sans", 13, "bold"), ("DejaVu Sans", 22, "bold"),
                                    ("DejaVu Sans", 15, "bold"))):
            label = tk.Label(box, text="", bg=BG, fg=TEXT, font=font, anchor="w",
                             justify=tk.LEFT, wraplength=BOARD_W - 250)
            label.grid(row=row, column=1, sticky="w")
            self.announce_lines.append(label)
        self.undo_button = tk.Button(box, text="⟲ Undo\nCtrl+Z", font=("DejaVu Sans", 14, "bold"),
                                     width=7, command=self.undo_to_human, relief=tk.RAISED,
                                     bg="#dfe3ec", activebackground="#cfd5e2", fg=TEXT)
        self.undo_button.grid(row=0, column=2, rowspan=3, padx=(6, 6), pady=6, sticky="ns")
        return box

    def _setup_variant(self, variant: str, computer: Optional[Sequence[int]] = None) -> None:
        """Rebuilds the per-colour controls for a variant."""
        info = blokus.variant_info(variant)
        self.variant_var.set(info.title)
        self.corner_label.configure(text="Attach:" if info.contact == "edge" else "Corners:")
        old = [v.get() for v in self.computer_vars]
        for box in (self.computer_box, self.corner_box):
            for w in box.winfo_children():
                w.destroy()
        self.computer_vars, self.corner_vars = [], []
        colours = PALETTE[info.name]
        for c, name in enumerate(info.colour_names):
            if computer is not None:
                on = c in computer
            elif len(old) == info.ncolours:
                on = old[c]
            else:
                on = c == info.ncolours - 1
            var = tk.BooleanVar(value=on)
            tk.Checkbutton(self.computer_box, text=name, variable=var, fg=shade(colours[c], 0.8),
                           bg=BG, activebackground=BG, highlightthickness=0,
                           font=("DejaVu Sans", 10, "bold"),
                           command=self._computer_changed).pack(side=tk.LEFT)
            self.computer_vars.append(var)
            cvar = tk.BooleanVar(value=bool(self.args.show_corners))
            tk.Checkbutton(self.corner_box, text=name, variable=cvar, fg=shade(colours[c], 0.8),
                           bg=BG, activebackground=BG, highlightthickness=0,
                           command=self.redraw).pack(side=tk.LEFT)
            self.corner_vars.append(cvar)
        for row in self.result_rows:
            for w in row:
                w.destroy()
        self.result_rows = []
        heads = ["", "Points", "Pieces left", "Rank"]
        for k, text in enumerate(heads):
            lab = ttk.Label(self.result_frame, text=text, style="Muted.TLabel")
            lab.grid(row=1, column=k, sticky="w", padx=(0, 14))
            self.result_rows.append([lab])
        for p in range(info.nplayers):
            row = []
            for k in range(4):
                lab = ttk.Label(self.result_frame, text="")
                lab.grid(row=2 + p, column=k, sticky="w", padx=(0, 14))
                row.append(lab)
            self.result_rows.append(row)

    # ------------------------------------------------------------------ game state
    @property
    def info(self) -> blokus.VariantInfo:
        return self.game.variant

    @property
    def geo(self) -> blokus.Geometry:
        return self.info.geometry

    @property
    def view(self) -> BoardView:
        """Where the current variant's board is drawn."""
        if self._view is None or self._view.info is not self.info:
            self._view = board_view(self.info)
        return self._view

    def colours(self) -> List[str]:
        return PALETTE[self.info.name]

    def to_play(self) -> Optional[int]:
        return self.game.position.effective_to_play()

    def _changed(self) -> None:
        """The position changed: forget what belonged to the old one."""
        self.version += 1
        self.hint = []
        self.entry = set()
        self.completion = None
        if self.pending is not None:
            self.worker.cancel(self.pending[0])
            self.pending = None
        c = self.to_play()
        if self.selected and (c is None or self.game.position.left[c].get(self.selected, 0) == 0):
            self.selected = None

    def new_game(self) -> None:
        title = self.variant_var.get()
        variant = next((v.name for v in blokus.VARIANTS.values() if v.title == title),
                       self.info.name)
        self._changed()
        note = self._leave_rated()
        same = variant == self.info.name
        self.game = blokus.Game(variant)
        self.computer_played = {}
        self.filename = None
        self.selected = None
        if not same:
            self._setup_variant(variant)
        self.set_status(f"{note}New {self.info.title} game.")
        self.info_label.configure(text="")
        self.redraw()
        self._maybe_engine()

    def navigate(self, where: str) -> None:
        g = self.game
        self.goto_move({"first": 0, "back": g.cursor - 1, "forward": g.cursor + 1,
                        "last": len(g)}[where])

    def goto_move(self, k: int) -> None:
        """Shows the position after the first k moves (browsing, the analysis graph)."""
        if self.rated is not None:
            self.set_status("No undo in a rated game.", error=True)
            return
        g = self.game
        target = max(0, min(len(g), k))
        if target == g.cursor:
            return
        self._changed()
        g.goto(target)
        self.set_status("")
        self.redraw()

    def _by_computer(self, index: int) -> bool:
        """Whether the game's move ``index`` (0-based) is one the engine played here."""
        return self.computer_played.get(index) is self.game.moves[index]

    def announced(self) -> List[Played]:
        """The computer's moves to copy onto the table: those the engine made since the last
        person's move, up to the position shown (empty once a person moved)."""
        k = self.game.cursor
        while k and self._by_computer(k - 1):
            k -= 1
        return self.game.moves[k:self.game.cursor]

    def undo_to_human(self) -> None:
        """Takes back the last move a person made and the computer's moves after it: the
        position before that move, for it to be entered again."""
        if self.rated is not None:
            self.set_status("No undo in a rated game.", error=True)
            return
        g = self.game
        i = g.cursor - 1
        while i >= 0 and self._by_computer(i):
            i -= 1
        if i < 0:
            self.set_status("No move of a person to take back.", error=True)
            return
        taken = g.moves[i]
        replies = g.cursor - 1 - i
        names = self.info.colour_names
        self._changed()
        g.goto(i)
        self.set_status(f"Took back {names[taken.colour]}'s {taken.piece}"
                        + (f" and the computer's {replies} move{'s' * (replies > 1)} after it"
                           if replies else "")
                        + f". {names[taken.colour]} to play again.")
        self.redraw()

    # ------------------------------------------------------------------ rated games
    def start_rated(self) -> None:
        """Starts a rated game of the current variant at the chosen level: the person plays
        the next player in turn (by the number of rated games of the variant), the engine
        every other colour."""
        self.new_game()
        info = self.info
        player = len(rated_games(self.settings, info.name)) % info.nplayers
        for c, var in enumerate(self.computer_vars):
            var.set(info.player_of(c) != player)
        self._changed()  # drops a search new_game started for the old sides
        self.rated = (self.level, player)
        self.set_status(f"Rated game at level {self.level}: you play "
                        f"{info.player_names()[player]}. No hints, no undo.")
        self.redraw()
        self._maybe_engine()

    def _leave_rated(self) -> str:
        """Gives up a rated game under way (not counted); a note saying so, or ''."""
        if self.rated is None:
            return ""
        self.rated = None
        return "The rated game was left unfinished: not counted.\n"

    def _finish_rated(self) -> None:
        """The game ended: a rated one is stored, and the rating shown anew."""
        if self.rated is None:
            return
        level, player = self.rated
        self.rated = None
        pts = self.game.position.ranking_points()  # Callisto: ties to the later player
        game = RatedGame.finished(level, pts[player], pts[:player] + pts[player + 1:],
                                  self.info.name)
        self.rated_panel.record(game)
        self.set_status(f"{self._result_text()}\nRated game at level {level}: a {game.result}.",
                        colour=TEXT)
        self._update_buttons()

    # ------------------------------------------------------------------ analysis
    def analyze_game(self) -> None:
        """Analyses every move of the game in the background; the graph shows under the
        board."""
        if self.rated is not None:
            self.set_status("No analysis during a rated game.", error=True)
            return
        if len(self.game) == 0:
            self.set_status("No moves to analyse yet.", error=True)
            self._analysis_finished()
            return
        colours = self.colours()
        self.analysis.grid()
        self.analysis.start(self.game, colours, [shade(c, 0.7) for c in colours],
                            self.info.colour_names)
        self.analysis.set_cursor(self.game.cursor)

    def _poll_analysis(self) -> None:
        if not self.closed:
            self.analysis.poll()
            self.root.after(40, self._poll_analysis)

    def _analysis_finished(self) -> None:
        """An analysis ended: with ``--analyze --screenshot``, the picture, then exit."""
        if self.args.analyze and self.args.screenshot and not self.closed:
            self._screenshot_soon()

    def _update_analysis(self) -> None:
        if not self.analysis.fits(self.game):
            self.analysis.clear("The game changed since its analysis: analyse it again.")
        self.analysis.set_cursor(self.game.cursor)

    def _level_chosen(self, level: int) -> None:
        """The level chooser changed: the engine gets it before its next search."""
        self.level = level
        self._update_buttons()

    def _computer_changed(self) -> None:
        self.redraw()
        self._maybe_engine()

    # ------------------------------------------------------------------ moves
    def play_move(self, squares: frozenset, by: str, note: str = "") -> bool:
        """Plays a move for the colour to play (``by`` "human" or "computer"); False (with the
        reason shown) if illegal. ``note`` goes after a person's move in the status line."""
        pos = self.game.position
        c = pos.effective_to_play()
        if c is None:
            self.set_status("The game is over.", error=True)
            return False
        why = pos.check(c, squares)
        if why is not None:
            self.set_status(f"Not legal: {why}.", error=True)
            return False
        played = self.game.play(squares, c)
        index = self.game.cursor - 1
        if by == "computer":
            self.computer_played[index] = played
        else:
            self.computer_played.pop(index, None)
        name = self.info.colour_names[c]
        self._changed()
        if by == "human":
            self.set_status(f"{name} played {played.piece}: {played.text}{note}")
        else:
            self.set_status(f"{name} (computer) played {played.piece}:\n{played.text}",
                            colour=shade(self.colours()[c], 0.75))
        self.redraw()
        return True

    def place_selected(self) -> None:
        squares = self.preview_squares()
        if not squares:
            return
        if self.play_move(frozenset(squares), "human"):
            self.selected = None
            self.redraw()
            self._after_move()

    def place_entry(self) -> None:
        """Enter: places the move the clicked squares make, or else the only legal move that
        contains them."""
        if not self.entry:
            self.set_status("Pick a piece, or click the squares of a move first.", error=True)
            return
        if self.pending is not None and self.pending[1] == "move":
            self.set_status("The computer is thinking.", error=True)
            return
        squares = frozenset(self.entry)
        c = self.to_play()
        if (c is not None and self.completion is not None
                and not self.game.position.is_legal(c, squares)):
            squares = self.completion
        if self.play_move(squares, "human"):
            self._after_move()
        else:
            self.redraw()

    def _entry_changed(self) -> None:
        """Says what the squares clicked so far make for the colour to play; places the move
        at once when they are a legal move that no larger legal move contains."""
        c = self.to_play()
        self.completion = None
        if not self.entry or c is None:
            self.set_status("")
            self.redraw()
            return
        pos, geo = self.game.position, self.geo
        entry = frozenset(self.entry)
        covering = pos.moves_covering(c, entry)
        name = self.info.colour_names[c]
        text, word = blokus.move_text(entry), geo.cell_word
        if covering == [entry]:
            if self.play_move(entry, "human", note=" (the only legal move with these "
                              f"{word}s; Ctrl+Z takes it back)"):
                self._after_move()
            return
        if len(covering) == 1:
            self.completion = covering[0]
        if entry in covering:
            larger = len(covering) - 1
            self.set_status(f"{word.capitalize()}s {text}: {name}'s {geo.piece_of(entry)} — "
                            f"Enter to place it, or click more {word}s ({larger} larger "
                            f"move{'s' * (larger > 1)} contain{'s' * (larger == 1)} them).")
        elif self.completion is not None:
            self.set_status(f"{word.capitalize()}s {text}: only {name}'s "
                            f"{geo.piece_of(self.completion)} at "
                            f"{blokus.move_text(self.completion)} contains them (dashed) — "
                            f"Enter to place it, or click its other {word}s.")
        elif covering:
            self.set_status(f"{word.capitalize()}s {text}: {len(covering)} legal moves of {name} "
                            f"contain them — click more {word}s.")
        else:
            why = pos.check(c, entry) if geo.piece_of(entry) else None
            self.set_status(f"No legal move of {name} covers {text}" + (f": {why}" if why else "")
                            + f". Click a {word} again to take it out, Esc to start over.",
                            error=True)
        self.redraw()

    def _after_move(self) -> None:
        if self.autoplay_left is not None:
            self.autoplay_left -= 1
        if self.to_play() is None:
            self.set_status(self._result_text(), colour=TEXT)
            self._finish_rated()
        if self.autoplay_left is not None and (self.autoplay_left <= 0 or self.to_play() is None):
            self._autoplay_finished()
            return
        self._maybe_engine()

    # ------------------------------------------------------------------ the engine
    def _movetime(self) -> int:
        if self.autoplay_left is not None:
            return self.args.movetime
        label = self.think_var.get()
        for text, ms in THINK:
            if text == label:
                return ms
        return self.args.movetime

    def _request(self, purpose: str) -> None:
        if not self.engine_ready or self.pending is not None:
            return
        if self.to_play() is None:
            return
        moves = self.game.engine_moves()
        if moves is None:
            self.set_status("A move of this record was made out of turn: the engine cannot "
                            "take this position.", error=True)
            return
        c = self.to_play()
        assert c is not None
        played = [(m.colour, text) for m, text in zip(self.game.moves, moves)]
        self.token += 1
        self.pending = (self.token, purpose, self.version)
        self.worker.request("search", self.token, self.info.name, played, c, self._movetime(),
                            self.level, HINT_LINES if purpose == "hint" else 1)
        name = self.info.colour_names[c]
        if purpose == "hint":
            self.set_status(f"Looking for a move for {name}…")
        else:
            self.set_status(f"{name} (computer) is thinking…", colour=MUTED)
        self._update_buttons()
        self._update_announce()

    def _maybe_engine(self) -> None:
        c = self.to_play()
        if c is None or self.pending is not None:
            return
        if self.autoplay_left is not None or self.computer_vars[c].get():
            self._request("move")

    def computer_move(self) -> None:
        if self.rated is not None:
            self.set_status("In a rated game you play your own moves.", error=True)
        elif self.pending is None:
            self._request("move")

    def ask_hint(self) -> None:
        if self.rated is not None:
            self.set_status("No hints in a rated game.", error=True)
        elif self.pending is None:
            self._request("hint")

    def move_now(self) -> None:
        if self.pending is not None:
            self.worker.move_now(self.pending[0])

    def _answer(self, msg: tuple) -> None:
        kind = msg[0]
        if kind == "level":
            self.info_label.configure(text=f"{self.engine_name} ready · level {msg[1]}")
            if self.fast and self.args.level:
                print(f"level {msg[1]}", flush=True)
        elif kind == "ready":
            self.engine_ready = True
            self.engine_name = msg[1]
            self.info_label.configure(text=f"{msg[1]} ready")
            self._update_buttons()
            self._maybe_engine()
        elif kind in ("failed", "dead"):
            self.engine_ready = False
            self.pending = None
            self.set_status(msg[1], error=True)
            self._update_buttons()
            if self.fast:
                print(f"engine unavailable: {msg[1]}", file=sys.stderr)
                self.close(code=1)
        elif kind == "info":
            if self.pending and msg[1] == self.pending[0]:
                self._show_info(msg[2])
        elif kind == "error":
            if self.pending and msg[1] == self.pending[0]:
                self.pending = None
                self.set_status(f"engine: {msg[2]}", error=True)
                self._update_buttons()
                if self.fast:
                    print(f"engine error: {msg[2]}", file=sys.stderr)
                    self.close(code=1)
        elif kind == "best":
            token, move, info, lines = msg[1], msg[2], msg[3], msg[4]
            if not self.pending or token != self.pending[0]:
                return  # stale: the position changed meanwhile
            _, purpose, version = self.pending
            self.pending = None
            self._update_buttons()
            self._show_info(info)
            if version != self.version:
                return
            if move is None:
                self.set_status("The engine found no move.", error=True)
                if self.fast:
                    self.close(code=1)
                return
            try:
                squares = blokus.parse_move(move, self.info)
            except ValueError as e:
                self.set_status(f"engine move {move!r}: {e}", error=True)
                return
            if purpose == "hint":
                self._show_hint(lines)
            elif self.play_move(squares, "computer"):
                self._after_move()
            elif self.fast:
                print(f"the engine's move {move} is illegal here", file=sys.stderr)
                self.close(code=1)

    def _show_hint(self, lines: List[Tuple[Optional[int], List[str]]]) -> None:
        """Keeps the hint's moves (the legal first moves of its lines) and lists them."""
        c = self.to_play()
        assert c is not None
        self.hint = []
        for score, moves in lines:
            try:
                squares = blokus.parse_move(moves[0], self.info)
            except ValueError:
                continue
            if self.game.position.is_legal(c, squares):
                self.hint.append((c, squares, score))
        text = [f"{rank} {self.geo.piece_of(squares)}"
                + (f" {max(0, min(100, score))}%" if score is not None else "")
                for rank, (_, squares, score) in enumerate(self.hint, 1)]
        self.set_status(f"Hint for {self.info.colour_names[c]} (piece, expected result): "
                        + " · ".join(text))
        self.redraw()

    def _show_info(self, info: Dict[str, Any]) -> None:
        if not info:
            return
        nps = info.get("nps", 0)
        score = info.get("score")
        # The engine's score is the expected result in percent (with a small margin bonus).
        shown = f"{max(0, min(100, score))}%" if isinstance(score, int) else "?"
        self.info_label.configure(
            text=f"{self.engine_name}: expected result {shown} · "
                 f"{info.get('nodes', 0):,} playouts · {nps / 1000:.1f}k/s · "
                 f"{info.get('time', 0) / 1000:.1f} s")

    def _update_buttons(self) -> None:
        if self.closed:
            return
        busy = self.pending is not None
        rated = self.rated is not None
        ok = self.engine_ready and not busy and not rated
        for b in (self.hint_button, self.play_button):
            b.configure(state="normal" if ok else "disabled")
        self.stop_button.configure(state="normal" if busy else "disabled")
        self.level_chooser.configure(state="disabled" if rated else "readonly")
        for box in self.computer_box.winfo_children():
            box.configure(state="disabled" if rated else "normal")
        self.rated_panel.show(self.info.name, self.info.title, self.level,
                              self.rated[0] if rated else None)

    # ------------------------------------------------------------------ autoplay / exit
    def _autoplay_finished(self) -> None:
        self.autoplay_left = None
        self.autoplay_done = True
        self.redraw()
        pos = self.game.position
        points = " ".join(score_text(pos.points(c)) for c in range(self.info.ncolours))
        line = f"moves {len(self.game)} score {points}"
        if self.args.save:
            self._save(self.args.save)
        if self.fast or self.args.screenshot:
            print(line)
            sys.stdout.flush()
            if self.args.screenshot:
                self._screenshot_soon()
            else:
                self.root.after(1, self._finish_for_screenshot)
        else:
            self.set_status(f"Autoplay: {line}", colour=TEXT)

    def _screenshot_soon(self) -> None:
        self._prepare_screenshot()
        self.root.after(400, self._finish_for_screenshot)

    def _prepare_screenshot(self) -> None:
        """With ``--select PIECE``: picks it for the colour to play and shows it where it fits
        (the first legal place found), as if the mouse were there."""
        c = self.to_play()
        if not self.args.select or c is None:
            return
        pos = self.game.position
        # That piece, or else the largest one that fits somewhere.
        order = sorted(pos.pieces_left(c), key=lambda p: -len(self.geo.pieces[p]))
        moves: List[frozenset] = []
        for piece in [self.args.select] + order:
            if pos.left[c].get(piece, 0):
                moves = list(pos.legal_moves(c, [piece]))
                if moves:
                    break
        if not moves:
            return
        # The placement nearest the centre of the board looks best.
        view, geo = self.view, self.geo
        board = [view.centre(p) for p in geo.points()]
        mx = sum(x for x, _ in board) / len(board)
        my = sum(y for _, y in board) / len(board)
        move = min(moves, key=lambda m: (sum(abs(view.centre(p)[0] - mx)
                                             + abs(view.centre(p)[1] - my) for p in m),
                                         sorted(m)))
        self.selected = piece
        self.cells = geo.normalize(move)
        # The point under the "mouse": the move's point that the preview anchors on.
        self.hover = anchor_cell(sorted(move), geo)
        assert set(self.preview_squares()) == set(move)
        self.redraw()

    def _finish_for_screenshot(self) -> None:
        if self.args.screenshot:
            try:
                w, h = screenshot(self.root, self.args.screenshot)
                print(f"screenshot {self.args.screenshot} {w}x{h}", file=sys.stderr)
            except (OSError, RuntimeError) as e:
                print(f"no screenshot: {e}", file=sys.stderr)
                self.close(code=4)
                return
        self.close(code=0)

    def _watchdog(self) -> None:
        if not self.closed:
            print(f"autoplay timed out after {len(self.game)} moves", file=sys.stderr)
            self.close(code=3)

    def close(self, code: int = 0) -> None:
        if self.closed:
            return
        self.exit_code = code
        if self.pending is not None:
            self.worker.cancel(self.pending[0])
        self.analysis.cancel()
        self.analysis.closed = True
        self.worker.quit()
        self.closed = True
        self.root.destroy()

    # ------------------------------------------------------------------ records
    def _players(self) -> List[str]:
        info = self.info
        names = []
        for p in range(info.nplayers):
            colours = [c for c in range(info.ncolours) if info.player_of(c) == p]
            if colours and all(self.computer_vars[c].get() for c in colours):
                names.append(self.engine_name.split()[0] if self.engine_name else "tessera")
            else:
                names.append("Human")
        return names

    def _save(self, path: str) -> None:
        version = self.engine_name.split()[1] if len(self.engine_name.split()) > 1 else ""
        app = f"tessera:{version}" if version else "tessera"
        if self.autoplay_done:
            players = [self.engine_name.split()[0] or "tessera"] * self.info.nplayers
        else:
            players = self._players()
        blokus_sgf.save(path, self.game, application=app, players=players)

    def save_dialog(self) -> None:
        path = filedialog.asksaveasfilename(
            parent=self.root, title="Save the game", defaultextension=".blksgf",
            initialfile=Path(self.filename).name if self.filename else "game.blksgf",
            filetypes=[("Blokus SGF", "*.blksgf"), ("All files", "*")])
        if not path:
            return
        try:
            self._save(path)
        except OSError as e:
            messagebox.showerror("Save", f"Cannot save: {e}", parent=self.root)
            return
        self.filename = path
        self.set_status(f"Saved {len(self.game)} moves to {path}")

    def open_dialog(self) -> None:
        path = filedialog.askopenfilename(
            parent=self.root, title="Open a game record",
            filetypes=[("Blokus SGF", "*.blksgf *.sgf"), ("All files", "*")])
        if path:
            self.open_record(path, None, None)

    def open_record(self, path: str, index: Optional[int], goto: Optional[int]) -> None:
        try:
            records = blokus_sgf.load_all(path)
            if index is None:
                index = 1
                if len(records) > 1 and not self.fast:
                    asked = simpledialog.askinteger(
                        "Open", f"{Path(path).name} holds {len(records)} games. Which one?",
                        parent=self.root, minvalue=1, maxvalue=len(records), initialvalue=1)
                    if asked is None:
                        return
                    index = asked
            if not 1 <= index <= len(records):
                raise blokus_sgf.SgfError(f"game {index} out of range: the file holds "
                                          f"{len(records)} game(s)")
            record = records[index - 1]
            game = record.replay()
        except (OSError, ValueError) as e:
            self.set_status(f"Cannot open {path}: {e}", error=True)
            if self.fast:
                print(f"cannot open {path}: {e}", file=sys.stderr)
                self.close(code=1)
            return
        self._changed()
        self._leave_rated()
        self.computer_played = {}
        if game.variant.name != self.info.name:
            self.game = game
            self._setup_variant(game.variant.name, computer=[])
        else:
            self.game = game
            for var in self.computer_vars:
                var.set(False)
        if goto is not None:
            game.goto(goto - 1)  # the position before move `goto`, as GTP loadsgf
        self.filename = path
        names = [record.properties.get(k) for k in ("PB", "PW", "P1", "P2", "P3", "P4")]
        who = " · ".join(n for n in names if n)
        self.set_status(f"Opened {Path(path).name}" + (f" (game {index})" if len(records) > 1
                                                      else "")
                        + f": {game.variant.title}, {len(game)} moves"
                        + (f", {who}" if who else "") + ". Browse with ◀ ▶.")
        self.redraw()

    # ------------------------------------------------------------------ picking and placing
    def select_piece(self, piece: str) -> None:
        if self.selected == piece:
            self.selected = None
        else:
            self.selected = piece
            self.cells = display_cells(piece, self.geo)
            self.entry = set()
        self.redraw()

    def drop(self) -> None:
        self.selected = None
        self.entry = set()
        self.completion = None
        self.redraw()

    def turn_piece(self, step: int) -> None:
        """A turn of the picked piece (a quarter turn on squares, 60 degrees on triangles),
        clockwise for ``step`` 1, else anticlockwise."""
        if self.selected:
            self.cells = self.geo.rotate(self.cells, 1 if step > 0 else -1)
            self.redraw()

    def flip_piece(self) -> None:
        """Mirrors the picked piece left to right."""
        if self.selected:
            self.cells = self.geo.flip(self.cells)
            self.redraw()

    def selected_cells(self) -> Tuple[Square, ...]:
        assert self.selected is not None
        return self.cells

    def preview_squares(self) -> List[Square]:
        if not self.selected or self.hover is None:
            return []
        cells = self.selected_cells()
        geo = self.geo
        # The cell nearest the piece's centre that points the way the point under the mouse
        # points (triangles cannot turn by moving).
        ax, ay = anchor_cell(cells, geo, geo.point_type(self.hover))
        hx, hy = self.hover
        return [(x - ax + hx, y - ay + hy) for x, y in cells]

    def square_at(self, px: float, py: float) -> Optional[Square]:
        return self.view.point_at(px, py)

    def _on_motion(self, e: tk.Event) -> None:
        sq = self.square_at(e.x, e.y)
        if sq != self.hover:
            self.hover = sq
            self.bottom.configure(text=(blokus.square_name(sq) if sq else "") + "   " + KEYS_HELP)
            if self.selected:
                self._draw_preview()

    def _on_leave(self, e: tk.Event) -> None:
        self.hover = None
        self._draw_preview()

    def _on_click(self, e: tk.Event) -> None:
        sq = self.square_at(e.x, e.y)
        if sq is None:
            return
        if self.pending is not None and self.pending[1] == "move":
            self.set_status("The computer is thinking.", error=True)
            return
        if self.selected:
            self.hover = sq
            self.place_selected()
            return
        if sq in self.game.position.cells:
            return
        self.entry.symmetric_difference_update({sq})
        self._entry_changed()

    def _on_piece_click(self, e: tk.Event) -> None:
        for x0, y0, x1, y1, colour, piece in self.piece_slots:
            if x0 <= e.x <= x1 and y0 <= e.y <= y1:
                c = self.to_play()
                if c is None:
                    return
                if colour != c:
                    self.set_status(f"It is {self.info.colour_names[c]}'s turn.", error=True)
                    return
                if self.game.position.left[c].get(piece, 0) == 0:
                    self.set_status(f"{self.info.colour_names[c]} has no {piece} left.",
                                    error=True)
                    return
                self.select_piece(piece)
                return

    # ------------------------------------------------------------------ drawing
    def set_status(self, text: str, error: bool = False, colour: Optional[str] = None) -> None:
        self.status.configure(text=text, fg=BAD if error else (colour or TEXT))

    def redraw(self) -> None:
        if self.closed:
            return
        self._draw_board()
        self._draw_preview()
        self._draw_pieces()
        self._draw_pick()
        self._update_labels()
        self._update_announce()
        self._update_analysis()

    def _draw_board(self) -> None:
        cv = self.canvas
        cv.delete("all")
        info, view, pos = self.info, self.view, self.game.position
        colours = self.colours()
        unit = view.unit
        view.draw_frame(cv)
        geo = self.geo
        joined = isinstance(view, CallistoView)
        flat = isinstance(view, GembloqView)  # filled edge to edge, the lines drawn after
        if flat:
            view.draw_empty(cv)
        for p in geo.points():
            owner = pos.cells.get(p)
            if flat and owner is None and p not in self.entry:
                continue
            if owner is None or joined:
                fill = EMPTY
                if p in self.entry:
                    fill = "#e4e6ec"
                elif geo.in_centre_section(p):
                    fill = CENTRE
                view.cell(cv, p, fill=fill, outline="" if flat else GRID)
            elif flat:
                view.cell(cv, p, fill=colours[owner], outline=colours[owner])
            else:
                draw_block(cv, view.polygon(p), colours[owner])
        if isinstance(view, GembloqView):
            view.draw_lines(cv, pos.cells, colours)
        for p, owner in pos.cells.items():  # Nexos: the junctions pieces pass through
            if geo.is_junction(p):
                draw_block(cv, view.polygon(p), colours[owner])
        if isinstance(view, CallistoView):
            view.draw_pieces(cv, [(m.colour, m.squares, m.piece in info.loose)
                                  for m in self.game.moves[:self.game.cursor]], colours)
        # Starting points still free: a colour's own (square boards), or a ring of every
        # colour (Trigon: any colour may start there).
        starts = ([] if not info.starts else [(0, s) for s in info.starts]
                  if info.shared_starts else
                  [(c, s) for c in range(info.ncolours) for s in info.starts_of(c)])
        for c, start in starts:
            if start in pos.cells:
                continue
            r = view.inradius * 0.56
            if info.shared_starts:
                view.dot(cv, start, r, fill="", outline=TEXT, width=2)
                view.dot(cv, start, r * 0.45, fill=TEXT, outline="")
            else:
                view.dot(cv, start, r, fill=colours[c], outline="")
        # Attach corners on request.
        for c, var in enumerate(self.corner_vars):
            if var.get():
                for sq in pos.corners(c):
                    x, y = view.centre(sq)
                    r = view.inradius * 0.44
                    cv.create_polygon(x, y - r, x + r, y, x, y + r, x - r, y, fill=colours[c],
                                      outline=shade(colours[c], 0.6))
        # The last move of each colour: a dot on its points; the very last one outlined.
        last = self.game.last_moves()
        newest = self.game.moves[self.game.cursor - 1] if self.game.cursor else None
        for played in last:
            if played is None:
                continue
            for sq in played.squares:
                view.dot(cv, sq, max(2.5, view.inradius * 0.24), fill="white",
                         outline=shade(colours[played.colour], 0.5))
            if played is newest and isinstance(view, (CallistoView, GembloqView)):
                view.outline(cv, played.squares, fill="white", width=2)
            elif played is newest:
                for sq in played.squares:
                    view.cell(cv, sq, inset=1, fill="", outline="white", width=2)
        # Points entered one by one, and the only legal move that contains them.
        for sq in self.entry:
            view.cell(cv, sq, inset=2, fill="", outline=TEXT, width=2, dash=(3, 2))
        for sq in (self.completion or frozenset()) - self.entry:
            view.cell(cv, sq, inset=3, fill="", outline=GOOD, width=2, dash=(4, 3))
        # The computer's move to copy onto the table: a heavy outline until the next move.
        for played in self.announced():
            self._outline_move(played.squares)
        # The hint: its moves outlined in the colours of their ranks, the best one shaded too,
        # each numbered on its point nearest its centre (another one if a better move's
        # number is there).
        for rank, (c, squares, _) in reversed(list(enumerate(self.hint, 1))):
            inset = (2 + 3 * (rank - 1)) * (1 if self.geo.kind == "square" else 0.5)
            for sq in squares:
                if rank == 1:
                    view.cell(cv, sq, inset=1, fill=colours[c], stipple="gray50", outline="")
                view.cell(cv, sq, inset=inset, fill="", outline=RANK_COLORS[rank - 1], width=3,
                          dash=() if rank == 1 else (5, 3))
        numbered: Set[Square] = set()
        for rank, (_, squares, _) in enumerate(self.hint, 1):
            free = [sq for sq in squares if sq not in numbered] or list(squares)
            sq = anchor_cell(free, self.geo)
            numbered.add(sq)
            x, y = view.centre(sq)
            badge(cv, x, y, rank, radius=min(unit * 0.32, view.inradius * 0.9))

    def _outline_move(self, squares: frozenset) -> None:
        """A heavy black and white line around a move's outside (around each triangle on the
        Trigon board)."""
        cv, view = self.canvas, self.view
        if isinstance(view, GembloqView):
            view.outline(cv, squares, fill="black", width=5)
            view.outline(cv, squares, fill="white", width=2)
            return
        if isinstance(view, SquareView):
            s = view.unit
            for px, py in squares:
                x, y = view.xy((px, py))
                for side, line in (((px, py + 1), (x, y, x + s, y)),
                                   ((px, py - 1), (x, y + s, x + s, y + s)),
                                   ((px - 1, py), (x, y, x, y + s)),
                                   ((px + 1, py), (x + s, y, x + s, y + s))):
                    if side not in squares:
                        cv.create_line(*line, fill="black", width=5, capstyle=tk.PROJECTING)
            for px, py in squares:
                x, y = view.xy((px, py))
                for side, line in (((px, py + 1), (x, y + 3, x + s, y + 3)),
                                   ((px, py - 1), (x, y + s - 3, x + s, y + s - 3)),
                                   ((px - 1, py), (x + 3, y, x + 3, y + s)),
                                   ((px + 1, py), (x + s - 3, y, x + s - 3, y + s))):
                    if side not in squares:
                        cv.create_line(*line, fill="white", width=2)
            return
        for sq in squares:
            view.cell(cv, sq, fill="", outline="black", width=3)
            view.cell(cv, sq, inset=2.5, fill="", outline="white", width=1.5)

    def _update_announce(self) -> None:
        """The box under the board: the computer's moves to copy onto the table, in large
        type, or whose turn it is and how to enter a move."""
        moves = self.announced()
        colours, names = self.colours(), self.info.colour_names
        head, main, more = self.announce_lines
        cv = self.announce_piece
        cv.delete("all")
        bg = ANNOUNCE_BG if moves else BG
        frame = shade(colours[moves[-1].colour], 0.75) if moves else BG
        self.announce_box.configure(bg=bg, highlightbackground=frame, highlightcolor=frame)
        for w in (cv, head, main, more):
            w.configure(bg=bg)
        if len(moves) == 1:
            played = moves[0]
            ink = shade(colours[played.colour], 0.7)
            head.configure(text=f"{names[played.colour]} (computer) played", fg=ink)
            text = self._squares_text(played)
            main.configure(text=played.piece, fg=ink,
                           font=("DejaVu Sans", 22 if len(text) <= 40 else 15, "bold"))
            more.configure(text=text, fg=TEXT, font=("DejaVu Sans", self._size(text, 15), "bold"))
            cells = tuple(played.squares)
            _, w, h = shape_polygons(self.geo, cells, 0, 0, 1.0)
            unit = min(16.0, 76 / max(w, h))
            _, w, h = shape_polygons(self.geo, cells, 0, 0, unit)
            polys, _, _ = shape_polygons(self.geo, cells, (84 - w) / 2, (84 - h) / 2, unit)
            for _, poly in polys:
                draw_block(cv, poly, colours[played.colour])
            return
        if moves:  # the computer played several colours in a row: the last two, compactly
            head.configure(text=f"The computer played {len(moves)} moves", fg=TEXT)
            rows = [(f"{names[m.colour]} {m.piece}" + (f": {text}" if len(text) <= 40 else
                                                       " (outlined on the board)"),
                     shade(colours[m.colour], 0.7))
                    for m in moves[-2:] for text in [self._squares_text(m)]]
            for label, (text, ink) in zip((main, more), rows):
                label.configure(text=text, fg=ink,
                                font=("DejaVu Sans", self._size(text, 14), "bold"))
            cv.create_text(42, 42, text=str(len(moves)), fill=TEXT,
                           font=("DejaVu Sans", 30, "bold"))
            return
        c = self.to_play()
        small = ("DejaVu Sans", 12)
        if c is None:
            head.configure(text="Game over", fg=TEXT)
            main.configure(text=self._result_text(), fg=TEXT, font=small)
            more.configure(text="")
            return
        ink = shade(colours[c], 0.7)
        thinking = self.pending is not None and self.pending[1] == "move"
        if thinking:
            head.configure(text=f"{names[c]} (computer) is thinking…", fg=ink)
            main.configure(text="")
            more.configure(text="")
            return
        head.configure(text=f"{names[c]} to play", fg=ink)
        main.configure(text=f"Click its {self.geo.cell_word}s, or pick its piece", fg=TEXT,
                       font=small)
        more.configure(text=f"A move goes in once its {self.geo.cell_word}s fit one legal move.",
                       fg=MUTED, font=("DejaVu Sans", 10))
        cv.create_rectangle(18, 18, 66, 66, fill=colours[c], outline=shade(colours[c], 0.6),
                            width=2)

    @staticmethod
    def _size(text: str, size: int) -> int:
        """The announcing font's size for a move's text: smaller for the long ones (a GembloQ
        piece names up to 22 triangles)."""
        return size if len(text) <= 40 else 9

    @staticmethod
    def _squares_text(played: Played) -> str:
        """A move's squares by the board's letters and numbers, in the record's order."""
        return "  ".join(blokus.move_text(played.squares).split(","))

    def _draw_preview(self) -> None:
        cv = self.canvas
        cv.delete("preview")
        squares = self.preview_squares()
        if not squares:
            return
        c = self.to_play()
        pos = self.game.position
        legal = c is not None and pos.is_legal(c, squares)
        colour = GOOD if legal else BAD
        view = self.view
        # Hatched, with a heavy border: never taken for a placed piece (Green's, Red's).
        for sq in squares:
            if not pos.on_board(sq):
                continue
            view.cell(cv, sq, fill=colour, stipple="gray50", outline="", tags="preview")
            view.cell(cv, sq, inset=2 if self.geo.kind == "square" else 1.2, fill="",
                      outline=colour, width=3, tags="preview")
        if not legal and c is not None:
            why = pos.check(c, squares) or ""
            self.bottom.configure(text=f"{blokus.square_name(self.hover)}: {why}"
                                  if self.hover else KEYS_HELP)

    def _draw_pieces(self) -> None:
        cv = self.pieces_canvas
        cv.delete("all")
        self.piece_slots = []
        info, pos, geo = self.info, self.game.position, self.geo
        colours = self.colours()
        to_play = self.to_play()
        trigon = geo.kind == "trigon"
        # A square's side, or a triangle's side (two triangles make a row as high as ~1.7).
        cs = (12 if info.ncolours < 4 else 11) if trigon else (9 if info.ncolours == 4 else 10)
        row_h = (2 * cs * SQRT3 / 2) if trigon else 3 * cs
        gap = 5 if trigon else (10 if info.max_copies > 1 else 7)
        if geo.kind in ("nexos", "gembloq"):
            # Nexos: a grid point's pixels, pieces up to 8 points across; GembloQ: a unit
            # square's (a GembloQ square's diagonal is two), pieces up to 6 across.
            cs, gap = (6, 9) if geo.kind == "nexos" else (5 if info.ncolours == 4 else 6, 7)
            row_h = max(shape_polygons(geo, display_cells(p, geo), 0, 0, cs)[2]
                        for p in info.pieces)
        y = 2
        for c, name in enumerate(info.colour_names):
            who = "computer" if self.computer_vars and self.computer_vars[c].get() else "human"
            left = sum(pos.left[c].values())
            head = (f"{name} · {score_text(pos.points(c))} points · {left} "
                    f"piece{'s' * (left != 1)} left")
            marker = "▶ " if c == to_play else ""
            cv.create_text(4, y + 8, anchor="w", text=marker + head,
                           fill=shade(colours[c], 0.7), font=("DejaVu Sans", 10, "bold"))
            cv.create_text(SIDE_W - 4, y + 8, anchor="e", text=who, fill=MUTED,
                           font=("DejaVu Sans", 9))
            y += 19
            x = 4
            for piece in info.pieces:
                cells = display_cells(piece, geo)
                _, w, h = shape_polygons(geo, cells, 0, 0, cs)
                if x + w > SIDE_W - 4:
                    x = 4
                    y += row_h + 6
                have = pos.left[c][piece]
                top = y + (row_h - h) / 2
                if isinstance(geo, blokus.GembloQGeometry):  # small: one flat shape
                    loop = gembloq_silhouette(geo, cells)
                    left, high = min(u for u, _ in loop), max(v for _, v in loop)
                    cv.create_polygon(*[k for u, v in loop for k in (x + (u - left) * cs,
                                                                     top + (high - v) * cs)],
                                      fill=colours[c] if have else "",
                                      outline=shade(colours[c], 0.6) if have else "#d3d6de")
                    polys = []
                else:
                    polys, _, _ = shape_polygons(geo, cells, x, top, cs)
                for _, poly in polys:
                    if have:
                        draw_block(cv, poly, colours[c])
                        if piece in info.loose:
                            draw_ring(cv, poly, colours[c])
                    else:
                        cv.create_polygon(*poly, fill="", outline="#d3d6de")
                if have and info.max_copies > 1:
                    cv.create_text(x + w + 1, top + h, anchor="sw", text=f"{have}",
                                   fill=MUTED, font=("DejaVu Sans", 7))
                if piece == self.selected and c == to_play:
                    cv.create_rectangle(x - 3, y - 3, x + w + 3, y + row_h + 3,
                                        outline=TEXT, width=2)
                self.piece_slots.append((x - 2, y - 2, x + w + 2, y + row_h + 2, c, piece))
                x += w + gap
            y += row_h + 10
        cv.configure(height=y)

    def _draw_pick(self) -> None:
        cv = self.pick_canvas
        cv.delete("all")
        if not self.selected:
            self.pick_label.configure(text="No piece picked")
            return
        c = self.to_play()
        colour = self.colours()[c] if c is not None else GRID
        cells = self.selected_cells()
        geo = self.geo
        _, w, h = shape_polygons(geo, cells, 0, 0, 1.0)
        cs = min(13, 64 // max(w, h)) if geo.kind == "square" else min(20, 64 / max(w, h))
        _, w, h = shape_polygons(geo, cells, 0, 0, cs)
        polys, _, _ = shape_polygons(geo, cells, (70 - w) / 2, (70 - h) / 2, cs)
        for _, poly in polys:
            draw_block(cv, poly, colour)
            if self.selected in self.info.loose:
                draw_ring(cv, poly, colour)
        self.pick_label.configure(text=f"Piece {self.selected}")

    def _result_text(self) -> str:
        info, pos = self.info, self.game.position
        pts = pos.player_points()
        text = [score_text(p) for p in pts]
        names = info.player_names()
        ranks = pos.ranks()
        if info.nplayers == 2:
            if pts[0] == pts[1] and info.later_player_wins_ties:
                return (f"Game over: {text[0]} points each; {names[1]} wins the tie "
                        f"(ties go to the later player).")
            if pts[0] == pts[1]:
                return f"Game over: a draw, {text[0]} points each."
            w = 0 if pts[0] > pts[1] else 1
            return (f"Game over: {names[w]} wins, {text[w]} to {text[1 - w]} "
                    f"(+{score_text(abs(pts[0] - pts[1]))}).")
        order = sorted(range(len(pts)), key=lambda p: ranks[p])
        return "Game over: " + ", ".join(f"{ORDINAL[ranks[p]]} {names[p]} {text[p]}"
                                         for p in order) + "."

    def _update_labels(self) -> None:
        g, info, pos = self.game, self.info, self.game.position
        self.move_label.configure(text=f"move {g.cursor} of {len(g)}")
        c = self.to_play()
        colours = self.colours()
        if c is None:
            self.turn_label.configure(text="Game over", foreground=TEXT)
        else:
            who = "computer" if self.computer_vars[c].get() else "you"
            self.turn_label.configure(text=f"{info.colour_names[c]} to play ({who})",
                                      foreground=shade(colours[c], 0.75))
        over = c is None
        self.result_frame.configure(text="Result" if over else "Score")
        self.result_title.configure(text=self._result_text() if over else "")
        if over:
            self.result_title.grid()
        else:
            self.result_title.grid_remove()
        pts, ranks = pos.player_points(), pos.ranks()
        names = info.player_names()
        for p in range(info.nplayers):
            row = self.result_rows[4 + p]
            owned = [k for k in range(info.ncolours) if info.player_of(k) == p]
            left = sum(sum(pos.left[k].values()) for k in owned)
            row[0].configure(text=names[p], foreground=shade(colours[owned[0]], 0.7),
                             font=("DejaVu Sans", 10, "bold"))
            row[1].configure(text=score_text(pts[p]))
            row[2].configure(text=str(left))
            row[3].configure(text=ORDINAL[ranks[p]] if over else "")
        self._update_buttons()


KEYS_HELP = ("r/wheel turn · f flip · Esc drop · Enter place squares · h hint · c computer move"
             " · Ctrl+Z undo · ←/→ back/next")


# ---------------------------------------------------------------------------------- main
def default_engine() -> str:
    for sub in ("target/release/tessera", "target/debug/tessera"):
        path = REPO / sub
        if path.exists():
            return str(path)
    return "tessera"


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Blokus with the tessera engine")
    ap.add_argument("--engine", default=default_engine(),
                    help="the engine's command line (default: target/release/tessera)")
    ap.add_argument("--variant", default="classic",
                    help="classic, two, three, duo, junior, trigon, trigon_2, trigon_3, callisto, "
                         "callisto_2, callisto_2_4, callisto_3, nexos, nexos_2, gembloq, "
                         "gembloq_2, gembloq_3, gembloq_2_4 (or the SGF names, 'Blokus Duo')")
    ap.add_argument("--movetime", type=int, default=None,
                    help="engine think time per move in ms (default 1000; 30 with "
                         "--exit-after-autoplay)")
    ap.add_argument("--level", type=int, choices=LEVELS, default=None,
                    help="engine level 1-10 (10 = full strength) for this session "
                         "(default: the one chosen last, kept in ~/.config/tessera)")
    ap.add_argument("--computer", default=None, metavar="COLOURS",
                    help="the colours the engine plays, 1-based and comma-separated "
                         "(default: the last colour); 'none' for none")
    ap.add_argument("--open", default=None, metavar="FILE", help="open a .blksgf record")
    ap.add_argument("--game", type=int, default=None, metavar="K",
                    help="with --open: the K-th game of the file (default 1)")
    ap.add_argument("--goto", type=int, default=None, metavar="N",
                    help="with --open: show the position before move N (as GTP loadsgf)")
    ap.add_argument("--autoplay", type=int, default=0, metavar="N",
                    help="the engine plays up to N moves on every colour at start")
    ap.add_argument("--exit-after-autoplay", action="store_true",
                    help="play the --autoplay moves fast, print 'moves M score ...', exit")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="after the autoplay, save the game record (Blokus SGF) there")
    ap.add_argument("--screenshot", default=None, metavar="FILE",
                    help="save a PNG of the window (after the autoplay, if any) and exit")
    ap.add_argument("--select", default=None, metavar="PIECE",
                    help="with --screenshot: pick this piece of the colour to play (else its "
                         "largest piece that fits) and show it where it fits")
    ap.add_argument("--show-corners", action="store_true",
                    help="start with every colour's attach corners shown")
    ap.add_argument("--analyze", action="store_true",
                    help="analyse the game (of --open) at once: the engine's value after each "
                         "move")
    ap.add_argument("--exit-after-analysis", action="store_true",
                    help="with --open: analyse without a window, print 'move K colour C value "
                         "V' for every move, exit")
    ap.add_argument("--analysis-nodes", type=int, default=3000, metavar="N",
                    help="the analysis's playouts a position (default 3000)")
    args = ap.parse_args(argv)
    try:
        args.variant = blokus.variant_info(args.variant).name
    except ValueError as e:
        ap.error(str(e))
    ncolours = blokus.variant_info(args.variant).ncolours
    if args.computer is None:
        args.computer = None
    elif args.computer.strip().lower() == "none":
        args.computer = []
    else:
        try:
            args.computer = [int(t) - 1 for t in args.computer.split(",") if t.strip()]
        except ValueError:
            ap.error("--computer takes colour numbers such as 2,4")
        if any(not 0 <= c < ncolours for c in args.computer):
            ap.error(f"--computer: colours are 1 to {ncolours}")
    if args.exit_after_autoplay and args.autoplay <= 0:
        ap.error("--exit-after-autoplay needs --autoplay N with N > 0")
    if args.exit_after_analysis and not args.open:
        ap.error("--exit-after-analysis needs --open FILE")
    args.analyze = args.analyze or args.exit_after_analysis
    if args.analysis_nodes <= 0:
        ap.error("--analysis-nodes must be positive")
    if args.movetime is None:
        args.movetime = 30 if args.exit_after_autoplay else 1000
    if args.movetime <= 0:
        ap.error("--movetime must be positive")
    pieces = blokus.variant_info(args.variant).pieces
    if args.select and args.select not in pieces:
        ap.error(f"--select: no piece {args.select!r} (pieces: {' '.join(pieces)})")
    args.engine = shlex.split(args.engine) if not os.path.exists(args.engine) else [args.engine]
    return args


def analyse_record(args: argparse.Namespace) -> int:
    """``--exit-after-analysis``: the record's moves analysed without a window, one line a
    move on stdout as soon as it is known."""
    try:
        records = blokus_sgf.load_all(args.open)
        index = args.game or 1
        if not 1 <= index <= len(records):
            raise blokus_sgf.SgfError(f"game {index} out of range: the file holds "
                                      f"{len(records)} game(s)")
        game = records[index - 1].replay()
    except (OSError, ValueError) as e:
        print(f"cannot open {args.open}: {e}", file=sys.stderr)
        return 1

    def show(v: MoveValue) -> None:
        print(f"move {v.number} colour {v.colour + 1} value {v.value:.3f}", flush=True)

    try:
        Analyzer(args.engine + ["gtp"], args.analysis_nodes).run(game, on_value=show)
    except AnalysisError as e:
        print(f"analysis failed: {e}", file=sys.stderr)
        return 1
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    if args.exit_after_analysis:
        return analyse_record(args)
    root = tk.Tk()
    app = BlokusApp(root, args)
    root.mainloop()
    return app.exit_code


if __name__ == "__main__":
    sys.exit(main())
