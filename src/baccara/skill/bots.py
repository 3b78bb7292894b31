"""Bots for the players' games: the equilibrium's play at the free choices, plain sense
with the money (a bank a quarter of the chips, a stake a third of the bank, banco now
and then), so that one person can play with a full table.

>>> import random
>>> from baccara.cards import parse_cards
>>> from baccara.shoe import Shoe
>>> table = CheminTable(names=("Ann", "Bot"), bankrolls=(10_000,) * 2,
...     shoe=Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9))
>>> chemin_bot_action(table, random.Random(1))
Action(act=<Act.OPEN_BANK: 'open_bank'>, seat=0, amount=2500, tableau=None, reason='')
"""

from __future__ import annotations

import random

from baccara.skill.actions import Act, Action
from baccara.skill.advice import banker_advice, punter_advice
from baccara.skill.chemin import CheminTable, Phase

__all__ = ["chemin_bot_action"]


def _round_down(amount: int, step: int = 100) -> int:
    return amount - amount % step


def chemin_bot_action(table: CheminTable, rng: random.Random) -> Action:
    """What a bot at ``table`` does now (it must be the bot's turn: `CheminTable.actor`)."""
    seat = table.actor
    if seat is None:
        raise ValueError("nobody has to decide now")
    chips = table.bankrolls[seat]
    if table.phase is Phase.BANK:
        amount = max(table.minimum, _round_down(chips // 4))
        if amount > chips:
            return Action(act=Act.PASS_BANK, seat=seat)
        return Action(act=Act.OPEN_BANK, seat=seat, amount=amount)
    if table.phase is Phase.AFTER:
        keep = table.bank <= chips and rng.random() < 0.6
        return Action(act=Act.KEEP_BANK if keep else Act.PASS_BANK, seat=seat)
    if table.phase is Phase.STAKES:
        if table.can_banco(seat) and rng.random() < 0.25:
            return Action(act=Act.BANCO, seat=seat)
        open_part = table.bank - table.covered
        amount = min(chips, open_part, _round_down(max(table.bank // 3, table.minimum)))
        return Action(act=Act.STAKE, seat=seat, amount=max(0, amount))
    if table.phase is Phase.PUNTER:
        draws = rng.random() < punter_advice(table).draw
        return Action(act=Act.DRAW if draws else Act.STAND, seat=seat)
    draws = rng.random() < banker_advice(table).draw
    return Action(act=Act.BANKER_DRAW if draws else Act.BANKER_STAND, seat=seat)
