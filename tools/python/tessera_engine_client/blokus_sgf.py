"""Blokus game records in SGF (``.blksgf``), as the reference Blokus program and its match
runner ``twogtp`` write them.

The format is SGF 4 syntax. The root node's ``GM`` names the variant (``Blokus``, ``Blokus
Two-Player``, ``Blokus Three-Player``, ``Blokus Duo``, ``Blokus Junior``, ``Blokus Trigon``,
``Blokus Trigon Two-Player``, ``Blokus Trigon Three-Player``, ``Callisto``, ``Callisto
Two-Player``, ``Callisto Two-Player Four-Color``, ``Callisto Three-Player``); every later node
holds one move, a property whose value is the piece's squares (Trigon: triangles,
``r15,s15,s16``; columns after ``z`` are ``aa``, ``ab``, ...) joined by commas: ``B`` / ``W``
in the two-colour variants (Duo, Junior, Callisto Two-Player), ``1`` .. ``4`` (the colours in
playing order; ``1`` .. ``3`` in the Three-Player variants of Trigon and Callisto) in the
others. A colour that cannot move has no node (passes are implicit). Files may hold several
games (a match runner appends one per game) and variations (the first child is the main line).
Setup properties (``AB``, ``AW``, ``A1`` .. ``A4``, ``AE``) are refused.

    from tessera_engine_client import blokus_sgf

    record = blokus_sgf.load("games.blksgf")             # the first game; index=k for others
    game = record.replay()                               # a blokus.Game, every move checked
    text = blokus_sgf.dumps(game)                        # a record of a blokus.Game
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import blokus

__all__ = [
    "SgfError",
    "Node",
    "Record",
    "parse",
    "read",
    "read_all",
    "load",
    "load_all",
    "dumps",
    "save",
]

SETUP = {"AB", "AW", "A1", "A2", "A3", "A4", "AE"}
_COUNT = {3: "three", 4: "four"}


class SgfError(ValueError):
    """A malformed record, or one that breaks the rules (the message says where)."""


@dataclass
class Node:
    """An SGF node: its properties in file order and its children (variations)."""

    properties: List[Tuple[str, List[str]]] = field(default_factory=list)
    children: List["Node"] = field(default_factory=list)

    def get(self, ident: str, default: Optional[str] = None) -> Optional[str]:
        for key, values in self.properties:
            if key == ident:
                return values[0]
        return default


# ------------------------------------------------------------------ syntax
def parse(text: str) -> List[Node]:
    """Parses an SGF collection into the root node of each game tree."""
    if text.startswith("\ufeff"):
        text = text[1:]
    pos = 0
    n = len(text)
    games: List[Node] = []

    def skip_ws() -> None:
        nonlocal pos
        while pos < n and text[pos] in " \t\r\n\f\v":
            pos += 1

    def read_node() -> Node:
        nonlocal pos
        node = Node()
        while True:
            skip_ws()
            if pos >= n or text[pos] in ";()":
                return node
            start = pos
            while pos < n and text[pos].isascii() and text[pos].isalnum():
                pos += 1
            if pos == start:
                raise SgfError(f"SGF syntax: expected a property at offset {start}, "
                               f"got {text[start]!r}")
            ident = text[start:pos]
            skip_ws()
            values = []
            while pos < n and text[pos] == "[":
                pos += 1
                chunk: List[str] = []
                while True:
                    if pos >= n:
                        raise SgfError(f"SGF syntax: the value of {ident} is not closed")
                    ch = text[pos]
                    if ch == "]":
                        pos += 1
                        break
                    if ch == "\\":
                        pos += 1
                        if pos < n:
                            chunk.append(text[pos])
                            pos += 1
                        continue
                    chunk.append(ch)
                    pos += 1
                values.append("".join(chunk))
                skip_ws()
            if not values:
                raise SgfError(f"SGF syntax: property {ident} has no value")
            node.properties.append((ident, values))

    def read_tree() -> Node:
        # pos is just after '('. Iterative over the nesting, so deep records cannot overflow.
        nonlocal pos
        root: Optional[Node] = None
        stack: List[Tuple[Optional[Node], bool]] = [(None, False)]  # (last node, had subtree)
        while True:
            skip_ws()
            if pos >= n:
                raise SgfError("unexpected end of the SGF text (a ')' is missing)")
            ch = text[pos]
            if ch == ";":
                pos += 1
                last, opened = stack[-1]
                if opened:
                    raise SgfError(f"SGF syntax: a node after a variation at offset {pos}")
                node = read_node()
                if last is None:
                    if len(stack) == 1:
                        root = node
                    else:
                        # The first node of a variation: a child of the node before the '('.
                        parent = stack[-2][0]
                        assert parent is not None
                        parent.children.append(node)
                else:
                    last.children.append(node)
                stack[-1] = (node, False)
            elif ch == "(":
                pos += 1
                last, _ = stack[-1]
                if last is None:
                    raise SgfError(f"SGF syntax: a variation before any node at offset {pos}")
                stack[-1] = (last, True)
                stack.append((None, False))
            elif ch == ")":
                pos += 1
                last, _ = stack.pop()
                if last is None:
                    raise SgfError("SGF syntax: an empty game tree '()'")
                if not stack:
                    assert root is not None
                    return root
            else:
                raise SgfError(f"SGF syntax: unexpected {ch!r} at offset {pos}")

    skip_ws()
    if pos >= n or text[pos] != "(":
        raise SgfError("not an SGF file: it does not start with '('")
    while pos < n and text[pos] == "(":
        pos += 1
        games.append(read_tree())
        skip_ws()
    return games  # text after the last game tree is ignored, as the reference program does


# ------------------------------------------------------------------ records
def _move_colour(variant: blokus.VariantInfo, ident: str) -> Optional[int]:
    """The colour of a move property, None if ``ident`` is no move property; SgfError for a
    colour the variant does not have."""
    if variant.ncolours == 2:
        return {"B": 0, "W": 1, "1": 0, "2": 1}.get(ident)
    colour = {"1": 0, "2": 1, "3": 2, "4": 3,
              "BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}.get(ident)
    if colour is not None and colour >= variant.ncolours:
        raise SgfError(f"move property {ident} in a {_COUNT[variant.ncolours]}-colour game")
    return colour


@dataclass
class Record:
    """The main line of one game: its variant, moves and root properties."""

    variant: str
    """tessera's variant name (``classic``, ``two``, ``three``, ``duo``, ``junior``, ``trigon``,
    ``trigon_2``, ``trigon_3``, ``callisto``, ``callisto_2``, ``callisto_2_4``,
    ``callisto_3``)."""
    moves: List[Tuple[int, str]]
    """The moves in order: (colour 0-based in playing order, squares as written)."""
    properties: Dict[str, str] = field(default_factory=dict)
    """The root node's properties (first values), e.g. ``GM``, ``PB``, ``DT``, ``GN``."""

    @property
    def info(self) -> blokus.VariantInfo:
        return blokus.variant_info(self.variant)

    def replay(self, upto: Optional[int] = None) -> blokus.Game:
        """The game with the first ``upto`` moves (all by default) played and checked by the
        rules; raises :class:`SgfError` naming the first bad move."""
        game = blokus.Game(self.variant)
        names = self.info.colour_names
        for i, (colour, text) in enumerate(self.moves[:upto]):
            try:
                game.play(blokus.parse_move(text, self.info), colour)
            except ValueError as e:
                raise SgfError(f"move {i + 1} ({names[colour]} {text!r}): {e}") from None
        return game


