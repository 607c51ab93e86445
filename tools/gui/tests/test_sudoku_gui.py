"""The sudoku board (tools/gui/sudoku.py) in a window: digits, pencil marks, mistakes, undo and
redo, hints that follow the player's marks, files, and a puzzle solved hint by hint (CI runs
these under xvfb-run; without a display, or without the native module, they are skipped)."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

GUI = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(GUI))

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (xvfb-run)")
pytest.importorskip("tessera_engine")

import tkinter as tk  # noqa: E402

import sudoku as board_gui  # noqa: E402


@pytest.fixture
def gui():
    root = tk.Tk()
    app = board_gui.SudokuApp(root, argparse.Namespace(
        box=(2, 3), level="easy", seed=3, open=None, autoplay=False, exit_after_autoplay=False,
        delay=1))
    root.update()
    yield app
    root.destroy()


def empty_cell(app):
    return next(c for c, v in enumerate(app.board.values) if v == 0)


def test_digits_mistakes_undo_and_redo(gui):
    board = gui.board
    cell = empty_cell(gui)
    wrong = next(d for d in range(1, 7) if d != board.solution[cell])
    gui.place(cell, wrong)
    row = range(cell - cell % 6, cell - cell % 6 + 6)
    assert board.values[cell] == wrong and all(wrong not in board.marks[p] for p in row)
    assert gui.ask_hint() is None and gui.mistakes.get()  # a wrong digit: no hint until undone
    gui.undo()
    assert board.values[cell] == 0 and board.marks == board.auto_marks()
    gui.redo()
    assert board.values[cell] == wrong
    gui.undo()
    given = next(c for c, g in enumerate(board.givens) if g)
    gui.place(given, 1 if board.givens[given] != 1 else 2)
    assert board.values[given] == board.givens[given]  # givens stay


def test_hints_follow_the_player_s_pencil_marks(gui):
    board = gui.board
    cell = empty_cell(gui)
    gui.toggle_mark(cell, board.solution[cell])  # takes the solution's digit out of the marks
    assert not gui.auto.get() and board.solution[cell] not in board.marks[cell]
    assert gui.ask_hint() is None and "leave out" in gui.message.cget("text")
    gui.undo()
    assert gui.auto.get()
    step = gui.ask_hint()
    assert step["text"].startswith(step["technique"] + ": ")
    assert gui.message.cget("text") == step["text"]


def test_a_puzzle_is_solved_hint_by_hint_with_sound_steps(gui):
    board = gui.board
    while not board.solved():
        step = gui.ask_hint()
        for row, col, digit in step["placements"]:
            assert board.solution[(row - 1) * 6 + col - 1] == digit
        for row, col, digit in step["eliminations"]:
            assert board.solution[(row - 1) * 6 + col - 1] != digit
        assert gui.apply_hint()
    assert gui.ask_hint() is None and gui.message.cget("text") == "Solved!"


def test_save_and_open_keep_the_puzzle_and_the_board(gui, tmp_path):
    cell = empty_cell(gui)
    gui.place(cell, gui.board.solution[cell])
    path = tmp_path / "game.txt"
    gui.save_file(path)
    played, puzzle = gui.board.line(), gui.board.line(gui.board.givens)
    gui.new_puzzle()
    gui.open_file(path)
    assert (gui.board.line(), gui.board.line(gui.board.givens)) == (played, puzzle)
    assert gui.board.box == (2, 3)
    (tmp_path / "bad.txt").write_text("." * 36 + "\n")
    gui.open_file(tmp_path / "bad.txt")
    assert "needs a '# box MxN' line" in gui.message.cget("text")
    assert gui.board.line() == played  # the board stays


def test_autoplay_prints_the_steps():
    run = subprocess.run([sys.executable, str(GUI / "sudoku.py"), "--level", "medium",
                          "--seed", "5", "--autoplay", "--exit-after-autoplay", "--delay", "1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].startswith("solved in ")
