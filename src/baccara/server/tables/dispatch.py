"""What a table this process runs answers to a player's message, wherever the player
is connected: here (`baccara.server.realtime.sockets`) or on another process of the cluster
(`baccara.server.cluster.relay`, which forwards the message to the table's process). A
message the table's kind does not take is refused first, with ``wrong_table``; the
table answers through its contract (`baccara.server.tables.contract.Runner`); a refusal
becomes an ``error`` that changed nothing, and nothing else reaches the player as a
traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging

from pydantic import BaseModel

from baccara.db.auth import User
from baccara.db.ledger import BetError
from baccara.server.infra.throttle import RateLimiter
from baccara.server.tables.contract import Runner, TableMessage
from baccara.server.tables.make import table_kind
from baccara.server.tables.refusal import Refused
from baccara.server.wire.protocol import BetMessage, ErrorMessage

__all__ = ["answer", "first_seq", "moving"]

log = logging.getLogger("baccara.server")


def moving(table: str, bet_id: str | None = None) -> ErrorMessage:
    """The answer while a table passes to another process: nothing was done, ask again
    (the page sends its unanswered bets again with the next snapshot)."""
    return ErrorMessage(
        code="table_moving",
        message=f"table {table} is moving to another server: nothing was done, try again",
        bet_id=bet_id,
    )


def first_seq(texts: list[str]) -> int:
    """The ``seq`` of a join's first answer (the table's state; 0 if none).

    >>> first_seq(['{"type":"snapshot","seq":41}', '{"seq":42}']), first_seq([])
    (41, 0)
    """
    with contextlib.suppress(ValueError, IndexError, AttributeError, TypeError):
        return int(json.loads(texts[0]).get("seq") or 0)
    return 0


async def answer(
    runner: Runner, user: User, message: TableMessage, bets: RateLimiter
) -> BaseModel | None:
    """The answer to one message (not a join) at a table this process runs: an
    acknowledgement, an ``error`` (nothing changed), or None. A message the table's kind
    does not take (`baccara.server.tables.make.TableKind.takes`) is refused here as
    ``wrong_table``, before the table sees it; ``bets`` limits each player's bets a
    second."""
    bet_id = message.bet_id if isinstance(message, BetMessage) else None
    kind = table_kind(runner.variant)
    if not kind.accepts(message):
        takes = ", ".join(kind.message_types)
        return ErrorMessage(
            code="wrong_table",
            message=f"a {kind.family.label} table does not take {message.type}: it takes {takes}",
            bet_id=bet_id,
        )
    if bet_id is not None and not bets.allow(user.name):
        return ErrorMessage(code="rate_limited", message="too many bets: slow down", bet_id=bet_id)
    try:
        return await runner.handle(user, message)
    except (BetError, Refused) as error:
        return ErrorMessage(code=error.code, message=str(error), bet_id=bet_id)
    except Exception:  # never a traceback for the player, never the connection dropped
        log.exception("a %s message failed", message.type)
        return ErrorMessage(
            code="server_error",
            message="the server could not do that now: try again",
            bet_id=bet_id,
        )
