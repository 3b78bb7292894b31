"""A bettor at a Punto Banco shoe as a Gymnasium environment (``pip install 'baccara[rl]'``).

Each step is one coup. The agent sees the cards left in the shoe (10 counts by point
value, tens first), chooses one bet at one of a few stakes or none, and is paid the
bet's net in units staked. The shoe's end (the cut card and the last-hand rule) ends the
episode. The shoe is the project's: ``reset(seed=s)`` deals shoe 0 of the series ``s``
(the simulator's, the table's), each later reset the next shoe of that series.

>>> env = gym.make(ENV_ID, decks=1).unwrapped
>>> cards, _ = env.reset(seed=7)
>>> int(cards.sum()) < 52, env.action_meaning(0), env.action_meaning(1)
(True, 'no bet', 'Player 1')
"""

from __future__ import annotations

from typing import Any, TypedDict

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from baccara.bets import BetKind, bets_for, settle
from baccara.coup import deal_coup
from baccara.shoe import Shoe, ShoeSettings
from baccara.variants import find_variant

__all__ = ["ENV_ID", "BettorOptions", "PuntoBancoBettor"]

ENV_ID = "baccara/PuntoBancoBettor-v0"

UNIT = 100  # minor units in one unit staked
Cards = npt.NDArray[np.int64]


class BettorOptions(TypedDict, total=False):
    """`PuntoBancoBettor`'s options, as its vector form takes them on (the defaults are
    `PuntoBancoBettor`'s)."""

    decks: int
    variant: str
    bets: tuple[str, ...] | None
    stakes: tuple[int, ...]
    cut_card: int


class PuntoBancoBettor(gym.Env[Cards, np.int64]):
    """One bettor, one shoe: observe the cards left, bet (or not), be paid the net.

    ``bets``: the bet kinds offered (the variant's main bets by default); ``stakes``:
    the stake levels in units. Action 0 is no bet; action ``1 + b * len(stakes) + s``
    is bet ``b`` at stake ``s``.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012  (Gymnasium's own field)

    def __init__(
        self,
        *,
        decks: int = 8,
        variant: str = "punto-banco",
        bets: tuple[str, ...] | None = None,
        stakes: tuple[int, ...] = (1, 5, 25),
        cut_card: int = 14,
    ) -> None:
        self.variant = find_variant(variant)
        offered = bets_for(self.variant)
        self.kinds = (
            tuple(kind for kind in offered if kind.is_main)
            if bets is None
            else tuple(BetKind.parse(name) for name in bets)
        )
        if not self.kinds or any(kind not in offered for kind in self.kinds):
            raise ValueError(f"bets must be some of {', '.join(k.value for k in offered)}")
        if not stakes or any(
            isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0 for stake in stakes
        ):
            raise ValueError(f"bad stakes {stakes!r}: positive whole numbers of units")
        self.stakes = stakes
        self.settings = ShoeSettings(decks=decks, cut_card=min(cut_card, 52 * decks))
        most = 16 * decks  # the tens and faces
        self.observation_space = gym.spaces.Box(0, most, shape=(10,), dtype=np.int64)
        self.actions = gym.spaces.Discrete(1 + len(self.kinds) * len(stakes))
        self.action_space = self.actions
        self._series: int | None = None
        self._index = -1
        self.shoe: Shoe | None = None

    def action_meaning(self, action: int) -> str:
        """An action in words: ``'no bet'`` or ``'Banker 5'``."""
        if action == 0:
            return "no bet"
        kind, stake = divmod(action - 1, len(self.stakes))
        return f"{self.kinds[kind].label} {self.stakes[stake]}"

    def _cards(self) -> Cards:
        assert self.shoe is not None
        return np.array(self.shoe.composition_by_value(), dtype=np.int64)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Cards, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._series, self._index = seed, 0
        else:
            if self._series is None:  # no series yet: one from the environment's generator
                self._series = int(self.np_random.integers(2**63))
            self._index += 1
        self.shoe = Shoe.shuffled(self.settings, seed=self._series, index=self._index)
        self.shoe.burn()
        return self._cards(), {"shoe": self._index, "series": self._series}

    def step(self, action: np.int64 | int) -> tuple[Cards, float, bool, bool, dict[str, Any]]:
        if self.shoe is None or self.shoe.finished:
            raise RuntimeError("the shoe is over: reset the environment")
        whole = isinstance(action, int | np.integer) and not isinstance(action, bool)
        if not whole or not 0 <= int(action) < self.actions.n:
            raise ValueError(f"bad action {action!r}: a whole number, 0 to {self.actions.n - 1}")
        chosen = int(action)
        coup = deal_coup(self.shoe)
        reward = 0.0
        if chosen:
            kind, stake = divmod(chosen - 1, len(self.stakes))
            paid = settle(self.kinds[kind], self.stakes[stake] * UNIT, coup, self.variant)
            reward = paid.net / UNIT
        info = {"coup": coup.notation(), "bet": self.action_meaning(chosen)}
        return self._cards(), reward, self.shoe.finished, False, info


gym.register(  # gym.make(ENV_ID, decks=6); gym.make_vec(ENV_ID, num_envs=1024): the compiled form
    id=ENV_ID,
    entry_point=f"{__name__}:PuntoBancoBettor",
    vector_entry_point="baccara.research.gym_vector:PuntoBancoBettorVectorEnv",
)
