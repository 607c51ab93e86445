"""The engine binary ($TESSERA_ENGINE, default the checkout's target/release/tessera), this
tree's tessera_engine_farm and tessera_engine_client importable (helpers: farm_helpers.py), and
one local Ray of two CPUs that every ``tessera-farm`` run of the session joins (started here, so
its processes are this process's descendants; a run that starts its own Ray costs seconds)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
FARM = REPO / "tools" / "farm"
sys.path.insert(0, str(FARM))
sys.path.insert(0, str(REPO / "tools" / "python"))


@pytest.fixture(scope="session", autouse=True)
def shared_ray():
    """Starts the session's Ray and names it to the runs (farm_helpers.farm_environment)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING",
             log_to_driver=False)
    os.environ["TESSERA_FARM_TEST_RAY"] = ray.get_runtime_context().gcs_address
    yield
    del os.environ["TESSERA_FARM_TEST_RAY"]
    ray.shutdown()


@pytest.fixture(scope="session")
def engine() -> str:
    path = Path(os.environ.get("TESSERA_ENGINE", REPO / "target" / "release" / "tessera"))
    if not path.is_file():
        pytest.fail(f"no engine binary at {path}: build it (cargo build --release) or set "
                    "TESSERA_ENGINE")
    return str(path.resolve())
