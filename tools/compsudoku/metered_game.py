#!/usr/bin/env python3
"""Runs the framework's simulate_game.py and reports the CPU time each player used.

    python3 metered_game.py simulate_game.py --first=A --second=B ...   (in the checkout)

The framework forks a process for every turn and terminates it at the deadline. Just before
that, this wrapper reads the turn process's CPU time (from /proc) and adds it to
the player whose compute_best_move it ran. A player that drives an engine process of its own
(the tessera adapter keeps one in `.engine`) is also charged what that process used since the
player's previous turn. At exit it prints one line:

    CPU-METER {"players": [{"module": ..., "turns": N, "cpu_s": S}, ...]}

players in the order of their first turn (the first player first). Linux only; elsewhere the
game runs unmetered.
"""

import atexit
import json
import multiprocessing
import os
import runpy
import sys

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid, precise=True):
    """CPU seconds of process `pid`, or None. Precise: nanoseconds from the schedstat of each
    thread it has now (for short-lived turn processes). Else, and for an exited process: clock
    ticks of user + system time from its stat, which also counts threads that have ended."""
    try:
        if not precise:
            raise OSError
        tasks = os.listdir(f"/proc/{pid}/task")
        total = 0
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        if tasks:
            return total / 1e9
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


class Meter:
    def __init__(self):
        self.players = {}  # id(player) -> record, in order of first turn
        self.engine_seen = {}  # id(player) -> the engine's CPU at the last reading

    def record(self, player):
        key = id(player)
        if key not in self.players:
            self.players[key] = {"module": type(player).__module__.split(".")[0], "turns": 0, "cpu_s": 0.0}
        return self.players[key]

    def engine_cpu(self, player):
        engine = getattr(player, "engine", None)
        process = getattr(engine, "process", None)
        return process_cpu(process.pid, precise=False) if process is not None else None

    def turn_started(self, player):
        record = self.record(player)
        if id(player) not in self.engine_seen:
            self.engine_seen[id(player)] = self.engine_cpu(player)
        return record

    def turn_ended(self, player, pid):
        record = self.record(player)
        turn = process_cpu(pid)
        if turn is not None:
            record["cpu_s"] += turn
        now, before = self.engine_cpu(player), self.engine_seen.get(id(player))
        if now is not None and before is not None:
            record["cpu_s"] += max(0.0, now - before)
        self.engine_seen[id(player)] = now
        record["turns"] += 1

    def report(self):
        players = [{**r, "cpu_s": round(r["cpu_s"], 3)} for r in self.players.values()]
        print("CPU-METER " + json.dumps({"players": players}), flush=True)


def install(meter):
    start, terminate = multiprocessing.Process.start, multiprocessing.Process.terminate

    def player_of(process):
        return getattr(getattr(process, "_target", None), "__self__", None)

    def metered_start(self):
        player = player_of(self)
        if player is not None:
            meter.turn_started(player)
            # start() drops the target (bpo-30775); terminate() needs the player.
            self._metered_player = player
        return start(self)

    def metered_terminate(self):
        player = getattr(self, "_metered_player", None)
        if player is not None and self.pid is not None:
            meter.turn_ended(player, self.pid)
        return terminate(self)

    multiprocessing.Process.start = metered_start
    multiprocessing.Process.terminate = metered_terminate


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    if os.path.isdir("/proc"):
        meter = Meter()
        install(meter)
        atexit.register(meter.report)
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
