"""Engine.analyse(..., multipv=K) and the Level option: a fake engine (fake_engine.py) gives the
K ranked lines; the real binary the single-line case and, once a game reports several lines,
those too (skipped while the game gives fewer)."""

import sys
from pathlib import Path

import pytest

from tessera_engine_client import Engine, EngineError, Limit, parse_info
from tessera_engine_client.background import EngineThread
from tessera_engine_client.blokus import Game, parse_move
from tessera_engine_client.compsudoku import SudokuMove, SudokuSession

FAKE = Path(__file__).resolve().parent / "fake_engine.py"
LIMIT = Limit(movetime=50)


@pytest.fixture
def fake(tmp_path):
    """Starts the fake engine; yields (engine, the commands it read so far as a function)."""
    log = tmp_path / "commands.txt"
    engines = []

    def start(*args):
        engine = Engine.popen([sys.executable, str(FAKE), "--log", str(log), *args], timeout=5)
        engines.append(engine)
        return engine

    yield start, lambda: log.read_text().splitlines()
    for engine in engines:
        engine.quit()


def test_parse_info_reads_the_rank():
    info = parse_info("info depth 4 multipv 2 score -30 nodes 9 nps 9 time 1 pv 1@a9 2@b8")
    assert info["multipv"] == 2 and info["score"] == -30 and info["pv"] == ["1@a9", "2@b8"]


def test_analyse_returns_the_lines_by_rank_and_restores_multipv(fake):
    start, commands = fake
    engine = start()
    lines = engine.analyse(LIMIT, multipv=3)
    assert [info["multipv"] for info in lines] == [1, 2, 3]
    assert [info["depth"] for info in lines] == [2, 2, 2]  # the latest of each rank
    assert [info["score"] for info in lines] == [-120, -220, -320]
    assert lines[0]["pv"] == ["1@a9", "2@a8", "3@b8"] and lines[1]["pv"][0] == "2@a9"
    engine.ping()  # the fake has read (and logged) what came before
    sent = commands()
    go = sent.index("go movetime 50")
    assert "setoption name MultiPV value 3" in sent[:go]
    assert sent[go + 1:].count("setoption name MultiPV value 1") == 1
    # Afterwards one line again, untagged, and analyse without multipv gives one dict.
    info = engine.analyse(LIMIT)
    assert isinstance(info, dict) and "multipv" not in info and info["depth"] == 2


def test_bestmove_is_the_first_line_and_play_keeps_them(fake):
    start, _ = fake
    result = start().play(LIMIT, multipv=2)
    assert result.moves == result.lines[0]["pv"] and result.info is result.lines[0]
    assert len(result.lines) == 2


def test_fewer_lines_than_asked(fake):
    start, _ = fake
    assert len(start("--lines", "2").analyse(LIMIT, multipv=3)) == 2


def test_configure_level_and_a_configured_multipv(fake):
    start, commands = fake
    engine = start()
    engine.configure({"Level": 3})
    engine.configure(MultiPV=2)
    engine.ping()
    assert len(engine.analyse(LIMIT, multipv=2)) == 2  # already 2: nothing sent
    assert len(engine.analyse(LIMIT, multipv=4)) == 4
    assert len(engine.analyse(LIMIT)["pv"]) == 3
    engine.ping()
    sent = [c for c in commands() if c.startswith("setoption")]
    assert sent == ["setoption name Level value 3", "setoption name MultiPV value 2",
                    "setoption name MultiPV value 4", "setoption name MultiPV value 2"]


def test_refused_multipv_raises_and_the_engine_serves_on(fake):
    start, _ = fake
    engine = start()
    with pytest.raises(EngineError, match="MultiPV needs an integer from 1 to 32"):
        engine.analyse(LIMIT, multipv=40)
    with pytest.raises(ValueError):
        engine.analyse(LIMIT, multipv=0)
    assert "multipv" not in engine.analyse(LIMIT)


def test_analysis_streams_ranked_lines(fake):
    start, _ = fake
    engine = start()
    analysis = engine.analysis(LIMIT, multipv=3)
    ranks = [info.get("multipv", 1) for info in analysis]
    assert ranks == [1, 1, 2, 3, 1, 2, 3]
    assert [info["depth"] for info in analysis.multipv] == [2, 2, 2]
    assert analysis.result.lines == analysis.multipv


def test_engine_thread_analyse_with_multipv():
    worker = EngineThread([sys.executable, str(FAKE)])
    worker.handlers["search"] = worker.search_handler(
        lambda token: worker.answers.put(("lines", token, worker.analyse(token, LIMIT, 0, 3))))
    worker.start()
    assert worker.answers.get(timeout=5)[0] == "ready"
    worker.request("search", 1)
    msg = worker.answers.get(timeout=5)
    while msg[0] == "info":
        msg = worker.answers.get(timeout=5)
    assert msg[0] == "lines" and len(msg[2].lines) == 3
    worker.quit()


# ---------------------------------------------------------------------- the real engine
def test_real_engine_level_option(engine):
    assert engine.options["Level"].max == 10 and engine.options["Level"].default == "10"
    engine.configure({"Level": 3})
    engine.ping()
    with pytest.raises(EngineError, match="Level"):
        engine.configure(Level=11)
        engine.ping()


def test_real_engine_single_line(engine):
    engine.new_game("blockudoku")
    engine.position(pieces=["##/#.", "###", "#/#/#"])
    lines = engine.analyse(Limit(depth=2), multipv=1)
    assert len(lines) == 1 and "multipv" not in lines[0]
    assert lines[0]["pv"][0] in engine.legal()
    assert len(engine.analyse(Limit(depth=2))["pv"]) == 3


def several(lines, k, game):
    """Skips while the game reports fewer than ``k`` lines (its MultiPV not merged yet)."""
    assert 1 <= len(lines) <= k
    if len(lines) < k:
        pytest.skip(f"{game}: the engine reports {len(lines)} line(s) for MultiPV {k}")
    assert [info.get("multipv", 1) for info in lines] == list(range(1, k + 1))


def test_real_engine_blockudoku_lines(engine):
    engine.new_game("blockudoku")
    engine.position(pieces=["##/#.", "###", "#/#/#"])
    lines = engine.analyse(Limit(depth=2), multipv=3)
    several(lines, 3, "blockudoku")
    assert len({tuple(info["pv"]) for info in lines}) == 3
    assert all(len(info["pv"]) == 3 for info in lines)


def test_real_engine_blokus_lines(engine):
    engine.configure(OwnBook=False)
    engine.new_game("blokus", variant="duo")
    engine.position_startpos([])
    lines = engine.analyse(Limit(movetime=300), multipv=3)
    several(lines, 3, "blokus")
    game = Game("duo")
    firsts = [parse_move(str(info["pv"][0]), 14) for info in lines]
    assert len(set(firsts)) == 3 and all(game.position.is_legal(0, m) for m in firsts)


def test_real_engine_sudoku_lines(engine_cmd):
    with SudokuSession.popen(engine_cmd) as session:
        session.new_game("2x2")
        session.engine.send_raw("position board .2../.41./2143/432.")
        session.refresh()
        legal = session.legal()
        lines = session.engine.analyse(Limit(movetime=100), multipv=3)
        several(lines, 3, "sudoku")
        moves = [SudokuMove.parse(str(info["pv"][0]), 4) for info in lines]
        assert len(set(moves)) == 3 and all(m in legal for m in moves)
