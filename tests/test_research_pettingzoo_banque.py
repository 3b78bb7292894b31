"""Baccarat Banque as a PettingZoo AEC environment (issue 26): PettingZoo's own API and
seed tests, the masks as the tableau has them, what each seat sees, rewards in units
staked, the Banque table's shoe and deal.

The API test's warnings expected here are Chemin de Fer's (`EXPECTED`): a ``Dict``
observation holding the ``action_mask``, and the agents' names.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test
from tests.test_research_pettingzoo import EXPECTED

from baccara.cards import Card, hand_total
from baccara.research.pz_banque import AGENTS, DRAW, SIZE, STAND, BanqueEnv
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half

COLUMNS = {"left": 20, "right": 32}  # where each tableau's column starts in a seat's view


@pytest.mark.filterwarnings(*EXPECTED)
def test_pettingzoo_s_api_and_seed_tests_pass() -> None:
    api_test(BanqueEnv(decks=1), num_cycles=300, verbose_progress=False)
    seed_test(lambda: BanqueEnv(decks=1), num_cycles=100)


def _shown(view: list[float], tableau: str) -> int | None:
    """The column a seat's observation shows for ``tableau``, if any."""
    ones = [i for i in range(12) if view[COLUMNS[tableau] + i]]
    assert len(ones) <= 1
    return ones[0] if ones else None


def _column(hand: list[Card]) -> int:
    if hand_total(hand[:2]) >= 8:
        return 11
    return hand[2].points if len(hand) == 3 else 10


def _play(env: BanqueEnv, rng: random.Random) -> tuple[dict[str, float], dict[str, list[int]]]:
    """One coup with random legal actions: the rewards, and each seat's mask; checks
    what each seat sees of the tableaux as it acts."""
    masks, rewards = {}, {}
    for agent in env.agent_iter():
        observation, reward, done, _, _ = env.last()
        if done:
            rewards[agent] = float(reward)
            env.step(None)
            continue
        view = [float(x) for x in observation["observation"]]
        assert len(view) == SIZE and view[10 + hand_total(env.hands[agent][:2])] == 1.0
        acted = AGENTS[: AGENTS.index(agent)]
        for tableau in ("left", "right"):
            natural = hand_total(env.hands[tableau][:2]) >= 8
            seen = _column(env.hands[tableau]) if natural or tableau in acted else None
            assert _shown(view, tableau) == seen
        masks[agent] = [int(x) for x in observation["action_mask"]]
        env.step(rng.choice([a for a in (STAND, DRAW) if masks[agent][a]]))
    return rewards, masks


def _result(punter: list[Card], banker: list[Card]) -> float:
    if max(hand_total(punter[:2]), hand_total(banker[:2])) >= 8:
        banker = banker[:2]  # a natural: settled on the first two cards
    p, b = hand_total(punter), hand_total(banker)
    return 1.0 if p > b else -1.0 if b > p else 0.0


def test_masks_follow_the_tableau_what_each_sees_and_rewards_in_units_staked() -> None:
    rng = random.Random(5)
    env = BanqueEnv(decks=1)
    env.reset(seed=9)
    free = 0
    for _ in range(600):
        hands = env.hands
        twos = {agent: hand_total(hands[agent][:2]) for agent in AGENTS}
        rewards, masks = _play(env, rng)
        naturals = {agent for agent, total in twos.items() if total >= 8}
        for tableau in ("left", "right"):
            if naturals & {tableau, "banker"}:
                assert masks[tableau] == [1, 0] and len(hands[tableau]) == 2
            else:
                cell = tableaux.punter_cell(twos[tableau])
                want = {tableaux.Cell.FREE: [1, 1], tableaux.Cell.DRAW: [0, 1]}
                assert masks[tableau] == want.get(cell, [1, 0])
                free += cell is tableaux.Cell.FREE
        settled = "banker" in naturals or {"left", "right"} <= naturals
        assert masks["banker"] == ([1, 0] if settled else [1, 1])
        results = {t: _result(hands[t], hands["banker"]) for t in ("left", "right")}
        assert rewards == {**results, "banker": -results["left"] - results["right"]}
        env.reset()
    assert free > 20  # the punters' 5s were met


def test_a_seed_deals_the_banque_table_s_shoe_in_its_order() -> None:
    env = BanqueEnv(decks=2)
    env.reset(seed=21)
    shoe = Shoe.shuffled(ShoeSettings(decks=2, burn=False), seed=21)
    first = [shoe.draw() for _ in range(6)]
    assert env.hands == {
        "left": [first[0], first[3]],
        "right": [first[1], first[4]],
        "banker": [first[2], first[5]],
    }
    # the Banque table of three decks deals the same seed's coup the same way
    table = BanqueTable(names=("A", "B", "C"), bankrolls=(50_000, 10_000, 10_000), seed=21)
    table.bid(0, 20_000)
    table.close_auction()
    table.stake(1, Half.LEFT, 1_000)
    table.stake(2, Half.RIGHT, 1_000)
    three = BanqueEnv()
    three.reset(seed=21)
    assert three.hands["left"] == table.hands[Half.LEFT]
    assert three.hands["right"] == table.hands[Half.RIGHT]
    assert three.hands["banker"] == table.banker_cards


def test_the_shoe_runs_on_through_the_series() -> None:
    env = BanqueEnv(decks=1)
    env.reset(seed=4)
    rng = random.Random(1)
    for _ in range(40):  # a deck holds a few coups: several shoes
        _play(env, rng)
        env.reset()
    assert env.shoe is not None and env.shoe.index >= 3 and env.shoe.seed == 4
