"""tessera-farm tune: a small CMA-ES run on the tests' local Ray of two CPUs. The start weights'
fitness in the first generation is selfplay's death chance per round on the same games; the
weights file is one line selfplay --weights takes; started again, the run plays nothing and
learns the same weights."""

from __future__ import annotations

import json
import re

from farm_helpers import farm, tessera

from tessera_engine_farm.stats import rate_and_error

STARTS = "data/blockudoku/starts/hard100.txt"


def test_a_small_tuning_run(engine, tmp_path):
    command = ["tune", "--engine", engine, "--starts", STARTS, "--games", "8", "--cap", "20",
               "--generations", "2", "--population", "3", "--shard-games", "4", "--seed", "7",
               "--workers", "2", "--run-dir", str(tmp_path / "run")]
    run = farm(*command)
    assert run.returncode == 0, run.stderr
    first = re.search(r"^gen   1/2 .* start weights (\S+) ", run.stdout, re.M)
    jsonl = tmp_path / "selfplay.jsonl"
    tessera(engine, "selfplay", "blockudoku", "--depth", "2", "--games", "8", "--cap", "20",
            "--seed", "7", "--starts", STARTS, "--death-chance", "24", "--jsonl", str(jsonl))
    games = [json.loads(line) for line in jsonl.read_text().splitlines()]
    rate, _ = rate_and_error([(g["chance"], g["rounds"] + g["died"]) for g in games])
    assert first and first.group(1) == f"{rate:.4e}", (run.stdout, rate)

    weights = (tmp_path / "run" / "weights.txt").read_text().strip()
    assert re.fullmatch(r"-?\d+(,-?\d+){19}", weights)
    tessera(engine, "selfplay", "blockudoku", "--depth", "1", "--games", "1", "--cap", "5",
            "--weights", weights)
    assert (tmp_path / "run" / "fitness.png").stat().st_size > 10_000

    shards = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "run" / "shards").glob("*.json")}
    assert len(shards) == 2 * (3 + 2) * 2  # generations x (candidates, mean, start) x shards
    again = farm(*command)
    assert again.returncode == 0, again.stderr
    stored = (tmp_path / "run" / "shards").glob("*.json")
    assert {p.name: p.stat().st_mtime_ns for p in stored} == shards
    assert again.stdout == run.stdout
