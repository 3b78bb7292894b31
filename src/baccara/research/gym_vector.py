"""The Punto Banco bettor, vectorised: ``n`` bettors at ``n`` shoes, one compiled call a step.

`PuntoBancoBettorVectorEnv` is `baccara.research.gym_bettor.PuntoBancoBettor` as a
Gymnasium vector environment on the simulator's compiled dealer
(`baccara.sim._kernels`): the same options, the same shoes, the same rewards. A step
deals one coup in every sub-environment in one numba call (no Python loop over them).

- **Seeds:** as Gymnasium's own ``SyncVectorEnv``: ``reset(seed=s)`` gives sub-env ``i``
  the series ``s + i`` (a list gives each its own), so sub-env ``i`` plays shoes 0, 1,
  2, ... of series ``s + i``, whatever the number of sub-envs: exactly what
  ``PuntoBancoBettor`` reset with ``seed=s + i`` plays.
- **Autoreset:** Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step that ends a
  shoe returns its last cards and ``terminated``; the next step ignores that sub-env's
  action, opens its next shoe and returns its cards with reward 0.
- **Info:** ``reset`` gives ``shoe`` and ``series`` (with Gymnasium's ``_shoe`` masks);
  a step gives none (the plain env's ``coup`` and ``bet`` strings would cost more than
  the coup).

>>> import gymnasium as gym
>>> envs = gym.make_vec(ENV_ID, num_envs=3, decks=1)
>>> type(envs).__name__, envs.metadata["autoreset_mode"].value
('PuntoBancoBettorVectorEnv', 'NextStep')
>>> cards, info = envs.reset(seed=7)
>>> cards.shape, info["series"].tolist(), info["shoe"].tolist()
((3, 10), [7, 8, 9], [0, 0, 0])
>>> plain = PuntoBancoBettor(decks=1)
>>> bool((plain.reset(seed=8)[0] == cards[1]).all())
True
>>> cards, rewards, ended, truncated, _ = envs.step(np.array([0, 1, 2]))
>>> bool((plain.step(1)[0] == cards[1]).all()), rewards.dtype, ended.shape
(True, dtype('float64'), (3,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numba import njit

from baccara.bets import BetKind
from baccara.research.gym_bettor import ENV_ID, UNIT, BettorOptions, PuntoBancoBettor
from baccara.shoe import composition_by_value
from baccara.sim._kernels import (  # the dealer's own steps: a shoe's shuffle and burn, a coup
    NKEYS,
    _base,
    _coup,
    _prepare,
    last_coup,
    shuffle_limit,
)
from baccara.sim.payouts import burn_counts, pay_table, settle_net
from baccara.sim.simulation import entropy_words
from baccara.variants import Variant

__all__ = ["ENV_ID", "PuntoBancoBettorVectorEnv", "rewards_by_key"]

Cards = npt.NDArray[np.int64]
Actions = npt.NDArray[np.int64]
_COUP_MAX_CARDS = 6  # a shoe with fewer cards left is over (`Shoe.finished`)


def rewards_by_key(
    variant: Variant, kinds: tuple[BetKind, ...], stakes: tuple[int, ...], unit: int = UNIT
) -> npt.NDArray[np.float64]:
    """``table[key, action]``: what ``action`` earns, in units, on a coup of ``key``.

    Actions are numbered as `PuntoBancoBettor`'s (0 no bet). The net is the pay table's
    (`baccara.sim.payouts.pay_table`) on the stake in minor units; where that is not a
    whole number of minor units, `baccara.bets.settle` rounds it as the rulebook says.

    >>> from baccara.sim._kernels import key_of
    >>> from baccara.variants import PUNTO_BANCO
    >>> table = rewards_by_key(PUNTO_BANCO, (BetKind.BANKER, BetKind.TIE), (1, 5))
    >>> table[key_of(6, 7, 0, 0, 0, 0)].tolist()  # Banker wins 7 to 6
    [0.0, 0.95, 4.75, -1.0, -5.0]
    """
    pays, denominator = pay_table(variant, kinds)
    table = np.zeros((NKEYS, 1 + len(kinds) * len(stakes)), dtype=np.float64)
    for b, kind in enumerate(kinds):
        ratio = pays[:, b].astype(np.int64)
        for s, stake in enumerate(stakes):
            amount = stake * unit
            net = amount * ratio // denominator
            for key in np.flatnonzero(amount * ratio % denominator):
                net[key] = settle_net(kind, amount, int(key), variant)
            table[:, 1 + b * len(stakes) + s] = net / unit
    table.setflags(write=False)
    return table


# -- the compiled steps ----------------------------------------------------------------


# Each sub-env's shoe, ``shoes``: its series (as `entropy_words`), shoe index, card codes,
# point values, cards left by value, position, cut card out, and whether its shoe ended
# on the last step. The dealing, ``rules``: the ordered shoe, the full shoe by value,
# the cut card's index, the cards a shoe can deal (`shuffle_limit`), the burn and its
# counts (`burn_counts`).


@njit(cache=True, inline="always")
def _open_shoe(i: Any, shoes: Any, rules: Any) -> None:
    """Shuffle sub-env ``i``'s shoe ``index[i]`` of its series and burn, as `Shoe.burn`."""
    entropy, index, cards, values, counts, pos, cut_out, restart = shoes
    base, full, _, limit, burn, burns = rules
    row = values[i]
    start = _prepare(entropy[i], index[i], cards[i], base, limit, burn, burns, row)
    for v in range(10):
        counts[i, v] = full[v]
    for k in range(start):
        counts[i, row[k]] -= 1
    pos[i] = start
    cut_out[i] = False
    restart[i] = False


