"""The engine binary ($TESSERA_ENGINE, default the checkout's target/release/tessera), and this
tree's tessera_engine_farm and tessera_engine_client importable (helpers: farm_helpers.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
FARM = REPO / "tools" / "farm"
sys.path.insert(0, str(FARM))
sys.path.insert(0, str(REPO / "tools" / "python"))


@pytest.fixture(scope="session")
def engine() -> str:
    path = Path(os.environ.get("TESSERA_ENGINE", REPO / "target" / "release" / "tessera"))
    if not path.is_file():
        pytest.fail(f"no engine binary at {path}: build it (cargo build --release) or set "
                    "TESSERA_ENGINE")
    return str(path.resolve())
