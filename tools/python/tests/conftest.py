"""Shared fixtures: the engine binary comes from $TESSERA_ENGINE (default: the repo's
target/release/tessera)."""

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))  # use the package from the tree when not installed

from tessera_engine_client import blokus, blokus_sgf  # noqa: E402  (after the path above)
from tessera_engine_client.blokus_match import expected_score  # noqa: E402


def engine_path() -> str:
    path = os.environ.get("TESSERA_ENGINE")
    if path:
        return path
    return str(REPO / "target" / "release" / "tessera")


def random_game(variant, seed, max_moves=None):
    """A Blokus game of seeded random legal moves (moves in notation order before the draw)."""
    rng = random.Random(seed)
    game = blokus.Game(variant)
    while max_moves is None or len(game) < max_moves:
        c = game.position.effective_to_play()
        if c is None:
            break
        moves = sorted(game.position.legal_moves(c), key=blokus.move_text)
        game.play(rng.choice(moves), c)
    return game


# A board row of `show` / `showboard`: the row number, then each cell as a space and its
# character (`.` empty, `,` empty in Callisto's centre section, `1`..`4` a colour, a space off
# the board); trailing spaces may be cut.
_BOARD_ROW = re.compile(r" ?\d+ ((?: [.,1-4 ])+?) *")


def board_rows(lines, width):
    """The board rows (top first, as `blokus.Position.rows()`) of the text lines of the engine's
    `show` or of GTP `showboard` on a board `width` cells wide (up to 26 columns)."""
    rows = []
    for line in lines:
        m = _BOARD_ROW.fullmatch(line)
        if m:
            rows.append(m.group(1).ljust(2 * width)[1::2])
    return rows


class Gtp:
    """`tessera gtp` through pipes."""

    def __init__(self, engine_cmd, *args):
        self.p = subprocess.Popen([engine_cmd, "gtp", "--nodes", "30", *args],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  universal_newlines=True, bufsize=1)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            got = self.p.stdout.readline()
            assert got, f"no answer to {line!r}"
            if got == "\n":
                break
            lines.append(got.rstrip("\n"))
        head = lines[0]
        assert head[:1] in "=?", lines
        return head[0] == "=", "\n".join([head[2:]] + lines[1:])

    def ok(self, line):
        good, text = self.ask(line)
        assert good, f"{line!r} -> {text}"
        return text

    def board_rows(self, width=None):
        """The rows of `showboard` (square boards: `width` from the header)."""
        lines = self.ok("showboard").splitlines()
        if width is None:
            width = max(len(line.split()) for line in lines if line.startswith("    a "))
        return board_rows(lines, width)

    def close(self):
        self.ask("quit")
        self.p.wait(timeout=5)


def check_a_random_game_and_its_record(engine_cmd, tmp_path, variant, game_name, max_moves):
    """A random game of ``variant`` saved in Blokus SGF under ``game_name``: at every position
    tessera gtp lists the moves the Python rules find, takes the game's move, ends with the
    Python rules' score, and loads the saved record to the same score."""
    game = random_game(variant, 7, max_moves=max_moves)
    path = tmp_path / "game.blksgf"
    blokus_sgf.save(path, game)
    assert f"GM[{game_name}]" in path.read_text()
    gtp = Gtp(engine_cmd)
    gtp.ok(f"set_game {game_name}")
    replay = blokus.Game(variant)
    info = replay.position.variant
    for m in game.moves:
        pos = replay.position
        colour = ("b", "w")[m.colour] if info.ncolours == 2 else str(m.colour + 1)
        listed = {blokus.parse_move(line, info)
                  for line in gtp.ok(f"all_legal {colour}").splitlines()}
        assert listed == set(pos.legal_moves(m.colour))
        gtp.ok(f"play {colour} {m.text}")
        replay.play(m.squares, m.colour)
    final = gtp.ok("final_score")
    assert final.split() == expected_score(info, replay.position).split()
    gtp.ok(f"loadsgf {path}")
    assert gtp.ok("final_score") == final


@pytest.fixture(scope="session")
def engine_cmd() -> str:
    path = engine_path()
    if not os.path.exists(path):
        pytest.fail(f"no engine binary at {path}: build it (cargo build --release) or set TESSERA_ENGINE")
    return path


@pytest.fixture
def engine(engine_cmd):
    from tessera_engine_client import Engine

    eng = Engine.popen(engine_cmd, timeout=10)
    try:
        yield eng
    finally:
        eng.quit()


@pytest.fixture
def gtp(engine_cmd):
    g = Gtp(engine_cmd)
    yield g
    g.close()
