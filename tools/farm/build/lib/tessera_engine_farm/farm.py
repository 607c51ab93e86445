"""Running shards as Ray tasks: the Ray session of a run (a local Ray started for it, or the
cluster at ``--address`` / ``RAY_ADDRESS``), the loop that submits shards, saves each one as it
finishes and stops early when asked, and the progress bar.

Failures. A worker process that dies (killed, out of memory, its node lost) has its task run
again by Ray, up to ``--retries`` times; the shard's result is saved once, when a run of it
finishes. A shard that raises :class:`ShardFailed` (a missing binary, an engine that dies or
breaks the rules) stops the run: no new shard is started, the ones running are finished and
saved, and the error names the shard and the cause.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional

import ray
from tqdm import tqdm

from .rundir import RunFolder
from .shards import Shard

OBJECT_STORE_BYTES = 100 * 1024 * 1024
"""The local Ray's object store: shard results are small, so the minimum Ray accepts is plenty."""


class ShardFailed(Exception):
    """A shard could not be played; the message says which engine failed and how."""


@dataclass(frozen=True)
class FarmOptions:
    """Where and how shards run (none of it changes the results)."""

    address: Optional[str] = None
    """A Ray cluster (``ray://...``, ``HOST:PORT`` or ``auto``); else ``RAY_ADDRESS``; else a
    local Ray started for the run."""
    workers: Optional[int] = None
    """CPUs of the local Ray (default: all of this machine's)."""
    retries: int = 3
    """Times a shard is run again after its worker died."""


class Progress:
    """A bar over the run's games: done, rate, time left."""

    def __init__(self, total: int, done: int, label: str) -> None:
        self.bar = tqdm(total=total, initial=done, unit="game", desc=label, file=sys.stderr,
                        dynamic_ncols=True, smoothing=0.05)

    def advance(self, games: int, note: str) -> None:
        self.bar.set_postfix_str(note, refresh=False)
        self.bar.update(games)

    def write(self, line: str) -> None:
        """A line for people on stderr, above the bar."""
        self.bar.write(line, file=sys.stderr)

    def close(self) -> None:
        self.bar.close()


class Farm:
    """A Ray session for one run."""

    def __init__(self, options: FarmOptions, runtime_env: dict) -> None:
        self.options = options
        address = options.address or os.environ.get("RAY_ADDRESS")
        quiet = {"runtime_env": runtime_env, "logging_level": logging.WARNING,
                 "log_to_driver": False}  # stdout carries the totals only
        if address:
            ray.init(address=address, **quiet)
        else:
            # "local": a new Ray for this run, even where `ray start` runs a cluster already.
            ray.init(address="local", num_cpus=options.workers or os.cpu_count(),
                     include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES, **quiet)
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.shards_by_node: Counter = Counter()

    def describe(self) -> str:
        nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        return f"Ray with {self.cpus} CPUs on {nodes} node{'s' * (nodes != 1)}"

    def nodes_line(self) -> str:
        """``shards played by node: 5f3a.. 8, 9c1e.. 7`` for the shards of this session."""
        counts = ", ".join(f"{node[:8]} {n}" for node, n in self.shards_by_node.most_common())
        return f"shards played by node: {counts or 'none'}"

    def close(self) -> None:
        ray.shutdown()

    def run(
        self,
        folder: RunFolder,
        shards: List[Shard],
        task: Callable[[Dict[str, Any], Shard], Dict[str, Any]],
        setup: Dict[str, Any],
        progress: Progress,
        note: Callable[[Dict[str, Any]], str],
        enough: Optional[Callable[[Dict[str, Any]], bool]] = None,
    ) -> Dict[str, Any]:
        """Plays every shard not yet in ``folder`` with ``task(setup, shard)`` on the workers and
        saves each result as it comes; returns every shard's result by name (those read back
        from the folder included). ``enough(results)`` (if given) is asked after each shard:
        True stops the run and cancels the shards still running. ``note(results)`` is the
        progress bar's text. Raises :class:`ShardFailed` for a shard that failed."""
        results = {s.name: folder.load(s.name) for s in shards if folder.finished(s.name)}
        if enough is not None and enough(results):
            return results
        remote = ray.remote(num_cpus=1, max_retries=self.options.retries)(play_on_worker)
        setup_ref = ray.put(setup)
        waiting = iter([s for s in shards if s.name not in results])
        running: Dict[Any, Shard] = {}
        failures: List[str] = []
        stopped = False
        while True:
            while not (failures or stopped) and len(running) < 2 * self.cpus:
                shard = next(waiting, None)
                if shard is None:
                    break
                running[remote.remote(task, setup_ref, shard)] = shard
            if not running:
                break
            [ready], _ = ray.wait(list(running), num_returns=1)
            shard = running.pop(ready)
            try:
                result = ray.get(ready)
            except ray.exceptions.RayTaskError as e:
                failures.append(f"{shard.describe()}: {cause_of(e)}")
                continue
            except ray.exceptions.RayError as e:
                failures.append(f"{shard.describe()}: its worker failed {self.options.retries + 1} "
                                f"times ({type(e).__name__}: {e})")
                continue
            self.shards_by_node[result.pop("node")] += 1
            folder.save(shard.name, result)
            results[shard.name] = result
            progress.advance(shard.count, note(results))
            if enough is not None and enough(results):
                stopped = True
                for ref in running:
                    ray.cancel(ref, force=True)
                running.clear()
        if failures:
            raise ShardFailed("\n".join(failures))
        return results


def play_on_worker(task: Callable[[Dict[str, Any], Shard], Dict[str, Any]], setup: Dict[str, Any],
                   shard: Shard) -> Dict[str, Any]:
    """What a Ray task runs: the shard, its result marked with the node that played it."""
    result = task(setup, shard)
    result["node"] = ray.get_runtime_context().get_node_id()
    return result


def cause_of(error: "ray.exceptions.RayTaskError") -> str:
    """The message of the exception a task raised, without Ray's traceback."""
    cause = getattr(error, "cause", None)
    if cause is None:
        return str(error).strip().splitlines()[-1]
    return f"{cause}" if isinstance(cause, ShardFailed) else f"{type(cause).__name__}: {cause}"


def games_in(results: Iterable[Dict[str, Any]]) -> int:
    """Games held by shard results (each result has ``count``)."""
    return sum(result["count"] for result in results)

