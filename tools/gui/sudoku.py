#!/usr/bin/env python3
"""Sudoku to solve, with hints that teach the next step: a board for people.

    python3 tools/gui/sudoku.py [--box MxN] [--level easy|medium|hard|unfair|extreme] [--seed S]
                                [--open FILE] [--autoplay] [--exit-after-autoplay]

Click a cell and type a digit (for grids above 9 also A = 10, B = 11, ...); with *Pencil* on
(Ctrl+P) the digit toggles a pencil mark instead. *Auto marks* shows every candidate the
placed digits allow; turned off, the marks are the player's own (starting from the automatic
ones). Delete empties a cell. Ctrl+Z undo, Ctrl+Y redo, Ctrl+H hint, Ctrl+M mistakes, Ctrl+N a
new puzzle, arrows move the selection.

**Hint** asks the engine's human-style solver for the next step from the board as it stands
(the pencil marks included when they are the player's own): the step is said in words ("Hidden
Single: r5c2=5 (only place for 5 in box 4)"), its cells are framed, a placement shown in green
and the candidates it removes struck in red. **Apply** plays the step. **Mistakes** colours red
every digit that differs from the solution, and a pencil mark set that leaves out the solution's
digit. **New** makes a puzzle of the chosen box shape and level (the engine rates each puzzle as
HoDoKu would, and the level shown is its rating). **Open** and **Save** use text files: the
puzzle on one line (``.`` empty), optionally the board as played on the next line, and a
``# box MxN`` line for shapes that are not square.

The solver is the engine itself, in-process: the native module ``tessera_engine`` (install it
with ``python3 -m pip install ./python``). With ``--autoplay`` the board solves itself hint by
hint through the window's own Hint and Apply; ``--exit-after-autoplay`` then prints ``solved in
N steps`` and exits 0.
"""

from __future__ import annotations

import argparse
import sys
import tkinter as tk
from dataclasses import dataclass, field
from pathlib import Path
from tkinter import filedialog, ttk
from typing import Any, Dict, List, Optional, Set, Tuple

from tessera_engine import sudoku as solver

LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
ATTEMPTS = 5000
"""Puzzles made and rated before New gives up on a level."""

BG = "#eef1f8"
TEXT = "#22304f"
MUTED = "#7482a3"
GRID = "#c8d1e6"
BOX_LINE = "#4a5a7e"
GIVEN = "#22304f"
PLAYED = "#2f6fd6"
WRONG = "#b03a2e"
SELECT = "#fdeeb8"
HINT = "#17a398"
HINT_TINT = "#d8f3ef"


def parse_box(text: str) -> Tuple[int, int]:
    rows, _, cols = text.lower().partition("x")
    if not (rows.isdigit() and cols.isdigit()) or int(rows) * int(cols) > 25:
        raise argparse.ArgumentTypeError(f"bad box shape {text!r}: give MxN, M*N at most 25")
    return int(rows), int(cols)


DIGITS = "123456789ABCDEFGHIJKLMNOP"


def digit_char(d: int) -> str:
    return "." if d == 0 else DIGITS[d - 1]


def char_digit(ch: str) -> int:
    return 0 if ch in ".0" else int(ch, 36)


@dataclass
class Board:
    """A puzzle being solved: the givens, the digits placed, the player's pencil marks."""

    box: Tuple[int, int]
    givens: List[int]
    values: List[int]
    marks: List[Set[int]]
    solution: List[int] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.box[0] * self.box[1]

    @property
    def box_text(self) -> str:
        return f"{self.box[0]}x{self.box[1]}"

    def line(self, values: Optional[List[int]] = None) -> str:
        return "".join(digit_char(v) for v in (self.values if values is None else values))

    def peers(self, cell: int) -> Set[int]:
        n, (br, bc) = self.size, self.box
        r, c = divmod(cell, n)
        top, left = r // br * br, c // bc * bc
        same = {r * n + k for k in range(n)} | {k * n + c for k in range(n)}
        same |= {(top + i) * n + left + j for i in range(br) for j in range(bc)}
        return same - {cell}

    def auto_marks(self) -> List[Set[int]]:
        """The candidates the placed digits allow in every empty cell."""
        all_digits = set(range(1, self.size + 1))
        return [set() if self.values[c] else
                all_digits - {self.values[p] for p in self.peers(c)}
                for c in range(self.size * self.size)]

    def solved(self) -> bool:
        return self.values == self.solution

    def snapshot(self) -> Tuple[Tuple[int, ...], Tuple[frozenset, ...]]:
        return tuple(self.values), tuple(frozenset(m) for m in self.marks)

    def restore(self, snap: Tuple[Tuple[int, ...], Tuple[frozenset, ...]]) -> None:
        self.values, self.marks = list(snap[0]), [set(m) for m in snap[1]]


