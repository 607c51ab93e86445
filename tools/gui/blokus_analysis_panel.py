"""The Blokus board's game analysis, as Pentobi's GUI has it: the engine's value of the position
after every move, for the player who made it, drawn as a graph under the board.

The analysis runs on a thread of its own with its own engine process (``tessera gtp`` and its
``tessera-analyze``, :mod:`tessera_engine_client.blokus_analysis`), so the window stays
responsive and the game's engine stays free; *Cancel* stops it at once. Each move is a dot in
its colour at its value (1 at the top: a sure win for the mover; the dashed line is 1/2); the
moves that lost most (the largest drops in the mover's value) are ringed in red and numbered,
and listed under the graph. A click on the graph or on a listed move goes to the position after
that move; the grey line marks the position shown.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable, List, Optional, Sequence, Tuple

import tkinter as tk
from tkinter import ttk

from tessera_engine_client import blokus
from tessera_engine_client.blokus_analysis import (
    AnalysisError, Analyzer, MoveValue, worst_moves)

PLAYOUTS = (300, 1000, 3000, 10000, 30000)
"""The strengths offered: playouts per position."""
WORST = 5
"""How many of the moves that lost most are marked."""
GRAPH_H = 112
BG = "#eef0f4"
PLOT = "#ffffff"
GRID = "#c9ccd6"
MUTED = "#6b7285"
BAD = "#e0302b"
LEFT, RIGHT, TOP, BOTTOM = 30, 8, 6, 16   # the plot's margins in the canvas


def _label(playouts: int) -> str:
    return f"{playouts:,}"


class _Run(threading.Thread):
    """One analysis on its own thread: answers ``("value", run, MoveValue)``, then ``("done",
    run)`` or ``("failed", run, message)``."""

    def __init__(self, analyzer: Analyzer, game: blokus.Game, answers: "queue.Queue[tuple]",
                 run: int) -> None:
        super().__init__(name="analysis", daemon=True)
        self.analyzer, self.game, self.answers, self.run_id = analyzer, game, answers, run

    def run(self) -> None:
        try:
            self.analyzer.run(self.game,
                              on_value=lambda v: self.answers.put(("value", self.run_id, v)))
            self.answers.put(("done", self.run_id))
        except AnalysisError as e:
            self.answers.put(("failed", self.run_id, str(e)))


def replayed(game: blokus.Game) -> blokus.Game:
    """A copy of ``game``'s moves (all of them) that the analysis thread owns."""
    copy = blokus.Game(game.variant.name)
    for m in game.moves:
        copy.play(m.squares, m.colour)
    return copy


