"""Blockudoku rules in pure Python: boards, pieces, placements with clears, scoring, piece sets.

Coordinates: ``(row, col)`` 0-based with row 0 at the **top** (as boards are written); the
engine's squares put ``a1`` bottom-left, so ``a9`` is ``(0, 0)``. A piece's placement is given by
the top-left cell of its bounding box, as in the engine's moves (``2@c7``).

Boards are immutable values backed by an 81-bit integer (bit ``row * 9 + col``)::

    >>> b = Board.parse("#########/" + "/".join(["........."] * 8))   # doctest: +SKIP
    >>> b = Board.from_rows(["##.......", *["........."] * 8])
    >>> piece = Piece.parse("#######")
    >>> step = b.place(piece, 0, 2)
    >>> step.cleared, step.board.count()
    (1, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from importlib import resources
from typing import Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

__all__ = [
    "SIZE",
    "PIECE_SETS",
    "SCORINGS",
    "Board",
    "Piece",
    "Step",
    "PlanResult",
    "piece_set",
    "deal",
    "points",
    "apply_plan",
    "can_place_hand",
    "square_to_rc",
    "rc_to_square",
    "REGIONS",
]

SIZE = 9
PIECE_SETS = ("standard47", "blocksudoku59", "woodoku49")
SCORINGS = ("app", "simple", "squared")
FULL = (1 << (SIZE * SIZE)) - 1

Cell = Tuple[int, int]


def _region_masks() -> List[int]:
    masks = []
    for r in range(SIZE):
        masks.append(sum(1 << (r * SIZE + c) for c in range(SIZE)))
    for c in range(SIZE):
        masks.append(sum(1 << (r * SIZE + c) for r in range(SIZE)))
    for br in range(3):
        for bc in range(3):
            masks.append(
                sum(1 << ((br * 3 + r) * SIZE + bc * 3 + c) for r in range(3) for c in range(3))
            )
    return masks


REGIONS: List[int] = _region_masks()
"""The 27 region masks: 9 rows (top first), 9 columns (left first), 9 boxes (row-major)."""


def square_to_rc(square: str) -> Cell:
    """``"c7"`` -> ``(2, 2)``: 0-based (row from top, col)."""
    col = ord(square[0]) - ord("a")
    rank = int(square[1:])
    if not (0 <= col < SIZE and 1 <= rank <= SIZE):
        raise ValueError(f"not a square of the 9x9 board: {square!r}")
    return SIZE - rank, col


def rc_to_square(row: int, col: int) -> str:
    """``(2, 2)`` -> ``"c7"``."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"cell off the board: {(row, col)}")
    return f"{chr(ord('a') + col)}{SIZE - row}"


def _bit(row: int, col: int) -> int:
    return 1 << (row * SIZE + col)


@dataclass(frozen=True)
class Piece:
    """A fixed shape (never rotated). ``cells`` are (row, col) offsets from its bounding box's
    top-left corner, trimmed so that both the top row and left column hold a cell."""

    cells: FrozenSet[Cell]

    @classmethod
    def parse(cls, text: str) -> "Piece":
        """Parses ``"##/#."`` (rows top to bottom, ``#`` cell, ``.`` gap); empty outer rows and
        columns are trimmed."""
        rows = text.strip().split("/")
        cells = set()
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "#":
                    cells.add((r, c))
                elif ch != ".":
                    raise ValueError(f"bad piece {text!r}: cells are '#' or '.', got {ch!r}")
        if not cells:
            raise ValueError(f"bad piece {text!r}: no cell")
        return cls.from_cells(cells)

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> "Piece":
        """A piece from any (row, col) cells; they are moved to the top-left corner."""
        cells = list(cells)
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return cls(frozenset((r - r0, c - c0) for r, c in cells))

    @property
    def height(self) -> int:
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        return max(c for _, c in self.cells) + 1

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def rows(self) -> List[str]:
        """The shape's rows as ``#``/``.`` strings."""
        return [
            "".join("#" if (r, c) in self.cells else "." for c in range(self.width))
            for r in range(self.height)
        ]

    def notation(self) -> str:
        """The shape in engine notation, e.g. ``"##/#."``."""
        return "/".join(self.rows())

    def __str__(self) -> str:
        return self.notation()

    def mask(self, row: int, col: int) -> Optional[int]:
        """The bitmask of the piece with its top-left on (row, col), None if it sticks out."""
        if row < 0 or col < 0 or row + self.height > SIZE or col + self.width > SIZE:
            return None
        m = 0
        for r, c in self.cells:
            m |= _bit(row + r, col + c)
        return m

    def anchors(self) -> Iterator[Tuple[int, int, int]]:
        """Every (row, col, mask) at which the piece lies inside the board."""
        for row in range(SIZE - self.height + 1):
            for col in range(SIZE - self.width + 1):
                m = self.mask(row, col)
                assert m is not None
                yield row, col, m


PieceLike = Union[Piece, str]


def _piece(p: PieceLike) -> Piece:
    return p if isinstance(p, Piece) else Piece.parse(p)


