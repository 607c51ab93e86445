"""Blokus in every variant as a PettingZoo AEC environment on the engine's rules.

Agents are the players (``player_0``...; Two-Player: 2 players of two colours each; Three:
the fourth colour is played in turn). Actions are the engine's placement ids; colours that
cannot move are skipped. An agent's observation (from the view of the colour it moves, else
its own first colour) is a dict: ``observation`` (size, size, 2 * colours) uint8 with each
colour's squares and live corner squares in playing order from that colour, ``pieces_left``
(colours, pieces), and ``action_mask`` (1 = legal; all 0 when it is not the agent's turn).
Rewards come at the end: +1 for the sole winner, -1 for the sole loser, ranks in between
spread evenly, ties sharing.
"""

from typing import Optional

import numpy as np
from gymnasium import spaces

from .._native import Blokus
from .turns import TurnBasedEnv

VARIANTS = ("classic", "two", "three", "duo", "junior")


def blokus_env(variant: str = "classic", render_mode: Optional[str] = None) -> "BlokusEnv":
    """A Blokus AEC environment (PettingZoo's ``env()`` convention)."""
    return BlokusEnv(variant=variant, render_mode=render_mode)


class BlokusEnv(TurnBasedEnv):
    """Blokus: classic, two, three, duo, junior, trigon, trigon_2, trigon_3, callisto,
    callisto_2, callisto_2_4 or callisto_3."""

    metadata = {"render_modes": ["ansi"], "name": "tessera_blokus_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "classic", render_mode: Optional[str] = None):
        template = Blokus(variant)
        super().__init__(template.players, render_mode)
        self.variant = variant
        self.state = template
        height, width, colours = template.height, template.width, template.colours
        # Copies of a piece: at most two (Junior), three single squares in Callisto.
        copies = max(2, int(template.observe()[1].max()))
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (height, width, 2 * colours), np.uint8),
            "pieces_left": spaces.Box(0, copies, (colours, template.piece_count), np.uint8),
            "action_mask": spaces.Box(0, 1, (template.action_count,), np.int8),
        })
        self._action_space = spaces.Discrete(template.action_count)

    def new_game(self, seed: Optional[int]):
        return Blokus(self.variant)

    def mover_index(self) -> Optional[int]:
        return self.state.player_to_move()

    def final_rewards(self) -> list:
        return [2.0 * result - 1.0 for result in self.state.results()]

    def observe(self, agent):
        if agent == self.agent_selection and not self.game_over:
            planes, pieces_left, mask = self.state.observe()
        else:
            planes, pieces_left, mask = self.state.observe(self.agent_index[agent], False)
        return {"observation": planes, "pieces_left": pieces_left, "action_mask": mask}
