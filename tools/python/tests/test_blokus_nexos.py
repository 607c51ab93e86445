"""Nexos in tessera_engine_client.blokus and blokus_sgf: the segment grid, the 24 pieces, the
junctions a piece covers, the starting segments, scores with the +10 bonus; checked against facts
of Pentobi (its placement count, its count of first moves) and against the engine: GTP
`all_legal` at every position of a random game's first 24 moves, `final_score`, and `tessera gtp
loadsgf` of a record written here. tools/blokus_rules_check.py checks the rules against Pentobi itself."""

import pytest

from conftest import check_a_random_game_and_its_record
from tessera_engine_client import blokus


def mv(text, variant="nexos"):
    return blokus.parse_move(text, blokus.variant_info(variant))


def test_the_set_and_the_board_as_pentobi_has_them():
    geo = blokus.variant_info("nexos").geometry
    assert len(blokus.NEXOS_SET) == 24
    assert sum(len(c) for c in blokus.NEXOS_PIECES.values()) == 84
    assert len(geo.points()) == 25 * 25 - 13 * 13 - 12 * 12  # segments only
    assert len(geo.placements()) == 15_157  # Pentobi's count
    pos = blokus.Position("nexos")
    for colour in range(4):
        assert sum(1 for _ in pos.legal_moves(colour)) == 515


def test_junctions_straight_runs_cover_and_others_cross_nothing():
    geo = blokus.variant_info("nexos").geometry
    # An upright I2 covers the junction between its segments; a corner (V2) covers none.
    assert geo.covered(mv("e22,e20")) == mv("e22,e20") | {(4, 20)}
    assert geo.covered(mv("d21,e20")) == mv("d21,e20")
    pos = blokus.Position("nexos")
    pos.play(0, mv("e22,e20"))
    assert "starting segments" in pos.check(1, mv("e18"))
    # Blue's next piece joins at a segment's end; a bar across blue's straight junction is
    # refused even for blue.
    assert "junction" in pos.check(0, mv("b21,d21,f21"))
    assert pos.check(0, mv("f21")) is None
    assert pos.check(0, mv("e18,f17")) is None
    assert pos.check(0, mv("g20")) is not None  # touches nothing of blue


def test_points_count_segments_and_ten_for_every_piece():
    pos = blokus.Position("nexos")
    pos.play(0, mv("e22,e20,e18,e16"))
    assert pos.points(0) == 4
    pos.left[0] = {p: 0 for p in pos.left[0]}
    assert pos.points(0) == 4 + 10


@pytest.mark.parametrize("variant,game_name", [("nexos", "Nexos"),
                                               ("nexos_2", "Nexos Two-Player")])
def test_a_random_game_agrees_with_the_engine_and_its_record_loads(tmp_path, engine_cmd, variant,
                                                                    game_name):
    check_a_random_game_and_its_record(engine_cmd, tmp_path, variant, game_name, 24)
