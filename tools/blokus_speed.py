#!/usr/bin/env python3
"""Blokus simulations per CPU second, tessera beside Pentobi, at the same positions.

Positions: the empty board and the position after the first 12 moves of the records in
tests/data/blokus (duo-, classic-, trigon-twogtp.blksgf), one colour to move. At each,
Pentobi (``PENTOBI -g V -l LEVEL --nobook --noresign``) and each tessera build (``TESSERA gtp
--variant V --nodes N --nobook --seed 1``, N = Pentobi's own budget there, its ``MaxCnt``) get
the moves by ``play`` and one ``genmove``, bracketed by ``cputime``; each program runs in a
fresh process, where a first search of the same position (Pentobi not reusing its tree) and
``clear_board`` come before the measured one (``--cold``: none; a fresh tessera process then
pays the first touch of its tree's memory inside the search, where Pentobi touches its tree's
at start-up). Round r searches tessera's position with seed r: the CPU of searches of the
same size varies by 10-20% with their trees. Simulations: Pentobi's ``Sim`` (stderr), tessera's root visits (the debug log).
Rates are simulations over the CPU seconds of the ``genmove``; Pentobi's own ``Sim/s`` (wall
time of its search) is shown beside. Each round runs every program once, the order turning
by one program a round (a program run right after another is measured a few per cent slower
or faster by its place in the round alone), so give a multiple of the number of programs as
rounds; the table gives medians.

    python3 tools/blokus_speed.py --pentobi /path/to/pentobi-gtp \\
        --tessera target/release/tessera [--tessera old/tessera] --rounds 3
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "blokus"
# Variant -> (record file, Pentobi's -g name, tessera's --variant name, colours).
VARIANTS: Dict[str, Tuple[str, str, str, int]] = {
    "duo": ("duo-twogtp.blksgf", "duo", "duo", 2),
    "classic": ("classic-twogtp.blksgf", "classic", "classic", 4),
    "trigon": ("trigon-twogtp.blksgf", "trigon", "trigon", 4),
}


def record_moves(path: Path) -> List[str]:
    """The moves of the first game of an SGF record, in order."""
    text = path.read_text()
    first = text.split(")")[0]
    return re.findall(r";[BW1-4]\[([^\]]*)\]", first)


def gtp_colour(colours: int, c: int) -> str:
    """The GTP colour of colour index ``c``."""
    return ("b", "w")[c] if colours == 2 else str(c + 1)


def script(moves: Sequence[str], colours: int, warm: bool, seed: Optional[int] = None) -> str:
    """GTP lines: the moves, then a ``genmove`` of the next colour between two ``cputime``s.

    ``warm``: a first ``genmove`` of the same position comes before, then ``clear_board`` and
    the moves again, so that the measured search runs in a process that has searched once
    (its memory touched, its caches and tables warm), as every search of a game but the first
    does; Pentobi (``seed`` None) is told not to reuse the first search's tree (``param
    reuse_subtree 0``), tessera searches as a fresh process started with ``--seed seed``
    would (``set_random_seed``: that first genmove's seed, no tree kept)."""
    play = [f"play {gtp_colour(colours, i % colours)} {m}" for i, m in enumerate(moves)]
    genmove = f"genmove {gtp_colour(colours, len(moves) % colours)}"
    lines = []
    if warm:
        lines += (["param reuse_subtree 0"] if seed is None else []) + play
        lines += [genmove, "clear_board"]
        lines += [] if seed is None else [f"set_random_seed {seed}"]
    lines += play + ["cputime", genmove, "cputime", "quit"]
    return "\n".join(lines) + "\n"


def answers(stdout: str) -> List[str]:
    """The GTP answers' texts, in order."""
    out = []
    for block in stdout.strip().split("\n\n"):
        block = block.strip()
        if not block:
            continue
        if block[0] != "=":
            raise RuntimeError(f"GTP error: {block!r}")
        out.append(block[1:].strip())
    return out


def run(command: List[str], gtp: str, env: Optional[Dict[str, str]] = None) -> Tuple[float, str]:
    """Runs one program on the script; returns the ``genmove``'s CPU seconds and stderr."""
    p = subprocess.run(command, input=gtp, capture_output=True, text=True, env=env, check=True)
    a = answers(p.stdout)
    return float(a[-2]) - float(a[-4]), p.stderr


def last_int(pattern: str, text: str) -> int:
    """The number of the last match of ``pattern`` (one group) in ``text``."""
    found = re.findall(pattern, text)
    if not found:
        raise RuntimeError(f"no {pattern!r} in the log:\n{text[-2000:]}")
    return int(float(found[-1]))


def measure(args: argparse.Namespace, variant: str, nmoves: int
            ) -> List[Tuple[str, List[float], List[int], List[float]]]:
    """Rounds at one position; per program its CPU seconds, simulations and own rates."""
    record, game, tvariant, colours = VARIANTS[variant]
    moves = record_moves(RECORDS / record)[:nmoves]
    pentobi_gtp = script(moves, colours, not args.cold)
    names = ["pentobi"] + [f"tessera{i + 1}" for i in range(len(args.tessera))]
    cpu: Dict[str, List[float]] = {n: [] for n in names}
    sims: Dict[str, List[int]] = {n: [] for n in names}
    own: Dict[str, List[float]] = {n: [] for n in names}
    env = dict(os.environ, RUST_LOG="debug")

    def pentobi() -> None:
        used, log = run([args.pentobi, "-g", game, "-l", str(args.level), "--nobook",
                          "--noresign"], pentobi_gtp)
        cpu["pentobi"].append(used)
        sims["pentobi"].append(last_int(r"Sim (\d+)", log))
        own["pentobi"].append(last_int(r"Sim/s (\d+)", log))
        budget.append(last_int(r"MaxCnt (\d+)", log))

    def tessera(i: int) -> None:
        # Each round searches from another seed (the cost of a search varies with its tree).
        n, seed = names[i + 1], len(cpu[names[i + 1]]) + 1
        gtp = script(moves, colours, not args.cold, seed)
        used, log = run([args.tessera[i], "gtp", "--variant", tvariant, "--nodes",
                         str(budget[0]), "--nobook", "--seed", str(seed)], gtp, env)
        cpu[n].append(used)
        sims[n].append(last_int(r"searched: root visits (\d+)", log))
        own[n].append(sims[n][-1] / max(used, 1e-9))

    # Pentobi's budget at the position (its MaxCnt) is the same every round: read it first.
    budget: List[int] = []
    pentobi()
    for n in names:
        for series in (cpu, sims, own):
            series[n].clear()
    programs = [pentobi] + [lambda i=i: tessera(i) for i in range(len(args.tessera))]
    for r in range(args.rounds):
        k = r % len(programs)
        for program in programs[k:] + programs[:k]:
            program()
    return [(n, cpu[n], sims[n], own[n]) for n in names]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pentobi", required=True, help="path of pentobi-gtp")
    ap.add_argument("--tessera", action="append", required=True,
                    help="path of a tessera binary (repeat to compare builds)")
    ap.add_argument("--variants", default="duo,classic,trigon")
    ap.add_argument("--moves", default="0,12", help="positions: moves played from the record")
    ap.add_argument("--level", type=int, default=7, help="Pentobi's level (its budget)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cold", action="store_true",
                    help="measure each program's first search in a fresh process (its memory"
                         " first touched there; Pentobi touches its tree's at start-up)")
    args = ap.parse_args(argv)
    print("| variant | moves | program | simulations | CPU s | sim / CPU s | own Sim/s |"
          " against Pentobi |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for variant in args.variants.split(","):
        for nmoves in (int(m) for m in args.moves.split(",")):
            rows = measure(args, variant, nmoves)
            rate = {n: statistics.median(s / max(c, 1e-9) for s, c in zip(sims, cpu))
                    for n, cpu, sims, _ in rows}
            for n, cpu, sims, own in rows:
                print(f"| {variant} | {nmoves} | {n} | {statistics.median(sims):.0f} |"
                      f" {statistics.median(cpu):.3f} | {rate[n]:,.0f} |"
                      f" {statistics.median(own):,.0f} | {rate[n] / rate['pentobi']:.2f} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
