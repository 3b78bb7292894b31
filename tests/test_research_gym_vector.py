"""The Punto Banco bettor, vectorised on the compiled dealer (issue 26): sub-env ``i`` of a
reset with seed ``s`` is the plain bettor on the series ``s + i``, coup by coup across
shoe ends (Gymnasium's next-step autoreset); Gymnasium's own SyncVectorEnv of the plain
bettor gives the same; the pay table's rewards; bad actions and seeds refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from baccara.bets import BetKind, settle  # noqa: E402
from baccara.coup import Coup, deal_shoe  # noqa: E402
from baccara.research.gym_bettor import ENV_ID, PuntoBancoBettor  # noqa: E402
from baccara.research.gym_vector import PuntoBancoBettorVectorEnv, rewards_by_key  # noqa: E402
from baccara.shoe import Shoe, ShoeSettings  # noqa: E402
from baccara.sim._kernels import key_of  # noqa: E402
from baccara.variants import PUNTO_BANCO  # noqa: E402


def _beside_plain(seed: int, num_envs: int, steps: int, **options: Any) -> list[int]:
    """Step the vector env and, beside it, one plain bettor per sub-env (reset with
    ``seed + i``) with the same random actions, autoreset on the step after a shoe's end;
    assert every observation, reward and termination equal. Returns each sub-env's ends."""
    envs = PuntoBancoBettorVectorEnv(num_envs, **options)
    plain = [PuntoBancoBettor(**options) for _ in range(num_envs)]
    cards, info = envs.reset(seed=seed)
    for i, env in enumerate(plain):
        first, first_info = env.reset(seed=seed + i)
        assert np.array_equal(cards[i], first)
        assert (info["shoe"][i], info["series"][i]) == (first_info["shoe"], first_info["series"])
    rng = np.random.default_rng(seed % 2**32)
    ends = [0] * num_envs
    for _ in range(steps):
        actions = rng.integers(envs.single_action_space.n, size=num_envs)
        cards, rewards, terminated, truncated, _ = envs.step(actions)
        assert not truncated.any()
        for i, env in enumerate(plain):
            if env.shoe is not None and env.shoe.finished:  # the next-step autoreset
                want: tuple[Any, float, bool] = (env.reset()[0], 0.0, False)
            else:
                obs, reward, done, _, _ = env.step(int(actions[i]))
                want = (obs, reward, done)
                ends[i] += done
            assert np.array_equal(cards[i], want[0]), (i, cards[i], want[0])
            assert (float(rewards[i]), bool(terminated[i])) == want[1:]
    return ends


@pytest.mark.parametrize(
    ("seed", "num_envs", "decks", "steps"), [(0, 3, 1, 40), (42, 2, 8, 190), (2**70 + 5, 3, 1, 40)]
)
def test_sub_env_i_is_the_plain_bettor_on_series_s_plus_i_across_shoe_ends(
    seed: int, num_envs: int, decks: int, steps: int
) -> None:
    ends = _beside_plain(seed, num_envs, steps, decks=decks)
    assert min(ends) >= 2  # two shoes over, two autoresets, in every sub-env


def test_side_bets_and_no_commission_are_paid_as_the_plain_bettor_pays_them() -> None:
    ends = _beside_plain(9, 4, 60, decks=1, variant="ez", bets=("banker", "dragon-7", "panda-8"))
    assert min(ends) >= 2
    ends = _beside_plain(3, 2, 30, decks=1, variant="super6", stakes=(1, 5))
    assert min(ends) >= 2
    # the tables themselves, on coups whose pays the rulebook states
    banker_three_card_7 = key_of(6, 7, 0, 1, 0, 0)  # Player stands on 6, Banker draws to 7
    ez = PuntoBancoBettorVectorEnv(variant="ez", bets=("banker", "dragon-7"), stakes=(1, 2))
    assert ez.rewards[banker_three_card_7].tolist() == [0.0, 0.0, 0.0, 40.0, 80.0]  # a push; 40:1
    banker_six = key_of(5, 6, 1, 0, 0, 0)
    super6 = PuntoBancoBettorVectorEnv(variant="super6", bets=("banker",), stakes=(1, 5))
    assert super6.rewards[banker_six].tolist() == [0.0, 0.5, 2.5]  # 1:2 on a win with 6
    assert super6.rewards[key_of(4, 7, 1, 0, 0, 0)].tolist() == [0.0, 1.0, 5.0]


def test_a_stake_not_a_whole_number_of_cents_at_the_pay_table_is_rounded_as_settle_rounds() -> None:
    banker_seven = key_of(6, 7, 0, 0, 0, 0)
    coup = Coup.parse("P:6h,Kd B:7s,Kc")
    # 15 minor units at 19:20 is 14.25: settle takes the commission (0.75) down to 0
    table = rewards_by_key(PUNTO_BANCO, (BetKind.BANKER,), (5,), unit=3)
    assert table[banker_seven, 1] == settle(BetKind.BANKER, 15, coup, PUNTO_BANCO).net / 3 == 5.0
    table = rewards_by_key(PUNTO_BANCO, (BetKind.BIG,), (1,), unit=101)
    big = key_of(6, 7, 0, 1, 0, 0)  # five cards: Big pays 0.54:1, 54.54 of 101 rounded down
    assert table[big, 1] == 54 / 101


