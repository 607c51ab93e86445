"""The Blockudoku state, its Gymnasium env and the batched games."""

import copy

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tessera_engine
from tessera_engine.envs import BlockudokuVectorEnv


def play_randomly(game, rng, placements):
    for _ in range(placements):
        legal = game.legal_actions()
        if game.is_over():
            break
        game.play(int(rng.choice(legal)))


def test_new_game_has_a_hand_and_every_placement_of_it():
    game = tessera_engine.Blockudoku(seed=1)
    assert game.board == "/".join(["........."] * 9)
    assert all(shape is not None for shape in game.hand)
    moves = game.legal_moves()
    assert len(moves) == game.action_mask().sum() == len(game.legal_actions())
    assert [game.action_to_move(a) for a in game.legal_actions()] == moves
    assert all(game.move_to_action(m) == a for m, a in zip(moves, game.legal_actions()))


def test_play_places_clears_and_scores():
    game = tessera_engine.Blockudoku(seed=1)
    game.set_position(board="########./" + "/".join(["........."] * 8), score=10)
    game.set_hand(["#", "##", None])
    assert game.play("1@i9") == 1 + 18
    assert game.board == "/".join(["........."] * 9)
    assert game.score == 29 and game.streak
    assert game.hand == [None, "##", None]


def test_a_new_hand_comes_once_the_hand_is_placed():
    game = tessera_engine.Blockudoku(seed=2)
    for _ in range(3):
        game.play(int(game.legal_actions()[0]))
    assert game.hands == 2 and all(shape is not None for shape in game.hand)


@pytest.mark.parametrize("bad, error", [
    ("4@a9", tessera_engine.IllegalMoveError),
    ("1@z9", tessera_engine.IllegalMoveError),
    (243, tessera_engine.IllegalMoveError),
    (-1, tessera_engine.IllegalMoveError),
    ("nonsense", tessera_engine.IllegalMoveError),
])
def test_bad_moves_raise_and_change_nothing(bad, error):
    game = tessera_engine.Blockudoku(seed=3)
    game.play("1@a9")
    before = (game.board, game.score, game.hand, game.placements)
    with pytest.raises(error):
        game.play(bad)
    with pytest.raises(tessera_engine.IllegalMoveError):
        game.play("1@a9")  # slot 1 is placed
    assert (game.board, game.score, game.hand, game.placements) == before


def test_a_lost_game_refuses_moves():
    game = tessera_engine.Blockudoku(seed=4)
    game.set_position(board="/".join(["#.#.#.#.#", ".#.#.#.#."] * 4 + ["#.#.#.#.#"]))
    game.set_hand(["###"])
    assert game.is_over() and game.legal_moves() == []
    with pytest.raises(tessera_engine.GameOverError):
        game.play(0)


def test_bad_setup_raises():
    game = tessera_engine.Blockudoku()
    with pytest.raises(ValueError, match="region 1 is full"):
        game.set_position(board="/".join(["#########"] + ["........."] * 8))
    with pytest.raises(ValueError):
        game.set_hand(["99"])
    with pytest.raises(ValueError):
        game.set_hand([None, None])
    with pytest.raises(ValueError):
        tessera_engine.Blockudoku(pieceset="tetris")
    with pytest.raises(ValueError):
        tessera_engine.Blockudoku(scoring="golf")


def test_copies_are_independent_and_deal_alike():
    rng = np.random.default_rng(0)
    game = tessera_engine.Blockudoku(seed=5)
    play_randomly(game, rng, 4)
    twin, deep = game.copy(), copy.deepcopy(game)
    actions = []
    for _ in range(6):
        if game.is_over():
            break
        actions.append(int(rng.choice(game.legal_actions())))
        game.play(actions[-1])
    for action in actions:
        twin.play(action)
    assert (twin.board, twin.score, twin.hand) == (game.board, game.score, game.hand)
    assert deep.placements == 4


def test_arrays_show_the_position():
    game = tessera_engine.Blockudoku(seed=6)
    game.set_hand(["##/#.", "#", "#####"])
    game.play("3@a1")
    board = game.board_array()
    assert board.shape == (9, 9) and board[8, :5].sum() == 5 and board.sum() == 5
    hand = game.hand_array()
    assert hand.shape == (3, 5, 5)
    assert hand[0].tolist()[:2] == [[1, 1, 0, 0, 0], [1, 0, 0, 0, 0]] and hand[2].sum() == 0


def test_search_gives_a_legal_plan_in_this_hands_slots():
    game = tessera_engine.Blockudoku(seed=7)
    game.play("2@e5")
    result = tessera_engine.search(game, depth=2)
    assert len(result.line) == 2 and {m[0] for m in result.line} == {"1", "3"}
    for move in result.line:
        game.play(move)
    assert tessera_engine.best_move(game, nodes=1000) in game.legal_moves()


@pytest.mark.parametrize("options", [
    {"render_mode": "rgb_array"},
    {"reward": "survival", "render_mode": "ansi"},
    {"pieceset": "woodoku49", "scoring": "simple", "illegal_action": "terminate"},
    {"pieceset": "blocksudoku59", "scoring": "squared"},
])
def test_gymnasium_env_checker(options):
    env = gym.make("tessera/Blockudoku-v0", **options)
    check_env(env.unwrapped)


def test_env_plays_seeded_games_to_the_end():
    def run(seed):
        env = gym.make("tessera/Blockudoku-v0")
        observation, _ = env.reset(seed=seed)
        rng, total, done = np.random.default_rng(0), 0.0, False
        while not done:
            action = rng.choice(np.flatnonzero(observation["action_mask"]))
            observation, reward, done, truncated, info = env.step(action)
            total += reward
        return total, info["placements"]
    assert run(11) == run(11)
    assert run(11)[1] > 3


def test_env_illegal_actions():
    env = gym.make("tessera/Blockudoku-v0", illegal_action="raise")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(tessera_engine.IllegalMoveError):
        env.step(illegal)
    env = gym.make("tessera/Blockudoku-v0", illegal_reward=-1.0)
    env.reset(seed=1)
    observation, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and info["illegal_action"] and not terminated


def test_env_renders():
    env = gym.make("tessera/Blockudoku-v0", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
    env = gym.make("tessera/Blockudoku-v0", render_mode="ansi")
    env.reset(seed=0)
    assert "a b c d e f g h i" in env.render()


def test_vector_env_steps_many_games():
    env = BlockudokuVectorEnv(16, reward="survival")
    observation, _ = env.reset(seed=3)
    assert observation["board"].shape == (16, 9, 9)
    assert observation["action_mask"].shape == (16, 243)
    ended = 0
    for _ in range(200):
        actions = env.sample_actions()
        assert observation["action_mask"][np.arange(16), actions].all() or ended
        observation, rewards, terminated, truncated, infos = env.step(actions)
        assert "illegal_action" not in infos
        ended += int(terminated.sum())
    assert ended > 0


def test_vector_env_flags_illegal_actions_and_checks_shapes():
    env = BlockudokuVectorEnv(4)
    observation, _ = env.reset(seed=0)
    illegal = np.argmin(observation["action_mask"], axis=1)
    _, rewards, _, _, infos = env.step(illegal)
    assert infos["illegal_action"].all() and (rewards == 0).all()
    with pytest.raises(ValueError):
        env.step(np.zeros(3, np.int64))


def test_the_errors_are_named_after_the_package():
    assert tessera_engine.IllegalMoveError.__module__ == "tessera_engine"
    assert tessera_engine.GameOverError.__module__ == "tessera_engine"
    assert issubclass(tessera_engine.GameOverError, ValueError)
