"""GembloQ in tessera_engine_client.blokus and blokus_sgf: the board of right triangles, the 21
pieces, the first piece on all four triangles of the starting square, quarter points; checked
against facts of Pentobi (its placement counts, its count of first moves that its play accepts)
and against the engine: GTP `all_legal` at every position of a random game's first 16 moves,
`final_score`, and `tessera gtp loadsgf` of a record written here. tools/blokus_rules_check.py
checks the rules against Pentobi itself."""

import pytest

from conftest import check_a_random_game_and_its_record
from tessera_engine_client import blokus
from tessera_engine_client.blokus_match import expected_score


def mv(text, variant="gembloq_2"):
    return blokus.parse_move(text, blokus.variant_info(variant))


@pytest.mark.parametrize("variant,points,placements,first", [
    ("gembloq", 1564, 31_254, [36, 36, 36, 36]),
    ("gembloq_2", 772, 15_018, [82, 82]),
    ("gembloq_3", 1156, 23_518, [112, 82, 82]),
])
def test_the_boards_as_pentobi_has_them(variant, points, placements, first):
    geo = blokus.variant_info(variant).geometry
    assert len(geo.points()) == points
    assert len(geo.placements()) == placements  # Pentobi's counts
    pos = blokus.Position(variant)
    assert [sum(1 for _ in pos.legal_moves(c)) for c in range(len(first))] == first


def test_first_piece_edges_corners_and_quarter_points():
    pos = blokus.Position("gembloq_2")
    assert "all four" in pos.check(0, mv("p18,q18,p19,q19,r19,s19,p20,q20,r20,s20,o21,p21,q21,"
                                         "o22"))
    pos.play(0, mv("n21,o21,n22,o22"))
    assert pos.points(0) == 1
    assert "along an edge" in pos.check(0, mv("l20,m20,n20,o20,l21,m21"))
    assert pos.check(0, mv("n20,o20,n19,o19,l20,m20")) is None  # apex to apex: a corner
    pos.play(0, mv("n20,o20,n19,o19,l20,m20"))
    assert pos.points(0) == 2.5
    assert expected_score(pos.variant, pos) == "B+2.5"


@pytest.mark.parametrize("variant,game_name", [("gembloq_2", "GembloQ Two-Player"),
                                               ("gembloq_3", "GembloQ Three-Player")])
def test_a_random_game_agrees_with_the_engine_and_its_record_loads(tmp_path, engine_cmd, variant,
                                                                    game_name):
    check_a_random_game_and_its_record(engine_cmd, tmp_path, variant, game_name, 16)
