#!/usr/bin/env python3
"""A Blokus GTP engine on top of tessera_engine_client.blokus, with bugs on request, for the tests of
tools/blokus_rules_check.py.

    fake_blokus_gtp.py [--variant NAME] [--bug none|drop|extra|early|score|refuse|genmove]
                       [--after N]

Commands: ``name``, ``known_command``, ``set_game``, ``clear_board``, ``play``, ``genmove`` (the
first legal move by its text), ``all_legal``, ``final_score``, ``tessera-analyze`` (each player's
share of the points on the board, 1/n on an empty one), ``quit``. Bugs, once ``--after``
moves are on the board: ``drop`` leaves the last move out of ``all_legal``, ``extra`` adds an
illegal one (a legal move of another colour or, failing that, a piece on an occupied point),
``early`` lists as Pentobi does in Callisto a colour's other pieces touching its first single
square too (before its second one, when the rules allow only single squares),
``score`` adds a point to ``final_score``, ``refuse`` answers ``?`` to ``play``, ``genmove``
answers a move of the wrong colour.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tessera_engine_client import blokus  # noqa: E402


def colour_of(info, text):
    t = text.lower()
    if info.ncolours == 2:
        return {"b": 0, "black": 0, "w": 1, "white": 1}[t]
    return int(t) - 1


def score_text(info, pos, bug):
    pts = [pos.points(c) for c in range(info.ncolours)]
    if bug:
        pts[0] += 1
    if info.nplayers > 2:
        return " ".join(map(str, pts))
    p = [sum(pts[c] for c in range(info.ncolours) if info.player_of(c) == k) for k in (0, 1)]
    d = p[0] - p[1]
    return f"B+{d}" if d > 0 else f"W+{-d}" if d < 0 else "0"


def point_shares(info, pos):
    """Each player's share of the points on the board (1/n each on an empty board)."""
    pts = pos.player_points()
    total = sum(pts)
    return [p / total if total else 1 / len(pts) for p in pts]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="duo")
    ap.add_argument("--bug", default="none")
    ap.add_argument("--after", type=int, default=0)
    args = ap.parse_args()
    info = blokus.variant_info(args.variant)
    game = blokus.Game(info.name)

    def buggy(kind):
        return args.bug == kind and len(game) >= args.after

    for raw in sys.stdin:
        parts = raw.split()
        if not parts:
            continue
        cmd, rest = parts[0], parts[1:]
        ok, text = True, ""
        pos = game.position
        if cmd == "name":
            text = "fake"
        elif cmd == "known_command":
            text = "true" if rest and rest[0] in ("set_random_seed",) else "false"
        elif cmd in ("set_game", "clear_board", "set_random_seed"):
            if cmd == "set_game":
                info = blokus.variant_info(" ".join(rest))
            game = blokus.Game(info.name)
        elif cmd == "play":
            if buggy("refuse"):
                ok, text = False, "refused"
            else:
                try:
                    game.play(blokus.parse_move(rest[1], info), colour_of(info, rest[0]))
                except ValueError as e:
                    ok, text = False, str(e)
        elif cmd == "genmove":
            c = colour_of(info, rest[0])
            if buggy("genmove"):
                c = (c + 1) % info.ncolours
            moves = sorted(pos.legal_moves(c), key=blokus.move_text)
            if moves:
                text = blokus.move_text(moves[0])
                if not buggy("genmove"):
                    game.play(moves[0], c)
            else:
                text = "pass"
        elif cmd == "all_legal":
            c = colour_of(info, rest[0])
            moves = sorted((blokus.move_text(m) for m in pos.legal_moves(c)))
            if buggy("drop") and moves:
                moves.pop()
            if buggy("early") and 0 < pos.loose_placed(c) < info.loose_first:
                early = pos.copy()
                for piece in info.loose:
                    early.left[c][piece] = 0
                moves += sorted(blokus.move_text(m) for m in early.legal_moves(c))
            if buggy("extra"):
                others = [blokus.move_text(m) for k in range(info.ncolours) if k != c
                          for m in pos.legal_moves(k)]
                wrong = [m for m in others if m not in moves]
                if wrong:
                    moves.append(wrong[0])
                elif pos.cells:
                    moves.append(blokus.move_text([next(iter(pos.cells))]))
            text = "\n".join(moves)
        elif cmd == "tessera-analyze":
            text = " ".join(f"{v:.3f}" for v in point_shares(info, pos))
        elif cmd == "final_score":
            text = score_text(info, pos, buggy("score"))
        elif cmd == "quit":
            print("=\n", flush=True)
            return
        else:
            ok, text = False, "unknown command"
        print(("= " if ok else "? ") + text + "\n", flush=True)


if __name__ == "__main__":
    main()
