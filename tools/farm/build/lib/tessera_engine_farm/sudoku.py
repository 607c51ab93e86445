"""Competitive Sudoku matches between two builds, a shard of game pairs per Ray task, each pair
played by ``tessera selfplay sudoku --games 2 --opponent engine:OTHER`` of the build under test.

selfplay seeds game ``i`` from ``seed * GOLDEN ^ i`` (with ``--openings``: pair ``i // 2``), so
the two-game run with the slice seed of :func:`tessera_engine_farm.shards.slice_seed` plays exactly
pair ``k`` of the run seeded ``seed``: the build under test first in its first game, second in
the other. Its totals lines give the pair's result; its per-game lines on stderr give the
forfeits' reasons.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from typing import Any, Dict, List

from .farm import ShardFailed
from .shards import Shard, slice_seed

GAMES_LINE = re.compile(r"^games 2 wins (\d+) draws (\d+) losses (\d+) forfeits (\d+) "
                        r"\(as first: (\d+)-(\d+)-(\d+)\)$", re.M)
CPU_LINE = re.compile(r"^cpu_ms_per_move engine (\S+) opponent (\S+) "
                      r"\(moves measured (\d+) / (\d+)\)$", re.M)
MEANS_LINE = re.compile(r"^margin_mean (\S+) engine_passes_mean (\S+) "
                        r"opponent_taboos_mean (\S+) ", re.M)
GAME_NOTE = re.compile(r"^game \d+: engine (first|second) margin ")


def pair_seed(seed: int, pair: int, openings: int) -> int:
    """The seed of the two-game selfplay run that plays pair ``pair`` of the run seeded
    ``seed``: its games are numbered by pair with openings, by game without."""
    return slice_seed(seed, pair if openings > 0 else 2 * pair)


def play_shard(setup: Dict[str, Any], shard: Shard) -> Dict[str, Any]:
    """Plays the pairs of games ``shard.first .. shard.last`` (a Ray task); returns
    ``{"count", "pairs"}`` (see :mod:`tessera_engine_farm.matches`)."""
    pairs = [play_pair(setup, pair) for pair in range(shard.first // 2, (shard.last + 1) // 2)]
    return {"count": shard.count, "pairs": pairs}


def selfplay_command(setup: Dict[str, Any], pair: int) -> List[str]:
    limits = [word for name, value in setup["limits"].items()
              for word in (f"--{name}", str(value))]
    return shlex.split(setup["engine"]) + [
        "selfplay", "sudoku", "--games", "2",
        "--seed", str(pair_seed(setup["seed"], pair, setup["openings"])),
        "--box", setup["box"], "--mode", setup["mode"], "--openings", str(setup["openings"]),
        "--opponent", f"engine:{setup['opponent']}"] + limits


def play_pair(setup: Dict[str, Any], pair: int) -> Dict[str, Any]:
    """One pair of games; raises :class:`ShardFailed` when selfplay fails or prints
    something else than its totals."""
    try:
        done = subprocess.run(selfplay_command(setup, pair), capture_output=True, text=True)
    except OSError as e:
        raise ShardFailed(f"cannot run {setup['engine_label']!r}: {e}") from None
    if done.returncode != 0:
        raise ShardFailed(f"{setup['engine_label']!r} selfplay sudoku failed on pair {pair} "
                          f"(exit {done.returncode}): {done.stderr.strip()}")
    games, cpu, means = (p.search(done.stdout) for p in (GAMES_LINE, CPU_LINE, MEANS_LINE))
    if not (games and cpu and means):
        raise ShardFailed(f"{setup['engine_label']!r} selfplay sudoku printed no totals for "
                          f"pair {pair}:\n{done.stdout}")
    wins, draws, losses, forfeits, *as_first = (int(x) for x in games.groups())
    moves = [int(cpu.group(3)), int(cpu.group(4))]
    cpu_ms = [0.0 if moves[k] == 0 else float(cpu.group(k + 1)) * moves[k] for k in range(2)]
    margin, passes, taboos = (float(x) * 2 for x in means.groups())
    notes = [f"pair {pair} {line}" for line in done.stderr.splitlines()
             if line.startswith("game ") and not GAME_NOTE.match(line)]
    return {
        "pair": pair, "tally": [wins, draws, losses], "as_first": as_first,
        "forfeits": forfeits, "cpu_ms": cpu_ms, "moves": moves,
        "sums": {"margin": round(margin), "passes": round(passes), "taboos": round(taboos)},
        "notes": notes,
    }
