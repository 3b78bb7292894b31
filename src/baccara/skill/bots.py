"""Bots for the players' games: the equilibrium's play at the free choices, plain sense
with the money (a bank a twentieth of the chips, kept while it is at most a quarter of
them, a stake a third of the bank, banco now and then and banco suivi always), so that
one person can play a whole shoe with a full table, at the terminal or online.

At a Banque auction a bot bids up to a budget reasoned from the solver: the bank earns
the equilibrium's value (about 0.87% of every stake) on each coup, so a bot risks the
share of its bankroll that the coups left in the shoe would earn at that rate (about a
sixth of it on a fresh three-deck shoe), give or take a quarter; a person who bids more
takes the bank.

>>> import random
>>> from baccara.cards import parse_cards
>>> from baccara.shoe import Shoe
>>> table = CheminTable(names=("Ann", "Bot"), bankrolls=(10_000,) * 2,
...     shoe=Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9))
>>> chemin_bot_action(table, random.Random(1))
Action(act=<Act.OPEN_BANK: 'open_bank'>, seat=0, amount=500, tableau=None, reason='')
"""

from __future__ import annotations

import random

from baccara.skill import banque as bq
from baccara.skill.actions import Act, Action, Legal
from baccara.skill.advice import (
    banker_advice,
    banque_banker_advice,
    banque_punter_advice,
    banque_solution,
    punter_advice,
)
from baccara.skill.chemin import CheminTable

__all__ = ["banque_bot_action", "banque_bot_bid", "banque_bot_budget", "chemin_bot_action"]

_BANQUE_CARDS_PER_COUP = 8  # six dealt and, on average, about two third cards


def _round_down(amount: int, step: int = 100) -> int:
    return amount - amount % step


def _legal(table: CheminTable | bq.BanqueTable) -> tuple[int, dict[Act, Legal]]:
    """The seat to act and what it may do (`legal_actions`), by act."""
    seat = table.actor
    if seat is None:
        raise ValueError("nobody has to decide now")
    return seat, {legal.act: legal for legal in table.legal_actions(seat)}


def chemin_bot_action(table: CheminTable, rng: random.Random) -> Action:
    """What a bot at ``table`` does now (it must be the bot's turn: `CheminTable.actor`)."""
    seat, legal = _legal(table)
    chips = table.bankrolls[seat]
    if Act.KEEP_BANK in legal:  # it won: it keeps a bank that is a modest share of its means
        keep = table.bank <= chips // 4
        return legal[Act.KEEP_BANK if keep else Act.PASS_BANK].action()
    if Act.PASS_BANK in legal:  # the shoe is its: a bank of a twentieth of its chips
        opening = legal.get(Act.OPEN_BANK)
        if opening is None:
            return legal[Act.PASS_BANK].action()
        return opening.action(max(opening.low, _round_down(chips // 20)))
    if Act.STAKE in legal:
        if Act.BANCO in legal and (seat == table.suivi or rng.random() < 0.25):
            return legal[Act.BANCO].action()  # banco suivi: the last banco's loser
        stake = legal[Act.STAKE]
        return stake.action(
            max(0, min(stake.high, _round_down(max(table.bank // 3, table.minimum))))
        )
    if Act.DRAW in legal or Act.STAND in legal:  # in a bound cell the advice is the rule
        return _draw_or_stand(rng.random() < punter_advice(table).draw, seat, legal)
    return _draw_or_stand(rng.random() < banker_advice(table).draw, seat, legal)


def _draw_or_stand(draws: bool, seat: int, legal: dict[Act, Legal]) -> Action:
    """The punter's draw or stand, or the banker's, whichever ``legal`` has."""
    punter = Act.DRAW in legal or Act.STAND in legal
    acts = (Act.DRAW, Act.STAND) if punter else (Act.BANKER_DRAW, Act.BANKER_STAND)
    return Action(act=acts[0] if draws else acts[1], seat=seat)


def banque_bot_budget(table: bq.BanqueTable, seat: int, rng: random.Random) -> int:
    """The most a bot bids for the bank: the solver's value per coup times the coups
    left, as a share of its bankroll, give or take a quarter (drawn from ``rng``).

    >>> table = bq.BanqueTable(names=("A", "B"), bankrolls=(100_000, 100_000), seed=1)
    >>> 10_000 < banque_bot_budget(table, 0, random.Random(1)) < 25_000
    True
    """
    coups_left = table.shoe.remaining / _BANQUE_CARDS_PER_COUP
    share = min(0.5, banque_solution().value * coups_left) * (0.75 + 0.5 * rng.random())
    budget = min(table.bankrolls[seat], int(table.bankrolls[seat] * share))
    return _round_down(budget)  # whole units, as people bid


def banque_bot_bid(table: bq.BanqueTable, seat: int, budget: int) -> int:
    """What a bot with ``budget`` bids now at the auction, or 0 to pass: half its budget
    to open, then a step above the best bid while the budget lasts.

    >>> table = bq.BanqueTable(names=("A", "B"), bankrolls=(100_000, 100_000), seed=1)
    >>> banque_bot_bid(table, 0, 20_000)
    10000
    >>> _ = table.bid(1, 19_950); banque_bot_bid(table, 0, 20_000)
    0
    """
    best = max(table.bids.values(), default=None)
    if best is not None and table.bids.get(seat) == best:
        return 0  # it holds the best bid
    if best is None:
        amount = max(table.minimum, budget // 2)
    else:
        amount = best + max(table.minimum, _round_down(budget // 10))
    bid = next((x for x in table.legal_actions(seat) if x.act is Act.BID), None)
    return amount if amount <= budget and bid is not None and bid.low <= amount <= bid.high else 0


def banque_bot_action(table: bq.BanqueTable, rng: random.Random) -> Action:
    """What a bot at ``table`` does now, once the bank is sold (`BanqueTable.actor`):
    a stake of a tenth of the bank on a tableau drawn at random, and the equilibrium's
    play on 5 and as the banker."""
    seat, legal = _legal(table)
    if Act.STAKE in legal:
        stake = legal[Act.STAKE]
        amount = min(stake.high, max(table.minimum, _round_down(table.bank // 10)))
        return stake.action(max(0, amount), rng.choice(stake.tableaux))
    if Act.DRAW in legal or Act.STAND in legal:  # in a bound cell the advice is the rule
        return _draw_or_stand(rng.random() < banque_punter_advice(table).draw, seat, legal)
    return _draw_or_stand(rng.random() < banque_banker_advice(table).draw, seat, legal)
