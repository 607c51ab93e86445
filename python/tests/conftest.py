"""Fixtures: the engine binary driven over its protocol, for the tests that compare rules, and
a game of an AEC env between the engine and random play."""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]


class EngineProcess:
    """The tessera binary in protocol mode: commands in, the answers up to ``readyok`` out."""

    def __init__(self, path: str):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)

    def ask(self, *commands: str) -> list:
        for command in commands + ("isready",):
            self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline().strip()) != "readyok":
            assert line, "the engine closed its output"
            lines.append(line)
        errors = [line for line in lines if line.startswith("error")]
        assert not errors, (commands, errors)
        return lines

    def legal(self, *setup: str) -> list:
        """The words of the ``legal`` answer after the setup commands."""
        (line,) = [line for line in self.ask(*setup, "legal") if line.startswith("legal")]
        return line.split()[1:]

    def bestmove(self, *setup: str, limits: str = "depth 1") -> str:
        """The ``bestmove`` answer to ``go`` after the setup commands."""
        self.ask(*setup)
        self.process.stdin.write(f"go {limits}\n")
        self.process.stdin.flush()
        while not (line := self.process.stdout.readline().strip()).startswith("bestmove"):
            assert line, "the engine closed its output"
        return line

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def engine():
    path = os.environ.get("TESSERA_ENGINE", str(REPO / "target" / "release" / "tessera"))
    if not Path(path).exists():
        pytest.skip(f"no engine binary at {path} (build it or set TESSERA_ENGINE)")
    process = EngineProcess(path)
    yield process
    process.close()


def engine_against_random(env, engine_agent: str, **limits):
    """Plays one game of an AEC env: `engine_agent` moves by `env.engine_action(**limits)`
    (each checked legal by the mask), the others uniformly at random from their masks."""
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        elif agent == engine_agent:
            action = env.engine_action(**limits)
            assert observation["action_mask"][action] == 1
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)


@pytest.fixture
def versus_engine():
    return engine_against_random
