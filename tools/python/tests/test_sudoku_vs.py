"""tools/sudoku_vs.py: the real engine against a fake peer that reports fixed times; the table
has a row per file, the times are the fastest of the rounds and the ratios follow from them."""

import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2]

# A peer driver: FILE LIMIT REPEAT -> "best X us/puzzle", slower on its first call per limit.
FAKE = r'''
import sys, os
path, limit, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
n = sum(1 for line in open(path) if len(line.strip()) >= 81)
mark = path + ".calls%d" % limit
calls = int(open(mark).read()) if os.path.exists(mark) else 0
open(mark, "w").write(str(calls + 1))
us = (10.0 if calls == 0 else 4.0) * limit
print("%s limit %d: %d puzzles, %d solutions, 0 guesses, best %.3f us/puzzle" % (path, limit, n, n, us))
'''

PUZZLES = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
]


def test_table_of_fastest_rounds(engine_cmd, tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE)
    puzzles = tmp_path / "two.txt"
    puzzles.write_text("\n".join(PUZZLES) + "\n")
    out = subprocess.run(
        [sys.executable, str(TOOLS / "sudoku_vs.py"), "--tessera", engine_cmd,
         "--peer", f"fake={sys.executable} {fake}", "--rounds", "2", "--repeat", "1",
         str(puzzles)],
        capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].startswith("| set | tessera first | fake first | tessera count 2")
    row = [cell.strip() for cell in lines[2].strip("|").split("|")]
    assert row[0] == "two.txt"
    tessera_first, fake_first, tessera_count, fake_count = map(float, row[1:5])
    assert (fake_first, fake_count) == (4.0, 8.0), "the fastest round is kept"
    assert tessera_first > 0 and tessera_count > 0
    # The ratios come from the unrounded times.
    assert abs(float(row[5]) - tessera_first / fake_first) < 0.01
    assert abs(float(row[6]) - tessera_count / fake_count) < 0.01
    assert "fake two.txt 2/2" in lines[-1]
