"""Placements per CPU second of tessera's environments and their peers, in one run.

Every environment is driven by the same loop: random legal play from the environment's own
action mask, games started again as they end, for a fixed CPU time (time.process_time). The
masks are int8 0/1 arrays (Gymnasium's convention); the loop reads them through a bool view,
for which NumPy's nonzero is about ten times faster than on int8 (30,433 actions: 5 against 70
us), so that the draw does not drown the environments' own costs. The second column is the time
spent inside the environments' own calls (reset, step, last), from a second, timed run. The
peers are optional imports: `blokus-rl` (PyPI; Blokus Classic, PettingZoo AEC) and
`gym-woodoku` (GitHub helpingstar/gym-woodoku; Blockudoku, Gymnasium); one that is not
installed is skipped. Each Blokus row is followed by the rate of the same loop on an env that
does no work and has as many actions (the bound any env with that action space can reach).

    python3 python/benchmarks/bench.py [--seconds 5] [--batch 1024]
"""

import argparse
import importlib.util
import random
import time

import gymnasium as gym
import numpy as np
from pettingzoo import AECEnv

import tessera_engine
from tessera_engine.envs import BlockudokuVectorEnv, blokus_env


def measured(rate, *args):
    """A rate function run twice: for the placements per CPU second without any timer in the
    loop, then for the microseconds per placement inside the env's calls."""
    return rate(*args, clock=float)[0], rate(*args, clock=time.perf_counter)[1]


def gym_rate(env, mask_of, seconds, clock):
    """Placements per CPU second of a Gymnasium env (`mask_of(observation, info)`), and the
    microseconds per placement spent inside the env's calls as `clock` sees them."""
    rng = random.Random(0)
    observation, info = env.reset(seed=0)
    placements, inside, start = 0, 0.0, time.process_time()
    while time.process_time() - start < seconds:
        legal = np.flatnonzero(mask_of(observation, info).view(np.bool_))
        action = legal[rng.randrange(legal.size)]
        entered = clock()
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            observation, info = env.reset()
        inside += clock() - entered
        placements += 1
    return placements / (time.process_time() - start), inside / placements * 1e6


def aec_rate(env, seconds, clock):
    """Placements per CPU second of a PettingZoo AEC env whose observations hold
    `action_mask`, and the microseconds per placement spent inside the env's calls as `clock`
    sees them."""
    rng = random.Random(0)
    placements, inside, start = 0, 0.0, time.process_time()
    while time.process_time() - start < seconds:
        entered = clock()
        env.reset(seed=0)
        inside += clock() - entered
        for agent in env.agent_iter():
            entered = clock()
            observation, _, terminated, truncated, _ = env.last()
            inside += clock() - entered
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
                action = int(legal[rng.randrange(legal.size)])
                placements += 1
            entered = clock()
            env.step(action)
            inside += clock() - entered
    return placements / (time.process_time() - start), inside / placements * 1e6


class LoopAlone(AECEnv):
    """An AEC env that does no work: a fixed observation whose mask has `actions` entries of
    which `legal` are legal, four agents taking turns, games of `length` placements. The loop's
    rate on it bounds what any env with that many actions can reach in this loop."""

    metadata = {"render_modes": [], "name": "loop_alone"}

    def __init__(self, actions, legal=176, length=84):
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(4)]
        mask = np.zeros(actions, np.int8)
        mask[np.random.default_rng(0).choice(actions, legal, replace=False)] = 1
        self.observation = {"action_mask": mask}
        self.length = length

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = dict(self.rewards)
        self.terminations = {a: False for a in self.agents}
        self.truncations = dict(self.terminations)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.placed = 0

    def observe(self, agent):
        return self.observation

    def step(self, action):
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.placed += 1
        if self.placed == self.length:
            for agent in self.agents:
                self.terminations[agent] = True
        self.agent_selection = self.possible_agents[self.placed % 4]


def masked_choice(rng):
    """Uniform legal actions for a batch of masks, in NumPy: the largest random key among the
    legal actions of each row."""
    def sample(observation):
        mask = observation["action_mask"]
        keys = rng.random(mask.shape, dtype=np.float32) * mask
        return keys.argmax(axis=1)
    return sample


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args()
    rows = []

    env = gym.make("tessera/Blockudoku-v0")
    rows.append(("tessera Blockudoku-v0 (Gymnasium)",
                 measured(gym_rate, env, lambda obs, info: obs["action_mask"], args.seconds)))
    if importlib.util.find_spec("gym_woodoku"):
        import gym_woodoku  # noqa: F401  (registers the env)
        env = gym.make("gym_woodoku/Woodoku-v0")
        rows.append(("gym-woodoku Woodoku-v0 (Gymnasium)",
                     measured(gym_rate, env, lambda obs, info: info["action_mask"], args.seconds)))

    env = BlockudokuVectorEnv(args.batch)
    rows.append((f"tessera BlockudokuVectorEnv x{args.batch}, sample_actions()",
                 batch_rate(env, args.seconds, lambda obs: env.sample_actions())))
    rows.append((f"tessera BlockudokuVectorEnv x{args.batch}, NumPy draw from the masks",
                 batch_rate(env, args.seconds, masked_choice(np.random.default_rng(0)))))

    blokus = blokus_env("classic")
    rows.append(("tessera Blokus classic (PettingZoo AEC)",
                 measured(aec_rate, blokus, args.seconds)))
    actions = blokus.action_space("player_0").n
    rows.append((f"the loop alone, {actions:,} actions (bound)",
                 (aec_rate(LoopAlone(actions), args.seconds, float)[0], None)))
    if importlib.util.find_spec("blokus_rl"):
        from blokus_rl import BlokusEnv
        env = BlokusEnv()
        rows.append(("blokus-rl BlokusEnv (PettingZoo AEC)",
                     measured(aec_rate, env, args.seconds)))
        actions = env.action_space(env.possible_agents[0]).n
        rows.append((f"the loop alone, {actions:,} actions (bound)",
                     (aec_rate(LoopAlone(actions), args.seconds, float)[0], None)))

    width = max(len(name) for name, _ in rows)
    print(f"{'environment':<{width}}  placements/CPU s  us/placement in env calls")
    for name, result in rows:
        rate, inside = result if isinstance(result, tuple) else (result, None)
        inside = "" if inside is None else f"{inside:>10.1f}"
        print(f"{name:<{width}}  {rate:>16,.0f}  {inside}")


def batch_rate(env, seconds, sample):
    """Placements per CPU second of the batched games, the draw of the actions included:
    every legal action a game plays."""
    observation, _ = env.reset(seed=0)
    placements, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        actions = sample(observation)
        legal = observation["action_mask"][np.arange(env.num_envs), actions]
        observation, *_ = env.step(actions)
        placements += int(legal.sum())
    return placements / (time.process_time() - start)


if __name__ == "__main__":
    main()
