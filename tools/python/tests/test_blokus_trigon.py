"""Blokus Trigon in tessera_engine_client.blokus and blokus_sgf, checked against facts of the reference
program Pentobi: its placement counts, its first moves, its piece names, records written by its
twogtp and its GTP engine's savesgf (tests/data), and the scores its final_score gave for them.
With Pentobi's GTP engine at hand ($PENTOBI_GTP, or the peers' build) the rules check runs
against it too."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import random_game
from tessera_engine_client import blokus, blokus_sgf
from tessera_engine_client.blokus_sgf import SgfError

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parents[1]
DATA = HERE / "data"
TWOGTP = DATA / "trigon-twogtp.blksgf"  # pentobi-gtp -l 1 against itself through twogtp
SAVESGF = DATA / "trigon_3-pentobi.blksgf"  # pentobi-gtp -l 1 genmove, then its savesgf
PENTOBI = os.environ.get("PENTOBI_GTP", "/work/peers/pentobi/build/pentobi_gtp/pentobi-gtp")
FAKE = HERE / "fake_blokus_gtp.py"


def mv(text, variant="trigon"):
    return blokus.parse_move(text, blokus.variant_info(variant))




# ------------------------------------------------------------------ the board
@pytest.mark.parametrize("variant, edge, width, height, points", [
    ("trigon", 9, 35, 18, 486), ("trigon_2", 9, 35, 18, 486), ("trigon_3", 8, 31, 16, 384)])
def test_boards(variant, edge, width, height, points):
    info = blokus.variant_info(variant)
    geo = info.geometry
    assert (info.edge, geo.width, geo.height, len(geo.points())) == (edge, width, height, points)
    assert points == 6 * edge * edge  # a hexagon of edge n holds 6 n^2 triangles
    top = [x for x in range(width) if geo.on_board((x, height - 1))]
    middle = [x for x in range(width) if geo.on_board((x, edge))]
    assert (top[0], top[-1]) == (edge - 1, width - edge) and middle == list(range(width))
    # The ends of the top and bottom rows and the upper middle row point up, of the lower
    # middle row down.
    assert geo.is_up((edge - 1, height - 1)) and geo.is_up((0, edge))
    assert not geo.is_up((edge - 1, 0)) and not geo.is_up((0, edge - 1))
    for p in geo.points():
        assert len(geo.adj(p)) <= 3 and len(geo.diag(p)) <= 9
        for q in geo.adj(p):
            assert p in geo.adj(q) and geo.is_up(p) != geo.is_up(q)
        for q in geo.diag(p):
            assert p in geo.diag(q) and q not in geo.adj(p)
    inner = [p for p in geo.points() if len(geo.diag(p)) == 9]
    assert len(inner) > points // 2 and all(len(geo.adj(p)) == 3 for p in inner)


def test_neighbours_of_a_point():
    geo = blokus.variant_info("trigon").geometry
    r15 = geo.parse("r15")
    assert r15 == (17, 14) and geo.is_up(r15)
    assert sorted(geo.name(p) for p in geo.adj(r15)) == ["q15", "r14", "s15"]
    assert sorted(geo.name(p) for p in geo.diag(r15)) == sorted(
        ["p15", "t15", "p14", "q14", "s14", "t14", "q16", "r16", "s16"])
    r16 = geo.parse("R16")
    assert not geo.is_up(r16) and sorted(geo.name(p) for p in geo.adj(r16)) == ["q16", "r17",
                                                                                 "s16"]


def test_names_beyond_z():
    assert [blokus.column_name(x) for x in (0, 25, 26, 27, 34, 52)] == \
        ["a", "z", "aa", "ab", "ai", "ba"]
    info = blokus.variant_info("trigon")
    assert blokus.square_name((26, 4)) == "aa5" and blokus.parse_square("AA5", info) == (26, 4)
    assert blokus.parse_move("ai10,ah10", info) == {(34, 9), (33, 9)}
    with pytest.raises(ValueError, match="'a1' is off the Trigon"):
        blokus.parse_move("a1", info)
    with pytest.raises(ValueError, match="'aj10' is off the Trigon"):
        blokus.parse_move("aj10", info)
    with pytest.raises(ValueError, match="1 to 6 triangles, got 7"):
        blokus.parse_move("j9,k9,l9,m9,n9,o9,p9", info)


# ------------------------------------------------------------------ pieces
def test_pieces_and_orientations():
    geo = blokus.variant_info("trigon").geometry
    geo3 = blokus.variant_info("trigon_3").geometry
    assert list(geo.pieces) == "I6 L6 V S P6 F W A6 G Y X O I5 L5 C5 P5 I4 C4 A4 I3 2 1".split()
    assert sum(len(c) for c in geo.pieces.values()) == 110
    counts = {p: len(geo.orientations(p)) for p in geo.pieces}
    assert counts["O"] == 1 and counts["1"] == 2 and counts["2"] == 3 and counts["A4"] == 2
    assert counts["I3"] == 6 and counts["L5"] == 12 and sum(counts.values()) == 155
    # Twelve transformations (six turns, mirrored or not) give each orientation.
    for piece, cells in geo.pieces.items():
        seen = set()
        c = geo.rotate(cells, 0)
        for _ in range(2):
            for _ in range(6):
                seen.add(c)
                # The piece lattice is the board's lattice of the even edge (trigon_3).
                assert geo3.piece_of(c) == piece
                c = geo.rotate(c)
            c = geo.flip(c)
        assert seen == set(geo.orientations(piece))
        assert geo.rotate(geo.rotate(cells, 1), -1) == geo.rotate(cells, 0)
    # No two pieces share a shape; a shape of no piece is refused.
    shapes = [o for p in geo.pieces for o in geo.orientations(p)]
    assert len(shapes) == len(set(shapes))
    assert blokus.piece_of(mv("r15,s15,s16,t16"), geo) == "I4"
    assert blokus.piece_of(mv("r15,t15"), geo) is None


def test_placement_counts_are_pentobis():
    # Pentobi creates 32,131 moves for Trigon and 24,859 for Trigon Three-Player (its
    # BoardConst, the null move aside) and lists 2,478 first moves in both (all_legal).
    assert len(blokus.variant_info("trigon").geometry.placements()) == 32131
    assert len(blokus.variant_info("trigon_3").geometry.placements()) == 24859
    for variant in ("trigon", "trigon_2", "trigon_3"):
        assert len(list(blokus.Position(variant).legal_moves(0))) == 2478


def test_piece_names_are_pentobis():
    # Pentobi's names for a placement of each piece (pentobi-gtp play, then its showboard's
    # pieces left): the 22 piece names mean the same shapes here.
    named = {
        "r15": "1", "r15,s15": "2", "r15,s15,s16": "I3", "r15,s15,r16,s16": "C4",
        "r15,s15,t15,s16": "A4", "r15,s15,s16,t16": "I4", "r15,s15,r16,s16,r17": "L5",
        "r15,s15,t15,r16,s16": "P5", "r15,s15,s16,t16,t17": "I5", "r14,s14,t14,r15,s15": "C5",
        "r15,s15,r16,s16,r17,s17": "S", "r15,s15,t15,r16,s16,r17": "P6",
        "r15,s15,r16,s16,t16,r17": "Y", "r15,s15,t15,r16,s16,t16": "X",
        "r15,s15,r16,s16,t16,t17": "W", "r15,s15,s16,t16,s17,t17": "L6",
        "r15,s15,t15,u15,s16,t16": "A6", "r15,s15,t15,s16,t16,u16": "F",
        "r15,s15,s16,t16,t17,u17": "I6", "r15,s15,u15,s16,t16,u16": "G",
        "r15,s15,s16,t16,u16,v16": "V", "r14,s14,t14,r15,s15,t15": "O"}
    pos = blokus.Position("trigon")
    assert {pos.geometry.piece_of(mv(t)) for t in named} == set(blokus.TRIGON_PIECES)
    for text, piece in named.items():
        assert pos.geometry.piece_of(mv(text)) == piece and pos.is_legal(0, mv(text))


# ------------------------------------------------------------------ rules
def test_first_piece_covers_a_starting_point():
    pos = blokus.Position("trigon")
    starts = "j7 j12 r4 r15 z7 z12".split()
    assert sorted(blokus.square_name(s) for s in pos.corners(0)) == sorted(starts)
    assert pos.corners(2) == pos.corners(0)  # shared by every colour
    with pytest.raises(blokus.IllegalMove,
                       match=r"Blue's first piece must cover a starting point \(j7 j12 r4 r15"):
        pos.play(0, mv("r14,s14,t14"))
    pos.play(0, mv("q15,r15,p16,q16,o17,p17"))
    # Yellow may start on any free starting point, not on a covered one.
    with pytest.raises(blokus.IllegalMove, match="covers an occupied triangle"):
        pos.play(1, mv("r15,s15"))
    with pytest.raises(blokus.IllegalMove, match="Yellow's first piece must cover a starting"):
        pos.play(1, mv("r14,s14,t14"))  # next to Blue, but on no starting point
    assert blokus.parse_square("r15", pos.variant) not in pos.corners(1)
    pos.play(1, mv("r4,r5,s5"))
    assert pos.points(0) == 6 and pos.points(1) == 3 and pos.to_play == 2
    trigon3 = blokus.Position("trigon_3")
    assert sorted(blokus.square_name(s) for s in trigon3.corners(0)) == \
        sorted("h6 h11 p3 p14 x6 x11".split())


def test_second_piece_needs_a_corner_not_a_starting_point():
    pos = blokus.Position("trigon")
    pos.play(0, mv("q15,r15,p16,q16,o17,p17"))
    for c in (1, 2, 3):
        pos.play(c, next(iter(sorted(pos.legal_moves(c), key=blokus.move_text))))
    starts = set(pos.variant.starts)
    assert not starts & pos.corners(0)  # starting points attach nobody after a first piece
    with pytest.raises(blokus.IllegalMove, match="does not touch Blue at a corner"):
        pos.play(0, mv("i7,j7,k7"))  # covers the free starting point j7
    assert not any(starts & m for m in pos.legal_moves(0) if not m & pos.corners(0))


def test_edge_contact_with_its_own_colour_is_refused():
    pos = blokus.Position("trigon")
    pos.play(0, mv("r15,s15,s16"))  # r15 and s16 point up, s15 down
    pos.to_play = 0
    # q15 shares an edge with r15, t15 with s15, t16 with s16, r14 (below r15) with it.
    for text in ("p15,q15", "t15,u15", "t16,u16", "r14,s14"):
        with pytest.raises(blokus.IllegalMove, match="touches Blue along an edge"):
            pos.play(0, mv(text))
    # p14 and q14 meet r15 at its lower left corner only; s17 meets s16 at its apex.
    assert pos.is_legal(0, mv("p14,q14")) and pos.is_legal(0, mv("s17,t17"))
    assert sorted(blokus.square_name(p) for p in pos.corners(0)) == sorted(
        "p14 p15 q14 q16 r17 s14 s17 t14 t17 u15 u16".split())
    # Another colour may touch Blue along an edge (its first piece on a starting point).
    pos.play(1, mv("r4"))
    pos.to_play = 1
    assert pos.is_legal(1, mv("r3,s3")) and not pos.is_legal(1, mv("q4,r5"))


def test_scores_with_the_bonuses():
    pos = blokus.Position("trigon")
    pos.play(0, mv("q15,r15,p16,q16,o17,p17"))
    assert pos.points(0) == 6
    pos.left[0] = {p: 0 for p in pos.left[0]}
    assert pos.points(0) == 6 + 15  # every piece placed
    pos.last_piece[0] = "1"
    assert pos.points(0) == 6 + 15 + 5  # ... the last one the single triangle
    two = blokus.Position("trigon_2")
    two.play(0, mv("r15"))
    two.play(1, mv("r4,s4"))
    two.play(2, mv("j7,k7,k8"))
    assert two.player_points() == [4, 2] and two.ranks() == [1, 2]
    assert blokus.VARIANTS["trigon_2"].player_names() == ["Blue+Red", "Yellow+Green"]
    three = blokus.VARIANTS["trigon_3"]
    assert (three.ncolours, three.nplayers) == (3, 3)
    assert [three.player_of(c) for c in range(3)] == [0, 1, 2]


# ------------------------------------------------------------------ records
def test_a_twogtp_record_replays_to_pentobis_score():
    record = blokus_sgf.load(TWOGTP)
    assert record.variant == "trigon" and len(record.moves) == 81
    assert record.moves[0] == (0, "p12,p13,q13,q14,r14,r15")
    game = record.replay()
    pos = game.position
    assert pos.game_over()
    assert [pos.points(c) for c in range(4)] == [103, 106, 101, 103]  # Pentobi's final_score
    assert pos.ranks() == [2, 1, 4, 2]
    # Pentobi's showboard after loadsgf ... 11: points and pieces left of each colour.
    early = game.position_at(10)
    assert [len(early.pieces_left(c)) for c in range(4)] == [19, 19, 20, 20]
    assert [early.points(c) for c in range(4)] == [18, 18, 12, 12]
    assert "F" not in early.pieces_left(0) and "P6" not in early.pieces_left(1)


def test_a_savesgf_record_reads_and_writes_as_pentobi():
    text = SAVESGF.read_text()
    record = blokus_sgf.read(text)
    assert record.variant == "trigon_3" and record.properties == {"GM":
                                                                  "Blokus Trigon Three-Player"}
    game = record.replay()
    assert [game.position.points(c) for c in range(3)] == [106, 106, 96]  # Pentobi's
    assert game.position.game_over()
    ours = blokus_sgf.dumps(game, application="", date="")
    # The same nodes, each move spelt as Pentobi spells it (a1, b1, ..., a2, ...).
    assert ours.splitlines()[1] == ";FF[4]CA[UTF-8]GM[Blokus Trigon Three-Player]"
    assert ours.splitlines()[2:] == text.splitlines()[2:]
    with pytest.raises(SgfError, match="move property 4 in a three-colour game"):
        blokus_sgf.read("(;GM[Blokus Trigon Three-Player];4[r15])")
    with pytest.raises(SgfError, match="move property B in a three-colour game"):
        blokus_sgf.read("(;GM[Blokus Trigon Three-Player];B[r15])")
    with pytest.raises(SgfError, match=r"move 1 .*first piece must cover a starting point"):
        blokus_sgf.read("(;GM[Blokus Trigon];1[r14,s14,t14])").replay()


@pytest.mark.parametrize("variant", ["trigon", "trigon_2", "trigon_3"])
def test_trigon_games_round_trip_through_sgf(tmp_path, variant):
    game = random_game(variant, seed=len(variant))
    assert game.position.game_over() and len(game) > 40
    path = tmp_path / "g.blksgf"
    blokus_sgf.save(path, game, players=["a", "b"] if variant == "trigon_2" else None)
    text = path.read_text()
    assert f"GM[{game.variant.game_name}]" in text
    back = blokus_sgf.load(path)
    assert back.variant == variant
    replayed = back.replay()
    assert [(m.colour, m.squares) for m in replayed.moves] == \
        [(m.colour, m.squares) for m in game.moves]
    assert replayed.position.rows() == game.position.rows()
    assert blokus_sgf.dumps(back, date="") == blokus_sgf.dumps(game, date="")


# ------------------------------------------------------------------ the rules check tool
def rules_check(*args):
    return subprocess.run([sys.executable, str(TOOLS / "blokus_rules_check.py"), *args],
                          capture_output=True, text=True, timeout=600)


# Whole games with three and two players' scores; Callisto's three-player board stands in for
# Trigon's, whose whole game costs the pure-Python stand-ins four times as long (the Trigon
# cases below check the triangle boards' lists move by move).
@pytest.mark.parametrize("variant", ["callisto_3", "duo"])
def test_rules_check_agrees_with_a_faithful_engine(variant):
    out = rules_check("--variant", variant, "--games", "1", "--seed", "5", "--engine-moves", "2",
                      "--engine", f"{sys.executable} {FAKE}", "--engine",
                      f"{sys.executable} {FAKE}")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "mismatches 0" in out.stdout and "1 final scores" not in out.stdout
    assert "2 final scores" in out.stdout


# A wrong final score shows only at the end of a game: that case plays Duo, where a whole game
# of the pure-Python stand-ins costs a few seconds instead of Trigon's half a minute.
@pytest.mark.parametrize("bug, what, variant", [
    ("drop", r"lists \d+ moves, the rules \d+; only the rules \(1\)", "trigon"),
    ("extra", r"only 2:fake \(1\)", "trigon"),
    ("score", "final_score: 2:fake says", "duo"),
    ("refuse", "2:fake refuses play", "trigon"),
])
def test_rules_check_finds_a_wrong_engine(tmp_path, bug, what, variant):
    sgf = tmp_path / "first.blksgf"
    out = rules_check("--variant", variant, "--games", "2", "--seed", "1",
                      "--engine", f"{sys.executable} {FAKE}",
                      "--engine", f"{sys.executable} {FAKE} --bug {bug} --after 9",
                      "--sgf", str(sgf))
    assert out.returncode == 1, out.stdout + out.stderr
    assert "mismatches 1" in out.stdout
    first = out.stdout.split("first mismatch: ", 1)[1]
    assert first.startswith("game 1, after ") and __import__("re").search(what, first)
    record = blokus_sgf.load(sgf)
    assert record.variant == variant and len(record.moves) >= 9


@pytest.mark.skipif(not os.access(PENTOBI, os.X_OK), reason="no Pentobi GTP engine")
@pytest.mark.parametrize("variant", ["trigon", "trigon_2", "trigon_3"])
def test_rules_check_against_pentobi(variant):
    out = rules_check("--variant", variant, "--games", "1", "--seed", "11", "--engine-moves", "1",
                      "--engine", f"{PENTOBI} -g {variant} -l 1 --nobook --noresign -q")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "mismatches 0" in out.stdout
