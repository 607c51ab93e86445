"""Blokus match runner for 2 to 4 GTP engines, one engine process per seat.

Pentobi's ``twogtp`` plays two engines; this plays every Blokus variant with one engine per
player: Classic (4 players), Three-Player (``classic_3``: 3 players, the fourth colour played in
turn by the players), Two-Player (``classic_2``: 2 players with two colours each), Duo and
Junior (2 players), Blokus Trigon (``trigon``: 4 players, ``trigon_2``: 2 players with two
colours each, ``trigon_3``: 3 players with a colour each), Callisto (``callisto``,
``callisto_2``, ``callisto_2_4``, ``callisto_3``), Nexos (``nexos``, ``nexos_2``) as tessera
names them, and GembloQ (``gembloq``: 4 players, ``gembloq_2``: 2, ``gembloq_3``: 3,
``gembloq_2_4``: 2 players with two colours each; points in quarters, ``73.25``). Python 3.9+,
standard library plus this package's rules. Installed as the command ``tessera-blokus-match`` (``python3
tools/blokus_match.py`` in a checkout runs the same):

    tessera-blokus-match --variant classic --games 4 \\
        --engine "target/release/tessera gtp --nodes 1500" \\
        --engine "pentobi-gtp -g classic -l 3 --nobook --noresign -q" \\
        --engine "pentobi-gtp -g classic -l 3 --nobook --noresign -q" \\
        --engine "pentobi-gtp -g classic -l 3 --nobook --noresign -q" \\
        [--sgf games.blksgf] [--jsonl games.jsonl] [--threads K] [--seed S] [--no-rotate] \\
        [--openings K]

Engines. An engine is a GTP 2 program (command line split as a shell would); it is started once
per parallel game slot and stays alive across games. It gets ``set_game NAME`` (``Blokus``,
``Blokus Two-Player``, ``Blokus Three-Player``, ``Blokus Duo``, ``Blokus Junior``) once, and per
game ``clear_board``, ``set_random_seed N`` (only with ``--seed``; a refusal is ignored),
``cputime`` before and after the game, ``genmove COLOUR`` for its own colours, ``play COLOUR
MOVE`` for every move of the others (so each keeps its own board) and ``final_score`` at the end.
Colours are ``1 2 3 4`` on the 20x20 boards and ``b w`` in Duo and Junior; moves are squares
joined by commas (``e9,d10,e10``), sent in the reference order ``a1, b1, ..., a2, ...``.

Seats. ``--engine`` is given once per player, in seat order: player k plays colour k (Classic,
Three-Player, Duo, Junior) or colours k and k+2 (Two-Player). With ``--rotate`` (the default) game
g (1-based) seats engine e (0-based) at player ``(e + g - 1) mod n``, so over a multiple of n games
each engine plays every seat (and every place in the playing order) equally often, as twogtp
alternates colours; ``--no-rotate`` keeps engine e at player e.

Openings. With ``--openings K`` every group of n games (one rotation of the seats: with two
engines, a pair of games, one with each colour) starts from the same K random legal moves, drawn
by :func:`random_opening` from ``--seed`` and the group, so the engines are compared on equal
openings; the engines get the opening moves with ``play``.

Three-Player: the fourth colour (Green) is played in turn by the three players, as in Pentobi's
rules and twogtp: its k-th piece (0-based) is asked of player ``k mod 3``, i.e. the player chosen
by the number of pieces Green has placed so far. Its points count for nobody.

Refereeing. Every answer is checked with the rules of ``tessera_engine_client.blokus`` (the same rules as
tessera's engine, checked against Pentobi's ``all_legal`` / ``final_score``). A colour with no
legal move is skipped (no ``genmove`` is asked); the game ends when no colour can move. An engine
forfeits the game when it answers ``genmove`` with a malformed or illegal move, ``pass`` while it
has moves, ``resign``, or an error, when it refuses another engine's legal ``play``, when it dies,
or when an answer takes longer than ``--timeout`` seconds. The game then ends at once: the engine
at fault is ranked last, the others are ranked among themselves by their points at that moment;
the forfeit is printed and written to the JSON line. A dead or timed-out engine is started again
(with ``set_game``) for the next game. At the end of a game without forfeit every engine's
``final_score`` is compared with the referee's (per-colour points with more than two players,
``B+N`` / ``W+N`` / ``0`` with two): a disagreement is reported (``final_score MISMATCH``).

Results. Points are per colour (squares placed, +15 for all 21 pieces, +5 more if the last was the
monomino; no bonus in Junior) and per player (Two-Player: colours 1+3 and 2+4; Three-Player: the
fourth colour counts for nobody). Ranks are by player points, 1 the best; **tied players share the
average of the ranks they span** (two players tied for first both get 1.5), so the ranks of a game
always sum to n(n+1)/2 and the mean rank is comparable between engines. A win is a first place;
a first place shared by k players counts 1/k win for each. CPU seconds per game are the difference
of the engine's own ``cputime`` answers before and after the game (Pentobi's has 10 ms
resolution; ``-`` if an engine does not answer it).

Output: one block per game (players, their engines, points, pieces placed, rank, CPU), then a
summary per engine: games, mean rank with a 95% interval (Student t on the per-game ranks, clipped to 1..n), wins,
mean points, mean pieces placed per colour and the fewest pieces any of its colours placed in a
game, mean CPU seconds per game, forfeits, and its mean rank by seat. ``--jsonl FILE`` appends one
JSON object per game (fields in :func:`game_json`); ``--sgf FILE`` appends each game in Blokus
SGF as Pentobi writes it (``tessera_engine_client.blokus_sgf``: ``GM``, ``P1``..``P4`` or ``PB``/``PW``
with the engines' names, ``GN`` the game number), readable by Pentobi, ``tessera gtp loadsgf``,
``tools/gui/blokus.py`` and ``blokus_sgf.load_all``.

``--threads K`` plays K games at a time, each slot with its own set of engine processes (as
twogtp's ``--threads``); games are reported as they finish.
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, TextIO, Tuple, Union

from . import blokus, blokus_sgf

# The match's variant names (Pentobi's -g names) -> tessera_engine_client's names.
VARIANTS = {
    "classic": "classic",
    "classic_2": "two",
    "classic_3": "three",
    "duo": "duo",
    "junior": "junior",
    "trigon": "trigon",
    "trigon_2": "trigon_2",
    "trigon_3": "trigon_3",
    "callisto": "callisto",
    "callisto_2": "callisto_2",
    "callisto_2_4": "callisto_2_4",
    "callisto_3": "callisto_3",
    "nexos": "nexos",
    "nexos_2": "nexos_2",
    "gembloq": "gembloq",
    "gembloq_2": "gembloq_2",
    "gembloq_3": "gembloq_3",
    "gembloq_2_4": "gembloq_2_4",
}


def variant_of(name: str) -> blokus.VariantInfo:
    """The rules of a variant named as Pentobi's ``-g`` names it (``classic_2``) or as tessera
    does (``two``)."""
    return blokus.variant_info(VARIANTS.get(name, name))


def gtp_colour(info: blokus.VariantInfo, colour: int) -> str:
    """The GTP colour argument: ``b``/``w`` with two colours, ``1``..``4`` otherwise."""
    return ("b", "w")[colour] if info.ncolours == 2 else str(colour + 1)


def mover(info: blokus.VariantInfo, position: blokus.Position, colour: int) -> int:
    """The player who moves for ``colour`` in ``position``: its owner, or for Three-Player's
    shared fourth colour the player ``(pieces it has placed) mod 3`` (Pentobi's
    ``Board::get_alt_player``)."""
    owner = info.player_of(colour)
    if owner is None:
        return position.placed(colour) % info.nplayers
    return owner


def seat_engines(nplayers: int, game: int, rotate: bool) -> List[int]:
    """The engine index of each player in game ``game`` (1-based): engine e sits at player
    ``(e + game - 1) mod n`` with rotation, at player e without."""
    shift = (game - 1) % nplayers if rotate else 0
    return [(p - shift) % nplayers for p in range(nplayers)]


def opening_group(nplayers: int, game: int) -> int:
    """The group of game ``game`` (1-based) that shares an opening: one rotation of the seats."""
    return (game - 1) // nplayers


def random_opening(info: blokus.VariantInfo, seed: int, group: int,
                   moves: int) -> List[blokus.Move]:
    """``moves`` random legal moves from the start (fewer if the game ends first), the same for
    every game of ``group``: each is drawn uniformly from the legal moves of the colour to play,
    sorted by their text, with ``random.Random(f"{seed}/{group}")``."""
    rng = random.Random(f"{seed}/{group}")
    game = blokus.Game(info.name)
    opening: List[blokus.Move] = []
    for _ in range(moves):
        colour = game.position.effective_to_play()
        if colour is None:
            break
        move = rng.choice(sorted(game.position.legal_moves(colour), key=blokus.move_text))
        game.play(move, colour)
        opening.append(move)
    return opening


# ------------------------------------------------------------------ results
def average_ranks(points: Sequence[float]) -> List[float]:
    """Ranks by points, 1 the best; tied players share the average of the ranks they span."""
    out = []
    for p in points:
        better = sum(1 for q in points if q > p)
        tied = sum(1 for q in points if q == p)
        out.append(better + (tied + 1) / 2)
    return out


def game_ranks(points: Sequence[float], forfeit: Optional[int] = None) -> List[float]:
    """Each player's rank; a player who forfeited is last (n) and the others are ranked among
    themselves by points."""
    if forfeit is None:
        return average_ranks(points)
    others = [i for i in range(len(points)) if i != forfeit]
    ranks = [0.0] * len(points)
    for i, r in zip(others, average_ranks([points[i] for i in others])):
        ranks[i] = r
    ranks[forfeit] = float(len(points))
    return ranks


def win_shares(ranks: Sequence[float]) -> List[float]:
    """1 for a sole first place, 1/k each for a first place shared by k players, else 0 (from
    average ranks: k tied players for first all have rank (k + 1) / 2)."""
    n = len(ranks)
    for k in range(1, n + 1):
        top = [i for i, r in enumerate(ranks) if r == (k + 1) / 2]
        if len(top) == k:
            return [1.0 / k if i in top else 0.0 for i in range(n)]
    return [0.0] * n


# Two-sided 95% quantiles of Student's t, degrees of freedom 1..30.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
         2.056, 2.052, 2.048, 2.045, 2.042)


def mean_interval(values: Sequence[float]) -> Tuple[float, Optional[float], Optional[float]]:
    """The mean and its 95% interval (Student t; within 0.1% of the exact quantile above 30
    degrees of freedom); no interval for fewer than 2 values."""
    n = len(values)
    if n == 0:
        return float("nan"), None, None
    mean = sum(values) / n
    if n < 2:
        return mean, None, None
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    df = n - 1
    t = _T975[df - 1] if df <= 30 else 1.96 + 2.5 / df
    half = t * sd / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass
class Forfeit:
    """An engine that lost a game by fault."""

    engine: int
    player: int
    colour: Optional[int]
    reason: str


@dataclass
class GameResult:
    """One finished game, everything the report, the JSON line and the SGF need."""

    number: int
    info: blokus.VariantInfo
    seats: List[int]
    """Engine index of each player."""
    names: List[str]
    """Label of each engine (``1:tessera``: its index and GTP name)."""
    game: blokus.Game
    movers: List[int]
    """The player who made each move."""
    forfeit: Optional[Forfeit]
    cpu: List[Optional[float]]
    """CPU seconds of each engine (by engine index) during the game."""
    wall: float
    score_texts: Dict[int, str] = field(default_factory=dict)
    """Each engine's ``final_score`` answer (by engine index)."""
    score_problems: List[str] = field(default_factory=list)

    @property
    def position(self) -> blokus.Position:
        return self.game.position

    def colours_of(self, player: int) -> List[int]:
        """The colours a player owns (not Three-Player's shared colour)."""
        return [c for c in range(self.info.ncolours) if self.info.player_of(c) == player]

    def player_points(self) -> List[int]:
        return self.position.player_points()

    def ranks(self) -> List[float]:
        return game_ranks(self.player_points(), self.forfeit.player if self.forfeit else None)

    def player_of_engine(self, engine: int) -> int:
        return self.seats.index(engine)


