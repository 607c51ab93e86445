"""Competitive Sudoku: the rules helpers, board files, and SudokuSession against the engine."""

import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tessera_engine_client import EngineError
from tessera_engine_client.compsudoku import (
    MODES,
    POINTS,
    Legal,
    SudokuMove,
    SudokuSession,
    SudokuState,
    parse_box,
    read_board_file,
)

# Copies of the course's board files (v12 and v14 formats).
DATA = Path(__file__).resolve().parents[3] / "tests" / "data" / "compsudoku"
# The protocol.md example: six placing moves and one pass (a4=3 leaves no solution).
EXAMPLE = "position board .2../.41./2143/432."
EXAMPLE_PLACING = {"a4=1", "c4=3", "d4=4", "a3=3", "d3=2", "d1=1"}


@pytest.fixture
def game(engine_cmd):
    with SudokuSession.popen(engine_cmd, timeout=10) as session:
        yield session


def example(session):
    session.new_game("2x2")
    return session.set_state(SudokuState.from_position(EXAMPLE, "2x2"))


def notations(moves, n=4):
    return {mv.notation(n) for mv in moves}


def board_file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------------- pure helpers
def test_move_notation():
    assert SudokuMove.parse("e5=7", 9) == SudokuMove(4, 4, 7)
    assert SudokuMove.parse("p16=G", 16) == SudokuMove.parse("p16=16", 16) == SudokuMove(0, 15, 16)
    assert SudokuMove(0, 15, 16).notation(16) == "p16=G"
    assert SudokuMove(0, 15, 16).label(16) == "p16=16"
    for bad in ("e5", "e10=1", "j1=1", "a1=0", "a1=10"):
        with pytest.raises(ValueError):
            SudokuMove.parse(bad, 9)
    assert parse_box("3x4") == (3, 4)
    with pytest.raises(ValueError):
        parse_box("6x5")


def test_display_rules_on_a_known_board():
    state = SudokuState.from_position(EXAMPLE, "2x2")
    assert state.candidates(0, 0) == [1, 3]  # a4
    assert state.candidates(0, 1) == []  # filled
    assert state.completes(3, 3) == ["row 1", "box 4"] and state.points_for(3, 3) == 3
    assert state.completes(0, 0) == [] and state.points_for(0, 0) == 0
    assert state.completes(2, 2) == ["row 2"] and state.points_for(2, 2) == 1
    state.taboo = [SudokuMove(0, 0, 3)]
    assert state.candidates(0, 0) == [1]  # a listed taboo move is no candidate
    assert state.playable(1) == state.playable(2) == {c for c, v in enumerate(state.cells) if not v}


def test_territory_playable_cells():
    rows = SudokuState.new("3x3", "rows")
    assert rows.playable(1) == set(range(9)) and rows.playable(2) == set(range(72, 81))
    rows.cells[4], rows.owners[4] = 5, 1  # e9 filled by player 1
    assert rows.playable(1) == (set(range(9)) - {4}) | {12, 13, 14}
    border = SudokuState.new("2x2", "border")
    assert border.playable(1) == border.playable(2) == set(range(16)) - {5, 6, 9, 10}
    assert SudokuState.new("2x2", "random").allowed is None  # drawn by the engine from its seed


def test_position_line_round_trip():
    line = ("position board 1......../........./........./........./........./........./"
            "........./........./2........ turn 2 scores 3 1 taboo b9=2 owners 1......../"
            "........./........./........./........./........./........./........./2........ "
            "allowed1 a9,b9 allowed2 a1,i1")
    state = SudokuState.from_position(line, "3x3", "rows")
    assert state.position_command() == line
    assert state.turn == 2 and state.scores == (3, 1) and state.taboo == [SudokuMove(0, 1, 2)]
    assert state.allowed == (frozenset({0, 1}), frozenset({72, 80}))
    with pytest.raises(ValueError):
        SudokuState.from_position("position board ..../.... ", "2x2")
    with pytest.raises(ValueError):
        SudokuState.from_position(EXAMPLE + " moves a4=1", "2x2")