@njit(cache=True, nogil=True)
def _open_shoes(which: Any, shoes: Any, rules: Any) -> None:
    """Open the shoe ``index[i]`` of every sub-env ``i`` that ``which`` marks."""
    for i in range(which.shape[0]):
        if which[i]:
            _open_shoe(i, shoes, rules)


@njit(cache=True, nogil=True)
def _step_all(
    actions: Any, rewards: Any, shoes: Any, rules: Any, reward: Any, terminated: Any
) -> None:
    """One coup in every sub-env (or, where its shoe ended last step, its next shoe)."""
    _, index, cards, values, counts, pos, cut_out, restart = shoes
    size = rules[0].shape[0]
    cut_index = rules[2]
    for i in range(actions.shape[0]):
        if restart[i]:  # next-step autoreset: the next shoe of the series, no coup
            index[i] += 1
            _open_shoe(i, shoes, rules)
            reward[i] = 0.0
            terminated[i] = False
            continue
        p = pos[i]
        final = last_coup(p, cut_index, cut_out[i])
        used, key = _coup(cards[i], values[i], p)
        row = values[i]
        for k in range(p, p + used):
            counts[i, row[k]] -= 1
        p += used
        pos[i] = p
        cut_out[i] = final or p > cut_index
        done = final or size - p < _COUP_MAX_CARDS
        reward[i] = rewards[key, actions[i]]
        terminated[i] = done
        restart[i] = done


# -- the environment ---------------------------------------------------------------------


