"""Blokus rules for clients: variants, pieces, placements, legality, turn order and scores.

The same rules as the engine (``newgame blokus``), in pure Python, so a GUI can check a move
before sending it, draw each colour's pieces and attach corners, and score a game::

    from tessera_client.blokus import Game, parse_move

    game = Game("duo")
    game.play(parse_move("e9,d10,e10,f10,e11"))        # for the colour to play
    print(game.position.points(0), game.position.to_play_text())

Squares are ``(x, y)`` pairs, ``x`` the column from the left and ``y`` the row from the bottom,
both 0-based: ``a1`` is ``(0, 0)``. A move is a frozenset of squares; in text it is the squares
joined by commas (``e9,d10,e10,f10,e11``), in any order and case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

__all__ = [
    "PIECES",
    "VARIANTS",
    "VariantInfo",
    "IllegalMove",
    "Position",
    "Game",
    "variant_info",
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


@dataclass(frozen=True)
class VariantInfo:
    """What differs between the variants."""

    name: str
    """tessera's name (``newgame blokus variant NAME``): classic, two, three, duo, junior."""
    game_name: str
    """The SGF ``GM`` value and GTP ``set_game`` name, e.g. ``Blokus Duo``."""
    title: str
    size: int
    ncolours: int
    nplayers: int
    pieces: Tuple[str, ...]
    copies: int
    bonus: bool
    starts: Tuple[Square, ...]
    colour_names: Tuple[str, ...]
    """Names for people (the GTP colours are b/w or 1..4)."""

    def player_of(self, colour: int) -> Optional[int]:
        """The player a colour scores for (None: the shared fourth colour of Three-Player)."""
        if self.name == "two":
            return colour % 2
        if self.name == "three":
            return colour if colour < 3 else None
        return colour

    def player_names(self) -> List[str]:
        """Names of the players for result tables."""
        if self.name == "two":
            n = self.colour_names
            return [f"{n[0]}+{n[2]}", f"{n[1]}+{n[3]}"]
        return list(self.colour_names[: self.nplayers])

    def sgf_colour(self, colour: int) -> str:
        """The SGF move property of a colour: ``B``/``W`` with two colours, ``1``..``4``."""
        return ("B", "W")[colour] if self.ncolours == 2 else str(colour + 1)


_CORNERS = ((0, 19), (19, 19), (19, 0), (0, 0))
_FOUR = ("Blue", "Yellow", "Red", "Green")
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


# ------------------------------------------------------------------ notation
def square_name(sq: Square) -> str:
    """``(0, 0)`` -> ``a1``."""
    return f"{chr(ord('a') + sq[0])}{sq[1] + 1}"


def parse_square(text: str, size: int = 20) -> Square:
    """``a1`` -> ``(0, 0)`` (case-insensitive); ValueError off a board of ``size``."""
    t = text.strip().lower()
    if len(t) < 2 or not ("a" <= t[0] <= "z") or not t[1:].isdigit():
        raise ValueError(f"bad square {text!r}")
    x, y = ord(t[0]) - ord("a"), int(t[1:]) - 1
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"square {text!r} is off the {size}x{size} board")
    return (x, y)


def parse_move(text: str, size: int = 20) -> Move:
    """``e9,d10,e10`` -> frozenset of squares (any order); ValueError if malformed."""
    parts = [p for p in text.strip().split(",")]
    squares = [parse_square(p, size) for p in parts]
    if len(set(squares)) != len(squares):
        raise ValueError(f"a square twice in move {text!r}")
    if not 1 <= len(squares) <= 5:
        raise ValueError(f"a piece has 1 to 5 squares, got {len(squares)} in {text!r}")
    return frozenset(squares)


def move_text(move: Iterable[Square]) -> str:
    """The record order of the reference program: ``a1, b1, ..., a2, b2, ...`` (row by row
    from the bottom, left to right), so each move has one spelling."""
    return ",".join(square_name(s) for s in sorted(move, key=lambda s: (s[1], s[0])))


def engine_move_text(move: Iterable[Square]) -> str:
    """The order tessera writes: top row first, left to right."""
    return ",".join(square_name(s) for s in sorted(move, key=lambda s: (-s[1], s[0])))


# ------------------------------------------------------------------ shapes
def normalize(cells: Iterable[Square]) -> Tuple[Square, ...]:
    """Shifts cells so the smallest x and y are 0; sorted."""
    cells = list(cells)
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def transform(cells: Iterable[Square], rotation: int = 0, flip: bool = False) -> Tuple[Square, ...]:
    """Mirrors (left-right) if ``flip``, then turns ``rotation`` quarter turns clockwise;
    normalized."""
    out = []
    for x, y in cells:
        if flip:
            x = -x
        for _ in range(rotation % 4):
            x, y = y, -x  # clockwise with y upwards
        out.append((x, y))
    return normalize(out)


_ORIENTATIONS: Dict[str, List[Tuple[Square, ...]]] = {}


def orientations(piece: str) -> List[Tuple[Square, ...]]:
    """The distinct orientations of a piece (turned and mirrored), normalized."""
    got = _ORIENTATIONS.get(piece)
    if got is None:
        got = []
        for flip in (False, True):
            for rot in range(4):
                o = transform(PIECES[piece], rot, flip)
                if o not in got:
                    got.append(o)
        _ORIENTATIONS[piece] = got
    return got


_SHAPE_OF: Dict[Tuple[Square, ...], str] = {}


def piece_of(move: Iterable[Square]) -> Optional[str]:
    """The name of the piece a set of squares forms, None if it is no piece."""
    if not _SHAPE_OF:
        for name in PIECES:
            for o in orientations(name):
                _SHAPE_OF[o] = name
    cells = list(move)
    if not cells:
        return None
    return _SHAPE_OF.get(normalize(cells))


