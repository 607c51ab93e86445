"""``tessera-farm match blokus|sudoku``: a match cut into shards of game pairs, merged in pair
order, stopped by an SPRT once it decides, reported with the totals lines of
``tessera selfplay sudoku`` and a picture of the score and the SPRT's log-likelihood ratio."""

from __future__ import annotations

import argparse
import math
from typing import Any, Dict, List

import tessera_engine_client

import tessera_engine_farm

from . import blokus, matches, plots, sudoku
from .bundle import program
from .command_blockudoku import search_limits
from .session import session
from .shards import power_of_two_at_least, split
from .stats import Sprt


def shard_games(args: argparse.Namespace) -> int:
    """Games per shard: whole pairs (Sudoku: a power of two, for the seed slices)."""
    wanted = args.shard_games or 2 * max(1, math.ceil(args.games / 200))
    if wanted % 2:
        raise ValueError("--shard-games must be even (whole pairs of games)")
    return power_of_two_at_least(wanted) if args.game == "sudoku" else wanted


def run(args: argparse.Namespace) -> int:
    if args.games < 2 or args.games % 2:
        raise ValueError("--games must be even: pairs of games, one with each colour")
    sprt = Sprt.parse(args.sprt) if args.sprt else None
    size = shard_games(args)
    if args.game == "blokus":
        setup, programs, play, extra = blokus_setup(args)
    else:
        setup, programs, play, extra = sudoku_setup(args)
    definition = dict(setup, games=args.games, seed=args.seed, openings=args.openings,
                      sprt=args.sprt, shard_games=size)
    with session(args, f"match-{args.game}", definition, programs) as run_session:
        shipped = [run_session.ship(p) for p in programs]
        worker_setup = dict(definition, engine_labels=[p.command for p in programs],
                            timeout=getattr(args, "timeout", None))
        worker_setup.update(extra(shipped))
        farm = run_session.start([tessera_engine_farm, tessera_engine_client])
        progress = run_session.progress(args.games, f"match {args.game}")
        try:
            results = farm.run(run_session.folder, split(args.games, size), play, worker_setup,
                               progress, matches.progress_note,
                               enough=lambda done: matches.decided(done, sprt))
        finally:
            progress.close()
        pairs = matches.counted(matches.pairs_in_order(results), sprt)
        lines = (matches.totals_lines(pairs, sprt)
                 + game_lines(args.game, pairs, run_session.elapsed()) + matches.notes(pairs))
        title = f"{args.game}: {programs[0].command} against {programs[-1].command}"
        picture = plots.match_png(run_session.folder.file("match.png"), matches.path(pairs), sprt,
                                  title)
        run_session.report(lines, [picture])
    return 0


def blokus_setup(args: argparse.Namespace):
    """(setup, programs, shard task, worker commands) of a Blokus match."""
    if len(args.engine) != 2:
        raise ValueError("give --engine twice: the engine under test, then its opponent")
    programs = [program(command) for command in args.engine]
    return ({"variant": args.variant, "engines": args.engine}, programs, blokus.play_shard,
            lambda shipped: {"engines": shipped})


def sudoku_setup(args: argparse.Namespace):
    """(setup, programs, shard task, worker commands) of a Competitive Sudoku match."""
    limits = search_limits(args)
    programs = [program(args.engine), program(args.opponent)]
    setup = {"engine": args.engine, "opponent": args.opponent, "box": args.box, "mode": args.mode,
             "limits": limits}
    return (setup, programs, sudoku.play_shard,
            lambda shipped: {"engine": shipped[0], "opponent": shipped[1],
                             "engine_label": args.engine})


def game_lines(game: str, pairs: List[Dict[str, Any]], elapsed: float) -> List[str]:
    """The last totals line: Sudoku's means as selfplay prints them, Blokus points."""
    games = max(2 * len(pairs), 1)
    if game == "sudoku":
        return [f"margin_mean {matches.summed(pairs, 'margin') / games:.2f} "
                f"engine_passes_mean {matches.summed(pairs, 'passes') / games:.2f} "
                f"opponent_taboos_mean {matches.summed(pairs, 'taboos') / games:.2f} "
                f"elapsed_s {elapsed:.1f}"]
    return [f"points_mean engine {matches.summed(pairs, 'points_engine') / games:.1f} "
            f"opponent {matches.summed(pairs, 'points_opponent') / games:.1f} "
            f"final_score_mismatches {matches.summed(pairs, 'mismatches'):.0f} "
            f"elapsed_s {elapsed:.1f}"]
