#!/usr/bin/env python3
"""Blokus board for a household game with tessera playing some colours.

People play the physical game; here they enter each human move by clicking its squares and
pressing "Place" (or Enter). The engine's moves appear highlighted with the piece's name, so they
are easy to copy onto the real board. Scores and pieces left are shown per colour.

    python3 tools/gui/blokus.py [--engine PATH] [--movetime MS]

Talks the raw tessera protocol through a pipe (newgame blokus, position startpos moves ...,
legal, go, show).
"""

import argparse
import os
import queue
import subprocess
import threading
import tkinter as tk
from tkinter import ttk

VARIANTS = ["classic", "two", "three", "duo", "junior"]
COLOURS = {
    4: [("blue", "#3a6fd8"), ("yellow", "#e8c31c"), ("red", "#d8413a"), ("green", "#3aa655")],
    2: [("black", "#7a3fb5"), ("white", "#e07b1f")],
}
CELL = 28


def default_engine():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    for sub in ("target/release/tessera", "target/debug/tessera"):
        path = os.path.join(root, sub)
        if os.path.exists(path):
            return path
    return "tessera"


class Engine:
    """The tessera process; lines are read on a thread into a queue."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     universal_newlines=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def ask(self, line, timeout=10):
        """Sends a line then isready; returns the answers before readyok."""
        self.send(line)
        self.send("isready")
        out = []
        while True:
            got = self.lines.get(timeout=timeout)
            if got is None or got == "readyok":
                return out
            out.append(got)

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=2)
        except Exception:
            self.proc.kill()


def norm(move):
    return ",".join(sorted(move.split(",")))


class App:
    def __init__(self, root, engine, movetime):
        self.root = root
        self.engine = engine
        self.movetime = movetime
        self.moves = []            # placements in order (passes are implicit)
        self.movers = []           # colour index of each placement
        self.selected = set()
        self.last_engine = None
        self.thinking = False
        root.title("tessera - Blokus")

        bar = ttk.Frame(root, padding=4)
        bar.pack(side=tk.TOP, fill=tk.X)
        ttk.Label(bar, text="Variant").pack(side=tk.LEFT)
        self.variant = tk.StringVar(value="classic")
        box = ttk.Combobox(bar, textvariable=self.variant, values=VARIANTS, width=8, state="readonly")
        box.pack(side=tk.LEFT, padx=4)
        box.bind("<<ComboboxSelected>>", lambda e: self.new_game())
        ttk.Label(bar, text="Engine plays:").pack(side=tk.LEFT, padx=(10, 2))
        self.engine_box = ttk.Frame(bar)
        self.engine_box.pack(side=tk.LEFT)
        self.engine_plays = []
        ttk.Button(bar, text="New game", command=self.new_game).pack(side=tk.LEFT, padx=4)
        ttk.Button(bar, text="Undo", command=self.undo).pack(side=tk.LEFT, padx=4)
        ttk.Button(bar, text="Engine move", command=self.engine_move).pack(side=tk.LEFT, padx=4)

        main = ttk.Frame(root, padding=4)
        main.pack(side=tk.TOP, fill=tk.BOTH, expand=True)
        self.canvas = tk.Canvas(main, width=21 * CELL + 4, height=21 * CELL + 4, bg="white")
        self.canvas.pack(side=tk.LEFT)
        self.canvas.bind("<Button-1>", self.click)
        side = ttk.Frame(main, padding=6)
        side.pack(side=tk.LEFT, fill=tk.Y)
        self.turn = ttk.Label(side, font=("TkDefaultFont", 12, "bold"))
        self.turn.pack(anchor=tk.W)
        row = ttk.Frame(side)
        row.pack(anchor=tk.W, pady=4)
        ttk.Button(row, text="Place", command=self.place).pack(side=tk.LEFT)
        ttk.Button(row, text="Clear", command=self.clear_selection).pack(side=tk.LEFT, padx=4)
        self.feedback = tk.Label(side, text="", wraplength=300, justify=tk.LEFT, fg="#b00000")
        self.feedback.pack(anchor=tk.W, pady=4)
        self.engine_said = tk.Label(side, text="", wraplength=300, justify=tk.LEFT,
                                    font=("TkDefaultFont", 12, "bold"))
        self.engine_said.pack(anchor=tk.W, pady=4)
        self.scores = tk.Label(side, text="", justify=tk.LEFT, font=("TkFixedFont", 10),
                               wraplength=320, anchor=tk.W)
        self.scores.pack(anchor=tk.W, pady=6)
        root.bind("<Return>", lambda e: self.place())
        root.bind("<Escape>", lambda e: self.clear_selection())
        self.new_game()

    # --- game state -----------------------------------------------------------------------

    def ncolours(self):
        return 2 if self.variant.get() in ("duo", "junior") else 4

    def size(self):
        return 14 if self.ncolours() == 2 else 20

    def new_game(self):
        if self.thinking:
            self.engine.send("stop")
        n = self.ncolours()
        for w in self.engine_box.winfo_children():
            w.destroy()
        old = [v.get() for v in self.engine_plays]
        if len(old) != n:
            old = []
        self.engine_plays = []
        for i, (name, _) in enumerate(COLOURS[n]):
            var = tk.BooleanVar(value=old[i] if i < len(old) else (i == n - 1))
            ttk.Checkbutton(self.engine_box, text=name, variable=var,
                            command=self.maybe_engine).pack(side=tk.LEFT)
            self.engine_plays.append(var)
        self.engine.ask("newgame blokus variant " + self.variant.get())
        self.moves, self.movers, self.selected = [], [], set()
        self.last_engine = None
        self.engine_said.config(text="")
        self.feedback.config(text="")
        self.refresh()
        self.maybe_engine()

    def position(self, moves):
        line = "position startpos"
        if moves:
            line += " moves " + " ".join(moves)
        return line

    def refresh(self):
        """Sets the position, reads show, redraws."""
        answers = self.engine.ask(self.position(self.moves))
        errors = [a for a in answers if a.startswith("error")]
        if errors:
            self.feedback.config(text=errors[0][6:])
        show = [a[len("info string "):] for a in self.engine.ask("show") if a.startswith("info string ")]
        self.board_rows = [l.split()[1:] for l in show[2:2 + self.size()]]
        self.colour_lines = [l for l in show if " points " in l]
        status = show[-1] if show else ""
        self.to_play = None
        if status.startswith("to play"):
            self.to_play = int(status.split()[2]) - 1
        self.draw()

    def pieces_left(self):
        out = []
        for line in self.colour_lines:
            head, _, pieces = line.partition(": ")
            out.append(pieces.split() if pieces.strip() != "-" else [])
        return out

    # --- drawing --------------------------------------------------------------------------

    def cell_xy(self, x, y):
        size = self.size()
        return 20 + x * CELL, 4 + (size - 1 - y) * CELL

    def draw(self):
        c = self.canvas
        c.delete("all")
        size, n = self.size(), self.ncolours()
        colours = COLOURS[n]
        for x in range(size):
            px, _ = self.cell_xy(x, 0)
            c.create_text(px + CELL / 2, 4 + size * CELL + 9, text=chr(ord("a") + x))
        for y in range(size):
            _, py = self.cell_xy(0, y)
            c.create_text(10, py + CELL / 2, text=str(y + 1))
        last = set(self.last_engine.split(",")) if self.last_engine else set()
        for y in range(size):
            row = self.board_rows[size - 1 - y] if len(self.board_rows) == size else ["."] * size
            for x in range(size):
                px, py = self.cell_xy(x, y)
                ch = row[x] if x < len(row) else "."
                fill = "#f4f4f4" if ch == "." else colours[int(ch) - 1][1]
                sq = chr(ord("a") + x) + str(y + 1)
                if sq in self.selected:
                    fill = "#a0a0a0" if ch == "." else fill
                c.create_rectangle(px, py, px + CELL, py + CELL, fill=fill, outline="#c8c8c8")
                if sq in last:
                    c.create_rectangle(px + 2, py + 2, px + CELL - 2, py + CELL - 2, outline="black", width=3)
                    c.create_text(px + CELL / 2, py + CELL / 2, text="*", font=("TkDefaultFont", 12, "bold"))
                if sq in self.selected:
                    c.create_rectangle(px + 3, py + 3, px + CELL - 3, py + CELL - 3, outline="#202020", dash=(2, 2))
        # The starting squares.
        starts = ["e10", "j5"] if n == 2 else ["a20", "t20", "t1", "a1"]
        for i, s in enumerate(starts):
            x, y = ord(s[0]) - ord("a"), int(s[1:]) - 1
            if self.board_rows and self.board_rows[size - 1 - y][x] == ".":
                px, py = self.cell_xy(x, y)
                c.create_oval(px + 8, py + 8, px + CELL - 8, py + CELL - 8, fill=colours[i][1], outline="")
        lines = []
        for i, line in enumerate(self.colour_lines):
            who = "engine" if self.engine_plays[i].get() else "human"
            head, _, pieces = line.partition(": ")
            lines.append(f"{head} ({who})\n    {pieces}")
        self.scores.config(text="\n".join(lines))
        if self.to_play is None:
            self.turn.config(text="Game over", foreground="black")
        else:
            name, colour = colours[self.to_play]
            who = "engine" if self.engine_plays[self.to_play].get() else "you"
            self.turn.config(text=f"To play: {name} ({who})", foreground=colour)

    # --- human moves ----------------------------------------------------------------------

    def click(self, event):
        size = self.size()
        x = int((event.x - 20) // CELL)
        y = size - 1 - int((event.y - 4) // CELL)
        if not (0 <= x < size and 0 <= y < size):
            return
        sq = chr(ord("a") + x) + str(y + 1)
        if sq in self.selected:
            self.selected.remove(sq)
        else:
            self.selected.add(sq)
        self.feedback.config(text="")
        self.draw()

    def clear_selection(self):
        self.selected = set()
        self.draw()

    def place(self):
        if self.thinking or self.to_play is None:
            return
        if not self.selected:
            self.feedback.config(text="Click the squares of the piece first.")
            return
        move = ",".join(sorted(self.selected))
        legal = self.engine.ask("legal")
        moves = legal[0].split()[1:] if legal and legal[0].startswith("legal") else []
        if norm(move) not in {norm(m) for m in moves}:
            answers = self.engine.ask(self.position(self.moves + [move]))
            why = next((a[6:] for a in answers if a.startswith("error")), "not a legal move")
            self.feedback.config(text="Not legal: " + why.split(": ", 1)[-1])
            self.engine.ask(self.position(self.moves))
            return
        self.play(move)
        self.maybe_engine()

    def play(self, move):
        self.movers.append(self.to_play)
        self.moves.append(move)
        self.selected = set()
        self.feedback.config(text="")
        self.refresh()

    def undo(self):
        if self.thinking or not self.moves:
            return
        self.moves.pop()
        mover = self.movers.pop()
        if self.last_engine and mover is not None and self.engine_plays[mover].get():
            self.last_engine = None
            self.engine_said.config(text="")
        self.refresh()

    # --- engine moves ---------------------------------------------------------------------

    def maybe_engine(self):
        if self.to_play is not None and self.engine_plays[self.to_play].get() and not self.thinking:
            self.root.after(50, self.engine_move)

    def engine_move(self):
        if self.thinking or self.to_play is None:
            return
        self.thinking = True
        self.before = self.pieces_left()
        self.engine.send(self.position(self.moves))
        self.engine.send(f"go movetime {self.movetime}")
        name = COLOURS[self.ncolours()][self.to_play][0]
        self.engine_said.config(text=f"{name} (engine) is thinking...", fg="black")
        self.root.after(20, self.poll)

    def poll(self):
        try:
            while True:
                line = self.engine.lines.get_nowait()
                if line is None:
                    self.engine_said.config(text="The engine stopped.")
                    return
                if line.startswith("bestmove"):
                    self.thinking = False
                    move = line.split()[1]
                    if move == "none":
                        self.refresh()
                        return
                    mover = self.to_play
                    self.last_engine = move
                    self.play(move)
                    after = self.pieces_left()
                    piece = ""
                    if mover is not None and mover < len(after):
                        gone = list(self.before[mover])
                        for p in after[mover]:
                            if p in gone:
                                gone.remove(p)
                        piece = gone[0] if gone else ""
                    name, colour = COLOURS[self.ncolours()][mover]
                    self.engine_said.config(
                        text=f"{name} (engine) plays piece {piece}:\n{move}", fg=colour)
                    self.maybe_engine()
                    return
        except queue.Empty:
            self.root.after(20, self.poll)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=default_engine())
    ap.add_argument("--movetime", type=int, default=1000)
    args = ap.parse_args()
    engine = Engine(args.engine)
    root = tk.Tk()
    App(root, engine, args.movetime)
    try:
        root.mainloop()
    finally:
        engine.close()


if __name__ == "__main__":
    main()
