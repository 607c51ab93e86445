"""tessera_engine_client.blockudoku_referee (tools/blockudoku_referee.py): its rules, its deal sets, and short real runs."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tessera_engine_client import blockudoku_referee as ref

TOOLS = Path(__file__).resolve().parents[2]

# One empty cell in each row, column and box: any monomino clears a row, a column and a box.
LATIN = ["########.", ".########", "###.#####", "#.#######", "####.####", "######.##", "##.######",
         "#####.###", "#######.#"]


def test_standard47_is_tesseras_numbering():
    pieces = ref.piece_set("standard47")
    assert len(pieces) == 47
    assert pieces[0].notation() == "#" and pieces[32].notation() == "#####"
    assert pieces[46].notation() == ".#./###/.#."


def test_a_placement_clears_a_row_and_a_box_at_once():
    # Top row filled from d9 to i9, the rest of the top-left box (rows 8 and 7) filled.
    board = ref.parse_board("/".join(["...######", "###......", "###......"] + ["........."] * 6))
    assert not ref.full_regions(board)
    piece = ref.Piece.parse("###")
    assert len(ref.full_regions(board | piece.mask(0, 0))) == 2
    assert ref.play_hand(board, [piece], ["1@a9"]) == 0


def test_illegal_answers_are_rejected():
    board = ref.parse_board("/".join(["........."] * 4 + ["....#...."] + ["........."] * 4))
    hand = [ref.Piece.parse("#"), ref.Piece.parse("##")]
    with pytest.raises(ref.IllegalMove, match="overlaps"):
        ref.play_hand(board, hand, ["1@e5", "2@a9"])
    with pytest.raises(ref.IllegalMove, match="leaves the board"):
        ref.play_hand(board, hand, ["2@i1", "1@a9"])
    with pytest.raises(ref.IllegalMove, match="each slot once"):
        ref.play_hand(board, hand, ["1@a9", "1@a1"])
    with pytest.raises(ref.IllegalMove, match="each slot once"):
        ref.play_hand(board, hand, ["2@a1"])


def test_a_clear_between_placements_makes_room():
    board = ref.parse_board("/".join(LATIN))
    line, dot = ref.Piece.parse("#####"), ref.Piece.parse("#")
    assert ref.hand_fits(board, [line, dot])
    assert not ref.hand_fits(board, [line, line, dot])
    after = ref.play_hand(board, [line, dot], ["2@i9", "1@a9"])  # clears row 9, column i, a box
    assert ref.board_notation(after).startswith("#####..../")
    with pytest.raises(ref.IllegalMove):
        ref.play_hand(board, [line, dot], ["1@a9", "2@i9"])


def test_deal_sets_are_seeded_and_read_back(tmp_path):
    starts = [ref.board_notation(0), "/".join(LATIN)]
    deals = ref.make_deals(starts, 47, seed=3, games=3, rounds=4)
    assert deals == ref.make_deals(starts, 47, seed=3, games=3, rounds=4)
    assert [d.start for d in deals] == [starts[0], starts[1], starts[0]]
    path = tmp_path / "deals.txt"
    ref.write_deals(path, "standard47", deals, "test")
    assert ref.read_deals(path) == ("standard47", deals)


def test_tessera_plays_a_tiny_deal_set(engine_cmd, tmp_path):
    deals, jsonl = tmp_path / "deals.txt", tmp_path / "run.jsonl"
    referee = [sys.executable, str(TOOLS / "blockudoku_referee.py")]
    subprocess.run(referee + ["--make-deals", str(deals), "--seed", "1", "--games", "2", "--rounds", "5"],
                   check=True)
    out = subprocess.run(referee + ["--deals", str(deals), "--engine", engine_cmd, "--movetime", "2",
                                    "--jsonl", str(jsonl)], check=True, capture_output=True, text=True)
    line = re.match(r"player 1 games 2 deaths 0 rounds 10 deaths_per_1000_rounds 0.00 "
                    r"cpu_ms_per_round ([\d.]+) median [\d.]+ wall_ms_per_round [\d.]+ errors 0", out.stdout)
    assert line, out.stdout
    assert 0 < float(line[1]) < 100
    games = [json.loads(g) for g in jsonl.read_text().splitlines()]
    assert [(g["game"], g["rounds"], g["died"], g["error"]) for g in games] == [(0, 5, False, None), (1, 5, False, None)]


STACKER = """import sys
for line in sys.stdin:
    if line.startswith("quit"):
        break
    answer = {"isready": "readyok", "go": "bestmove 1@a9 2@a9 3@a9"}.get(line.split()[0])
    if answer:
        print(answer, flush=True)
"""


def test_deaths_and_errors(engine_cmd, tmp_path):
    lines = ref.piece_set("standard47").index(ref.Piece.parse("#####")) + 1
    lost = ref.Deal("/".join(LATIN), [(lines, lines, lines)])
    [result] = ref.evaluate(engine_cmd, "standard47", [lost], "movetime 2", timeout=10)
    assert (result.rounds, result.died, result.error) == (0, True, None)
    # An engine that stacks the whole hand on a9: an error, counted as a death; the next game
    # gets a new process.
    stacker = tmp_path / "stacker.py"
    stacker.write_text(STACKER)
    empty = ref.Deal(ref.board_notation(0), [(1, 2, 3)])
    results = ref.evaluate(f"{sys.executable} {stacker}", "standard47", [empty, empty], "movetime 2", timeout=10)
    assert all(r.died and "overlaps" in r.error for r in results)


def test_losses_are_recorded_with_the_boards_before_them(engine_cmd, tmp_path):
    lines = ref.piece_set("standard47").index(ref.Piece.parse("#####")) + 1
    monomino = ref.piece_set("standard47").index(ref.Piece.parse("#")) + 1
    # A checkerboard: every row, column and box keeps four or more empty cells after three
    # monominoes, and no two empty cells touch. Game 0 is lost on its second hand; game 1
    # survives.
    checker = "/".join("".join(".#"[(r + c) % 2] for c in range(9)) for r in range(9))
    deals = [
        ref.Deal(checker, [(monomino, monomino, monomino), (lines, lines, lines)]),
        ref.Deal(ref.board_notation(0), [(monomino, monomino, monomino)]),
    ]
    path, losses, crowded = tmp_path / "deals.txt", tmp_path / "losses.txt", tmp_path / "crowded.txt"
    ref.write_deals(path, "standard47", deals, "test")
    referee = [sys.executable, str(TOOLS / "blockudoku_referee.py")]
    out = subprocess.run(referee + ["--deals", str(path), "--engine", engine_cmd, "--depth", "2",
                                    "--record-losses", str(losses), "--before", "1,0,5",
                                    "--record-crowded", str(crowded), "--min-filled", "41"],
                         check=True, capture_output=True, text=True)
    # Rounds asked start with 40, 43 and 0 filled cells.
    assert re.search(r"deaths 1 rounds 2 .* errors 0 filled_mean 27.67 crowded30_pct 66.667 "
                     r"crowded36_pct 66.667", out.stdout), out.stdout
    recorded = losses.read_text().splitlines()
    # The board of the deadly round and the one before it (the start); 5 rounds back is no board.
    assert [line.split()[1:] for line in recorded] == [
        ["player", "1", "game", "0", "before", "0"],
        ["player", "1", "game", "0", "before", "1"],
    ]
    assert recorded[1].split()[0] == checker
    assert ref.parse_board(recorded[0].split()[0]).bit_count() == 43
    # Of the boards met (40, 43 and 0 filled cells) only the second has 41 or more.
    assert crowded.read_text().splitlines() == [recorded[0].split()[0] + " player 1 game 0"]
