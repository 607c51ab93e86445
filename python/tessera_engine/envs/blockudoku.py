"""Blockudoku as a Gymnasium environment on the engine's rules.

Actions are gym-woodoku's layout, ``slot * 81 + row * 9 + column`` (0..242), where (row,
column) is the top-left cell of the piece's bounding box, row 0 at the top. Observations are a
dict of the board (9, 9), the hand (3, 5, 5; a placed slot is all zeros) and the
``action_mask`` (243,), all new arrays at every step. A hand of three is dealt from the piece
set whenever the last one is placed; the episode ends when the rest of the hand cannot be
placed whole (the engine's rule). Reward: the points of the placement under the scoring
system (``reward="score"``) or 1 per placement (``reward="survival"``).

An illegal action (one the mask rules out) changes nothing, gives ``illegal_reward`` and sets
``info["illegal_action"]`` (``illegal_action="ignore"``, the default, which Gymnasium's
checker needs), ends the episode the same way (``"terminate"``), or raises
``tessera_engine.IllegalMoveError`` (``"raise"``).
"""

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .._native import Blockudoku
from .render import blockudoku_rgb

ACTIONS = 243
REWARDS = ("score", "survival")
ILLEGAL_ACTIONS = ("ignore", "terminate", "raise")


class BlockudokuEnv(gym.Env):
    """Blockudoku: place pieces on a 9x9 board, clear rows, columns and boxes, survive."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, pieceset: str = "standard47", scoring: str = "app",
                 reward: str = "score", max_placements: Optional[int] = None,
                 illegal_action: str = "ignore", illegal_reward: float = 0.0,
                 render_mode: Optional[str] = None):
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = Blockudoku(pieceset=pieceset, scoring=scoring, seed=0)
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_placements = max_placements
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(ACTIONS)
        self.observation_space = spaces.Dict({
            "board": spaces.Box(0, 1, (9, 9), np.uint8),
            "hand": spaces.Box(0, 1, (3, 5, 5), np.uint8),
            "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
        })

    def _observation(self) -> dict:
        board, hand, mask = self.game.observe()
        return {"board": board, "hand": hand, "action_mask": mask}

    def _info(self) -> dict:
        return {"score": self.game.score, "placements": self.game.placements}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.game.reset(seed=int(self.np_random.integers(2**63)))
        return self._observation(), self._info()

    def step(self, action):
        game = self.game
        if self.illegal_action == "raise" and not game.is_legal(int(action)):
            game.play(int(action))  # raises IllegalMoveError with the reason
        board, hand, mask, points, terminated = game.step(int(action))
        observation = {"board": board, "hand": hand, "action_mask": mask}
        info = {"score": game.score, "placements": game.placements}
        if points is None:
            info["illegal_action"] = True
            terminated = self.illegal_action == "terminate"
            return observation, self.illegal_reward, terminated, False, info
        reward = float(points) if self.reward_mode == "score" else 1.0
        truncated = (self.max_placements is not None
                     and game.placements >= self.max_placements and not terminated)
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the method sb3-contrib's MaskablePPO asks for)."""
        return self.game.action_mask()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return self.game.render()
        if self.render_mode == "rgb_array":
            return blockudoku_rgb(self.game.board_array(), self.game.hand_array())
        return None