def expected_score(info: blokus.VariantInfo, position: blokus.Position) -> str:
    """What ``final_score`` should answer: each colour's points with more than two players,
    else ``B+N``, ``W+N`` or ``0`` (player 1 minus player 2)."""
    if info.nplayers > 2:
        return " ".join(score_text(position.points(c)) for c in range(info.ncolours))
    p = position.player_points()
    d = p[0] - p[1]
    return f"B+{score_text(d)}" if d > 0 else f"W+{score_text(-d)}" if d < 0 else "0"


def score_text(points: Union[int, float]) -> str:
    """Points as Pentobi writes them: no decimals when whole (GembloQ's quarters: ``7.25``)."""
    return f"{points:g}" if isinstance(points, float) else str(points)


def game_json(r: GameResult) -> dict:
    """The ``--jsonl`` object of a game: ``game`` (1-based), ``variant``, ``moves``, ``wall_s``,
    ``forfeit`` (null or engine, player, colour, reason; 1-based), ``score_check`` (``ok``,
    ``mismatch`` or ``skipped`` after a forfeit), ``final_scores`` (each engine's answer), per
    player ``players`` [{player, engine, name, colours, points, colour_points, pieces, rank,
    win, cpu_s}] and per colour ``colours`` [{colour, player, points, pieces}] (player null for
    Three-Player's shared colour, whose ``movers`` lists the player of each of its moves)."""
    pos = r.position
    ranks = r.ranks()
    wins = win_shares(ranks)
    points = r.player_points()
    players = []
    for p, e in enumerate(r.seats):
        cols = r.colours_of(p)
        players.append({
            "player": p + 1, "engine": e + 1, "name": r.names[e],
            "colours": [gtp_colour(r.info, c) for c in cols],
            "points": points[p], "colour_points": [pos.points(c) for c in cols],
            "pieces": [pos.placed(c) for c in cols], "rank": ranks[p], "win": wins[p],
            "cpu_s": r.cpu[e],
        })
    colours = []
    for c in range(r.info.ncolours):
        owner = r.info.player_of(c)
        entry = {"colour": gtp_colour(r.info, c), "player": None if owner is None else owner + 1,
                 "points": pos.points(c), "pieces": pos.placed(c)}
        if owner is None:
            entry["movers"] = [p + 1 for m, p in zip(r.game.moves, r.movers) if m.colour == c]
        colours.append(entry)
    f = r.forfeit
    return {
        "game": r.number, "variant": r.info.game_name, "moves": len(r.game),
        "wall_s": round(r.wall, 3),
        "forfeit": None if f is None else {
            "engine": f.engine + 1, "player": f.player + 1,
            "colour": None if f.colour is None else gtp_colour(r.info, f.colour),
            "reason": f.reason},
        "score_check": "skipped" if f else ("mismatch" if r.score_problems else "ok"),
        "final_scores": {str(e + 1): t for e, t in sorted(r.score_texts.items())},
        "players": players, "colours": colours,
    }


