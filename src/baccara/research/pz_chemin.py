"""Chemin de Fer as a PettingZoo AEC environment (``pip install 'baccara[rl]'``).

Two agents, the ``punter`` and the ``banker``, play coups dealt from the project's
shoe: ``reset(seed=s)`` opens shoe 0 of the series ``s`` (the simulator's and the
tables'), each later reset deals the next coup, and a finished shoe is followed by the
next shoe of the series. Each agent acts once a coup, the punter first:

- action 0 stands, 1 draws; the ``action_mask`` leaves only what the tableau allows
  (the punter is free on 5 only; the banker everywhere, or with ``banker="tableau"``
  only in the house tableau's free cells; after a natural, only standing);
- the observation is what that seat may see: its own two cards (counts by point value,
  halved), its total (one-hot), and for the banker the punter's third card or that he
  stood (one-hot, 10 values and "stood");
- rewards are in units staked: the punter wins or loses 1; the banker's wins are net of
  the commission (``commission=True``: 5%); a tie pays 0.

>>> env = ChemindeFerEnv(decks=1)
>>> env.reset(seed=3)
>>> env.agent_selection, sorted(env.observe("punter"))
('punter', ['action_mask', 'observation'])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from baccara.cards import Card, hand_total
from baccara.coup import Side
from baccara.deal import FIRST_CARDS
from baccara.rules import is_natural
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux

__all__ = ["ChemindeFerEnv"]

STAND, DRAW = 0, 1
SIZE = 31  # own cards (10), own total (10), the punter's third card or "stood" (11)


class ChemindeFerEnv(AECEnv):  # type: ignore[misc]
    """Chemin de Fer coups between a punter and a banker (see the module)."""

    metadata = {"name": "baccara_chemin_de_fer_v0", "render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, *, decks: int = 6, commission: bool = False, banker: str = "free") -> None:
        super().__init__()
        if banker not in ("free", "tableau"):
            raise ValueError(f"bad banker {banker!r}: free or tableau")
        self.settings = ShoeSettings(decks=decks)
        self.commission = 0.05 if commission else 0.0
        self.banker_free = banker == "free"
        self.possible_agents = ["punter", "banker"]
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (2,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(2) for agent in self.possible_agents}
        self._series, self._index = 0, 0
        self.shoe: Shoe | None = None
        self.hands: dict[Side, list[Card]] = {Side.PLAYER: [], Side.BANKER: []}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- the coup ----------------------------------------------------------------------

    def _next_shoe(self) -> None:
        self.shoe = Shoe.shuffled(self.settings, seed=self._series, index=self._index)
        self._index += 1
        self.shoe.burn()

    def _deal_first(self) -> None:
        if self.shoe is None or self.shoe.finished:
            self._next_shoe()
        assert self.shoe is not None
        self.shoe.start_coup()
        self.hands = {Side.PLAYER: [], Side.BANKER: []}
        for side in FIRST_CARDS:
            self.hands[side].append(self.shoe.draw())

    def _total(self, side: Side) -> int:
        return hand_total(self.hands[side])

    def _natural(self) -> bool:
        return is_natural(hand_total(self.hands[Side.PLAYER][:2])) or is_natural(
            hand_total(self.hands[Side.BANKER][:2])
        )

    def _third(self) -> int | None:
        player = self.hands[Side.PLAYER]
        return player[2].points if len(player) == 3 else None

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        if self._natural():
            return np.array([1, 0], np.int8)
        if agent == "punter":
            cell = tableaux.punter_cell(self._total(Side.PLAYER))
        else:
            cell = tableaux.banker_cell(self._total(Side.BANKER), self._third())
            if self.banker_free:
                cell = tableaux.Cell.FREE
        if cell is tableaux.Cell.FREE:
            return np.array([1, 1], np.int8)
        return np.array([cell is tableaux.Cell.STAND, cell is tableaux.Cell.DRAW], np.int8)

    def observe(self, agent: str) -> dict[str, Any]:
        side = Side.PLAYER if agent == "punter" else Side.BANKER
        seen = np.zeros(SIZE, np.float32)
        for card in self.hands[side][:2]:
            seen[card.points] += 0.5
        seen[10 + hand_total(self.hands[side][:2])] = 1.0
        if agent == "banker" and (
            self.agent_selection == "banker" or all(self.terminations.values())
        ):
            third = self._third()
            seen[20 + (10 if third is None else third)] = 1.0
        acts = agent == self.agent_selection and not self.terminations.get(agent, True)
        mask = self._mask(agent) if acts else np.zeros(2, np.int8)
        return {"observation": seen, "action_mask": mask}

    # -- the AEC API ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._series, self._index, self.shoe = seed, 0, None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._deal_first()
        self.agent_selection = "punter"

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self._mask(agent)[int(action)]:
            raise ValueError(f"{agent}: action {action!r} is not allowed (see action_mask)")
        assert self.shoe is not None
        side = Side.PLAYER if agent == "punter" else Side.BANKER
        if int(action) == DRAW:
            self.hands[side].append(self.shoe.draw())
        self._cumulative_rewards[agent] = 0.0
        if agent == "punter":
            self.agent_selection = "banker"
        else:
            self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        assert self.shoe is not None
        self.shoe.finish_coup()
        punter, banker = self._total(Side.PLAYER), self._total(Side.BANKER)
        if banker > punter:
            self.rewards = {"punter": -1.0, "banker": 1.0 - self.commission}
        elif punter > banker:
            self.rewards = {"punter": 1.0, "banker": -1.0}
        else:
            self.rewards = {"punter": 0.0, "banker": 0.0}
        coup = " ".join(
            f"{side.word[0].upper()}:{','.join(map(str, self.hands[side]))}"
            for side in (Side.PLAYER, Side.BANKER)
        )
        self.infos = {agent: {"coup": coup} for agent in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
