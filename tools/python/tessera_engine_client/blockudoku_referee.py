"""Blockudoku referee: plays engines on a recorded deal set, so that any players are compared on
the same deals, and reports deaths, rounds survived and CPU per round.

Python 3.9+, standard library only; installed as the command ``tessera-blockudoku-referee``
(``python3 tools/blockudoku_referee.py`` in a checkout runs the same). An engine is any program
that speaks this subset of tessera's protocol (protocol.md) on stdin/stdout:

    isready                          -> readyok
    newgame blockudoku pieceset P    (no answer; an `error ...` line if refused)
    position board ROWS              (9 rows from the top joined by '/', '.' empty, '#' filled)
    pieces S1 S2 S3                  (the hand as inline shapes, e.g. `##/#.`: the referee never
                                      relies on an engine's piece numbering)
    go movetime MS | nodes N | depth D  (the referee's --movetime/--nodes/--depth; movetime 2 if none)
                                     -> `info ...` lines (ignored), then `bestmove 2@c7 1@a1 3@e5`
                                        (the whole hand: slot @ top-left square of the piece's
                                        bounding box, a1 bottom-left, in play order) or `bestmove none`
    quit

Deal set (a text file, made by `--make-deals`): lines starting with `# ` are comments; the line
`pieceset NAME` names the piece set the ids refer to (default standard47); every other line is
one game, the start board then one hand per round, each hand three 1-based piece ids in the set's
file order (this package's data/NAME.txt, the repository's data/blockudoku/NAME.txt: tessera's
own numbering), joined by commas:

    # made by blockudoku_referee.py --make-deals ... --seed 7 --games 20 --rounds 50
    pieceset standard47
    ....#..../........./...  12,30,47 1,1,9 4,20,33 ...

Hands are uniform with replacement from a seeded RNG (game g: `random.Random(f"{seed}/{g}")`);
start boards come from `--starts FILE` (the `selfplay --starts` format: one board a line, the
first token of the line; game g takes board g mod count) or are empty.

Refereeing: every round the referee sends the board and the hand, `isready`, then `go`, and checks
the answer with its own rules (below): a legal answer is played; `bestmove none` when no order
places the whole hand is a death; an illegal or malformed answer, `bestmove none` for a hand that
fits, an `error` line, a timeout or a dead engine is an error and counts as a death. A game ends at
its death or after its last hand (survived). Engines play one after another, each from its own
process, never at the same time.

CPU per round: the engine process's CPU time (user + system, all its threads) read from its
process CPU clock (Linux: the clock id of the pid, as precise as the scheduler; /proc/PID/stat
utime + stime in 10 ms ticks where that clock cannot be read), from the end of one round's
`bestmove` to the next one, so that it includes reading position and pieces and any search work
still winding down; the first round counts from the `newgame`'s `readyok`. Child processes of the
engine are not counted: give the engine command itself, not a shell around it. Wall time per round
is from sending `go` to reading `bestmove`.

Output, one line per engine: `player N games G deaths D rounds R deaths_per_1000_rounds X
cpu_ms_per_round MEAN median MEDIAN wall_ms_per_round W errors E filled_mean F crowded30_pct P
crowded36_pct Q`; rounds are the rounds survived, CPU and wall time are per round asked (the deadly
one included); F is the mean number of filled cells at the start of a round and P, Q the percent
of rounds that start with at least 30 and 36 filled cells (how often a player lets the board
crowd); each error is also written to stderr. `--record-losses FILE --before K1,K2,...` writes,
for every game an engine loses (not by an error), the board K rounds before the deadly one for
each K (a start set for `--make-deals --starts`: start sets made from real losses);
`--record-crowded FILE --min-filled N` writes every board with N or more filled cells that an
engine meets at the start of a round (the crowded boards of its own play). `--jsonl FILE`: one
line per game per engine, `{"player":N,"game":G,"rounds":R,"died":B,
"cpu_ms":C,"wall_ms":W,"error":null|"...","engine":"CMD"}`; one player's lines (`grep
'^{"player":1,'`) are the lines `tessera compare A.jsonl B.jsonl` reads, which then also pairs the
games dealt alike (games lost by only one player, sign test).

    tessera-blockudoku-referee --make-deals deals.txt --starts STARTS --seed 7 \\
        --games 20 --rounds 50
    tessera-blockudoku-referee --deals deals.txt --movetime 2 \\
        --engine target/release/tessera --engine "OTHER-ENGINE ARGS" --jsonl run.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

SIZE = 9
DATA = Path(__file__).resolve().parent / "data"


# --- Rules: a board is an int of 81 bits, bit row * 9 + col, row 0 at the top. ---------------

def _regions() -> list[int]:
    """The 27 regions as masks: 9 rows, 9 columns, 9 boxes."""
    rows = [sum(1 << (r * SIZE + c) for c in range(SIZE)) for r in range(SIZE)]
    cols = [sum(1 << (r * SIZE + c) for r in range(SIZE)) for c in range(SIZE)]
    boxes = [
        sum(1 << ((br + r) * SIZE + bc + c) for r in range(3) for c in range(3))
        for br in range(0, SIZE, 3)
        for bc in range(0, SIZE, 3)
    ]
    return rows + cols + boxes


REGIONS = _regions()


class IllegalMove(ValueError):
    """An answer that breaks the rules."""


def parse_board(text: str) -> int:
    """A board from its notation (9 rows from the top joined by '/', '.' empty, '#' filled)."""
    rows = text.split("/")
    if len(rows) != SIZE or any(len(row) != SIZE or set(row) - {".", "#"} for row in rows):
        raise ValueError(f"not a board: {text!r}")
    cells = [r * SIZE + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    return sum(1 << cell for cell in cells)


def board_notation(board: int) -> str:
    """The notation of a board."""
    return "/".join(
        "".join("#" if board >> (r * SIZE + c) & 1 else "." for c in range(SIZE)) for r in range(SIZE)
    )


def full_regions(board: int) -> list[int]:
    """The regions of the board that are full."""
    return [m for m in REGIONS if board & m == m]


@dataclass(frozen=True)
class Piece:
    """A shape, never rotated: its cells as (row, col) from the bounding box's top-left corner."""

    cells: frozenset[tuple[int, int]]

    @classmethod
    def parse(cls, text: str) -> Piece:
        """A shape from its notation (`##/#.`); empty outer rows and columns are trimmed."""
        rows = text.split("/")
        cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        if not cells or set(text) - {".", "#", "/"}:
            raise ValueError(f"not a piece: {text!r}")
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        return cls(frozenset((r - r0, c - c0) for r, c in cells))

    def notation(self) -> str:
        """The trimmed shape in notation."""
        height = max(r for r, _ in self.cells) + 1
        width = max(c for _, c in self.cells) + 1
        return "/".join(
            "".join("#" if (r, c) in self.cells else "." for c in range(width)) for r in range(height)
        )

    def mask(self, row: int, col: int) -> int | None:
        """The cells covered with the top-left corner on (row, col); None if it leaves the board."""
        if any(not (0 <= row + r < SIZE and 0 <= col + c < SIZE) for r, c in self.cells):
            return None
        return sum(1 << ((row + r) * SIZE + col + c) for r, c in self.cells)

    def masks(self) -> list[int]:
        """Every placement on the empty board."""
        masks = (self.mask(row, col) for row in range(SIZE) for col in range(SIZE))
        return [m for m in masks if m is not None]


