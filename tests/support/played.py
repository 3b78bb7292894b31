"""Whole players' shoes played through the engines and recorded, as the server does.

`play_chemin` and `play_banque` play a seeded shoe with three seats (scripted choices,
some left to the clock's default) on the engine its rules describe, shuffled with the
seats' seeds and sealed with their seating, and return the table and its record
(version 3): `tests/test_records.py` verifies them and `tests/test_records_tampering.py`
edits them as an attacker would.
"""

from __future__ import annotations

import random
from typing import Any

from baccara.skill.actions import Act, Action
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import Phase
from baccara.skill.game_rules import Seating, game_table
from baccara.skill.records import game_record, new_game_shoe, table_shoe
from baccara.variants import find_variant

__all__ = ["SEATING", "SEEDS", "play_banque", "play_chemin"]

SEEDS = ["ann: lucky 7", "bob", "cy-2026"]
SEATING = Seating(names=("Ann", "Bob", "Cy"), chips=(500_000,) * 3, minimum=100)


def play_chemin(
    seed: int = 10, *, sealed: bool = True, punter_speaks: bool = False
) -> tuple[CheminTable, dict[str, Any]]:
    """A whole shoe, three seats; scripted choices, some left to the clock's default.

    ``sealed=False``: a shoe as committed before the seating was sealed in the shuffle.
    ``punter_speaks``: as the online tables play, the punter answers in every coup.
    """
    variant = find_variant("chemin-de-fer")
    fair = new_game_shoe(variant, punter_speaks=punter_speaks, source=lambda n: bytes([seed]) * n)
    if not sealed:
        del fair.rules["record"]
    table = game_table(fair.rules, SEATING, table_shoe(fair, SEEDS, SEATING))
    assert isinstance(table, CheminTable)
    rng = random.Random(seed)
    while table.phase is not Phase.OVER:
        seat = table.actor
        assert seat is not None
        if rng.random() < 0.15:  # the player's clock ran out
            action = table.default_action()
            assert action is not None
            table.apply(action)
        elif table.phase is Phase.BANK:
            table.apply(Action(act=Act.OPEN_BANK, seat=seat, amount=1_000 * rng.randint(1, 5)))
        elif table.phase is Phase.AFTER:
            act = Act.PASS_BANK if rng.random() < 0.4 else Act.KEEP_BANK
            table.apply(Action(act=act, seat=seat))
        elif table.phase is Phase.STAKES:
            if rng.random() < 0.3 and table.can_banco(seat):
                table.apply(Action(act=Act.BANCO, seat=seat))
            else:
                amount = min(table.bank - table.covered, 100 * rng.randint(0, 20))
                table.apply(Action(act=Act.STAKE, seat=seat, amount=amount))
        elif table.phase is Phase.PUNTER:
            acts = ((Act.DRAW, table.can_draw()), (Act.STAND, table.can_stand()))
            table.apply(Action(act=rng.choice([a for a, can in acts if can]), seat=seat))
        else:
            table.apply(Action(act=rng.choice([Act.BANKER_DRAW, Act.BANKER_STAND]), seat=seat))
    return table, game_record(fair, table)


def play_banque(
    seed: int = 10, *, punter_speaks: bool = False
) -> tuple[BanqueTable, dict[str, Any]]:
    """A whole Banque shoe, three seats, the bank auctioned (and again if the banker retires)."""
    variant = find_variant("banque")
    fair = new_game_shoe(variant, punter_speaks=punter_speaks, source=lambda n: bytes([seed]) * n)
    table = game_table(fair.rules, SEATING, table_shoe(fair, SEEDS, SEATING))
    assert isinstance(table, BanqueTable)
    rng = random.Random(seed)
    while table.phase is not BanquePhase.OVER:
        if table.phase is BanquePhase.AUCTION:
            for bidder in rng.sample(range(3), 3):
                best = max(table.bids.values(), default=0)
                table.apply(Action(act=Act.BID, seat=bidder, amount=best + 10_000))
            table.apply(Action(act=Act.CLOSE_AUCTION, seat=None))
            continue
        seat = table.actor
        assert seat is not None
        if table.phase is BanquePhase.STAKES and table.can_retire() and rng.random() < 0.05:
            table.apply(Action(act=Act.RETIRE, seat=table.banker))
        elif table.phase is BanquePhase.STAKES:
            amount = min(table.bank - table.covered, 100 * rng.randint(1, 30))
            tableau = rng.choice(["L", "R"])
            table.apply(Action(act=Act.STAKE, seat=seat, amount=amount, tableau=tableau))
        elif rng.random() < 0.15:
            action = table.default_action()
            assert action is not None
            table.apply(action)
        elif table.phase is BanquePhase.PUNTER:
            acts = ((Act.DRAW, table.can_draw()), (Act.STAND, table.can_stand()))
            table.apply(Action(act=rng.choice([a for a, can in acts if can]), seat=seat))
        else:
            table.apply(Action(act=rng.choice([Act.BANKER_DRAW, Act.BANKER_STAND]), seat=seat))
    return table, game_record(fair, table)
