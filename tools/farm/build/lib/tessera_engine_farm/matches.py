"""What Blokus and Competitive Sudoku matches share: results kept per pair of games (one game
with each colour, from the same opening), merged in pair order, an SPRT checked after each pair,
and the totals lines of ``tessera selfplay sudoku``.

A pair's result is a dict::

    {"pair": k, "tally": [W, D, L], "as_first": [W, D, L], "forfeits": F,
     "cpu_ms": [engine, opponent], "moves": [engine, opponent],
     "sums": {name: value}, "notes": ["game 7: ...", ...]}

from the side of the engine under test (the first engine). ``sums`` are the game's own
quantities (Blokus points, Sudoku margins), ``notes`` the forfeits and other events worth a line
in the report.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .stats import Sprt, Tally


def pairs_in_order(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Every pair of the shards, in pair order."""
    return sorted((p for result in results.values() for p in result["pairs"]),
                  key=lambda p: p["pair"])


def leading_pairs(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The pairs 0, 1, 2, ... up to the first one not finished yet."""
    leading = []
    for pair in pairs_in_order(results):
        if pair["pair"] != len(leading):
            break
        leading.append(pair)
    return leading


def tally_of(pair: Dict[str, Any]) -> Tally:
    wins, draws, losses = pair["tally"]
    return Tally(wins, draws, losses)


def path(pairs: List[Dict[str, Any]]) -> List[Tuple[int, Tally]]:
    """(games, tally) after each pair."""
    points, tally = [], Tally()
    for pair in pairs:
        step = tally_of(pair)
        tally = Tally(tally.wins + step.wins, tally.draws + step.draws, tally.losses + step.losses)
        points.append((tally.games, tally))
    return points


def counted(pairs: List[Dict[str, Any]], sprt: Optional[Sprt]) -> List[Dict[str, Any]]:
    """The pairs a match counts: all of them, or with an SPRT those up to the pair after which
    it decided (a single process would have stopped there)."""
    if sprt is None:
        return pairs
    for k, (_, tally) in enumerate(path(pairs)):
        if sprt.verdict(tally) != "continue":
            return pairs[:k + 1]
    return pairs


def decided(results: Dict[str, Any], sprt: Optional[Sprt]) -> bool:
    """True once the SPRT has decided on the pairs finished from the first one on."""
    return sprt is not None and any(
        sprt.verdict(tally) != "continue" for _, tally in path(leading_pairs(results)))


def progress_note(results: Dict[str, Any]) -> str:
    """``engine 5-1-4`` over the pairs done."""
    tally = path(pairs_in_order(results))[-1][1] if results else Tally()
    return f"engine {tally.wins}-{tally.draws}-{tally.losses}"


def per_move(cpu_ms: float, moves: int) -> str:
    """Milliseconds per move, ``-`` when no move was measured."""
    return "-" if moves == 0 else f"{cpu_ms / moves:.1f}"


def totals_lines(pairs: List[Dict[str, Any]], sprt: Optional[Sprt]) -> List[str]:
    """The first lines of ``tessera selfplay sudoku`` for these pairs: games and outcomes, the
    engine's score and Elo, the SPRT, CPU per move of each side."""
    tally = path(pairs)[-1][1] if pairs else Tally()
    first = [sum(p["as_first"][k] for p in pairs) for k in range(3)]
    forfeits = sum(p["forfeits"] for p in pairs)
    cpu = [sum(p["cpu_ms"][k] for p in pairs) for k in range(2)]
    moves = [sum(p["moves"][k] for p in pairs) for k in range(2)]
    lines = [
        f"games {tally.games} wins {tally.wins} draws {tally.draws} losses {tally.losses} "
        f"forfeits {forfeits} (as first: {first[0]}-{first[1]}-{first[2]})",
        f"engine: {tally.summary()}",
    ]
    if sprt is not None:
        lines.append(sprt.line(tally))
    lines.append(f"cpu_ms_per_move engine {per_move(cpu[0], moves[0])} opponent "
                 f"{per_move(cpu[1], moves[1])} (moves measured {moves[0]} / {moves[1]})")
    return lines


def summed(pairs: List[Dict[str, Any]], name: str) -> float:
    return sum(p["sums"][name] for p in pairs)


def notes(pairs: List[Dict[str, Any]]) -> List[str]:
    return [note for p in pairs for note in p["notes"]]
