"""Blokus matches between two GTP engines, a shard of game pairs per Ray task, played and
refereed by ``tessera_engine_client.blokus_match`` itself (its engine slots, games, seats and
openings).

Game ``g`` (1-based, as blokus_match numbers them) seats the engines as blokus_match does (they
swap colours every game), sends each engine ``set_random_seed`` derived from ``--seed`` and
``g``, and with ``--openings K`` starts from the K random moves of its pair; every game starts
new engine processes. So a game is the same whichever shard or worker plays it, and engines
whose play is reproducible (``tessera gtp --nodes N``) play it the same way: the merged match
is the match played in one process.
"""

from __future__ import annotations

from typing import Any, Dict, List

from .farm import ShardFailed
from .shards import Shard

PLAYERS = 2
"""The farm plays Blokus between two engines (Duo, Junior, Two-Player)."""


def play_shard(setup: Dict[str, Any], shard: Shard) -> Dict[str, Any]:
    """Plays games ``shard.first + 1 .. shard.last + 1`` (whole pairs; a Ray task); returns
    ``{"count", "pairs"}`` (see :mod:`tessera_engine_farm.matches`)."""
    games = [play_one(setup, number) for number in range(shard.first + 1, shard.last + 2)]
    pairs = [pair_result(games[k:k + 2]) for k in range(0, len(games), 2)]
    return {"count": shard.count, "pairs": pairs}


def play_one(setup: Dict[str, Any], number: int) -> Dict[str, Any]:
    """Game ``number`` with engine processes of its own: an engine may carry state from one
    game to the next (``tessera gtp`` seeds each search from ``set_random_seed`` and the number
    of ``genmove`` it answered since it started), and a game must not depend on the games its
    shard played before it."""
    from tessera_engine_client import blokus_match as bm

    info = bm.variant_of(setup["variant"])
    try:
        slot = bm.Slot(setup["engines"], info, setup["timeout"])
    except bm.SetupError as e:
        raise ShardFailed(f"{e} (commands: {' / '.join(setup['engine_labels'])})") from None
    try:
        names = [f"{e + 1}:{slot.name(e)}" for e in range(PLAYERS)]
        opening = bm.random_opening(info, setup["seed"], bm.opening_group(PLAYERS, number),
                                    setup["openings"])
        seats = bm.seat_engines(PLAYERS, number, True)
        result = bm.play_game(slot, number, seats, names, setup["seed"], opening)
    finally:
        slot.close()
    return game_summary(bm, result, len(opening), setup["engine_labels"])


def game_summary(bm: Any, result: Any, opening_moves: int, labels: List[str]) -> Dict[str, Any]:
    """What the match keeps of a game, for the engine under test (engine 0) and its opponent:
    its score (1, 0.5, 0), whether it moved first, points, moves asked, CPU, forfeit (named
    by the engines' ``labels``, their commands), and blokus_match's JSON record of the game."""
    record = bm.game_json(result)
    by_engine = {player["engine"] - 1: player for player in record["players"]}
    asked = [0, 0]
    for player in result.movers[opening_moves:]:
        asked[result.seats[player]] += 1
    notes = []
    forfeit = record["forfeit"]
    if forfeit is not None:
        notes.append(f"game {record['game']}: forfeit by engine {forfeit['engine']} "
                     f"({labels[forfeit['engine'] - 1]}): {forfeit['reason']}")
    if record["score_check"] == "mismatch":
        notes += [f"game {record['game']}: final_score MISMATCH {p}" for p in result.score_problems]
    return {
        "game": record["game"],
        "score": by_engine[0]["win"],
        "first": result.seats[0] == 0,
        "points": [by_engine[0]["points"], by_engine[1]["points"]],
        "asked": asked,
        "cpu_s": [by_engine[0]["cpu_s"], by_engine[1]["cpu_s"]],
        "forfeit": forfeit is not None,
        "mismatch": record["score_check"] == "mismatch",
        "notes": notes,
        "record": record,
    }


def pair_result(games: List[Dict[str, Any]]) -> Dict[str, Any]:
    """A pair's result (:mod:`tessera_engine_farm.matches`) from its two games."""
    tally, as_first = [0, 0, 0], [0, 0, 0]
    for game in games:
        outcome = {1.0: 0, 0.5: 1, 0.0: 2}[game["score"]]
        tally[outcome] += 1
        if game["first"]:
            as_first[outcome] += 1
    measured = [[g["cpu_s"][k] is not None for g in games] for k in range(2)]
    return {
        "pair": (games[0]["game"] - 1) // 2,
        "tally": tally,
        "as_first": as_first,
        "forfeits": sum(g["forfeit"] for g in games),
        "cpu_ms": [1000 * sum(g["cpu_s"][k] or 0.0 for g in games) for k in range(2)],
        "moves": [sum(g["asked"][k] for g, ok in zip(games, measured[k]) if ok) for k in range(2)],
        "sums": {"points_engine": sum(g["points"][0] for g in games),
                 "points_opponent": sum(g["points"][1] for g in games),
                 "mismatches": sum(g["mismatch"] for g in games)},
        "notes": [note for g in games for note in g["notes"]],
        "games": games,
    }