def sgf_text(r: GameResult) -> str:
    """The game in Blokus SGF (players named by their engines, ``GN`` the game number)."""
    extra = {"GN": str(r.number)}
    if r.forfeit:
        f = r.forfeit
        extra["C"] = f"forfeit: {r.names[f.engine]} (player {f.player + 1}): {f.reason}"
    return blokus_sgf.dumps(r.game, application="tessera blokus_match.py",
                            players=[r.names[e] for e in r.seats], extra=extra)


def _fmt_cpu(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:.2f} s"


def _fmt_rank(x: float) -> str:
    return f"{x:g}"


def game_report(r: GameResult, total: int) -> str:
    """The printed block of a game."""
    info, pos = r.info, r.position
    names = info.colour_names
    points, ranks = r.player_points(), r.ranks()
    lines = [f"game {r.number}/{total}: {info.title}, {len(r.game)} moves, {r.wall:.1f} s"]
    width = max(len(r.names[e]) for e in r.seats)
    for p, e in enumerate(r.seats):
        cols = r.colours_of(p)
        colour = "+".join(names[c] for c in cols)
        if len(cols) > 1:
            pts = "+".join(str(pos.points(c)) for c in cols) + f"={points[p]}"
        else:
            pts = str(points[p])
        pieces = "+".join(str(pos.placed(c)) for c in cols)
        lines.append(f"  player {p + 1} {colour:<12} {r.names[e]:<{width}}  points {pts:<9} "
                     f"pieces {pieces:<6} rank {_fmt_rank(ranks[p]):<4} cpu {_fmt_cpu(r.cpu[e])}")
    for c in range(info.ncolours):
        if info.player_of(c) is None:
            by = [0] * info.nplayers
            for m, p in zip(r.game.moves, r.movers):
                if m.colour == c:
                    by[p] += 1
            moves = ", ".join(f"player {p + 1} {k}" for p, k in enumerate(by))
            lines.append(f"  shared   {names[c]:<12} (moves: {moves})  points {pos.points(c)} "
                         f"(for nobody)  pieces {pos.placed(c)}")
    if r.forfeit:
        f = r.forfeit
        where = "" if f.colour is None else f", {names[f.colour]}"
        lines.append(f"  FORFEIT {r.names[f.engine]} (player {f.player + 1}{where}): {f.reason}")
    elif r.score_problems:
        lines += [f"  final_score MISMATCH {p}" for p in r.score_problems]
    else:
        lines.append(f"  final_score {expected_score(info, pos)}: every engine agrees")
    return "\n".join(lines)


