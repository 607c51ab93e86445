"""The ``tessera-farm`` command line: ``blockudoku``, ``match blokus``, ``match sudoku`` and
``tune``, each with the game options of the tessera command it stands for and the farm options
(where Ray runs, the run folder, the shard size)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from .bundle import MissingProgram, default_engine, use_checkout
from .farm import ShardFailed
from .rundir import RunFolderMismatch

ENGINE = default_engine()


def farm_options() -> argparse.ArgumentParser:
    """Options of every subcommand: where shards run and where results go."""
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("farm")
    group.add_argument("--address", help="Ray cluster to use (default: $RAY_ADDRESS, else a "
                       "local Ray started for the run)")
    group.add_argument("--workers", type=int, help="CPUs of the local Ray (default: all)")
    group.add_argument("--retries", type=int, default=3,
                       help="times a shard is run again after its worker died (default 3)")
    group.add_argument("--run-dir", type=Path, help="the run's folder (default: "
                       "farm-runs/SUBCOMMAND-DIGEST of the arguments, so a run started again "
                       "resumes)")
    group.add_argument("--shard-games", type=int, help="games per shard (default: about a "
                       "hundredth of the games; tune: a quarter of a candidate's)")
    group.add_argument("--repo", type=Path, help="use this tessera checkout's Python tools "
                       "(tools/python) instead of the installed ones")
    return parser


def limit_options(parser: argparse.ArgumentParser) -> None:
    """``--depth``, ``--movetime``, ``--nodes``: the search limits of a move, as selfplay."""
    parser.add_argument("--depth", type=int, help="iteration depth per move")
    parser.add_argument("--movetime", type=int, help="think time per move in milliseconds")
    parser.add_argument("--nodes", type=int, help="node budget per move")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="tessera-farm",
        description="Long tessera jobs cut into shards of games and run as Ray tasks.")
    commands = top.add_subparsers(dest="command", required=True)
    common = farm_options()

    block = commands.add_parser("blockudoku", parents=[common],
                                help="survival runs, like tessera selfplay blockudoku")
    block.add_argument("--engine", default=ENGINE,
                       help=f"the player: a command speaking tessera's protocol (default {ENGINE})")
    limit_options(block)
    block.add_argument("--games", type=int, help="games (default 10, or every deal of --deals)")
    block.add_argument("--cap", type=int, default=100_000, help="rounds a game lasts at most")
    block.add_argument("--seed", type=int, default=1, help="seed of the deals (game i: seed and i)")
    block.add_argument("--starts", type=Path, help="start boards, one a line; game i starts "
                       "from board i mod count")
    block.add_argument("--deals", type=Path, help="a deal set of blockudoku_referee.py "
                       "--make-deals (start and hands of each game) instead of seeded hands")
    block.add_argument("--pieceset", default="standard47")
    block.add_argument("--death-chance", type=int, metavar="N", help="also the exact death "
                       "chance of each board of N+ filled cells (computed by --tessera)")
    block.add_argument("--tessera", default=ENGINE,
                       help=f"the tessera binary that computes death chances (default {ENGINE})")
    block.add_argument("--lookahead-from", type=int, help="the player's LookaheadFrom option")
    block.add_argument("--timeout", type=float, default=30.0,
                       help="seconds the player may stay silent beyond its search (default 30)")

    match = commands.add_parser("match", help="matches between two engines")
    games = match.add_subparsers(dest="game", required=True)
    blokus = games.add_parser("blokus", parents=[common], help="Blokus between two GTP engines")
    blokus.add_argument("--variant", default="duo", choices=["duo", "junior", "classic_2"])
    blokus.add_argument("--engine", action="append", required=True, metavar="CMD",
                        help="a GTP engine command; give it twice, the engine under test first")
    match_options(blokus)
    blokus.add_argument("--timeout", type=float, default=600.0,
                        help="seconds an engine may take for any answer (default 600)")
    sudoku = games.add_parser("sudoku", parents=[common],
                              help="Competitive Sudoku between two builds (selfplay sudoku)")
    sudoku.add_argument("--engine", default=ENGINE, help=f"the build under test (default {ENGINE})")
    sudoku.add_argument("--opponent", required=True, help="the other build's binary")
    sudoku.add_argument("--box", default="3x3")
    sudoku.add_argument("--mode", default="classic")
    limit_options(sudoku)
    match_options(sudoku)

    tune = commands.add_parser("tune", parents=[common],
                               help="Blockudoku evaluation weights by CMA-ES (cmaes package)")
    tune.add_argument("--engine", default=ENGINE, help=f"the tessera binary (default {ENGINE})")
    tune.add_argument("--starts", type=Path, help="start boards (default: the empty board)")
    tune.add_argument("--games", type=int, default=64, help="games per candidate (default 64)")
    tune.add_argument("--cap", type=int, default=30, help="rounds a game lasts at most (30)")
    tune.add_argument("--depth", type=int, default=2, help="search depth (default 2)")
    tune.add_argument("--death-chance", type=int, default=24, metavar="N",
                      help="fitness: exact death chance per round on boards of N+ cells (24)")
    tune.add_argument("--generations", type=int, default=10)
    tune.add_argument("--population", type=int, help="candidates per generation "
                      "(default: the cmaes package's 4 + 3 ln n)")
    tune.add_argument("--sigma", type=float, default=0.3,
                      help="first step, as a share of each weight (default 0.3)")
    tune.add_argument("--seed", type=int, default=1)
    tune.add_argument("--from", dest="start_weights", help="start weights, comma-separated "
                      "(default: the engine's built-in ones)")
    tune.add_argument("--pieceset", default="standard47")
    tune.add_argument("--out", type=Path, help="write the learned weights here (one line, as "
                      "selfplay --weights takes them; default RUN/weights.txt)")
    return top


def match_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="games, an even number (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--openings", type=int, default=0, help="random moves that open each "
                        "pair of games (one game with each colour)")
    parser.add_argument("--sprt", help="stop once an SPRT of ELO0,ELO1 (alpha = beta = 0.05) "
                        "decides, checked after each pair of games, e.g. 0,30")


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.repo is not None:
            use_checkout(args.repo)
        if args.command == "blockudoku":
            from .command_blockudoku import run
        elif args.command == "match":
            from .command_match import run
        else:
            from .command_tune import run
        return run(args)
    except (MissingProgram, RunFolderMismatch, FileNotFoundError, ValueError) as e:
        print(f"tessera-farm: {e}", file=sys.stderr)
        return 2
    except ShardFailed as e:
        print(f"tessera-farm: a shard failed; the finished shards are kept and the same command "
              f"goes on from them:\n{e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tessera-farm: interrupted; the finished shards are kept and the same command goes "
              "on from them", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
