"""gui_common.hint_lines: a search's lines as the GUIs show them (no display needed)."""

import sys
from pathlib import Path

GUI = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(GUI), str(GUI.parents[1] / "tools" / "python")]

from gui_common import hint_lines  # noqa: E402


def test_best_first_then_distinct_lines():
    lines = [{"depth": 3, "multipv": 1, "score": 50, "pv": ["a", "x"]},
             {"depth": 2, "multipv": 2, "score": 40, "pv": ["a", "y"]},  # repeats line 1
             {"depth": 2, "multipv": 3, "score": 30, "pv": ["b"]}]
    assert hint_lines(["a"], lines) == [(50, ["a"]), (30, ["b"])]
    # Blockudoku: a line is the whole hand, so the second one differs.
    assert hint_lines(["a", "x"], lines, whole=True) == [(50, ["a", "x"]), (40, ["a", "y"]),
                                                         (30, ["b"])]


def test_no_move_no_line_and_unsearched_scores():
    assert hint_lines([], [{"depth": 0, "score": 0}]) == []
    assert hint_lines(["e10"], [{"depth": 0, "score": 0, "pv": ["e10"]}]) == [(None, ["e10"])]
    assert hint_lines(["e10"], []) == [(None, ["e10"])]
