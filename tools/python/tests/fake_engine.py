#!/usr/bin/env python3
"""A tiny stand-in for tessera: just enough protocol for the MultiPV and Level tests.

    fake_engine.py [--lines N] [--log FILE]

It announces the options ``Level`` (1..10) and ``MultiPV`` (1..32) as tessera does and refuses
values out of range with an ``error`` line. ``go`` answers at once: the depth-0 line (no rank),
then two iterations, each reporting its best line and then ranks 2..K (K = MultiPV, at most
``--lines``; with K = 1 no ``multipv`` field), then ``bestmove`` with the rank-1 line. The lines
are Blockudoku hands; every command read is appended to ``--log``.
"""

import argparse
import sys

LINES = ["1@a9 2@a8 3@b8", "2@a9 1@c9 3@a7", "3@e5 1@a9 2@a8", "1@i1 2@a9 3@e5"]
OPTIONS = {"Level": (10, 1, 10), "MultiPV": (1, 1, 32)}  # default, min, max


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=len(LINES), help="distinct lines it knows")
    ap.add_argument("--log", help="append every command to this file")
    args = ap.parse_args()
    values = {name: spec[0] for name, spec in OPTIONS.items()}

    def say(text: str) -> None:
        print(text, flush=True)

    for raw in sys.stdin:
        line = raw.strip()
        if args.log:
            with open(args.log, "a") as log:
                log.write(line + "\n")
        words = line.split()
        if not words:
            continue
        if words[0] == "tei":
            say("id name fake 0.0\nid author the tests\ngame blockudoku")
            for name, (default, lo, hi) in OPTIONS.items():
                say(f"option name {name} type spin default {default} min {lo} max {hi}")
            say("teiok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "setoption" and len(words) == 5 and words[2] in OPTIONS:
            _, lo, hi = OPTIONS[words[2]]
            if words[4].isdigit() and lo <= int(words[4]) <= hi:
                values[words[2]] = int(words[4])
            else:
                say(f"error option {words[2]} needs an integer from {lo} to {hi}, "
                    f"got '{words[4]}'")
        elif words[0] == "go":
            k = min(values["MultiPV"], args.lines)
            say(f"info depth 0 score 0 nodes 0 nps 0 time 0 pv {LINES[0]}")
            for depth in (1, 2):
                for rank in range(1, k + 1):
                    tag = f" multipv {rank}" if values["MultiPV"] > 1 else ""
                    score = -100 * rank - 10 * depth
                    say(f"info depth {depth}{tag} score {score} nodes {1000 * depth} "
                        f"nps 100000 time {depth} pv {LINES[rank - 1]}")
            say(f"bestmove {LINES[0]}")
        elif words[0] == "quit":
            return
        elif words[0] not in ("newgame", "position", "pieces", "stop"):
            say(f"error unknown command '{words[0]}'")


if __name__ == "__main__":
    main()
