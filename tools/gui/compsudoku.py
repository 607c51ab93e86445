#!/usr/bin/env python3
"""Competitive Sudoku with the tessera engine: play against it, or watch it play itself.

    python3 tools/gui/compsudoku.py [--engine CMD] [--box MxN] [--mode classic|rows|border|random]
                                    [--seed S] [--board FILE] [--player1 human|engine]
                                    [--player2 human|engine] [--movetime MS] [--level N]
                                    [--autoplay] [--exit-after-autoplay]

Click a square, then type a value (digits; for grids above 9 also A = 10, B = 11, ...; Enter
ends a two-digit value) or pick one of its candidates in the VALUES pad. In the territory modes
the squares each player may fill are shaded in its colour. Ctrl+H hint, Ctrl+Z undo, Ctrl+N new
game, Ctrl+E set up a position, arrows move the selection, Esc drops it.

The engine plays at the chosen level (1 to 10, 10 = full strength). **Hint** shows its three
best moves on the board, numbered 1 to 3 in their colours (a dashed frame: a pass, a move that
would be taboo), with the expected final margin of each in points.

**Set up** a position: click a square and type its value, filled as a given or by player 1 or
2 (the owners count in the territory modes), or mark the typed value taboo on that square;
Delete empties a square. Set both scores and the player to move; **Done** hands the position
to the engine, which checks it, and play (or a hint) goes on from there.

**Rated games**, as in Pentobi: "Rated game at level N" starts a game on the empty grid of the
chosen box and mode against the engine at the chosen level; you play player 1 in your first
rated game of that box and mode, then player 2, and so on, without hints or undo. At the end the
result (level, win/draw/loss, date, box and mode) is stored and your rating for that box and
mode is estimated from all of them: level k counts as rating 1000 + 150 (k - 1); you start at
1000 and move by K (S - E) after each game, S = 1 for a win, 1/2 a draw, 0 a loss, E the
expected score against the level's rating, K = 40 for the first 10 games, then 20. A rated game
left unfinished is not counted. The level and the rated games are kept in
``~/.config/tessera/compsudoku.json`` (``$XDG_CONFIG_HOME``).

The engine referees every move through ``tessera_engine_client`` (a taboo move is the engine's call)
and plays either side or both. It runs on a worker thread; the Tk thread polls a queue
(``root.after``), so the window never freezes while the engine thinks. With ``--autoplay
--exit-after-autoplay`` the engine plays both sides to the end, the program prints ``score A - B``
(player 1 first) and exits 0; with ``--level N`` it first prints ``level N`` once the engine
took the level.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools" / "python"))  # the client of this checkout

from tessera_engine_client import Engine, EngineError  # noqa: E402
from tessera_engine_client.background import EngineThread  # noqa: E402
from tessera_engine_client.compsudoku import (  # noqa: E402
    MODES,
    Legal,
    Outcome,
    SearchResult,
    SudokuMove,
    SudokuSession,
    SudokuState,
    parse_box,
    read_board_file,
    square_name,
)

from tessera_engine_client.rating import RatedGame, rated_games  # noqa: E402
from tessera_engine_client.settings import LEVELS, Settings  # noqa: E402
from gui_common import (  # noqa: E402
    HINT_LINES, RANK_COLORS, LevelChooser, RatedPanel, badge, hint_lines)

import tkinter as tk  # noqa: E402
from tkinter import filedialog, ttk  # noqa: E402

# ---------------------------------------------------------------------------------- look
BG = "#eef1f8"
TEXT = "#22304f"
MUTED = "#7482a3"
GRID = "#c8d1e6"
BOX_LINE = "#4a5a7e"
EMPTY = "#ffffff"
BLOCKED = "#e3e6ee"
COLORS = {1: "#2f6fd6", 2: "#d2493f"}
TINTS = {1: "#d9e6fb", 2: "#f8dcd9", 3: "#e8defa"}  # 3: playable by both
GOLD = "#f6c445"
GOLD_TINT = "#fdeeb8"
HINT = "#17a398"
SELECT = "#f0a202"
TABOO = "#b03a2e"
ERROR = "#b03a2e"

BOXES = ["2x2", "2x3", "3x2", "3x3", "3x4", "4x3", "4x4", "4x5", "5x5"]
KINDS = ("Human", "Engine")
THINK_CHOICES = {"20 ms": 20, "100 ms": 100, "250 ms": 250, "500 ms": 500, "1 s": 1000,
                 "2 s": 2000, "5 s": 5000}
WATCH_DELAY_MS = 400  # pause between two engine moves, so people can follow
HEADER = 92
GUTTER = 24
MARGIN = 16
BOARD_MAX = 560


def cell_size(n: int) -> int:
    """Pixels per square for an N x N grid."""
    return max(22, min(64, BOARD_MAX // n))


# ---------------------------------------------------------------------------------- engine thread
class EngineWorker(EngineThread):
    """The :class:`SudokuSession` on a background thread (:class:`EngineThread`).

    Requests: ("newgame", token, box, mode, seed, start), ("set", token, state),
    ("move", token, move), ("search", token, movetime, purpose, level, lines), ("quit",).
    Answers: ("ready", name), ("failed", message), ("dead", message), ("error", token, message),
    ("level", level), ("state", token, state, legal, outcome or None), ("info", token, info),
    ("best", token, purpose, result, lines): ``lines`` up to ``lines`` (score, moves), best
    first.
    """

    ERRORS = (EngineError, ValueError)  # answered ("error", token, message)

    def __init__(self, command: List[str]) -> None:
        super().__init__(command, handlers={
            "newgame": self._new_game, "set": self._set, "move": self._move,
            "search": self.search_handler(self._search, self.ERRORS)})
        self.session: Optional[SudokuSession] = None

    def open(self) -> Engine:
        self.session = SudokuSession.popen(self.command, timeout=self.timeout)
        return self.session.engine

    def _new_game(self, token: int, box: str, mode: str, seed: int,
                  start: Optional[SudokuState]) -> None:
        with self.answering_errors(token, self.ERRORS):
            self.session.new_game(box, mode, seed, start)
            self._answer_state(token, None)

    def _set(self, token: int, state: SudokuState) -> None:
        with self.answering_errors(token, self.ERRORS):
            self.session.set_state(state)
            self._answer_state(token, None)

    def _move(self, token: int, move: SudokuMove) -> None:
        with self.answering_errors(token, self.ERRORS):
            self._answer_state(token, self.session.play_move(move))

    def _answer_state(self, token: int, outcome: Optional[Outcome]) -> None:
        session = self.session
        self.answers.put(("state", token, session.state, session.legal(), outcome))

    def _search(self, token: int, movetime: int, purpose: str, level: int, lines: int) -> None:
        self.set_level(level)
        post = self.info_poster(token, every=0.05)

        def on_info(info: Dict[str, Any]) -> None:
            if token <= self.cancelled:
                self.session.stop()  # cancelled while it started
            elif info.get("multipv", 1) == 1:  # the progress of the best line
                post(info)

        result = self.session.search(movetime, on_info, multipv=lines if lines > 1 else None)
        best = [result.move.notation(self.session.state.size)] if result.move else []
        self.answers.put(("best", token, purpose, result, hint_lines(best, result.lines)))


# ---------------------------------------------------------------------------------- the window
class CompSudokuApp:
    """The board, the side panel and the game flow; all of it on the Tk thread."""

    def __init__(self, root: tk.Tk, args: argparse.Namespace) -> None:
        self.root = root
        self.args = args
        self.fast = bool(args.exit_after_autoplay)
        self.worker = EngineWorker(shlex.split(args.engine))
        self.engine_ready = False
        self.token = 0
        self.pending: Optional[Tuple[int, str]] = None  # (token, what the engine is doing)
        self.state = SudokuState.new(args.box, args.mode)
        self.legal = Legal([], [])
        self.log: List[Outcome] = []
        self.history: List[SudokuState] = []  # the state before each logged move
        self.start_taboo: List[SudokuMove] = []
        self.selected: Optional[Tuple[int, int]] = None
        self.hints: List[Tuple[SudokuMove, Optional[int]]] = []  # (move, score), best first
        self.settings = Settings("compsudoku")
        self.level = args.level or self.settings.level
        self.rated: Optional[Tuple[int, int]] = None  # a rated game: (level, your player)
        self.setting_up: Optional[SudokuState] = None  # in setup mode: the state before it
        self.given_owners: Dict[int, int] = {}  # who filled a set-up cell (shown in classic)
        self.flash: Dict[int, float] = {}
        self.popups: List[Dict[str, Any]] = []
        self.typed = ""
        self.typed_after: Optional[str] = None
        self.turn_after: Optional[str] = None
        self.exit_code = 0
        self.closed = False
        self.cell = cell_size(self.state.size)

        root.title("Competitive Sudoku · tessera")
        root.configure(bg=BG)
        self._build_widgets()
        self._bind_keys()
        self.worker.start()
        self.new_game_from_panel()
        self.worker.poll(root, self._answer, lambda: self.closed)
        root.after(40, self._tick)
        root.protocol("WM_DELETE_WINDOW", self.close)
        if self.fast:
            n = self.state.size
            limit = 60 + n * n * 3 * (self._movetime() + 40) / 1000
            root.after(int(1000 * limit), self._watchdog)

    def _watchdog(self) -> None:
        print(f"autoplay timed out after {len(self.log)} moves", file=sys.stderr)
        self.close(code=3)

    # ------------------------------------------------------------------ widgets
    def _build_widgets(self) -> None:
        style = ttk.Style(self.root)
        try:
            style.theme_use("clam")
        except tk.TclError:
            pass
        style.configure(".", background=BG, foreground=TEXT, font=("DejaVu Sans", 10))
        style.configure("TLabelframe", background=BG, bordercolor=GRID)
        style.configure("TLabelframe.Label", background=BG, foreground=MUTED,
                        font=("DejaVu Sans", 9, "bold"))
        style.configure("TButton", padding=(8, 4))
        style.configure("Accent.TButton", background=COLORS[1], foreground="white",
                        font=("DejaVu Sans", 10, "bold"))
        style.configure("Value.TButton", padding=(2, 2), width=3, font=("DejaVu Sans", 11, "bold"))
        style.configure("Muted.TLabel", foreground=MUTED, font=("DejaVu Sans", 9))

        outer = tk.Frame(self.root, bg=BG)
        outer.pack(padx=10, pady=10)
        left = tk.Frame(outer, bg=BG)
        left.grid(row=0, column=0, sticky="n")
        self.canvas = tk.Canvas(left, bg=BG, highlightthickness=0)
        self.canvas.pack()
        self.canvas.bind("<ButtonPress-1>", self._click)
        self.status = tk.Label(left, text="", bg=BG, fg=TEXT, justify="left", anchor="w",
                               font=("DejaVu Sans", 10), wraplength=560)
        self.status.pack(fill="x", pady=(6, 0))
        side = ttk.Frame(outer, padding=(12, 0, 4, 0))
        side.grid(row=0, column=1, sticky="ns")
        self._build_game_panel(side)
        self._build_engine_panel(side)
        self._build_value_panel(side)
        lists = ttk.Frame(outer, padding=(8, 0, 0, 0))
        lists.grid(row=0, column=2, sticky="ns")
        self._build_lists(lists)

    def _build_game_panel(self, side: ttk.Frame) -> None:
        game = ttk.Labelframe(side, text="NEW GAME", padding=8)
        game.pack(fill="x")
        self.box_var = tk.StringVar(value=self.state.box)
        self.mode_var = tk.StringVar(value=self.args.mode)
        self.seed_var = tk.StringVar(value=str(self.args.seed))
        self.board_var = tk.StringVar(value=self.args.board or "")
        first = "Engine" if self.args.autoplay or self.args.player1 == "engine" else "Human"
        second = "Engine" if self.args.autoplay or self.args.player2 == "engine" else "Human"
        self.kind_vars = {1: tk.StringVar(value=first), 2: tk.StringVar(value=second)}
        rows = [("Box", ttk.Combobox(game, textvariable=self.box_var, values=BOXES, width=9)),
                ("Mode", ttk.Combobox(game, textvariable=self.mode_var, values=MODES,
                                      state="readonly", width=9)),
                ("Seed", ttk.Entry(game, textvariable=self.seed_var, width=11)),
                ("Player 1", ttk.Combobox(game, textvariable=self.kind_vars[1], values=KINDS,
                                          state="readonly", width=9)),
                ("Player 2", ttk.Combobox(game, textvariable=self.kind_vars[2], values=KINDS,
                                          state="readonly", width=9))]
        for i, (label, widget) in enumerate(rows):
            ttk.Label(game, text=label).grid(row=i, column=0, sticky="w", pady=1)
            widget.grid(row=i, column=1, sticky="ew", pady=1)
        for var in self.kind_vars.values():
            var.trace_add("write", lambda *_: self._players_changed())
        board_row = ttk.Frame(game)
        board_row.grid(row=len(rows), column=0, columnspan=2, sticky="ew", pady=(4, 0))
        ttk.Label(board_row, text="Board").pack(side="left")
        ttk.Entry(board_row, textvariable=self.board_var, width=12).pack(side="left", padx=4)
        ttk.Button(board_row, text="…", width=2, command=self._choose_board).pack(side="left")
        ttk.Button(game, text="New game  (Ctrl+N)", style="Accent.TButton",
                   command=self.new_game_from_panel).grid(row=len(rows) + 1, column=0,
                                                          columnspan=2, sticky="ew", pady=(6, 0))
        self.setup_button = ttk.Button(game, text="Set up position  (Ctrl+E)",
                                       command=self.toggle_setup)
        self.setup_button.grid(row=len(rows) + 2, column=0, columnspan=2, sticky="ew",
                               pady=(4, 0))
        self.player_boxes = [widget for label, widget in rows if label.startswith("Player")]

    def _build_engine_panel(self, side: ttk.Frame) -> None:
        eng = ttk.Labelframe(side, text="ENGINE", padding=8)
        eng.pack(fill="x", pady=(10, 0))
        ttk.Label(eng, text="Think").grid(row=0, column=0, sticky="w")
        movetime = self.args.movetime
        choices = dict(THINK_CHOICES)
        if movetime is not None and movetime not in choices.values():
            choices[f"{movetime} ms"] = movetime
        self.think_choices = choices
        label = next((k for k, v in choices.items() if v == movetime), "250 ms")
        self.think_var = tk.StringVar(value=label)
        ttk.Combobox(eng, textvariable=self.think_var, values=list(choices), state="readonly",
                     width=8).grid(row=0, column=1, sticky="e")
        ttk.Label(eng, text="Level").grid(row=1, column=0, sticky="w", pady=(4, 0))
        self.level_chooser = LevelChooser(eng, self.settings, self.level, self._level_chosen)
        self.level_chooser.grid(row=1, column=1, sticky="e", pady=(4, 0))
        self.hint_button = ttk.Button(eng, text="Hint  (Ctrl+H)", command=self.ask_hint)
        self.hint_button.grid(row=2, column=0, columnspan=2, sticky="ew", pady=(6, 0))
        self.undo_button = ttk.Button(eng, text="Undo  (Ctrl+Z)", command=self.undo)
        self.undo_button.grid(row=3, column=0, columnspan=2, sticky="ew", pady=(4, 0))
        self.pass_button = ttk.Button(eng, text="Pass (play a taboo move)", command=self.pass_turn)
        self.pass_button.grid(row=4, column=0, columnspan=2, sticky="ew", pady=(4, 0))
        self.engine_label = ttk.Label(eng, text="starting engine…", style="Muted.TLabel",
                                      wraplength=200, justify="left")
        self.engine_label.grid(row=5, column=0, columnspan=2, sticky="w", pady=(6, 0))

    def _build_value_panel(self, side: ttk.Frame) -> None:
        values = ttk.Labelframe(side, text="VALUES", padding=8)
        values.pack(fill="x", pady=(10, 0))
        self.values_label = ttk.Label(values, text="", style="Muted.TLabel", wraplength=200,
                                      justify="left")
        self.values_label.pack(anchor="w")
        self.keypad = ttk.Frame(values)
        self.keypad.pack(anchor="w", pady=(4, 0))
        self.value_buttons: Dict[int, ttk.Button] = {}

    def _build_setup_panel(self, frame: ttk.Frame) -> None:
        """The setup mode's controls, shown instead of the moves in that mode: fill as,
        scores, the player to move."""
        self.setup_panel = ttk.Labelframe(frame, text="SET UP", padding=8)
        ttk.Label(self.setup_panel, text="A typed value is").pack(anchor="w")
        fills = ttk.Frame(self.setup_panel)
        fills.pack(anchor="w")
        self.fill_var = tk.StringVar(value="Given")
        for k, choice in enumerate(("Given", "Player 1", "Player 2", "Taboo")):
            ttk.Radiobutton(fills, text=choice, value=choice, variable=self.fill_var,
                            command=self.redraw).grid(row=k // 2, column=k % 2, sticky="w",
                                                      padx=(0, 8))
        scores = ttk.Frame(self.setup_panel)
        scores.pack(anchor="w", pady=(4, 0))
        ttk.Label(scores, text="Scores").pack(side="left")
        self.score_vars = [tk.StringVar(value="0"), tk.StringVar(value="0")]
        for var in self.score_vars:
            ttk.Spinbox(scores, from_=0, to=999, textvariable=var, width=4).pack(side="left",
                                                                                 padx=(6, 0))
        turn = ttk.Frame(self.setup_panel)
        turn.pack(anchor="w", pady=(2, 0))
        ttk.Label(turn, text="To move").pack(side="left")
        self.turn_var = tk.IntVar(value=1)
        for player in (1, 2):
            ttk.Radiobutton(turn, text=str(player), value=player, variable=self.turn_var,
                            command=self._setup_turn).pack(side="left", padx=(6, 0))
        buttons = ttk.Frame(self.setup_panel)
        buttons.pack(fill="x", pady=(6, 0))
        ttk.Button(buttons, text="Clear", command=self._setup_clear).pack(side="left")
        ttk.Button(buttons, text="Cancel", command=self._setup_cancel).pack(side="right")
        ttk.Button(self.setup_panel, text="Done", style="Accent.TButton",
                   command=self.finish_setup).pack(fill="x", pady=(4, 0))

    def _build_lists(self, frame: ttk.Frame) -> None:
        self.rated_panel = RatedPanel(frame, self.settings, self.start_rated, width=270)
        self.rated_panel.pack(side="bottom", fill="x", pady=(10, 0))
        self._build_setup_panel(frame)
        self.moves_frame = moves = ttk.Labelframe(frame, text="MOVES", padding=6)
        moves.pack(fill="both", expand=True)
        self.moves_list = tk.Listbox(moves, width=40, height=16, activestyle="none",
                                     font=("DejaVu Sans Mono", 9), highlightthickness=0,
                                     relief="flat")
        scroll = ttk.Scrollbar(moves, command=self.moves_list.yview)
        self.moves_list.configure(yscrollcommand=scroll.set)
        self.moves_list.pack(side="left", fill="both", expand=True)
        scroll.pack(side="right", fill="y")
        self.taboo_frame = taboo = ttk.Labelframe(frame, text="TABOO MOVES", padding=6)
        taboo.pack(fill="x", pady=(10, 0))
        ttk.Label(taboo, style="Muted.TLabel", wraplength=290, justify="left", text=(
            "A move that breaks no rule but leaves the sudoku without a solution is taboo: "
            "nothing is placed, no points, the turn passes (a pass). A listed taboo move may "
            "not be played again.")).pack(anchor="w")
        self.taboo_list = tk.Listbox(taboo, width=40, height=6, activestyle="none",
                                     font=("DejaVu Sans Mono", 9), fg=TABOO,
                                     highlightthickness=0, relief="flat")
        self.taboo_list.pack(fill="x", pady=(4, 0))

    def _bind_keys(self) -> None:
        self.root.bind("<Key>", self._key)
        self.root.bind("<Control-h>", lambda e: self.ask_hint())
        self.root.bind("<Control-z>", lambda e: self.undo())
        self.root.bind("<Control-n>", lambda e: self.new_game_from_panel())
        self.root.bind("<Control-e>", lambda e: self.toggle_setup())
        self.root.bind("<Escape>", lambda e: self._select(None))

    def _choose_board(self) -> None:
        path = filedialog.askopenfilename(title="Board file", filetypes=[("Boards", "*.txt"),
                                                                         ("All files", "*")])
        if path:
            self.board_var.set(path)

    # ------------------------------------------------------------------ options
    def _kind(self, player: int) -> str:
        return self.kind_vars[player].get()

    def _engine_to_move(self) -> bool:
        return self._playing() and self._kind(self.state.turn) == "Engine"

    def _human_to_move(self) -> bool:
        return self._playing() and self._kind(self.state.turn) == "Human"

    def _playing(self) -> bool:
        """The game goes on (not over, not being set up)."""
        return not self.state.over and self.setting_up is None

    def _movetime(self) -> int:
        if self.fast and self.args.movetime is not None:
            return self.args.movetime
        return self.think_choices.get(self.think_var.get(), 250)

    def _players_changed(self) -> None:
        if self.pending and self.pending[1] == "search" and not self._engine_to_move():
            self._cancel()  # the engine's side was handed to a person
        if self._engine_to_move() and self.pending is None:
            self._schedule_engine(0)
        self.redraw()

    # ------------------------------------------------------------------ engine requests
    def _send(self, kind: str, *args: Any, purpose: Optional[str] = None) -> None:
        """Sends one request; its answer is the only one taken until the next request."""
        self.token += 1
        self.pending = (self.token, purpose or kind)
        self.worker.request(kind, self.token, *args)
        self._update_controls()

    def _cancel(self) -> None:
        """Forgets the pending request (a running search is stopped)."""
        if self.turn_after is not None:
            self.root.after_cancel(self.turn_after)
            self.turn_after = None
        if self.pending is not None:
            self.worker.cancel(self.pending[0])
            self.pending = None

    def _answer(self, msg: tuple) -> None:
        kind = msg[0]
        if kind == "level":
            self.engine_label.configure(text=f"engine level {msg[1]}")
            if self.fast and self.args.level:
                print(f"level {msg[1]}", flush=True)
        elif kind == "ready":
            self.engine_ready = True
            self.engine_label.configure(text=f"{msg[1]} ready")
            self._update_controls()
        elif kind in ("failed", "dead"):
            self._engine_lost(msg[1])
        elif self.pending is None or msg[1] != self.pending[0]:
            return  # an answer to a request given up meanwhile
        elif kind == "info":
            self._show_info(msg[2])
        elif kind == "error":
            self._engine_refused(msg[2])
        elif kind == "state":
            purpose = self.pending[1]
            self.pending = None
            if purpose == "setup":
                self._setup_taken()
            self._take_state(msg[2], msg[3], msg[4])
        elif kind == "best":
            self.pending = None
            self._take_best(msg[2], msg[3], msg[4])

    def _engine_lost(self, message: str) -> None:
        self.engine_ready = False
        self.pending = None
        self.engine_label.configure(text=message)
        self._fail(f"Engine unavailable: {message}")

    def _engine_refused(self, message: str) -> None:
        what = self.pending[1] if self.pending else "request"
        self.pending = None
        self._fail(f"The engine refused the {what}: {message}")
        if what == "newgame" and not self.fast:
            self._restart_empty(message)

    def _fail(self, text: str) -> None:
        """Shows what went wrong; a headless run ends there (exit code 1)."""
        self._say(text, ERROR)
        self._update_controls()
        if self.fast:
            print(text, file=sys.stderr)
            self.close(code=1)

    def _restart_empty(self, message: str) -> None:
        """After a refused start position: the same game from the empty grid."""
        self.board_var.set("")
        self.state = SudokuState.new(self.state.box, self.mode_var.get())
        self.start_taboo = []
        self._say(f"The engine refused the board ({message}); the game starts empty.", ERROR)
        self._send("newgame", self.state.box, self.state.mode, self._seed(), None)
        self.redraw()

    def _show_info(self, info: Dict[str, Any]) -> None:
        score = info.get("score", 0)
        score = score / 100 if isinstance(score, int) else 0
        pv = " ".join(str(m) for m in info.get("pv", [])[:4])
        self.engine_label.configure(
            text=f"depth {info.get('depth', '?')} · eval {score:+.2f}\n"
                 f"{info.get('nps', 0) / 1e6:.2f} M nodes/s · pv {pv}")

    # ------------------------------------------------------------------ game flow
    def new_game_from_panel(self) -> bool:
        """Starts a game with the panel's options (a board file sets the box); False (with
        the reason shown) if they do not make one. A rated game or a setup under way ends."""
        self._cancel()
        mode = self.mode_var.get()
        try:
            seed = self._seed()
            start = self._start_position(mode)
        except (OSError, ValueError, KeyError, IndexError) as e:
            self._say(f"Cannot start that game: {e}", ERROR)
            return False
        note = self._leave_rated()
        self._leave_setup()
        self.state = start or SudokuState.new(self.box_var.get(), mode)
        self.box_var.set(self.state.box)
        self.legal = Legal([], [])
        self.log, self.history = [], []
        self.start_taboo = list(self.state.taboo)
        self.given_owners = {}
        self.selected, self.hints = None, []
        self.flash, self.popups = {}, []
        self._resize()
        source = f" from {Path(self.board_var.get()).name}" if start else ""
        self._say(f"{note}New game: {self.state.box} boxes, {mode} mode{source}.")
        self._send("newgame", self.state.box, mode, seed, start)
        self.redraw()
        return True

    def _seed(self) -> int:
        return int(self.seed_var.get().strip() or "1")

    def _start_position(self, mode: str) -> Optional[SudokuState]:
        path = self.board_var.get().strip()
        if path:
            return read_board_file(path, mode)
        parse_box(self.box_var.get())  # a bad box is refused here, not by the engine
        return None

    def _take_state(self, state: SudokuState, legal: Legal, outcome: Optional[Outcome]) -> None:
        message, color = self.status.cget("text"), TEXT  # set when the request was sent
        if outcome is not None:
            self.history.append(self.state)
            self.log.append(outcome)
            self._celebrate(outcome)
            message, color = self._outcome_text(outcome), COLORS[outcome.player]
        self.state, self.legal = state, legal
        self.hints = []
        if self.selected and state.get(*self.selected):
            self.selected = None
        if self._human_to_move():
            message += (f"\nPlayer {state.turn}: your move (click a square, then type or pick "
                        "a value).")
        self._say(message, color)
        self.redraw()
        self._next_turn()

    def _next_turn(self) -> None:
        if self.state.over:
            self._game_over()
        elif self._engine_to_move():
            both = self._kind(1) == self._kind(2) == "Engine"
            self._schedule_engine(0 if self.fast or not both else WATCH_DELAY_MS)

    def _schedule_engine(self, delay: int) -> None:
        if self.turn_after is not None:
            self.root.after_cancel(self.turn_after)
        self.turn_after = self.root.after(max(1, delay), self._engine_turn)

    def _engine_turn(self) -> None:
        self.turn_after = None
        if self.engine_ready and self.pending is None and self._engine_to_move():
            self._send("search", self._movetime(), "play", self.level, 1, purpose="search")
            self.redraw()

    def _take_best(self, purpose: str, result: SearchResult,
                   lines: List[Tuple[Optional[int], List[str]]]) -> None:
        if result.move is None:  # no legal move, says the engine, yet the game goes on
            self._fail("The engine answered 'bestmove none' before the end of the game.")
            return
        if result.info:
            self._show_info(result.info)
        if purpose == "hint":
            n = self.state.size
            self.hints = [(SudokuMove.parse(moves[0], n), score) for score, moves in lines]
            self._say(self._hint_text(), HINT)
            self.redraw()
        elif self._engine_to_move():
            self._send("move", result.move)

    def _game_over(self) -> None:
        a, b = self.state.scores
        winner = self.state.winner
        result = "a draw" if not winner else f"player {winner} wins"
        last = self._outcome_text(self.log[-1]) + "\n" if self.log else ""
        self._say(f"{last}Game over: {result}, {a} - {b}.{self._finish_rated()}",
                  COLORS.get(winner or 0, TEXT))
        self._update_controls()
        if self.fast:
            taboo = sum(1 for o in self.log if o.taboo)
            print(f"game {self.state.box} {self.state.mode}: {len(self.log)} moves, "
                  f"{taboo} taboo, {result}")
            print(f"score {a} - {b}")
            sys.stdout.flush()
            self.close(code=0)

    # ------------------------------------------------------------------ human moves
    def _click(self, e: tk.Event) -> None:
        cell = self._cell_at(e.x, e.y)
        self._select(cell)

    def _select(self, cell: Optional[Tuple[int, int]]) -> None:
        self.selected = cell
        self._clear_typed()
        self.redraw()

    def _key(self, e: tk.Event) -> None:
        if isinstance(e.widget, (tk.Entry, ttk.Entry, ttk.Combobox)) or e.state & 0x4:
            return  # typing in the panel, or a Ctrl shortcut
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if e.keysym in moves:
            self._move_selection(*moves[e.keysym])
        elif e.keysym in ("Delete", "BackSpace") and self.setting_up is not None:
            self._setup_value(0)
        elif e.keysym in ("Return", "KP_Enter", "space"):
            self._commit_typed()
        elif e.char and e.char.isdigit():
            self._type_digit(e.char)
        elif e.char and e.char.isalpha() and self.state.size > 9:
            value = ord(e.char.upper()) - ord("A") + 10
            if value <= self.state.size:
                self._enter_value(value)

    def _move_selection(self, dr: int, dc: int) -> None:
        n = self.state.size
        row, col = self.selected or (0, 0)
        self._select(((row + dr) % n, (col + dc) % n))

    def _type_digit(self, digit: str) -> None:
        """Digits build a value; it is played once no longer value can start with them."""
        self.typed += digit
        value = int(self.typed)
        if value == 0:
            self._clear_typed()
        elif value * 10 > self.state.size:
            self._commit_typed()
        else:
            if self.typed_after is not None:
                self.root.after_cancel(self.typed_after)
            self.typed_after = self.root.after(900, self._commit_typed)
            self.values_label.configure(text=f"typed {self.typed}… (Enter to play)")

    def _commit_typed(self) -> None:
        text = self.typed
        self._clear_typed()
        if text:
            self._enter_value(int(text))

    def _clear_typed(self) -> None:
        self.typed = ""
        if self.typed_after is not None:
            self.root.after_cancel(self.typed_after)
            self.typed_after = None

    def _enter_value(self, value: int) -> None:
        if self.selected is None:
            self._say("Select a square first, then type its value.")
        elif self.setting_up is not None:
            self._setup_value(value)
        else:
            self.try_move(SudokuMove(self.selected[0], self.selected[1], value))

    def try_move(self, move: SudokuMove) -> None:
        """A human's move: explained if the rules refuse it, else sent to the engine to judge."""
        reason = self._why_not(move)
        if reason:
            self._say(reason, ERROR)
            return
        if self.pending is not None:  # a hint search: give it up
            self._cancel()
        self.hints = []
        self._send("move", move)

    def _why_not(self, move: SudokuMove) -> Optional[str]:
        """Why the rules refuse ``move`` for the player to move, None if they allow it."""
        state, n = self.state, self.state.size
        square = square_name(move.row, move.col, n)
        if state.over:
            return "The game is over: start a new one."
        if not self._human_to_move():
            return f"Player {state.turn} is the engine: wait for its move."
        if self.pending is not None and self.pending[1] != "hint":
            return "Wait: the engine is busy."
        if not 1 <= move.value <= n:
            return f"Values go from 1 to {n}."
        if state.get(move.row, move.col):
            return f"{square} is already filled."
        if move.row * n + move.col not in state.playable(state.turn):
            return (f"{square} is outside player {state.turn}'s territory: play a shaded square "
                    "(your starting squares, or next to a square you filled).")
        clash = [name for name, cells in state.regions(move.row, move.col).items()
                 if move.value in (state.cells[c] for c in cells)]
        if clash:
            return f"{move.value} is already in {' and '.join(clash)}."
        if move in state.taboo:
            return f"{move.label(n)} is a known taboo move: it may not be played again."
        return None

    def pass_turn(self) -> None:
        """Passes on purpose with a move the engine's solver knows would become taboo."""
        if self.legal.passes:
            self.try_move(self.legal.passes[0])

    def ask_hint(self) -> None:
        """The engine's best moves for the human to move, drawn on the board."""
        if self.rated is not None:
            self._say("No hints in a rated game.", ERROR)
        elif self._human_to_move() and self.engine_ready and self.pending is None:
            self._send("search", self._movetime(), "hint", self.level, HINT_LINES,
                       purpose="hint")
            self._say("The engine looks for a hint…", HINT)

    def undo(self) -> None:
        """Takes back the last human move (and the engine's answers), or the last move."""
        if self.rated is not None:
            self._say("No undo in a rated game.", ERROR)
            return
        if not self.log or (self.pending and self.pending[1] not in ("hint", "search")):
            return
        humans = [i for i, o in enumerate(self.log) if self._kind(o.player) == "Human"]
        back = humans[-1] if humans else len(self.log) - 1
        self._cancel()
        state = self.history[back]
        del self.log[back:], self.history[back:]
        self.selected, self.hints = None, []
        self._say(f"Undone: back to move {back + 1}.")
        self._send("set", state)

    # ------------------------------------------------------------------ set up a position
    def toggle_setup(self) -> None:
        """Enters setup mode (the game stops; the grid is edited in place), or leaves it with
        Done."""
        if self.setting_up is not None:
            self.finish_setup()
            return
        if self.rated is not None:
            self._say("A rated game cannot be set up.", ERROR)
            return
        self._cancel()
        state = self.state
        self.setting_up = state
        self.state = dataclasses.replace(state, cells=list(state.cells),
                                         owners=list(state.owners), taboo=list(state.taboo),
                                         over=False, winner=None)
        self.hints = []
        for var, score in zip(self.score_vars, state.scores):
            var.set(str(score))
        self.turn_var.set(state.turn)
        self.moves_frame.pack_forget()
        self.setup_panel.pack(fill="x", before=self.taboo_frame)
        self._say("Set up: click a square and type its value (or pick it below); Delete "
                  "empties it. Done hands the position to the engine.")
        self.redraw()

    def _setup_value(self, value: int) -> None:
        """Puts ``value`` (0: empty) on the selected square as chosen in the panel, or toggles
        it as a taboo move there."""
        assert self.selected is not None
        row, col = self.selected
        state, cell = self.state, self.selected[0] * self.state.size + self.selected[1]
        fill = self.fill_var.get()
        square = square_name(row, col, state.size)
        if fill == "Taboo" and value:
            move = SudokuMove(row, col, value)
            if state.get(row, col):
                self._say(f"{square} is filled: a taboo move is on an empty square.", ERROR)
            elif move in state.taboo:
                state.taboo.remove(move)
            else:
                state.taboo.append(move)
            self.redraw()
            return
        clash = [name for name, cells in state.regions(row, col).items()
                 if value and any(state.cells[c] == value for c in cells if c != cell)]
        if clash:
            self._say(f"{value} is already in {' and '.join(clash)}.", ERROR)
            return
        owner = {"Player 1": 1, "Player 2": 2}.get(fill, 0) if value else 0
        state.cells[cell] = value
        state.owners[cell] = owner if state.territory else 0
        self.given_owners.pop(cell, None)
        if owner:
            self.given_owners[cell] = owner
        state.taboo = [mv for mv in state.taboo if (mv.row, mv.col) != (row, col)]
        self.redraw()

    def _setup_turn(self) -> None:
        self.state.turn = self.turn_var.get()
        self.redraw()

    def _setup_clear(self) -> None:
        size = self.state.size * self.state.size
        self.state.cells, self.state.owners, self.state.taboo = [0] * size, [0] * size, []
        self.given_owners = {}
        self.redraw()

    def _setup_cancel(self) -> None:
        """Leaves setup mode with the position it started from."""
        if self.setting_up is not None:
            self.state = self.setting_up
            self._leave_setup()
            self._say("Setup cancelled.")
            self.redraw()
            self._next_turn()

    def finish_setup(self) -> None:
        """Sends the position to the engine, which checks it; play goes on from there."""
        try:
            scores = [int(var.get()) for var in self.score_vars]
            if min(scores) < 0:
                raise ValueError
        except ValueError:
            self._say("Scores are whole numbers from 0.", ERROR)
            return
        self.state.scores = (scores[0], scores[1])
        self.state.turn = self.turn_var.get()
        self._send("set", self.state, purpose="setup")

    def _setup_taken(self) -> None:
        """The engine took the set-up position: a new start, without moves to undo."""
        self._leave_setup()
        self.log, self.history = [], []
        self.start_taboo = list(self.state.taboo)
        self._say("Position set up.")

    def _leave_setup(self) -> None:
        if self.setting_up is not None:
            self.setting_up = None
            self.setup_panel.pack_forget()
            self.moves_frame.pack(fill="both", expand=True, before=self.taboo_frame)

    # ------------------------------------------------------------------ rated games
    def _variant(self) -> str:
        """What a rating is kept for: the box and the mode, ``3x3 classic``."""
        return f"{self.state.box} {self.state.mode}"

    def start_rated(self) -> None:
        """Starts a rated game on the empty grid of the panel's box and mode at the chosen
        level: the person plays player 1 or 2 in turn (by the number of rated games of that
        box and mode), the engine the other."""
        self.board_var.set("")
        variant = f"{self.box_var.get().strip()} {self.mode_var.get()}"
        player = len(rated_games(self.settings, variant)) % 2 + 1
        self.kind_vars[player].set("Human")
        self.kind_vars[3 - player].set("Engine")
        if self.new_game_from_panel():
            self.rated = (self.level, player)
            self._say(f"Rated game at level {self.level}: you are player {player}. No hints, "
                      "no undo.")
            self.redraw()

    def _leave_rated(self) -> str:
        """Gives up a rated game under way (not counted); a note saying so, or ''."""
        if self.rated is None or self.state.over:
            self.rated = None
            return ""
        self.rated = None
        return "The rated game was left unfinished: not counted.\n"

    def _finish_rated(self) -> str:
        """The game is over: a rated one is stored; a note saying how it went, or ''."""
        if self.rated is None:
            return ""
        level, player = self.rated
        self.rated = None
        scores = self.state.scores
        game = RatedGame.finished(level, scores[player - 1], [scores[2 - player]],
                                  self._variant())
        self.rated_panel.record(game)
        return f"\nRated game at level {level}: a {game.result}."

    def _level_chosen(self, level: int) -> None:
        """The level chooser changed: the engine gets it before its next search."""
        self.level = level
        self._update_controls()

    # ------------------------------------------------------------------ texts
    def _outcome_text(self, outcome: Outcome) -> str:
        n = self.state.size
        who = f"Player {outcome.player} ({self._kind(outcome.player).lower()})"
        label = outcome.move.label(n)
        if outcome.taboo:
            text = (f"{who} played {label}: taboo. With it the sudoku would have no solution, "
                    f"so nothing was placed and the turn passed.")
        elif outcome.regions:
            text = f"{who} played {label} and completed {', '.join(outcome.regions)}: " \
                   f"+{outcome.points}."
        else:
            text = f"{who} played {label}."
        if outcome.skipped:
            text += f" Player {3 - outcome.player} has no square left to play and is skipped."
        return text

    def _hint_text(self) -> str:
        """The hint's moves with what each scores now and the expected final margin."""
        parts = []
        for rank, (move, score) in enumerate(self.hints, 1):
            text = f"{rank}. {move.label(self.state.size)}"
            if self.legal.is_pass(move):
                text += " pass (would be taboo)"
            elif self.state.completes(move.row, move.col):
                text += f" +{self.state.points_for(move.row, move.col)} now"
            if score is not None:
                text += f", margin {score / 100:+.2f}"
            parts.append(text)
        return "Hint (expected final margin in points): " + " · ".join(parts)

    def _log_line(self, k: int, outcome: Outcome) -> str:
        n = self.state.size
        text = f"{k + 1:3}. P{outcome.player} {outcome.move.label(n):<8}"
        if outcome.taboo:
            text += " taboo: a pass"
        elif outcome.regions:
            text += f" +{outcome.points} {', '.join(outcome.regions)}"
        if outcome.skipped:
            text += f" (P{3 - outcome.player} skipped)"
        return text

    def _say(self, text: str, color: str = TEXT) -> None:
        if not self.closed:
            self.status.configure(text=text, fg=color)

    # ------------------------------------------------------------------ drawing
    def _resize(self) -> None:
        self.cell = cell_size(self.state.size)
        board = self.cell * self.state.size
        width = max(board + GUTTER + 2 * MARGIN, 540)
        self.canvas.configure(width=width, height=HEADER + GUTTER + board + MARGIN)
        self.status.configure(wraplength=width)
        self._build_keypad()

    def _origin(self) -> Tuple[int, int]:
        board = self.cell * self.state.size
        width = int(self.canvas.cget("width"))
        return (width - board + GUTTER) // 2, HEADER + GUTTER

    def _cell_at(self, x: float, y: float) -> Optional[Tuple[int, int]]:
        x0, y0 = self._origin()
        row, col = int((y - y0) // self.cell), int((x - x0) // self.cell)
        n = self.state.size
        return (row, col) if 0 <= row < n and 0 <= col < n and x >= x0 and y >= y0 else None

    def redraw(self) -> None:
        """Draws the whole window from the state."""
        if self.closed:
            return
        self.canvas.delete("all")
        self._draw_header()
        self._draw_board()
        self._draw_marks()
        if self.state.over:
            self._draw_game_over()
        self._refresh_keypad()
        self._refresh_lists()
        self._update_controls()

    def _draw_header(self) -> None:
        c = self.canvas
        width = int(c.cget("width"))
        passes = {p: sum(1 for o in self.log if o.taboo and o.player == p) for p in (1, 2)}
        for player, x0 in ((1, MARGIN), (2, width - MARGIN - 170)):
            to_move = not self.state.over and self.state.turn == player
            c.create_rectangle(x0, 8, x0 + 170, HEADER - 10, fill="white",
                               outline=COLORS[player], width=3 if to_move else 1)
            c.create_text(x0 + 10, 20, anchor="w", fill=COLORS[player],
                          font=("DejaVu Sans", 9, "bold"),
                          text=f"PLAYER {player} · {self._kind(player).upper()}")
            c.create_text(x0 + 10, 48, anchor="w", fill=TEXT, font=("DejaVu Sans", 24, "bold"),
                          text=str(self.state.scores[player - 1]))
            c.create_text(x0 + 160, 70, anchor="e", fill=MUTED, font=("DejaVu Sans", 9),
                          text=f"passes {passes[player]}")
        title = f"{self.state.box} · {self.state.mode.upper()} · MOVE {len(self.log) + 1}"
        c.create_text(width / 2, 26, fill=MUTED, font=("DejaVu Sans", 9, "bold"), text=title)
        c.create_text(width / 2, 54, fill=TEXT, font=("DejaVu Sans", 12, "bold"),
                      text=self._turn_text())

    def _turn_text(self) -> str:
        arrow = "◀" if self.state.turn == 1 else "▶"
        if self.setting_up is not None:
            return f"{arrow} setting up"
        if self.state.over:
            return "game over"
        thinking = self.pending is not None and self.pending[1] == "search"
        suffix = " thinks…" if thinking else " to move"
        return f"{arrow} player {self.state.turn}{suffix}"

    def _draw_board(self) -> None:
        c, n, size = self.canvas, self.state.size, self.cell
        x0, y0 = self._origin()
        playable = {p: self.state.playable(p) for p in (1, 2)}
        filled_by = self._filled_by()
        owners = [o or filled_by.get(cell, 0) for cell, o in enumerate(self.state.owners)]
        for row in range(n):
            c.create_text(x0 - 12, y0 + row * size + size / 2, text=str(n - row), fill=MUTED,
                          font=("DejaVu Sans", 8))
            for col in range(n):
                self._draw_cell(row, col, x0 + col * size, y0 + row * size, playable, owners)
        for col in range(n):
            c.create_text(x0 + col * size + size / 2, y0 - 12, text=chr(ord("a") + col),
                          fill=MUTED, font=("DejaVu Sans", 8))
        for k in range(n + 1):
            thick = k % self.state.n == 0, k % self.state.m == 0
            c.create_line(x0 + k * size, y0, x0 + k * size, y0 + n * size,
                          fill=BOX_LINE if thick[0] else GRID, width=3 if thick[0] else 1)
            c.create_line(x0, y0 + k * size, x0 + n * size, y0 + k * size,
                          fill=BOX_LINE if thick[1] else GRID, width=3 if thick[1] else 1)

    def _draw_cell(self, row: int, col: int, x: int, y: int,
                   playable: Dict[int, frozenset], owners: List[int]) -> None:
        """One square: shaded by who may fill it (or who filled it), with its value."""
        c, size, state = self.canvas, self.cell, self.state
        cell = row * state.size + col
        value = state.get(row, col)
        owner = owners[cell]
        if cell in self.flash:
            fill = GOLD_TINT
        elif value:
            fill = EMPTY  # the value's colour tells who filled it
        else:
            mask = (cell in playable[1]) + 2 * (cell in playable[2])
            fill = TINTS[mask] if mask and state.territory else EMPTY if mask else BLOCKED
        c.create_rectangle(x, y, x + size, y + size, fill=fill, outline="")
        if value:
            c.create_text(x + size / 2, y + size / 2, text=str(value),
                          fill=COLORS.get(owner, TEXT),
                          font=("DejaVu Sans", -int(size * 0.5), "bold" if owner else "normal"))
        else:
            self._draw_empty_marks(row, col, x, y)

    def _draw_empty_marks(self, row: int, col: int, x: int, y: int) -> None:
        """Starting-square corners and the cell's taboo values."""
        c, size, state = self.canvas, self.cell, self.state
        cell = row * state.size + col
        if state.territory and state.allowed:
            if cell in state.allowed[0]:
                c.create_polygon(x + 1, y + 1, x + 10, y + 1, x + 1, y + 10, fill=COLORS[1])
            if cell in state.allowed[1]:
                c.create_polygon(x + size - 1, y + size - 1, x + size - 10, y + size - 1,
                                 x + size - 1, y + size - 10, fill=COLORS[2])
        taboo = [mv.value for mv in state.taboo if (mv.row, mv.col) == (row, col)]
        if taboo and size >= 30:
            c.create_text(x + size / 2, y + size - 8, text="✗" + " ".join(map(str, taboo)),
                          fill=TABOO, font=("DejaVu Sans", -max(8, size // 6)))

    def _filled_by(self) -> Dict[int, int]:
        """Who filled each cell in this game (classic mode has no owners in the state)."""
        n = self.state.size
        played = {o.move.row * n + o.move.col: o.player for o in self.log if not o.taboo}
        return {**self.given_owners, **played}

    def _draw_marks(self) -> None:
        """The last move, the hint and the selection."""
        c, size = self.canvas, self.cell
        x0, y0 = self._origin()
        if self.log:
            last = self.log[-1]
            x, y = x0 + last.move.col * size, y0 + last.move.row * size
            c.create_rectangle(x + 3, y + 3, x + size - 3, y + size - 3,
                               outline=COLORS[last.player], width=2,
                               dash=(4, 2) if last.taboo else None)
        self._draw_hints()
        if self.selected is not None:
            x, y = x0 + self.selected[1] * size, y0 + self.selected[0] * size
            c.create_rectangle(x + 1, y + 1, x + size - 1, y + size - 1, outline=SELECT, width=3)

    def _draw_hints(self) -> None:
        """The hint's moves: framed in their ranks' colours (dashed: a pass), the value in
        the square, the rank in a corner; a second move on a square takes the next corner and
        shows its value beside its number."""
        c, size = self.canvas, self.cell
        x0, y0 = self._origin()
        on_square: Dict[Tuple[int, int], int] = {}
        for rank, (move, _) in enumerate(self.hints, 1):
            x, y = x0 + move.col * size, y0 + move.row * size
            k = on_square.get((move.row, move.col), 0)
            on_square[(move.row, move.col)] = k + 1
            inset = 2 + 3 * k
            color = RANK_COLORS[rank - 1]
            c.create_rectangle(x + inset, y + inset, x + size - inset, y + size - inset,
                               outline=color, width=3,
                               dash=(6, 3) if self.legal.is_pass(move) else None)
            r = max(6, size * 0.16)
            bx = x + r + 3 if k % 2 == 0 else x + size - r - 3
            by = y + r + 3 if k < 2 else y + size - r - 3
            badge(c, bx, by, rank, radius=r)
            if k == 0:
                c.create_text(x + size / 2, y + size / 2 + r / 2, text=str(move.value),
                              fill=color, font=("DejaVu Sans", -int(size * 0.42), "italic"))
            else:
                c.create_text(bx + (r + 2) * (1 if k % 2 == 0 else -1), by, text=str(move.value),
                              anchor="w" if k % 2 == 0 else "e", fill=color,
                              font=("DejaVu Sans", -int(r * 1.6), "bold italic"))

    def _draw_game_over(self) -> None:
        c = self.canvas
        x0, y0 = self._origin()
        board = self.cell * self.state.size
        cx, cy = x0 + board / 2, y0 + board / 2
        winner = self.state.winner
        title = "Draw" if not winner else f"Player {winner} wins"
        c.create_rectangle(cx - 120, cy - 50, cx + 120, cy + 50, fill="white",
                           outline=COLORS.get(winner or 0, BOX_LINE), width=3)
        c.create_text(cx, cy - 16, text=title, fill=COLORS.get(winner or 0, TEXT),
                      font=("DejaVu Sans", 18, "bold"))
        a, b = self.state.scores
        c.create_text(cx, cy + 18, text=f"{a} - {b}", fill=TEXT, font=("DejaVu Sans", 14))

    def _build_keypad(self) -> None:
        for button in self.value_buttons.values():
            button.destroy()
        self.value_buttons = {}
        for v in range(1, self.state.size + 1):
            button = ttk.Button(self.keypad, text=str(v), style="Value.TButton",
                                command=lambda v=v: self._enter_value(v))
            button.grid(row=(v - 1) // self.state.n, column=(v - 1) % self.state.n, padx=1, pady=1)
            self.value_buttons[v] = button

    def _refresh_keypad(self) -> None:
        if self.setting_up is not None:
            square = square_name(*self.selected, self.state.size) if self.selected else None
            text = (f"{square}: type or pick its value ({self.fill_var.get().lower()}); "
                    "Delete empties it." if square else "Select a square to set it up.")
            for button in self.value_buttons.values():
                button.state(["!disabled"] if square else ["disabled"])
            self.values_label.configure(text=text)
            return
        if self.selected is None:
            candidates, text = [], "Select a square to see its candidates."
        else:
            row, col = self.selected
            square = square_name(row, col, self.state.size)
            candidates = self.state.candidates(row, col)
            cell = row * self.state.size + col
            if self.state.get(row, col):
                text = f"{square} is filled."
            elif cell not in self.state.playable(self.state.turn):
                text = f"{square}: not playable for player {self.state.turn}."
                candidates = []
            else:
                gain = self.state.points_for(row, col)
                text = f"{square}: candidates {' '.join(map(str, candidates)) or 'none'}" + \
                       (f" (completes for +{gain})" if gain else "")
        usable = self._human_to_move() and (self.pending is None or self.pending[1] == "hint")
        for v, button in self.value_buttons.items():
            button.state(["!disabled"] if usable and v in candidates else ["disabled"])
        self.values_label.configure(text=text)

    def _refresh_lists(self) -> None:
        self.moves_list.delete(0, "end")
        for k, outcome in enumerate(self.log):
            self.moves_list.insert("end", self._log_line(k, outcome))
            color = TABOO if outcome.taboo else COLORS[outcome.player]
            self.moves_list.itemconfigure("end", foreground=color)
        self.moves_list.see("end")
        self.taboo_list.delete(0, "end")
        n = self.state.size
        when = {o.move: (k, o.player) for k, o in enumerate(self.log) if o.taboo}
        for move in self.state.taboo:
            if move in when:
                k, player = when[move]
                origin = f"player {player}, move {k + 1}"
            else:
                origin = "given at the start" if move in self.start_taboo else "earlier"
            self.taboo_list.insert("end", f"{move.label(n):<8} {origin}")

    def _update_controls(self) -> None:
        if self.closed:
            return
        human = self._human_to_move() and self.engine_ready
        idle = self.pending is None
        rated = self.rated is not None
        self.hint_button.state(["!disabled"] if human and idle and not rated else ["disabled"])
        for widget in [self.level_chooser, *self.player_boxes]:
            widget.state(["disabled"] if rated else ["!disabled"])
        self.setup_button.state(["disabled"] if rated else ["!disabled"])
        self.setup_button.configure(text="Done setting up  (Ctrl+E)" if self.setting_up
                                    else "Set up position  (Ctrl+E)")
        self.rated_panel.show(self._variant(), self._variant(), self.level,
                              self.rated[0] if rated else None)
        self.pass_button.state(["!disabled"] if human and self.legal.passes
                               and (idle or self.pending[1] == "hint") else ["disabled"])
        self.undo_button.state(["!disabled"] if self.log and not rated else ["disabled"])
        self.hint_button.configure(text="Thinking…" if self.pending and self.pending[1] == "hint"
                                   else "Hint  (Ctrl+H)")

    # ------------------------------------------------------------------ effects
    def _celebrate(self, outcome: Outcome) -> None:
        """Flashes the completed regions and floats the points over the square."""
        if self.fast or not outcome.regions:
            return
        now = time.monotonic()
        regions = self.state.regions(outcome.move.row, outcome.move.col)
        for name in outcome.regions:
            for cell in regions[name]:
                self.flash[cell] = now
        x0, y0 = self._origin()
        self.popups.append({"x": x0 + (outcome.move.col + 0.5) * self.cell,
                            "y": y0 + outcome.move.row * self.cell, "start": now,
                            "text": f"+{outcome.points} {' · '.join(outcome.regions)}"})

    def _tick(self) -> None:
        """Ends old flashes and moves the popups; runs every 40 ms."""
        if self.closed:
            return
        now = time.monotonic()
        old = [cell for cell, start in self.flash.items() if now - start > 1.2]
        for cell in old:
            del self.flash[cell]
        if old:
            self.redraw()
        self.canvas.delete("popup")
        self.popups = [p for p in self.popups if now - p["start"] < 1.4]
        for p in self.popups:
            t = (now - p["start"]) / 1.4
            label = self.canvas.create_text(p["x"], p["y"] - 30 * t, text=p["text"],
                                            fill="#8a5a00", font=("DejaVu Sans", 12, "bold"),
                                            tags="popup")
            x0, y0, x1, y1 = self.canvas.bbox(label)
            pill = self.canvas.create_rectangle(x0 - 6, y0 - 2, x1 + 6, y1 + 2, fill="#fff6da",
                                                outline=GOLD, width=2, tags="popup")
            self.canvas.tag_lower(pill, label)
        self.root.after(40, self._tick)

    # ------------------------------------------------------------------ end
    def close(self, code: int = 0) -> None:
        """Stops the engine and closes the window; ``code`` becomes the exit code."""
        if self.closed:
            return
        self.exit_code = code
        self._cancel()
        self.worker.quit()
        self.closed = True
        self.root.destroy()


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The command line; ``--exit-after-autoplay`` needs ``--autoplay``."""
    ap = argparse.ArgumentParser(description="Competitive Sudoku with the tessera engine")
    ap.add_argument("--engine", default=str(REPO / "target" / "release" / "tessera"),
                    help="engine command (default: target/release/tessera)")
    ap.add_argument("--box", default="3x3", help="box shape MxN: M rows, N columns (default 3x3)")
    ap.add_argument("--mode", default="classic", choices=MODES)
    ap.add_argument("--seed", type=int, default=1, help="seed of random mode's starting squares")
    ap.add_argument("--board", help="start from a course board file (v12 or v14 format)")
    ap.add_argument("--player1", choices=("human", "engine"), default="human")
    ap.add_argument("--player2", choices=("human", "engine"), default="engine")
    ap.add_argument("--movetime", type=int, default=None,
                    help="engine think time per move in ms (default: the Think setting, 250)")
    ap.add_argument("--level", type=int, choices=LEVELS, default=None,
                    help="engine level 1-10 (10 = full strength) for this session "
                         "(default: the one chosen last, kept in ~/.config/tessera)")
    ap.add_argument("--autoplay", action="store_true", help="the engine plays both sides")
    ap.add_argument("--exit-after-autoplay", action="store_true",
                    help="with --autoplay: play fast to the end, print 'score A - B', exit")
    args = ap.parse_args(argv)
    try:
        parse_box(args.box)
    except ValueError as e:
        ap.error(str(e))
    if args.exit_after_autoplay:
        if not args.autoplay:
            ap.error("--exit-after-autoplay needs --autoplay")
        if args.movetime is None:
            args.movetime = 20
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    root = tk.Tk()
    app = CompSudokuApp(root, args)
    root.mainloop()
    return app.exit_code


if __name__ == "__main__":
    sys.exit(main())
