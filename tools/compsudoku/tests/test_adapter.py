"""The tessera_player adapter inside the stand-in framework (fork per turn, kill at the deadline,
last proposal wins), for both framework interfaces. Needs TESSERA_ENGINE or tessera on PATH."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent.parent
STANDIN = HERE / "standin"


def run_game(api, first, second, box="2x2", mode="classic", seconds=0.25, extra_env=None, seed=1):
    env = dict(os.environ)
    env["STANDIN_API"] = api
    env["PYTHONPATH"] = os.pathsep.join([str(STANDIN), str(HERE)])
    env.update(extra_env or {})
    engine = env.get("TESSERA_ENGINE")
    if engine and os.path.exists(engine):
        # The games run in the stand-in's folder: a relative engine path must not break.
        env["TESSERA_ENGINE"] = os.path.abspath(engine)
    out = subprocess.run(
        [sys.executable, str(STANDIN / "simulate.py"), "--first", first, "--second", second,
         "--box", box, "--mode", mode, "--time", str(seconds), "--seed", str(seed)],
        env=env, capture_output=True, text=True, timeout=300, cwd=STANDIN,
    )
    words = out.stdout.split()
    assert words and words[0] == "result", out.stdout + out.stderr
    return int(words[1]), int(words[2])


@pytest.mark.parametrize("api", ["v12", "v14"])
def test_beats_greedy_with_either_colour(api):
    first, second = run_game(api, "tessera_player", "greedy", box="2x3", seconds=0.25)
    assert first > second
    first, second = run_game(api, "greedy", "tessera_player", box="2x3", seconds=0.25, seed=2)
    assert second > first


def test_territory_mode_v14():
    first, second = run_game("v14", "greedy", "tessera_player", box="2x3", mode="rows", seconds=0.25)
    assert second > first


def test_stale_output_of_a_killed_turn_is_skipped():
    # The engine is told to think far beyond the deadline: every turn is killed mid-search,
    # and the next one must stop that search and skip its output before sending its own state.
    # A result line means no turn ended without a legal proposal (that would be `lost ...`).
    # The score of one 2x2 game cut off at random points of the search varies from run to run
    # (it was lost 2-16 once in CI), so only legality and progress are asserted here; strength
    # is asserted by the tests above, where the engine knows its deadline.
    first, second = run_game("v14", "tessera_player", "greedy",
                             extra_env={"TESSERA_MOVETIME": "100000"})
    assert first > 0, "the engine scored: its proposals were played"


def test_cpu_meter_charges_each_player_its_turns_and_engine():
    env = dict(os.environ)
    env["STANDIN_API"] = "v14"
    env["PYTHONPATH"] = os.pathsep.join([str(STANDIN), str(HERE)])
    if env.get("TESSERA_ENGINE") and os.path.exists(env["TESSERA_ENGINE"]):
        env["TESSERA_ENGINE"] = os.path.abspath(env["TESSERA_ENGINE"])
    out = subprocess.run(
        [sys.executable, str(HERE / "metered_game.py"), str(STANDIN / "simulate.py"),
         "--first", "tessera_player", "--second", "greedy", "--box", "2x2", "--time", "0.2"],
        env=env, capture_output=True, text=True, timeout=300, cwd=STANDIN,
    )
    assert out.stdout.split()[0] == "result", out.stdout + out.stderr
    sys.path.insert(0, str(HERE))
    from framework_match import cpu_by_player

    (engine_cpu, engine_turns), (greedy_cpu, greedy_turns) = cpu_by_player(out.stdout)
    assert engine_turns >= 4 and greedy_turns >= 4
    # The engine searches each turn for up to 170 ms; the greedy stand-in answers at once.
    assert engine_cpu > greedy_cpu > 0
