"""The rules are the engine's: random games replayed through the module and through the engine
binary (`position` then `legal`) give the same legal moves at every step, and the committed
twogtp records of Blokus replay alike."""

import re

import numpy as np
import pytest

import tessera_engine
from conftest import REPO


def blockudoku_setup(game):
    """The commands that give the binary the game's board and the rest of its hand."""
    return (f"position board {game.board} score {game.score} streak {int(game.streak)}",
            "pieces " + " ".join(shape for shape in game.hand if shape is not None))


def blockudoku_engine_legal(engine, game):
    """The binary's legal placements for the game's board and the rest of its hand, mapped
    back to the game's slots (the binary numbers the pieces it is given from 1)."""
    slots = [slot for slot, shape in enumerate(game.hand) if shape is not None]
    words = engine.legal(*blockudoku_setup(game))
    mapped = []
    for word in words:
        index, square = word.split("@")
        mapped.append(f"{slots[int(index) - 1] + 1}@{square}")
    return mapped


@pytest.mark.parametrize("pieceset", ["standard47", "blocksudoku59", "woodoku49"])
def test_blockudoku_random_games(engine, pieceset):
    engine.ask(f"newgame blockudoku pieceset {pieceset}")
    rng = np.random.default_rng(7)
    for seed in range(6):
        game = tessera_engine.Blockudoku(pieceset=pieceset, seed=seed)
        while not game.is_over():
            assert game.legal_moves() == blockudoku_engine_legal(engine, game)
            game.play(int(rng.choice(game.legal_actions())))
        # Lost: the engine finds no order placing the rest of the hand.
        assert engine.bestmove(*blockudoku_setup(game)) == "bestmove none"


@pytest.mark.parametrize("variant", ["classic", "two", "three", "duo", "junior"])
def test_blokus_random_games(engine, variant):
    engine.ask(f"newgame blokus variant {variant}")
    rng = np.random.default_rng(3)
    for _ in range(3):
        game = tessera_engine.Blokus(variant)
        while True:
            engine_moves = engine.legal("position startpos moves " + " ".join(game.moves))
            assert sorted(game.legal_moves()) == sorted(engine_moves)
            if game.is_over():
                break
            game.play(int(rng.choice(game.legal_actions())))


@pytest.mark.parametrize("record", ["classic", "duo", "junior"])
def test_blokus_twogtp_records(engine, record):
    text = (REPO / "tests" / "data" / "blokus" / f"{record}-twogtp.blksgf").read_text()
    first_game = text.split(")")[0]
    moves = re.findall(r";([BW1-4])\[([a-t0-9,]+)\]", first_game)
    colours = {"B": 0, "W": 1, "1": 0, "2": 1, "3": 2, "4": 3}
    engine.ask(f"newgame blokus variant {record}")
    game = tessera_engine.Blokus(record)
    for colour, move in moves:
        assert game.colour_to_move() == colours[colour]
        assert move in game.legal_moves() or game.move_to_action(move) in game.legal_actions()
        game.play(move)
    assert sorted(game.legal_moves()) == sorted(
        engine.legal("position startpos moves " + " ".join(game.moves)))
    lines = engine.ask("show")
    for colour, points in enumerate(game.points()):
        assert any(re.search(rf"^info string {colour + 1} \w+ points {points} ", line)
                   for line in lines), (colour, points, lines)


def compsudoku_engine_legal(engine, game):
    words = engine.legal(f"position {game.position}")
    placing = words[:words.index("pass")] if "pass" in words else words
    passing = words[len(placing) + 1:]
    return placing, passing


@pytest.mark.parametrize("box, mode", [("2x2", "classic"), ("2x3", "classic"), ("2x3", "rows"),
                                       ("3x3", "border"), ("2x3", "random"), ("3x3", "classic")])
def test_compsudoku_random_games(engine, box, mode):
    engine.ask(f"newgame sudoku box {box} mode {mode} seed 5")
    rng = np.random.default_rng(11)
    game = tessera_engine.CompSudoku(box, mode, seed=5)
    while True:
        placing, passing = compsudoku_engine_legal(engine, game)
        assert sorted(game.legal_moves()) == sorted(placing + passing)
        assert sorted(game.passing_moves()) == sorted(passing)
        if game.is_over():
            break
        move = game.legal_moves()[int(rng.integers(len(game.legal_moves())))]
        before = game.position
        game.play(move)
        # The engine plays the same move from the same state to the same state.
        shown = engine.ask(f"position {before} moves {move}", "show")
        assert shown[-1] == f"info string position {game.position}"