@dataclass
class EngineStats:
    """One engine's results over the match."""

    name: str
    command: str
    ranks: List[float] = field(default_factory=list)
    wins: float = 0.0
    points: List[int] = field(default_factory=list)
    pieces: List[int] = field(default_factory=list)
    """Pieces placed, one entry per colour per game."""
    cpu: List[float] = field(default_factory=list)
    forfeits: int = 0
    by_seat: Dict[int, List[float]] = field(default_factory=dict)


def collect(results: Sequence[GameResult], names: Sequence[str],
            commands: Sequence[str]) -> List[EngineStats]:
    """Per-engine statistics over the games."""
    stats = [EngineStats(n, c) for n, c in zip(names, commands)]
    for r in results:
        ranks, wins, points = r.ranks(), win_shares(r.ranks()), r.player_points()
        for p, e in enumerate(r.seats):
            s = stats[e]
            s.ranks.append(ranks[p])
            s.wins += wins[p]
            s.points.append(points[p])
            s.pieces += [r.position.placed(c) for c in r.colours_of(p)]
            if r.cpu[e] is not None:
                s.cpu.append(r.cpu[e])
            s.by_seat.setdefault(p, []).append(ranks[p])
        if r.forfeit:
            stats[r.forfeit.engine].forfeits += 1
    return stats


