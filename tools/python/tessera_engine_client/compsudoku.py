"""Competitive Sudoku with the tessera engine: moves, game states, board files and a session.

The engine is the referee: :class:`SudokuSession` sends the whole game state and the move as
``position ... moves <move>``, reads the state back from ``show``, and so learns whether the
move placed its value or became taboo. The rules here (candidates, completed regions, playable
squares) serve display and checks only.

Coordinates: ``(row, col)`` 0-based with row 0 at the **top**; cells are ``row * N + col``.
Squares as in the protocol: ``a1`` is the bottom-left, so ``a9`` is ``(0, 0)`` on 9x9.

Example::

    from tessera_engine_client.compsudoku import SudokuSession

    with SudokuSession.popen("target/release/tessera") as game:
        game.new_game("2x3", mode="rows")
        legal = game.legal()                      # placing moves, then the passes
        result = game.search(movetime=100)        # the engine's move and its info lines
        outcome = game.play_move(result.move)     # placed (points, regions) or taboo
        print(outcome.describe(), game.state.scores)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Tuple, Union

from .engine import Engine, EngineError, Limit

__all__ = [
    "POINTS",
    "MODES",
    "SudokuMove",
    "SudokuState",
    "Legal",
    "Outcome",
    "SearchResult",
    "SudokuSession",
    "parse_box",
    "value_char",
    "char_value",
    "square_name",
    "parse_square",
    "read_board_file",
]

#: Points for completing 0, 1, 2 or 3 regions with one placement.
POINTS = (0, 1, 3, 7)
#: The play modes: classic (any empty square) and the territory modes.
MODES = ("classic", "rows", "border", "random")
_DIGITS = "123456789ABCDEFGHIJKLMNOP"  # the protocol's values 1..25


def parse_box(box: Union[str, Tuple[int, int]]) -> Tuple[int, int]:
    """``"3x4"`` or ``(3, 4)`` -> (box rows, box columns)."""
    if isinstance(box, str):
        m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", box)
        if not m:
            raise ValueError(f"bad box {box!r}: expected MxN, e.g. 3x3")
        box = (int(m.group(1)), int(m.group(2)))
    rows, cols = int(box[0]), int(box[1])
    if rows < 1 or cols < 1 or not 2 <= rows * cols <= len(_DIGITS):
        raise ValueError(f"box {rows}x{cols} unsupported: need 2 <= M*N <= {len(_DIGITS)}")
    return rows, cols


def value_char(value: int) -> str:
    """The protocol's character of a value: ``1``-``9``, then ``A`` = 10 ... ``P`` = 25."""
    return "." if value == 0 else _DIGITS[value - 1]


def char_value(text: str) -> int:
    """The value of ``"7"``, ``"A"`` (10) or ``"12"`` (decimal); 0 for ``"."``."""
    if text == ".":
        return 0
    if text.isdigit():
        return int(text)
    if len(text) == 1 and text.upper() in _DIGITS:
        return _DIGITS.index(text.upper()) + 1
    raise ValueError(f"not a value: {text!r}")


def square_name(row: int, col: int, n: int) -> str:
    """``(row, col)`` (row 0 at the top) -> ``e5`` on an ``n`` x ``n`` grid."""
    return f"{chr(ord('a') + col)}{n - row}"


def parse_square(text: str, n: int) -> Tuple[int, int]:
    """``e5`` -> ``(row, col)`` on an ``n`` x ``n`` grid."""
    m = re.fullmatch(r"([a-z])([1-9][0-9]*)", text)
    if not m or ord(m.group(1)) - ord("a") >= n or int(m.group(2)) > n:
        raise ValueError(f"not a square of a {n}x{n} grid: {text!r}")
    return n - int(m.group(2)), ord(m.group(1)) - ord("a")


