"""Drive a tessera engine over its line protocol (TEI), in the style of ``chess.engine``.

The engine is a child process; a reader thread moves every line it prints onto a queue,
and the calls below read that queue with timeouts, so a dying or stuck engine raises
:class:`EngineTerminated` or :class:`EngineTimeout` instead of hanging the caller.

Example::

    from tessera_engine_client import Engine, Limit

    with Engine.popen("target/release/tessera") as engine:
        engine.new_game("blockudoku", pieceset="standard47")
        engine.position(board=None, pieces=["##/#.", "###", "#/#/#"], score=0)
        result = engine.play(Limit(movetime=100))
        print(result.moves, result.info["score"])

An :class:`Engine` is meant to be used from one thread at a time; :meth:`Engine.stop` (and
:meth:`AnalysisResult.stop`) may be called from any thread while another one iterates an
analysis or waits in :meth:`Engine.play`.
"""

from __future__ import annotations

import os
import queue
from collections import deque
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any, Dict, Iterator, List, Optional, Sequence, Union

__all__ = [
    "Engine",
    "Limit",
    "Move",
    "Option",
    "PlayResult",
    "AnalysisResult",
    "EngineError",
    "EngineTerminated",
    "EngineTimeout",
    "parse_info",
]

InfoDict = Dict[str, Any]

_EOF = object()  # queue sentinel: the engine closed its output


class EngineError(RuntimeError):
    """The engine refused a command (it answered ``error ...``) or misbehaved."""


class EngineTerminated(EngineError):
    """The engine process ended (crashed, was killed, or quit) while we still talked to it."""


class EngineTimeout(EngineError, TimeoutError):
    """The engine did not answer within the allowed time."""


_MOVE_RE = re.compile(r"^([1-9][0-9]*)@([a-z])([1-9][0-9]*)$")


class Move(str):
    """A move in engine notation, e.g. ``"2@c7"``.

    It *is* the string (so it compares equal to ``"2@c7"`` and prints as such) and also
    carries its parts. Blockudoku: ``slot`` is the 1-based hand position, ``square`` the
    top-left cell of the piece's bounding box, ``row``/``col`` that cell 0-based from the
    top-left of a 9-row board (``a9`` is row 0, col 0).
    """

    slot: int
    square: str
    col: int
    rank: int

    def __new__(cls, text: str) -> "Move":
        m = _MOVE_RE.match(text)
        if not m:
            raise ValueError(f"not a move: {text!r} (expected <slot>@<square>, e.g. 2@c7)")
        self = super().__new__(cls, text)
        self.slot = int(m.group(1))
        self.square = m.group(2) + m.group(3)
        self.col = ord(m.group(2)) - ord("a")
        self.rank = int(m.group(3))
        return self

    def row(self, size: int = 9) -> int:
        """The 0-based row from the top on a board of ``size`` rows."""
        return size - self.rank

    @classmethod
    def from_parts(cls, slot: int, row: int, col: int, size: int = 9) -> "Move":
        """Builds ``<slot>@<square>`` from a 1-based slot and a 0-based (row from top, col)."""
        return cls(f"{slot}@{chr(ord('a') + col)}{size - row}")

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


def _parse_moves(tokens: Sequence[str]) -> List[Union[Move, str]]:
    out: List[Union[Move, str]] = []
    for t in tokens:
        try:
            out.append(Move(t))
        except ValueError:
            out.append(t)  # a move of some other game: keep the text
    return out


