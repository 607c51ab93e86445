#!/usr/bin/env python3
"""Blockudoku with the tessera engine: play by hand, ask for hints, or watch it play.

    python3 tools/gui/blockudoku.py [--engine PATH] [--seed S] [--pieceset NAME]
                                    [--scoring app|simple|squared] [--movetime MS]
                                    [--autoplay N] [--exit-after-autoplay]

Drag a piece from the hand onto the board (or click it, then click a square); the shaded cells
show where it would land, gold ones what it would clear. Keys: H hint, A autoplay, N new game,
Esc drop the selection. With ``--autoplay N --exit-after-autoplay`` the engine plays N rounds
fast, the program prints ``rounds N score S`` and exits (0 if it got there).

The engine runs through ``tessera_client`` on a background thread; the Tk thread only polls a
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
if (REPO / "tools" / "python" / "tessera_client").is_dir():
    # The client next to this file matches it, even if an older one is installed.
    sys.path.insert(0, str(REPO / "tools" / "python"))

from tessera_client import Limit  # noqa: E402
from tessera_client.background import EngineThread  # noqa: E402
from tessera_client.blockudoku import (  # noqa: E402
    PIECE_SETS,
    SCORINGS,
    SIZE,
    Board,
    Piece,
    Step,
    can_place_hand,
    deal,
    points,
    square_to_rc,
)

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
    streak, movetime), ("quit",). Answers: ("ready", name), ("failed", message),
    ("info", token, info), ("plan", token, moves), ("error", token, message), ("dead", message).
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
              movetime: int) -> None:
        assert self.engine is not None
        self.engine.position(board=board, pieces=shapes, score=score, streak=streak)
        result = self.analyse(token, Limit(movetime=movetime), every=0.05)
        self.answers.put(("info", token, result.info))
        self.answers.put(("plan", token, [str(m) for m in result.moves]))


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
        self.fast = bool(args.exit_after_autoplay)
        self.worker = EngineWorker(args.engine)
        self.engine_ready = False
        self.engine_name = ""
        self.token = 0
        self.pending: Optional[Tuple[int, str, List[int]]] = None  # (token, purpose, hand slots)
        self.hint: List[Tuple[int, int, int]] = []  # (hand slot, row, col)
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
        if self.fast:
            root.after(int(1000 * (20 + 2 * args.autoplay)), self._watchdog)

    def _watchdog(self) -> None:
        print(f"autoplay timed out after {self.rounds} rounds", file=sys.stderr)
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
        self.engine_status = ttk.Label(eng, text="starting engine…", style="Muted.TLabel",
                                       wraplength=190, justify="left")
        self.engine_status.grid(row=5, column=0, columnspan=2, sticky="w", pady=(10, 0))
        self.info_label = ttk.Label(eng, text=" ", style="Muted.TLabel", wraplength=190,
                                    justify="left")
        self.info_label.grid(row=6, column=0, columnspan=2, sticky="w")

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
            "H hint · A autoplay · N new game · Esc cancel")).pack(anchor="w", pady=(14, 0))

        c = self.canvas
        c.bind("<ButtonPress-1>", self._press)
        c.bind("<B1-Motion>", self._motion)
        c.bind("<ButtonRelease-1>", self._release)
        c.bind("<Motion>", self._hover)
        c.bind("<ButtonPress-3>", lambda e: self._cancel_selection())
        self.root.bind("<Escape>", lambda e: self._cancel_selection())
        self.root.bind("<KeyPress-h>", lambda e: self._key(e, self.ask_hint))
        self.root.bind("<KeyPress-a>", lambda e: self._key(e, self.toggle_autoplay))
        self.root.bind("<KeyPress-n>", lambda e: self._key(e, self.new_game_from_panel))

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
        self.pieceset = self.args.pieceset
        self.scoring = self.args.scoring
        self.rng = random.Random(self.seed)
        self.board = Board()
        self.score = 0
        self.streak = False
        self.rounds = 0
        self.game_over = False
        self.hint = []
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
        self.hint = []
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
        self.worker.request("plan", self.token, self.board.notation(), shapes, self.score,
                            self.streak, movetime)
        self._update_buttons()

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
        if kind == "ready":
            self.engine_ready = True
            self.engine_name = msg[1]
            self.engine_status.configure(text=f"{msg[1]} ready")
            self._update_buttons()
            if self.autoplay:
                self._autoplay_step()
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
            token, moves = msg[1], msg[2]
            if not self.pending or token != self.pending[0]:
                return  # stale
            _, purpose, slots = self.pending
            self.pending = None
            self._update_buttons()
            plan = []
            for text in moves:
                slot_text, _, square = text.partition("@")
                row, col = square_to_rc(square)
                plan.append((slots[int(slot_text) - 1], row, col))
            if not plan:
                self.engine_status.configure(text="no way to place this hand")
                self._end_game()
                return
            if purpose == "hint":
                self.hint = plan
                self.redraw()
            else:
                self.auto_moves = plan
                self._schedule_auto(self._delay())

    # ------------------------------------------------------------------ hint / autoplay
    def ask_hint(self) -> None:
        if self.autoplay or self.game_over or not self.engine_ready:
            return
        if self.pending and self.pending[1] == "hint":
            return
        self._request_plan("hint")

    def toggle_autoplay(self) -> None:
        if self.autoplay:
            self.stop_autoplay()
        else:
            if self.game_over:
                self.new_game()
            self.start_autoplay(None)

    def start_autoplay(self, rounds: Optional[int]) -> None:
        self.autoplay = True
        self.autoplay_left = rounds
        self.hint = []
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
        ok = self.engine_ready and not self.game_over
        self.hint_button.configure(state="normal" if ok and not self.autoplay else "disabled",
                                   text="Thinking…" if self.pending and self.pending[1] == "hint"
                                   else "Hint  (H)")
        self.auto_button.configure(state="normal" if self.engine_ready else "disabled",
                                   text="Stop autoplay  (A)" if self.autoplay else "Autoplay  (A)",
                                   style="On.TButton" if self.autoplay else "TButton")

    # ------------------------------------------------------------------ input
    def _slot_at(self, x: float, y: float) -> Optional[int]:
        if not (HAND_TOP <= y <= HAND_TOP + HAND_H):
            return None
        slot = int((x - MARGIN) // (BOARD_PX / 3))
        if 0 <= slot < 3 and slot < len(self.hand) and self.hand[slot] is not None:
            return slot
        return None

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

    def _motion(self, e: tk.Event) -> None:
        self.mouse = (e.x, e.y)
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
            selected = self.selected == slot
            c.create_rectangle(x0, y0, x1, y1, fill="#f8faff" if not selected else "#dfe9ff",
                               outline=BLOCK if selected else GRID, width=2 if selected else 1)
            if piece is None:
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
