"""Shared fixtures: the engine binary comes from $TESSERA_ENGINE (default: the repo's
target/release/tessera)."""

import os
import random
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))  # use the package from the tree when not installed

from tessera_client import blokus  # noqa: E402  (after the path above)


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


@pytest.fixture(scope="session")
def engine_cmd() -> str:
    path = engine_path()
    if not os.path.exists(path):
        pytest.fail(f"no engine binary at {path}: build it (cargo build --release) or set TESSERA_ENGINE")
    return path


@pytest.fixture
def engine(engine_cmd):
    from tessera_client import Engine

    eng = Engine.popen(engine_cmd, timeout=10)
    try:
        yield eng
    finally:
        eng.quit()