def place(board: int, cells: int) -> int:
    """Fills the cells (which must be empty), then clears every full region at once."""
    board |= cells
    cleared = 0
    for m in full_regions(board):
        cleared |= m
    return board & ~cleared


def hand_fits(board: int, hand: list[Piece], seen: set | None = None) -> bool:
    """Whether some order and placements put the whole hand on the board (`seen`: the
    (board, pieces left) already found hopeless)."""
    if not hand:
        return True
    seen = set() if seen is None else seen
    key = (board, tuple(hand))
    if key not in seen:
        for i, piece in enumerate(hand):
            rest = hand[:i] + hand[i + 1:]
            if any(not board & m and hand_fits(place(board, m), rest, seen) for m in piece.masks()):
                return True
        seen.add(key)
    return False


def parse_square(text: str) -> tuple[int, int]:
    """(row from the top, col) of a square name: `a9` -> (0, 0), `i1` -> (8, 8)."""
    col, rank = ord(text[:1] or "?") - ord("a"), text[1:]
    if not (0 <= col < SIZE and rank.isdigit() and 1 <= int(rank) <= SIZE):
        raise IllegalMove(f"bad square {text!r}")
    return SIZE - int(rank), col


def play_hand(board: int, hand: list[Piece], moves: list[str]) -> int:
    """Plays an answer `slot@square ...` (every slot of the hand once, in play order) and returns
    the board after it; raises IllegalMove."""
    slots = []
    for move in moves:
        slot, at, square = move.partition("@")
        if not at or not slot.isdigit() or not 1 <= int(slot) <= len(hand):
            raise IllegalMove(f"bad move {move!r}")
        slots.append(int(slot) - 1)
        cells = hand[int(slot) - 1].mask(*parse_square(square))
        if cells is None:
            raise IllegalMove(f"{move}: the piece leaves the board")
        if board & cells:
            raise IllegalMove(f"{move}: the piece overlaps filled cells")
        board = place(board, cells)
    if sorted(slots) != list(range(len(hand))):
        raise IllegalMove(f"the answer does not place each slot once: {' '.join(moves)}")
    return board


