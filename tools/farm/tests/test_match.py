"""tessera-farm match on the tests' local Ray of two CPUs: a Blokus match sharded by pairs gives the
totals of the same match played in this one process without Ray, and its SPRT stops the run once it
decides, at the pair where one process would have stopped; Competitive Sudoku gives the totals
of ``tessera selfplay sudoku``; an engine that dies mid-game forfeits, and the report says so."""

from __future__ import annotations

import sys

from farm_helpers import comparable, farm, tessera

from tessera_engine_farm import blokus, matches
from tessera_engine_farm.command_match import game_lines
from tessera_engine_farm.shards import Shard
from tessera_engine_farm.stats import Sprt


def blokus_engines(engine: str, strong: int, weak: int) -> list:
    return [f"{engine} gtp --nodes {strong}", f"{engine} gtp --nodes {weak}"]


def one_process_lines(engines: list, games: int, openings: int, sprt: str = None) -> list:
    """The match played here, in one shard, without Ray: its totals lines."""
    setup = {"variant": "duo", "engines": engines, "engine_labels": engines, "seed": 1,
             "openings": openings, "timeout": 60.0}
    result = blokus.play_shard(setup, Shard("all", 0, games))
    rule = Sprt.parse(sprt) if sprt else None
    pairs = matches.counted(matches.pairs_in_order({"all": result}), rule)
    lines = matches.totals_lines(pairs, rule) + game_lines("blokus", pairs, 0.0)
    return comparable("\n".join(lines + matches.notes(pairs)))


def blokus_match(engines: list, tmp_path, *extra: str):
    """The match run from ``tmp_path``, outside the checkout: the referee comes from the
    installed client."""
    command = ["match", "blokus", "--variant", "duo", "--seed", "1", "--workers", "2",
               "--shard-games", "2", "--run-dir", str(tmp_path / "run")]
    for e in engines:
        command += ["--engine", e]
    return farm(*command, *extra, cwd=tmp_path)


def test_the_sprt_stops_the_match_where_one_process_would(engine, tmp_path):
    """Sharded by pairs, the match gives the totals of one process and stops at the pair where
    the one process's SPRT decides."""
    engines = blokus_engines(engine, 200, 10)
    run = blokus_match(engines, tmp_path, "--games", "40", "--sprt", "0,200")
    assert run.returncode == 0, run.stderr
    assert "H1 accepted: better" in run.stdout
    played = len(list((tmp_path / "run" / "shards").glob("*.json")))
    assert played < 20, f"{played} of 20 pairs played after the SPRT decided"
    # The one process plays the pairs the farm played (the decision lies among them; the
    # totals count the pairs up to it).
    assert comparable(run.stdout) == one_process_lines(engines, 2 * played, 0, "0,200")
    assert (tmp_path / "run" / "match.png").is_file()


def test_a_sharded_sudoku_match_gives_the_totals_of_selfplay(engine, tmp_path):
    game = ["--box", "2x3", "--mode", "rows", "--depth", "2", "--games", "8", "--seed", "5",
            "--openings", "2"]
    run = farm("match", "sudoku", "--engine", engine, "--opponent", engine, *game,
               "--workers", "2", "--shard-games", "2", "--run-dir", str(tmp_path / "run"))
    assert run.returncode == 0, run.stderr
    selfplay = tessera(engine, "selfplay", "sudoku", *game, "--opponent", f"engine:{engine}")
    assert comparable(run.stdout) == comparable(selfplay.stdout)


DYING_GTP = '''#!{python}
"""A GTP engine that answers everything but dies (exit code 3) at its first genmove."""
import sys
for line in sys.stdin:
    if line.startswith("genmove"):
        sys.exit(3)
    print("= quit\\n" if line.startswith("quit") else "= \\n", flush=True)
'''


def test_an_engine_that_dies_mid_game_forfeits_and_is_named(engine, tmp_path):
    dying = tmp_path / "dying-gtp"
    dying.write_text(DYING_GTP.format(python=sys.executable))
    dying.chmod(0o755)
    run = blokus_match([f"{engine} gtp --nodes 50", str(dying)], tmp_path, "--games", "2")
    assert run.returncode == 0, run.stderr
    assert "games 2 wins 2 draws 0 losses 0 forfeits 2" in run.stdout
    assert f"game 1: forfeit by engine 2 ({dying}): genmove w: the engine died" in run.stdout
    assert f"game 2: forfeit by engine 2 ({dying}): genmove b: the engine died" in run.stdout
