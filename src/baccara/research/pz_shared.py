"""What the players' games share as PettingZoo AEC environments: coups from the
project's shoe, a ``Dict`` observation with its ``action_mask``, one decision a seat a
coup (0 stands, 1 draws), refused unless the mask allows it.

``reset(seed=s)`` opens shoe 0 of the series ``s`` (the simulator's and the tables'),
each later reset deals the next coup, and a finished shoe is followed by the next shoe
of the series. A game says how a coup is dealt (`CoupEnv._deal`), what a seat may do
(`CoupEnv._mask`) and see (`CoupEnv.observe`), and what a decision does
(`CoupEnv._act`); it ends the coup with `CoupEnv._settle`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from baccara.shoe import Shoe, ShoeSettings

__all__ = ["DRAW", "STAND", "CoupEnv"]

STAND, DRAW = 0, 1


class CoupEnv(AECEnv):  # type: ignore[misc]
    """A players' game's coups between ``agents``, in that order, each seeing an
    observation of ``size`` values in [0, 1], from shoes of ``settings`` that must hold
    ``cards`` for a coup."""

    def __init__(self, agents: list[str], size: int, settings: ShoeSettings, cards: int) -> None:
        super().__init__()
        self.settings = settings
        self.coup_cards = cards
        self.possible_agents = list(agents)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (2,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(2) for agent in self.possible_agents}
        self._series, self._index = 0, 0
        self.shoe: Shoe | None = None
        self.infos: dict[str, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- what a game says ---------------------------------------------------------------

    def _deal(self, shoe: Shoe) -> None:
        """Deal a coup's first cards from ``shoe``."""
        raise NotImplementedError

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        """What ``agent`` may do now: [stand, draw]."""
        raise NotImplementedError

    def _act(self, agent: str, draws: bool) -> None:
        """``agent`` draws (a card from `shoe`) or stands; the last one settles."""
        raise NotImplementedError

    def observe(self, agent: str) -> dict[str, Any]:
        raise NotImplementedError

    # -- the coup ------------------------------------------------------------------------

    def acts(self, agent: str) -> bool:
        """Whether ``agent`` is to act now (its mask is then the tableau's, else zero)."""
        return agent == self.agent_selection and not self.terminations.get(agent, True)

    def _coup_shoe(self) -> Shoe:
        """The shoe, the series' next one if it is finished, with a coup started."""
        if self.shoe is None or self.shoe.finished or self.shoe.remaining < self.coup_cards:
            self.shoe = Shoe.shuffled(self.settings, seed=self._series, index=self._index)
            self._index += 1
            self.shoe.burn()
        self.shoe.start_coup()
        return self.shoe

    def _settle(self, rewards: dict[str, float], coup: str) -> None:
        """End the coup: its ``rewards`` and, in each agent's info, its ``coup`` notation."""
        assert self.shoe is not None
        self.shoe.finish_coup()
        self.rewards = rewards
        self.infos = {agent: {"coup": coup} for agent in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)

    # -- the AEC API ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._series, self._index, self.shoe = seed, 0, None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._deal(self._coup_shoe())
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self._mask(agent)[int(action)]:
            raise ValueError(f"{agent}: action {action!r} is not allowed (see action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self._act(agent, int(action) == DRAW)
        self._accumulate_rewards()
