"""tessera-farm blockudoku on the tests' local Ray of two CPUs: the sharded run prints the totals of
one ``tessera selfplay blockudoku`` run with the same seed, also when a worker is killed in the
middle of a shard or the run is interrupted and started again; a missing binary and a player
that dies mid-game are reported. (A run from a folder outside the checkout, with the installed
packages and start boards, is CI's check before these tests: .ci/run's farm_checks.)"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from farm_helpers import REPO, comparable, farm, farm_command, farm_environment, tessera

from tessera_engine_farm.farm import play_on_worker

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?|inf")


def same_chance_line(farm_line: str, selfplay_line: str) -> bool:
    """The death-chance lines agree to the last printed digit but for rounding: the farm sums
    the per-game chances that ``tessera chances`` writes with 7 digits, selfplay the exact
    ones."""
    ours, theirs = NUMBER.findall(farm_line), NUMBER.findall(selfplay_line)
    return NUMBER.sub("#", farm_line) == NUMBER.sub("#", selfplay_line) and all(
        a == b or abs(float(a) - float(b)) <= 2e-3 * abs(float(b)) for a, b in zip(ours, theirs))


def selfplay_lines(engine: str, *args: str) -> list:
    return comparable(tessera(engine, "selfplay", "blockudoku", *args).stdout)


def assert_same_totals(farm_stdout: str, selfplay: list) -> None:
    ours = comparable(farm_stdout)
    assert len(ours) == len(selfplay), (ours, selfplay)
    for a, b in zip(ours, selfplay):
        if a.startswith("death_chance_per_round"):
            assert same_chance_line(a, b), (a, b)
        else:
            assert a == b


def descendants(root: int) -> set:
    """The processes below ``root`` (from /proc)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def shard_worker(root: int):
    """A Ray worker below ``root`` (the tests' Ray was started by this process) that is playing
    a shard (Ray titles it ``ray::`` and the task's function)."""
    title_of_a_shard = f"ray::{play_on_worker.__name__}".encode()
    for pid in descendants(root):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if title == title_of_a_shard:
            return pid
    return None


def start_farm(*args: str) -> subprocess.Popen:
    # The run must take an interrupt as a user's Ctrl-C even when these tests run in the
    # background, where the shell has the interrupt ignored and a child inherits that.
    return subprocess.Popen(farm_command(*args), cwd=REPO, env=farm_environment(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_a_killed_worker_changes_nothing(engine, tmp_path):
    """The sharded run's totals, death chances included, are selfplay's though a worker was
    killed mid-shard; the run folder keeps every game once, and the survival curve."""
    game = ["--depth", "1", "--games", "8", "--cap", "1500", "--seed", "4", "--death-chance", "24"]
    run = start_farm("blockudoku", "--engine", engine, *game, "--workers", "2",
                     "--shard-games", "2", "--run-dir", str(tmp_path / "run"))
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and run.poll() is None and time.monotonic() < deadline:
        killed = shard_worker(os.getpid())
        time.sleep(0.2)
    assert killed is not None, "no worker was seen playing a shard"
    os.kill(killed, signal.SIGKILL)
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    assert_same_totals(stdout, selfplay_lines(engine, *game))
    shards = [json.loads(p.read_text()) for p in (tmp_path / "run" / "shards").glob("*.json")]
    assert sorted(g["game"] for s in shards for g in s["games"]) == list(range(8))
    assert (tmp_path / "run" / "survival.png").stat().st_size > 10_000


def test_an_interrupted_run_resumes_without_replaying_finished_shards(engine, tmp_path):
    game = ["--depth", "1", "--games", "8", "--cap", "600", "--seed", "5"]
    command = ["blockudoku", "--engine", engine, *game, "--workers", "1", "--shard-games", "1",
               "--run-dir", str(tmp_path / "run")]
    shards = tmp_path / "run" / "shards"
    run = start_farm(*command)
    deadline = time.monotonic() + 120
    while len(list(shards.glob("*.json"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=120)
    assert run.returncode == 130, stderr
    assert "interrupted" in stderr
    finished = {p.name: p.stat().st_mtime_ns for p in shards.glob("*.json")}
    assert 2 <= len(finished) < 8
    again = farm(*command)
    assert again.returncode == 0, again.stderr
    assert {p: (shards / p).stat().st_mtime_ns for p in finished} == finished
    assert len(list(shards.glob("*.json"))) == 8
    assert_same_totals(again.stdout, selfplay_lines(engine, *game))


def test_a_missing_binary_is_reported(tmp_path):
    run = farm("blockudoku", "--engine", str(tmp_path / "no-such-tessera"), "--depth", "1",
               "--run-dir", str(tmp_path / "run"))
    assert run.returncode == 2
    assert "no-such-tessera does not exist" in run.stderr


DYING = '''#!{python}
"""Relays the protocol to a real engine and dies (exit code 3) at its {deadly}th go."""
import subprocess, sys
child = subprocess.Popen([{engine!r}], stdin=subprocess.PIPE, text=True, bufsize=1)
goes = 0
for line in sys.stdin:
    if line.startswith("go"):
        goes += 1
        if goes == {deadly}:
            child.kill()
            sys.exit(3)
    child.stdin.write(line)
    child.stdin.flush()
'''


def test_a_player_that_dies_mid_game_is_reported(engine, tmp_path):
    dying = tmp_path / "dying-engine"
    dying.write_text(DYING.format(python=sys.executable, engine=engine, deadly=30))
    dying.chmod(0o755)
    run = farm("blockudoku", "--engine", str(dying), "--depth", "1", "--games", "2",
               "--cap", "50", "--workers", "2", "--shard-games", "1",
               "--run-dir", str(tmp_path / "run"))
    assert run.returncode == 1, run.stderr
    assert "a shard failed" in run.stderr
    assert re.search(r"player '.*dying-engine' failed in game [01] at round 29: "
                     r"the player ended \(exit code 3\)", run.stderr), run.stderr
