"""The Blokus GUI's headless game analysis (``--analyze --exit-after-analysis``, no window needed)
on a game Pentobi played against itself (``tests/data/blokus/duo-pentobi.blksgf``: its level 5
as Black against its level 2, Black winning 74 to 61), against the real engine."""

import os
import re
import subprocess
import sys
from pathlib import Path

GUI = Path(__file__).resolve().parents[1]
REPO = GUI.parents[1]
sys.path.insert(0, str(REPO / "tools" / "python"))

from tessera_engine_client import blokus_sgf  # noqa: E402

ENGINE = os.environ.get("TESSERA_ENGINE", str(REPO / "target" / "release" / "tessera"))
RECORD = REPO / "tests" / "data" / "blokus" / "duo-pentobi.blksgf"
LINE = re.compile(r"move (\d+) colour ([12]) value (0\.\d{3}|1\.000)")


def test_every_move_gets_a_value_and_the_winner_ends_near_one():
    game = blokus_sgf.load(RECORD).replay()
    out = subprocess.run(
        [sys.executable, str(GUI / "blokus.py"), "--engine", ENGINE, "--open", str(RECORD),
         "--analyze", "--exit-after-analysis", "--analysis-nodes", "300"],
        capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert len(out) == len(game) == 31
    values = []
    for k, (line, move) in enumerate(zip(out, game.moves), 1):
        m = LINE.fullmatch(line)
        assert m, line
        assert int(m.group(1)) == k and int(m.group(2)) == move.colour + 1
        values.append((move.colour, float(m.group(3))))
    # Black (colour 1) won: its last three moves (the game's last three, White being out of
    # moves) are worth at least 0.8 to it, and White's last move at most 0.2 to White.
    assert all(v >= 0.8 for _, v in values[-3:]) and values[-1][1] == 1.0, values
    white = [v for c, v in values if c == 1]
    assert white[-1] <= 0.2, values
