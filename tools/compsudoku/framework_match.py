#!/usr/bin/env python3
"""Head-to-head matches between two players inside a checkout of the course framework (v12 or
v14), colours alternating, with W-D-L, score with a 95% interval, Elo, forfeits counted apart,
and every game saved so that a loss can be replayed.

    python3 framework_match.py FRAMEWORK --players tessera peer_team13_a3 \\
        --boards empty-3x3 empty-2x3 --time 0.5 --games 10 [--playmode rows] [--jobs 1] \\
        [--save DIR] [--engine PATH]

A player is a package folder of the checkout (`greedy_player`, a team's agent), or `tessera`
(the adapter tools/compsudoku/tessera_player is copied in, running --engine or $TESSERA_ENGINE),
or `tessera:PATH` (a copy of the adapter bound to the engine binary PATH, so two builds can
play each other). Boards are names in the checkout's boards/ folder or paths. v14 is detected by
its --playmode option; classic games there get --ascii (works around a printing bug of the
framework). With --jobs above 1 games run in parallel, each in its own copy of the checkout (agents keep
state files in the current folder), sharing the CPU: timing-fair results need --jobs 1 on a
2-core machine. Run it with the Python that the agents need (e.g. one with numpy). The first player named is the one the totals are for.

Each side's CPU time per move is measured (tools/compsudoku/metered_game.py runs the game: each
turn process, plus the engine process of the tessera adapter) and printed with the results.

--save DIR writes, per game, the framework's whole output (every move, `Best move: (i,j) -> v`)
and a line `position board ... moves ...` that replays the game in tessera (classic mode).
"""

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
LETTERS = "0123456789ABCDEFGHIJKLMNOP"


def install_player(root, name, engine):
    """Makes `name` a package of the checkout; returns its module name."""
    if name == "tessera" or name.startswith("tessera:"):
        path = name.split(":", 1)[1] if ":" in name else engine
        package = "tessera_player"
        if ":" in name:
            package = "tessera_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:8]
        target = root / package
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(HERE / "tessera_player", target, ignore=shutil.ignore_patterns("__pycache__"))
        if path:
            (target / "engine_path").write_text(os.path.abspath(path) + "\n")
        return package
    if not (root / name).is_dir():
        sys.exit(f"no player package '{name}' in {root}")
    return name


def board_path(root, board):
    path = Path(board)
    if path.is_file():
        return path.resolve()
    named = root / "boards" / f"{board}.txt"
    if named.is_file():
        return named
    sys.exit(f"no board '{board}' (neither a file nor {named})")


def read_board(path):
    """(m, n, cells) of a v12-style board file (`m n` then the rows); None for other formats."""
    words = path.read_text().split()
    try:
        m, n = int(words[0]), int(words[1])
    except (ValueError, IndexError):
        return None
    size = m * n
    cells = words[2:2 + size * size]
    if len(cells) != size * size:
        return None
    return m, n, cells


def replay_line(board, moves, n):
    """`position board ... moves ...` for tessera, from the start board and the framework's moves."""
    _, _, cells = board
    rows = "/".join("".join("." if c == "." else LETTERS[int(c)] for c in cells[r * n:(r + 1) * n])
                    for r in range(n))
    names = [f"{chr(97 + j)}{n - i}={LETTERS[v]}" for i, j, v in moves]
    return f"position board {rows} moves {' '.join(names)}"


def play_one(root, first, second, board, args, v14):
    command = [sys.executable, str(HERE / "metered_game.py"), "simulate_game.py",
               f"--first={first}", f"--second={second}",
               "--board", str(board), "--time", str(args.time)]
    if v14:
        command += ["--playmode", args.playmode]
        if args.playmode == "classic":
            command.append("--ascii")
    run = subprocess.run(command, cwd=root, capture_output=True, text=True)
    out = run.stdout
    moves = [tuple(int(x) for x in m) for m in re.findall(r"Best move: \((\d+),(\d+)\) -> (\d+)", out)]
    # "Score: a - b" (pretty printing), "scores = [a, b]" (v14 --ascii).
    scores = re.findall(r"(?:Score: (\d+) - (\d+)|scores = \[(\d+), (\d+)\])", out)
    scores = [(m[0], m[1]) if m[0] else (m[2], m[3]) for m in scores]
    forfeit = re.search(r"(Error: .*|No move was supplied\..*)", out)
    winner = re.search(r"Player (\d) wins the game", out)
    result = {"out": out, "moves": moves, "forfeit": forfeit.group(1) if forfeit else None,
              "cpu": cpu_by_player(out)}
    if forfeit:
        result["winner"] = int(winner.group(1)) if winner else 0
    elif scores:
        a, b = map(int, scores[-1])
        result["scores"] = (a, b)
        result["winner"] = 1 if a > b else 2 if b > a else 0
    else:
        result["winner"] = None
        tail = (out + run.stderr).strip().splitlines()[-1:] or ["(no output)"]
        result["forfeit"] = "no result: " + tail[0]
    return result


