"""The ledger's statements, built once: a batch of bets or a round's write compiles
nothing new (their lists are bound parameters: an expanding ``IN`` on SQLite, ``= ANY``
of one array on PostgreSQL, `baccara.db.books.among`).
"""

from __future__ import annotations

import sqlalchemy as sa

from baccara.db.books import among
from baccara.db.schema import RoundPhase, bets, rounds, settlements

__all__ = [
    "CLOSE_ROUND",
    "FINISH_ROUND",
    "INSERT_BETS",
    "INSERT_ROUND",
    "INSERT_SETTLEMENT",
    "ROUND",
    "ROUNDS",
    "ROUNDS_SHARED",
    "ROUND_BETS",
    "SETTLE_BETS",
    "STORED_BETS",
]

# A batch of bets (the players' locks: `baccara.db.gate.lock_wallets`): the bets already
# stored under the batch's ids, its rounds (PostgreSQL: locked shared, so none closes
# meanwhile).
STORED_BETS = {
    pg: sa.select(bets).where(
        among(bets.c.account_id, "accounts", postgres=pg),
        among(bets.c.bet_id, "ids", postgres=pg),
    )
    for pg in (False, True)
}
ROUNDS = sa.select(rounds.c.id, rounds.c.phase, rounds.c.escrow_id).where(
    among(rounds.c.id, "ids", postgres=False)
)
ROUNDS_SHARED = (
    sa.select(rounds.c.id, rounds.c.phase, rounds.c.escrow_id)
    .where(among(rounds.c.id, "ids", postgres=True))
    .with_for_update(read=True)
)
INSERT_BETS = bets.insert()
# ...and of the rounds: open, close, settle
ROUND = sa.select(rounds).where(rounds.c.id == sa.bindparam("id"))
ROUND_BETS = sa.select(bets).where(bets.c.round_id == sa.bindparam("id")).order_by(bets.c.id)
INSERT_ROUND = rounds.insert()
CLOSE_ROUND = (
    rounds.update()
    .where(rounds.c.id == sa.bindparam("round"), rounds.c.phase == RoundPhase.OPEN)
    .values(phase=RoundPhase.CLOSED)
)
INSERT_SETTLEMENT = settlements.insert()
SETTLE_BETS = (
    bets.update()
    .where(bets.c.id.in_(sa.bindparam("bet_ids", expanding=True)), bets.c.status == "placed")
    .values(status="settled", returned=sa.bindparam("back"))
)
FINISH_ROUND = (
    rounds.update()
    .where(rounds.c.id == sa.bindparam("round"))
    .values(phase=sa.bindparam("new_phase"), coup=sa.bindparam("new_coup"))
)
