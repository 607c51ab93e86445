"""Callisto in tessera_engine_client.blokus and blokus_sgf: the octagons and their centre sections, the
12 shapes and their copies, the single squares' rules, scores with the tie going to the later
player, records with Pentobi's game names; checked against facts of Pentobi (its placement
counts, its board picture) and against the engine: its legal moves (tei `legal`, GTP
`all_legal`) at every position of random games, its board and `final_score`, and `tessera gtp
loadsgf` of the records written here. With Pentobi's GTP engine at hand ($PENTOBI_GTP, or the
peers' build) tools/blokus_rules_check.py checks the rules against it and the engine too."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Gtp, board_rows, random_game
from tessera_engine_client import blokus, blokus_sgf
from tessera_engine_client.blokus_sgf import SgfError

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parents[1]
FAKE = HERE / "fake_blokus_gtp.py"
PENTOBI = os.environ.get("PENTOBI_GTP", "/work/peers/pentobi/build/pentobi_gtp/pentobi-gtp")
VARIANTS = ["callisto", "callisto_2", "callisto_2_4", "callisto_3"]
GAME_NAMES = {"callisto": "Callisto", "callisto_2": "Callisto Two-Player",
              "callisto_2_4": "Callisto Two-Player Four-Color",
              "callisto_3": "Callisto Three-Player"}
# The first position: a single square on any square outside the centre section (24 squares).
FIRST_MOVES = {"callisto": 288 - 24, "callisto_2": 144 - 24, "callisto_2_4": 288 - 24,
               "callisto_3": 220 - 24}


def mv(text, variant="callisto"):
    return blokus.parse_move(text, blokus.variant_info(variant))


def play(pos, *texts):
    """Plays moves for the colours in turn."""
    for text in texts:
        pos.play(pos.to_play, mv(text, pos.variant.name))


# ------------------------------------------------------------------ the boards
@pytest.mark.parametrize("variant, size, edge, points", [
    ("callisto", 20, 6, 288), ("callisto_2", 16, 2, 144), ("callisto_2_4", 20, 6, 288),
    ("callisto_3", 20, 2, 220)])
def test_octagons(variant, size, edge, points):
    info = blokus.variant_info(variant)
    geo = info.geometry
    assert isinstance(geo, blokus.CallistoGeometry) and geo.kind == "square"
    assert (geo.width, geo.height, geo.edge, len(geo.points())) == (size, size, edge, points)
    # The four straight sides are `edge` long, the corners cut at 45 degrees.
    for y in (0, size - 1):
        row = [x for x in range(size) if geo.on_board((x, y))]
        assert row == list(range((size - edge) // 2, (size + edge) // 2))
    for x in (0, size - 1):
        column = [y for y in range(size) if geo.on_board((x, y))]
        assert column == list(range((size - edge) // 2, (size + edge) // 2))
    assert not geo.on_board((0, 0)) and geo.on_board((size // 2, size // 2))
    for p in geo.points():
        assert 2 <= len(geo.adj(p)) <= 4
    with pytest.raises(ValueError, match=f"'a1' is off the Callisto {size}x{size} board"):
        blokus.parse_move("a1", info)
    # Nothing is forbidden beside a piece, no starts, no bonus; ties go to the later player.
    assert (info.contact, info.loose, info.loose_first) == ("edge", ("1",), 2)
    assert info.starts == () and not info.bonus and info.later_player_wins_ties


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_centre_section_as_pentobi_draws_it(variant):
    geo = blokus.variant_info(variant).geometry
    centre = geo.centre_section
    assert len(centre) == 24 and centre <= geo.point_set
    lo = geo.size // 2 - 3
    # Rows of 2, 4, 6, 6, 4, 2 squares around the middle.
    widths = [sorted(x for x, y in centre if y == lo + k) for k in range(6)]
    assert widths == [[lo + 2, lo + 3], list(range(lo + 1, lo + 5)), list(range(lo, lo + 6)),
                      list(range(lo, lo + 6)), list(range(lo + 1, lo + 5)), [lo + 2, lo + 3]]
    assert all(geo.in_centre_section(p) for p in centre)
    assert not blokus.variant_info("classic").geometry.in_centre_section((10, 10))


def test_the_empty_board_is_pentobis_picture():
    # Pentobi's showboard for Callisto Two-Player: `,` marks the centre section.
    rows = blokus.Position("callisto_2").rows()
    assert rows[0] == "       ..       "
    assert rows[5] == "  .....,,.....  "
    assert rows[7] == ".....,,,,,,....."
    assert rows[15] == rows[0] and len(rows) == 16


# ------------------------------------------------------------------ pieces
def test_pieces_copies_and_placements():
    info = blokus.variant_info("callisto")
    geo = info.geometry
    assert list(geo.pieces) == "1 2 I V L O T4 Z T5 U W X".split()
    assert [info.copies_of(p) for p in info.pieces] == [3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1]
    assert info.total_pieces == 21 and info.max_copies == 3
    assert sum(info.copies_of(p) * len(c) for p, c in geo.pieces.items()) == 71
    assert [len(geo.orientations(p)) for p in geo.pieces] == [1, 2, 2, 4, 8, 1, 4, 4, 4, 4, 4, 1]
    assert geo.piece_of(mv("h8,h9,i9,i10,j10")) == "W" and geo.piece_of(mv("h8,i8,j8")) == "I"
    assert geo.piece_of(mv("h8,i8,j8,k8,l8")) is None  # no I5 in Callisto
    # Pentobi's move counts (its Move.h: onboard_moves_callisto, _callisto_2, _callisto_3).
    counts = {v: len(blokus.variant_info(v).geometry.placements()) for v in VARIANTS}
    assert counts == {"callisto": 9433, "callisto_2": 4265, "callisto_2_4": 9433,
                      "callisto_3": 6885}
    pos = blokus.Position("callisto")
    assert len(pos.pieces_left(0)) == 21 and pos.placed(0) == 0


# ------------------------------------------------------------------ rules
@pytest.mark.parametrize("variant", VARIANTS)
def test_first_moves_are_single_squares_outside_the_centre(variant):
    pos = blokus.Position(variant)
    moves = list(pos.legal_moves(0))
    assert len(moves) == FIRST_MOVES[variant]
    assert all(len(m) == 1 and not pos.geometry.in_centre_section(next(iter(m))) for m in moves)
    assert pos.corners(0) == set()


def test_the_single_squares_rules():
    pos = blokus.Position("callisto_2")
    with pytest.raises(blokus.IllegalMove, match="may not go in the centre section"):
        pos.play(0, mv("h8", "callisto_2"))
    with pytest.raises(blokus.IllegalMove, match="Blue must place 2 single squares"):
        pos.play(0, mv("a8,b8", "callisto_2"))
    play(pos, "a8", "p9")
    # One single square is not enough: the next piece of Blue is again a single square.
    with pytest.raises(blokus.IllegalMove, match="Blue must place 2 single squares"):
        pos.play(0, mv("b8,c8", "callisto_2"))
    assert pos.corners(0) == set() and all(len(m) == 1 for m in pos.legal_moves(0))
    # Next to a square of its own or the other colour's: no rule against either.
    play(pos, "b8", "p8")
    assert pos.contact_open(0) and pos.loose_placed(0) == 2
    assert pos.corners(0) == {blokus.parse_square(s, pos.variant)
                              for s in ("a9", "b7", "b9", "c8")}
    # Now the larger pieces join Blue along an edge, wherever the single squares are.
    with pytest.raises(blokus.IllegalMove, match="does not touch Blue along an edge"):
        pos.play(0, mv("c9,d9", "callisto_2"))  # at a corner of b8 only
    with pytest.raises(blokus.IllegalMove, match="does not touch Blue along an edge"):
        pos.play(0, mv("e8,f8", "callisto_2"))
    play(pos, "c8,d8,e8")
    assert pos.points(0) == 3 and pos.left[0]["1"] == 1
    # The third single square goes anywhere outside the centre section, at any time.
    play(pos, "o8,o9", "h1")
    assert pos.points(0) == 3 and pos.left[0]["1"] == 0
    # Along an edge of its own colour is where a piece goes (never so in Blokus); at a corner
    # only is not enough.
    pos.to_play = 0
    assert pos.is_legal(0, mv("b9,c9", "callisto_2"))
    assert not pos.is_legal(0, mv("f9,f10", "callisto_2"))
    assert pos.forbidden(0) == set(pos.cells)


def test_scores_and_ties_go_to_the_later_player():
    pos = blokus.Position("callisto_2")
    play(pos, "a8", "p9", "b8", "p8", "c8,d8", "o8,o9")
    assert [pos.points(c) for c in range(2)] == [2, 2]  # single squares score nothing
    assert pos.player_points() == [2, 2] and pos.ranks() == [2, 1]
    # As if Blue had placed every piece, the third single square last: no bonus in Callisto
    # (its four squares on the board count 4 - 3 single squares).
    pos.left[0] = {p: 0 for p in pos.left[0]}
    pos.last_piece[0] = "1"
    assert pos.points(0) == 1
    four = blokus.Position("callisto")
    assert four.ranks() == [4, 3, 2, 1]
    two4 = blokus.Position("callisto_2_4")
    assert two4.ranks() == [2, 1] and blokus.VARIANTS["callisto_2_4"].player_names() == \
        ["Blue+Red", "Yellow+Green"]
    assert blokus.VARIANTS["callisto_2"].colour_names == ("Blue", "Green")


# ------------------------------------------------------------------ against the engine
@pytest.mark.parametrize("variant", VARIANTS)
def test_first_position_counts_are_the_engines(engine, engine_cmd, variant):
    engine.new_game("blokus", variant=variant)
    engine.position_startpos([])
    theirs = {blokus.parse_move(m, blokus.variant_info(variant)) for m in engine.legal()}
    ours = set(blokus.Position(variant).legal_moves(0))
    assert len(theirs) == len(ours) == FIRST_MOVES[variant] and theirs == ours
    gtp = Gtp(engine_cmd, "--variant", variant)
    try:
        listed = gtp.ok(f"all_legal {'b' if variant == 'callisto_2' else '1'}").split()
        assert {mv(m, variant) for m in listed} == ours and len(listed) == len(ours)
    finally:
        gtp.close()


def engine_rows(engine, width):
    return board_rows(engine.show(), width)


@pytest.mark.parametrize("variant, seed", [("callisto", 1), ("callisto_2", 3),
                                           ("callisto_2_4", 2), ("callisto_3", 4)])
def test_random_games_agree_with_the_engine(engine, variant, seed):
    game = random_game(variant, seed=seed)
    assert game.position.game_over() and len(game) > 30
    info = game.variant
    engine.new_game("blokus", variant=variant)
    compared = 0
    for k in range(len(game) + 1):
        engine.position_startpos(game.engine_moves(k))
        theirs = {blokus.parse_move(m, info) for m in engine.legal()}
        pos = game.position_at(k)
        c = pos.effective_to_play()
        ours = set(pos.legal_moves(c)) if c is not None else set()
        assert theirs == ours, (variant, k, len(theirs), len(ours))
        compared += len(ours)
        if k % 10 == 0 or k == len(game):
            assert engine_rows(engine, info.size) == pos.rows(), (variant, k)
    assert compared > 1000
    # The engine's points per colour (`show`), and a single square's contact rule in effect:
    # every colour placed its two single squares first.
    show = engine.show()
    pos = game.position
    for c in range(info.ncolours):
        line = next(line for line in show if line.startswith(f"{c + 1} ")
                    and " points " in line)
        assert f" points {pos.points(c)} " in line
        firsts = [m.piece for m in game.moves if m.colour == c][:2]
        assert firsts == ["1", "1"]


# ------------------------------------------------------------------ records
@pytest.mark.parametrize("variant", VARIANTS)
def test_records_round_trip_and_load_in_tessera_gtp(tmp_path, engine_cmd, variant):
    game = random_game(variant, seed=20 + len(variant))
    assert game.position.game_over()
    path = tmp_path / "g.blksgf"
    blokus_sgf.save(path, game, players=["a", "b"] if game.variant.nplayers == 2 else None)
    text = path.read_text()
    assert f"GM[{GAME_NAMES[variant]}]" in text
    first = text.splitlines()[2]
    assert first.startswith(";B[" if variant == "callisto_2" else ";1[")
    back = blokus_sgf.load(path)
    assert back.variant == variant and blokus.variant_info(GAME_NAMES[variant]).name == variant
    replayed = back.replay()
    assert [(m.colour, m.squares) for m in replayed.moves] == \
        [(m.colour, m.squares) for m in game.moves]
    assert replayed.position.rows() == game.position.rows()
    assert blokus_sgf.dumps(back, date="") == blokus_sgf.dumps(game, date="")
    # tessera gtp reads it to the same board and score.
    gtp = Gtp(engine_cmd)
    try:
        gtp.ok(f"loadsgf {path}")
        width = game.variant.size
        assert gtp.board_rows(width) == game.position.rows()
        pos = game.position
        if game.variant.nplayers > 2:
            expected = " ".join(str(pos.points(c)) for c in range(game.variant.ncolours))
        else:
            pts = pos.player_points()
            d = pts[0] - pts[1]
            expected = f"B+{d}" if d > 0 else f"W+{-d}" if d < 0 else "0"
        assert gtp.ok("final_score") == expected
        gtp.ok(f"loadsgf {path} 5")
        assert gtp.board_rows(width) == game.position_at(4).rows()
    finally:
        gtp.close()


def test_a_tied_two_player_game():
    # Seeded random moves that end 53 to 53: Green, the later player, wins the tie.
    game = random_game("callisto_2", seed=3)
    pos = game.position
    assert pos.game_over() and pos.player_points() == [53, 53] and pos.ranks() == [2, 1]
    back = blokus_sgf.read(blokus_sgf.dumps(game)).replay()
    assert back.position.ranks() == [2, 1]


@pytest.mark.parametrize("text, message", [
    ("(;GM[Callisto Two-Player];B[h8])", "move 1 .*may not go in the centre section"),
    ("(;GM[Callisto];1[a10,b10])", "move 1 .*Blue must place 2 single squares"),
    ("(;GM[Callisto Two-Player];B[a8];W[p9];B[b8];W[p8];B[d8,e8])",
     "move 5 .*does not touch Blue along an edge"),
    ("(;GM[Callisto Three-Player];4[j1])", "move property 4 in a three-colour game"),
    ("(;GM[Callisto];1[a1])", "'a1' is off the Callisto 20x20 board"),
    ("(;GM[Callisto];1[h8,i8,j8,k8,l8])", "not the shape of a piece"),
])
def test_illegal_records_are_errors(text, message):
    with pytest.raises(SgfError, match=message):
        blokus_sgf.read(text).replay()


# ------------------------------------------------------------------ the rules check tool
def rules_check(*args):
    return subprocess.run([sys.executable, str(TOOLS / "blokus_rules_check.py"), *args],
                          capture_output=True, text=True, timeout=600)


def test_rules_check_allows_pentobis_early_contact_moves_only():
    fake = f"{sys.executable} {FAKE}"
    out = rules_check("--variant", "callisto_2", "--games", "1", "--seed", "2",
                      "--engine", fake, "--engine", f"{fake} --bug early")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "extra moves allowed" in out.stdout and "mismatches 0" in out.stdout
    out = rules_check("--variant", "callisto_2", "--games", "1", "--seed", "2",
                      "--engine", fake, "--engine", f"{fake} --bug extra --after 5")
    assert out.returncode == 1 and "mismatches 1" in out.stdout, out.stdout + out.stderr


@pytest.mark.skipif(not os.access(PENTOBI, os.X_OK), reason="no Pentobi GTP engine")
@pytest.mark.parametrize("variant", VARIANTS)
def test_rules_check_against_pentobi(engine_cmd, variant):
    out = rules_check("--variant", variant, "--games", "1", "--seed", "11", "--engine-moves", "1",
                      "--engine", f"{PENTOBI} -g {variant} -l 1 --nobook --noresign -q",
                      "--engine", f"{engine_cmd} gtp")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "mismatches 0" in out.stdout and "2 final scores" in out.stdout