def test_legal_parse_with_pass_marker():
    legal = Legal.parse("legal a4=1 c4=3 pass a4=3", 4)
    assert notations(legal.placing) == {"a4=1", "c4=3"} and notations(legal.passes) == {"a4=3"}
    assert len(legal) == 3 and SudokuMove(0, 0, 3) in legal and legal.is_pass(SudokuMove(0, 0, 3))
    assert len(Legal.parse("legal", 4)) == 0


def test_read_board_files(tmp_path):
    random3 = read_board_file(DATA / "v12-random-3x3.txt")
    assert random3.box == "3x3" and random3.filled() == 40 and random3.get(0, 2) == 1
    v14 = read_board_file(DATA / "v14-board-2x2.txt", "rows")
    assert v14.get(0, 1) == 1 and v14.owners[1] == 1 and v14.owners[3] == 2
    assert v14.taboo == [SudokuMove(3, 3, 1), SudokuMove(3, 0, 3)]
    assert v14.allowed == (frozenset(range(4)), frozenset(range(12, 16)))
    assert not any(read_board_file(DATA / "v14-board-2x2.txt").owners)  # classic: no owners
    assert read_board_file(DATA / "v14-empty-3x4.txt").box == "3x4"
    big = board_file(tmp_path, "big.txt", "4 4\n" + " ".join(map(str, range(1, 17)))
                     + " ." * 240)
    assert read_board_file(big).cells[:16] == list(range(1, 17))
    saved = board_file(tmp_path, "saved.txt", (
        "rows = 2\ncolumns = 2\nboard =\n   1+  .   .   .\n   .   .   .   .\n"
        "   .   .   .   .\n   .   .   .   2-\ntaboo-moves = [(0,1) -> 1]\nscores = [4, 2]\n"
        "current-player = 2\nallowed-squares1 = (0,0), (0,1)\nallowed-squares2 = (3,3)\n"))
    state = read_board_file(saved, "random")
    assert state.turn == 2 and state.scores == (4, 2) and state.taboo == [SudokuMove(0, 1, 1)]
    assert state.allowed == (frozenset({0, 1}), frozenset({15}))
    assert state.owners[0] == 1 and state.owners[15] == 2


# ---------------------------------------------------------------------- with the engine
def test_legal_moves_of_a_known_board(game):
    example(game)
    legal = game.legal()
    assert notations(legal.placing) == EXAMPLE_PLACING
    assert notations(legal.passes) == {"a4=3"}
    assert legal.note is None


