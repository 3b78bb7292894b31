"""What a players' table says a seat may do and see (`baccara.skill.players`):
`legal_actions` and `observation` on Chemin de Fer and Baccarat Banque."""

from __future__ import annotations

import copy
import random

import pytest

from baccara.cards import parse_cards
from baccara.coup import Result
from baccara.shoe import Shoe
from baccara.skill.actions import SEAT_ACTS, Act, Action
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import BanqueError, Half
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.bots import (
    banque_bot_action,
    banque_bot_bid,
    banque_bot_budget,
    chemin_bot_action,
)
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import CheminError
from baccara.skill.chemin_events import Phase as CheminPhase
from baccara.skill.players import GameError, largest_stake, outcome

_TURN_ACTS = [act for act in Act if act is not Act.CLOSE_AUCTION and act not in SEAT_ACTS]
_WITH_AMOUNT = {Act.OPEN_BANK, Act.STAKE, Act.BID}


def _accepted(table: CheminTable | BanqueTable, action: Action) -> bool:
    trial = copy.deepcopy(table)
    try:
        trial.apply(action)
    except GameError:
        return False
    return True


def _candidates(table: CheminTable | BanqueTable) -> list[Action]:
    """Every seat's every act, with amounts at and around each legal range's ends."""
    amounts = {0, table.minimum - 1, table.bank + 1}
    for seat in range(table.seats):
        for legal in table.legal_actions(seat):
            amounts |= {legal.low - 1, legal.low, legal.high, legal.high + 1}
    out = []
    for seat in range(table.seats):
        for act in _TURN_ACTS:
            for amount in sorted(amounts) if act in _WITH_AMOUNT else [0]:
                for tableau in ("L", "R") if act is Act.STAKE else (None,):
                    out.append(Action(act=act, seat=seat, amount=amount, tableau=tableau))
    return out


def _check_legal(table: CheminTable | BanqueTable) -> None:
    """The engine takes an action exactly when a legal act of its seat allows it."""
    for action in _candidates(table):
        assert action.seat is not None
        allowed = any(legal.allows(action) for legal in table.legal_actions(action.seat))
        assert _accepted(table, action) == allowed, action


def _chemin_shoe(seed: int, punter_speaks: bool) -> CheminTable:
    rng = random.Random(seed)
    bankrolls = [rng.choice([300, 5_000, 20_000]) for _ in range(2 + seed % 3)]
    names = [f"s{i}" for i in range(len(bankrolls))]
    return CheminTable(names=names, bankrolls=bankrolls, seed=seed, punter_speaks=punter_speaks)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "speaks"), [(1, False), (2, True), (3, True)])
def test_chemin_takes_exactly_the_legal_actions(seed: int, speaks: bool, full_size: bool) -> None:
    """Sized down: every action tried at every third decision (``--slow``: every one)."""
    table, rng = _chemin_shoe(seed, speaks), random.Random(seed)
    seen_acts: set[Act] = set()
    while table.phase is not CheminPhase.OVER and len(table.actions) < 40:
        if full_size or len(table.actions) % 3 == 0:
            _check_legal(table)
        actor = table.actor
        assert actor is not None
        for seat in range(table.seats):  # nobody but the seat to act may do anything
            assert bool(table.legal_actions(seat)) == (seat == actor)
        seen_acts |= {legal.act for legal in table.legal_actions(actor)}
        table.apply(chemin_bot_action(table, rng))
    assert {Act.OPEN_BANK, Act.PASS_BANK, Act.STAKE, Act.BANCO} <= seen_acts


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "speaks"), [(1, True), (2, False), (3, True)])
def test_banque_takes_exactly_the_legal_actions(seed: int, speaks: bool, full_size: bool) -> None:
    """Sized down: every action tried at every third decision (``--slow``: every one)."""
    rng = random.Random(seed)
    bankrolls = [rng.choice([300, 5_000, 20_000]) for _ in range(2 + seed % 3)]
    names = [f"s{i}" for i in range(len(bankrolls))]
    table = BanqueTable(names=names, bankrolls=bankrolls, seed=seed, punter_speaks=speaks)
    budgets = {seat: banque_bot_budget(table, seat, rng) for seat in range(table.seats)}
    seen_acts: set[Act] = set()
    while table.phase is not BanquePhase.OVER and len(table.actions) < 40:
        if full_size or len(table.actions) % 3 == 0:
            _check_legal(table)
        for seat in range(table.seats):
            acts = {legal.act for legal in table.legal_actions(seat)}
            seen_acts |= acts
            if seat != table.actor:  # out of turn: a bid at the auction, the banker's retiring
                assert acts <= {Act.BID, Act.RETIRE}
            assert (Act.RETIRE in acts) == (seat == table.banker and table.can_retire())
        if table.phase is BanquePhase.AUCTION:
            bids = [(s, banque_bot_bid(table, s, b)) for s, b in budgets.items()]
            bid = next(((s, a) for s, a in bids if a), None)
            if bid is not None:
                table.apply(Action(act=Act.BID, seat=bid[0], amount=bid[1]))
            elif table.bids:
                table.close_auction()
            else:
                break
            continue
        table.apply(banque_bot_action(table, rng))
    assert {Act.BID, Act.STAKE, Act.RETIRE, Act.BANKER_DRAW} <= seen_acts