def summary(results: Sequence[GameResult], names: Sequence[str], commands: Sequence[str],
            info: blokus.VariantInfo) -> str:
    """The summary table per engine."""
    stats = collect(results, names, commands)
    mismatches = sum(1 for r in results if r.score_problems)
    lines = [f"summary: {info.title}, {len(results)} games; ranks 1..{info.nplayers} by player "
             "points, ties share the average rank; a shared first place is 1/k win each; "
             f"final_score mismatches {mismatches}"]
    width = max(len(s.name) for s in stats)
    lines.append(f"  {'engine':<{width}}  games  mean rank  95% interval  wins   points  "
                 "pieces (mean/min)  cpu s/game  forfeits")
    for s in stats:
        if not s.ranks:
            lines.append(f"  {s.name:<{width}}  {0:>5}")
            continue
        mean, lo, hi = mean_interval(s.ranks)
        ci = "-" if lo is None else f"{max(lo, 1.0):.2f}-{min(hi, float(info.nplayers)):.2f}"
        cpu = "-" if not s.cpu else f"{sum(s.cpu) / len(s.cpu):.2f}"
        pieces = f"{sum(s.pieces) / len(s.pieces):.1f}/{min(s.pieces)}"
        lines.append(f"  {s.name:<{width}}  {len(s.ranks):>5}  {mean:>9.2f}  {ci:>12}  "
                     f"{s.wins:>4g}  {sum(s.points) / len(s.points):>7.1f}  {pieces:>17}  "
                     f"{cpu:>10}  {s.forfeits:>8}")
    for s in stats:
        seats = ", ".join(f"player {p + 1}: {sum(v) / len(v):.2f} ({len(v)})"
                          for p, v in sorted(s.by_seat.items()))
        lines.append(f"  {s.name}: mean rank by seat {seats or '-'}; command: {s.command}")
    return "\n".join(lines)


