"""The client against the real engine binary."""

import random
import time

import pytest

from tessera_engine_client import Engine, EngineError, EngineTerminated, Limit, Move
from tessera_engine_client.blockudoku import Board, apply_plan, can_place_hand, deal, piece_set

POSITION = "........./........./........./........./..#####../........./........./........./...###..."


def test_handshake_attributes(engine):
    assert engine.name.startswith("tessera")
    assert engine.author
    assert "blockudoku" in engine.games
    assert {"Seed", "MoveOverhead"} <= set(engine.options)
    seed = engine.options["Seed"]
    assert seed.type == "spin" and seed.default == "0" and seed.min == 0
    assert engine.options["MoveOverhead"].max == 5000
    engine.ping()


def test_play_returns_legal_plan(engine):
    engine.new_game("blockudoku", pieceset="standard47", scoring="app")
    hand = ["##/#.", "###", "#/#/#"]
    engine.position(board=POSITION, pieces=hand, score=10)
    result = engine.play(Limit(movetime=100))
    assert len(result.moves) == 3
    assert all(isinstance(m, Move) for m in result.moves)
    assert sorted(m.slot for m in result.moves) == [1, 2, 3]
    assert result.info["depth"] >= 1 and result.info["pv"] == result.moves
    # The first move is in the engine's own legal list, and the whole plan plays by our rules.
    assert result.moves[0] in engine.legal()
    plan = apply_plan(Board.parse(POSITION), hand, result.moves, score=10)
    assert plan.score >= 10 + 9  # at least the placed cells


def test_play_several_rounds_with_rules_helper(engine):
    """Deal, play, apply with the helper, send the new board back: the engine accepts it
    (it refuses boards with an uncleared full region), for a few rounds of each piece set."""
    for pieceset in ("standard47", "blocksudoku59", "woodoku49"):
        rng = random.Random(5)
        engine.new_game("blockudoku", pieceset=pieceset)
        board, score, streak = Board(), 0, False
        for _ in range(8):
            hand = deal(rng, pieceset)
            engine.position(board=board, pieces=hand, score=score, streak=streak)
            result = engine.play(Limit(depth=1))
            if result.none:
                assert not can_place_hand(board, hand)
                break
            plan = apply_plan(board, hand, result.moves, score, streak)
            board, score, streak = plan.board, plan.score, plan.streak
            assert not board.full_regions()
        engine.position(board=board, score=score, streak=streak)
        engine.ping()  # no error: the engine took the board
        assert score > 0


def test_indices_name_the_set_pieces(engine):
    engine.new_game("blockudoku", pieceset="woodoku49")
    engine.position(pieces=[1, 2, 49])
    shown = [l for l in engine.show() if l.startswith("hand")][0]
    pieces = piece_set("woodoku49")
    assert shown == f"hand 1:{pieces[0]} 2:{pieces[1]} 3:{pieces[48]}"


def test_bestmove_none_when_hand_cannot_be_placed(engine):
    # A checkerboard: no two empty cells side by side, and two monominoes clear nothing.
    rows = ["#.#.#.#.#", ".#.#.#.#."] * 4 + ["#.#.#.#.#"]
    board = Board.from_rows(rows)
    assert not board.full_regions()
    engine.new_game("blockudoku")
    engine.position(board=board, pieces=["##", "#", "#"])
    result = engine.play(Limit(movetime=50))
    assert result.none and result.moves == [] and result.bestmove == "none"
    assert not can_place_hand(board, ["##", "#", "#"])


def test_analysis_streams_and_stop_ends_it(engine):
    engine.new_game("blockudoku")
    engine.position(board=POSITION, pieces=["##/#.", "###", "#/#/#"])
    infos = []
    start = time.monotonic()
    with engine.analysis(Limit(infinite=True)) as analysis:
        for info in analysis:
            infos.append(info)
            assert {"depth", "score", "nodes", "nps", "time", "pv"} <= set(info)
            assert isinstance(info["pv"], list) and len(info["pv"]) == 3
            if len(infos) == 2 or time.monotonic() - start > 0.2:
                analysis.stop()
    assert time.monotonic() - start < 5
    assert analysis.done and analysis.result is not None
    assert len(analysis.result.moves) == 3
    assert infos and infos[0]["depth"] == 0  # the fallback, before any search
    assert infos[1]["depth"] == 1
    engine.ping()  # the engine serves on
    assert engine.play(Limit(depth=1)).moves