def _record(root: Node) -> Record:
    gm = root.get("GM")
    if gm is None:
        raise SgfError("the SGF game has no GM (game) property")
    try:
        info = blokus.variant_info(gm.strip())
    except ValueError:
        names = ", ".join(v.game_name for v in blokus.VARIANTS.values())
        raise SgfError(f"unsupported game {gm!r} (known: {names})") from None
    props = {key: values[0] for key, values in root.properties}
    moves: List[Tuple[int, str]] = []
    node: Optional[Node] = root
    while node is not None:
        found = None
        for ident, values in node.properties:
            if ident in SETUP:
                raise SgfError(f"setup properties ({ident}) are not supported, "
                               "only games from the empty board")
            if info.ncolours > 2 and ident in ("B", "W"):
                colours = ", ".join(str(c + 1) for c in range(info.ncolours))
                raise SgfError(f"move property {ident} in a {_COUNT[info.ncolours]}-colour "
                               f"game (colours are {colours})")
            colour = _move_colour(info, ident)
            if colour is None:
                continue
            if found is not None:
                raise SgfError(f"node {len(moves) + 1} has two moves")
            found = (colour, ",".join(values))  # very old records: one value per square
        if found is not None:
            moves.append(found)
        node = node.children[0] if node.children else None
    return Record(info.name, moves, props)