# ------------------------------------------------------------------ engines
class GtpError(Exception):
    """The engine answered ``? message``."""


class EngineFailure(Exception):
    """The engine died, timed out, or broke the protocol (it must be restarted)."""


class GtpEngine:
    """One GTP engine process: commands on stdin, answers read by a thread so that a silent
    engine can time out."""

    def __init__(self, command: str, timeout: Optional[float] = None) -> None:
        self.command = command
        self.timeout = timeout
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, universal_newlines=True, bufsize=1)
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.dead = False

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _line(self, deadline: Optional[float]) -> str:
        try:
            if deadline is None:
                line = self.lines.get()
            else:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.dead = True
            raise EngineFailure(f"no answer within {self.timeout:g} s") from None
        if line is None:
            self.dead = True
            code = self.proc.poll()
            raise EngineFailure("the engine died" + ("" if code is None else f" (exit {code})"))
        return line

    def send(self, command: str) -> str:
        """Sends a command and returns the answer's text; raises :class:`GtpError` for ``?``
        answers and :class:`EngineFailure` for a dead, silent or garbled engine."""
        if self.dead:
            raise EngineFailure("the engine is not running")
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.dead = True
            raise EngineFailure("the engine died (its input is closed)") from None
        deadline = None if not self.timeout else time.monotonic() + self.timeout
        line = self._line(deadline)
        while not line.strip():
            line = self._line(deadline)
        if line[0] not in "=?":
            self.dead = True
            raise EngineFailure(f"not a GTP answer to {command!r}: {line!r}")
        ok = line[0] == "="
        first = line[1:].lstrip("0123456789").strip()
        body = [first] if first else []
        while True:
            more = self._line(deadline)
            if not more.strip():
                break
            body.append(more)
        text = "\n".join(body)
        if not ok:
            raise GtpError(text or "error")
        return text

    def cputime(self) -> Optional[float]:
        """The engine's ``cputime`` in seconds, None if it does not give one."""
        try:
            return float(self.send("cputime").split()[0])
        except (GtpError, ValueError, IndexError):
            return None

    def close(self) -> None:
        """``quit``, then a kill if the engine lingers; an engine that failed is killed."""
        if self.dead:
            self.proc.kill()
        else:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class SetupError(Exception):
    """An engine cannot be used at all (cannot start, refuses the variant)."""


def start_engine(command: str, info: blokus.VariantInfo, timeout: Optional[float]) -> GtpEngine:
    """Starts an engine and sets the variant."""
    try:
        eng = GtpEngine(command, timeout)
    except OSError as e:
        raise SetupError(f"cannot start {command!r}: {e}") from None
    try:
        eng.send(f"set_game {info.game_name}")
    except (GtpError, EngineFailure) as e:
        eng.close()
        raise SetupError(f"{command!r} refuses set_game {info.game_name}: {e}") from None
    return eng


# ------------------------------------------------------------------ games
class Slot:
    """One parallel game slot: a process per engine, restarted after a failure."""

    def __init__(self, commands: Sequence[str], info: blokus.VariantInfo,
                 timeout: Optional[float]) -> None:
        self.commands = list(commands)
        self.info = info
        self.timeout = timeout
        self.engines: List[Optional[GtpEngine]] = [None] * len(commands)
        for e in range(len(commands)):
            self.engine(e)

    def engine(self, e: int) -> GtpEngine:
        """Engine e, started (again) if needed."""
        eng = self.engines[e]
        if eng is None or eng.dead:
            if eng is not None:
                eng.close()
            eng = start_engine(self.commands[e], self.info, self.timeout)
            self.engines[e] = eng
        return eng

    def name(self, e: int) -> str:
        """Engine e's GTP ``name`` (its program's file name if it gives none)."""
        fallback = Path(shlex.split(self.commands[e])[0]).name
        try:
            return self.engine(e).send("name").strip() or fallback
        except (GtpError, EngineFailure):
            return fallback

    def close(self) -> None:
        for eng in self.engines:
            if eng is not None:
                eng.close()


