"""One engine: the same shoe and the same bets give the same coups and the same money at
the terminal's table (`baccara.table.engine.Table`) and at the web server.

Three players bet a fixed script at the server's table (its runner, its ledger, in
process on a simulated clock: `tests.support.tables`) for several rounds (two bets on
one spot, odd amounts whose commission rounds, Tie bets that push the main bets). The
server's fair shoes are then read back from its database and dealt at a terminal table
with the same bets: every coup and every balance must agree to the cent.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import sqlalchemy as sa
from tests.support.tables import house_table

from baccara.bets import BetKind
from baccara.db.ledger import Ledger, rounds
from baccara.db.shoes import ShoeBook
from baccara.fair import FairShoe
from baccara.server.tables.house import Timing
from baccara.server.wire import protocol as P
from baccara.shoe import ShoeSettings
from baccara.table.engine import Table, TableSettings
from baccara.variants import find_variant

WELCOME = 100_000
NAMES = ("ann", "bob", "cid")
# Each round: (player, kind, amount) in the order sent. Amounts chosen so that the 5%
# commission rounds (1_010 -> 50.5), and a split bet (two 1_010 on one spot) settles as
# one stake of 2_020 (101 commission), as the engine settles a seat's spot.
SCRIPT: list[list[tuple[str, str, int]]] = [
    [("ann", "banker", 1_010), ("ann", "banker", 1_010), ("bob", "player", 2_000)],
    [("ann", "tie", 1_000), ("bob", "banker", 1_330), ("cid", "player", 1_000)],
    [("cid", "banker", 3_030), ("bob", "player_pair", 1_000), ("ann", "player", 1_500)],
    [("ann", "banker", 1_010), ("bob", "banker", 1_010), ("cid", "tie", 1_000)],
    [("bob", "player", 5_000), ("cid", "banker", 2_470), ("cid", "banker", 1_010)],
    [("ann", "banker", 7_770), ("bob", "tie", 1_000), ("cid", "big", 1_000)],
]


def test_terminal_and_web_tables_agree() -> None:
    timing = Timing(bet_seconds=1.5, card_seconds=0.01, result_seconds=0.1)

    async def play() -> tuple[dict[int, str], dict[str, int], list[Any], list[Any]]:
        async with house_table(timing=timing, decks=1) as tables:
            players = {name: await tables.join(f"par_{name}", WELCOME) for name in NAMES}
            await tables.start()
            coups: dict[int, str] = {}  # round id -> coup, for the rounds we bet on
            first = players["ann"]
            runner = tables.runner
            while len(coups) < len(SCRIPT):
                await tables.clock.run_until(
                    lambda: runner.phase == "betting" and runner.round.id not in coups
                )
                round_id = int(runner.round.id)
                for name, kind, amount in SCRIPT[len(coups)]:
                    ack = await players[name].send(
                        P.BetMessage(
                            type="bet", bet_id=uuid.uuid4().hex[:16], kind=kind, amount=amount,
                            round=round_id,
                        )
                    )  # fmt: skip
                    assert ack is not None and ack["type"] == "bet_ack", ack
                await tables.clock.run_until(
                    lambda r=round_id: any(m["round"] == r for m in first.of("result"))
                )
                (result,) = (m for m in first.of("result") if m["round"] == round_id)
                coups[round_id] = result["coup"]
            await tables.stop()
            book = tables.ledger
            balances = {name: tables.balance(f"par_{name}") for name in NAMES}
            assert book.check_invariants() == []
            with book.database.connect() as conn:
                dealt = conn.execute(
                    sa.select(rounds.c.id, rounds.c.coup)
                    .where(rounds.c.table_id == "t1", rounds.c.phase == "settled")
                    .order_by(rounds.c.number)
                ).all()
            return coups, balances, _shoes(book, "t1"), list(dealt)

    web_coups, web_balances, shoes, dealt = asyncio.run(play())

    # The terminal's table: the same shoes, the same bets, seats with the welcome stack.
    variant = find_variant("punto-banco")
    table = Table(variant=variant, settings=TableSettings(seats=7, shoe=ShoeSettings(decks=1)))
    seats = {name: table.seat(player=name, stack=WELCOME).seat for name in ("ann", "bob", "cid")}
    terminal_coups: dict[int, str] = {}
    script = iter(SCRIPT)
    shoe_cards = iter(shoes)
    for round_id, web_coup in dealt:  # every round the server dealt, bets or none
        if table.phase.value == "shoe_change":
            table.change_shoe(next(shoe_cards))
        if round_id in web_coups:
            for name, kind, amount in next(script):
                table.place_bet(seats[name], BetKind(kind), amount)
        coup = table.deal().coup.notation()
        assert coup == web_coup
        if round_id in web_coups:
            terminal_coups[round_id] = coup
        table.settle()
        if len(terminal_coups) == len(SCRIPT):
            break
    assert terminal_coups == web_coups
    assert {name: table.stack(seat) for name, seat in seats.items()} == web_balances
    assert any(balance != WELCOME for balance in web_balances.values())


def _shoes(book: Ledger, table_id: str) -> list[Any]:
    """The card order of every shoe the server dealt at ``table_id``, oldest first."""
    store = ShoeBook(book, table_id)
    cards: list[Any] = []
    for record in reversed(store.records()):
        fair = FairShoe(
            server_seed=record["server_seed"],
            rules=record["rules"],
            client_seeds=record["client_seeds"],
            sealed=True,
        )
        cards.append(fair.shoe().cards)
    found = store.unfinished()
    if found is not None:
        cards.append(found[1].shoe().cards)
    return cards
