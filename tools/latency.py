#!/usr/bin/env python3
"""Measure the protocol's timing promises through pipes, as a GUI sees them.

    python3 tools/latency.py [--engine target/release/tessera] [--runs 100] [--load 2]

Reports p50 / p99 / max, in milliseconds, of:
  stop -> bestmove (during `go infinite`), isready -> readyok (during a search),
  bestmove overshoot past `go movetime T`, and go -> first `info ... pv`.
--load N runs N busy processes meanwhile (a loaded 2-core machine).
"""
import argparse
import random
import subprocess
import sys
import time

POSITION = "position board ........./........./........./........./..#####../........./........./........./...###... score 10"
HANDS = ["##/#. ### #/#/#", "### .#./###/.#. ##/##", "#/#/#/#/# #../### #.#/###", "# ## #/#"]


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     universal_newlines=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """Reads lines until one starts with prefix; returns (time it came, lines)."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            lines.append(line.strip())
            if line.startswith(prefix):
                return time.perf_counter(), lines

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def stats(name, values):
    values = sorted(values)
    p = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    print(f"{name:34s} n={len(values):4d} p50={p(0.5):7.2f} p99={p(0.99):7.2f} max={values[-1]:7.2f} ms")


def measure(engine, runs, movetime):
    rng = random.Random(1)
    stop_ms, ready_ms, over_ms, first_ms = [], [], [], []
    engine.send("newgame blockudoku")
    engine.send(POSITION)
    for i in range(runs):
        engine.send("pieces " + HANDS[i % len(HANDS)])
        # go infinite; first info; isready mid-search; stop.
        sent = time.perf_counter()
        engine.send("go infinite")
        got, _ = engine.until("info")
        first_ms.append((got - sent) * 1000)
        time.sleep(rng.uniform(0.005, 0.05))
        sent = time.perf_counter()
        engine.send("isready")
        got, _ = engine.until("readyok")
        ready_ms.append((got - sent) * 1000)
        time.sleep(rng.uniform(0.005, 0.05))
        sent = time.perf_counter()
        engine.send("stop")
        got, _ = engine.until("bestmove")
        stop_ms.append((got - sent) * 1000)
        # go movetime: overshoot past the deadline.
        sent = time.perf_counter()
        engine.send(f"go movetime {movetime}")
        got, _ = engine.until("bestmove")
        over_ms.append((got - sent) * 1000 - movetime)
    stats("stop -> bestmove", stop_ms)
    stats("isready -> readyok (mid-search)", ready_ms)
    stats(f"bestmove - movetime {movetime}", over_ms)
    stats("go -> first info with pv", first_ms)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--load", type=int, default=0, help="busy processes to run meanwhile")
    args = ap.parse_args()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        engine = Engine(args.engine)
        print(f"runs {args.runs}, busy processes {args.load}")
        measure(engine, args.runs, args.movetime)
        engine.quit()
    finally:
        for p in load:
            p.kill()


if __name__ == "__main__":
    main()
