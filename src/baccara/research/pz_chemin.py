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

from baccara import deal
from baccara.cards import Card, hand_total
from baccara.coup import Side
from baccara.deal import FIRST_CARDS
from baccara.research.pz_shared import DRAW, STAND, CoupEnv
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux

__all__ = ["DRAW", "STAND", "ChemindeFerEnv"]

SIZE = 31  # own cards (10), own total (10), the punter's third card or "stood" (11)


class ChemindeFerEnv(CoupEnv):
    """Chemin de Fer coups between a punter and a banker (see the module)."""

    metadata = {"name": "baccara_chemin_de_fer_v0", "render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, *, decks: int = 6, commission: bool = False, banker: str = "free") -> None:
        if banker not in ("free", "tableau"):
            raise ValueError(f"bad banker {banker!r}: free or tableau")
        super().__init__(
            ["punter", "banker"], SIZE, ShoeSettings(decks=decks), len(FIRST_CARDS) + 2
        )
        self.commission = 0.05 if commission else 0.0
        self.tableau = tableaux.chance_tableau(banker_free=banker == "free")
        self.hands: dict[Side, list[Card]] = {Side.PLAYER: [], Side.BANKER: []}
        self.punter_draws: bool | None = None  # the punter's act this coup

    # -- the coup ----------------------------------------------------------------------

    def _deal(self, shoe: Shoe) -> None:
        self.hands = {Side.PLAYER: [], Side.BANKER: []}
        self.punter_draws = None
        for side in FIRST_CARDS:
            self.hands[side].append(shoe.draw())

    def _total(self, side: Side) -> int:
        return hand_total(self.hands[side])

    def _third(self) -> int | None:
        player = self.hands[Side.PLAYER]
        return player[2].points if len(player) == 3 else None

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        """What the tableau leaves ``agent``: both where it chooses, else its bound act
        (standing after a natural), as the dealer's chance model says."""
        side = Side.PLAYER if agent == "punter" else Side.BANKER
        hands = self.hands
        now = deal.step(
            deal.DealState(
                player=tuple(card.points for card in hands[Side.PLAYER]),
                banker=tuple(card.points for card in hands[Side.BANKER][:2]),
                player_choice=self.punter_draws,
            ),
            self.tableau,
        )
        if isinstance(now, deal.Over) or now.side is not side:
            return np.array([1, 0], np.int8)  # it stands: the coup has gone past it
        if isinstance(now, deal.Choose):
            return np.array([1, 1], np.int8)
        return np.array([0, 1], np.int8)

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
        mask = self._mask(agent) if self.acts(agent) else np.zeros(2, np.int8)
        return {"observation": seen, "action_mask": mask}

    def _act(self, agent: str, draws: bool) -> None:
        assert self.shoe is not None
        if draws:
            self.hands[Side.PLAYER if agent == "punter" else Side.BANKER].append(self.shoe.draw())
        if agent == "punter":
            self.punter_draws = draws
            self.agent_selection = "banker"
            return
        punter, banker = self._total(Side.PLAYER), self._total(Side.BANKER)
        if banker > punter:
            rewards = {"punter": -1.0, "banker": 1.0 - self.commission}
        elif punter > banker:
            rewards = {"punter": 1.0, "banker": -1.0}
        else:
            rewards = {"punter": 0.0, "banker": 0.0}
        coup = " ".join(
            f"{side.word[0].upper()}:{','.join(map(str, self.hands[side]))}"
            for side in (Side.PLAYER, Side.BANKER)
        )
        self._settle(rewards, coup)