def play_game(slot: Slot, number: int, seats: List[int], names: List[str],
              seed: Optional[int], opening: Sequence[blokus.Move] = ()) -> GameResult:
    """Plays game ``number`` with engine ``seats[p]`` as player p, from the ``opening`` moves
    (played by the referee, sent to every engine); never raises for an engine's fault (that is
    a forfeit in the result)."""
    info = slot.info
    n = len(seats)
    start = time.monotonic()
    game = blokus.Game(info.name)
    movers: List[int] = []
    forfeit: Optional[Forfeit] = None
    engines = [slot.engine(e) for e in range(n)]

    def fault(e: int, colour: Optional[int], reason: str) -> Forfeit:
        return Forfeit(e, seats.index(e), colour, reason)

    for e, eng in enumerate(engines):
        try:
            eng.send("clear_board")
            if seed is not None:
                try:
                    eng.send(f"set_random_seed {(seed * 1009 + number * 31 + e) % 2**31}")
                except GtpError:
                    pass  # the engine has no seed command: not a fault
        except (GtpError, EngineFailure) as err:
            forfeit = forfeit or fault(e, None, f"clear_board failed: {err}")
    for move in opening:
        if forfeit is not None:
            break
        colour = game.position.effective_to_play()
        movers.append(mover(info, game.position, colour))
        game.play(move, colour)
        text = f"play {gtp_colour(info, colour)} {blokus.move_text(move)}"
        for e, eng in enumerate(engines):
            try:
                eng.send(text)
            except (GtpError, EngineFailure) as err:
                forfeit = fault(e, None, f"refused opening move {text}: {err}")
                break
    cpu_before = [eng.cputime() if not eng.dead else None for eng in engines]

    while forfeit is None:
        pos = game.position
        colour = pos.effective_to_play()
        if colour is None:
            break
        player = mover(info, pos, colour)
        e = seats[player]
        name = gtp_colour(info, colour)
        try:
            answer = engines[e].send(f"genmove {name}").strip()
        except (GtpError, EngineFailure) as err:
            forfeit = fault(e, colour, f"genmove {name}: {err}")
            break
        if answer.lower() in ("resign", "pass"):
            forfeit = fault(e, colour, f"genmove {name} answered {answer!r} with legal moves left")
            break
        try:
            move = blokus.parse_move(answer, info)
            game.play(move, colour)
        except ValueError as err:  # IllegalMove is a ValueError
            forfeit = fault(e, colour, f"illegal move {answer!r} for {name}: {err}")
            break
        movers.append(player)
        text = blokus.move_text(move)
        for other, eng in enumerate(engines):
            if other == e:
                continue
            try:
                eng.send(f"play {name} {text}")
            except (GtpError, EngineFailure) as err:
                forfeit = fault(other, None, f"refused play {name} {text}: {err}")
                break

    cpu_after = [eng.cputime() if not eng.dead else None for eng in engines]
    cpu = [None if a is None or b is None else round(a - b, 3)
           for a, b in zip(cpu_after, cpu_before)]
    result = GameResult(number, info, list(seats), list(names), game, movers, forfeit, cpu,
                        time.monotonic() - start)
    if forfeit is None:
        want = expected_score(info, game.position)
        for e, eng in enumerate(engines):
            try:
                got = eng.send("final_score").strip()
            except (GtpError, EngineFailure) as err:
                result.score_problems.append(f"{names[e]}: final_score failed: {err}")
                continue
            result.score_texts[e] = got
            if got.split() != want.split():
                result.score_problems.append(f"{names[e]} says {got!r}, the referee {want!r}")
    return result


