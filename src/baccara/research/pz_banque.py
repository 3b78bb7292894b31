"""Baccarat Banque as a PettingZoo AEC environment (``pip install 'baccara[rl]'``).

Three agents, the ``left`` and the ``right`` punter and the ``banker``, one unit
staked on each tableau, play coups dealt from the project's shoe as the Banque table
deals them (three decks by default, no burn; cards left, right, banker, twice; see
`baccara.skill.banque`): ``reset(seed=s)`` opens shoe 0 of the series ``s``, each
later reset deals the next coup, and a finished shoe is followed by the next shoe of
the series. Each agent acts once a coup, left, right, then the banker:

- action 0 stands, 1 draws; the ``action_mask`` leaves only what the tableau allows
  (a punter is free on 5 only, the banker everywhere; after a banker's natural, only
  standing for all; a punter's natural, only standing for him, and for the banker too
  when both tableaux showed one);
- the observation is what that seat may see: its own two cards (counts by point value,
  halved) and total (one-hot), and what each tableau has shown (one-hot: its third
  card, "stood" or a natural; nothing yet while unplayed);
- rewards are in units staked: each punter wins 1, loses 1 or ties against the banker
  (a natural is settled against the banker's first two cards); the banker gets minus
  their sum.

>>> env = BanqueEnv()
>>> env.reset(seed=3)
>>> env.agent_selection, sorted(env.observe("left")), env.observe("left")["observation"].shape
('left', ['action_mask', 'observation'], (44,))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from baccara import deal
from baccara.cards import Card, format_cards, hand_total
from baccara.deal import Side
from baccara.research.pz_shared import DRAW, STAND, CoupEnv
from baccara.rules import NO_CARD, is_natural
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux
from baccara.variants import find_variant

__all__ = ["AGENTS", "DRAW", "STAND", "BanqueEnv"]

AGENTS = ("left", "right", "banker")
"""The agents, in the order they act."""
_NATURAL = NO_CARD + 1  # a tableau's column: 0-9 its third card, 10 stood, 11 a natural
_SHOWN = 20  # where the tableaux' columns start: after the own cards (10) and total (10)
SIZE = _SHOWN + 2 * (_NATURAL + 1)
_COUP_CARDS = 9  # three hands of three cards at most
_PUNTERS = tableaux.chance_tableau()  # the punter's row: free on 5
_AGENT = {(Side.PLAYER, 0): "left", (Side.PLAYER, 1): "right", (Side.BANKER, 0): "banker"}


class BanqueEnv(CoupEnv):
    """Baccarat Banque coups between two punters and the banker (see the module)."""

    metadata = {"name": "baccara_banque_v0", "render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, *, decks: int | None = None) -> None:
        chosen = find_variant("banque").decks if decks is None else decks
        # the Banque table's shoe (`BanqueTable.new_shoe`): no burn
        super().__init__(list(AGENTS), SIZE, ShoeSettings(decks=chosen, burn=False), _COUP_CARDS)
        self.hands: dict[str, list[Card]] = {agent: [] for agent in AGENTS}
        self.acted: list[str] = []
        self.choices: dict[str, bool] = {}  # what each agent did this coup

    # -- the coup ----------------------------------------------------------------------

    def _deal(self, shoe: Shoe) -> None:
        self.hands = {agent: [] for agent in AGENTS}
        self.acted = []
        self.choices = {}
        for _ in range(2):
            for agent in AGENTS:  # left, right, banker, twice (`BanqueTable._deal`)
                self.hands[agent].append(shoe.draw())

    def _two(self, agent: str) -> int:
        return hand_total(self.hands[agent][:2])

    def _natural(self, agent: str) -> bool:
        return is_natural(self._two(agent))

    def column(self, half: str) -> int | None:
        """What ``tableau`` has shown: 0-9 its third card, 10 stood, 11 a natural; None
        while its punter has still to act."""
        if self._natural(half):
            return _NATURAL
        if half not in self.acted:
            return None
        hand = self.hands[half]
        return hand[2].points if len(hand) == 3 else NO_CARD

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        """What the tableau leaves ``agent``: both where it chooses, else its bound act
        (standing after a natural), as the dealer's model of two tableaux says."""
        points = {a: tuple(card.points for card in self.hands[a]) for a in AGENTS}
        now = deal.step_halves(
            deal.HalvesState(
                punters=(points["left"], points["right"]),
                banker=points["banker"],
                punter_choices=(self.choices.get("left"), self.choices.get("right")),
            ),
            _PUNTERS,
        )
        if isinstance(now, deal.Over) or _AGENT[now.side, now.half] != agent:
            return np.array([1, 0], np.int8)  # it stands: the coup has gone past it
        if isinstance(now, deal.Choose):
            return np.array([1, 1], np.int8)
        return np.array([0, 1], np.int8)

    def observe(self, agent: str) -> dict[str, Any]:
        seen = np.zeros(SIZE, np.float32)
        for card in self.hands[agent][:2]:
            seen[card.points] += 0.5
        seen[10 + self._two(agent)] = 1.0
        for i, half in enumerate(("left", "right")):
            column = self.column(half)
            if column is not None:
                seen[_SHOWN + i * (_NATURAL + 1) + column] = 1.0
        mask = self._mask(agent) if self.acts(agent) else np.zeros(2, np.int8)
        return {"observation": seen, "action_mask": mask}

    def _act(self, agent: str, draws: bool) -> None:
        assert self.shoe is not None
        if draws:
            self.hands[agent].append(self.shoe.draw())
        self.acted.append(agent)
        self.choices[agent] = draws
        if agent != "banker":
            self.agent_selection = AGENTS[AGENTS.index(agent) + 1]
            return
        results = {half: self._result(half) for half in ("left", "right")}
        rewards = {**results, "banker": 0.0 - sum(results.values())}
        coup = " ".join(f"{a[0].upper()}:{format_cards(self.hands[a])}" for a in AGENTS)
        self._settle(rewards, coup)

    def _result(self, half: str) -> float:
        """The tableau's result against the banker: 1, -1 or 0."""
        banker = self.hands["banker"]
        if self._natural("banker") or self._natural(half):
            banker = banker[:2]  # a natural is settled against the first two cards
        return float(np.sign(hand_total(self.hands[half]) - hand_total(banker)))
