"""The Blokus state and its PettingZoo AEC env."""

import threading
import time

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tessera_engine
from tessera_engine.envs import blokus_env

VARIANTS = ["classic", "two", "three", "duo", "junior", "callisto", "callisto_2", "callisto_2_4",
            "callisto_3"]


def test_start_positions_have_the_engine_counts():
    assert len(tessera_engine.Blokus("duo").legal_moves()) == 414
    assert len(tessera_engine.Blokus("classic").legal_moves()) == 58
    assert tessera_engine.Blokus("classic").action_count == 30433
    assert tessera_engine.Blokus("duo").action_count == 13729


def test_moves_play_and_notation_round_trips():
    game = tessera_engine.Blokus("duo", moves=["e9,d10,e10,f10,e11"])
    assert game.colour_to_move() == 1 and game.player_to_move() == 1
    action = game.legal_actions()[0]
    move = game.action_to_move(int(action))
    assert game.move_to_action(move) == action and move in game.legal_moves()
    game.play(move)
    assert game.moves == ["e11,d10,e10,f10,e9", move]
    assert game.points() == [5, len(move.split(","))]


def test_bad_moves_raise_and_change_nothing():
    game = tessera_engine.Blokus("duo", moves=["e10"])
    mask = game.action_mask()
    for bad in ["j6", "e10", "zz", 10**6, -3, "a1,a1"]:
        with pytest.raises(tessera_engine.IllegalMoveError):
            game.play(bad)
    assert game.moves == ["e10"] and (game.action_mask() == mask).all()
    with pytest.raises(tessera_engine.IllegalMoveError, match="move 1"):
        tessera_engine.Blokus("duo", moves=["a1"])
    with pytest.raises(ValueError):
        tessera_engine.Blokus("hexagonal")


def test_random_games_end_and_score():
    rng = np.random.default_rng(1)
    for variant in VARIANTS:
        game = tessera_engine.Blokus(variant)
        while not game.is_over():
            game.play(int(rng.choice(game.legal_actions())))
        assert game.legal_moves() == [] and game.player_to_move() is None
        with pytest.raises(tessera_engine.GameOverError):
            game.play(0)
        assert len(game.results()) == game.players
        assert sum(game.points()) == int((game.board_array() > 0).sum()) + sum(
            p - (game.board_array() == c + 1).sum() for c, p in enumerate(game.points()))


def test_observation_planes():
    game = tessera_engine.Blokus("classic", moves=["a20"])
    planes, pieces_left = game.observation()
    assert planes.shape == (20, 20, 8) and pieces_left.shape == (4, 21)
    # From yellow's view blue is the last colour: its square a20 is the top-left cell.
    assert planes[0, 0, 6] == 1 and planes[1, 1, 7] == 1 and planes[0, 19, 1] == 1
    assert pieces_left[3].sum() == 20 and pieces_left[0].sum() == 21
    assert game.copy().observation(0)[0][0, 0, 0] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed(variant):
    api_test(blokus_env(variant), num_cycles=1000)
    seed_test(lambda: blokus_env(variant), num_cycles=300)


def test_engine_as_a_fixed_opponent(versus_engine):
    env = blokus_env("duo")
    versus_engine(env, "player_1", nodes=200)
    assert env.state.is_over()


def test_search_releases_the_gil():
    game = tessera_engine.Blokus("classic")
    ticks = []
    def count():
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            ticks.append(1)
    thread = threading.Thread(target=count)
    thread.start()
    move = tessera_engine.best_move(game, movetime=300)
    thread.join()
    assert move in game.legal_moves() and len(ticks) > 1000


def test_levels_and_several_lines_from_python():
    state = tessera_engine.Blokus("duo", moves=["e10,d9,e9,f9,e8"])
    low = state.search(level=2, seed=3, own_book=False)
    again = state.search(level=2, seed=3, own_book=False)
    full = state.search(nodes=3000, seed=3, own_book=False)
    assert low.nodes < full.nodes
    assert (low.line, low.nodes) == (again.line, again.nodes)
    result = state.search(nodes=3000, multipv=3)
    firsts = [line[0] for line, _ in result.lines]
    assert len(firsts) == 3 and len(set(firsts)) == 3
    assert firsts[0] == result.best_move
    assert all(state.is_legal(move) for move in firsts)
    for bad in (dict(level=0), dict(level=11), dict(multipv=0), dict(multipv=33)):
        with pytest.raises(ValueError):
            state.search(nodes=100, **bad)
