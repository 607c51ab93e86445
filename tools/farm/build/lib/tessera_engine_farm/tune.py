"""Blockudoku weight tuning, the worker side and the weights themselves: a shard plays games of
one candidate's weights with ``tessera selfplay blockudoku --weights W --death-chance N
--jsonl FILE``; the candidate's fitness is the exact death chance per round over its games
(``selfplay``'s ``death_chance_per_round``: the expected deaths, far less noisy than deaths).

Slices. The games of a generation are games ``0 .. G-1`` of the selfplay run seeded with the
generation's seed; a shard plays games ``first .. first + n - 1`` of it as a run with the slice
seed of :func:`tessera_engine_farm.shards.slice_seed` (shards of a power of two games), from the
start boards turned so that its game ``j`` starts from board ``(first + j) mod count``. At ``--depth``
2 and less these are exactly the games of one run; deeper, the look-ahead samples differ from
one run's (they are drawn from the seed), but a shard still plays the same games wherever it
runs.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .farm import ShardFailed
from .shards import Shard, slice_seed
from .stats import rate_and_error

NOT_POSITIVE = ("unfit", "scarce", "clear_shortfall")
"""Features whose weights must stay <= 0: the engine's search bounds rely on it
(``NOT_POSITIVE`` of src/cli/training.rs)."""

WEIGHT_LINE = re.compile(r"^\s*(-?\d+),\s*//\s*(\w+)\s*$")


def builtin_weights(engine: List[str]) -> Tuple[List[str], List[int]]:
    """The feature names and built-in weights of a tessera binary: what ``tessera tune
    blockudoku --generations 0 --out FILE`` writes (its start weights, unchanged)."""
    with tempfile.TemporaryDirectory() as scratch:
        starts, out = Path(scratch) / "starts.txt", Path(scratch) / "weights.txt"
        starts.write_text("/".join(["." * 9] * 9) + "\n")
        done = subprocess.run(engine + ["tune", "blockudoku", "--starts", str(starts),
                                        "--generations", "0", "--games", "1", "--out", str(out)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not out.exists():
            raise ValueError(f"cannot read the built-in weights of {shlex.join(engine)}: "
                             f"{done.stderr.strip()}")
        pairs = [m.groups() for m in map(WEIGHT_LINE.match, out.read_text().splitlines()) if m]
    return [name for _, name in pairs], [int(value) for value, _ in pairs]


def weights_text(weights: List[int]) -> str:
    """Weights as ``selfplay --weights`` takes them: ``-5,-90,...``."""
    return ",".join(str(w) for w in weights)


class Encoding:
    """Weights as the vector CMA-ES searches: each weight divided by its own scale (its start
    value's size, at least 4), so one step size fits all, as ``tessera tune`` does."""

    def __init__(self, names: List[str], start: List[int]) -> None:
        self.names = names
        self.scale = [max(abs(w), 4) for w in start]

    def vector(self, weights: List[int]) -> List[float]:
        return [w / s for w, s in zip(weights, self.scale)]

    def weights(self, vector) -> List[int]:
        """The integer weights of a vector, the piece features kept <= 0."""
        weights = [round(float(x) * s) for x, s in zip(vector, self.scale)]
        return [min(w, 0) if name in NOT_POSITIVE else w for w, name in zip(weights, self.names)]


def play_shard(setup: Dict[str, Any], shard: Shard) -> Dict[str, Any]:
    """Plays the shard's games with its candidate's weights (a Ray task); returns ``{"count",
    "games"}`` with selfplay's JSON line of each game (``game`` made absolute)."""
    seed = shard.payload["seed"]
    with tempfile.TemporaryDirectory() as scratch:
        jsonl = Path(scratch) / "games.jsonl"
        command = shlex.split(setup["engine"]) + [
            "selfplay", "blockudoku", "--games", str(shard.count), "--seed",
            str(slice_seed(seed, shard.first)), "--depth", str(setup["depth"]),
            "--cap", str(setup["cap"]), "--death-chance", str(setup["death_chance"]),
            "--pieceset", setup["pieceset"], "--weights", weights_text(shard.payload["weights"]),
            "--jsonl", str(jsonl)]
        if setup["starts"]:
            starts = Path(scratch) / "starts.txt"
            starts.write_text("".join(f"{b}\n" for b in turned(setup["starts"], shard.first)))
            command += ["--starts", str(starts)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise ShardFailed(f"{setup['engine_label']!r} selfplay failed (exit "
                              f"{done.returncode}): {done.stderr.strip()}")
        games = [json.loads(line) for line in jsonl.read_text().splitlines()]
    for game in games:
        game["game"] += shard.first
        game["seed"] = seed
    return {"count": shard.count, "games": games}


def turned(starts: List[str], first: int) -> List[str]:
    """The start boards turned so that game ``j`` of a slice from ``first`` starts from board
    ``(first + j) mod count``."""
    k = first % len(starts)
    return starts[k:] + starts[:k]


def fitness(games: List[Dict[str, Any]]) -> float:
    """Exact death chance per round asked over the games (lower is better)."""
    rate, _ = rate_and_error([(g["chance"], g["rounds"] + g["died"]) for g in games])
    return rate


def games_of(results: Dict[str, Any], prefix: str) -> List[Dict[str, Any]]:
    """The games of the shards whose names start with ``prefix`` (one candidate's)."""
    return [g for name, result in results.items() if name.startswith(prefix)
            for g in result["games"]]


def generation_line(record: Dict[str, Any], generations: int,
                    weights: Optional[List[int]] = None) -> str:
    """One generation's line: best candidate, mean of the distribution, start weights."""
    line = (f"gen {record['generation'] + 1:>3}/{generations}  best candidate "
            f"{record['best']:.4e}  mean {record['mean']:.4e}  start weights {record['start']:.4e}"
            f"  (death chance per round)")
    return line if weights is None else f"{line}\n  mean weights {weights_text(weights)}"