@dataclass(frozen=True)
class Step:
    """The outcome of one placement."""

    board: "Board"
    """The board after the placement and its clears."""
    placed: FrozenSet[Cell]
    """The cells the piece covered."""
    cleared_cells: FrozenSet[Cell]
    """The cells emptied by the clears (may include cells of the piece)."""
    cleared: int
    """The number of full regions cleared at once."""
    points: int = 0
    """Points scored by the placement (under the scoring passed to :func:`apply_plan`)."""


class Board:
    """An immutable 9x9 Blockudoku board."""

    __slots__ = ("bits",)

    def __init__(self, cells: Union[int, Iterable[Cell], Sequence[str], str, None] = None) -> None:
        """From filled cells: an int bitmask, an iterable of (row, col), 9 row strings, or the
        notation ``"rows/separated/by/slashes"``; None is the empty board."""
        if cells is None:
            bits = 0
        elif isinstance(cells, int):
            bits = cells
        elif isinstance(cells, str):
            bits = Board.parse(cells).bits
        else:
            items = list(cells)
            if items and all(isinstance(x, str) for x in items):
                bits = Board.from_rows(items).bits  # type: ignore[arg-type]
            else:
                bits = 0
                for r, c in items:  # type: ignore[misc]
                    if not (0 <= r < SIZE and 0 <= c < SIZE):
                        raise ValueError(f"cell off the board: {(r, c)}")
                    bits |= _bit(r, c)
        if bits & ~FULL:
            raise ValueError("board mask has bits beyond 81 cells")
        object.__setattr__(self, "bits", bits)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    @classmethod
    def parse(cls, text: str) -> "Board":
        """From engine notation: 9 rows top to bottom joined by ``/``, ``.`` empty ``#`` filled."""
        return cls.from_rows(text.strip().split("/"))

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> "Board":
        """From 9 strings of 9 characters (``.`` empty, ``#`` filled), top row first."""
        if len(rows) != SIZE:
            raise ValueError(f"a board has {SIZE} rows, got {len(rows)}")
        bits = 0
        for r, row in enumerate(rows):
            if len(row) != SIZE:
                raise ValueError(f"row {r + 1} has {len(row)} cells, expected {SIZE}")
            for c, ch in enumerate(row):
                if ch == "#":
                    bits |= _bit(r, c)
                elif ch != ".":
                    raise ValueError(f"bad cell {ch!r} (use '.' or '#')")
        return cls(bits)

    def rows(self) -> List[str]:
        """9 row strings, top row first."""
        return [
            "".join("#" if self.bits >> (r * SIZE + c) & 1 else "." for c in range(SIZE))
            for r in range(SIZE)
        ]

    def notation(self) -> str:
        """The engine notation (rows joined by ``/``)."""
        return "/".join(self.rows())

    def cells(self) -> FrozenSet[Cell]:
        """The filled cells as (row, col)."""
        return frozenset(
            (i // SIZE, i % SIZE) for i in range(SIZE * SIZE) if self.bits >> i & 1
        )

    def filled(self, row: int, col: int) -> bool:
        return bool(self.bits >> (row * SIZE + col) & 1)

    def count(self) -> int:
        """Number of filled cells."""
        return bin(self.bits).count("1")

    def is_empty(self) -> bool:
        return self.bits == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and other.bits == self.bits

    def __hash__(self) -> int:
        return hash(self.bits)

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __repr__(self) -> str:
        return f"Board({self.notation()!r})"

    def full_regions(self) -> List[int]:
        """Indices in :data:`REGIONS` of the full regions."""
        return [i for i, m in enumerate(REGIONS) if self.bits & m == m]

    def can_place(self, piece: PieceLike, row: int, col: int) -> bool:
        """Whether the piece fits with its top-left on (row, col): on the board, on empty cells."""
        m = _piece(piece).mask(row, col)
        return m is not None and not (m & self.bits)

    def placements(self, piece: PieceLike) -> List[Cell]:
        """Every (row, col) where the piece fits."""
        p = _piece(piece)
        return [(r, c) for r, c, m in p.anchors() if not (m & self.bits)]

    def fits_anywhere(self, piece: PieceLike) -> bool:
        p = _piece(piece)
        return any(not (m & self.bits) for _, _, m in p.anchors())

    def place(self, piece: PieceLike, row: int, col: int) -> Step:
        """Places the piece, then clears every full row, column and box at once.

        Raises ValueError if it does not fit. ``points`` of the step is 0 (see :func:`points`).
        """
        p = _piece(piece)
        m = p.mask(row, col)
        if m is None or m & self.bits:
            raise ValueError(f"piece {p} does not fit at row {row}, col {col}")
        bits = self.bits | m
        clear = 0
        k = 0
        for region in REGIONS:
            if bits & region == region:
                clear |= region
                k += 1
        placed = frozenset((row + r, col + c) for r, c in p.cells)
        cleared_cells = Board(clear).cells() if clear else frozenset()
        return Step(Board(bits & ~clear), placed, cleared_cells, k)


def points(scoring: str, cells: int, cleared: int, streak: bool) -> int:
    """Points of one placement of ``cells`` cells clearing ``cleared`` regions; ``streak`` tells
    whether the previous placement cleared too. Same rules as the engine."""
    k = cleared
    if scoring == "app":
        if k == 0:
            return cells
        return cells + 18 * k * ((k + 1) // 2) + (9 if streak else 0)
    if scoring == "simple":
        return cells + 18 * k
    if scoring == "squared":
        return k * k
    raise ValueError(f"unknown scoring {scoring!r} (known: {', '.join(SCORINGS)})")


@dataclass
class PlanResult:
    """The outcome of :func:`apply_plan`."""

    board: Board
    score: int
    streak: bool
    steps: List[Step]


MoveLike = Union[str, Tuple[int, int, int]]


def _parse_move(move: MoveLike) -> Tuple[int, int, int]:
    """-> (0-based slot, row, col) from ``"2@c7"`` or a (1-based slot, row, col) tuple."""
    if isinstance(move, str):
        slot_text, _, square = move.partition("@")
        if not square:
            raise ValueError(f"not a move: {move!r}")
        row, col = square_to_rc(square)
        return int(slot_text) - 1, row, col
    slot, row, col = move
    return slot - 1, row, col


def apply_plan(
    board: Board,
    hand: Sequence[PieceLike],
    moves: Sequence[MoveLike],
    score: int = 0,
    streak: bool = False,
    scoring: str = "app",
) -> PlanResult:
    """Plays ``moves`` (``"2@c7"`` strings, :class:`~tessera_engine_client.engine.Move` objects or
    (1-based slot, row, col) tuples) from ``hand`` in order, clearing after each placement.

    Raises ValueError if a move is illegal: a slot out of range or used twice, a piece that
    does not fit.
    """
    pieces = [_piece(p) for p in hand]
    used = set()
    steps = []
    for move in moves:
        slot, row, col = _parse_move(move)
        if not 0 <= slot < len(pieces):
            raise ValueError(f"move {move}: no slot {slot + 1} in a hand of {len(pieces)}")
        if slot in used:
            raise ValueError(f"move {move}: slot {slot + 1} was already played")
        used.add(slot)
        step = board.place(pieces[slot], row, col)
        gained = points(scoring, pieces[slot].size, step.cleared, streak)
        step = Step(step.board, step.placed, step.cleared_cells, step.cleared, gained)
        score += gained
        streak = step.cleared > 0
        board = step.board
        steps.append(step)
    return PlanResult(board, score, streak, steps)


def can_place_hand(board: Board, hand: Sequence[PieceLike]) -> bool:
    """Whether some order and placement puts every piece of ``hand`` on the board (clearing
    after each). False means the game is over."""
    pieces = [_piece(p) for p in hand]
    anchors = [[m for _, _, m in p.anchors()] for p in pieces]
    seen = set()

    def place(bits: int, m: int) -> int:
        bits |= m
        clear = 0
        for region in REGIONS:
            if bits & region == region:
                clear |= region
        return bits & ~clear

    def search(bits: int, left: Tuple[int, ...]) -> bool:
        if not left:
            return True
        key = (bits, left)
        if key in seen:
            return False
        seen.add(key)
        # A piece that fits nowhere now can only be placed after a clear by another one.
        for i in left:
            rest = tuple(j for j in left if j != i)
            for m in anchors[i]:
                if not (m & bits) and search(place(bits, m), rest):
                    return True
        return False

    return search(board.bits, tuple(range(len(pieces))))


_SET_CACHE: Dict[str, List[Piece]] = {}


def parse_piece_set(text: str) -> List[Piece]:
    """Parses a piece-set file: one shape a line; lines starting with ``# `` are comments and
    ``#`` alone is the monomino; duplicates are dropped (as the engine does)."""
    pieces: List[Piece] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("# "):
            continue
        p = Piece.parse(line)
        if p not in pieces:
            pieces.append(p)
    return pieces


def piece_set(name: str = "standard47") -> List[Piece]:
    """The pieces of an embedded set (``standard47``, ``blocksudoku59``, ``woodoku49``) in the
    engine's order: ``piece_set(name)[i - 1]`` is the engine's piece ``i``."""
    if name not in _SET_CACHE:
        if name not in PIECE_SETS:
            raise ValueError(f"unknown piece set {name!r} (known: {', '.join(PIECE_SETS)})")
        text = resources.files("tessera_engine_client").joinpath("data").joinpath(f"{name}.txt").read_text("utf-8")
        _SET_CACHE[name] = parse_piece_set(text)
    return list(_SET_CACHE[name])


def deal(rng: random.Random, pieceset: Union[str, Sequence[Piece]] = "standard47", n: int = 3) -> List[Piece]:
    """A hand of ``n`` pieces drawn uniformly with replacement from the set."""
    pieces = piece_set(pieceset) if isinstance(pieceset, str) else list(pieceset)
    return [rng.choice(pieces) for _ in range(n)]