def cpu_by_player(out):
    """[(cpu seconds, turns) of player 1, of player 2] from metered_game.py's report, or None."""
    meter = re.search(r"^CPU-METER (.*)$", out, re.M)
    if not meter:
        return None
    players = json.loads(meter.group(1))["players"]
    return [(p["cpu_s"], p["turns"]) for p in players] if len(players) == 2 else None


def cpu_note(cpu):
    """`cpu/move A x ms, B y ms` from [[seconds, turns] of A, of B]."""
    per = [f"{1000 * s / t:.0f} ms" if t else "-" for s, t in cpu]
    return f"CPU per move {per[0]} / {per[1]}"


def elo(score):
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def summary(w, d, l):
    n = max(1, w + d + l)
    mean = (w + d / 2) / n
    var = (w + d / 4) / n - mean * mean
    half = 1.96 * math.sqrt(max(var, 0) / n)
    lo, hi = max(0.0, mean - half), min(1.0, mean + half)
    return (f"{w}-{d}-{l}, score {100 * mean:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}), "
            f"Elo {elo(mean):+.0f} ({elo(lo):+.0f} .. {elo(hi):+.0f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("framework", type=Path)
    parser.add_argument("--players", nargs=2, default=["tessera", "greedy_player"], metavar=("A", "B"))
    parser.add_argument("--boards", nargs="+", default=["empty-2x2", "empty-2x3", "empty-3x3", "empty-3x4", "empty-4x4"])
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=2, help="games per board (colours alternate)")
    parser.add_argument("--playmode", default="classic", help="v14: classic, rows, border or random")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", type=Path, help="folder for every game's output and replay line")
    parser.add_argument("--engine", default=os.environ.get("TESSERA_ENGINE"), help="engine for the player `tessera`")
    parser.add_argument("--opponent", help=argparse.SUPPRESS)  # old spelling: --players tessera X
    args = parser.parse_args()
    if args.opponent:
        args.players = ["tessera", args.opponent]
    root = args.framework.resolve()
    v14 = "--playmode" in (root / "simulate_game.py").read_text()
    a, b = (install_player(root, p, args.engine) for p in args.players)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    # Parallel games each get a copy of the checkout: the framework deletes and some agents keep
    # state files (1.pkl, 2.pkl) in the current folder.
    workdirs = [root]
    scratch = None
    if args.jobs > 1:
        scratch = Path(tempfile.mkdtemp(prefix="framework_match_"))
        for k in range(args.jobs):
            shutil.copytree(root, scratch / f"job{k}", symlinks=True)
            workdirs.append(scratch / f"job{k}")
        workdirs = workdirs[1:]
    total, total_cpu = [0, 0, 0], [[0.0, 0], [0.0, 0]]
    forfeits = {a: 0, b: 0}
    for board in args.boards:
        path = board_path(root, board)
        jobs = [(g, [a, b] if g % 2 == 0 else [b, a]) for g in range(args.games)]
        with ThreadPoolExecutor(max_workers=len(workdirs)) as pool:
            results = list(pool.map(
                lambda job: play_one(workdirs[job[0] % len(workdirs)], *job[1], path, args, v14),
                jobs))
        counts, notes, cpu = [0, 0, 0], [], [[0.0, 0], [0.0, 0]]
        for (g, players), r in zip(jobs, results):
            a_number = players.index(a) + 1
            if r["cpu"]:
                for side, (seconds, turns) in zip((a_number - 1, 2 - a_number), r["cpu"]):
                    cpu[side][0] += seconds
                    cpu[side][1] += turns
            tag = "1st" if a_number == 1 else "2nd"
            if r["winner"] is None:
                outcome = 1
                notes.append(f"{tag} ?")
            else:
                outcome = 1 if r["winner"] == 0 else 0 if r["winner"] == a_number else 2
            if r["forfeit"]:
                loser = players[2 - r["winner"]] if r["winner"] in (1, 2) else None
                if loser:
                    forfeits[loser] += 1
                notes.append(f"{tag} forfeit by {loser}: {r['forfeit'][:80]}")
            elif "scores" in r:
                ours, theirs = r["scores"] if a_number == 1 else r["scores"][::-1]
                notes.append(f"{tag} {ours}-{theirs}")
            counts[outcome] += 1
            if args.save:
                stem = f"{Path(board).stem}_{args.playmode}_{g:03d}_{players[0]}_vs_{players[1]}"
                (args.save / f"{stem}.txt").write_text(r["out"])
                start = read_board(path)
                if start and (not v14 or args.playmode == "classic"):
                    n = start[0] * start[1]
                    (args.save / f"{stem}.replay").write_text(replay_line(start, r["moves"], n) + "\n")
        total = [t + c for t, c in zip(total, counts)]
        for side in range(2):
            total_cpu[side] = [t + c for t, c in zip(total_cpu[side], cpu[side])]
        print(f"{'v14' if v14 else 'v12'} {Path(board).stem} {args.playmode} time {args.time}: {a} vs {b}: "
              f"{summary(*counts)}; {cpu_note(cpu)}  [{', '.join(notes)}]", flush=True)
    print(f"total {a} vs {b}: {summary(*total)}; forfeits: {a} {forfeits[a]}, {b} {forfeits[b]}; "
          f"{cpu_note(total_cpu)}", flush=True)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