def piece_set(name: str) -> list[Piece]:
    """The pieces of a set in tessera's numbering: data/NAME.txt of this package, comments `# ` and
    repeated shapes skipped; piece id i is element i - 1."""
    path = DATA / f"{name}.txt"
    if not path.exists():
        raise SystemExit(f"no piece set {name!r} ({path} is missing)")
    pieces: list[Piece] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("# ") and (piece := Piece.parse(line)) not in pieces:
            pieces.append(piece)
    return pieces


# --- Deal sets ----------------------------------------------------------------------------------

@dataclass
class Deal:
    """One game's deal: its start board and its hands (1-based piece ids)."""

    start: str
    hands: list[tuple[int, ...]]


def read_starts(path: Path) -> list[str]:
    """Start boards in the `selfplay --starts` format: the first token of each line that is not
    empty or a `# ` comment."""
    lines = [line.strip() for line in path.read_text().splitlines()]
    starts = [line.split()[0] for line in lines if line and not line.startswith("# ")]
    for start in starts:
        if full_regions(parse_board(start)):
            raise SystemExit(f"{path}: a full region on start board {start}")
    if not starts:
        raise SystemExit(f"{path}: no boards")
    return starts


def make_deals(starts: list[str], set_size: int, seed: int, games: int, rounds: int) -> list[Deal]:
    """G games of R uniform hands; game g starts from board g mod len(starts)."""
    deals = []
    for game in range(games):
        rng = random.Random(f"{seed}/{game}")
        hands = [tuple(rng.randint(1, set_size) for _ in range(3)) for _ in range(rounds)]
        deals.append(Deal(starts[game % len(starts)], hands))
    return deals


def write_deals(path: Path, pieceset: str, deals: list[Deal], comment: str) -> None:
    """Writes a deal set (format in the module docstring)."""
    lines = [f"# {comment}", f"pieceset {pieceset}"]
    lines += [" ".join([d.start] + [",".join(map(str, h)) for h in d.hands]) for d in deals]
    path.write_text("\n".join(lines) + "\n")


def read_deals(path: Path) -> tuple[str, list[Deal]]:
    """Reads a deal set: (piece set name, deals)."""
    pieceset, deals = "standard47", []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        tokens = line.split()
        if not tokens or line.startswith("# "):
            continue
        if tokens[0] == "pieceset" and len(tokens) == 2:
            pieceset = tokens[1]
            continue
        try:
            parse_board(tokens[0])
            hands = [tuple(int(i) for i in hand.split(",")) for hand in tokens[1:]]
        except ValueError as e:
            raise SystemExit(f"{path}:{number}: {e}") from None
        deals.append(Deal(tokens[0], hands))
    return pieceset, deals


# --- Engines ------------------------------------------------------------------------------------

class EngineError(Exception):
    """The engine refused a command, answered nonsense, took too long or died."""


class Engine:
    """An engine process; a reader thread queues its output lines (None at its end)."""

    def __init__(self, command: str, timeout: float):
        self.timeout = timeout
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.sync()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError as e:
            raise EngineError(f"cannot write to the engine: {e}") from None

    def read(self) -> str:
        """The next line; EngineError at a timeout, an `error` line or the engine's end."""
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineError(f"no answer within {self.timeout:g} s") from None
        if line is None:
            raise EngineError(f"the engine exited (code {self.process.poll()})")
        if line.startswith("error"):
            raise EngineError(f"the engine answered '{line}'")
        return line

    def sync(self) -> None:
        """`isready` -> `readyok`, so that every command before it has been read (and refused
        with `error` if it was bad)."""
        self.send("isready")
        while self.read() != "readyok":
            pass

    def go(self, arguments: str) -> list[str]:
        """Searches; the moves of `bestmove` (empty for `bestmove none`)."""
        self.send(f"go {arguments}")
        while not (line := self.read()).startswith("bestmove"):
            pass
        moves = line.split()[1:]
        if not moves:
            raise EngineError("bestmove without a move")
        return [] if moves == ["none"] else moves

    def cpu_seconds(self) -> float:
        """CPU time of the engine process so far (user + system, all threads)."""
        pid = self.process.pid
        try:
            return time.clock_gettime((~pid << 3) | 2)  # the process CPU clock of pid (Linux)
        except OSError:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError as e:
                raise EngineError(f"cannot read the engine's CPU time: {e}") from None
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        if self.alive():
            try:
                self.send("quit")
                self.process.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


