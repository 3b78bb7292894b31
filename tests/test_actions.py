"""Actions as values and the house's default for a silent player, at every decision point.

The default is the house's fixed rule (issue 15, "decisions with a clock"): the punter
draws on 0-4, stands on 6-7 and on 5 takes the house's default (draw); the banker plays
the tableau's rule in a free cell; a silent Chemin de Fer banker passes the bank; in
Banque a silent bidder does not bid and a silent banker keeps the bank.
"""

from __future__ import annotations

import pytest

from baccara.cards import parse_cards
from baccara.shoe import Shoe
from baccara.skill import tableaux
from baccara.skill.actions import Act, Action, ActionError
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import BankerDecided as BanqueBankerDecided
from baccara.skill.banque_events import BankerLeft, BanqueError, Half, StakePlaced
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import BankerDecided, BankPassed, CheminError, Phase, PunterDecided

FILLER = "9s 9d 9c 9h Ks Kd " * 20


def chemin(cards: str, *, house: str = "french", free_banker: bool = False) -> CheminTable:
    shoe = Shoe.stacked(parse_cards(cards + " " + FILLER))
    return CheminTable(
        names=("Ann", "Bob", "Cy"),
        bankrolls=(10_000,) * 3,
        shoe=shoe,
        tableau=house,
        free_banker=free_banker,
    )


def test_chemin_a_silent_banker_passes_the_bank_before_setting_it() -> None:
    table = chemin("")
    action = table.default_action()
    assert action == Action(act=Act.PASS_BANK, seat=0, reason=action.reason if action else "")
    assert action is not None and "passes the bank" in action.reason
    (event,) = table.apply(action)
    assert isinstance(event, BankPassed) and event.reason == "declined" and table.banker == 1


def test_chemin_a_silent_punter_declines_to_stake() -> None:
    table = chemin("")
    table.open_bank(1_000)
    action = table.default_action()
    assert action is not None and (action.act, action.seat, action.amount) == (Act.STAKE, 1, 0)
    table.apply(action)
    assert table.to_act == 2 and table.covered == 0


@pytest.mark.parametrize("house", ["french", "scarne"])
def test_chemin_a_silent_punter_draws_on_five(house: str) -> None:
    table = chemin("2h Kc 3h Qd", house=house)
    table.open_bank(1_000)
    table.banco(1)
    assert table.phase is Phase.PUNTER and table.punter_total == 5
    action = table.default_action()
    assert action is not None and (action.act, action.seat) == (Act.DRAW, 1)
    assert tableaux.House.parse(house).punter_draws_on_five
    event = table.apply(action)[0]
    assert isinstance(event, PunterDecided) and event.draws and event.free


@pytest.mark.parametrize(
    ("cards", "cell", "act"),
    [
        ("3h 2h 4h 4d", (6, None), Act.BANKER_STAND),
        ("2h Ah 2d 2c 9h", (3, 9), Act.BANKER_DRAW),
        ("2h 2d 2c 2s Ah", (4, 1), Act.BANKER_STAND),
        ("2h 2d 2c 3s 4h", (5, 4), Act.BANKER_DRAW),
    ],
)
def test_chemin_a_silent_banker_plays_the_rule_of_each_free_cell(
    cards: str, cell: tuple[int, int | None], act: Act
) -> None:
    table = chemin(cards)
    table.open_bank(1_000)
    table.banco(1)
    assert table.phase is Phase.BANKER and (table.banker_total, table.punter_third) == cell
    assert tableaux.banker_cell(*cell) is tableaux.Cell.FREE
    action = table.default_action()
    assert action is not None and (action.act, action.seat) == (act, 0)
    assert action.reason.startswith(f"the banker {act.word} on {cell[0]}")
    event = table.apply(action)[0]
    assert isinstance(event, BankerDecided) and event.free and event.seat == 0
    assert event.draws is (act is Act.BANKER_DRAW)


def test_chemin_a_free_banker_defaults_to_the_bound_play_of_the_tableau() -> None:
    table = chemin("2h 2d 2c 5s Ah", free_banker=True)  # banker 7 against an ace: stands
    table.open_bank(1_000)
    table.banco(1)
    action = table.default_action()
    assert action is not None and action.act is Act.BANKER_STAND


def test_chemin_a_silent_winning_banker_passes_the_bank() -> None:
    table = chemin("Kh 9h Qh Kd")  # the banker's natural 9
    table.open_bank(1_000)
    table.banco(1)
    assert table.phase is Phase.AFTER
    action = table.default_action()
    assert action is not None and (action.act, action.seat) == (Act.PASS_BANK, 0)
    (event,) = table.apply(action)
    assert isinstance(event, BankPassed) and event.reason == "passed"


