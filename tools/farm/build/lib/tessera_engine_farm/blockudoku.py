"""Blockudoku survival runs: any player that speaks tessera's protocol plays seeded games, a
shard of games per Ray task, and the merged games give the totals lines of
``tessera selfplay blockudoku``.

Deals. Game ``i`` of a run seeded ``s`` meets exactly the hands ``tessera selfplay blockudoku
--seed s`` deals its game ``i`` (:mod:`tessera_engine_farm.rustrand`), from start board ``i mod
count`` of ``--starts`` (or the empty board); or, with ``--deals FILE``, the start and hands of
deal ``i`` of a deal set written by ``tools/blockudoku_referee.py --make-deals``. Before each
round the player gets ``setoption name Seed value s ^ round`` when it offers a ``Seed`` option:
selfplay seeds its search so, hence tessera plays the same moves here as in selfplay at any
node or depth limit.

A shard plays its games one after another with one player process (``newgame`` before each),
one round trip a round (:mod:`tessera_engine_farm.player`).
With ``--death-chance N`` the boards of N+ filled cells met before each hand are kept and
``tessera chances`` (the ``--tessera`` binary) sums their exact death chances per game, as
``selfplay --death-chance`` does.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from .farm import ShardFailed
from .player import PlayerError, ProtocolPlayer
from .rustrand import game_rng
from .shards import Shard
from .stats import chance_line, median, rate_and_error, survival


def play_shard(setup: Dict[str, Any], shard: Shard) -> Dict[str, Any]:
    """Plays games ``shard.first .. shard.last`` (a Ray task); returns ``{"count", "games"}``
    with one record per game: game, start, rounds, died, score, cpu_ms, wall_ms and, with
    ``death_chance``, chance."""
    label = setup["player_label"]
    try:
        player = ProtocolPlayer(setup["player"], setup["timeout"])
    except (OSError, PlayerError) as e:
        raise ShardFailed(f"player {label!r} cannot start: {e}") from None
    records, crowded = [], []
    try:
        configure(player, setup)
        for game in range(shard.first, shard.last + 1):
            record, boards = play_game(player, setup, game)
            records.append(record)
            crowded += [(board, game) for board in boards]
    finally:
        player.close()
    if setup["death_chance"] is not None:
        add_chances(records, crowded, setup)
    return {"count": shard.count, "games": records}


def configure(player: ProtocolPlayer, setup: Dict[str, Any]) -> None:
    """Sets ``LookaheadFrom`` when the run asks for it."""
    if setup["lookahead_from"] is None:
        return
    if "LookaheadFrom" not in player.options:
        raise ShardFailed(f"player {setup['player_label']!r} has no option LookaheadFrom "
                          "(--lookahead-from needs it)")
    player.send(f"setoption name LookaheadFrom value {setup['lookahead_from']}")


def play_game(player: ProtocolPlayer, setup: Dict[str, Any], game: int):
    """One game as selfplay plays it; returns its record and the crowded boards it met."""
    from tessera_engine_client.blockudoku import Board, apply_plan, can_place_hand, piece_set

    label = setup["player_label"]
    pieces = piece_set(setup["pieceset"])
    hands, start, cap = hand_source(setup, game, pieces)
    board, score, streak = Board.parse(start), 0, False
    seeded = "Seed" in player.options
    go = "go " + " ".join(f"{name} {value}" for name, value in setup["limits"].items())
    rounds, died, crowded = 0, False, []
    try:
        cpu_before, wall_before = player.cpu_seconds(), time.perf_counter()
        player.send(f"newgame blockudoku pieceset {setup['pieceset']} scoring app")
        while rounds < cap:
            if setup["death_chance"] is not None and board.count() >= setup["death_chance"]:
                crowded.append(board.notation())
            hand = next(hands)
            commands = [f"setoption name Seed value {setup['seed'] ^ rounds}"] if seeded else []
            commands += [f"position board {board.notation()} score {score} streak {int(streak)}",
                         "pieces " + " ".join(piece.notation() for piece in hand)]
            moves = player.play(commands, go, setup["limits"].get("movetime"))
            if not moves:
                if can_place_hand(board, hand):
                    raise ShardFailed(f"player {label!r} answered bestmove none in game {game} "
                                      f"round {rounds} to a hand that fits")
                died = True
                break
            try:
                placed = apply_plan(board, hand, moves, score, streak)
            except ValueError as e:
                raise ShardFailed(f"player {label!r} answered an illegal plan in game {game} "
                                  f"round {rounds}: {e}") from None
            board, score, streak = placed.board, placed.score, placed.streak
            rounds += 1
        cpu = player.cpu_seconds() - cpu_before
    except PlayerError as e:
        raise ShardFailed(f"player {label!r} failed in game {game} at round {rounds}: "
                          f"{e}") from None
    record = {"game": game, "start": start_index(setup, game), "rounds": rounds, "died": died,
              "score": score, "cpu_ms": round(cpu * 1000, 3),
              "wall_ms": round((time.perf_counter() - wall_before) * 1000, 3)}
    return record, crowded


def hand_source(setup: Dict[str, Any], game: int, pieces: List[Any]):
    """(hands, start board, rounds at most) of a game: dealt like selfplay from the seed, or
    read from the deal set."""
    if setup["deals"] is not None:
        deal = setup["deals"][game]
        hands = iter([[pieces[i - 1] for i in ids] for ids in deal["hands"]])
        return hands, deal["start"], min(setup["cap"], len(deal["hands"]))

    def dealt():
        rng = game_rng(setup["seed"], game)
        while True:
            yield [pieces[rng.below(len(pieces))] for _ in range(3)]

    return dealt(), setup["starts"][start_index(setup, game)], setup["cap"]


def start_index(setup: Dict[str, Any], game: int) -> int:
    """The start board's index: the deal's own with a deal set, else game mod count."""
    return game if setup["deals"] is not None else game % len(setup["starts"])


def add_chances(records: List[Dict[str, Any]], crowded: List[tuple],
                setup: Dict[str, Any]) -> None:
    """Adds each game's summed exact death chance, computed by ``tessera chances`` from the
    crowded boards met (in round order, so the sum is selfplay's to the last bit)."""
    with tempfile.TemporaryDirectory() as scratch:
        boards, lines, out = (Path(scratch) / f for f in ("boards.txt", "run.jsonl", "out.jsonl"))
        boards.write_text("".join(f"{board} player 1 game {game}\n" for board, game in crowded))
        lines.write_text("".join(json.dumps({"player": 1, "game": r["game"], "rounds": r["rounds"],
                                             "died": r["died"]}) + "\n" for r in records))
        command = shlex.split(setup["tessera"]) + [
            "chances", str(boards), str(lines), "--out", str(out), "--pieceset", setup["pieceset"],
            "--min-filled", str(setup["death_chance"])]
        try:
            done = subprocess.run(command, capture_output=True, text=True)
        except OSError as e:
            raise ShardFailed(f"cannot run {setup['tessera_label']!r} chances: {e}") from None
        if done.returncode != 0:
            raise ShardFailed(f"{setup['tessera_label']!r} chances failed: {done.stderr.strip()}")
        chances = [json.loads(line)["chance"] for line in out.read_text().splitlines()]
    for record, chance in zip(records, chances):
        record["chance"] = chance


def merged_games(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Every game of the shards, in game order."""
    games = [g for result in results.values() for g in result["games"]]
    return sorted(games, key=lambda g: g["game"])


def totals_lines(games: List[Dict[str, Any]], cap: int, death_chance: Optional[int],
                 elapsed: float) -> List[str]:
    """The lines ``tessera selfplay blockudoku`` prints for these games."""
    rounds = [g["rounds"] for g in games]
    total = sum(rounds)
    deaths = sum(g["died"] for g in games)
    count = max(len(games), 1)
    mean, low, high = survival(total, deaths)
    per_round = max(total, 1)
    lines = [
        f"games {len(games)} deaths {deaths} rounds {total} mean {total / count:.1f} "
        f"median {median(rounds):.1f} cap {cap}",
        f"hazard_mean {mean:.1f} ci95 {low:.1f} {high:.1f}",
    ]
    if death_chance is not None:
        rate, se = rate_and_error([(g["chance"], g["rounds"] + g["died"]) for g in games])
        lines.append(chance_line(rate, se, death_chance))
    lines.append(
        f"score_mean {sum(g['score'] for g in games) / count:.1f} "
        f"cpu_ms_per_round {sum(g['cpu_ms'] for g in games) / per_round:.3f} "
        f"wall_ms_per_round {sum(g['wall_ms'] for g in games) / per_round:.3f} "
        f"elapsed_s {elapsed:.1f}"
    )
    return lines


def progress_note(results: Dict[str, Any]) -> str:
    """``1234 rounds, 2 deaths`` over the shards done."""
    games = [g for result in results.values() for g in result["games"]]
    return f"{sum(g['rounds'] for g in games)} rounds, {sum(g['died'] for g in games)} deaths"
