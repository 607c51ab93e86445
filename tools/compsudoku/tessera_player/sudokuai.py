"""The tessera engine behind the course framework's SudokuAI interface.

The framework forks a fresh process for every turn, calls compute_best_move there and kills it at
the deadline; the last proposed move is played. The engine is started once, in the process that
creates the player, so every forked turn inherits the same pipes. A turn first skips whatever the
killed previous turn left in the pipe (`stop`, `isready`, read up to `readyok`), then sends the
whole game state as `position` and `go`, and proposes the move of every `info ... pv` line.

Works with both framework versions: v12 (classic only, Move(i, j, value), current_player() a
method) and v14 (Move((row, col), value), territory modes, current_player an attribute).
"""

import inspect
import os
import shlex
import shutil
import subprocess
import sys

import competitive_sudoku.sudokuai
from competitive_sudoku.sudoku import Move

#: Milliseconds kept in reserve when the think time is known (fork, pipes, the framework's lock).
RESERVE_MS = 30

_NEW_API = "square" in inspect.signature(Move.__init__).parameters


def engine_command():
    """The engine command line: the path in the file `engine_path` next to this module (written
    by framework_match.py to bind a copy of the player to one build), else $TESSERA_ENGINE
    (split like a shell), else `tessera` on PATH."""
    bound = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine_path")
    if os.path.isfile(bound):
        with open(bound) as f:
            return [f.read().strip()]
    command = os.environ.get("TESSERA_ENGINE")
    if command:
        return shlex.split(command)
    path = shutil.which("tessera")
    if path is None:
        raise RuntimeError("tessera not found: put it on PATH or set TESSERA_ENGINE")
    return [path]


def think_time_ms():
    """The engine's movetime: $TESSERA_MOVETIME (ms), else the framework's --time minus a
    reserve, else None (search until the next turn's `stop`)."""
    if os.environ.get("TESSERA_MOVETIME"):
        return max(1, int(os.environ["TESSERA_MOVETIME"]))
    argv = sys.argv
    for k, arg in enumerate(argv):
        value = None
        if arg == "--time" and k + 1 < len(argv):
            value = argv[k + 1]
        elif arg.startswith("--time="):
            value = arg.split("=", 1)[1]
        if value is not None:
            try:
                return max(5, int(float(value) * 1000) - RESERVE_MS)
            except ValueError:
                return None
    return None


def value_char(value):
    return "." if value == 0 else "0123456789ABCDEFGHIJKLMNOP"[value]


def square_name(i, j, n):
    return f"{chr(ord('a') + j)}{n - i}"


def make_move(i, j, value):
    return Move((i, j), value) if _NEW_API else Move(i, j, value)


def move_fields(move):
    """(row, col, value) of a framework move of either version."""
    if hasattr(move, "square"):
        i, j = move.square
    else:
        i, j = move.i, move.j
    return i, j, move.value


def parse_engine_move(text, n):
    """`e5=7` -> (row, col, value) with row 0 at the top."""
    square, value = text.split("=", 1)
    j = ord(square[0]) - ord("a")
    i = n - int(square[1:])
    v = int(value) if value.isdigit() else ord(value.upper()) - ord("A") + 10
    return i, j, v


