#!/usr/bin/env python3
"""Blockudoku with the tessera engine: play by hand, ask for hints, or watch it play.

    python3 tools/gui/blockudoku.py [--engine PATH] [--seed S] [--pieceset NAME]
                                    [--scoring app|simple|squared] [--movetime MS] [--level N]
                                    [--autoplay N] [--exit-after-autoplay] [--edit-demo]

Drag a piece from the hand onto the board (or click it, then click a square); the shaded cells
show where it would land, gold ones what it would clear. **Hint** asks the engine for its three
best plans for the hand: the best one is drawn on the board (the numbers give the order of the
placements), the others are listed with their evaluations; pick one (or keys 1-3) to draw it.
The level (1 to 10, 10 = full strength) weakens the engine's hints and autoplay; it is kept in
``~/.config/tessera/blockudoku.json`` (``$XDG_CONFIG_HOME``) with the other settings.

**Edit position** (E) sets up any position: click or drag on the board to fill squares (on a
filled one to empty them; right button empties), click a hand slot and then a piece of the set
to put it there (right click empties the slot), type the score; **Hint** then asks the engine
about that hand on that board, and **Done** plays on from there.

Keys: H hint, 1-3 hint line, A autoplay, E edit, N new game, Esc drop the selection. With
``--autoplay N --exit-after-autoplay`` the engine plays N rounds fast, the program prints
``rounds N score S`` and exits (0 if it got there); ``--edit-demo`` paints a position and its
hand in the editor with simulated mouse clicks, asks for a hint, checks every line on the
painted board, prints ``edit-demo board ... lines K hint ...`` and exits (0 if all are legal).
With ``--level N`` these print ``level N`` once the engine took the level.

The engine runs through ``tessera_engine_client`` on a background thread; the Tk thread only polls a
queue (``root.after``), so the window never freezes while the engine thinks.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parents[2]
if (REPO / "tools" / "python" / "tessera_engine_client").is_dir():
    # The client next to this file matches it, even if an older one is installed.
    sys.path.insert(0, str(REPO / "tools" / "python"))

from tessera_engine_client import Limit  # noqa: E402
from tessera_engine_client.background import EngineThread  # noqa: E402
from tessera_engine_client.blockudoku import (  # noqa: E402
    PIECE_SETS,
    REGIONS,
    SCORINGS,
    SIZE,
    Board,
    Piece,
    Step,
    apply_plan,
    can_place_hand,
    deal,
    piece_set,
    points,
    square_to_rc,
)
from tessera_engine_client.settings import LEVELS, Settings  # noqa: E402
from gui_common import HINT_LINES, LevelChooser, hint_lines  # noqa: E402

import tkinter as tk  # noqa: E402
from tkinter import ttk  # noqa: E402

# ---------------------------------------------------------------------------------- look
CELL = 50
MARGIN = 24
HEADER = 78
BOARD_PX = CELL * SIZE
HAND_TOP = HEADER + BOARD_PX + 22
HAND_H = 150
HAND_CELL = 24
CANVAS_W = BOARD_PX + 2 * MARGIN
CANVAS_H = HAND_TOP + HAND_H + 14
BX0, BY0 = MARGIN, HEADER

BG = "#eef1f8"
CELL_LIGHT = "#ffffff"
CELL_BOX = "#e3e9f6"
GRID = "#c8d1e6"
BOX_LINE = "#4a5a7e"
BLOCK = "#3b6fd6"
BLOCK_HI = "#6d95ea"
BLOCK_LO = "#274fa3"
PREVIEW = "#9db7ef"
PREVIEW_BAD = "#f2b3b3"
CLEAR_GOLD = "#f6c445"
CLEAR_GOLD_LO = "#d99a12"
TEXT = "#22304f"
MUTED = "#7482a3"
HINT_COLORS = ["#e4572e", "#17a398", "#8e44ad"]
HINT_TINTS = ["#fbd5c8", "#c6eeea", "#e6d2f0"]
SPEEDS_MS = [1200, 800, 550, 380, 260, 170, 110, 60, 25, 0]  # autoplay delay per speed 1..10
THINK_CHOICES = {"50 ms": 50, "200 ms": 200, "500 ms": 500, "1 s": 1000, "3 s": 3000}
FULL_RED = "#d8383a"
PICK_CELL, PICK_SLOT, PICK_COLS = 8, 46, 5  # the editor's piece set
# --edit-demo: the position painted (rows top first) and the hand picked.
DEMO_ROWS = ["##.......", "###......", "####.....", ".........", "....##...", "....##...",
             "........#", "#......##", "##....###"]
DEMO_HAND = ["###", "##/#.", "#/#/#"]


def block(canvas: tk.Canvas, x: float, y: float, size: float, tags: Any,
          main: str = BLOCK, hi: str = BLOCK_HI, lo: str = BLOCK_LO) -> None:
    """Draws one bevelled block with its top-left corner on (x, y)."""
    b = max(2, size * 0.09)
    canvas.create_rectangle(x + 1, y + 1, x + size - 1, y + size - 1, fill=lo, outline="", tags=tags)
    canvas.create_polygon(
        x + 1, y + 1, x + size - 1, y + 1, x + size - 1 - b, y + b + 1, x + b + 1, y + b + 1,
        x + b + 1, y + size - 1 - b, x + 1, y + size - 1, fill=hi, outline="", tags=tags,
    )
    canvas.create_rectangle(x + b + 1, y + b + 1, x + size - b - 1, y + size - b - 1,
                            fill=main, outline="", tags=tags)


# ---------------------------------------------------------------------------------- engine thread
class EngineWorker(EngineThread):
    """The engine on a background thread (:class:`EngineThread`), with Blockudoku's requests.

    Requests: ("newgame", pieceset, scoring, seed), ("plan", token, board, shapes, score,
    streak, movetime, level, lines), ("quit",). Answers: ("ready", name), ("failed", message),
    ("level", level), ("info", token, info), ("plan", token, plans), ("error", token, message),
    ("dead", message); ``plans`` are up to ``lines`` (score, moves), best first, none if the
    hand cannot be placed.
    """

    def __init__(self, path: str) -> None:
        super().__init__(path, handlers={"newgame": self._new_game,
                                         "plan": self.search_handler(self._plan)})

    def _new_game(self, pieceset: str, scoring: str, seed: int) -> None:
        assert self.engine is not None
        self.engine.configure(Seed=seed)
        self.engine.new_game("blockudoku", pieceset=pieceset, scoring=scoring)
        self.engine.ping()

    def _plan(self, token: int, board: str, shapes: List[str], score: int, streak: bool,
              movetime: int, level: int, lines: int) -> None:
        assert self.engine is not None
        self.set_level(level)
        self.engine.position(board=board, pieces=shapes, score=score, streak=streak)
        result = self.analyse(token, Limit(movetime=movetime), every=0.05,
                              multipv=lines if lines > 1 else None)
        self.answers.put(("info", token, result.info))
        self.answers.put(("plan", token, hint_lines(result.moves, result.lines, whole=True)))


# ---------------------------------------------------------------------------------- the game
@dataclass
class Drag:
    slot: int
    x: float
    y: float
    press_x: float
    press_y: float
    moved: bool = False


class BlockudokuApp:
    def __init__(self, root: tk.Tk, args: argparse.Namespace) -> None:
        self.root = root
        self.args = args
        self.fast = bool(args.exit_after_autoplay or args.edit_demo)
        self.settings = Settings("blockudoku")
        self.level = args.level or self.settings.level
        self.worker = EngineWorker(args.engine)
        self.engine_ready = False
        self.engine_name = ""
        self.token = 0
        self.pending: Optional[Tuple[int, str, List[int]]] = None  # (token, purpose, hand slots)
        self.hint: List[Tuple[int, int, int]] = []  # the plan drawn: (hand slot, row, col)
        self.hints: List[Tuple[Optional[int], List[Tuple[int, int, int]]]] = []  # (score, plan)
        self.editing = False
        self.edit_slot = 0              # the hand slot the piece picker fills
        self.paint: Optional[bool] = None  # while the mouse paints: fill (True) or empty
        self.demo_step = 0              # --edit-demo: 1 once the position is set up
        self.auto_moves: List[Tuple[int, int, int]] = []
        self.autoplay = False
        self.autoplay_left: Optional[int] = None
        self.animating = 0
        self.drag: Optional[Drag] = None
        self.selected: Optional[int] = None
        self.mouse = (0.0, 0.0)
        self.best = 0
        self.popups: List[Dict[str, Any]] = []
        self.busy_after: Optional[str] = None
        self.exit_code = 0
        self.closed = False

        root.title("Blockudoku · tessera")
        root.configure(bg=BG)
        root.resizable(False, False)
        self._build_widgets()
        self.seed = args.seed if args.seed is not None else random.randrange(1, 10**6)
        self.seed_var.set(str(self.seed))
        self.new_game()
        self.worker.start()
        self.worker.poll(root, self._answer, lambda: self.closed)
        root.after(30, self._tick_popups)
        root.protocol("WM_DELETE_WINDOW", self.close)
        if args.autoplay:
            self.start_autoplay(args.autoplay)
        if args.edit_demo:
            root.after(200, self._edit_demo)
        if self.fast:
            root.after(int(1000 * (20 + 2 * args.autoplay)), self._watchdog)

    def _watchdog(self) -> None:
        what = "the edit demo" if self.args.edit_demo else f"autoplay after {self.rounds} rounds"
        print(f"{what} timed out", file=sys.stderr)
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
        style.configure("TButton", padding=(10, 6), font=("DejaVu Sans", 10, "bold"))
        style.configure("Accent.TButton", background=BLOCK, foreground="white")
        style.map("Accent.TButton", background=[("active", BLOCK_HI), ("disabled", GRID)])
        style.configure("On.TButton", background="#17a398", foreground="white")
        style.map("On.TButton", background=[("active", "#1fc1b4")])
        style.configure("Muted.TLabel", foreground=MUTED, font=("DejaVu Sans", 9))
        style.configure("Stat.TLabel", font=("DejaVu Sans", 11, "bold"))
        style.configure("Horizontal.TScale", background=BG)

        outer = tk.Frame(self.root, bg=BG)
        outer.pack(padx=10, pady=10)
        self.canvas = tk.Canvas(outer, width=CANVAS_W, height=CANVAS_H, bg=BG,
                                highlightthickness=0)
        self.canvas.grid(row=0, column=0, sticky="n")
        side = ttk.Frame(outer, padding=(14, 8, 4, 8))
        side.grid(row=0, column=1, sticky="ns")

        game = ttk.Labelframe(side, text="NEW GAME", padding=10)
        game.pack(fill="x")
        ttk.Label(game, text="Piece set").grid(row=0, column=0, sticky="w", pady=2)
        self.pieceset_var = tk.StringVar(value=self.args.pieceset)
        ttk.Combobox(game, textvariable=self.pieceset_var, values=list(PIECE_SETS),
                     state="readonly", width=14).grid(row=0, column=1, pady=2)
        ttk.Label(game, text="Scoring").grid(row=1, column=0, sticky="w", pady=2)
        self.scoring_var = tk.StringVar(value=self.args.scoring)
        ttk.Combobox(game, textvariable=self.scoring_var, values=list(SCORINGS),
                     state="readonly", width=14).grid(row=1, column=1, pady=2)
        ttk.Label(game, text="Seed").grid(row=2, column=0, sticky="w", pady=2)
        self.seed_var = tk.StringVar()
        seed_row = ttk.Frame(game)
        seed_row.grid(row=2, column=1, pady=2, sticky="ew")
        ttk.Entry(seed_row, textvariable=self.seed_var, width=9).pack(side="left")
        ttk.Button(seed_row, text="↻", width=2, command=self._random_seed).pack(side="left", padx=(4, 0))
        ttk.Button(game, text="New game", style="Accent.TButton",
                   command=self.new_game_from_panel).grid(row=3, column=0, columnspan=2,
                                                          sticky="ew", pady=(8, 0))
        self.edit_button = ttk.Button(game, text="Edit position  (E)", command=self.toggle_edit)
        self.edit_button.grid(row=4, column=0, columnspan=2, sticky="ew", pady=(6, 0))

        eng = ttk.Labelframe(side, text="ENGINE", padding=10)
        eng.pack(fill="x", pady=(12, 0))
        self.hint_button = ttk.Button(eng, text="Hint  (H)", command=self.ask_hint)
        self.hint_button.grid(row=0, column=0, columnspan=2, sticky="ew")
        self.auto_button = ttk.Button(eng, text="Autoplay  (A)", command=self.toggle_autoplay)
        self.auto_button.grid(row=1, column=0, columnspan=2, sticky="ew", pady=(6, 0))
        ttk.Label(eng, text="Speed").grid(row=2, column=0, sticky="w", pady=(10, 0))
        self.speed_var = tk.IntVar(value=6)
        self.speed_label = ttk.Label(eng, text="6", style="Muted.TLabel", width=3)
        self.speed_label.grid(row=2, column=1, sticky="e", pady=(10, 0))
        ttk.Scale(eng, from_=1, to=10, variable=self.speed_var, orient="horizontal",
                  command=lambda v: self.speed_var.set(round(float(v)))
                  ).grid(row=3, column=0, columnspan=2, sticky="ew")
        self.speed_var.trace_add("write", lambda *_: self.speed_label.configure(
            text=str(self._speed())))
        ttk.Label(eng, text="Think").grid(row=4, column=0, sticky="w", pady=(8, 0))
        self.think_var = tk.StringVar(value="200 ms")
        ttk.Combobox(eng, textvariable=self.think_var, values=list(THINK_CHOICES),
                     state="readonly", width=8).grid(row=4, column=1, sticky="e", pady=(8, 0))
        ttk.Label(eng, text="Level").grid(row=5, column=0, sticky="w", pady=(8, 0))
        self.level_chooser = LevelChooser(eng, self.settings, self.level, self._level_chosen)
        self.level_chooser.grid(row=5, column=1, sticky="e", pady=(8, 0))
        self.engine_status = ttk.Label(eng, text="starting engine…", style="Muted.TLabel",
                                       wraplength=190, justify="left")
        self.engine_status.grid(row=6, column=0, columnspan=2, sticky="w", pady=(10, 0))
        self.info_label = ttk.Label(eng, text=" ", style="Muted.TLabel", wraplength=190,
                                    justify="left")
        self.info_label.grid(row=7, column=0, columnspan=2, sticky="w")
        self.line_var = tk.IntVar(value=0)
        self.lines_frame = ttk.Frame(eng)
        self.lines_frame.grid(row=8, column=0, columnspan=2, sticky="w")

        stats = ttk.Labelframe(side, text="SESSION", padding=10)
        stats.pack(fill="x", pady=(12, 0))
        self.best_label = ttk.Label(stats, text="Best score  0", style="Stat.TLabel")
        self.best_label.pack(anchor="w")
        self.games_label = ttk.Label(stats, text="Games  0", style="Muted.TLabel")
        self.games_label.pack(anchor="w")
        self.games_played = 0

        ttk.Label(side, style="Muted.TLabel", wraplength=200, justify="left", text=(
            "Drag a piece onto the board, or click it and then click a square. "
            "Fill a row, column or 3×3 box to clear it.\n\n"
            "H hint · 1-3 hint line · A autoplay · E edit · N new game · Esc cancel")
        ).pack(anchor="w", pady=(14, 0))
        self._build_editor(outer)

        c = self.canvas
        c.bind("<ButtonPress-1>", self._press)
        c.bind("<B1-Motion>", self._motion)
        c.bind("<ButtonRelease-1>", self._release)
        c.bind("<Motion>", self._hover)
        c.bind("<ButtonPress-3>", self._press_right)
        c.bind("<B3-Motion>", self._motion)
        self.root.bind("<Escape>", lambda e: self._cancel_selection())
        self.root.bind("<KeyPress-h>", lambda e: self._key(e, self.ask_hint))
        self.root.bind("<KeyPress-a>", lambda e: self._key(e, self.toggle_autoplay))
        self.root.bind("<KeyPress-e>", lambda e: self._key(e, self.toggle_edit))
        self.root.bind("<KeyPress-n>", lambda e: self._key(e, self.new_game_from_panel))
        for k in range(HINT_LINES):
            self.root.bind(f"<KeyPress-{k + 1}>",
                           lambda e, k=k: self._key(e, lambda: self._show_line(k)))

    def _build_editor(self, outer: tk.Frame) -> None:
        """The editor's column (shown in edit mode): the piece set, the score, Clear and Done."""
        self.editor = ttk.Labelframe(outer, text="EDIT POSITION", padding=10)
        self.editor.grid(row=0, column=2, sticky="ns", padx=(6, 0))
        ttk.Label(self.editor, style="Muted.TLabel", wraplength=PICK_COLS * PICK_SLOT,
                  justify="left", text=(
                      "Board: click or drag to fill squares, on filled ones to empty them "
                      "(right button: empty). Hand: click a slot, then a piece below; right "
                      "click empties a slot.")).pack(anchor="w")
        self.picker = tk.Canvas(self.editor, width=PICK_COLS * PICK_SLOT, height=PICK_SLOT,
                                bg=BG, highlightthickness=0)
        self.picker.pack(pady=(8, 8))
        self.picker.bind("<ButtonPress-1>", self._pick_piece)
        row = ttk.Frame(self.editor)
        row.pack(fill="x")
        ttk.Label(row, text="Score").pack(side="left")
        self.score_var = tk.StringVar()
        ttk.Entry(row, textvariable=self.score_var, width=7).pack(side="left", padx=(6, 10))
        self.streak_var = tk.BooleanVar()
        ttk.Checkbutton(row, text="Streak", variable=self.streak_var).pack(side="left")
        self.score_var.trace_add("write", lambda *_: self._edit_score())
        self.streak_var.trace_add("write", lambda *_: self._edit_score())
        self.edit_status = ttk.Label(self.editor, text=" ", foreground=FULL_RED,
                                     wraplength=PICK_COLS * PICK_SLOT, justify="left")
        self.edit_status.pack(anchor="w", pady=(6, 0))
        buttons = ttk.Frame(self.editor)
        buttons.pack(fill="x", pady=(6, 0))
        ttk.Button(buttons, text="Clear board", command=self._clear_board).pack(side="left")
        ttk.Button(buttons, text="Done  (E)", style="Accent.TButton",
                   command=self.toggle_edit).pack(side="right")
        self.editor.grid_remove()

    def _key(self, event: tk.Event, action: Any) -> None:
        if isinstance(event.widget, (tk.Entry, ttk.Entry)):
            return  # typing a seed
        action()

    def _random_seed(self) -> None:
        self.seed_var.set(str(random.randrange(1, 10**6)))

    # ------------------------------------------------------------------ game state
    def new_game_from_panel(self) -> None:
        try:
            self.seed = int(self.seed_var.get().strip())
        except ValueError:
            self.seed = random.randrange(1, 10**6)
            self.seed_var.set(str(self.seed))
        self.args.pieceset = self.pieceset_var.get()
        self.args.scoring = self.scoring_var.get()
        if self.autoplay:
            self.stop_autoplay()
        self.new_game()

    def new_game(self) -> None:
        self._cancel_pending()
        if self.editing:
            self._leave_edit()
        self.pieceset = self.args.pieceset
        self.scoring = self.args.scoring
        self.rng = random.Random(self.seed)
        self.board = Board()
        self.score = 0
        self.streak = False
        self.rounds = 0
        self.game_over = False
        self._set_hints([])
        self.auto_moves = []
        self.popups = []
        self.drag = None
        self.selected = None
        self.flash: Dict[Tuple[int, int], float] = {}
        self.hand: List[Optional[Piece]] = []
        self.worker.request("newgame", self.pieceset, self.scoring, self.seed)
        self._deal()
        self.redraw()

    def _deal(self) -> None:
        self.hand = list(deal(self.rng, self.pieceset))
        self._check_game_over()

    def _remaining(self) -> List[int]:
        return [i for i, p in enumerate(self.hand) if p is not None]

    def _check_game_over(self) -> None:
        pieces = [p for p in self.hand if p is not None]
        if pieces and not can_place_hand(self.board, pieces):
            self._end_game()

    def _end_game(self) -> None:
        if self.game_over:
            return
        self.game_over = True
        self.popups = []
        self.games_played += 1
        self.games_label.configure(text=f"Games  {self.games_played}")
        self._cancel_pending()
        if self.autoplay:
            self.stop_autoplay(finished=True)
        self.redraw()

    def place(self, slot: int, row: int, col: int) -> bool:
        """Places hand piece ``slot`` with its top-left on (row, col); False if it doesn't fit."""
        piece = self.hand[slot]
        if piece is None or self.game_over or not self.board.can_place(piece, row, col):
            return False
        self._cancel_pending(keep_auto=True)
        step: Step = self.board.place(piece, row, col)
        gained = points(self.scoring, piece.size, step.cleared, self.streak)
        had_streak = self.streak
        self.score += gained
        self.best = max(self.best, self.score)
        self.best_label.configure(text=f"Best score  {self.best}")
        self.streak = step.cleared > 0
        self.board = step.board
        self.hand[slot] = None
        self._set_hints([])
        self.selected = None
        self._popup(row, col, piece, gained, step.cleared, had_streak and step.cleared > 0)
        if step.cleared and not self.fast:
            self._animate_clear(step)
        if not self._remaining():
            self.rounds += 1
            self._deal()
            if self.autoplay_left is not None:
                self.autoplay_left -= 1
                if self.autoplay_left <= 0:
                    self._autoplay_done()
                    return True
        else:
            self._check_game_over()
        self.redraw()
        return True

    # ------------------------------------------------------------------ engine requests
    def _request_plan(self, purpose: str) -> None:
        if not self.engine_ready or self.game_over:
            return
        slots = self._remaining()
        if not slots:
            return
        self.token += 1
        movetime = self.args.movetime or THINK_CHOICES.get(self.think_var.get(), 200)
        shapes = [self.hand[i].notation() for i in slots]  # type: ignore[union-attr]
        self.pending = (self.token, purpose, slots)
        lines = HINT_LINES if purpose == "hint" else 1
        self.worker.request("plan", self.token, self.board.notation(), shapes, self.score,
                            self.streak, movetime, self.level, lines)
        self._update_buttons()

    def _level_chosen(self, level: int) -> None:
        """The level chooser changed: the engine gets it before its next search."""
        self.level = level

    def _cancel_pending(self, keep_auto: bool = False) -> None:
        if self.pending is not None:
            if keep_auto and self.pending[1] == "auto":
                return
            self.worker.cancel(self.pending[0])
            self.pending = None
        if not keep_auto:
            self.auto_moves = []
        self._update_buttons()

    def _answer(self, msg: tuple) -> None:
        kind = msg[0]
        if kind == "level":
            self.engine_status.configure(text=f"{self.engine_name} ready · level {msg[1]}")
            if self.fast and self.args.level:
                print(f"level {msg[1]}", flush=True)
        elif kind == "ready":
            self.engine_ready = True
            self.engine_name = msg[1]
            self.engine_status.configure(text=f"{msg[1]} ready")
            self._update_buttons()
            if self.autoplay:
                self._autoplay_step()
            if self.demo_step:
                self.ask_hint()
        elif kind in ("failed", "dead"):
            self.engine_ready = False
            self.engine_status.configure(text=msg[1])
            self.pending = None
            if self.autoplay:
                self.stop_autoplay()
            self._update_buttons()
            if self.fast:
                print(f"engine unavailable: {msg[1]}", file=sys.stderr)
                self.close(code=1)
        elif kind == "info":
            token, info = msg[1], msg[2]
            if self.pending and token == self.pending[0] and info:
                nps = info.get("nps", 0)
                self.info_label.configure(
                    text=f"depth {info.get('depth', '?')} · eval {info.get('score', '?')} · "
                         f"{nps / 1e6:.1f} M nodes/s")
        elif kind == "error":
            if self.pending and msg[1] == self.pending[0]:
                self.pending = None
                self.engine_status.configure(text=f"engine: {msg[2]}")
                self._update_buttons()
        elif kind == "plan":
            token, plans = msg[1], msg[2]
            if not self.pending or token != self.pending[0]:
                return  # stale
            _, purpose, slots = self.pending
            self.pending = None
            self._update_buttons()
            if self.args.edit_demo:
                self._check_demo(plans)
                return
            if not plans:
                self.engine_status.configure(text="no way to place this hand")
                if not self.editing:
                    self._end_game()
                return
            hand_plans = [(score, [self._hand_move(slots, text) for text in moves])
                          for score, moves in plans]
            if purpose == "hint":
                self._set_hints(hand_plans)
                self.redraw()
            else:
                self.auto_moves = hand_plans[0][1]
                self._schedule_auto(self._delay())

    @staticmethod
    def _hand_move(slots: List[int], text: str) -> Tuple[int, int, int]:
        """``2@c7`` of a request for the hand slots ``slots`` -> (hand slot, row, col)."""
        slot_text, _, square = text.partition("@")
        row, col = square_to_rc(square)
        return slots[int(slot_text) - 1], row, col

    def _set_hints(self, plans: List[Tuple[Optional[int], List[Tuple[int, int, int]]]]) -> None:
        """Keeps the hint's plans (best first), draws the first and lists them all."""
        self.hints = plans
        self.hint = plans[0][1] if plans else []
        self.line_var.set(0)
        for widget in self.lines_frame.winfo_children():
            widget.destroy()
        for i, (score, _) in enumerate(plans):
            ttk.Radiobutton(self.lines_frame, variable=self.line_var, value=i,
                            text=f"Line {i + 1} · eval {score if score is not None else '?'}",
                            command=lambda i=i: self._show_line(i)).pack(anchor="w")

    def _show_line(self, i: int) -> None:
        """Draws the hint's plan ``i`` (0 = the best)."""
        if i < len(self.hints):
            self.line_var.set(i)
            self.hint = self.hints[i][1]
            self.redraw()

    # ------------------------------------------------------------------ hint / autoplay
    def ask_hint(self) -> None:
        if self.autoplay or self.game_over or not self.engine_ready:
            return
        if self.pending and self.pending[1] == "hint":
            return
        if self.editing:
            problem = self._edit_problem()
            self.edit_status.configure(text=problem or " ")
            if problem:
                return
        self._request_plan("hint")

    def toggle_autoplay(self) -> None:
        if self.autoplay:
            self.stop_autoplay()
        elif not self.editing or self.finish_edit():
            if self.game_over:
                self.new_game()
            self.start_autoplay(None)

    def start_autoplay(self, rounds: Optional[int]) -> None:
        self.autoplay = True
        self.autoplay_left = rounds
        self._set_hints([])
        self._cancel_selection()
        self._cancel_pending()
        self._update_buttons()
        if self.engine_ready:
            self._autoplay_step()

    def stop_autoplay(self, finished: bool = False) -> None:
        self.autoplay = False
        if self.fast and finished:
            # The game ended before the requested rounds: report and leave.
            print(f"rounds {self.rounds} score {self.score}")
            sys.stdout.flush()
            self.close(code=2)
            return
        self.autoplay_left = None
        self._cancel_pending()
        self._update_buttons()
        self.redraw()

    def _autoplay_done(self) -> None:
        self.autoplay = False
        self.autoplay_left = None
        self._cancel_pending()
        if self.fast:
            print(f"rounds {self.rounds} score {self.score}")
            sys.stdout.flush()
            self.close(code=0)
            return
        self._update_buttons()
        self.redraw()

    def _delay(self) -> int:
        if self.fast:
            return 0
        return SPEEDS_MS[self._speed() - 1]

    def _speed(self) -> int:
        try:
            return max(1, min(10, int(round(float(self.speed_var.get())))))
        except (tk.TclError, ValueError):
            return 6

    def _schedule_auto(self, delay: int) -> None:
        if self.busy_after is not None:
            self.root.after_cancel(self.busy_after)
        self.busy_after = self.root.after(max(1, delay), self._autoplay_step)

    def _autoplay_step(self) -> None:
        self.busy_after = None
        if not self.autoplay or self.game_over or self.pending is not None:
            return
        if self.animating and not self.fast:
            self._schedule_auto(40)
            return
        if self.auto_moves:
            slot, row, col = self.auto_moves.pop(0)
            if not self.place(slot, row, col):  # should not happen: ask again
                self.auto_moves = []
            if self.autoplay and not self.game_over:
                self._schedule_auto(self._delay() if self.auto_moves else max(1, self._delay() // 2))
            return
        self._request_plan("auto")

    def _update_buttons(self) -> None:
        if self.closed:
            return
        ok = self.engine_ready and (self.editing or not self.game_over)
        self.hint_button.configure(state="normal" if ok and not self.autoplay else "disabled",
                                   text="Thinking…" if self.pending and self.pending[1] == "hint"
                                   else "Hint  (H)")
        self.auto_button.configure(state="normal" if self.engine_ready else "disabled",
                                   text="Stop autoplay  (A)" if self.autoplay else "Autoplay  (A)",
                                   style="On.TButton" if self.autoplay else "TButton")

    # ------------------------------------------------------------------ editor
    def toggle_edit(self) -> None:
        """Enters edit mode, or leaves it (if the position is valid) to play on from it."""
        if self.editing:
            self.finish_edit()
            return
        if self.autoplay:
            self.stop_autoplay()
        self._cancel_pending()
        self.editing = True
        self.game_over = False
        self.selected = self.drag = None
        self.hand = (list(self.hand) + [None, None, None])[:3]
        self.edit_slot = next((i for i, p in enumerate(self.hand) if p is None), 0)
        self.score_var.set(str(self.score))
        self.streak_var.set(self.streak)
        self._set_hints([])
        self._draw_picker()
        self.editor.grid()
        self.edit_button.configure(text="Done editing  (E)")
        self.edit_status.configure(text=" ")
        self._update_buttons()
        self.redraw()

    def finish_edit(self) -> bool:
        """Leaves edit mode and plays on from the position (a new hand if it was left empty);
        False, with the reason shown, if the position is not one the game can reach."""
        problem = self._edit_problem(need_hand=False)
        if problem:
            self.edit_status.configure(text=problem)
            return False
        self._leave_edit()
        if self._remaining():
            self._check_game_over()
        else:
            self._deal()
        self._update_buttons()
        self.redraw()
        return True

    def _leave_edit(self) -> None:
        self.editing = False
        self.paint = None
        self.editor.grid_remove()
        self.edit_button.configure(text="Edit position  (E)")

    def _edit_problem(self, need_hand: bool = True) -> Optional[str]:
        """Why the edited position cannot be played or searched, None if it can."""
        if self.board.full_regions():
            return ("A full row, column or box (red) would have been cleared: empty one of "
                    "its squares.")
        if not self.score_var.get().strip().isdigit():
            return "The score is a whole number."
        if need_hand and not self._remaining():
            return "Pick at least one piece for the hand."
        return None

    def _edited(self) -> None:
        """The position changed in the editor: a hint about the old one no longer holds."""
        self._cancel_pending()
        self._set_hints([])
        self.edit_status.configure(text=" ")
        self.redraw()

    def _edit_score(self) -> None:
        text = self.score_var.get().strip()
        if text.isdigit():
            self.score = int(text)
        self.streak = bool(self.streak_var.get())
        self._edited()

    def _edit_press(self, x: float, y: float, left: bool) -> None:
        """A click in edit mode: on the board it starts painting (filling an empty square's
        stroke, emptying a filled one's; the right button always empties), on a hand slot it
        chooses the slot the picker fills (the right button empties it)."""
        slot = self._hand_slot(x, y)
        if slot is not None:
            if left:
                self.edit_slot = slot
                self.redraw()
            else:
                self.hand[slot] = None
                self._edited()
        elif self._on_board(x, y):
            row, col = self._cell_at(x, y)
            self.paint = left and not self.board.filled(row, col)
            self._paint_at(x, y)

    def _paint_at(self, x: float, y: float) -> None:
        if self.paint is None or not self._on_board(x, y):
            return
        row, col = self._cell_at(x, y)
        bit = 1 << (row * SIZE + col)
        bits = self.board.bits | bit if self.paint else self.board.bits & ~bit
        if bits != self.board.bits:
            self.board = Board(bits)
            self._edited()

    def _clear_board(self) -> None:
        self.board = Board()
        self._edited()

    def _draw_picker(self) -> None:
        """The pieces of the game's set, in the engine's order, PICK_COLS a row."""
        c = self.picker
        pieces = piece_set(self.pieceset)
        c.delete("all")
        c.configure(height=-(-len(pieces) // PICK_COLS) * PICK_SLOT)
        for i, piece in enumerate(pieces):
            x0, y0 = (i % PICK_COLS) * PICK_SLOT, (i // PICK_COLS) * PICK_SLOT
            c.create_rectangle(x0 + 2, y0 + 2, x0 + PICK_SLOT - 2, y0 + PICK_SLOT - 2,
                               fill="#f8faff", outline=GRID)
            px = x0 + (PICK_SLOT - piece.width * PICK_CELL) / 2
            py = y0 + (PICK_SLOT - piece.height * PICK_CELL) / 2
            for r, cc in piece.cells:
                c.create_rectangle(px + cc * PICK_CELL, py + r * PICK_CELL,
                                   px + (cc + 1) * PICK_CELL, py + (r + 1) * PICK_CELL,
                                   fill=BLOCK, outline=BLOCK_LO)

    def _pick_piece(self, e: tk.Event) -> None:
        """A click on the piece set: that piece goes to the chosen hand slot, and the next slot
        is chosen."""
        pieces = piece_set(self.pieceset)
        i = int(e.y // PICK_SLOT) * PICK_COLS + int(e.x // PICK_SLOT)
        if 0 <= e.x < PICK_COLS * PICK_SLOT and 0 <= i < len(pieces):
            self.hand[self.edit_slot] = pieces[i]
            self.edit_slot = (self.edit_slot + 1) % 3
            self._edited()

    # ------------------------------------------------------------------ --edit-demo
    def _edit_demo(self) -> None:
        """Sets up DEMO_ROWS and DEMO_HAND in the editor through the mouse (drags along each
        row's runs, a square filled and emptied again with the right button, hand slots and
        the piece set clicked), types a score, checks the result and asks for a hint."""
        self.root.update()
        self.toggle_edit()
        self.root.update()
        self._clear_board()
        for row, text in enumerate(DEMO_ROWS):
            col = 0
            while col < SIZE:
                end = col
                while end < SIZE and text[end] == "#":
                    end += 1
                if end > col:
                    self._demo_mouse(self.canvas, [self._cell_centre(row, c)
                                                   for c in range(col, end)])
                col = end + 1
        self._demo_mouse(self.canvas, [self._cell_centre(3, 4)])
        self._demo_mouse(self.canvas, [self._cell_centre(3, 4)], button=3)
        pieces = piece_set(self.pieceset)
        for slot, shape in enumerate(DEMO_HAND):
            x0, y0, x1, y1 = self._slot_box(slot)
            self._demo_mouse(self.canvas, [((x0 + x1) / 2, (y0 + y1) / 2)])
            i = pieces.index(Piece.parse(shape))
            self._demo_mouse(self.picker, [((i % PICK_COLS + 0.5) * PICK_SLOT,
                                            (i // PICK_COLS + 0.5) * PICK_SLOT)])
        self.score_var.set("120")
        hand = [p.notation() if p else "-" for p in self.hand]
        if self.board != Board.from_rows(DEMO_ROWS) or hand != DEMO_HAND or self.score != 120:
            print(f"edit-demo: the editor set up {self.board.notation()} hand {hand} "
                  f"score {self.score}, not the demo position", file=sys.stderr)
            self.close(code=1)
            return
        self.demo_step = 1
        self.ask_hint()

    @staticmethod
    def _demo_mouse(widget: tk.Misc, points: List[Tuple[float, float]], button: int = 1) -> None:
        """A press on the first point, a drag through the others, a release on the last."""
        widget.event_generate(f"<ButtonPress-{button}>", x=int(points[0][0]), y=int(points[0][1]))
        for x, y in points[1:]:
            widget.event_generate(f"<B{button}-Motion>", x=int(x), y=int(y))
        widget.event_generate(f"<ButtonRelease-{button}>", x=int(points[-1][0]),
                              y=int(points[-1][1]))

    def _check_demo(self, plans: List[Tuple[Optional[int], List[str]]]) -> None:
        """--edit-demo: every line of the hint must place the whole hand on the painted board."""
        hand = [p.notation() for p in self.hand if p is not None]
        try:
            if not plans:
                raise ValueError("no plan for the demo hand")
            for _, moves in plans:
                if len(moves) != len(hand):
                    raise ValueError(f"plan {moves} does not place the whole hand")
                apply_plan(self.board, hand, moves, self.score, self.streak, self.scoring)
        except ValueError as e:
            print(f"edit-demo: illegal hint: {e}", file=sys.stderr)
            self.close(code=1)
            return
        print(f"edit-demo board {self.board.notation()} hand {' '.join(hand)} score {self.score} "
              f"lines {len(plans)} hint {' '.join(plans[0][1])}", flush=True)
        self.close(code=0)

    # ------------------------------------------------------------------ input
    def _hand_slot(self, x: float, y: float) -> Optional[int]:
        """The hand slot under (x, y), filled or not."""
        if not (HAND_TOP <= y <= HAND_TOP + HAND_H):
            return None
        slot = int((x - MARGIN) // (BOARD_PX / 3))
        return slot if 0 <= slot < 3 else None

    def _slot_at(self, x: float, y: float) -> Optional[int]:
        """The hand slot under (x, y) if it holds a piece."""
        slot = self._hand_slot(x, y)
        if slot is not None and slot < len(self.hand) and self.hand[slot] is not None:
            return slot
        return None

    def _cell_at(self, x: float, y: float) -> Tuple[int, int]:
        return int((y - BY0) // CELL), int((x - BX0) // CELL)

    def _cell_centre(self, row: int, col: int) -> Tuple[float, float]:
        x, y = self._cell_xy(row, col)
        return x + CELL / 2, y + CELL / 2

    def _anchor_for(self, piece: Piece, x: float, y: float) -> Tuple[int, int]:
        """The board cell under the top-left of ``piece`` drawn centred on (x, y)."""
        left = x - piece.width * CELL / 2
        top = y - piece.height * CELL / 2
        return round((top - BY0) / CELL), round((left - BX0) / CELL)

    def _on_board(self, x: float, y: float) -> bool:
        return BX0 <= x < BX0 + BOARD_PX and BY0 <= y < BY0 + BOARD_PX

    def _interactive(self) -> bool:
        return not (self.autoplay or self.game_over)

    def _press(self, e: tk.Event) -> None:
        if self.editing:
            self._edit_press(e.x, e.y, left=True)
            return
        if self.game_over:
            if self._hit_restart(e.x, e.y):
                self.new_game_from_panel()
            return
        if not self._interactive():
            return
        slot = self._slot_at(e.x, e.y)
        if slot is not None:
            self.drag = Drag(slot, e.x, e.y, e.x, e.y)
            self.selected = None
            self.redraw_overlay()
            return
        if self.selected is not None:
            piece = self.hand[self.selected]
            if piece is not None:
                row, col = self._anchor_for(piece, e.x, e.y)
                if self.place(self.selected, row, col):
                    return
            if not self._on_board(e.x, e.y):
                self._cancel_selection()

    def _press_right(self, e: tk.Event) -> None:
        if self.editing:
            self._edit_press(e.x, e.y, left=False)
        else:
            self._cancel_selection()

    def _motion(self, e: tk.Event) -> None:
        self.mouse = (e.x, e.y)
        if self.editing:
            self._paint_at(e.x, e.y)
            return
        if self.drag is None:
            return
        self.drag.x, self.drag.y = e.x, e.y
        if not self.drag.moved and abs(e.x - self.drag.press_x) + abs(e.y - self.drag.press_y) > 6:
            self.drag.moved = True
            self.redraw()  # the hand shows the lifted piece's outline
            return
        self.redraw_overlay()

    def _release(self, e: tk.Event) -> None:
        drag, self.drag = self.drag, None
        if drag is None:
            return
        if not drag.moved:
            self.selected = None if self.selected == drag.slot else drag.slot
            self.redraw()
            return
        piece = self.hand[drag.slot]
        if piece is not None:
            row, col = self._anchor_for(piece, e.x, e.y)
            if self.place(drag.slot, row, col):
                return
        self.redraw()

    def _hover(self, e: tk.Event) -> None:
        self.mouse = (e.x, e.y)
        if self.selected is not None:
            self.redraw_overlay()

    def _cancel_selection(self) -> None:
        self.selected = None
        self.drag = None
        if hasattr(self, "board"):
            self.redraw()

    # ------------------------------------------------------------------ drawing
    def redraw(self) -> None:
        if self.closed:
            return
        c = self.canvas
        c.delete("all")
        self._draw_header()
        self._draw_board()
        self._draw_hand()
        self._draw_hint()
        self.redraw_overlay()
        if self.game_over:
            self._draw_game_over()

    def _draw_header(self) -> None:
        c = self.canvas
        mid = CANVAS_W / 2
        c.create_text(mid, 18, text="SCORE", fill=MUTED, font=("DejaVu Sans", 9, "bold"))
        c.create_text(mid, 46, text=str(self.score), fill=TEXT, font=("DejaVu Sans", 26, "bold"))
        c.create_text(MARGIN, 18, text="ROUND", anchor="w", fill=MUTED,
                      font=("DejaVu Sans", 9, "bold"))
        c.create_text(MARGIN, 46, text=str(self.rounds + (0 if self.game_over else 1)),
                      anchor="w", fill=TEXT, font=("DejaVu Sans", 20, "bold"))
        right = CANVAS_W - MARGIN
        c.create_text(right, 18, text="STREAK", anchor="e", fill=MUTED,
                      font=("DejaVu Sans", 9, "bold"))
        if self.streak:
            c.create_rectangle(right - 56, 32, right, 60, fill=CLEAR_GOLD, outline=CLEAR_GOLD_LO)
            c.create_text(right - 28, 46, text="ON", fill="#5a3b00",
                          font=("DejaVu Sans", 12, "bold"))
        else:
            c.create_text(right, 46, text="—", anchor="e", fill=GRID,
                          font=("DejaVu Sans", 18, "bold"))

    def _cell_xy(self, row: int, col: int) -> Tuple[float, float]:
        return BX0 + col * CELL, BY0 + row * CELL

    def _draw_board(self) -> None:
        c = self.canvas
        c.create_rectangle(BX0 - 4, BY0 - 4, BX0 + BOARD_PX + 4, BY0 + BOARD_PX + 4,
                           fill=BOX_LINE, outline="")
        for r in range(SIZE):
            for col in range(SIZE):
                x, y = self._cell_xy(r, col)
                shade = CELL_BOX if ((r // 3) + (col // 3)) % 2 == 0 else CELL_LIGHT
                c.create_rectangle(x, y, x + CELL, y + CELL, fill=shade, outline=GRID,
                                   tags="grid")
        for i in (3, 6):
            c.create_line(BX0 + i * CELL, BY0, BX0 + i * CELL, BY0 + BOARD_PX, fill=BOX_LINE,
                          width=3)
            c.create_line(BX0, BY0 + i * CELL, BX0 + BOARD_PX, BY0 + i * CELL, fill=BOX_LINE,
                          width=3)
        for r, col in self.board.cells():
            x, y = self._cell_xy(r, col)
            if self.game_over:
                block(c, x, y, CELL, "cells", "#9aa6c2", "#b8c1d6", "#7d89a6")
            else:
                block(c, x, y, CELL, "cells")
        if self.editing:
            for region in self.board.full_regions():
                for r, col in Board(REGIONS[region]).cells():
                    x, y = self._cell_xy(r, col)
                    c.create_rectangle(x + 3, y + 3, x + CELL - 3, y + CELL - 3,
                                       outline=FULL_RED, width=3)
        now = time.monotonic()
        for (r, col), start in list(self.flash.items()):
            t = (now - start) / 0.32
            if t >= 1:
                del self.flash[(r, col)]
                continue
            x, y = self._cell_xy(r, col)
            inset = CELL * 0.5 * t
            block(c, x + inset, y + inset, CELL - 2 * inset, "flash", CLEAR_GOLD, "#ffe9a8",
                  CLEAR_GOLD_LO)

    def _slot_box(self, slot: int) -> Tuple[float, float, float, float]:
        w = BOARD_PX / 3
        x0 = MARGIN + slot * w
        return x0 + 6, HAND_TOP, x0 + w - 6, HAND_TOP + HAND_H

    def _draw_hand(self) -> None:
        c = self.canvas
        for slot in range(3):
            x0, y0, x1, y1 = self._slot_box(slot)
            piece = self.hand[slot] if slot < len(self.hand) else None
            selected = self.edit_slot == slot if self.editing else self.selected == slot
            c.create_rectangle(x0, y0, x1, y1, fill="#f8faff" if not selected else "#dfe9ff",
                               outline=BLOCK if selected else GRID, width=2 if selected else 1)
            if piece is None:
                if self.editing:
                    c.create_text((x0 + x1) / 2, (y0 + y1) / 2, fill=MUTED,
                                  text="empty\npick a piece" if selected else "empty",
                                  justify="center", font=("DejaVu Sans", 9))
                continue
            dragging = self.drag is not None and self.drag.slot == slot and self.drag.moved
            fits = self.board.fits_anywhere(piece)
            size = HAND_CELL
            px = (x0 + x1) / 2 - piece.width * size / 2
            py = (y0 + y1) / 2 - piece.height * size / 2
            for r, col in piece.cells:
                if dragging:
                    c.create_rectangle(px + col * size + 1, py + r * size + 1,
                                       px + (col + 1) * size - 1, py + (r + 1) * size - 1,
                                       fill="", outline=GRID, dash=(3, 2))
                elif fits:
                    block(c, px + col * size, py + r * size, size, "hand")
                else:
                    block(c, px + col * size, py + r * size, size, "hand", "#aab3c7", "#c4cad8",
                          "#8b94a8")
            for i, (hslot, _, _) in enumerate(self.hint):
                if hslot == slot:
                    c.create_oval(x1 - 26, y0 + 6, x1 - 6, y0 + 26, fill=HINT_COLORS[i % 3],
                                  outline="")
                    c.create_text(x1 - 16, y0 + 16, text=str(i + 1), fill="white",
                                  font=("DejaVu Sans", 10, "bold"))

    def _draw_hint(self) -> None:
        c = self.canvas
        for i, (slot, row, col) in enumerate(self.hint):
            piece = self.hand[slot]
            if piece is None:
                continue
            color = HINT_COLORS[i % 3]
            for r, cc in piece.cells:
                x, y = self._cell_xy(row + r, col + cc)
                c.create_rectangle(x + 3, y + 3, x + CELL - 3, y + CELL - 3, outline=color,
                                   width=3, fill=HINT_TINTS[i % 3])
            top = min(piece.cells)
            x, y = self._cell_xy(row + top[0], col + top[1])
            c.create_oval(x + CELL / 2 - 12, y + CELL / 2 - 12, x + CELL / 2 + 12,
                          y + CELL / 2 + 12, fill=color, outline="white", width=2)
            c.create_text(x + CELL / 2, y + CELL / 2, text=str(i + 1), fill="white",
                          font=("DejaVu Sans", 11, "bold"))

    def redraw_overlay(self) -> None:
        """The dragged (or selected) piece and its drop preview."""
        if self.closed:
            return
        c = self.canvas
        c.delete("overlay")
        slot: Optional[int] = None
        x, y = self.mouse
        if self.drag is not None and self.drag.moved:
            slot, x, y = self.drag.slot, self.drag.x, self.drag.y
        elif self.selected is not None:
            slot = self.selected
            if not self._on_board(x, y):
                return
        if slot is None or self.hand[slot] is None:
            return
        piece = self.hand[slot]
        assert piece is not None
        row, col = self._anchor_for(piece, x, y)
        if self.board.can_place(piece, row, col):
            step = self.board.place(piece, row, col)
            for r, cc in step.cleared_cells - step.placed:
                cx, cy = self._cell_xy(r, cc)
                block(c, cx, cy, CELL, "overlay", CLEAR_GOLD, "#ffe29a", CLEAR_GOLD_LO)
            for r, cc in step.placed:
                cx, cy = self._cell_xy(r, cc)
                if (r, cc) in step.cleared_cells:
                    block(c, cx, cy, CELL, "overlay", CLEAR_GOLD, "#ffe29a", CLEAR_GOLD_LO)
                else:
                    block(c, cx, cy, CELL, "overlay", PREVIEW, "#c3d4f7", "#7f9de0")
        elif self._on_board(x, y):
            for r, cc in piece.cells:
                rr, ccc = row + r, col + cc
                if 0 <= rr < SIZE and 0 <= ccc < SIZE:
                    cx, cy = self._cell_xy(rr, ccc)
                    c.create_rectangle(cx + 3, cy + 3, cx + CELL - 3, cy + CELL - 3,
                                       fill=PREVIEW_BAD, outline="", stipple="gray50",
                                       tags="overlay")
        # The piece itself under the cursor, see-through (stippled) so the shading shows.
        size = CELL * 0.8
        left = x - piece.width * size / 2
        top = y - piece.height * size / 2
        if self.drag is not None and self.drag.moved:
            for r, cc in piece.cells:
                px, py = left + cc * size, top + r * size
                c.create_rectangle(px + 2, py + 2, px + size - 2, py + size - 2, fill=BLOCK,
                                   outline=BLOCK_LO, width=2, stipple="gray50", tags="overlay")

    def _draw_game_over(self) -> None:
        c = self.canvas
        cx, cy = BX0 + BOARD_PX / 2, BY0 + BOARD_PX / 2
        c.create_rectangle(cx - 144, cy - 104, cx + 156, cy + 116, fill="#7d89a6", outline="")
        c.create_rectangle(cx - 150, cy - 110, cx + 150, cy + 110, fill="white", outline=BOX_LINE,
                           width=2)
        c.create_text(cx, cy - 72, text="Game over", fill=TEXT, font=("DejaVu Sans", 22, "bold"))
        c.create_text(cx, cy - 30, text=f"Score {self.score}", fill=BLOCK,
                      font=("DejaVu Sans", 16, "bold"))
        c.create_text(cx, cy + 2, text=f"{self.rounds} rounds survived · seed {self.seed}",
                      fill=MUTED, font=("DejaVu Sans", 10))
        c.create_rectangle(cx - 80, cy + 36, cx + 80, cy + 80, fill=BLOCK, outline="",
                           tags="restart")
        c.create_text(cx, cy + 58, text="Play again", fill="white",
                      font=("DejaVu Sans", 13, "bold"), tags="restart")
        self.restart_box = (cx - 80, cy + 36, cx + 80, cy + 80)

    def _hit_restart(self, x: float, y: float) -> bool:
        box = getattr(self, "restart_box", None)
        return bool(box) and box[0] <= x <= box[2] and box[1] <= y <= box[3]

    # ------------------------------------------------------------------ effects
    def _animate_clear(self, step: Step) -> None:
        now = time.monotonic()
        for cell in step.cleared_cells:
            self.flash[cell] = now
        self.animating += 1

        def frame(n: int = 0) -> None:
            if not self.flash or n > 30:
                self.animating = max(0, self.animating - 1)
                self.redraw()
                return
            self.redraw()
            self.root.after(30, frame, n + 1)

        frame()

    def _popup(self, row: int, col: int, piece: Piece, gained: int, cleared: int,
               streak_bonus: bool) -> None:
        if self.fast or gained <= 0 or cleared == 0:
            return
        x, y = self._cell_xy(row, col)
        x = min(max(x + piece.width * CELL / 2, BX0 + 110), BX0 + BOARD_PX - 110)
        y = max(y + piece.height * CELL / 2, BY0 + 50)
        text = f"+{gained}"
        if cleared >= 2:
            text += f"  combo ×{cleared}"
        if streak_bonus:
            text += "  streak!"
        self.popups.append({"x": x, "y": y, "text": text, "start": time.monotonic()})

    def _tick_popups(self) -> None:
        if self.closed:
            return
        c = self.canvas
        c.delete("popup")
        now = time.monotonic()
        alive = []
        for p in self.popups:
            t = (now - p["start"]) / 0.9
            if t >= 1:
                continue
            alive.append(p)
            y = p["y"] - 40 * t
            label = c.create_text(p["x"], y, text=p["text"], fill="#8a5a00",
                                  font=("DejaVu Sans", 15, "bold"), tags="popup")
            x0, y0, x1, y1 = c.bbox(label)
            pill = c.create_rectangle(x0 - 10, y0 - 3, x1 + 10, y1 + 3, fill="#fff6da",
                                      outline=CLEAR_GOLD, width=2, tags="popup")
            c.tag_lower(pill, label)
        self.popups = alive
        self.root.after(30 if alive else 80, self._tick_popups)

    # ------------------------------------------------------------------ end
    def close(self, code: int = 0) -> None:
        if self.closed:
            return
        self.exit_code = code
        self._cancel_pending()
        self.worker.quit()
        self.closed = True
        self.root.destroy()


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Blockudoku with the tessera engine")
    ap.add_argument("--engine", default=str(REPO / "target" / "release" / "tessera"),
                    help="path of the tessera binary (default: target/release/tessera)")
    ap.add_argument("--seed", type=int, default=None, help="seed of the deals (default: random)")
    ap.add_argument("--pieceset", default="standard47", choices=PIECE_SETS)
    ap.add_argument("--scoring", default="app", choices=SCORINGS)
    ap.add_argument("--movetime", type=int, default=None,
                    help="engine think time per hand in ms (default: the Think setting)")
    ap.add_argument("--autoplay", type=int, default=0, metavar="N",
                    help="let the engine play N rounds at start")
    ap.add_argument("--exit-after-autoplay", action="store_true",
                    help="play the --autoplay rounds fast, print 'rounds N score S', exit")
    ap.add_argument("--level", type=int, choices=LEVELS, default=None,
                    help="engine level 1-10 (10 = full strength) for this session "
                         "(default: the one chosen last, kept in ~/.config/tessera)")
    ap.add_argument("--edit-demo", action="store_true",
                    help="set up a position in the editor with simulated mouse clicks, ask for "
                         "a hint, check it on that board, print 'edit-demo ...', exit")
    args = ap.parse_args(argv)
    if args.exit_after_autoplay:
        if args.autoplay <= 0:
            ap.error("--exit-after-autoplay needs --autoplay N with N > 0")
        if args.movetime is None:
            args.movetime = 30
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    root = tk.Tk()
    app = BlockudokuApp(root, args)
    root.mainloop()
    return app.exit_code


if __name__ == "__main__":
    sys.exit(main())
