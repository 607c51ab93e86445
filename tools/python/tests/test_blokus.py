"""Blokus rules and Blokus SGF records (tessera_engine_client.blokus, tessera_engine_client.blokus_sgf),
checked against records written by the reference program's match runner (twogtp, games of our
own in tests/data/blokus), against the engine's move generation and against `tessera gtp`
loadsgf."""

from pathlib import Path

import pytest

from tessera_engine_client import EngineError
from conftest import random_game
from tessera_engine_client import blokus, blokus_sgf
from tessera_engine_client.blokus_sgf import SgfError

DATA = Path(__file__).resolve().parents[3] / "tests" / "data" / "blokus"
RECORDS = {
    "duo": DATA / "duo-twogtp.blksgf",
    "classic": DATA / "classic-twogtp.blksgf",
    "junior": DATA / "junior-twogtp.blksgf",
}


# ------------------------------------------------------------------ reading twogtp records
def test_twogtp_records_read_and_score_as_the_reference_program():
    duo = blokus_sgf.load(RECORDS["duo"])
    assert duo.variant == "duo" and len(duo.moves) == 32
    assert duo.properties["GM"] == "Blokus Duo" and duo.properties["GN"] == "1"
    assert duo.moves[0] == (0, "e8,d9,e9,f9,e10")
    assert [c for c, _ in duo.moves[-4:]] == [0, 0, 0, 0]  # white could not move any more
    # The reference engine's final_score after loadsgf: B+16, "81 66 66 83", B+11.
    pos = duo.replay().position
    assert pos.game_over()
    pts = pos.player_points()
    assert pts[0] - pts[1] == 16
    classic = blokus_sgf.load(RECORDS["classic"]).replay()
    assert len(classic) == 68
    assert [classic.position.points(c) for c in range(4)] == [81, 66, 66, 83]
    assert classic.position.ranks() == [2, 3, 3, 1]
    junior = blokus_sgf.load(RECORDS["junior"]).replay()
    pts = junior.position.player_points()
    assert pts[0] - pts[1] == 11


def test_a_collection_of_games_and_the_move_numbers():
    texts = [RECORDS[v].read_text() for v in ("duo", "classic", "junior")]
    records = blokus_sgf.read_all("".join(texts))
    assert [r.variant for r in records] == ["duo", "classic", "junior"]
    assert blokus_sgf.read("".join(texts), 1).variant == "classic"
    with pytest.raises(SgfError, match="game 3 out of range"):
        blokus_sgf.read("".join(texts), 3)
    record = records[0]
    game = record.replay(upto=5)
    assert len(game) == 5 and game.position.to_play == 1


def test_variations_escapes_and_old_forms():
    text = ("(;FF[4]GM[Blokus Duo]C[a \\] bracket]PB[Ann]\n;B[E11,e10]"
            "(;W[j5];B[f12,f13,f14])(;W[i4,j4,j5]))")
    r = blokus_sgf.read(text)
    assert r.properties["C"] == "a ] bracket" and r.properties["PB"] == "Ann"
    assert r.moves == [(0, "E11,e10"), (1, "j5"), (0, "f12,f13,f14")]
    assert len(r.replay()) == 3
    # Pentobi before 0.3 wrote a move as one value per square; colour names before 0.2.
    old = blokus_sgf.read("(;GM[Blokus];BLUE[a20][a19];YELLOW[t20])")
    assert old.moves == [(0, "a20,a19"), (1, "t20")]
    assert len(old.replay()) == 2


