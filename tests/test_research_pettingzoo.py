"""Chemin de Fer as a PettingZoo AEC environment (issue 26): PettingZoo's own API and seed
tests, the masks as the tableau has them, rewards in units staked, the project's shoe.

PettingZoo's API test warns of what every masked game of its own classic set does too
(a ``Dict`` observation holding the ``action_mask``, not an array) and of the agents'
names (``punter`` and ``banker``, not ``player_0``): those warnings are expected here.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from baccara.cards import hand_total
from baccara.research.pz_banque import BanqueEnv
from baccara.research.pz_chemin import DRAW, STAND, ChemindeFerEnv
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux

EXPECTED = (
    "ignore:Environment has not defined a render:UserWarning",  # nothing to draw
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:We recommend agents to be named:UserWarning",
)


@pytest.mark.filterwarnings(*EXPECTED)
def test_pettingzoo_s_api_and_seed_tests_pass() -> None:
    api_test(ChemindeFerEnv(decks=1), num_cycles=300, verbose_progress=False)
    seed_test(lambda: ChemindeFerEnv(decks=1, commission=True), num_cycles=100)


def _play(env: ChemindeFerEnv, rng: random.Random) -> tuple[dict[str, float], list[list[int]]]:
    """One coup with random legal actions: the rewards and each mask seen."""
    masks, rewards = [], {}
    for agent in env.agent_iter():
        _, reward, done, _, _ = env.last()
        if done:
            rewards[agent] = float(reward)
            env.step(None)
            continue
        mask = [int(x) for x in env.observe(agent)["action_mask"]]
        masks.append(mask)
        env.step(rng.choice([a for a in (STAND, DRAW) if mask[a]]))
    return rewards, masks


def test_masks_follow_the_tableau_and_rewards_are_in_units_staked() -> None:
    rng = random.Random(5)
    for commission, banker in ((False, "free"), (True, "tableau")):
        env = ChemindeFerEnv(decks=1, commission=commission, banker=banker)
        env.reset(seed=9)
        for _ in range(300):
            punter_hand, banker_hand = env.hands.values()
            two = hand_total(punter_hand[:2]), hand_total(banker_hand[:2])
            rewards, masks = _play(env, rng)
            punter, bank = hand_total(punter_hand), hand_total(banker_hand)
            if any(total >= 8 for total in two):  # a natural: both stand
                assert masks == [[1, 0], [1, 0]] and (len(punter_hand), len(banker_hand)) == (2, 2)
            else:
                cell = tableaux.punter_cell(two[0])
                expected = {tableaux.Cell.FREE: [1, 1], tableaux.Cell.DRAW: [0, 1]}
                assert masks[0] == expected.get(cell, [1, 0])
                third = punter_hand[2].points if len(punter_hand) == 3 else None
                bound = tableaux.banker_cell(two[1], third)
                if banker == "free" or bound is tableaux.Cell.FREE:
                    assert masks[1] == [1, 1]
                else:
                    assert masks[1] == [
                        int(bound is tableaux.Cell.STAND),
                        int(bound is tableaux.Cell.DRAW),
                    ]
            win = 1.0 - (0.05 if commission else 0.0)
            want = (-1.0, win) if bank > punter else (1.0, -1.0) if punter > bank else (0.0, 0.0)
            assert (rewards["punter"], rewards["banker"]) == want
            env.reset()


def test_a_seed_deals_the_project_s_shoe() -> None:
    env = ChemindeFerEnv(decks=2)
    env.reset(seed=21)
    shoe = Shoe.shuffled(ShoeSettings(decks=2), seed=21)
    shoe.burn()
    first = [shoe.draw() for _ in range(4)]
    punter_hand, banker_hand = env.hands.values()
    assert punter_hand == [first[0], first[2]] and banker_hand == [first[1], first[3]]


@pytest.mark.parametrize("game", ["chemin-de-fer", "banque"])
def test_an_action_the_mask_refuses_is_refused(game: str) -> None:
    """Both games' environments (their shared base) refuse what the mask refuses."""
    env = ChemindeFerEnv(decks=1) if game == "chemin-de-fer" else BanqueEnv(decks=1)
    first = env.possible_agents[0]
    env.reset(seed=2)
    for _ in range(100):
        mask = env.observe(first)["action_mask"]
        if not all(mask):
            refused = STAND if not mask[STAND] else DRAW
            with pytest.raises(ValueError, match="not allowed"):
                env.step(refused)
            return
        env.reset()
    raise AssertionError("no bound punter in 100 coups")
