"""Competitive Sudoku as a PettingZoo AEC environment on the engine's rules and solver.

Two agents, ``player_0`` moving first. Actions are ``cell * N + value - 1`` (cells row-major
from the top-left); every action the mask allows is legal, and one that would leave the grid
without a solution becomes taboo and passes the turn (the engine's solver decides). An agent's
observation is a dict: ``observation`` (N, N, 2N + 2) uint8 from its view (values one-hot, taboo
values one-hot, the cells it may fill, the cells the opponent may fill) and ``action_mask``
(1 = legal; all 0 when it is not the agent's turn). Rewards come at the end: +1 win, -1 loss,
0 draw (``reward="score"``: the final score difference instead).
"""

from typing import Optional

import numpy as np
from gymnasium import spaces

from .._native import CompSudoku
from .turns import TurnBasedEnv

MODES = ("classic", "rows", "border", "random")


def compsudoku_env(box: str = "3x3", mode: str = "classic", reward: str = "win",
                   render_mode: Optional[str] = None) -> "CompSudokuEnv":
    """A Competitive Sudoku AEC environment (PettingZoo's ``env()`` convention)."""
    return CompSudokuEnv(box=box, mode=mode, reward=reward, render_mode=render_mode)


class CompSudokuEnv(TurnBasedEnv):
    """Competitive Sudoku on an empty grid of any box shape, in any mode. In the random mode
    the starting cells are drawn from the seed given to ``reset``."""

    metadata = {"render_modes": ["ansi"], "name": "tessera_compsudoku_v0",
                "is_parallelizable": False}

    def __init__(self, box: str = "3x3", mode: str = "classic", reward: str = "win",
                 render_mode: Optional[str] = None):
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', got {reward!r}")
        super().__init__(2, render_mode)
        template = CompSudoku(box, mode)
        self.box, self.mode, self.reward_mode = box, mode, reward
        self.state = template
        n = template.size
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (n, n, 2 * n + 2), np.uint8),
            "action_mask": spaces.Box(0, 1, (template.action_count,), np.int8),
        })
        self._action_space = spaces.Discrete(template.action_count)

    def new_game(self, seed: Optional[int]):
        return CompSudoku(self.box, self.mode, seed=1 if seed is None else seed)

    def mover_index(self) -> Optional[int]:
        return self.state.player_to_move()

    def final_rewards(self) -> list:
        first, second = self.state.scores
        if self.reward_mode == "score":
            return [first - second, second - first]
        sign = (first > second) - (first < second)
        return [sign, -sign]

    def observe(self, agent):
        index = self.agent_index[agent]
        moving = agent == self.agent_selection and not self.game_over
        if moving:
            mask = self.last_legal_mask()
        else:
            mask = np.zeros(self.state.action_count, np.int8)
        return {"observation": self.state.observation(index), "action_mask": mask}
