"""A Blockudoku player process driven over tessera's protocol with one round trip a round: the
round's commands (``setoption``, ``position``, ``pieces``, ``go``) are written at once and the
answer read up to ``bestmove``. (``tessera_engine_client.Engine`` checks every command with an
``isready`` first: three round trips a round, which cost more than a depth-2 search.)

A reader thread queues the process's output lines, so that a silent player times out instead of
hanging the shard.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from typing import Dict, List, Optional

from .processes import process_cpu_seconds


class PlayerError(Exception):
    """The player refused a command, stayed silent, broke the protocol or died."""


class ProtocolPlayer:
    """A running player; ``options`` are the names of the options its ``tei`` offers."""

    def __init__(self, command: str, timeout: float) -> None:
        """Starts ``command`` and handshakes (``tei``, then ``isready``); raises OSError when
        it cannot start, :class:`PlayerError` when it does not answer ``readyok``."""
        self.timeout = timeout
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.options: Dict[str, str] = {}
        self.send("tei", "isready")
        for line in self.read_until("readyok", self.timeout, refusals_allowed=True):
            words = line.split()
            if words[:2] == ["option", "name"] and len(words) > 2:
                self.options[words[2]] = line

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, *commands: str) -> None:
        """Writes the commands at once."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write("".join(f"{c}\n" for c in commands))
            self.process.stdin.flush()
        except OSError:
            raise PlayerError(self.ended()) from None

    def ended(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        return f"the player ended (exit code {code})"

    def read_until(self, first_word: str, timeout: Optional[float],
                   refusals_allowed: bool = False) -> List[str]:
        """The lines up to the first starting with ``first_word`` (included). An ``error``
        line raises :class:`PlayerError` unless ``refusals_allowed`` (the handshake: a
        minimal player may not know ``tei``); so do silence past ``timeout`` and the player's
        end."""
        lines = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise PlayerError(f"no answer within {timeout:g} s") from None
            if line is None:
                self.lines.put(None)
                raise PlayerError(self.ended())
            if line.startswith("error") and not refusals_allowed:
                raise PlayerError(f"the player answered '{line}'")
            lines.append(line)
            if line.split(" ", 1)[0] == first_word:
                return lines

    def play(self, commands: List[str], go: str, movetime_ms: Optional[int]) -> List[str]:
        """Sends the round's commands and ``go``; the moves of ``bestmove`` (empty for
        ``bestmove none``). Under a movetime the answer may take that long plus the timeout;
        depth and node limits bound the search by its work, not by time, so no timeout then."""
        self.send(*commands, go)
        wait = None if movetime_ms is None else movetime_ms / 1000 + self.timeout
        moves = self.read_until("bestmove", wait)[-1].split()[1:]
        if not moves:
            raise PlayerError("bestmove without a move")
        return [] if moves == ["none"] else moves

    def cpu_seconds(self) -> float:
        """The player process's CPU seconds so far."""
        try:
            return process_cpu_seconds(self.process.pid)
        except OSError:
            raise PlayerError(self.ended()) from None

    def close(self) -> None:
        """``quit``, then a kill if the player lingers."""
        try:
            self.send("quit")
            self.process.wait(timeout=2)
        except (PlayerError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