def test_chemin_legal_amounts() -> None:
    table = CheminTable(names=("Ann", "Bob", "Cy"), bankrolls=(5_000, 800, 9_000), seed=1)
    (opening, passing) = table.legal_actions(0)
    assert (opening.act, opening.low, opening.high) == (Act.OPEN_BANK, 100, 5_000)
    assert (passing.act, passing.low, passing.high) == (Act.PASS_BANK, 0, 0)
    table.open_bank(1_000)
    # Bob cannot cover the whole bank: no banco, a stake up to his 8.00
    assert [(x.act, x.low, x.high) for x in table.legal_actions(1)] == [(Act.STAKE, 0, 800)]
    table.stake(1, 600)
    # Cy may call banco, or cover what is left open of the bank
    assert [(x.act, x.high) for x in table.legal_actions(2)] == [(Act.STAKE, 400), (Act.BANCO, 0)]
    assert table.legal_actions(0) == table.legal_actions(1) == ()
    assert table.legal_actions(3) == table.legal_actions(-1) == ()  # no such seat


def test_banque_legal_amounts() -> None:
    table = BanqueTable(names=("Ann", "Bob", "Cy"), bankrolls=(5_000, 3_000, 90), seed=3)
    assert [(x.act, x.low, x.high) for x in table.legal_actions(1)] == [(Act.BID, 100, 3_000)]
    assert table.legal_actions(2) == ()  # 0.90 cannot make the smallest bid of 1.00
    table.bid(1, 2_000)
    assert [(x.low, x.high) for x in table.legal_actions(0)] == [(2_001, 5_000)]
    assert table.legal_actions(1)[0].low == 2_001  # the best bidder may raise his own bid
    assert table.observation().next_bid == 2_001
    table.close_auction()
    (stake,) = table.legal_actions(2)
    assert (stake.act, stake.high, stake.tableaux) == (Act.STAKE, 90, ("L", "R"))
    assert [x.act for x in table.legal_actions(1)] == [Act.RETIRE]
    table.stake(2, Half.RIGHT, 90)
    assert table.legal_actions(1) == ()  # a stake is on the felt: too late to retire
    assert table.legal_actions(0)[0].high == 2_000 - 90


def test_the_punters_hidden_total_is_his_alone() -> None:
    shoe = Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9)  # punter 2h 3d, banker 5s Qc
    table = CheminTable(names=("Ann", "Bob"), bankrolls=(10_000,) * 2, shoe=shoe, free_banker=True)
    table.open_bank(1_000)
    table.banco(1)
    punter, banker, spectator = table.observation(1), table.observation(0), table.observation()
    assert punter.totals == {"P": 5} and banker.totals == {"B": 5}
    assert [str(c) for c in punter.hands["P"]] == ["2h", "3d"]
    assert "P" not in banker.hands and spectator.hands == {}
    assert spectator.shown == {"P": (), "B": ()} and spectator.hidden == {"P": 2, "B": 2}
    assert (punter.punter, punter.banker, punter.actor) == (1, 0, 1)
    assert [x.act for x in punter.legal] == [Act.DRAW, Act.STAND] and banker.legal == ()
    table.draw()  # the punter's third card is dealt face up; the free banker is asked
    assert [str(c) for c in table.observation().shown["P"]] == ["9c"]
    assert table.observation(0).totals == {"B": 5} and table.observation(1).totals == {"P": 4}


def test_a_punter_who_speaks_is_offered_both_but_may_only_what_binds() -> None:
    shoe = Shoe.stacked(parse_cards("2h 5s Ac Qc 9c 4d") * 9)  # the punter has 3
    table = CheminTable(
        names=("Ann", "Bob"), bankrolls=(10_000,) * 2, shoe=shoe, punter_speaks=True
    )
    table.open_bank(1_000)
    table.banco(1)
    assert table.observation(1).totals == {"P": 3}
    assert table.observation().choices == (Act.DRAW, Act.STAND)  # nobody learns his 3
    assert [x.act for x in table.observation(1).legal] == [Act.DRAW]  # bound to draw
    with pytest.raises(CheminError):
        table.apply(Action(act=Act.STAND, seat=1))


def test_banque_hands_go_to_their_players() -> None:
    deal = parse_cards("2h 9d 5s 3d Kc Qc 4c 7h") * 8  # left 2h 3d, right 9d Kc, banker 5s Qc
    table = BanqueTable(
        names=("Ann", "Bob", "Cy"), bankrolls=(50_000, 10_000, 10_000), shoe=Shoe.stacked(deal)
    )
    table.bid(0, 20_000)
    table.close_auction()
    table.stake(1, Half.LEFT, 1_000)
    table.stake(2, Half.RIGHT, 2_000)
    bob, cy, ann = (table.observation(seat) for seat in (1, 2, 0))
    assert bob.totals == {"L": 5} and cy.totals == {"R": 9} and ann.totals == {"B": 5}
    assert bob.playing == {"L": 1, "R": 2} and bob.live is Half.LEFT
    public = table.observation()
    # the right natural is paid; the banker's cards stay down while the left chooses
    assert public.hands == {} and public.hidden == {"L": 2, "R": 0, "B": 2}
    assert [str(c) for c in public.shown["R"]] == ["9d", "Kc"]  # the natural shows at once
    assert public.stakes == {"L": ((1, 1_000),), "R": ((2, 2_000),)}
    assert [x.act for x in bob.legal] == [Act.DRAW, Act.STAND] and ann.legal == cy.legal == ()
    with pytest.raises(BanqueError):
        table.apply(Action(act=Act.DRAW, seat=2))
    table.draw()
    assert [x.act for x in table.observation(0).legal] == [Act.BANKER_DRAW, Act.BANKER_STAND]


def test_the_shared_rules() -> None:
    assert largest_stake({3: 500, 1: 900, 2: 900}) == 1  # the first placed on a tie
    assert largest_stake({}) is None
    assert [outcome(6, 5), outcome(0, 9), outcome(7, 7)] == [
        Result.PLAYER,
        Result.BANKER,
        Result.TIE,
    ]
    assert issubclass(CheminError, GameError) and issubclass(BanqueError, GameError)