_INT_KEYS = {"depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "multipv"}


def parse_info(line: str) -> InfoDict:
    """Parses an ``info ...`` line into a dict.

    Numbers become ints (``depth``, ``score``, ``nodes``, ``nps``, ``time``), ``pv`` a list of
    :class:`Move`, ``string`` the rest of the line. Unknown keys keep their text value.
    """
    tokens = line.split()
    if tokens and tokens[0] == "info":
        tokens = tokens[1:]
    info: InfoDict = {}
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key == "string":
            info["string"] = line.split("string", 1)[1].strip()
            break
        if key == "pv":
            info["pv"] = _parse_moves(tokens[i + 1:])
            break
        value = tokens[i + 1] if i + 1 < len(tokens) else ""
        if key in _INT_KEYS:
            try:
                info[key] = int(value)
            except ValueError:
                info[key] = value
        else:
            info[key] = value
        i += 2
    return info


def _rank(info: InfoDict) -> int:
    """The rank of an info line: its ``multipv`` (1 when the engine reports a single line)."""
    rank = info.get("multipv", 1)
    return rank if isinstance(rank, int) else 1


@dataclass
class Limit:
    """When to stop a search. Times are in **milliseconds**, as in the protocol.

    Limits combine: the search ends at whichever is reached first. ``Limit()`` with nothing set
    lets the engine think for its default 1000 ms.
    """

    movetime: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    time: Optional[int] = None
    """The mover's clock (ms)."""
    inc: Optional[int] = None
    """The mover's increment (ms)."""
    infinite: bool = False

    def go_command(self) -> str:
        """The ``go ...`` line for this limit."""
        parts = ["go"]
        for key in ("movetime", "depth", "nodes", "time", "inc"):
            value = getattr(self, key)
            if value is not None:
                if int(value) < 0:
                    raise ValueError(f"Limit.{key} must be non-negative, got {value}")
                parts += [key, str(int(value))]
        if self.infinite:
            parts.append("infinite")
        return " ".join(parts)

    def wait_bound(self) -> Optional[float]:
        """An upper bound in seconds on the search's own length, or None if unbounded."""
        if self.infinite:
            return None
        if self.movetime is not None:
            return self.movetime / 1000.0
        if self.time is not None:
            return (self.time + (self.inc or 0)) / 1000.0
        if self.depth is None and self.nodes is None:
            return 1.0  # the engine's default movetime
        return None


@dataclass
class Option:
    """An engine option from the handshake (``option name X type spin default 10 min 0 max 99``)."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    var: List[str] = field(default_factory=list)

    @classmethod
    def parse(cls, line: str) -> "Option":
        tokens = line.split()[2:]  # drop "option name"
        keys = {"type", "default", "min", "max", "var"}
        name_parts: List[str] = []
        i = 0
        while i < len(tokens) and tokens[i] not in keys:
            name_parts.append(tokens[i])
            i += 1
        opt = cls(name=" ".join(name_parts), type="")
        while i < len(tokens):
            key = tokens[i]
            j = i + 1
            while j < len(tokens) and tokens[j] not in keys:
                j += 1
            value = " ".join(tokens[i + 1:j])
            if key == "type":
                opt.type = value
            elif key == "default":
                opt.default = value
            elif key in ("min", "max"):
                try:
                    setattr(opt, key, int(value))
                except ValueError:
                    pass
            elif key == "var":
                opt.var.append(value)
            i = j
        return opt


@dataclass
class PlayResult:
    """What :meth:`Engine.play` returns.

    ``moves`` is the parsed ``bestmove`` (for Blockudoku the whole hand in play order); it is
    empty for ``bestmove none`` (the hand cannot be placed: the game is over).
    ``info`` is the last ``info`` line of the best line (rank 1) as a dict (may be empty).
    """

    moves: List[Union[Move, str]]
    info: InfoDict
    bestmove: str
    """The raw text after ``bestmove``."""
    lines: List[InfoDict] = field(default_factory=list)
    """The last ``info`` of each line, best first: one line, or up to ``MultiPV`` of them."""

    @property
    def none(self) -> bool:
        """True for ``bestmove none``."""
        return not self.moves


class Engine:
    """A running tessera engine. Create one with :meth:`Engine.popen`."""

    name: Optional[str]
    author: Optional[str]
    id: Dict[str, str]
    games: List[str]
    options: Dict[str, Option]

    def __init__(self, process: "subprocess.Popen[str]", timeout: float = 10.0) -> None:
        """Wraps an already started process (prefer :meth:`popen`). Does not handshake."""
        self.process = process
        self.timeout = timeout
        self.name = None
        self.author = None
        self.id = {}
        self.games = []
        self.options = {}
        self._lines: "queue.Queue[object]" = queue.Queue()
        self._pushback: "deque[str]" = deque()  # lines read ahead, to be read again first
        self._write_lock = threading.Lock()
        self._errors: List[str] = []
        self._terminated = False
        self._searching = False
        self._analysis: Optional[AnalysisResult] = None
        self._multipv: Optional[int] = None  # the MultiPV set by configure (None: the default)
        self._restore_multipv: Optional[int] = None  # to send back after this search
        assert process.stdout is not None
        self._reader = threading.Thread(
            target=self._read_loop, args=(process.stdout,), name="tessera-reader", daemon=True
        )
        self._reader.start()

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def popen(
        cls,
        command: Union[str, "os.PathLike[str]", Sequence[str]],
        timeout: float = 10.0,
        *,
        stderr: Any = None,
        env: Optional[Dict[str, str]] = None,
        cwd: Optional[str] = None,
    ) -> "Engine":
        """Starts the engine and performs the ``tei`` handshake.

        ``command`` is the path of the binary or an argument list. ``timeout`` (seconds) bounds
        every answer the client waits for (the handshake, ``isready``, and the time a search may
        run past its own limit). ``stderr`` goes to the process (default: inherited).
        Raises :class:`EngineTerminated` if the engine dies, :class:`EngineTimeout` if it stays
        silent, :class:`FileNotFoundError` if there is no such program.
        """
        if isinstance(command, (str, os.PathLike)):
            args = [os.fspath(command)]
        else:
            args = [os.fspath(a) for a in command]
        process = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            universal_newlines=True,
            encoding="utf-8",
            bufsize=1,
            env=env,
            cwd=cwd,
        )
        engine = cls(process, timeout=timeout)
        try:
            engine.handshake()
        except BaseException:
            engine.kill()
            raise
        return engine

    def handshake(self) -> None:
        """Sends ``tei`` and reads ``id``, ``game`` and ``option`` lines up to ``teiok``."""
        self._send("tei")
        for line in self._read_until(lambda l: l == "teiok", self.timeout):
            if line.startswith("id "):
                parts = line.split(None, 2)
                if len(parts) == 3:
                    self.id[parts[1]] = parts[2]
            elif line.startswith("game "):
                self.games.append(line.split(None, 1)[1].strip())
            elif line.startswith("option "):
                opt = Option.parse(line)
                self.options[opt.name] = opt
        self.name = self.id.get("name")
        self.author = self.id.get("author")
        self._raise_errors()

    def quit(self, timeout: Optional[float] = None) -> int:
        """Ends the engine (``quit``, then kill if it lingers); returns its exit code.

        Safe to call more than once and on an engine that already died.
        """
        timeout = self.timeout if timeout is None else timeout
        if self.process.poll() is None:
            try:
                self._send("quit")
            except EngineTerminated:
                pass
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close_pipes()
        self._terminated = True
        return self.process.returncode

    close = quit

    def kill(self) -> None:
        """Kills the process at once."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close_pipes()
        self._terminated = True

    def _close_pipes(self) -> None:
        try:
            if self.process.stdin:
                self.process.stdin.close()
        except OSError:
            pass
        self._reader.join(timeout=1.0)

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    @property
    def terminated(self) -> bool:
        """True once the engine's process ended (or :meth:`quit` was called)."""
        return self._terminated or self.process.poll() is not None

    # ------------------------------------------------------------------ plumbing
    def _read_loop(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(_EOF)

    def _send(self, line: str) -> None:
        if "\n" in line or "\r" in line:
            raise ValueError("a command is a single line")
        if self._terminated:
            raise EngineTerminated(self._dead_message())
        with self._write_lock:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(line + "\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as e:
                self._terminated = True
                raise EngineTerminated(self._dead_message()) from e

    def _dead_message(self) -> str:
        code = self.process.poll()
        return f"the engine has terminated (exit code {code})"

    def _read_line(self, timeout: Optional[float]) -> str:
        """The next line; ``error`` lines are *not* filtered here."""
        if self._pushback:
            return self._pushback.popleft()
        if self._terminated and self._lines.empty():
            raise EngineTerminated(self._dead_message())
        try:
            item = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineTimeout(f"no answer from the engine within {timeout} s") from None
        if item is _EOF:
            self._terminated = True
            self._lines.put(_EOF)  # keep reporting it
            try:
                self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
            raise EngineTerminated(self._dead_message())
        assert isinstance(item, str)
        return item

    def _read_until(self, done: Any, timeout: Optional[float]) -> List[str]:
        """Reads lines up to and including the first for which ``done(line)`` holds.

        ``error`` lines are set aside (raised later by :meth:`_raise_errors`). ``timeout`` is
        the total time allowed (None: wait as long as the engine lives).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        lines: List[str] = []
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self._read_line(left)
            if line.startswith("error"):
                self._errors.append(line[5:].strip())
                continue
            lines.append(line)
            if done(line):
                return lines

    def _drain(self) -> List[str]:
        """Reads, without waiting, every line that already arrived (errors set aside)."""
        lines: List[str] = []
        while self._pushback:
            item = self._pushback.popleft()
            if item.startswith("error"):
                self._errors.append(item[5:].strip())
            else:
                lines.append(item)
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return lines
            if item is _EOF:
                self._lines.put(_EOF)
                self._terminated = True
                return lines
            assert isinstance(item, str)
            if item.startswith("error"):
                self._errors.append(item[5:].strip())
            else:
                lines.append(item)

    def _raise_errors(self) -> None:
        if self._errors:
            message = "; ".join(self._errors)
            self._errors.clear()
            raise EngineError(message)

    def _settle(self) -> None:
        """Before a new command: end a running search and raise errors that came meanwhile."""
        if self._searching:
            self.stop()
            self._wait_bestmove(self.timeout)
        self._drain()
        self._raise_errors()

    def _wait_bestmove(self, timeout: Optional[float]) -> PlayResult:
        # The lines an analysis already read count too.
        lines = self._analysis.ranks if self._analysis is not None else {}
        for line in self._read_until(lambda l: l.startswith("bestmove"), timeout):
            if line.startswith("info") and not line.startswith("info string"):
                info = parse_info(line)
                lines[_rank(info)] = info
            elif line.startswith("bestmove"):
                return self._bestmove(line, lines)
        raise AssertionError("unreachable")

    def _bestmove(self, line: str, lines: Dict[int, InfoDict]) -> PlayResult:
        self._searching = False
        self._restore()
        rest = line[len("bestmove"):].strip()
        moves = [] if rest in ("", "none") else _parse_moves(rest.split())
        result = PlayResult(moves=moves, info=lines.get(1, {}), bestmove=rest,
                            lines=[lines[rank] for rank in sorted(lines)])
        if self._analysis is not None:
            self._analysis._finish(result)
            self._analysis = None
        return result

    def _current_multipv(self) -> int:
        """The engine's MultiPV now: as configured, else the default of its handshake."""
        if self._multipv is not None:
            return self._multipv
        option = self.options.get("MultiPV")
        try:
            return int(option.default) if option and option.default else 1
        except ValueError:
            return 1

    def _restore(self) -> None:
        """Sends back the MultiPV a search with its own ``multipv`` replaced."""
        value, self._restore_multipv = self._restore_multipv, None
        if value is not None and not self.terminated:
            try:
                self._send(f"setoption name MultiPV value {value}")
            except EngineTerminated:
                pass

    # ------------------------------------------------------------------ commands
    def ping(self) -> None:
        """``isready`` -> ``readyok``; raises :class:`EngineError` for any refused command since
        the last check. Does not disturb a running search."""
        self._send("isready")
        self._read_until(lambda l: l == "readyok", self.timeout)
        self._raise_errors()

    def configure(self, options: Optional[Dict[str, Any]] = None, **kwargs: Any) -> None:
        """Sets options: ``configure(Seed=7, Level=3)`` or, as python-chess,
        ``configure({"Level": 3})`` -> ``setoption name Level value 3``.

        ``Level`` (1 to 10, 10 = full strength, the default) makes the engine weaker;
        ``MultiPV`` (1 to 32) how many lines a search reports (see :meth:`analyse`).
        Unknown names and bad values are sent anyway (the engine answers ``error``, raised on
        the next read).
        """
        self._settle()
        for name, value in {**(options or {}), **kwargs}.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            self._send(f"setoption name {name} value {value}")
            if name == "MultiPV" and str(value).isdigit():
                self._multipv = int(value)

    def new_game(self, game: str, **params: Any) -> None:
        """``newgame <game> [<key> <value>]...``, e.g. ``new_game("blockudoku", scoring="app")``."""
        self._settle()
        parts = ["newgame", game]
        for key, value in params.items():
            if value is None:
                continue
            parts += [key, str(value)]
        self._send(" ".join(parts))

    def position(
        self,
        board: Any = None,
        pieces: Optional[Sequence[Any]] = None,
        **state: Any,
    ) -> None:
        """Sets the position, and the hand if ``pieces`` is given.

        ``board``: the notation (``"........./...""``), a list of row strings (top row first),
        or any object with a ``notation()`` method (e.g. :class:`tessera_engine_client.blockudoku.Board`);
        None leaves the board out (the game's empty board). ``state`` are further fields such as
        ``score=120, streak=True`` (booleans are sent as 1/0). ``pieces`` is a list of shapes:
        inline strings (``"##/#."``), 1-based indices in the piece set, or objects with a
        ``notation()`` method.
        """
        self._settle()
        parts = ["position"]
        if board is not None:
            parts += ["board", _board_text(board)]
        for key, value in state.items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = int(value)
            parts += [key, str(value)]
        self._send(" ".join(parts))
        if pieces is not None:
            self.set_pieces(pieces)

    def position_startpos(self, moves: Sequence[str] = ()) -> None:
        """``position startpos [moves <move>...]``: the game's start and the moves played since
        (Blokus: each move's squares joined by commas, in playing order; colours that cannot
        move are skipped by the engine). A refused position raises :class:`EngineError` on the
        next read (e.g. :meth:`ping`)."""
        self._settle()
        tokens = [str(m) for m in moves]
        if any(not t or any(ch.isspace() for ch in t) for t in tokens):
            raise ValueError(f"bad move in {list(moves)!r}")
        self._send("position startpos" + (" moves " + " ".join(tokens) if tokens else ""))

    def set_pieces(self, pieces: Sequence[Any]) -> None:
        """``pieces <shape>...``: the hand (1 to 3 shapes; see :meth:`position`)."""
        self._settle()
        tokens = [_shape_text(p) for p in pieces]
        self._send("pieces " + " ".join(tokens))

    def play(self, limit: Optional[Limit] = None, multipv: Optional[int] = None) -> PlayResult:
        """Searches the current position and returns the engine's choice.

        Raises :class:`EngineError` if the engine refused ``go`` or any earlier command.
        The wait is bounded by the limit's own time plus :attr:`timeout`; depth- or
        node-limited searches wait as long as the engine lives. ``multipv``: as in
        :meth:`analyse`; the lines are in :attr:`PlayResult.lines`.
        """
        limit = limit or Limit()
        if limit.infinite:
            raise ValueError("play() needs a finite limit; use analysis() for infinite searches")
        self._start_search(limit, multipv)
        bound = limit.wait_bound()
        return self._wait_bestmove(None if bound is None else bound + self.timeout)

    def analyse(self, limit: Optional[Limit] = None,
                multipv: Optional[int] = None) -> Union[InfoDict, List[InfoDict]]:
        """Searches to ``limit`` and returns what it found, as python-chess's ``analyse``.

        Without ``multipv``: the info dict of the best line. With ``multipv=K``: the engine's
        ``MultiPV`` is K for this search only (set before ``go``, set back after
        ``bestmove``), and the answer is a list of info dicts ordered by rank, the last one
        seen of each line: up to K lines, fewer if fewer moves exist (or the game reports one
        line). Each has ``score`` and ``pv``; the first one's line is the ``bestmove``.
        """
        result = self.play(limit, multipv)
        return result.info if multipv is None else result.lines

    def analysis(self, limit: Optional[Limit] = None,
                 multipv: Optional[int] = None) -> "AnalysisResult":
        """Starts a search and returns an iterator over its ``info`` dicts as they stream.

        Iteration ends after the ``bestmove`` (when the limit is reached or after
        :meth:`stop`). ``Limit(infinite=True)`` runs until stopped. Use as a context manager to
        stop the search on leaving the block. ``multipv``: as in :meth:`analyse`; the latest
        lines are in :attr:`AnalysisResult.multipv`.
        """
        limit = limit or Limit(infinite=True)
        self._start_search(limit, multipv)
        self._analysis = AnalysisResult(self)
        return self._analysis

    def _start_search(self, limit: Limit, multipv: Optional[int] = None) -> None:
        command = limit.go_command()
        if multipv is not None and int(multipv) < 1:
            raise ValueError(f"multipv must be at least 1, got {multipv}")
        self._settle()
        current = self._current_multipv()
        if multipv is not None and int(multipv) != current:
            self._send(f"setoption name MultiPV value {int(multipv)}")
            self._restore_multipv = current
        try:
            # Flush answers to earlier commands so an error now belongs to this go.
            self.ping()
            self._send(command)
            self._send("isready")
            self._searching = True
            seen_ready = False
            pending: List[str] = []
            for line in self._read_until(lambda l: l == "readyok", self.timeout):
                if line == "readyok":
                    seen_ready = True
                else:
                    pending.append(line)
            assert seen_ready
            if self._errors:
                # go was refused: no bestmove will come.
                self._searching = False
                self._raise_errors()
        except EngineError:
            if not self._searching:
                self._restore()
            raise
        # What streamed before readyok is read again first, in order, by play/analysis.
        self._pushback.extend(pending)

    def stop(self) -> None:
        """Ends the running search (``stop``); its ``bestmove`` follows. Harmless without one.

        May be called from any thread.
        """
        if self._searching and not self._terminated:
            self._send("stop")

    def legal(self) -> List[Union[Move, str]]:
        """Every legal move of the current position and hand (``legal``)."""
        self._settle()
        self._send("legal")
        lines = self._read_until(lambda l: l == "legal" or l.startswith("legal "), self.timeout)
        self._raise_errors()
        return _parse_moves(lines[-1].split()[1:])

    def show(self) -> List[str]:
        """The engine's text picture of the position (the ``info string`` lines of ``show``)."""
        self._settle()
        self._send("show")
        self._send("isready")
        lines = self._read_until(lambda l: l == "readyok", self.timeout)
        self._raise_errors()
        return [l.split("string", 1)[1].strip() for l in lines if l.startswith("info string")]

    def send_raw(self, line: str, expect: Optional[str] = None) -> List[str]:
        """Sends any command line.

        With ``expect`` (a prefix such as ``"legal"``), reads lines up to the first starting
        with it and returns them; otherwise returns ``[]`` at once. An ``error`` answer is
        raised here if it came before the expected line, else by the next reading call.
        """
        if self._searching and line.split()[:1] in (["quit"], ["stop"]):
            self._send(line)
            return []
        self._send(line)
        if expect is None:
            return []
        lines = self._read_until(lambda l: l.startswith(expect), self.timeout)
        self._raise_errors()
        return lines

    def read_line(self, timeout: Optional[float] = None) -> str:
        """The next raw line from the engine (``error`` lines included), for use with
        :meth:`send_raw`. Raises :class:`EngineTimeout` after ``timeout`` seconds."""
        return self._read_line(self.timeout if timeout is None else timeout)


class AnalysisResult:
    """A running search started by :meth:`Engine.analysis`; iterate it for info dicts.

    After the iteration ended, :attr:`result` holds the :class:`PlayResult`.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.info: InfoDict = {}
        """The latest info dict (of any rank)."""
        self.ranks: Dict[int, InfoDict] = {}
        """The latest info dict of each rank (1 = the best line)."""
        self.result: Optional[PlayResult] = None
        self._done = False

    @property
    def multipv(self) -> List[InfoDict]:
        """The latest info of each line so far, best first."""
        return [self.ranks[rank] for rank in sorted(self.ranks)]

    def _take(self, line: str) -> InfoDict:
        self.info = parse_info(line)
        self.ranks[_rank(self.info)] = self.info
        return self.info

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        while not self._done:
            line = self.engine._read_line(None)
            if line.startswith("error"):
                self.engine._errors.append(line[5:].strip())
                continue
            if line.startswith("bestmove"):
                self.engine._bestmove(line, self.ranks)
                break
            if line.startswith("info") and not line.startswith("info string"):
                return self._take(line)
        raise StopIteration

    def next(self, timeout: Optional[float] = None) -> Optional[InfoDict]:
        """The next info dict, waiting at most ``timeout`` seconds (None if none came in time
        or the search ended)."""
        if self._done:
            return None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self.engine._read_line(left)
            except EngineTimeout:
                return None
            if line.startswith("error"):
                self.engine._errors.append(line[5:].strip())
                continue
            if line.startswith("bestmove"):
                self.engine._bestmove(line, self.ranks)
                return None
            if line.startswith("info") and not line.startswith("info string"):
                return self._take(line)

    def _finish(self, result: PlayResult) -> None:
        self.result = result
        self._done = True

    def stop(self) -> None:
        """Asks the engine to stop; the iteration ends after the ``bestmove``."""
        if not self._done:
            self.engine.stop()

    def wait(self) -> PlayResult:
        """Consumes the remaining infos and returns the result (stop first to end early)."""
        for _ in self:
            pass
        assert self.result is not None
        return self.result

    @property
    def done(self) -> bool:
        """True once the ``bestmove`` came."""
        return self._done

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._done and not self.engine.terminated:
            self.stop()
            self.wait()


def _board_text(board: Any) -> str:
    if isinstance(board, str):
        return board
    if hasattr(board, "notation"):
        return str(board.notation())
    return "/".join(str(row) for row in board)


def _shape_text(piece: Any) -> str:
    if isinstance(piece, (int, str)):
        text = str(piece)
    elif hasattr(piece, "notation"):
        text = str(piece.notation())
    else:
        raise TypeError(f"not a piece: {piece!r}")
    if not text or any(ch.isspace() for ch in text):
        raise ValueError(f"bad piece {piece!r}")
    return text