def test_legal_splits_the_rule_moves_of_a_course_board(game):
    start = read_board_file(DATA / "v12-easy-2x2.txt")
    game.new_game(start.box, start=start)
    legal = game.legal()
    rule_moves = {SudokuMove(c // 4, c % 4, v) for c in start.playable(1)
                  for v in start.candidates(c // 4, c % 4)}
    assert set(legal) == rule_moves
    assert notations(legal.placing) == {"d4=4", "c2=4", "a1=4", "c1=2"}
    assert notations(legal.passes) == {"c1=4"}
    assert not set(legal.placing) & set(legal.passes)


def test_position_round_trips_through_the_engine(game):
    start = read_board_file(DATA / "v14-board-2x3.txt", "rows")
    state = game.new_game(start.box, "rows", start=start)
    assert (state.cells, state.owners, state.taboo, state.scores, state.turn, state.allowed) == (
        start.cells, start.owners, start.taboo, start.scores, start.turn, start.allowed)
    assert state.mode == "rows" and not state.over


def test_taboo_move_is_reported(game):
    before = example(game)
    outcome = game.play_move(SudokuMove.parse("a4=3", 4))
    assert outcome.taboo and outcome.points == 0 and outcome.regions == []
    after = game.state
    assert after.cells == before.cells and after.turn == 2 and after.scores == (0, 0)
    assert after.taboo == [SudokuMove(0, 0, 3)]
    assert "taboo" in outcome.describe()
    # Now listed, it is no longer legal: the engine refuses it and nothing changes.
    with pytest.raises(EngineError, match="taboo"):
        game.play_move(SudokuMove.parse("a4=3", 4))
    assert game.state == after
    assert SudokuMove(0, 0, 3) not in game.legal()


def test_placing_move_scores_its_regions(game):
    example(game)
    outcome = game.play_move(SudokuMove.parse("d1=1", 4))
    assert not outcome.taboo and outcome.points == 3
    assert outcome.regions == ["row 1", "box 4"]
    assert game.state.scores == (3, 0) and game.state.turn == 2 and game.state.get(3, 3) == 1


def test_illegal_move_raises_and_keeps_the_state(game):
    game.new_game("3x3", "rows")
    with pytest.raises(EngineError, match="not playable"):
        game.play_move(SudokuMove.parse("a1=1", 9))  # player 2's starting row
    game.play_move(SudokuMove.parse("b9=1", 9))
    kept = game.state
    with pytest.raises(EngineError, match="already in the row, column or box"):
        game.play_move(SudokuMove.parse("b1=1", 9))  # column b holds the 1
    assert game.state == kept and kept.turn == 2 and kept.filled() == 1


def test_impossible_start_is_refused(game):
    kept = example(game)
    # No value is left for c4, though nothing repeats.
    bad = SudokuState.from_position("position board 12../..../..3./..4.", "2x2")
    with pytest.raises(EngineError, match="no solution"):
        game.set_state(bad)
    assert game.refresh() == kept


@pytest.mark.parametrize("mode", MODES)
def test_engine_against_engine_on_2x2_scores_every_region_once(game, mode):
    game.new_game("2x2", mode)
    outcomes = []
    while not game.state.over:
        legal = game.legal()
        result = game.search(movetime=20)
        assert result.move in legal and result.infos and result.info["pv"][0] == result.bestmove
        outcomes.append(game.play_move(result.move))
        assert len(outcomes) < 200
    final = game.state
    assert game.search(movetime=20).move is None and len(game.legal()) == 0
    placed = [o for o in outcomes if not o.taboo]
    for o in outcomes:
        assert o.points == POINTS[len(o.regions)]  # the display rules agree with the engine
    assert sum(final.scores) == sum(o.points for o in outcomes)
    for player in (1, 2):
        assert final.scores[player - 1] == sum(o.points for o in outcomes if o.player == player)
    assert final.winner == (0 if final.scores[0] == final.scores[1]
                            else 1 if final.scores[0] > final.scores[1] else 2)
    if all(final.cells):  # a full grid: each of the 12 regions completed exactly once
        assert len(placed) == 16
        regions = Counter(r for o in placed for r in o.regions)
        assert len(regions) == 12 and set(regions.values()) == {1}


def test_territory_legal_moves_stay_on_playable_squares(game):
    game.new_game("3x3", "rows")
    for _ in range(12):
        state = game.state
        legal = game.legal()
        cells = {mv.row * 9 + mv.col for mv in legal}
        playable = {c for c in state.playable(state.turn) if state.candidates(c // 9, c % 9)}
        assert cells == playable
        game.play_move(game.search(movetime=10).move)


def test_stop_ends_a_long_search(game):
    game.new_game("4x4")
    got = []
    started = time.monotonic()
    first_info = threading.Event()
    worker = threading.Thread(target=lambda: got.append(
        game.search(movetime=20000, on_info=lambda info: first_info.set())))
    worker.start()
    assert first_info.wait(5)
    game.stop()
    worker.join(5)
    assert got and got[0].move in game.legal()
    assert time.monotonic() - started < 5


def test_short_searches_always_give_a_move(game):
    """The engine sometimes answers `bestmove none` after its depth-0 line when a very short
    search is cut off before depth 1 (5x5: about 2 in 100 at 2 ms); the session then plays the
    published line, so a game never stalls."""
    game.new_game("5x5")
    legal = set(game.legal())
    results = [game.search(movetime=2) for _ in range(300)]
    assert all(r.move in legal for r in results)
    assert all(r.bestmove == "none" or r.move.notation(25) == r.bestmove for r in results)
