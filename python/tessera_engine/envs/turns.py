"""What the PettingZoo AEC environments of tessera's turn-based games share: the agents and
their bookkeeping, the end-of-game rewards, and the engine as a fixed opponent.

A game subclass gives the state (``new_game``), whose turn it is (``agent_to_move``), each
agent's observation and the final rewards; the state's own ``play`` checks every action.
"""

from typing import Optional

import numpy as np
from pettingzoo import AECEnv

from .._native import IllegalMoveError


class TurnBasedEnv(AECEnv):
    """An AEC environment over a tessera game state; subclasses fill in the game."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int, render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.state = None
        self.game_over = False

    # Every agent has the same spaces, which a subclass sets in `_observation_space` and
    # `_action_space`.
    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    # What a game supplies.
    def new_game(self, seed: Optional[int]):
        """A fresh game state."""
        raise NotImplementedError

    def mover_index(self) -> Optional[int]:
        """The index of the player to move, ``None`` at the end."""
        raise NotImplementedError

    def final_rewards(self) -> list:
        """Each player's reward at the end of the game."""
        raise NotImplementedError

    # The AEC protocol.
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self.state = self.new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.mover_index()]
        self.game_over = False

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        try:
            self.state.play(int(action))
        except (TypeError, ValueError) as error:
            raise IllegalMoveError(f"{agent}: action {action!r}: {error}") from error
        mover = self.mover_index()
        if mover is not None:
            # Rewards come only at the end: until then every reward stays 0.
            self.agent_selection = self.possible_agents[mover]
            return
        self.game_over = True
        for a, reward in zip(self.possible_agents, self.final_rewards()):
            self.rewards[a] = float(reward)
            self.terminations[a] = True
        self._accumulate_rewards()

    def last_legal_mask(self) -> np.ndarray:
        """The legal actions of the agent to move as int8 (1 = legal)."""
        return self.state.action_mask().view(np.int8)

    def engine_action(self, movetime: Optional[int] = None, nodes: Optional[int] = None,
                      depth: Optional[int] = None, **options) -> Optional[int]:
        """The engine's action for the agent to move (a fixed opponent): its search of the
        current state with these limits; ``None`` when the game is over."""
        result = self.state.search(movetime=movetime, nodes=nodes, depth=depth, **options)
        if result.best_move is None:
            return None
        return int(self.state.move_to_action(result.best_move))

    def render(self):
        if self.render_mode == "ansi":
            return self.state.render()
        return None

    def close(self):
        pass