def new_board(box: Tuple[int, int], puzzle: str, played: Optional[str] = None) -> Board:
    """A board of ``puzzle`` (raises ValueError unless it has exactly one solution)."""
    box_text = f"{box[0]}x{box[1]}"
    solution = solver.solve(puzzle, box=box_text)
    if solution is None:
        raise ValueError("the puzzle has no solution")
    if solver.count_solutions(puzzle, box=box_text) != 1:
        raise ValueError("the puzzle has several solutions")
    givens = [char_digit(ch) for ch in puzzle]
    values = [char_digit(ch) for ch in played] if played else list(givens)
    if len(values) != len(givens) or any(g and v != g for g, v in zip(givens, values)):
        raise ValueError("the board as played does not keep the puzzle's givens")
    board = Board(box, givens, values, [], [char_digit(ch) for ch in solution])
    board.marks = board.auto_marks()
    return board


def puzzle_of_level(box: Tuple[int, int], level: str, seed: int) -> Tuple[str, Dict[str, Any]]:
    """The first puzzle from ``seed`` on that the engine rates at ``level``."""
    box_text = f"{box[0]}x{box[1]}"
    for k in range(ATTEMPTS):
        puzzle, _ = solver.generate(box_text, seed=seed + k)
        rating = solver.rate(puzzle, box=box_text)
        if rating["level"] == level:
            return puzzle, rating
    raise ValueError(f"no {level} {box_text} puzzle in {ATTEMPTS} tries")


def read_puzzle_file(path: Path) -> Tuple[Tuple[int, int], str, Optional[str]]:
    """(box, puzzle, board as played or None) of a text file."""
    box, grids = None, []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line.startswith("#"):
            words = line[1:].split()
            if len(words) == 2 and words[0] == "box":
                box = parse_box(words[1])
        elif line:
            grids.append(line.split()[0])
    if not grids:
        raise ValueError(f"{path} holds no puzzle")
    if box is None:
        side = round(len(grids[0]) ** 0.25)
        if side ** 4 != len(grids[0]):
            raise ValueError(f"{path}: a grid of {len(grids[0])} cells needs a '# box MxN' line")
        box = (side, side)
    return box, grids[0], grids[1] if len(grids) > 1 else None


