"""What a players' table reads and writes on the writer thread, touching only the
database (`baccara.server.tables.players`): its bots' chips, what a crash left (the players
holding chips, the shoe in play rebuilt with its decisions) and its finished shoes'
records, rebuilt from their seeds and decisions.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from baccara.db.ledger import wallet_account
from baccara.fair import FairShoe
from baccara.server.tables.contract import Record
from baccara.server.tables.game import BOT_BUY_IN, Engine, PlayersPhase, Recovered
from baccara.skill import records
from baccara.skill.game_rules import Seating

if TYPE_CHECKING:
    from baccara.server.tables.players import PlayersRunner

__all__ = ["fund_bots", "read_recovery", "rebuild", "shoe_records"]


def fund_bots(runner: PlayersRunner[Engine, PlayersPhase]) -> None:
    """Fund the table's bots (their chips come from the outside world, as a player's
    welcome does); on the writer thread, touching only the database."""
    bots = runner.seats.bots
    stacks = runner.chips.stacks(bots)
    for name in bots:
        short = BOT_BUY_IN - stacks[name]
        if short > BOT_BUY_IN - runner.minimum:  # below the table's minimum: top up
            wallet = runner.ledger.create_account(wallet_account(name))
            runner.ledger.deposit(wallet, short, ref=f"bot:{runner.id}:{name}:{uuid.uuid4()}")
            runner.chips.buy_in(name, short)


def read_recovery(runner: PlayersRunner[Engine, PlayersPhase]) -> Recovered:
    """On the writer thread: who holds chips here, and the shoe a crash left, rebuilt
    with its decisions (a shoe never dealt is set aside)."""
    fund_bots(runner)
    found = Recovered(players=runner.chips.holders())
    unfinished = runner.shoes.unfinished()
    if unfinished is None:
        return found
    shoe_id, fair = unfinished
    seats = runner.chips.seats(shoe_id)
    if seats is None or not fair.sealed:
        runner.shoes.update(shoe_id, fair, finished=True)
        found.notes.append("the shoe had not started: a new one is made")
        return found
    table = rebuild(runner, fair, shoe_id)
    taken = runner.taken_in(shoe_id)
    found.players = [s["name"] for i, s in enumerate(seats) if i not in table.gone] + found.players
    found.shoe = (shoe_id, fair, table, taken)
    found.notes.append(f"shoe resumed after {len(taken)} decisions")
    return found


def rebuild(
    runner: PlayersRunner[Engine, PlayersPhase], fair: FairShoe | None, shoe_id: int | None
) -> Engine:
    """Shoe ``shoe_id`` dealt again from its seeds with every decision stored."""
    assert fair is not None and shoe_id is not None
    seats = runner.chips.seats(shoe_id)
    if seats is None:
        raise ValueError(f"shoe {shoe_id} was never dealt")
    names, chips = [s["name"] for s in seats], [s["chips"] for s in seats]
    minimum = runner.chips.minimum(shoe_id) or runner.minimum  # its own: sealed with it
    seating = Seating(names=tuple(names), chips=tuple(chips), minimum=minimum)
    actions = [action for action, _ in runner.chips.actions(shoe_id)]
    table = records.replayed(fair, seating, actions)
    assert isinstance(table, runner.game.engine)
    return table


def shoe_records(runner: PlayersRunner[Engine, PlayersPhase], limit: int = 20) -> list[Record]:
    """The finished shoes' records, every decision in them, for ``baccara verify``
    (rebuilt from the database, so they outlive a restart), newest first."""
    out = []
    for shoe_id, fair in runner.shoes.finished(limit):
        if runner.chips.seats(shoe_id) is None:
            continue  # set aside before it was dealt
        table = rebuild(runner, fair, shoe_id)
        if records.table_coups(table):
            out.append(records.game_record(fair, table))
    return out