@dataclass(frozen=True, order=True)
class SudokuMove:
    """A move: put ``value`` on ``(row, col)``."""

    row: int
    col: int
    value: int

    @classmethod
    def parse(cls, text: str, n: int) -> "SudokuMove":
        """``e5=7`` (or ``p16=G``, ``p16=16``) on an ``n`` x ``n`` grid."""
        square, sep, value = text.partition("=")
        if not sep:
            raise ValueError(f"not a move: {text!r} (expected <square>=<value>, e.g. e5=7)")
        row, col = parse_square(square, n)
        v = char_value(value)
        if not 1 <= v <= n:
            raise ValueError(f"value out of range in {text!r}")
        return cls(row, col, v)

    def notation(self, n: int) -> str:
        """The protocol's text, ``e5=7`` (values above 9 as letters)."""
        return f"{square_name(self.row, self.col, n)}={value_char(self.value)}"

    def label(self, n: int) -> str:
        """Text for people, ``e5=7`` with decimal values (``p16=16``)."""
        return f"{square_name(self.row, self.col, n)}={self.value}"


def _squares_text(cells: FrozenSet[int], n: int) -> str:
    names = [square_name(c // n, c % n, n) for c in sorted(cells)]
    return ",".join(names) if names else "-"


def _default_allowed(mode: str, n: int) -> Optional[Tuple[FrozenSet[int], FrozenSet[int]]]:
    """Starting squares of rows and border mode (random ones come from the engine's seed)."""
    top = frozenset(range(n))
    bottom = frozenset(range(n * (n - 1), n * n))
    if mode == "rows":
        return top, bottom
    if mode == "border":
        edge = frozenset(c for c in range(n * n) if c // n in (0, n - 1) or c % n in (0, n - 1))
        return edge, edge
    return None


@dataclass
class SudokuState:
    """The complete game state, as ``position`` sends it and ``show`` reports it.

    ``cells`` and ``owners`` are row-major lists of N*N (0 = empty / nobody); ``allowed`` holds
    both players' starting cells in territory modes (None: the mode's default, e.g. random
    mode's squares drawn from the engine's seed). ``over`` and ``winner`` (0 = draw) come from
    the engine.
    """

    m: int
    n: int
    mode: str = "classic"
    cells: List[int] = field(default_factory=list)
    owners: List[int] = field(default_factory=list)
    turn: int = 1
    scores: Tuple[int, int] = (0, 0)
    taboo: List[SudokuMove] = field(default_factory=list)
    allowed: Optional[Tuple[FrozenSet[int], FrozenSet[int]]] = None
    over: bool = False
    winner: Optional[int] = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r} (known: {', '.join(MODES)})")
        size = self.size * self.size
        self.cells = list(self.cells) or [0] * size
        self.owners = list(self.owners) or [0] * size
        if len(self.cells) != size or len(self.owners) != size:
            raise ValueError(f"a {self.box} grid has {size} cells")
        self.scores = (int(self.scores[0]), int(self.scores[1]))

    @classmethod
    def new(cls, box: Union[str, Tuple[int, int]] = "3x3", mode: str = "classic") -> "SudokuState":
        """The empty grid of a box shape in a mode."""
        m, n = parse_box(box)
        return cls(m, n, mode, allowed=_default_allowed(mode, m * n))

    # ------------------------------------------------------------------ geometry
    @property
    def size(self) -> int:
        """N = m * n, the grid's side and the largest value."""
        return self.m * self.n

    @property
    def box(self) -> str:
        """The box shape as the protocol writes it, ``3x4``."""
        return f"{self.m}x{self.n}"

    @property
    def territory(self) -> bool:
        """True in the territory modes (rows, border, random)."""
        return self.mode != "classic"

    def get(self, row: int, col: int) -> int:
        """The value on ``(row, col)``, 0 if empty."""
        return self.cells[row * self.size + col]

    def regions(self, row: int, col: int) -> Dict[str, List[int]]:
        """The cells of the row, column and box through ``(row, col)``, keyed by name."""
        size = self.size
        r0, c0 = row // self.m * self.m, col // self.n * self.n
        box = [r * size + c for r in range(r0, r0 + self.m) for c in range(c0, c0 + self.n)]
        return {
            f"row {size - row}": [row * size + c for c in range(size)],
            f"column {chr(ord('a') + col)}": [r * size + col for r in range(size)],
            f"box {row // self.m * (size // self.n) + col // self.n + 1}": box,
        }

    # ------------------------------------------------------------------ display rules
    def candidates(self, row: int, col: int) -> List[int]:
        """Values the rules allow on an empty ``(row, col)``: free in its row, column and box,
        and not a known taboo move (whether the grid keeps a solution is the engine's call)."""
        if self.get(row, col):
            return []
        used = {self.cells[c] for cells in self.regions(row, col).values() for c in cells}
        taboo = {mv.value for mv in self.taboo if (mv.row, mv.col) == (row, col)}
        return [v for v in range(1, self.size + 1) if v not in used and v not in taboo]

    def completes(self, row: int, col: int) -> List[str]:
        """The regions a value on the empty ``(row, col)`` would complete (``["row 5", ...]``)."""
        cell = row * self.size + col
        return [name for name, cells in self.regions(row, col).items()
                if all(c == cell or self.cells[c] for c in cells)]

    def points_for(self, row: int, col: int) -> int:
        """Points a value on the empty ``(row, col)`` would score: 0, 1, 3 or 7."""
        return POINTS[len(self.completes(row, col))]

    def playable(self, player: int) -> FrozenSet[int]:
        """The empty cells ``player`` (1 or 2) may fill: every empty cell in classic mode; in
        territory modes its empty starting cells and the empty cells touching (8 directions) a
        cell it filled."""
        size = self.size
        empty = {c for c, v in enumerate(self.cells) if v == 0}
        if not self.territory:
            return frozenset(empty)
        allowed = self.allowed or _default_allowed(self.mode, size) or (frozenset(), frozenset())
        out = set(allowed[player - 1]) & empty
        for cell in (c for c, owner in enumerate(self.owners) if owner == player):
            r, c = divmod(cell, size)
            out.update(rr * size + cc for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                       if 0 <= rr < size and 0 <= cc < size and rr * size + cc in empty)
        return frozenset(out)

    def filled(self) -> int:
        """How many cells hold a value."""
        return sum(1 for v in self.cells if v)

    # ------------------------------------------------------------------ notation
    def rows_text(self) -> str:
        """The grid as the protocol's rows, top row first (``.`` empty)."""
        size = self.size
        return "/".join("".join(value_char(v) for v in self.cells[r * size:(r + 1) * size])
                        for r in range(size))

    def position_command(self, moves: Sequence[SudokuMove] = ()) -> str:
        """The ``position`` line that sets this state, then plays ``moves``."""
        size = self.size
        words = ["position", "board", self.rows_text(), "turn", str(self.turn),
                 "scores", str(self.scores[0]), str(self.scores[1])]
        if self.taboo:
            words += ["taboo"] + [mv.notation(size) for mv in self.taboo]
        if self.territory:
            words += ["owners", "/".join(
                "".join(".12"[o] for o in self.owners[r * size:(r + 1) * size])
                for r in range(size))]
            if self.allowed is not None:
                words += ["allowed1", _squares_text(self.allowed[0], size),
                          "allowed2", _squares_text(self.allowed[1], size)]
        if moves:
            words += ["moves"] + [mv.notation(size) for mv in moves]
        return " ".join(words)

    @classmethod
    def from_position(cls, line: str, box: Union[str, Tuple[int, int]],
                      mode: str = "classic") -> "SudokuState":
        """Parses a ``position`` line (the fields ``show`` writes; ``moves`` is refused: only
        the engine can judge them)."""
        m, n = parse_box(box)
        state = cls(m, n, mode)
        fields = _split_fields(line.split()[1:] if line.startswith("position") else line.split())
        for key, values in fields.items():
            _apply_field(state, key, values)
        return state

    @classmethod
    def from_show(cls, lines: Sequence[str]) -> "SudokuState":
        """Parses the engine's ``show`` (the header, then the closing ``position`` line)."""
        header = lines[0].split()
        if header[:2] != ["sudoku", "box"] or "mode" not in header:
            raise ValueError(f"not a sudoku show header: {lines[0]!r}")
        state = cls.from_position(lines[-1], header[2], header[header.index("mode") + 1])
        if "over" in header:
            state.over = True
            state.winner = 0 if "draw" in header else int(header[header.index("winner") + 1])
        return state


_KEYS = ("startpos", "board", "owners", "turn", "scores", "taboo", "allowed1", "allowed2", "moves")


def _split_fields(words: Sequence[str]) -> Dict[str, List[str]]:
    fields: Dict[str, List[str]] = {}
    key = None
    for word in words:
        if word in _KEYS:
            key = word
            fields[key] = []
        elif key is None:
            raise ValueError(f"position: unexpected {word!r}")
        else:
            fields[key].append(word)
    return fields


def _apply_field(state: SudokuState, key: str, values: List[str]) -> None:
    size = state.size
    if key == "board":
        state.cells = [char_value(ch) for ch in values[0].replace("/", "")]
    elif key == "owners":
        state.owners = [".12".index(ch) for ch in values[0].replace("/", "")]
    elif key == "turn":
        state.turn = int(values[0])
    elif key == "scores":
        state.scores = (int(values[0]), int(values[1]))
    elif key == "taboo":
        state.taboo = [SudokuMove.parse(v, size) for v in values]
    elif key in ("allowed1", "allowed2"):
        cells = frozenset() if values[0] == "-" else frozenset(
            r * size + c for r, c in (parse_square(s, size) for s in values[0].split(",")))
        pair = list(state.allowed or (frozenset(), frozenset()))
        pair[key == "allowed2"] = cells
        state.allowed = (pair[0], pair[1])
    elif key == "moves":
        raise ValueError("position moves: play them through the engine (SudokuSession)")
    if len(state.cells) != size * size or len(state.owners) != size * size:
        raise ValueError(f"position {key}: a {state.box} grid has {size * size} cells")


# ---------------------------------------------------------------------- board files
def read_board_file(path: Union[str, Path], mode: str = "classic") -> SudokuState:
    """A start position from one of the course's board files.

    v12: ``m n`` then N rows of N tokens (``.`` empty). v14: ``key = value`` lines (``rows``,
    ``columns``, ``board`` whose filled cells may carry ``+``/``-`` for player 1/2, optional
    ``taboo-moves``, ``scores``, ``current-player``, ``allowed-squares1/2``). The ``+``/``-``
    owners and allowed squares count in territory modes only.
    """
    text = Path(path).read_text()
    if any("=" in line for line in text.splitlines() if line.strip()):
        return _read_v14(text, mode)
    words = text.split()
    state = SudokuState.new((int(words[0]), int(words[1])), mode)
    _fill_board(state, words[2:], mode)
    return state


def _fill_board(state: SudokuState, tokens: Sequence[str], mode: str) -> None:
    size = state.size
    if len(tokens) != size * size:
        raise ValueError(f"a {state.box} board has {size * size} squares, the file {len(tokens)}")
    for k, token in enumerate(tokens):
        mark = token[-1] if token[-1] in "+-" else ""
        state.cells[k] = char_value(token.rstrip("+-"))
        if mode != "classic" and mark:
            state.owners[k] = 1 if mark == "+" else 2


def _properties(text: str) -> Dict[str, str]:
    """The framework's ``key = value`` format (continuation lines start with a space)."""
    props: Dict[str, str] = {}
    key = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith(" ") and key is not None:
            props[key] += " " + line.strip()
        else:
            key, _, value = line.partition("=")
            key = key.strip()
            props[key] = value.strip()
    return props


def _numbers(text: str) -> List[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def _read_v14(text: str, mode: str) -> SudokuState:
    props = _properties(text)
    state = SudokuState.new((int(props["rows"]), int(props["columns"])), mode)
    size = state.size
    _fill_board(state, props["board"].split(), mode)
    taboo = _numbers(props.get("taboo-moves", ""))
    state.taboo = [SudokuMove(*taboo[k:k + 3]) for k in range(0, len(taboo), 3)]
    if "scores" in props:
        a, b = _numbers(props["scores"])
        state.scores = (a, b)
    state.turn = int(props.get("current-player", "1"))
    if mode != "classic" and "allowed-squares1" in props and "allowed-squares2" in props:
        pairs = [_numbers(props[f"allowed-squares{p}"]) for p in (1, 2)]
        cells = [frozenset(p[k] * size + p[k + 1] for k in range(0, len(p), 2)) for p in pairs]
        state.allowed = (cells[0], cells[1])
    return state


# ---------------------------------------------------------------------- the session
@dataclass
class Legal:
    """The answer to ``legal``: moves that place a value, and passes (moves that would become
    taboo: legal, but nothing is placed and the turn passes)."""

    placing: List[SudokuMove]
    passes: List[SudokuMove]
    note: Optional[str] = None
    """The engine's remark when its solver did not settle every move in time."""

    @classmethod
    def parse(cls, line: str, n: int, note: Optional[str] = None) -> "Legal":
        """``legal e5=7 ... pass a4=3 ...`` on an ``n`` x ``n`` grid."""
        words = line.split()[1:]
        cut = words.index("pass") if "pass" in words else len(words)
        return cls([SudokuMove.parse(w, n) for w in words[:cut]],
                   [SudokuMove.parse(w, n) for w in words[cut + 1:]], note)

    def __contains__(self, move: object) -> bool:
        return move in self.placing or move in self.passes

    def __len__(self) -> int:
        return len(self.placing) + len(self.passes)

    def __iter__(self) -> Iterator[SudokuMove]:
        return iter(self.placing + self.passes)

    def is_pass(self, move: SudokuMove) -> bool:
        """True if ``move`` is legal and would become taboo."""
        return move in self.passes


@dataclass
class Outcome:
    """What a played move did, as the engine ruled it."""

    player: int
    move: SudokuMove
    taboo: bool
    points: int
    regions: List[str]
    """The regions the placement completed (empty for a taboo move)."""
    state: SudokuState
    """The state after the move."""
    skipped: bool = False
    """The opponent had no playable cell: the mover moves again."""

    def describe(self) -> str:
        """One line for people, e.g. ``player 1: e5=7 +3 (row 5, box 5)``."""
        n = self.state.size
        text = f"player {self.player}: {self.move.label(n)}"
        if self.taboo:
            text += " is taboo (the sudoku would have no solution): nothing placed, a pass"
        elif self.regions:
            text += f" +{self.points} ({', '.join(self.regions)})"
        if self.skipped:
            text += f"; player {3 - self.player} has no playable square and is skipped"
        return text


@dataclass
class SearchResult:
    """The engine's choice: ``move`` (None for ``bestmove none``: the game is over), the raw
    ``bestmove`` text and every ``info`` line of the search as a dict. Should the engine answer
    ``bestmove none`` after publishing a line, ``move`` is that line's first move. ``lines``:
    the last info of each line, best first (several with ``multipv``)."""

    move: Optional[SudokuMove]
    bestmove: str
    infos: List[Dict[str, Any]]
    lines: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def info(self) -> Dict[str, Any]:
        """The best line's last info dict (depth, score in centipoints, nodes, nps, time, pv)."""
        if self.lines:
            return self.lines[0]
        return self.infos[-1] if self.infos else {}


class SudokuSession:
    """A Competitive Sudoku game played through one engine, which referees every move.

    :attr:`state` is the current state as the engine reports it. Calls are meant for one
    thread at a time; :meth:`stop` may come from any thread.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.state = SudokuState.new()

    @classmethod
    def popen(cls, command: Any, timeout: float = 10.0, **kwargs: Any) -> "SudokuSession":
        """Starts the engine (see :meth:`Engine.popen`) and checks that it plays sudoku."""
        engine = Engine.popen(command, timeout=timeout, **kwargs)
        if "sudoku" not in engine.games:
            engine.quit()
            raise EngineError(f"{engine.name} does not play sudoku (games: {engine.games})")
        return cls(engine)

    def new_game(self, box: Union[str, Tuple[int, int]] = "3x3", mode: str = "classic",
                 seed: int = 1, start: Optional[SudokuState] = None) -> SudokuState:
        """``newgame sudoku box .. mode .. seed ..``, then the ``start`` state if given (if the
        engine refuses it, :class:`EngineError` is raised and the game starts empty)."""
        m, n = parse_box(box)
        self.engine.send_raw(f"newgame sudoku box {m}x{n} mode {mode} seed {int(seed)}")
        self.engine.ping()
        self.refresh()
        return self.state if start is None else self.set_state(start)

    def set_state(self, state: SudokuState) -> SudokuState:
        """Sends ``state`` as ``position``; the engine checks it (an impossible board raises
        :class:`EngineError` and keeps the previous state)."""
        self._position(state.position_command())
        return self.refresh()

    def refresh(self) -> SudokuState:
        """Reads the engine's state (``show``) into :attr:`state`."""
        self.state = SudokuState.from_show(self.engine.show())
        return self.state

    def legal(self) -> Legal:
        """The legal moves of the side to move, passes apart (empty when the game is over)."""
        self.engine.send_raw("legal")
        lines = self.engine.send_raw("isready", expect="readyok")  # raises a refused legal
        answer = [l for l in lines if l == "legal" or l.startswith("legal ")]
        notes = [l.split("string", 1)[1].strip() for l in lines if l.startswith("info string")]
        return Legal.parse(answer[-1], self.state.size, notes[-1] if notes else None)

    def play_move(self, move: SudokuMove) -> Outcome:
        """Plays ``move`` for the side to move; the engine rules it placed or taboo. An illegal
        move raises :class:`EngineError` (the engine's reason) and changes nothing."""
        before = self.state
        player = before.turn
        self._position(before.position_command([move]))
        after = self.refresh()
        taboo = after.get(move.row, move.col) == 0
        regions = [] if taboo else before.completes(move.row, move.col)
        points = after.scores[player - 1] - before.scores[player - 1]
        skipped = not after.over and after.turn == player
        return Outcome(player, move, taboo, points, regions, after, skipped)

    def search(self, movetime: int,
               on_info: Optional[Callable[[Dict[str, Any]], None]] = None,
               multipv: Optional[int] = None) -> SearchResult:
        """``go movetime <ms>``: the engine's move for the side to move; ``on_info`` gets every
        info dict as it streams. :meth:`stop` (from another thread) ends it early.
        ``multipv``: the engine's ``MultiPV`` for this search (see :meth:`Engine.analyse`)."""
        infos: List[Dict[str, Any]] = []
        analysis = self.engine.analysis(Limit(movetime=movetime), multipv=multipv)
        for info in analysis:
            infos.append(info)
            if on_info is not None:
                on_info(info)
        assert analysis.result is not None
        text = analysis.result.bestmove
        if text in ("", "none") and infos and infos[-1].get("pv"):
            # A published line is a legal move: the engine's `bestmove none` after it (a search
            # cut off by its deadline before depth 1) is an engine bug.
            return SearchResult(self._move(str(infos[-1]["pv"][0])), text, infos,
                                analysis.multipv)
        move = None if text in ("", "none") else self._move(text.split()[0])
        return SearchResult(move, text, infos, analysis.multipv)

    def stop(self) -> None:
        """Ends a running :meth:`search` now (its move follows); harmless without one."""
        self.engine.stop()

    def close(self) -> None:
        """Quits the engine."""
        self.engine.quit()

    def __enter__(self) -> "SudokuSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _move(self, text: str) -> SudokuMove:
        return SudokuMove.parse(text, self.state.size)

    def _position(self, line: str) -> None:
        self.engine.send_raw(line)
        self.engine.ping()  # raises the engine's error if it refused the line