def test_chemin_apply_refuses_an_action_out_of_turn_and_changes_nothing() -> None:
    table = chemin("")
    with pytest.raises(CheminError, match="not Bob's turn"):
        table.apply(Action(act=Act.OPEN_BANK, seat=1, amount=1_000))
    with pytest.raises(CheminError, match="not an action of Chemin de Fer"):
        table.apply(Action(act=Act.BID, seat=0, amount=1_000))
    assert table.phase is Phase.BANK and table.bank == 0 and not table.log
    table.apply(Action(act=Act.OPEN_BANK, seat=0, amount=1_000))
    with pytest.raises(CheminError, match="not Ann's turn"):
        table.apply(Action(act=Act.BANCO, seat=0))
    assert type(table.apply(Action(act=Act.BANCO, seat=1))[0]).__name__ == "BancoCalled"


def test_chemin_default_is_none_when_the_shoe_is_over() -> None:
    table = CheminTable(names=("A", "B"), bankrolls=(0, 0), seed=1)
    assert table.phase is Phase.OVER and table.default_action() is None and table.actor is None


# -- Baccarat Banque ------------------------------------------------------------------

BANQUE_DEAL = "2h 2d 2c 3h 2s 2h 5h Ah"  # L 2,3 (5); R 2,2 (4); banker 2,2 (4); L3 5; R3 A


def banque(cards: str = BANQUE_DEAL) -> BanqueTable:
    shoe = Shoe.stacked(parse_cards(cards + " " + FILLER))
    return BanqueTable(names=("Ann", "Bob", "Cy"), bankrolls=(50_000, 10_000, 10_000), shoe=shoe)


def test_banque_a_silent_bidder_does_not_bid_and_the_auction_closes_on_the_best() -> None:
    table = banque()
    assert table.default_action() is None and table.actor is None  # nobody bid yet
    table.apply(Action(act=Act.BID, seat=1, amount=5_000))
    table.apply(Action(act=Act.BID, seat=0, amount=20_000))
    action = table.default_action()
    assert action is not None and (action.act, action.seat) == (Act.CLOSE_AUCTION, None)
    table.apply(action)
    assert table.banker == 0 and table.bank == 20_000 and table.phase is BanquePhase.STAKES


def test_banque_a_silent_punter_sits_out_and_a_silent_banker_keeps_the_bank() -> None:
    table = banque()
    table.bid(0, 20_000)
    table.close_auction()
    action = table.default_action()
    assert action is not None and (action.act, action.seat, action.amount) == (Act.STAKE, 1, 0)
    (event,) = table.apply(action)
    assert isinstance(event, StakePlaced) and event.amount == 0
    assert table.default_action() == Action(
        act=Act.STAKE, seat=2, tableau="L", reason="a silent punter sits out"
    )
    table.apply(Action(act=Act.STAKE, seat=2, amount=0, tableau="L"))
    assert table.banker == 0 and table.phase is BanquePhase.STAKES  # the bank is kept
    with pytest.raises(BanqueError, match="Bob does not hold the bank"):
        table.apply(Action(act=Act.RETIRE, seat=1))
    assert isinstance(table.apply(Action(act=Act.RETIRE, seat=0))[0], BankerLeft)


@pytest.mark.parametrize(
    ("left", "right", "against", "act"),
    [
        (1_000, 2_000, "right", Act.BANKER_STAND),  # 4 against an ace stands
        (2_000, 1_000, "left", Act.BANKER_DRAW),  # 4 against a 5 draws
        (1_000, 1_000, "left", Act.BANKER_DRAW),  # a tie: the left tableau
    ],
)
def test_banque_silent_punter_draws_on_five_and_silent_banker_plays_the_rule(
    left: int, right: int, against: str, act: Act
) -> None:
    table = banque()
    table.bid(0, 20_000)
    table.close_auction()
    table.apply(Action(act=Act.STAKE, seat=1, amount=left, tableau="L"))
    table.apply(Action(act=Act.STAKE, seat=2, amount=right, tableau="R"))
    assert table.live_half is Half.LEFT and table.actor == 1
    action = table.default_action()
    assert action is not None and (action.act, action.seat) == (Act.DRAW, 1)
    with pytest.raises(BanqueError, match="not seat 2's turn"):
        table.apply(Action(act=Act.STAND, seat=2))
    table.apply(action)
    assert table.phase is BanquePhase.BANKER and table.actor == 0
    banker = table.default_action()
    assert banker is not None and (banker.act, banker.seat) == (act, 0)
    assert banker.reason.endswith(f"against the {against} tableau")
    event = table.apply(banker)[0]
    assert isinstance(event, BanqueBankerDecided) and event.seat == 0


def test_banque_default_is_none_when_over() -> None:
    table = BanqueTable(names=("A", "B"), bankrolls=(5_000, 5_000), shoe=Shoe.stacked([]))
    assert table.phase is BanquePhase.OVER and table.default_action() is None


def test_actions_round_trip_and_bad_ones_are_refused() -> None:
    action = Action(act=Act.STAKE, seat=2, amount=500, tableau="R", reason="x")
    assert Action.parse(action.to_json()) == action
    for bad, message in [
        ({"act": "fold"}, "unknown act"),
        ({"act": "stake", "seat": "2"}, "bad action seat"),
        ({"act": "stake", "amount": 1.5}, "minor units"),
        ({"act": "stake", "tableau": "M"}, "L or R"),
    ]:
        with pytest.raises(ActionError, match=message):
            Action.parse(bad)
