"""Helpers of the tests: ``tessera-farm`` run as a subprocess (from the repository root, or from
a folder outside it) on the session's local Ray (conftest.py), tessera itself, and the totals lines with the timing fields taken out (they differ
from run to run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

REPO = Path(__file__).resolve().parents[3]
FARM = REPO / "tools" / "farm"

TIMING = re.compile(r" (cpu_ms_per_round|wall_ms_per_round|elapsed_s) \S+")


def farm_environment() -> dict:
    """The environment of a tessera-farm run: this tree's package, the session's Ray (never a
    cluster the environment names)."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    if "TESSERA_FARM_TEST_RAY" in env:
        env["RAY_ADDRESS"] = env["TESSERA_FARM_TEST_RAY"]
    env["PYTHONPATH"] = os.pathsep.join([str(FARM)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def farm_command(*args: str) -> List[str]:
    return [sys.executable, "-m", "tessera_engine_farm", *args]


def farm(*args: str, timeout: float = 300, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """Runs ``tessera-farm ARGS`` from ``cwd`` (default the repository root) on the session's
    Ray of two CPUs."""
    return subprocess.run(farm_command(*args), cwd=cwd, env=farm_environment(),
                          capture_output=True, text=True, timeout=timeout)


def tessera(engine: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([engine, *args], cwd=REPO, capture_output=True, text=True,
                          check=True, timeout=300)


def comparable(stdout: str) -> List[str]:
    """The totals lines without the CPU, wall and elapsed times."""
    lines = [TIMING.sub("", line) for line in stdout.splitlines()]
    return [line for line in lines if not line.startswith("cpu_ms_per_move")]