def run_match(commands: Sequence[str], info: blokus.VariantInfo, games: int, rotate: bool = True,
              seed: Optional[int] = None, threads: int = 1, timeout: Optional[float] = 600.0,
              out: Optional[TextIO] = sys.stdout, sgf: Optional[Path] = None,
              jsonl: Optional[Path] = None,
              openings: int = 0) -> Tuple[List[GameResult], List[str]]:
    """Plays the match; prints each game's block to ``out`` as it finishes and appends the
    ``--sgf`` / ``--jsonl`` records. Returns the results in game order and the engine labels.
    ``openings``: random moves that open each group of games (:func:`random_opening`)."""
    n = info.nplayers
    if len(commands) != n:
        raise SetupError(f"{info.title} has {n} players: give {n} --engine options "
                         f"(got {len(commands)})")
    slots: List[Slot] = []
    try:
        for _ in range(max(1, min(threads, games))):
            slots.append(Slot(commands, info, timeout))
    except SetupError:
        for slot in slots:
            slot.close()
        raise
    names = [f"{e + 1}:{slots[0].name(e)}" for e in range(n)]
    todo: "queue.Queue[int]" = queue.Queue()
    for g in range(1, games + 1):
        todo.put(g)
    done: "queue.Queue[object]" = queue.Queue()

    def worker(slot: Slot) -> None:
        while True:
            try:
                g = todo.get_nowait()
            except queue.Empty:
                return
            opening = random_opening(info, seed or 0, opening_group(n, g), openings)
            try:
                done.put(play_game(slot, g, seat_engines(n, g, rotate), names, seed, opening))
            except Exception as e:  # an engine that cannot be restarted, or a bug: stop
                done.put(e)
                return

    workers = [threading.Thread(target=worker, args=(slot,), daemon=True) for slot in slots]
    for w in workers:
        w.start()
    results: List[GameResult] = []
    try:
        while len(results) < games:
            item = done.get()
            if isinstance(item, Exception):
                raise item
            assert isinstance(item, GameResult)
            results.append(item)
            if out is not None:
                print(game_report(item, games), file=out, flush=True)
            if sgf is not None:
                with open(sgf, "a", encoding="utf-8") as f:
                    f.write(sgf_text(item))
            if jsonl is not None:
                with open(jsonl, "a", encoding="utf-8") as f:
                    f.write(json.dumps(game_json(item)) + "\n")
        for w in workers:
            w.join()
    finally:
        while not todo.empty():  # on an error, the other slots stop after their game
            try:
                todo.get_nowait()
            except queue.Empty:
                break
        for slot in slots:
            slot.close()
    results.sort(key=lambda r: r.number)
    return results, names


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Details: the module docstring (python3 -c 'import "
               "tessera_engine_client.blokus_match as m; help(m)').")
    parser.add_argument("--variant", default="classic", choices=list(VARIANTS),
                        help="classic (4 players), classic_2 (2 players, 2 colours each), "
                             "classic_3 (3 players + shared 4th colour), duo, junior, "
                             "trigon, trigon_2, trigon_3")
    parser.add_argument("--engine", action="append", default=[], metavar="CMD",
                        help="a GTP engine command line, once per player in seat order")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--rotate", action=argparse.BooleanOptionalAction, default=True,
                        help="game g shifts every engine one seat on (default: on)")
    parser.add_argument("--seed", type=int,
                        help="send each engine set_random_seed, derived from this, every game")
    parser.add_argument("--sgf", type=Path, metavar="FILE", help="append each game in Blokus SGF")
    parser.add_argument("--jsonl", type=Path, metavar="FILE", help="append a JSON line per game")
    parser.add_argument("--threads", type=int, default=1, help="games played at a time")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds an engine may take for any answer (0: no limit)")
    parser.add_argument("--openings", type=int, default=0, metavar="K",
                        help="random moves that open each group of n games (default 0)")
    args = parser.parse_args(argv)
    info = variant_of(args.variant)
    if args.games < 1 or args.threads < 1:
        parser.error("--games and --threads must be at least 1")
    if len(args.engine) != info.nplayers:
        parser.error(f"{info.title} has {info.nplayers} players: give --engine "
                     f"{info.nplayers} times (got {len(args.engine)})")
    if args.rotate and args.games % info.nplayers:
        print(f"note: {args.games} games are not a multiple of {info.nplayers}: the seats are "
              "not played equally often", file=sys.stderr)
    try:
        results, names = run_match(args.engine, info, args.games, args.rotate, args.seed,
                                   args.threads, args.timeout or None, sys.stdout, args.sgf,
                                   args.jsonl, args.openings)
    except SetupError as e:
        print(f"blokus_match: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    print(summary(results, names, args.engine, info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