@pytest.mark.parametrize("text, message", [
    ("", "not an SGF file"),
    ("(;GM[Blokus Duo];B[e10]", "unexpected end"),
    ("(;GM[Blokus Duo];B[e10", "not closed"),
    ("(;GM[Blokus Duo];B)", "has no value"),
    ("(;GM[Blokus Duo];[e10])", "expected a property"),
    ("(;B[e10])", "no GM"),
    ("(;GM[Go];B[aa])", "unsupported game 'Go'"),
    ("(;GM[Blokus Duo](;B[e10]);W[j5])", "a node after a variation"),
    ("(;GM[Blokus Duo]AB[e10,e11];W[j5])", r"setup properties \(AB\)"),
    ("(;GM[Blokus];B[a20])", "four-colour game"),
    ("(;GM[Blokus Duo];B[e10]W[j5])", "two moves"),
])
def test_malformed_records_are_errors(text, message):
    with pytest.raises(SgfError, match=message):
        blokus_sgf.read(text).replay()


@pytest.mark.parametrize("text, message", [
    ("(;GM[Blokus Duo];B[e10];W[j6])", "move 2 .Orange 'j6'.: Orange's first piece must cover"),
    ("(;GM[Blokus Duo];B[e10];W[j5];B[e10])", "move 3 .*Purple has no piece 1 left"),
    ("(;GM[Blokus Duo];B[e10,z99])", "move 1 .*'z99' is off the 14x14 board"),
    ("(;GM[Blokus Duo];B[e10,e12])", "not the shape of a piece"),
    ("(;GM[Blokus Duo];B[e10];W[j5];B[e11,e12])", "touches Purple along an edge"),
    ("(;GM[Blokus Duo];B[e10];W[j5];B[g12,g13])", "does not touch Purple at a corner"),
    ("(;GM[Blokus Junior];B[e10];W[j5];B[f11];W[i4];B[f11,f12])", "covers an occupied square"),
])
def test_illegal_moves_in_records_are_errors(text, message):
    record = blokus_sgf.read(text)
    with pytest.raises(SgfError, match=message):
        record.replay()


# ------------------------------------------------------------------ writing
def test_written_records_have_the_reference_layout_and_read_back():
    game = blokus_sgf.load(RECORDS["classic"]).replay()
    text = blokus_sgf.dumps(game, application="tessera:0.1.0", date="2026-01-02",
                            players=["a", "b", "c", "d"])
    lines = text.splitlines()
    assert lines[0] == "("
    assert lines[1] == ("FF[4]CA[UTF-8]AP[tessera:0.1.0]GM[Blokus]DT[2026-01-02]"
                        "P1[a]P2[b]P3[c]P4[d]").join([";", ""])
    assert lines[2] == ";1[c19,a20,b20,c20,d20]"  # the order a1, b1, ..., a2, ...
    assert lines[3] == ";2[r18,s18,s19,s20,t20]"
    assert lines[-1] == ")" and len(lines) == 68 + 3
    back = blokus_sgf.read(text)
    assert back.variant == "classic"
    assert [(c, blokus.parse_move(t)) for c, t in back.moves] == \
        [(m.colour, m.squares) for m in game.moves]
    duo = blokus_sgf.dumps(blokus_sgf.load(RECORDS["duo"]), date="", players=["x", "y"])
    assert duo.splitlines()[1] == ";FF[4]CA[UTF-8]AP[tessera]GM[Blokus Duo]PB[x]PW[y]"
    assert duo.splitlines()[2] == ";B[e8,d9,e9,f9,e10]"
    assert blokus_sgf.dumps(blokus.Game("junior"), date="", extra={"C": "a]b\\c"}) == \
        "(\n;FF[4]CA[UTF-8]AP[tessera]GM[Blokus Junior]C[a\\]b\\\\c]\n)\n"


@pytest.mark.parametrize("variant", ["classic", "two", "three", "duo", "junior"])
def test_random_games_round_trip_through_sgf(tmp_path, variant):
    game = random_game(variant, seed=len(variant), max_moves=40)
    path = tmp_path / "g.blksgf"
    blokus_sgf.save(path, game)
    back = blokus_sgf.load(path).replay()
    assert back.variant.name == variant
    assert [(m.colour, m.squares) for m in back.moves] == [(m.colour, m.squares) for m in game.moves]
    assert back.position.rows() == game.position.rows()


