#!/usr/bin/env python3
"""Plays tessera_player against another player inside a checkout of the course framework,
colours alternating, and prints one line per board with wins, draws and losses.

    TESSERA_ENGINE=/path/to/tessera python3 framework_match.py /path/to/framework \\
        --boards empty-2x2 empty-3x3 --time 0.1 --games 2 [--opponent greedy_player]

The framework version is detected: v14 (has --playmode; played with --playmode classic unless
--playmode is given) or v12. tessera_player is copied into the checkout first.
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("framework", type=Path)
    parser.add_argument("--boards", nargs="+", default=["empty-2x2", "empty-2x3", "empty-3x3", "empty-3x4", "empty-4x4"])
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=2, help="games per board (colours alternate)")
    parser.add_argument("--opponent", default="greedy_player")
    parser.add_argument("--playmode", default="classic")
    args = parser.parse_args()
    root = args.framework.resolve()
    target = root / "tessera_player"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(HERE / "tessera_player", target)
    v14 = "--playmode" in (root / "simulate_game.py").read_text()
    total = [0, 0, 0]
    for board in args.boards:
        counts = [0, 0, 0]
        scores = []
        for game in range(args.games):
            first = game % 2 == 0
            players = ["tessera_player", args.opponent] if first else [args.opponent, "tessera_player"]
            command = [sys.executable, "simulate_game.py", f"--first={players[0]}", f"--second={players[1]}",
                       "--board", f"boards/{board}.txt", "--time", str(args.time), "--quiet"]
            if v14:
                command += ["--playmode", args.playmode]
                if args.playmode == "classic":
                    command.append("--ascii")
            out = subprocess.run(command, cwd=root, capture_output=True, text=True).stdout
            m = re.search(r"Score: (\d+) - (\d+)", out)
            if not m:
                # A forfeit: no move supplied, or an illegal or taboo move.
                w = re.search(r"Player (\d) wins the game", out)
                ours_won = w is not None and int(w.group(1)) == (1 if first else 2)
                why = next((l for l in out.splitlines() if "wins the game" in l), out[-300:])
                scores.append(f"{'1st' if first else '2nd'} forfeit: {why.strip()}")
                counts[0 if ours_won else 2] += 1
                continue
            a, b = int(m.group(1)), int(m.group(2))
            ours, theirs = (a, b) if first else (b, a)
            scores.append(f"{'1st' if first else '2nd'} {ours}-{theirs}")
            counts[0 if ours > theirs else 1 if ours == theirs else 2] += 1
        total = [t + c for t, c in zip(total, counts)]
        print(f"{'v14' if v14 else 'v12'} {board} time {args.time}: wins {counts[0]} draws {counts[1]} "
              f"losses {counts[2]}  ({', '.join(scores)})", flush=True)
    print(f"total: wins {total[0]} draws {total[1]} losses {total[2]}", flush=True)


if __name__ == "__main__":
    main()