def test_gymnasium_s_sync_vector_env_of_the_plain_bettor_gives_the_same_batches() -> None:
    compiled = gym.make_vec(ENV_ID, num_envs=4, decks=1, stakes=(1, 2))
    synced = gym.make_vec(ENV_ID, num_envs=4, vectorization_mode="sync", decks=1, stakes=(1, 2))
    assert isinstance(compiled, PuntoBancoBettorVectorEnv)
    assert compiled.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert synced.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert compiled.observation_space == synced.observation_space
    assert compiled.action_space == synced.action_space
    assert compiled.single_action_space == synced.single_action_space
    rng = np.random.default_rng(5)
    resets: list[dict[str, Any]] = [
        {"seed": 11},
        {"options": {"reset_mask": np.array([False, True, False, True])}},
        {"seed": [3, None, 2**62 + 1, 0]},
        {},
    ]
    for reset in resets:
        a, info_a = compiled.reset(**reset)
        b, info_b = synced.reset(**reset)
        assert data_equivalence(a, b, exact=True) and data_equivalence(info_a, info_b, exact=True)
        assert compiled.observation_space.contains(a)
        for _ in range(25):
            actions = (
                compiled.action_space.sample() if rng.random() < 0.5 else rng.integers(5, size=4)
            )
            a_step, b_step = compiled.step(actions), synced.step(actions)
            for x, y in zip(a_step[:4], b_step[:4], strict=True):
                assert data_equivalence(x, y, exact=True), (x, y)
            assert compiled.observation_space.contains(a_step[0])


def test_gymnasium_s_episode_statistics_read_each_shoe_as_an_episode() -> None:
    envs = RecordEpisodeStatistics(PuntoBancoBettorVectorEnv(2, decks=1, bets=("banker",)))
    envs.reset(seed=20)
    assert envs.unwrapped.action_meaning(1) == "Banker 1"
    episodes: list[list[tuple[float, int]]] = [[], []]
    while min(map(len, episodes)) < 2:
        *_, info = envs.step(np.ones(2, dtype=np.int64))
        for i in np.flatnonzero(info.get("_episode", [False, False])):
            episodes[i].append((float(info["episode"]["r"][i]), int(info["episode"]["l"][i])))
    for i in range(2):
        for shoe_index, (total, length) in enumerate(episodes[i][:2]):
            shoe = Shoe.shuffled(ShoeSettings(decks=1), seed=20 + i, index=shoe_index)
            coups = list(deal_shoe(shoe))
            assert length == len(coups)
            paid = sum(settle(BetKind.BANKER, 100, coup).net for coup in coups) / 100
            assert total == pytest.approx(paid)


def test_the_seed_rule_does_not_depend_on_the_number_of_sub_envs() -> None:
    two = PuntoBancoBettorVectorEnv(2, decks=1)
    five = PuntoBancoBettorVectorEnv(5, decks=1)
    a, _ = two.reset(seed=3)
    b, info = five.reset(seed=[3, 4, 100, 101, 102])
    assert info["series"].tolist() == [3, 4, 100, 101, 102]
    assert np.array_equal(a, b[:2])
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = rng.integers(10, size=5)
        a_step, b_step = two.step(actions[:2]), five.step(actions)
        for x, y in zip(a_step[:4], b_step[:4], strict=True):
            assert np.array_equal(x, y[:2])


def test_bad_actions_seeds_and_options_are_refused_and_change_nothing() -> None:
    envs = PuntoBancoBettorVectorEnv(3, decks=1)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    envs.reset(seed=1)
    twin = PuntoBancoBettorVectorEnv(3, decks=1)
    twin.reset(seed=1)
    top = envs.single_action_space.n - 1
    bad: list[tuple[Any, str]] = [
        (np.array([0, 1, top + 1]), f"bad action {top + 1} for sub-environment 2: 0 to {top}"),
        ([0, -1, 0], f"bad action -1 for sub-environment 1: 0 to {top}"),
        (np.zeros(4, dtype=np.int64), r"bad actions of shape \(4,\): expected \(3,\)"),
        (np.zeros((3, 1), dtype=np.int64), r"bad actions of shape \(3, 1\)"),
        (1, r"bad actions of shape \(\)"),
        (np.array([0.0, 1.0, 2.0]), "bad actions of dtype float64"),
        (np.array([True, False, True]), "bad actions of dtype bool"),
        ([[0], [1, 2], []], "bad actions"),
    ]
    for actions, message in bad:
        with pytest.raises(ValueError, match=message):
            envs.step(actions)
    with pytest.raises(ValueError, match="bad seed -1"):
        envs.reset(seed=-1)
    with pytest.raises(ValueError, match=f"bad seed {2**128}"):
        envs.reset(seed=2**128 - 2)  # sub-env 2 would play the series 2**128
    with pytest.raises(ValueError, match="bad seed"):
        envs.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.zeros(3, dtype=np.bool_)})
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": [True, True, True]})
    actions = np.array([0, 1, 2])  # nothing above changed a shoe
    for x, y in zip(envs.step(actions)[:4], twin.step(actions)[:4], strict=True):
        assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="num_envs"):
        PuntoBancoBettorVectorEnv(0)
    with pytest.raises(ValueError, match="stakes"):
        PuntoBancoBettorVectorEnv(2, stakes=(1.5,))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bets must be"):
        PuntoBancoBettorVectorEnv(2, bets=("dragon-7",))
    fresh = PuntoBancoBettorVectorEnv(2, decks=1)
    with pytest.raises(ValueError, match="first reset"):
        fresh.reset(options={"reset_mask": np.array([True, False])})
