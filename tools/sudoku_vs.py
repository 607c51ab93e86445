#!/usr/bin/env python3
"""Time tessera's 9x9 solver against other solvers on the same puzzle files, in one run.

    python3 tools/sudoku_vs.py --tessera target/release/tessera \
        --peer tdoku=/path/to/tdoku-driver --peer sudoku=/path/to/crate-driver \
        [--rounds 3] [--repeat 3] [--cpu 1] FILE...

A peer is any command that, given `FILE LIMIT REPEAT` (LIMIT 1: first solution, 2: count to
2), reads the puzzles of FILE (one 81-character line each), solves each one REPEAT times over
and prints `best X us/puzzle` (the fastest pass). tessera runs `sudoku bench --repeat REPEAT`.
Rounds are interleaved (every program on every file, then again) and the fastest round is
kept, so that a noisy neighbour hurts every program alike. With --cpu every run is pinned to
that core (`taskset -c`). Prints a markdown table of microseconds per puzzle, the ratio
tessera / first peer for both modes, and each program's solution totals as a check that they
agree.
"""
import argparse
import os
import re
import subprocess
import sys

PEER_LINE = re.compile(r"limit (\d+): (\d+) puzzles, (\d+) solutions.*best ([0-9.]+) us/puzzle")
TESSERA_MODE = re.compile(r"^(first solution|count to 2): ([0-9.]+) µs/puzzle wall")


def pinned(cmd, cpu):
    return (["taskset", "-c", str(cpu)] + cmd) if cpu is not None else cmd


def run_tessera(binary, path, repeat, cpu):
    """(first µs, count-2 µs) of one `tessera sudoku bench` run."""
    out = subprocess.run(pinned([binary, "sudoku", "bench", "--repeat", str(repeat), path], cpu),
                         capture_output=True, text=True, check=True).stdout
    times = {}
    for line in out.splitlines():
        m = TESSERA_MODE.match(line)
        if m:
            times[m.group(1)] = float(m.group(2))
    if len(times) != 2:
        sys.exit(f"unexpected tessera output on {path}:\n{out}")
    return times["first solution"], times["count to 2"]


def run_peer(cmd, path, limit, repeat, cpu):
    """(µs per puzzle, solutions found) of one peer run."""
    out = subprocess.run(pinned(cmd.split() + [path, str(limit), str(repeat)], cpu),
                         capture_output=True, text=True, check=True).stdout
    m = PEER_LINE.search(out)
    if not m:
        sys.exit(f"unexpected output of `{cmd}` on {path}:\n{out}")
    return float(m.group(4)), int(m.group(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tessera", required=True, help="the tessera binary")
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=CMD",
                    help="a solver driver (see above); the first one is the ratio's reference")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (fastest kept)")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the file per run")
    ap.add_argument("--cpu", type=int, help="pin every run to this core")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    peers = []
    for p in args.peer:
        name, _, cmd = p.partition("=")
        if not cmd:
            ap.error(f"--peer {p}: expected NAME=CMD")
        peers.append((name, cmd))
    inf = float("inf")
    best = {}  # (program, file, limit) -> µs
    solutions = {}
    for r in range(args.rounds):
        for path in args.files:
            first, count = run_tessera(args.tessera, path, args.repeat, args.cpu)
            for key, us in ((("tessera", path, 1), first), (("tessera", path, 2), count)):
                best[key] = min(best.get(key, inf), us)
            for name, cmd in peers:
                for limit in (1, 2):
                    us, sols = run_peer(cmd, path, limit, args.repeat, args.cpu)
                    best[(name, path, limit)] = min(best.get((name, path, limit), inf), us)
                    solutions[(name, path, limit)] = sols
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    names = ["tessera"] + [n for n, _ in peers]
    head = ["set"] + [f"{n} first" for n in names] + [f"{n} count 2" for n in names]
    if peers:
        head += [f"tessera / {peers[0][0]} first", f"tessera / {peers[0][0]} count 2"]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for path in args.files:
        row = [os.path.basename(path)]
        row += [f"{best[(n, path, 1)]:.2f}" for n in names]
        row += [f"{best[(n, path, 2)]:.2f}" for n in names]
        if peers:
            ref = peers[0][0]
            row += [f"{best[('tessera', path, k)] / best[(ref, path, k)]:.2f}" for k in (1, 2)]
        print("| " + " | ".join(row) + " |")
    print("µs per puzzle, fastest of the rounds; peers' solution totals (first / count 2): "
          + "; ".join(f"{n} {os.path.basename(p)} {solutions[(n, p, 1)]}/{solutions[(n, p, 2)]}"
                      for n, _ in peers for p in args.files))


if __name__ == "__main__":
    main()
