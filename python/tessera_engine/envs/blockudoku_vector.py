"""Many Blockudoku games stepped in one call: a Gymnasium vector environment whose games all
live in Rust (``tessera_engine.BlockudokuBatch``), the same rules as ``BlockudokuEnv``.

Observations are the single env's dict with a leading batch axis; a finished game restarts at
the next ``step`` (Gymnasium's next-step autoreset: that step ignores its action and returns the
new game's first observation). An illegal action changes nothing, gives reward 0 and is flagged
in ``infos["illegal_action"]``. ``sample_actions()`` draws a legal action for every game from
its mask, in Rust.
"""

from typing import Optional

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._native import BlockudokuBatch
from .blockudoku import ACTIONS, REWARDS


class BlockudokuVectorEnv(VectorEnv):
    """``num_envs`` Blockudoku games of one piece set, scoring and reward."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, pieceset: str = "standard47", scoring: str = "app",
                 reward: str = "score"):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        self.num_envs = num_envs
        self.batch = BlockudokuBatch(num_envs, pieceset=pieceset, scoring=scoring,
                                     reward=reward, seed=0)
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.single_observation_space = spaces.Dict({
            "board": spaces.Box(0, 1, (9, 9), np.uint8),
            "hand": spaces.Box(0, 1, (3, 5, 5), np.uint8),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        })
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        board, hand, mask = self.batch.reset(seed=int(self.np_random.integers(2**63)))
        return {"board": board, "hand": hand, "action_mask": mask}, {}

    def step(self, actions):
        board, hand, mask, rewards, terminated, illegal = self.batch.step(
            np.asarray(actions, dtype=np.int64))
        observation = {"board": board, "hand": hand, "action_mask": mask}
        truncated = np.zeros(self.num_envs, dtype=bool)
        infos = {"illegal_action": illegal, "_illegal_action": illegal} if illegal.any() else {}
        return observation, rewards, terminated, truncated, infos

    def sample_actions(self) -> np.ndarray:
        """A legal action for every game, uniformly from its mask."""
        return self.batch.sample_actions()

    def scores(self) -> np.ndarray:
        """Every game's score so far."""
        return self.batch.scores()