class SudokuApp:
    """The window: the board on a canvas, the controls beside it, the hint's words below."""

    def __init__(self, root: tk.Tk, args: argparse.Namespace) -> None:
        self.root = root
        self.args = args
        self.seed = args.seed
        self.level = tk.StringVar(value=args.level)
        self.box = tk.StringVar(value=f"{args.box[0]}x{args.box[1]}")
        self.pencil = tk.BooleanVar(value=False)
        self.auto = tk.BooleanVar(value=True)
        self.mistakes = tk.BooleanVar(value=False)
        self.selected: Optional[int] = None
        self.hint: Optional[Dict[str, Any]] = None
        self.undo_stack: List[Any] = []
        self.redo_stack: List[Any] = []
        self.steps = 0
        root.title("tessera sudoku")
        root.configure(bg=BG)
        self._build()
        if args.open:
            self.open_file(Path(args.open))
        else:
            self.new_puzzle()

    # --- widgets ----------------------------------------------------------------------------
    def _build(self) -> None:
        frame = ttk.Frame(self.root, padding=8)
        frame.pack(fill="both", expand=True)
        self.canvas = tk.Canvas(frame, width=540, height=540, bg="white", highlightthickness=0)
        self.canvas.grid(row=0, column=0, rowspan=12, sticky="nsew")
        self.canvas.bind("<Button-1>", self._click)
        side = ttk.Frame(frame, padding=(10, 0))
        side.grid(row=0, column=1, sticky="n")
        ttk.Label(side, text="Box").grid(row=0, column=0, sticky="w")
        ttk.Combobox(side, textvariable=self.box, width=8, state="readonly",
                     values=["2x2", "2x3", "3x2", "2x4", "3x3", "3x4", "4x4"]).grid(
            row=0, column=1, sticky="w")
        ttk.Label(side, text="Level").grid(row=1, column=0, sticky="w")
        ttk.Combobox(side, textvariable=self.level, values=LEVELS, width=8,
                     state="readonly").grid(row=1, column=1, sticky="w")
        buttons = [("New", self.new_puzzle), ("Hint", self.ask_hint), ("Apply", self.apply_hint),
                   ("Undo", self.undo), ("Redo", self.redo), ("Open...", self._open_dialog),
                   ("Save...", self._save_dialog)]
        for k, (label, command) in enumerate(buttons):
            ttk.Button(side, text=label, command=command).grid(row=2 + k, column=0, columnspan=2,
                                                                sticky="ew", pady=1)
        row = 2 + len(buttons)
        ttk.Checkbutton(side, text="Pencil", variable=self.pencil).grid(row=row, column=0,
                                                                       columnspan=2, sticky="w")
        ttk.Checkbutton(side, text="Auto marks", variable=self.auto,
                        command=self._auto_changed).grid(row=row + 1, column=0, columnspan=2,
                                                         sticky="w")
        ttk.Checkbutton(side, text="Mistakes", variable=self.mistakes,
                        command=self.redraw).grid(row=row + 2, column=0, columnspan=2, sticky="w")
        self.rating = ttk.Label(side, text="", foreground=MUTED, wraplength=150)
        self.rating.grid(row=row + 3, column=0, columnspan=2, sticky="w", pady=(8, 0))
        self.message = ttk.Label(frame, text="", wraplength=700, foreground=TEXT)
        self.message.grid(row=12, column=0, columnspan=2, sticky="w", pady=(6, 0))
        frame.columnconfigure(0, weight=1)
        frame.rowconfigure(0, weight=1)
        self.canvas.bind("<Configure>", lambda e: self.redraw())
        self.root.bind("<Key>", self._key)
        for key, command in (("<Control-z>", self.undo), ("<Control-y>", self.redo),
                             ("<Control-h>", self.ask_hint), ("<Control-n>", self.new_puzzle),
                             ("<Control-m>", self._toggle_mistakes),
                             ("<Control-p>", lambda: self.pencil.set(not self.pencil.get()))):
            self.root.bind(key, lambda e, c=command: c())

    def say(self, text: str, color: str = TEXT) -> None:
        self.message.configure(text=text, foreground=color)

    # --- puzzles ----------------------------------------------------------------------------
    def new_puzzle(self) -> None:
        box = parse_box(self.box.get())
        try:
            puzzle, rating = puzzle_of_level(box, self.level.get(), self.seed)
        except ValueError as e:
            self.say(str(e), WRONG)
            return
        self.seed += 1
        self._start(new_board(box, puzzle), rating)
        self.say(f"A new {rating['level']} puzzle.")

    def _start(self, board: Board, rating: Dict[str, Any]) -> None:
        self.board, self.selected, self.hint, self.steps = board, None, None, 0
        self.undo_stack.clear()
        self.redo_stack.clear()
        self.auto.set(True)
        self.box.set(board.box_text)
        self.rating.configure(text=f"{rating['level']}, score {rating['score']}; hardest: "
                                   f"{rating['hardest'] or '-'}")
        self.redraw()

    def open_file(self, path: Path) -> None:
        try:
            box, puzzle, played = read_puzzle_file(path)
            board = new_board(box, puzzle, played)
            rating = solver.rate(puzzle, box=board.box_text)
        except (OSError, ValueError, argparse.ArgumentTypeError) as e:
            self.say(f"cannot open {path}: {e}", WRONG)
            return
        self._start(board, rating)
        self.say(f"Opened {path.name}.")

    def save_file(self, path: Path) -> None:
        b = self.board
        lines = [f"# box {b.box_text}", b.line(b.givens), b.line()]
        path.write_text("\n".join(lines) + "\n")
        self.say(f"Saved {path.name}.")

    def _open_dialog(self) -> None:
        name = filedialog.askopenfilename(filetypes=[("Sudoku", "*.txt"), ("All", "*")])
        if name:
            self.open_file(Path(name))

    def _save_dialog(self) -> None:
        name = filedialog.asksaveasfilename(defaultextension=".txt")
        if name:
            self.save_file(Path(name))

    # --- moves ------------------------------------------------------------------------------
    def _remember(self) -> None:
        self.undo_stack.append((self.board.snapshot(), self.auto.get()))
        self.redo_stack.clear()
        self.hint = None

    def place(self, cell: int, digit: int) -> None:
        """Puts ``digit`` in ``cell`` (0 empties it); the givens stay."""
        b = self.board
        if b.givens[cell] or b.values[cell] == digit:
            return
        self._remember()
        b.values[cell] = digit
        if self.auto.get():
            b.marks = b.auto_marks()
        elif digit:
            b.marks[cell] = set()
            for p in b.peers(cell):
                b.marks[p].discard(digit)
        self.redraw()
        if b.solved():
            self.say("Solved!", HINT)

    def toggle_mark(self, cell: int, digit: int) -> None:
        b = self.board
        if b.values[cell]:
            return
        self._remember()
        self.auto.set(False)
        b.marks[cell] ^= {digit}
        self.redraw()

    def _auto_changed(self) -> None:
        if self.auto.get():
            self._remember()
            self.board.marks = self.board.auto_marks()
        self.redraw()

    def undo(self) -> None:
        self._step_back(self.undo_stack, self.redo_stack)

    def redo(self) -> None:
        self._step_back(self.redo_stack, self.undo_stack)

    def _step_back(self, source: List[Any], keep: List[Any]) -> None:
        """Restores the last board of ``source``, keeping the present one in ``keep``."""
        if source:
            keep.append((self.board.snapshot(), self.auto.get()))
            snap, auto = source.pop()
            self.board.restore(snap)
            self.auto.set(auto)
            self.hint = None
            self.redraw()

    def _toggle_mistakes(self) -> None:
        self.mistakes.set(not self.mistakes.get())
        self.redraw()

    # --- hints ------------------------------------------------------------------------------
    def ask_hint(self) -> Optional[Dict[str, Any]]:
        """The next step from the board as it stands, said and drawn; None when solved or when
        the board went wrong (then the message says how)."""
        b = self.board
        wrong = [c for c in range(len(b.values)) if b.values[c] and b.values[c] != b.solution[c]]
        if wrong:
            self.mistakes.set(True)
            self.redraw()
            self.say("A placed digit is wrong (shown in red): undo it first.", WRONG)
            return None
        marks = None if self.auto.get() else [sorted(m) for m in b.marks]
        try:
            self.hint = solver.hint(b.line(), marks, box=b.box_text)
        except ValueError as e:
            self.mistakes.set(True)
            self.redraw()
            self.say(f"No hint: {e}.", WRONG)
            return None
        self.redraw()
        if self.hint is None:
            self.say("Solved!", HINT)
        else:
            self.say(self.hint["text"], HINT)
        return self.hint

    def apply_hint(self) -> bool:
        """Plays the hint shown (asking for one first); False when there is none."""
        step = self.hint or self.ask_hint()
        if step is None:
            return False
        b, n = self.board, self.board.size
        self._remember()
        for row, col, digit in step["placements"]:
            cell = (row - 1) * n + col - 1
            b.values[cell] = digit
            b.marks[cell] = set()
            for p in b.peers(cell):
                b.marks[p].discard(digit)
        if step["eliminations"]:
            self.auto.set(False)
        for row, col, digit in step["eliminations"]:
            b.marks[(row - 1) * n + col - 1].discard(digit)
        if self.auto.get():
            b.marks = b.auto_marks()
        self.steps += 1
        self.redraw()
        return True

    def autoplay(self) -> None:
        """One hint and its application, then the next, until the board is solved."""
        if self.board.solved():
            print(f"solved in {self.steps} steps", flush=True)
            if self.args.exit_after_autoplay:
                self.root.destroy()
            return
        if not self.apply_hint():
            print(f"autoplay stopped: {self.message.cget('text')}", file=sys.stderr, flush=True)
            if self.args.exit_after_autoplay:
                self.root.destroy()
                sys.exit(1)
            return
        self.root.after(self.args.delay, self.autoplay)

    # --- input ------------------------------------------------------------------------------
    def _geometry(self) -> Tuple[float, float, float]:
        w, h = self.canvas.winfo_width(), self.canvas.winfo_height()
        side = max(min(w, h) - 20, 100)
        return (w - side) / 2, (h - side) / 2, side / self.board.size

    def _click(self, e: tk.Event) -> None:
        x0, y0, cell = self._geometry()
        n = self.board.size
        c, r = int((e.x - x0) // cell), int((e.y - y0) // cell)
        self.selected = r * n + c if 0 <= r < n and 0 <= c < n else None
        self.redraw()

    def _key(self, e: tk.Event) -> None:
        if self.selected is None or e.state & 0x4:  # nothing selected, or Control held
            return
        n = self.board.size
        r, c = divmod(self.selected, n)
        moves = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
        if e.keysym in moves:
            dr, dc = moves[e.keysym]
            self.selected = (r + dr) % n * n + (c + dc) % n
            self.redraw()
        elif e.keysym in ("Delete", "BackSpace", "0", "period"):
            self.place(self.selected, 0)
        elif len(e.char) == 1 and e.char.upper() in DIGITS:
            digit = DIGITS.index(e.char.upper()) + 1
            if digit <= n:
                if self.pencil.get():
                    self.toggle_mark(self.selected, digit)
                else:
                    self.place(self.selected, digit)

    # --- drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        if not hasattr(self, "board"):
            return
        cv, b = self.canvas, self.board
        cv.delete("all")
        x0, y0, cell = self._geometry()
        n, (br, bc) = b.size, b.box
        hint_cells, placed, struck = set(), {}, set()
        if self.hint:
            hint_cells = {(r - 1) * n + c - 1 for r, c in self.hint["cells"]}
            placed = {(r - 1) * n + c - 1: d for r, c, d in self.hint["placements"]}
            struck = {((r - 1) * n + c - 1, d) for r, c, d in self.hint["eliminations"]}
        show_wrong = self.mistakes.get()
        for k in range(n * n):
            r, c = divmod(k, n)
            x, y = x0 + c * cell, y0 + r * cell
            fill = SELECT if k == self.selected else HINT_TINT if k in hint_cells else "white"
            cv.create_rectangle(x, y, x + cell, y + cell, fill=fill, outline=GRID)
            if b.values[k]:
                wrong = show_wrong and b.values[k] != b.solution[k]
                color = WRONG if wrong else GIVEN if b.givens[k] else PLAYED
                cv.create_text(x + cell / 2, y + cell / 2, text=digit_char(b.values[k]),
                               fill=color, font=("Helvetica", int(cell * 0.5),
                                                 "bold" if b.givens[k] else "normal"))
            elif k in placed:
                cv.create_text(x + cell / 2, y + cell / 2, text=digit_char(placed[k]),
                               fill=HINT, font=("Helvetica", int(cell * 0.5), "bold"))
            else:
                self._draw_marks(k, x, y, cell, struck, show_wrong)
        for k in range(n + 1):
            thick = 3 if k % bc == 0 else 0
            if thick:
                cv.create_line(x0 + k * cell, y0, x0 + k * cell, y0 + n * cell, width=thick,
                               fill=BOX_LINE)
            if k % br == 0:
                cv.create_line(x0, y0 + k * cell, x0 + n * cell, y0 + k * cell, width=3,
                               fill=BOX_LINE)
        for k in hint_cells:
            r, c = divmod(k, n)
            cv.create_rectangle(x0 + c * cell + 2, y0 + r * cell + 2, x0 + (c + 1) * cell - 2,
                                y0 + (r + 1) * cell - 2, outline=HINT, width=3)

    def _draw_marks(self, k: int, x: float, y: float, cell: float, struck: Set[Tuple[int, int]],
                    show_wrong: bool) -> None:
        b = self.board
        per_row = b.box[1]
        rows = -(-b.size // per_row)
        dx, dy = cell / per_row, cell / rows
        size = max(int(min(dx, dy) * 0.6), 6)
        for d in sorted(b.marks[k]):
            i = d - 1
            cx, cy = x + (i % per_row + 0.5) * dx, y + (i // per_row + 0.5) * dy
            color = WRONG if (k, d) in struck else MUTED
            self.canvas.create_text(cx, cy, text=digit_char(d), fill=color,
                                    font=("Helvetica", size))
            if (k, d) in struck:
                self.canvas.create_line(cx - dx / 3, cy + dy / 3, cx + dx / 3, cy - dy / 3,
                                        fill=WRONG, width=2)
        if show_wrong and b.solution[k] not in b.marks[k]:
            self.canvas.create_rectangle(x + 3, y + 3, x + cell - 3, y + cell - 3,
                                         outline=WRONG, width=2)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--box", type=parse_box, default=(3, 3), help="box shape MxN (3x3)")
    parser.add_argument("--level", choices=LEVELS, default="easy", help="level of New puzzles")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first New puzzle")
    parser.add_argument("--open", help="a puzzle file to start with")
    parser.add_argument("--autoplay", action="store_true", help="solve hint by hint")
    parser.add_argument("--exit-after-autoplay", action="store_true")
    parser.add_argument("--delay", type=int, default=50, help="ms between autoplay steps")
    args = parser.parse_args(argv)
    root = tk.Tk()
    app = SudokuApp(root, args)
    if args.autoplay:
        root.after(300, app.autoplay)
    root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