class Engine:
    """The engine process and its pipes."""

    def __init__(self):
        self.process = subprocess.Popen(
            engine_command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.header = None

    def alive(self):
        # Not Popen.poll(): in a forked turn the engine is not our child, and poll() would
        # take it for dead.
        try:
            os.kill(self.process.pid, 0)
        except OSError:
            return False
        return True

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def readline(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the engine closed its output")
        return line.strip()

    def sync(self):
        """Ends any search a killed turn left running and skips its output."""
        # The leading newline ends a line a killed turn may have left half written.
        self.send("\nstop\nisready")
        while self.readline() != "readyok":
            pass


def position_command(game_state):
    """The `newgame` and `position` lines for a framework game state."""
    board = game_state.board
    m, n_cols, n = board.m, board.n, board.N
    squares = board.squares
    rows = "/".join(
        "".join(value_char(squares[i * n + j]) for j in range(n)) for i in range(n)
    )
    player = game_state.current_player
    if callable(player):
        player = player()
    scores = game_state.scores
    words = ["position", "board", rows, "turn", str(player), "scores", str(scores[0]), str(scores[1])]
    taboo = [move_fields(mv) for mv in game_state.taboo_moves]
    if taboo:
        words.append("taboo")
        words.extend(f"{square_name(i, j, n)}={value_char(v)}" for i, j, v in taboo)
    territory = hasattr(game_state, "is_classic_game") and not game_state.is_classic_game()
    if territory:
        owners = [["."] * n for _ in range(n)]
        for mark, occupied in (("1", game_state.occupied_squares1), ("2", game_state.occupied_squares2)):
            for i, j in occupied or []:
                if squares[i * n + j] != 0:
                    owners[i][j] = mark
        words += ["owners", "/".join("".join(row) for row in owners)]
        for key, allowed in (("allowed1", game_state.allowed_squares1), ("allowed2", game_state.allowed_squares2)):
            names = [square_name(i, j, n) for i, j in allowed or []]
            words += [key, ",".join(names) if names else "-"]
    mode = "rows" if territory else "classic"
    return f"newgame sudoku box {m}x{n_cols} mode {mode}", " ".join(words)


def fallback_move(game_state):
    """A move the rules allow (maybe a pass by becoming taboo): proposed before the engine
    answers, so that a turn never ends without a proposal."""
    board = game_state.board
    m, n_cols, n = board.m, board.n, board.N
    squares = board.squares
    taboo = {move_fields(mv) for mv in game_state.taboo_moves}
    cells = None
    if hasattr(game_state, "player_squares"):
        playable = game_state.player_squares()
        if playable is not None:
            cells = [i * n + j for i, j in playable]
    if cells is None:
        cells = [k for k in range(n * n) if squares[k] == 0]
    for k in cells:
        i, j = divmod(k, n)
        r0, c0 = i // m * m, j // n_cols * n_cols
        used = {squares[i * n + c] for c in range(n)} | {squares[r * n + j] for r in range(n)}
        used |= {squares[r * n + c] for r in range(r0, r0 + m) for c in range(c0, c0 + n_cols)}
        for v in range(1, n + 1):
            if v not in used and (i, j, v) not in taboo:
                return i, j, v
    return None


class SudokuAI(competitive_sudoku.sudokuai.SudokuAI):
    """Proposes the tessera engine's moves."""

    def __init__(self):
        super().__init__()
        self.engine = None
        try:
            # Started here, in the framework's main process, so that every forked turn shares it.
            self.engine = Engine()
        except (OSError, RuntimeError) as err:
            print(f"tessera_player: cannot start the engine now: {err}", file=sys.stderr)

    def compute_best_move(self, game_state) -> None:
        fallback = fallback_move(game_state)
        if fallback is not None:
            self.propose_move(make_move(*fallback))
        for attempt in range(2):
            try:
                if attempt > 0 or self.engine is None or not self.engine.alive():
                    self.engine = Engine()
                self.think(game_state)
                return
            except (OSError, RuntimeError, ValueError) as err:
                print(f"tessera_player: {err}", file=sys.stderr)

    def think(self, game_state):
        """Sends the state, proposes every move the engine reports, returns after `bestmove`."""
        engine = self.engine
        engine.sync()
        newgame, position = position_command(game_state)
        n = game_state.board.N
        # newgame every turn is cheap and keeps a turn independent of what earlier turns sent.
        engine.send(newgame)
        engine.send(position)
        movetime = think_time_ms()
        engine.send(f"go movetime {movetime}" if movetime else "go infinite")
        while True:
            line = engine.readline()
            words = line.split()
            if not words:
                continue
            if words[0] == "info" and "pv" in words:
                at = words.index("pv")
                if at + 1 < len(words):
                    self.propose_move(make_move(*parse_engine_move(words[at + 1], n)))
            elif words[0] == "bestmove":
                if len(words) > 1 and words[1] != "none":
                    self.propose_move(make_move(*parse_engine_move(words[1], n)))
                return
            elif words[0] == "error":
                print(f"tessera_player: engine said: {line}", file=sys.stderr)