class PuntoBancoBettorVectorEnv(VectorEnv[Cards, Actions, npt.NDArray[Any]]):
    """``num_envs`` bettors, each at its own shoe; the options are `PuntoBancoBettor`'s.

    Observations ``(num_envs, 10)`` int64 (the cards left by point value, tens first),
    actions ``(num_envs,)`` whole numbers (`action_meaning`), rewards ``(num_envs,)``
    float64 in units, ``terminated`` at each shoe's end, never ``truncated``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium's own field)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        **options: Unpack[BettorOptions],
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"bad num_envs {num_envs!r}: a whole number, at least 1")
        one = PuntoBancoBettor(**options)  # the options checked once, and each sub-env's spaces
        self.num_envs = num_envs
        self.variant, self.kinds, self.stakes = one.variant, one.kinds, one.stakes
        self.settings = one.settings
        self.action_meaning = one.action_meaning
        self.single_observation_space = one.observation_space
        self.single_action_space = one.actions
        self.observation_space = batch_space(one.observation_space, num_envs)
        self.action_space = batch_space(one.actions, num_envs)
        self.actions = one.actions
        self.rewards = rewards_by_key(self.variant, self.kinds, self.stakes)
        size, settings = self.settings.size, self.settings
        self._rules = (
            _base(settings.decks),
            np.array(composition_by_value([4 * settings.decks] * 13), dtype=np.int64),
            size - settings.cut_card,
            shuffle_limit(settings.decks, settings.cut_card),
            settings.burn,
            burn_counts(settings),
        )
        self._series: list[int | None] = [None] * num_envs
        self._entropy = np.zeros((num_envs, 4), dtype=np.uint32)
        self._index = np.zeros(num_envs, dtype=np.int64)
        self._cards = np.zeros((num_envs, size), dtype=np.uint8)
        self._values = np.zeros((num_envs, size), dtype=np.uint8)
        self._counts = np.zeros((num_envs, 10), dtype=np.int64)
        self._pos = np.zeros(num_envs, dtype=np.int64)
        self._cut_out = np.zeros(num_envs, dtype=np.bool_)
        self._restart = np.zeros(num_envs, dtype=np.bool_)
        self._opened = False  # every sub-env has a shoe
        self._shoes = (  # see the compiled steps
            self._entropy,
            self._index,
            self._cards,
            self._values,
            self._counts,
            self._pos,
            self._cut_out,
            self._restart,
        )

    def _reset_mask(self, options: dict[str, Any] | None) -> npt.NDArray[np.bool_]:
        """The sub-envs to reset: all, or Gymnasium's ``options["reset_mask"]``."""
        if options is None or "reset_mask" not in options:
            return np.ones(self.num_envs, dtype=np.bool_)
        mask = options["reset_mask"]
        if (
            not isinstance(mask, np.ndarray)
            or mask.dtype != np.bool_
            or mask.shape != (self.num_envs,)
            or not mask.any()
        ):
            raise ValueError(
                f"bad reset_mask {np.asarray(mask).dtype} {np.shape(mask)}: a numpy bool array"
                f" of shape ({self.num_envs},) with at least one True"
            )
        if not mask.all() and not self._opened:
            raise ValueError("bad reset_mask: the first reset opens every sub-environment")
        return mask.copy()

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        """Each sub-env's series (None: its next shoe), checked before anything changes."""
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int) and not isinstance(seed, bool):
            seeds: list[int | None] = [seed + i for i in range(self.num_envs)]
        elif isinstance(seed, Sequence) and len(seed) == self.num_envs:
            seeds = list(seed)
        else:
            raise ValueError(
                f"bad seed {seed!r}: a whole number, or one (or None) per sub-environment"
                f" ({self.num_envs})"
            )
        for one in seeds:
            if one is not None:
                entropy_words(one)  # the project's seeds: 0 to 2**128 - 1
        return seeds

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Cards, dict[str, Any]]:
        """Open a shoe in every sub-env (or those of ``options["reset_mask"]``).

        A sub-env given a series opens its shoe 0; one given None its series' next shoe
        (a series drawn from `np_random` if it has none yet).
        """
        which = self._reset_mask(options)
        seeds = self._seeds(seed)
        if isinstance(seed, int):
            super().reset(seed=seed)
        for i in np.flatnonzero(which).tolist():
            series = seeds[i]
            if series is None and self._series[i] is None:
                series = int(self.np_random.integers(2**63))
            if series is None:
                self._index[i] += 1
            else:
                self._series[i], self._index[i] = series, 0
                self._entropy[i] = entropy_words(series)
        _open_shoes(which, self._shoes, self._rules)
        self._opened = None not in self._series
        return self._counts.copy(), self._reset_info(which)

    def _reset_info(self, which: npt.NDArray[np.bool_]) -> dict[str, Any]:
        """``shoe`` and ``series`` of the sub-envs reset, as ``SyncVectorEnv`` gathers them."""
        series = [
            s if w and s is not None else 0
            for s, w in zip(self._series, which.tolist(), strict=True)
        ]
        big = max(series) >= 2**63
        return {
            "shoe": np.where(which, self._index, 0),
            "_shoe": which.copy(),
            "series": np.array(series, dtype=object if big else np.int64),
            "_series": which.copy(),
        }

    def _checked(self, actions: npt.ArrayLike) -> Actions:
        """The actions as int64, or a ValueError naming what is wrong with them."""
        try:
            chosen = np.asarray(actions)
        except ValueError as error:
            raise ValueError(f"bad actions {actions!r}: {error}") from None
        if chosen.shape != (self.num_envs,):
            raise ValueError(
                f"bad actions of shape {chosen.shape}: expected ({self.num_envs},),"
                " one action per sub-environment"
            )
        top = int(self.actions.n) - 1
        if chosen.dtype.kind not in "iu":
            raise ValueError(f"bad actions of dtype {chosen.dtype}: whole numbers, 0 to {top}")
        if chosen.min() < 0 or chosen.max() > top:
            i = int(np.flatnonzero((chosen < 0) | (chosen > top))[0])
            raise ValueError(f"bad action {int(chosen[i])} for sub-environment {i}: 0 to {top}")
        return chosen.astype(np.int64, copy=False)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Cards, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """One coup in every sub-env; see the module for the autoreset."""
        if not self._opened:
            raise RuntimeError("reset the environments before the first step")
        chosen = self._checked(actions)
        reward = np.empty(self.num_envs, dtype=np.float64)
        terminated = np.empty(self.num_envs, dtype=np.bool_)
        _step_all(chosen, self.rewards, self._shoes, self._rules, reward, terminated)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._counts.copy(), reward, terminated, truncated, {}
