"""Blokus game analysis (``tessera_engine_client.blokus_analysis``) against a fake GTP engine
whose values are the players' shares of the points on the board, so that every value and drop
can be checked; and ``Position.moves_covering`` (the moves a person who clicked some squares
may mean) against the full list of legal moves."""

import random
import shlex
import sys
from pathlib import Path

import pytest

from conftest import random_game
from fake_blokus_gtp import point_shares
from tessera_engine_client import blokus
from tessera_engine_client.blokus_analysis import AnalysisError, Analyzer, MoveValue, worst_moves
from tessera_engine_client.blokus_match import mover

FAKE = shlex.join([sys.executable, str(Path(__file__).resolve().parent / "fake_blokus_gtp.py")])


@pytest.mark.parametrize("variant", ["duo", "three", "two"])
def test_each_move_gets_the_movers_value_after_it_and_its_drop(variant):
    game = random_game(variant, seed=3, max_moves=10)
    info = game.variant
    values = Analyzer(FAKE, playouts=10).run(game)
    assert [v.number for v in values] == list(range(1, 11))
    for v, move in zip(values, game.moves):
        k = v.number
        player = mover(info, game.position_at(k - 1), move.colour)
        before = point_shares(info, game.position_at(k - 1))
        after = point_shares(info, game.position_at(k))
        assert (v.colour, v.player) == (move.colour, player)
        assert v.value == pytest.approx(after[player], abs=1e-3)
        assert v.drop == pytest.approx(before[player] - after[player], abs=2e-3)
    if variant == "three":  # the shared fourth colour counts for whoever played it
        shared = [v for v in values if v.colour == 3]
        assert [v.player for v in shared] == [0, 1]


def test_a_cancel_stops_the_analysis_and_keeps_the_values_so_far():
    game = random_game("duo", seed=5, max_moves=12)
    analyzer = Analyzer(FAKE, playouts=10)
    seen = []

    def on_value(v):
        seen.append(v)
        if v.number == 3:
            analyzer.cancel()

    values = analyzer.run(game, on_value)
    assert [v.number for v in values] == [1, 2, 3] and values == seen
    assert analyzer.cancelled and Analyzer(FAKE, 10).run(blokus.Game("duo")) == []


def test_an_engine_that_fails_is_an_analysis_error():
    game = random_game("duo", seed=5, max_moves=4)
    with pytest.raises(AnalysisError, match="refused"):
        Analyzer(FAKE + " --bug refuse", playouts=10).run(game)
    with pytest.raises(AnalysisError, match="cannot start"):
        Analyzer("/nonexistent/engine gtp", playouts=10).run(game)
    with pytest.raises(ValueError):
        Analyzer(FAKE, playouts=0)


def test_worst_moves_are_the_largest_drops_first():
    values = [MoveValue(k, k % 2, k % 2, 0.5, drop)
              for k, drop in enumerate([0.1, -0.2, 0.3, 0.02, 0.3, 0.2], 1)]
    assert [v.number for v in worst_moves(values)] == [3, 5, 6, 1]
    assert [v.number for v in worst_moves(values, count=2)] == [3, 5]
    assert worst_moves(values, min_drop=0.5) == []


@pytest.mark.parametrize("variant", ["classic", "duo", "trigon", "callisto_2"])
def test_moves_covering_are_the_legal_moves_that_contain_the_squares(variant):
    rng = random.Random(11)
    for seed in range(3):
        game = random_game(variant, seed=seed, max_moves=rng.randrange(0, 12))
        pos = game.position
        c = pos.effective_to_play()
        legal = sorted(pos.legal_moves(c), key=blokus.move_text)
        for _ in range(6):
            move = sorted(rng.choice(legal))
            cells = rng.sample(move, rng.randrange(1, len(move) + 1))
            want = [m for m in legal if set(cells) <= m]
            assert pos.moves_covering(c, cells) == want, (variant, seed, cells)
        if pos.cells:
            assert pos.moves_covering(c, [next(iter(pos.cells))]) == []
        assert pos.moves_covering(c, []) == []
