"""``tessera-farm blockudoku``: a survival run cut into shards of games, merged into the totals
lines of ``tessera selfplay blockudoku`` and a survival curve."""

from __future__ import annotations

import argparse
import math
from typing import Any, Dict, List

import tessera_engine_client

import tessera_engine_farm

from . import blockudoku, plots
from .bundle import Program, program
from .session import session
from .shards import split
from .stats import survival


def read_games(args: argparse.Namespace) -> Dict[str, Any]:
    """The start boards or the deal set, read on the driver (the workers get them in the
    setup) with the referee's own readers, and the number of games."""
    if args.deals:
        from tessera_engine_client.blockudoku_referee import read_deals

        pieceset, deals = read_deals(args.deals)
        if args.pieceset != pieceset:
            raise ValueError(f"{args.deals} deals from {pieceset}: give --pieceset {pieceset}")
        games = len(deals) if args.games is None else args.games
        if games > len(deals):
            raise ValueError(f"{args.deals} has {len(deals)} deals, fewer than --games {games}")
        dealt = [{"start": d.start, "hands": [list(h) for h in d.hands]} for d in deals[:games]]
        return {"games": games, "starts": None, "deals": dealt}
    if args.starts:
        from tessera_engine_client.blockudoku_referee import read_starts

        starts = read_starts(args.starts)
    else:
        starts = ["/".join(["." * 9] * 9)]
    return {"games": 10 if args.games is None else args.games, "starts": starts, "deals": None}


def search_limits(args: argparse.Namespace) -> Dict[str, int]:
    """``--depth``, ``--movetime``, ``--nodes`` as given; at least one is needed."""
    limits = {k: getattr(args, k) for k in ("depth", "movetime", "nodes")
              if getattr(args, k) is not None}
    if not limits:
        raise ValueError("give --movetime, --nodes or --depth")
    return limits


def run(args: argparse.Namespace) -> int:
    limits = search_limits(args)
    player = program(args.engine)
    programs: List[Program] = [player]
    tessera = None
    if args.death_chance is not None:
        tessera = program(args.tessera)
        programs.append(tessera)
    games = read_games(args)
    shard_games = args.shard_games or max(1, math.ceil(games["games"] / 100))
    definition = dict(games, limits=limits, cap=args.cap, seed=args.seed, pieceset=args.pieceset,
                      death_chance=args.death_chance, lookahead_from=args.lookahead_from,
                      shard_games=shard_games)
    with session(args, "blockudoku", definition, programs) as run_session:
        setup = dict(definition, player=run_session.ship(player), player_label=player.command,
                     tessera=tessera and run_session.ship(tessera),
                     tessera_label=tessera and tessera.command, timeout=args.timeout)
        farm = run_session.start([tessera_engine_farm, tessera_engine_client])
        shards = split(games["games"], shard_games)
        progress = run_session.progress(games["games"], "blockudoku")
        try:
            results = farm.run(run_session.folder, shards, blockudoku.play_shard, setup, progress,
                               blockudoku.progress_note)
        finally:
            progress.close()
        played = blockudoku.merged_games(results)
        lines = blockudoku.totals_lines(played, args.cap, args.death_chance, run_session.elapsed())
        hazard = survival(sum(g["rounds"] for g in played), sum(g["died"] for g in played))
        limits_text = " ".join(f"{k} {v}" for k, v in limits.items())
        picture = plots.survival_png(run_session.folder.file("survival.png"), played, hazard,
                                     f"Blockudoku survival: {player.command}, {limits_text}")
        run_session.report(lines, [picture])
    return 0
