#!/usr/bin/env python3
"""Measure the protocol's timing promises through pipes, as a GUI sees them.

    python3 tools/latency.py [--engine target/release/tessera] [--runs 100] [--load 2]
    python3 tools/latency.py --commands [--runs 5]

Reports p50 / p99 / max, in milliseconds, of:
  stop -> bestmove (during `go infinite`), isready -> readyok (during a search),
  bestmove overshoot past `go movetime T`, and go -> first `info ... pv`.
--load N runs N busy processes meanwhile (a loaded 2-core machine).
--commands instead prints, for every sudoku box from 2x2 to 5x5 and the 8x3 / 3x8 extremes in
every mode, the worst time over --runs from `isready` (sent right after `legal` on the empty
board and on boards a third filled, or after `go infinite` + `stop`) to `readyok`: how long
those commands hold the session.
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
    # Look ahead everywhere, so that `stop` meets a search still running (on this board the
    # default search is done within milliseconds and waits for `stop`).
    engine.send("setoption name LookaheadFrom value 0")
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


BOXES = ["2x2", "2x3", "3x2", "3x3", "2x4", "4x2", "3x4", "4x3", "4x4", "4x5", "5x4", "5x5",
         "8x3", "3x8"]
MODES = ["classic", "rows", "border", "random"]


def isready_after(engine, lines):
    """Sends `lines` then `isready`; ms from sending `isready` to `readyok`."""
    for line in lines:
        engine.send(line)
    sent = time.perf_counter()
    engine.send("isready")
    got, _ = engine.until("readyok")
    return (got - sent) * 1000


def mid_game_board(engine_path, box, fill, seed):
    """Rows of a grid with a `fill` share of a solved grid's cells (from `tessera sudoku
    generate --solved`), the rest empty: a mid-game board that keeps a solution."""
    solved = subprocess.run([engine_path, "sudoku", "generate", "--box", box, "--solved",
                             "--seed", str(seed)], capture_output=True, text=True,
                            check=True).stdout.split()[0]
    rng = random.Random(seed)
    n = int(len(solved) ** 0.5)
    cells = [ch if rng.random() < fill else "." for ch in solved]
    return "/".join("".join(cells[r * n:(r + 1) * n]) for r in range(n))


def commands_table(engine, engine_path, runs):
    print("Worst ms from `isready` to `readyok`, sent right after `legal` (empty board / a third"
          " filled), and after `go infinite` + `stop` (empty board).")
    print("| box | grid | " + " | ".join(f"{m}: legal empty / third / go+stop" for m in MODES) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in MODES) + " |")
    for box in BOXES:
        rows, cols = map(int, box.split("x"))
        cells = []
        for mode in MODES:
            engine.send(f"newgame sudoku box {box} mode {mode}")
            empty = max(isready_after(engine, ["legal"]) for _ in range(runs))
            search = max(isready_after(engine, ["go infinite", "stop"]) for _ in range(runs))
            third = 0.0
            for seed in range(runs):
                board = mid_game_board(engine_path, box, 1 / 3, seed)
                engine.send(f"position board {board}")
                third = max(third, isready_after(engine, ["legal"]))
            cells.append(f"{empty:.1f} / {third:.1f} / {search:.1f}")
        n = rows * cols
        print(f"| {box} | {n}x{n} | " + " | ".join(cells) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--load", type=int, default=0, help="busy processes to run meanwhile")
    ap.add_argument("--commands", action="store_true", help="time isready after legal and go+stop on every sudoku box")
    args = ap.parse_args()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        engine = Engine(args.engine)
        print(f"runs {args.runs}, busy processes {args.load}")
        if args.commands:
            commands_table(engine, args.engine, args.runs)
        else:
            measure(engine, args.runs, args.movetime)
        engine.quit()
    finally:
        for p in load:
            p.kill()


if __name__ == "__main__":
    main()