class AnalysisPanel(ttk.Frame):
    """The graph, its controls and the list of the moves that lost most.

    ``command``: the GTP engine's command line; ``goto(k)`` shows the position after move k;
    ``on_finished()`` is called when an analysis ends (done, failed or cancelled).
    """

    def __init__(self, parent: tk.Misc, width: int, command: Sequence[str], playouts: int,
                 goto: Callable[[int], None],
                 on_finished: Callable[[], None] = lambda: None) -> None:
        super().__init__(parent, padding=(0, 4, 0, 0))
        self.command = list(command)
        self.goto = goto
        self.on_finished = on_finished
        self.width = width
        self.answers: "queue.Queue[tuple]" = queue.Queue()
        self.analyzer: Optional[Analyzer] = None
        self.run_id = 0
        self.game: Optional[blokus.Game] = None      # the game analysed (its own copy)
        self.values: List[MoveValue] = []
        self.colours: List[str] = []
        self.text_colours: List[str] = []
        self.names: List[str] = []
        self.cursor = 0
        self.closed = False

        row = ttk.Frame(self)
        row.pack(fill=tk.X)
        ttk.Label(row, text="Analysis", style="Head.TLabel").pack(side=tk.LEFT)
        ttk.Label(row, text="playouts").pack(side=tk.LEFT, padx=(8, 4))
        labels = [_label(p) for p in PLAYOUTS]
        if playouts not in PLAYOUTS:
            labels.insert(0, _label(playouts))
        self.playouts_var = tk.StringVar(value=_label(playouts))
        self.playouts_box = ttk.Combobox(row, textvariable=self.playouts_var, values=labels,
                                         width=7, state="readonly")
        self.playouts_box.pack(side=tk.LEFT)
        self.cancel_button = ttk.Button(row, text="Cancel", command=self.cancel, width=7,
                                        state="disabled")
        self.cancel_button.pack(side=tk.LEFT, padx=(6, 0))
        ttk.Button(row, text="Close", command=self.hide, width=6).pack(side=tk.LEFT,
                                                                       padx=(4, 0))
        # A fixed width: a long message must not widen the board's column.
        self.status = ttk.Label(row, text="", style="Muted.TLabel", width=44, wraplength=300)
        self.status.pack(side=tk.LEFT, padx=(8, 0))

        self.canvas = tk.Canvas(self, width=width, height=GRAPH_H, bg=BG, highlightthickness=0,
                                cursor="hand2")
        self.canvas.pack(anchor="w", pady=(3, 0))
        self.canvas.bind("<Button-1>", self._on_click)
        self.canvas.bind("<Motion>", self._on_motion)

        self.worst_row = ttk.Frame(self)
        self.worst_row.pack(anchor="w", fill=tk.X, pady=(2, 0))
        self.worst_labels: List[tk.Widget] = []
        self.listed: List[MoveValue] = []    # the moves in worst_labels

    # ------------------------------------------------------------------ running
    @property
    def playouts(self) -> int:
        """The strength chosen: playouts a position."""
        return int(self.playouts_var.get().replace(",", ""))

    @property
    def running(self) -> bool:
        return self.analyzer is not None

    def start(self, game: blokus.Game, colours: Sequence[str], text_colours: Sequence[str],
              names: Sequence[str]) -> None:
        """Analyses every move of ``game`` (cancelling an analysis under way): the colours'
        dots in ``colours``, their moves listed in ``text_colours``, ``names`` the colours'."""
        self.cancel()
        self.run_id += 1
        self.game = replayed(game)
        self.colours, self.text_colours = list(colours), list(text_colours)
        self.names = list(names)
        self.values = []
        self.analyzer = Analyzer(self.command, self.playouts)
        _Run(self.analyzer, self.game, self.answers, self.run_id).start()
        self.cancel_button.configure(state="normal")
        self._set_status(f"Analysing {len(self.game)} moves…")
        self.draw()
        if len(self.game) == 0:
            self.analyzer.cancel()

    def cancel(self) -> None:
        """Stops the analysis under way (its values so far stay)."""
        if self.analyzer is not None:
            self.analyzer.cancel()

    def hide(self) -> None:
        """Cancels and hides the panel."""
        self.cancel()
        self.grid_remove()

    def clear(self, why: str = "") -> None:
        """Forgets the analysis (the game it was of changed)."""
        self.cancel()
        self.run_id += 1
        self.analyzer = None
        self.game = None
        self.values = []
        self.cancel_button.configure(state="disabled")
        self._set_status(why)
        self.draw()

    def fits(self, game: blokus.Game) -> bool:
        """Whether the analysis is of ``game``'s moves (the game may have gone on since)."""
        if self.game is None:
            return True
        mine = self.game.moves
        return len(game.moves) >= len(mine) and all(
            a.colour == b.colour and a.squares == b.squares for a, b in zip(mine, game.moves))

    def poll(self) -> None:
        """Takes the analysis thread's answers (call it from the Tk loop)."""
        try:
            while True:
                msg = self.answers.get_nowait()
                if msg[1] != self.run_id:
                    continue  # from an analysis cancelled or forgotten since
                if msg[0] == "value":
                    self.values.append(msg[2])
                    assert self.game is not None
                    self._set_status(f"Analysing: move {len(self.values)} of {len(self.game)}…")
                    self.draw()
                else:
                    self._finish(msg[2] if msg[0] == "failed" else None)
        except queue.Empty:
            pass

    def _finish(self, error: Optional[str]) -> None:
        cancelled = self.analyzer is not None and self.analyzer.cancelled
        self.analyzer = None
        self.cancel_button.configure(state="disabled")
        n = len(self.game) if self.game is not None else 0
        if error:
            self._set_status(f"Failed: {error}", error=True)
        elif cancelled and len(self.values) < n:
            self._set_status(f"Cancelled after {len(self.values)} of {n} moves.")
        else:
            self._set_status(f"{n} moves analysed: click one to go there")
        self.draw()
        self.on_finished()

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status.configure(text=text, foreground=BAD if error else MUTED)

    # ------------------------------------------------------------------ the graph
    def _plot(self) -> Tuple[float, float, float, float]:
        """The plot's left, top, width and height in the canvas."""
        return LEFT, TOP, self.width - LEFT - RIGHT, GRAPH_H - TOP - BOTTOM

    def _x(self, k: int) -> float:
        left, _, w, _ = self._plot()
        n = max(1, len(self.game) if self.game is not None else 1)
        return left + (k - 0.5) * w / n

    def _y(self, value: float) -> float:
        _, top, _, h = self._plot()
        return top + (1 - value) * h

    def move_at(self, x: float) -> Optional[int]:
        """The move whose column holds x (None without an analysis)."""
        if self.game is None or len(self.game) == 0:
            return None
        left, _, w, _ = self._plot()
        n = len(self.game)
        return max(1, min(n, int((x - left) / (w / n)) + 1))

    def set_cursor(self, k: int) -> None:
        """Marks the position after move k as the one shown."""
        if k != self.cursor:
            self.cursor = k
            self.draw()

    def draw(self) -> None:
        if self.closed:
            return
        cv = self.canvas
        cv.delete("all")
        left, top, w, h = self._plot()
        cv.create_rectangle(left, top, left + w, top + h, fill=PLOT, outline=GRID)
        cv.create_line(left, self._y(0.5), left + w, self._y(0.5), fill=GRID, dash=(4, 3))
        for value, text in ((1, "1"), (0.5, "½"), (0, "0")):
            cv.create_text(left - 6, self._y(value), text=text, anchor="e", fill=MUTED,
                           font=("DejaVu Sans", 8))
        if self.game is None:
            return
        n = len(self.game)
        step = 10 if n <= 120 else 20
        for k in range(step, n + 1, step):
            cv.create_text(self._x(k), top + h + 8, text=str(k), fill=MUTED,
                           font=("DejaVu Sans", 8))
        if 1 <= self.cursor <= n:
            x = self._x(self.cursor)
            cv.create_line(x, top, x, top + h, fill="#8a90a2", width=2)
        for c, colour in enumerate(self.colours):
            points = [(self._x(v.number), self._y(v.value)) for v in self.values
                      if v.colour == c]
            if len(points) > 1:
                cv.create_line(*[z for p in points for z in p], fill=colour, width=1)
            for x, y in points:
                cv.create_oval(x - 3, y - 3, x + 3, y + 3, fill=colour, outline="")
        worst = worst_moves(self.values, WORST)
        for rank, v in enumerate(worst, 1):
            x, y = self._x(v.number), self._y(v.value)
            cv.create_oval(x - 6, y - 6, x + 6, y + 6, outline=BAD, width=2)
            cv.create_text(x, y - 13 if y > top + 16 else y + 13, text=str(rank), fill=BAD,
                           font=("DejaVu Sans", 8, "bold"))
        self._list_worst(worst)

    def _list_worst(self, worst: Sequence[MoveValue]) -> None:
        if list(worst) == self.listed:
            return
        self.listed = list(worst)
        for w in self.worst_labels:
            w.destroy()
        self.worst_labels = []
        if not worst:
            return
        head = ttk.Label(self.worst_row, text="Lost most:", style="Muted.TLabel")
        head.pack(side=tk.LEFT)
        self.worst_labels.append(head)
        assert self.game is not None
        for rank, v in enumerate(worst, 1):
            piece = self.game.moves[v.number - 1].piece
            link = tk.Label(self.worst_row, text=f"{rank}: #{v.number} {piece} −{v.drop:.2f}",
                            fg=self.text_colours[v.colour], bg=BG, cursor="hand2",
                            font=("DejaVu Sans", 9, "bold underline"))
            link.bind("<Button-1>", lambda e, k=v.number: self.goto(k))
            link.pack(side=tk.LEFT, padx=(8, 0))
            self.worst_labels.append(link)

    def _on_click(self, e: tk.Event) -> None:
        k = self.move_at(e.x)
        if k is not None:
            self.goto(k)

    def _on_motion(self, e: tk.Event) -> None:
        k = self.move_at(e.x)
        v = next((v for v in self.values if v.number == k), None)
        if v is None or self.game is None or self.running:
            return
        piece = self.game.moves[v.number - 1].piece
        self._set_status(f"move {v.number} {self.names[v.colour]} {piece}: {v.value:.2f}"
                         + (f", lost {v.drop:.2f}" if v.drop > 0 else f", gained {-v.drop:.2f}"))