# ------------------------------------------------------------------ against the engine
def test_rules_agree_with_the_engine_along_the_records(engine):
    for variant, path in RECORDS.items():
        game = blokus_sgf.load(path).replay()
        engine.new_game("blokus", variant=variant)
        for k in range(0, len(game) + 1, 2):
            engine.position_startpos(game.engine_moves(k))
            theirs = {blokus.parse_move(m, game.variant.size) for m in engine.legal()}
            pos = game.position_at(k)
            c = pos.effective_to_play()
            ours = set(pos.legal_moves(c)) if c is not None else set()
            assert theirs == ours, (variant, k)
            rows = [line.split()[1:] for line in engine.show()[2:2 + game.variant.size]]
            assert ["".join(r) for r in rows] == pos.rows(), (variant, k)


def test_position_startpos_refuses_an_illegal_move(engine):
    engine.new_game("blokus", variant="duo")
    engine.position_startpos(["e10", "j6"])
    with pytest.raises(EngineError, match="move 2"):
        engine.ping()
    with pytest.raises(ValueError):
        engine.position_startpos(["e10 j5"])


@pytest.mark.parametrize("variant", ["classic", "two", "three", "duo", "junior"])
def test_tessera_gtp_loads_what_the_writer_writes(tmp_path, gtp, variant):
    game = random_game(variant, seed=7 + len(variant), max_moves=None if variant == "duo" else 30)
    path = tmp_path / f"{variant}.blksgf"
    blokus_sgf.save(path, game)
    gtp.ok(f"loadsgf {path}")
    assert gtp.board_rows() == game.position.rows()
    if game.position.game_over():
        pts = game.position.player_points()
        d = pts[0] - pts[1]
        assert gtp.ok("final_score") == (f"B+{d}" if d > 0 else f"W+{-d}" if d < 0 else "0")
    for k in (1, 4, len(game)):
        gtp.ok(f"loadsgf {path} {k}")
        assert gtp.board_rows() == game.position_at(k - 1).rows()


def test_tessera_gtp_and_the_reader_agree_on_the_twogtp_records(gtp):
    for path in RECORDS.values():
        game = blokus_sgf.load(path).replay()
        for k in (1, 10, len(game) + 1):
            gtp.ok(f"loadsgf {path} {k}")
            assert gtp.board_rows() == game.position_at(k - 1).rows()


# ------------------------------------------------------------------ rules details
def test_rules_corners_scores_and_ranks():
    pos = blokus.Position("duo")
    assert pos.corners(0) == {(4, 9)} and pos.corners(1) == {(9, 4)}
    pos.play(0, blokus.parse_move("e10"))
    assert pos.corners(0) == {(3, 8), (5, 8), (3, 10), (5, 10)}
    assert pos.points(0) == 1 and pos.to_play == 1
    with pytest.raises(blokus.IllegalMove, match="first piece must cover"):
        pos.play(1, blokus.parse_move("e11"))
    assert blokus.piece_of(blokus.parse_move("e9,d10,e10,f10,e11")) == "X"
    assert blokus.piece_of(blokus.parse_move("a1,c1")) is None
    assert len(blokus.orientations("F")) == 8 and len(blokus.orientations("X")) == 1
    assert sum(len(blokus.orientations(p)) for p in blokus.PIECES) == 91
    # All pieces placed: +15, +5 more when the monomino came last.
    two = blokus.Position("two")
    two.left[0] = {p: 0 for p in two.left[0]}
    two.last_piece[0] = "1"
    assert two.points(0) == 20
    assert two.player_points() == [20, 0] and two.ranks() == [1, 2]
    three = blokus.VARIANTS["three"]
    assert [three.player_of(c) for c in range(4)] == [0, 1, 2, None]
    assert blokus.variant_info("Blokus Three-Player") is three