def read_all(text: str) -> List[Record]:
    """Every game of a collection (a match runner's file holds one per game)."""
    return [_record(root) for root in parse(text)]


def read(text: str, index: int = 0) -> Record:
    """One game (the first by default) of an SGF text."""
    roots = parse(text)
    if not 0 <= index < len(roots):
        raise SgfError(f"game {index} out of range: the file holds {len(roots)} game(s)")
    return _record(roots[index])


def load(path: Union[str, Path], index: int = 0) -> Record:
    """:func:`read` of a file (UTF-8)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SgfError(f"{path} is not UTF-8 text") from None
    return read(text, index)


def load_all(path: Union[str, Path]) -> List[Record]:
    """:func:`read_all` of a file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SgfError(f"{path} is not UTF-8 text") from None
    return read_all(text)


# ------------------------------------------------------------------ writing
def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def dumps(
    game: Union[blokus.Game, Record],
    *,
    application: str = "tessera",
    date: Optional[Union[str, datetime.date]] = None,
    players: Optional[Sequence[str]] = None,
    extra: Optional[Dict[str, str]] = None,
) -> str:
    """A record in the reference program's layout: the root node (``FF[4]CA[UTF-8]AP[...]``,
    ``GM``, ``DT``, player names ``PB``/``PW`` with two players or ``P1``.. otherwise), then
    one node per move on its own line, squares in the order ``a1, b1, ..., a2, ...``.

    ``game`` is a :class:`blokus.Game` (all its moves, wherever its cursor is) or a
    :class:`Record`. ``date`` defaults to today; ``""`` leaves ``DT`` out.
    """
    if isinstance(game, Record):
        info = game.info
        moves: Iterable[Tuple[int, str]] = [
            (c, blokus.move_text(blokus.parse_move(t, info))) for c, t in game.moves]
    else:
        info = game.variant
        moves = [(m.colour, m.text) for m in game.moves]
    if date is None:
        date = datetime.date.today()
    root: List[Tuple[str, str]] = [("FF", "4"), ("CA", "UTF-8")]
    if application:
        root.append(("AP", application))
    root.append(("GM", info.game_name))
    if str(date):
        root.append(("DT", str(date)))
    if players:
        if len(players) == 2:
            keys = ["PB", "PW"]
        else:
            keys = [f"P{i + 1}" for i in range(len(players))]
        root += [(k, p) for k, p in zip(keys, players) if p]
    for key, value in (extra or {}).items():
        root.append((key, value))
    lines = ["(", ";" + "".join(f"{k}[{_escape(v)}]" for k, v in root)]
    for colour, text in moves:
        lines.append(f";{info.sgf_colour(colour)}[{text}]")
    lines.append(")")
    return "\n".join(lines) + "\n"


def save(path: Union[str, Path], game: Union[blokus.Game, Record], **kwargs: Any) -> None:
    """Writes :func:`dumps` to a file (UTF-8)."""
    Path(path).write_text(dumps(game, **kwargs), encoding="utf-8")
