"""tessera_engine_client.blokus_match (tools/blokus_match.py): ranks and intervals on crafted scores, seats, and real short matches of
`tessera gtp` processes (tiny --nodes) in the square variants and GembloQ Two-Player, refereed and checked against the SGF
records and the engines' final_score; engines that break the rules or die forfeit."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tessera_engine_client import blokus, blokus_match as bm, blokus_sgf

TOOLS = Path(__file__).resolve().parents[2]

NPLAYERS = {"classic": 4, "classic_2": 2, "classic_3": 3, "duo": 2, "junior": 2, "gembloq_2": 2}

# A GTP engine that follows the protocol but plays badly on purpose (argv[1] says how).
FAKE = r'''
import sys, time
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "quit":
        print("= \n", flush=True)
        break
    if cmd == "genmove":
        if mode == "die":
            sys.exit(3)
        if mode == "sleep":
            time.sleep(30)
        answer = {"illegal": "= a1", "error": "? cannot think", "pass": "= pass",
                  "garbage": "= hello", "refuse": "= e10"}.get(mode, "= a1")
        print(answer + "\n", flush=True)
    elif cmd == "play" and mode == "refuse":
        print("? illegal move\n", flush=True)
    elif cmd == "name":
        print("= fake\n", flush=True)
    elif cmd == "cputime":
        print("= 0\n", flush=True)
    else:
        print("= \n", flush=True)
'''


# ------------------------------------------------------------------ crafted scores
def test_ties_share_the_average_rank():
    assert bm.average_ranks([10, 20, 20, 5]) == [3, 1.5, 1.5, 4]
    assert bm.average_ranks([7, 7, 7]) == [2, 2, 2]
    assert bm.average_ranks([3, 9]) == [2, 1]
    assert bm.average_ranks([60, 50, 60, 60]) == [2, 4, 2, 2]
    for points in ([10, 20, 20, 5], [7, 7, 7], [1, 2, 2, 2], [5, 5, 1, 1]):
        n = len(points)
        assert sum(bm.average_ranks(points)) == n * (n + 1) / 2


def test_wins_split_a_shared_first_place():
    assert bm.win_shares(bm.average_ranks([10, 20, 20, 5])) == [0, 0.5, 0.5, 0]
    assert bm.win_shares(bm.average_ranks([7, 7, 7])) == pytest.approx([1 / 3] * 3)
    assert bm.win_shares(bm.average_ranks([90, 20, 20, 5])) == [1, 0, 0, 0]
    assert bm.win_shares([3.0, 1.0, 2.0]) == [0, 1, 0]


def test_a_forfeit_ranks_last_and_the_others_among_themselves():
    assert bm.game_ranks([50, 60, 40], forfeit=1) == [1, 3, 2]
    assert bm.game_ranks([50, 60, 50, 10], forfeit=3) == [2.5, 1, 2.5, 4]
    assert bm.game_ranks([90, 10], forfeit=0) == [2, 1]


def test_mean_rank_interval():
    mean, lo, hi = bm.mean_interval([1, 2, 3, 4])
    assert mean == 2.5
    half = 3.182 * (5 / 3) ** 0.5 / 2  # t(3) * sd / sqrt(n)
    assert lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert bm.mean_interval([2]) == (2, None, None)
    mean, lo, hi = bm.mean_interval([1, 2] * 50)
    assert (hi - lo) / 2 == pytest.approx(1.984 * (0.25 * 100 / 99) ** 0.5 / 10, rel=1e-3)


def test_rotation_seats_every_engine_everywhere():
    for n in (2, 3, 4):
        seatings = [bm.seat_engines(n, g, True) for g in range(1, n + 1)]
        assert seatings[0] == list(range(n))
        for e in range(n):
            assert sorted(s.index(e) for s in seatings) == list(range(n))
        assert all(bm.seat_engines(n, g, False) == list(range(n)) for g in range(1, 5))


def test_three_player_fourth_colour_goes_round_the_players():
    info = bm.variant_of("classic_3")
    game = blokus.Game("three")
    movers = []
    while len([m for m in game.moves if m.colour == 3]) < 4:
        pos = game.position
        c = pos.effective_to_play()
        if c == 3:
            movers.append(bm.mover(info, pos, c))
        else:
            assert bm.mover(info, pos, c) == c
        game.play(next(pos.legal_moves(c)), c)
    assert movers == [0, 1, 2, 0]


# ------------------------------------------------------------------ real matches
def check_results(results, variant, tmp_path):
    """Every game legal and complete, and pieces/points/ranks consistent with the SGF replay,
    the JSON lines and the engines' final_score."""
    info = bm.variant_of(variant)
    records = blokus_sgf.load_all(tmp_path / "m.blksgf")
    lines = [json.loads(x) for x in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert len(records) == len(lines) == len(results)
    by_number = {j["game"]: (r, j) for r, j in zip(records, lines)}
    for res in results:
        record, j = by_number[res.number]
        assert res.forfeit is None and j["forfeit"] is None
        assert res.score_problems == [] and j["score_check"] == "ok"
        assert record.properties["GM"] == info.game_name
        assert record.properties["GN"] == str(res.number)
        game = record.replay()  # every move legal by the rules
        pos = game.position
        assert pos.game_over() and len(game) == j["moves"] == len(res.game)
        points = [pos.points(c) for c in range(info.ncolours)]
        for c, col in enumerate(j["colours"]):
            assert col["points"] == points[c] and col["pieces"] == pos.placed(c)
        # final_score of every engine, read independently.
        for text in j["final_scores"].values():
            if info.nplayers > 2:
                assert [float(x) for x in text.split()] == points
            else:
                pp = pos.player_points()
                d = pp[0] - pp[1]
                d_text = bm.score_text(abs(d))
                assert text == ("B+" + d_text if d > 0 else "W+" + d_text if d < 0 else "0")
        assert len(j["final_scores"]) == info.nplayers
        player_points = [p["points"] for p in j["players"]]
        assert player_points == pos.player_points()
        assert [p["rank"] for p in j["players"]] == bm.average_ranks(player_points)
        assert sum(p["win"] for p in j["players"]) == pytest.approx(1)
        for p in j["players"]:
            assert sum(p["colour_points"]) == p["points"]
            assert p["cpu_s"] is not None and p["cpu_s"] >= 0
            assert len(p["colours"]) == (2 if variant == "classic_2" else 1)
            assert p["engine"] == bm.seat_engines(info.nplayers, res.number, True)[p["player"] - 1] + 1
        assert sum(k for p in j["players"] for k in p["pieces"]) + \
            sum(c["pieces"] for c in j["colours"] if c["player"] is None) == len(game)
        if variant == "classic_3":
            shared = j["colours"][3]
            assert shared["player"] is None and shared["pieces"] >= 1
            assert shared["movers"] == [k % 3 + 1 for k in range(shared["pieces"])]
        # The moves as the engines played them, in the referee's order.
        assert [m.squares for m in game.moves] == [m.squares for m in res.game.moves]


@pytest.mark.parametrize("variant", list(NPLAYERS))
def test_full_games_in_every_variant(variant, engine_cmd, tmp_path):
    n = NPLAYERS[variant]
    games = 2 if n == 2 and not variant.startswith("gembloq") else 1
    commands = [f"{engine_cmd} gtp --nodes {5 + 5 * e} --seed {e}" for e in range(n)]
    results, names = bm.run_match(commands, bm.variant_of(variant), games, seed=7, out=None,
                                  timeout=60, sgf=tmp_path / "m.blksgf",
                                  jsonl=tmp_path / "m.jsonl")
    assert names == [f"{e + 1}:tessera" for e in range(n)]
    assert [r.number for r in results] == list(range(1, games + 1))
    check_results(results, variant, tmp_path)
    text = bm.summary(results, names, commands, bm.variant_of(variant))
    assert f"{games} games" in text and "final_score mismatches 0" in text


def test_command_line_with_parallel_games(engine_cmd, tmp_path):
    cmd = f"{engine_cmd} gtp --nodes 5"
    out = subprocess.run(
        [sys.executable, str(TOOLS / "blokus_match.py"), "--variant", "duo", "--games", "4",
         "--threads", "2", "--engine", cmd, "--engine", cmd, "--sgf", str(tmp_path / "m.blksgf"),
         "--jsonl", str(tmp_path / "m.jsonl")],
        capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("every engine agrees") == 4
    lines = [json.loads(x) for x in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert sorted(j["game"] for j in lines) == [1, 2, 3, 4]
    summary = out.stdout[out.stdout.index("summary:"):].splitlines()
    for label in ("1:tessera", "2:tessera"):
        row = next(x for x in summary if x.strip().startswith(label + " "))
        assert int(row.split()[1]) == 4  # games
        seats = next(x for x in summary if x.strip().startswith(label + ": mean rank by seat"))
        assert "player 1:" in seats and "(2)" in seats
    assert len(blokus_sgf.load_all(tmp_path / "m.blksgf")) == 4


def test_wrong_number_of_engines_is_refused(engine_cmd):
    out = subprocess.run(
        [sys.executable, str(TOOLS / "blokus_match.py"), "--variant", "classic_3",
         "--engine", engine_cmd + " gtp", "--engine", engine_cmd + " gtp"],
        capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "3 players" in out.stderr


@pytest.mark.parametrize("mode,why", [
    ("illegal", "illegal move 'a1'"), ("garbage", "illegal move 'hello'"),
    ("error", "cannot think"), ("pass", "'pass' with legal moves left"),
    ("die", "died"), ("sleep", "no answer within"), ("refuse", "refused play"),
])
def test_a_faulty_engine_forfeits(mode, why, engine_cmd, tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE)
    commands = [f"{sys.executable} {fake} {mode}", f"{engine_cmd} gtp --nodes 5"]
    results, names = bm.run_match(commands, bm.variant_of("duo"), 2, out=None,
                                  timeout=1.0 if mode == "sleep" else 30,
                                  jsonl=tmp_path / "m.jsonl")
    assert names == ["1:fake", "2:tessera"]
    for r in results:
        assert r.forfeit is not None and r.forfeit.engine == 0, r.forfeit
        assert why in r.forfeit.reason
        assert r.ranks()[r.forfeit.player] == 2
    # Game 1: the fake moves first (in mode refuse: e10, legal, then it refuses tessera's
    # reply); game 2: it plays second.
    assert [r.seats for r in results] == [[0, 1], [1, 0]]
    assert [len(r.game) for r in results] == ([2, 1] if mode == "refuse" else [0, 1])
    stats = bm.collect(results, names, commands)
    assert stats[0].forfeits == 2 and stats[0].ranks == [2, 2] and stats[1].wins == 2
    lines = [json.loads(x) for x in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert all(j["forfeit"]["engine"] == 1 and j["score_check"] == "skipped" for j in lines)
