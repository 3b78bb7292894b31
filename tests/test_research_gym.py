"""The Punto Banco bettor as a Gymnasium environment (issue 26): Gymnasium's own checker,
the project's shoe for a seed, the pay table for the rewards, bad actions refused."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from baccara.bets import BetKind, settle  # noqa: E402
from baccara.coup import Coup, deal_shoe  # noqa: E402
from baccara.research.gym_bettor import ENV_ID, PuntoBancoBettor  # noqa: E402
from baccara.shoe import Shoe, ShoeSettings  # noqa: E402


def test_gymnasium_s_checker_passes() -> None:
    check_env(gym.make(ENV_ID, decks=1).unwrapped)
    check_env(gym.make(ENV_ID, variant="ez", bets=("banker", "dragon-7"), stakes=(1, 2)).unwrapped)


def test_a_seed_deals_the_project_s_shoe_and_pays_by_the_pay_table() -> None:
    env = PuntoBancoBettor(decks=2)
    cards, info = env.reset(seed=42)
    shoe = Shoe.shuffled(ShoeSettings(decks=2), seed=42)  # the simulator's shoe 0 of 42
    coups = list(deal_shoe(shoe))
    assert info == {"shoe": 0, "series": 42}
    banker_5 = 1 + env.kinds.index(BetKind.BANKER) * len(env.stakes) + env.stakes.index(5)
    assert env.action_meaning(banker_5) == "Banker 5"
    seen, total = [], 0.0
    done = False
    while not done:
        before = int(cards.sum())
        cards, reward, done, truncated, info = env.step(banker_5)
        coup = Coup.parse(info["coup"])
        seen.append(coup)
        assert int(cards.sum()) == before - len(coup.player) - len(coup.banker)
        assert reward == settle(BetKind.BANKER, 500, coup).net / 100 and not truncated
        total += reward
    assert seen == coups  # the same seed, the same shoe, coup for coup
    assert total == sum(settle(BetKind.BANKER, 500, c).net for c in coups) / 100
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    _, info = env.reset()  # the next shoe of the series
    assert info == {"shoe": 1, "series": 42}


def test_no_bet_pays_nothing_and_bad_actions_or_bets_are_refused() -> None:
    env = PuntoBancoBettor(decks=1)
    env.reset(seed=1)
    _, reward, *_ = env.step(0)
    assert reward == 0.0
    for bad in (-1, env.action_space.n, 2.5):
        with pytest.raises(ValueError, match="bad action"):
            env.step(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bets must be"):
        PuntoBancoBettor(bets=("dragon-7",))  # an EZ bet at Punto Banco
    with pytest.raises(ValueError, match="stakes"):
        PuntoBancoBettor(stakes=(0,))
    assert np.array_equal(env.reset(seed=5)[0], PuntoBancoBettor(decks=1).reset(seed=5)[0])
