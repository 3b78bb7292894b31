"""Seats that come and go during a shoe of a players' game (`PlayersTable.leave`,
`add_chips`): between coups a seat leaves with its chips or adds chips at once; with
money in the coup being played it waits for the coup's end. Played at random against
the bots' play: no money appears or disappears, a seat gone never acts again, the shoe
ends when fewer than two seats have chips, and the actions replay to the same table."""

from __future__ import annotations

import random

import pytest

from baccara.skill.actions import Act, Action
from baccara.skill.banque import BanqueTable
from baccara.skill.bots import banque_bot_action, chemin_bot_action
from baccara.skill.chemin import CheminTable
from baccara.skill.players import GameError

Table = CheminTable | BanqueTable


def _in_play(table: Table) -> int:
    """The money on the felt: the bank and the stakes."""
    if isinstance(table, CheminTable):
        stakes = (
            sum(table.stakes.values()) if table.phase.value in ("stakes", "punter", "banker") else 0
        )
    else:
        stakes = sum(sum(s.values()) for s in table.stakes.values())
    return table.bank + stakes


def _left_with(events: tuple[object, ...]) -> int:
    """The chips the seat that left took (its event, before the shoe's end's)."""
    return next(-e.amount for e in events if type(e).__name__ == "SeatChanged")


def _play(table: Table, rng: random.Random) -> tuple[int, int, list[int]]:
    """Play the shoe out at random, seats leaving and adding chips between coups; the
    chips added, the chips taken away, and the order the seats left in."""
    added = taken = 0
    order: list[int] = []
    for _ in range(5_000):
        if table.phase.value == "over":
            break
        seat = rng.randrange(table.seats)
        roll = rng.random()
        if roll < 0.03 or roll < 0.06:
            act = Act.LEAVE if roll < 0.03 else Act.ADD_CHIPS
            amount = 0 if act is Act.LEAVE else rng.choice([500, 2_000])
            if not table.can_leave(seat):
                with pytest.raises(GameError):
                    table.apply(Action(act=act, seat=seat, amount=amount))
                continue
            events = table.apply(Action(act=act, seat=seat, amount=amount))
            if act is Act.LEAVE:
                taken += _left_with(events)
                order.append(seat)
                assert table.bankrolls[seat] == 0
            else:
                added += amount
            continue
        if isinstance(table, CheminTable):
            action = chemin_bot_action(table, rng)
        elif table.actor is not None:
            action = banque_bot_action(table, rng)
        elif table.bids:  # Banque's auction: one bid, then it closes
            action = table.default_action()
        else:
            bids = [x for s in range(table.seats) for x in table.legal_actions(s)]
            if not bids:
                break  # nobody can hold the bank
            action = rng.choice(bids).action(bids[0].low)
        assert action is not None
        assert action.seat is None or action.seat not in table.gone  # a seat gone never acts
        table.apply(action)
    return added, taken, order


@pytest.mark.parametrize("game", ["chemin", "banque"])
@pytest.mark.parametrize("seed", range(40))
def test_seats_leave_and_add_chips_between_coups(game: str, seed: int) -> None:
    rng = random.Random(seed)
    seats = 2 + seed % 4
    bankrolls = [rng.choice([2_000, 10_000, 30_000]) for _ in range(seats)]
    names = [f"s{i}" for i in range(seats)]
    kind = CheminTable if game == "chemin" else BanqueTable
    table = kind(names=names, bankrolls=bankrolls, seed=seed, minimum=100)
    added, taken, order = _play(table, rng)
    # no money appears or disappears
    assert sum(table.bankrolls) + _in_play(table) + table.house + taken == sum(bankrolls) + added
    # the gone hold nothing and are never the banker again
    assert all(table.bankrolls[s] == 0 for s in table.gone) and set(order) == table.gone
    with_chips = [s for s in range(seats) if s not in table.gone and table.bankrolls[s] > 0]
    if len(with_chips) < 2 and order:
        assert table.phase.value == "over"
    # the same actions on the same shoe give the same table
    again = kind(names=names, bankrolls=bankrolls, seed=seed, minimum=100)
    for action in table.actions:
        again.apply(action)
    assert again.bankrolls == table.bankrolls and again.house == table.house
    assert again.gone == table.gone and again.phase == table.phase


def test_a_seat_with_money_in_the_coup_waits_for_its_end() -> None:
    table = CheminTable(names=("A", "B", "C"), bankrolls=(5_000,) * 3, seed=3)
    table.open_bank(1_000)
    table.stake(1, 400)
    for seat in (0, 1):  # the banker and a punter who staked
        assert not table.can_leave(seat)
        with pytest.raises(GameError, match="money in the coup"):
            table.apply(Action(act=Act.LEAVE, seat=seat))
    assert table.can_leave(2)  # C has not spoken: he leaves, declining
    texts = [e.text for e in table.apply(Action(act=Act.LEAVE, seat=2))]
    assert texts[0] == "C declines." and texts[-1] == "C leaves the table with 50.00."
    assert 2 in table.gone and table.phase.value != "stakes"