_UNKNOWN = object()
_EDGES = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


# ------------------------------------------------------------------ positions
class Position:
    """A board: who covers each square, each colour's pieces left, whose turn it is."""

    def __init__(self, variant: str = "classic") -> None:
        self.variant = variant_info(variant)
        v = self.variant
        self.cells: Dict[Square, int] = {}
        self.left: List[Dict[str, int]] = [{p: v.copies for p in v.pieces} for _ in range(v.ncolours)]
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
        return 0 <= sq[0] < self.variant.size and 0 <= sq[1] < self.variant.size

    def pieces_left(self, colour: int) -> List[str]:
        """The pieces a colour has left, each copy listed (in the set's order)."""
        return [p for p in self.variant.pieces for _ in range(self.left[colour][p])]

    def placed(self, colour: int) -> int:
        """How many pieces the colour has placed."""
        v = self.variant
        return len(v.pieces) * v.copies - sum(self.left[colour].values())

    def forbidden(self, colour: int) -> Set[Square]:
        """Squares a piece of ``colour`` may not cover: occupied, or along an edge of its own."""
        got = self._forbidden.get(colour)
        if got is None:
            got = set(self.cells)
            for (x, y), c in self.cells.items():
                if c == colour:
                    for dx, dy in _EDGES:
                        got.add((x + dx, y + dy))
            self._forbidden[colour] = got
        return got

    def corners(self, colour: int) -> Set[Square]:
        """The colour's attach corners: free squares a new piece of it may cover to touch it
        corner to corner (its starting square before its first piece)."""
        bad = self.forbidden(colour)
        if self.placed(colour) == 0:
            start = self.variant.starts[colour]
            return {start} if start not in bad else set()
        out = set()
        for (x, y), c in self.cells.items():
            if c == colour:
                for dx, dy in _DIAGONALS:
                    sq = (x + dx, y + dy)
                    if sq not in bad and self.on_board(sq):
                        out.add(sq)
        return out

    def check(self, colour: int, move: Iterable[Square]) -> Optional[str]:
        """Why ``move`` is illegal for ``colour``, or None if it is legal."""
        squares = frozenset(move)
        piece = piece_of(squares)
        if piece is None:
            return "these squares are not the shape of a piece"
        name = self.variant.colour_names[colour]
        if self.left[colour].get(piece, 0) == 0:
            if piece not in self.variant.pieces:
                return f"there is no piece {piece} in {self.variant.title}"
            return f"{name} has no piece {piece} left"
        if not all(self.on_board(s) for s in squares):
            return "the piece does not fit on the board"
        if any(s in self.cells for s in squares):
            return "the piece covers an occupied square"
        if self.placed(colour) == 0:
            start = self.variant.starts[colour]
            if start not in squares:
                return f"{name}'s first piece must cover its starting square {square_name(start)}"
            return None
        if any(s in self.forbidden(colour) for s in squares):
            return f"the piece touches {name} along an edge"
        if not any(s in self.corners(colour) for s in squares):
            return f"the piece does not touch {name} at a corner"
        return None

    def is_legal(self, colour: int, move: Iterable[Square]) -> bool:
        return self.check(colour, move) is None

    def legal_moves(self, colour: int, pieces: Optional[Sequence[str]] = None) -> Iterator[Move]:
        """Every legal move of ``colour`` (each once), optionally of some pieces only."""
        bad = self.forbidden(colour)
        corners = self.corners(colour)
        seen: Set[Move] = set()
        names = [p for p in (pieces or self.variant.pieces) if self.left[colour].get(p, 0) > 0]
        size = self.variant.size
        for piece in names:
            for o in orientations(piece):
                for cx, cy in corners:
                    for ox, oy in o:
                        dx, dy = cx - ox, cy - oy
                        squares = [(x + dx, y + dy) for x, y in o]
                        if all(0 <= x < size and 0 <= y < size and (x, y) not in bad
                               for x, y in squares):
                            m = frozenset(squares)
                            if m not in seen:
                                seen.add(m)
                                yield m

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
    def points(self, colour: int) -> int:
        """Squares placed, +15 with every piece placed, +5 more if the last was the monomino
        (no bonus in Junior)."""
        v = self.variant
        squares = sum(1 for c in self.cells.values() if c == colour)
        if v.bonus and sum(self.left[colour].values()) == 0:
            squares += 15
            if self.last_piece[colour] == "1":
                squares += 5
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
        """Each player's rank by points (1 = best; tied players share the better rank)."""
        pts = self.player_points()
        return [1 + sum(1 for q in pts if q > p) for p in pts]

    # -- changes
    def play(self, colour: int, move: Iterable[Square]) -> str:
        """Places a legal move for ``colour`` (the next colour in order plays after it).
        Returns the piece's name; raises :class:`IllegalMove` (nothing changes) otherwise."""
        squares = frozenset(move)
        why = self.check(colour, squares)
        if why is not None:
            raise IllegalMove(why)
        piece = piece_of(squares)
        assert piece is not None
        for s in squares:
            self.cells[s] = colour
        self.left[colour][piece] -= 1
        self.last_piece[colour] = piece
        self.last_move[colour] = squares
        self.to_play = (colour + 1) % self.variant.ncolours
        self._forbidden = {}
        self._effective = _UNKNOWN
        return piece

    def rows(self) -> List[str]:
        """The board as text rows from the top (``.`` empty, ``1``..``4`` colours), as the
        engine's ``show`` prints them."""
        n = self.variant.size
        return ["".join(str(self.cells[(x, y)] + 1) if (x, y) in self.cells else "."
                        for x in range(n)) for y in reversed(range(n))]


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
