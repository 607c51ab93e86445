"""The pure-Python rules helper."""

import random
from pathlib import Path

import pytest

from tessera_engine_client.blockudoku import (
    PIECE_SETS,
    REGIONS,
    Board,
    Piece,
    apply_plan,
    can_place_hand,
    deal,
    piece_set,
    points,
    rc_to_square,
    square_to_rc,
)

REPO = Path(__file__).resolve().parents[3]
EMPTY_ROW = "........."


def test_squares():
    assert square_to_rc("a9") == (0, 0)
    assert square_to_rc("a1") == (8, 0)
    assert square_to_rc("i1") == (8, 8)
    assert square_to_rc("c7") == (2, 2)
    assert rc_to_square(2, 2) == "c7"
    with pytest.raises(ValueError):
        square_to_rc("j1")


def test_piece_parse_and_trim():
    p = Piece.parse("..../.##./.#..")
    assert p.notation() == "##/#."
    assert (p.width, p.height, p.size) == (2, 2, 3)
    assert Piece.parse("#") == Piece.parse("./#")
    with pytest.raises(ValueError):
        Piece.parse("#x")


def test_board_forms_agree():
    rows = ["#........"] + [EMPTY_ROW] * 7 + ["........#"]
    b = Board.from_rows(rows)
    assert b == Board.parse("/".join(rows)) == Board({(0, 0), (8, 8)}) == Board(rows)
    assert b.rows() == rows and b.count() == 2 and b.cells() == {(0, 0), (8, 8)}
    with pytest.raises(ValueError):
        Board.from_rows(rows[:8])


def test_simultaneous_clear_of_row_and_box():
    # Row 0 full except (0,2); box 0 full except (0,2): placing a monomino there clears both.
    rows = ["##.######", "###......", "###......"] + [EMPTY_ROW] * 6
    b = Board.from_rows(rows)
    step = b.place("#", 0, 2)
    assert step.cleared == 2
    assert step.board.is_empty()
    assert (0, 2) in step.cleared_cells and len(step.cleared_cells) == 9 + 9 - 3


def test_place_refuses_overlap_and_edges():
    b = Board.from_rows(["#........"] + [EMPTY_ROW] * 8)
    assert not b.can_place("##", 0, 0)
    assert b.can_place("##", 0, 1)
    assert not b.can_place("###", 0, 7)
    with pytest.raises(ValueError):
        b.place("##", 0, 0)
    assert len(Board().placements("###")) == 9 * 7


def test_app_scoring_like_the_engine():
    assert [points("app", 0, k, False) for k in range(1, 9)] == [18, 36, 108, 144, 270, 324, 504, 576]
    assert points("app", 3, 0, True) == 3
    assert points("app", 3, 1, True) == 3 + 18 + 9
    assert points("simple", 4, 2, True) == 4 + 36
    assert points("squared", 4, 3, False) == 9


def test_apply_plan_scores_and_streak():
    rows = ["######...", "######..."] + [EMPTY_ROW] * 7
    hand = ["###", "###", "#"]
    plan = apply_plan(Board.from_rows(rows), hand, ["1@g9", "2@g8", "3@a1"], score=5)
    # 1@g9 clears row 0 (3 + 18), 2@g8 clears row 1 with the streak (3 + 18 + 9), then 1 cell.
    assert plan.score == 5 + 21 + 30 + 1
    assert not plan.streak
    assert plan.board == Board.from_rows([EMPTY_ROW] * 8 + ["#........"])
    with pytest.raises(ValueError):
        apply_plan(Board(), hand, ["1@a9", "1@a8"])  # slot used twice
    with pytest.raises(ValueError):
        apply_plan(Board(), hand, ["4@a9"])


def test_can_place_hand_needs_clears_between_placements():
    # "###" fits nowhere until the monomino completes (and clears) the top row.
    rows = ["########."] + ["#.#.#.#.#", ".#.#.#.#."] * 4
    b = Board.from_rows(rows)
    assert not b.full_regions()
    assert not b.fits_anywhere("###")
    assert not can_place_hand(b, ["###"])
    assert can_place_hand(b, ["###", "#"])  # any order: the monomino goes first
    plan = apply_plan(b, ["###", "#"], ["2@i9", "1@a9"])
    assert plan.steps[0].cleared == 1 and plan.board.rows()[0] == "###......"
    blocked = Board.from_rows(["#.#.#.#.#"] * 2 + [".#.#.#.#."] * 7)
    assert not can_place_hand(blocked, ["##"])
    assert can_place_hand(blocked, ["#", "#", "#"])


def test_piece_sets_and_packaged_copies():
    sizes = {"standard47": 47, "blocksudoku59": 59, "woodoku49": 49}
    for name in PIECE_SETS:
        pieces = piece_set(name)
        assert len(pieces) == sizes[name]
        assert len(set(pieces)) == len(pieces)
        source = REPO / "data" / "blockudoku" / f"{name}.txt"
        if source.exists():
            from importlib import resources

            shipped = resources.files("tessera_engine_client").joinpath("data").joinpath(f"{name}.txt")
            assert shipped.read_text("utf-8") == source.read_text("utf-8"), f"refresh the copy of {name}"
    assert piece_set("standard47")[0] == Piece.parse("#")


def test_deal_is_reproducible():
    a = deal(random.Random(3), "woodoku49")
    b = deal(random.Random(3), "woodoku49")
    assert a == b and len(a) == 3


def test_regions():
    assert len(REGIONS) == 27
    assert all(bin(m).count("1") == 9 for m in REGIONS)