def test_engine_stop_ends_analysis_and_limited_analysis_ends_alone(engine):
    engine.new_game("blockudoku")
    engine.position(pieces=["#", "##", "###"])
    analysis = engine.analysis(Limit(infinite=True))
    first = analysis.next(timeout=5)
    assert first is not None and first["pv"]
    engine.stop()
    result = analysis.wait()
    assert len(result.moves) == 3
    depths = [info["depth"] for info in engine.analysis(Limit(depth=2))]
    assert depths and max(depths) <= 2


def test_new_command_during_analysis_ends_it(engine):
    engine.new_game("blockudoku")
    engine.position(pieces=["#", "##", "###"])
    analysis = engine.analysis(Limit(infinite=True))
    engine.position(pieces=["####"])  # ends the search, its bestmove is consumed
    assert analysis.done
    assert engine.play(Limit(depth=1)).moves[0].slot == 1


def test_engine_error_on_bad_command(engine):
    engine.send_raw("flurb")
    with pytest.raises(EngineError, match="unknown command 'flurb'"):
        engine.ping()
    engine.ping()  # reported once, the engine goes on
    engine.new_game("blockudoku")
    # The refusal raises on the client's next read: in position() if the error line has
    # already come when the hand is sent, else in play().
    with pytest.raises(EngineError, match="impossible board"):
        engine.position(board="#########/" + "/".join(["........."] * 8), pieces=["#"])
        engine.play(Limit(depth=1))
    with pytest.raises(EngineError, match="unknown game"):
        engine.new_game("chess")
        engine.ping()
    with pytest.raises(EngineError, match="unknown option"):
        engine.configure(Hash=16)
        engine.ping()


def test_go_refused_raises_without_hanging(engine_cmd):
    with Engine.popen(engine_cmd, timeout=5) as engine:
        engine.new_game("blockudoku")
        start = time.monotonic()
        with pytest.raises(EngineError, match="no pieces"):
            engine.play(Limit(depth=1))
        assert time.monotonic() - start < 2
        engine.set_pieces(["#"])
        assert engine.play(Limit(depth=1)).moves


def test_send_raw_with_expect(engine):
    engine.new_game("blockudoku")
    engine.send_raw("pieces 1")
    lines = engine.send_raw("legal", expect="legal")
    assert lines[-1].split()[1] == "1@a9" and len(lines[-1].split()) == 82


def test_configure_seed_makes_search_reproducible(engine):
    engine.configure(Seed=42)
    engine.new_game("blockudoku")
    engine.position(board=POSITION, pieces=["##/#.", "###", "#/#/#"])
    first = engine.play(Limit(depth=3))
    again = engine.play(Limit(depth=3))
    assert first.moves == again.moves
    assert first.info["nodes"] == again.info["nodes"]


def test_engine_terminated_when_killed(engine_cmd):
    engine = Engine.popen(engine_cmd, timeout=5)
    engine.new_game("blockudoku")
    engine.position(pieces=["#", "##", "###"])
    analysis = engine.analysis(Limit(infinite=True))
    assert analysis.next(timeout=5) is not None
    engine.process.kill()
    start = time.monotonic()
    with pytest.raises(EngineTerminated):
        for _ in analysis:
            pass
    with pytest.raises(EngineTerminated):
        engine.ping()
    with pytest.raises(EngineTerminated):
        engine.play(Limit(depth=1))
    assert time.monotonic() - start < 3
    assert engine.terminated
    engine.quit()  # harmless


def test_engine_terminated_when_killed_while_idle(engine_cmd):
    engine = Engine.popen(engine_cmd, timeout=5)
    engine.process.kill()
    engine.process.wait()
    with pytest.raises(EngineTerminated):
        engine.new_game("blockudoku")
        engine.ping()


def test_popen_of_a_program_that_is_not_an_engine():
    with pytest.raises(EngineTerminated):
        Engine.popen(["true"], timeout=5)


def test_context_manager_exits_cleanly(engine_cmd):
    with Engine.popen(engine_cmd) as engine:
        engine.new_game("blockudoku")
        engine.position(pieces=["#"])
        engine.analysis(Limit(infinite=True))  # left running on purpose
        process = engine.process
    assert process.returncode == 0
    assert engine.terminated
    with pytest.raises(EngineTerminated):
        engine.ping()