@dataclass
class GameResult:
    """How one game went for one engine."""

    rounds: int = 0
    died: bool = False
    error: str | None = None
    cpu: list[float] = field(default_factory=list)
    """CPU seconds of each round asked."""
    wall: list[float] = field(default_factory=list)
    """Seconds from `go` to `bestmove` of each round asked."""
    filled: list[int] = field(default_factory=list)
    """Filled cells of the board at the start of each round asked."""
    crowded: list[int] = field(default_factory=list)
    """The boards of at least --min-filled cells met at the start of a round."""
    boards: deque[int] = field(default_factory=lambda: deque(maxlen=0))
    """The boards at the start of the latest rounds asked (as many as --record-losses needs)."""


@dataclass(frozen=True)
class Keep:
    """Which boards a game keeps for the recorded start sets."""

    last: int = 0
    """The boards of this many latest rounds (--record-losses)."""
    crowded_at: int | None = None
    """Every board of at least this many filled cells (--record-crowded)."""


def play_game(
    engine: Engine, pieceset: str, pieces: list[Piece], deal: Deal, go: str, keep: Keep = Keep()
) -> GameResult:
    """Plays one deal; an engine error ends the game as a death with its message."""
    result = GameResult(boards=deque(maxlen=keep.last))
    board = parse_board(deal.start)
    try:
        engine.send(f"newgame blockudoku pieceset {pieceset}")
        engine.sync()
        cpu_before = engine.cpu_seconds()
        for ids in deal.hands:
            hand = [pieces[i - 1] for i in ids]
            result.filled.append(board.bit_count())
            if keep.crowded_at is not None and board.bit_count() >= keep.crowded_at:
                result.crowded.append(board)
            result.boards.append(board)
            engine.send(f"position board {board_notation(board)}")
            engine.send("pieces " + " ".join(p.notation() for p in hand))
            engine.sync()
            wall = time.perf_counter()
            moves = engine.go(go)
            result.wall.append(time.perf_counter() - wall)
            cpu_after = engine.cpu_seconds()
            result.cpu.append(cpu_after - cpu_before)
            cpu_before = cpu_after
            if not moves:
                if hand_fits(board, hand):
                    raise EngineError("bestmove none for a hand that fits")
                result.died = True
                return result
            try:
                board = play_hand(board, hand, moves)
            except IllegalMove as e:
                raise EngineError(f"illegal answer on {board_notation(board)} to {ids}: {e}") from None
            result.rounds += 1
    except EngineError as e:
        result.died, result.error = True, str(e)
    return result


def evaluate(
    command: str, pieceset: str, deals: list[Deal], go: str, timeout: float, keep: Keep = Keep()
) -> list[GameResult]:
    """Plays every deal with one engine (a new process after a game that ended in an error)."""
    results = []
    pieces = piece_set(pieceset)
    engine = Engine(command, timeout)
    try:
        for deal in deals:
            if not engine.alive() or (results and results[-1].error):
                engine.close()
                engine = Engine(command, timeout)
            results.append(play_game(engine, pieceset, pieces, deal, go, keep))
    finally:
        engine.close()
    return results


def summary(player: int, results: list[GameResult]) -> str:
    """The report line of one engine."""
    rounds = sum(r.rounds for r in results)
    deaths = sum(r.died for r in results)
    cpu = [t * 1000 for r in results for t in r.cpu]
    wall = [t * 1000 for r in results for t in r.wall]
    filled = [f for r in results for f in r.filled]
    crowded = {k: 100 * sum(f >= k for f in filled) / max(len(filled), 1) for k in (30, 36)}
    return (
        f"player {player} games {len(results)} deaths {deaths} rounds {rounds} "
        f"deaths_per_1000_rounds {1000 * deaths / max(rounds, 1):.2f} "
        f"cpu_ms_per_round {statistics.fmean(cpu or [0]):.3f} "
        f"median {statistics.median(cpu or [0]):.3f} "
        f"wall_ms_per_round {statistics.fmean(wall or [0]):.3f} "
        f"errors {sum(r.error is not None for r in results)} "
        f"filled_mean {statistics.fmean(filled or [0]):.2f} "
        f"crowded30_pct {crowded[30]:.3f} crowded36_pct {crowded[36]:.3f}"
    )


