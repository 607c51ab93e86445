"""The Competitive Sudoku state and its PettingZoo AEC env."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tessera_engine
from tessera_engine.envs import compsudoku_env

EXAMPLE = "board .2../.41./2143/432."


def test_the_protocol_example():
    game = tessera_engine.CompSudoku("2x2", position=EXAMPLE)
    assert game.legal_moves() == ["a4=1", "a4=3", "c4=3", "d4=4", "a3=3", "d3=2", "d1=1"]
    assert game.passing_moves() == ["a4=3"]
    assert tessera_engine.best_move(game, movetime=200) == "a4=3"
    assert game.play("a4=3") == {"placed": False, "points": 0}
    assert game.taboo == ["a4=3"] and game.player_to_move() == 1
    assert game.position == "board .2../.41./2143/432. turn 2 scores 0 0 taboo a4=3"
    assert game.play("d1=1") == {"placed": True, "points": 3}  # row 1 and its box


def test_bad_moves_raise_and_change_nothing():
    game = tessera_engine.CompSudoku("2x2", position=EXAMPLE + " taboo a4=3")
    before = game.position
    for bad in ["a4=3", "b4=1", "a4=2", "a4=5", "e1=1", "x", 64, -1]:
        with pytest.raises(tessera_engine.IllegalMoveError):
            game.play(bad)
    assert game.position == before
    with pytest.raises(ValueError):
        tessera_engine.CompSudoku("2x2", position="board 11../..../..../....")
    with pytest.raises(ValueError):
        tessera_engine.CompSudoku("9x9")


@pytest.mark.parametrize("box, mode", [("2x2", "classic"), ("2x3", "rows"), ("3x3", "border"),
                                       ("2x3", "random"), ("3x3", "classic")])
def test_random_games_end(box, mode):
    rng = np.random.default_rng(2)
    game = tessera_engine.CompSudoku(box, mode)
    while not game.is_over():
        game.play(int(rng.choice(game.legal_actions())))
    assert game.winner() in (-1, 0, 1) and game.legal_moves() == []
    with pytest.raises(tessera_engine.GameOverError):
        game.play(0)


def test_observation_planes():
    game = tessera_engine.CompSudoku("2x2", "rows", position="board 1.../..../..../.... owners 1.../..../..../....")
    planes = game.observation(0)
    assert planes.shape == (4, 4, 10)
    assert planes[0, 0, 0] == 1 and planes[0, 1, 8] == 1 and planes[1, 1, 8] == 1
    assert planes[3, 0, 9] == 1 and planes[1, 1, 9] == 0


@pytest.mark.parametrize("box, mode", [("2x2", "classic"), ("2x3", "rows"), ("3x3", "classic"),
                                       ("2x3", "border"), ("3x3", "random")])
def test_pettingzoo_api_and_seed(box, mode):
    api_test(compsudoku_env(box, mode), num_cycles=1000)
    seed_test(lambda: compsudoku_env(box, mode), num_cycles=300)


def test_engine_as_a_fixed_opponent_wins_against_random_play(versus_engine):
    env = compsudoku_env("2x3", reward="score")
    versus_engine(env, "player_0", movetime=20)
    first, second = env.state.scores
    assert first > second