def go_arguments(args: argparse.Namespace) -> str:
    """The arguments of `go`: the given limits, `movetime 2` if none."""
    limits = {"movetime": args.movetime, "nodes": args.nodes, "depth": args.depth}
    return " ".join(f"{k} {v}" for k, v in limits.items() if v is not None) or "movetime 2"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    make = parser.add_argument_group("making a deal set")
    make.add_argument("--make-deals", type=Path, metavar="FILE", help="write a deal set to FILE")
    make.add_argument("--starts", type=Path, help="start boards, one a line (default: the empty board)")
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--games", type=int, default=20)
    make.add_argument("--rounds", type=int, default=50)
    make.add_argument("--pieceset", default="standard47")
    play = parser.add_argument_group("playing a deal set")
    play.add_argument("--deals", type=Path, metavar="FILE", help="the deal set to play")
    play.add_argument("--engine", action="append", default=[], metavar="CMD",
                      help="an engine command line (repeatable: each plays every deal)")
    play.add_argument("--movetime", type=int, metavar="MS")
    play.add_argument("--nodes", type=int)
    play.add_argument("--depth", type=int)
    play.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for any answer")
    play.add_argument("--jsonl", type=Path, help="one JSON line per game per engine")
    play.add_argument("--record-losses", type=Path, metavar="FILE",
                      help="write boards from before every loss to FILE (see --before)")
    play.add_argument("--before", default="3,6,12", metavar="K1,K2,...",
                      help="rounds before the deadly one of the boards --record-losses writes")
    play.add_argument("--record-crowded", type=Path, metavar="FILE",
                      help="write every board of --min-filled or more cells met to FILE")
    play.add_argument("--min-filled", type=int, default=36, metavar="N")
    args = parser.parse_args(argv)
    if not (args.make_deals or args.deals):
        parser.error("give --make-deals FILE or --deals FILE")
    if args.deals and not args.engine:
        parser.error("--deals needs at least one --engine")
    if args.make_deals:
        write_deal_set(args)
    if args.deals:
        play_deal_set(args)
    return 0


def write_deal_set(args: argparse.Namespace) -> None:
    """--make-deals: writes the deal set."""
    starts = read_starts(args.starts) if args.starts else [board_notation(0)]
    deals = make_deals(starts, len(piece_set(args.pieceset)), args.seed, args.games, args.rounds)
    comment = (
        f"made by blockudoku_referee.py --make-deals --starts {args.starts or '(empty board)'} "
        f"--seed {args.seed} --games {args.games} --rounds {args.rounds}"
    )
    write_deals(args.make_deals, args.pieceset, deals, comment)
    print(f"{args.make_deals}: {args.games} games x {args.rounds} rounds")


def play_deal_set(args: argparse.Namespace) -> None:
    """--deals: plays the deal set with every engine in turn, prints a line per engine and
    writes the --jsonl lines."""
    pieceset, deals = read_deals(args.deals)
    size = len(piece_set(pieceset))
    if any(len(h) != 3 or not all(1 <= i <= size for i in h) for d in deals for h in d.hands):
        raise SystemExit(f"{args.deals}: a hand is not 3 ids of {pieceset} (1 to {size})")
    go = go_arguments(args)
    before = sorted({int(k) for k in args.before.split(",")})
    records = []
    loss_lines = []
    crowded_lines = []
    for player, command in enumerate(args.engine, 1):
        try:
            keep = Keep(
                last=before[-1] + 1 if args.record_losses else 0,
                crowded_at=args.min_filled if args.record_crowded else None,
            )
            results = evaluate(command, pieceset, deals, go, args.timeout, keep)
        except (EngineError, OSError) as e:
            raise SystemExit(f"player {player} ({command}) cannot start: {e}") from None
        print(f"{summary(player, results)}  # {command}: go {go}", flush=True)
        for game, r in enumerate(results):
            if r.error:
                print(f"  game {game}: {r.error}", file=sys.stderr)
            elif r.died:
                loss_lines += [
                    f"{board_notation(r.boards[-1 - k])} player {player} game {game} "
                    f"before {k}\n"
                    for k in before
                    if k < len(r.boards)
                ]
            crowded_lines += [
                f"{board_notation(b)} player {player} game {game}\n" for b in r.crowded
            ]
            r.boards.clear()
            r.crowded.clear()
            records.append({
                "player": player, "game": game, "rounds": r.rounds, "died": r.died,
                "cpu_ms": round(sum(r.cpu) * 1000, 3), "wall_ms": round(sum(r.wall) * 1000, 3),
                "error": r.error, "engine": command,
            })
    if args.record_losses:
        args.record_losses.write_text("".join(loss_lines))
    if args.record_crowded:
        args.record_crowded.write_text("".join(crowded_lines))
    if args.jsonl:
        args.jsonl.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))


if __name__ == "__main__":
    sys.exit(main())
