"""What a table this process runs answers to a player's message, wherever the player
is connected: here (`baccara.server.ws`) or on another process of the cluster
(`baccara.server.cluster`, which forwards the message to the table's process).

A join is answered with the table's state (a house table's ``snapshot``, a players'
table's ``chemin`` or ``banque`` state), then the events missed since ``since`` (at
most `MAX_REPLAY` events and `MAX_REPLAY_BYTES`, and only when every one is still
kept: a small ``join`` never makes the server send megabytes), then a players' table's
private hand of the player, if any.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from baccara.db.ledger import BetError
from baccara.fair import FairError
from baccara.server import protocol as P
from baccara.server import views
from baccara.server.auth import User
from baccara.server.players import PlayersRunner
from baccara.server.protocol import (
    ActMessage,
    BetMessage,
    ErrorMessage,
    LeaveMessage,
    SeedAck,
    SeedMessage,
    SitMessage,
    SqueezeMessage,
)
from baccara.server.runner import TableRunner

if TYPE_CHECKING:
    from baccara.server.app import ServerState

__all__ = [
    "MAX_REPLAY",
    "MAX_REPLAY_BYTES",
    "Runner",
    "answer",
    "first_seq",
    "join_texts",
    "missed_events",
    "moving",
]

Runner = TableRunner | PlayersRunner[Any]
log = logging.getLogger("baccara.server")
MAX_REPLAY = 200
"""The most events a ``join`` with ``since`` replays (more missed: the snapshot alone)."""
MAX_REPLAY_BYTES = 64 * 1024
"""The most bytes of events a ``join`` replays."""


def missed_events(events: Iterable[tuple[int, str]], since: int, upto: int) -> list[str]:
    """The events after ``since`` up to ``upto`` (the snapshot's ``seq``) to replay: all
    of them, or none when one is no longer kept or they pass `MAX_REPLAY` events or
    `MAX_REPLAY_BYTES`.

    >>> kept = [(seq, "x" * 100) for seq in range(5, 11)]
    >>> len(missed_events(kept, 7, 10)), len(missed_events(kept, 4, 10)), missed_events(kept, 3, 10)
    (3, 6, [])
    >>> missed_events([(n, "x" * 1000) for n in range(1, 100)], 0, 99)
    []
    """
    if upto <= since:
        return []
    kept = list(events)
    if not kept or kept[0][0] > since + 1:
        return []  # some of the events missed are no longer kept
    picked = [text for seq, text in kept if since < seq <= upto]
    if len(picked) > MAX_REPLAY or sum(len(t.encode()) for t in picked) > MAX_REPLAY_BYTES:
        return []
    return picked


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


async def join_texts(runner: Runner, user: User | None, since: int | None) -> list[str]:
    """A join's answer: the table's state, the events missed, the player's hand. At a
    house table the player is seated first (or given a place behind the seats), so the
    snapshot says where."""
    if isinstance(runner, PlayersRunner):
        first: P.Snapshot | P.PlayersState = runner.view()
    else:
        if user is not None:
            runner.take_seat(user)
        first = await views.snapshot(runner, user)
    texts = [first.model_dump_json()]
    if since is not None:
        texts += [
            e[:-1] + ',"missed":true}' for e in missed_events(runner.events, since, first.seq)
        ]
    if isinstance(runner, PlayersRunner) and user is not None:
        hand = runner.hands().get(user.name)  # back at the felt with a hand in play
        if hand is not None:
            texts.append(hand.model_dump_json())
    return texts


async def answer(state: ServerState, runner: Runner, user: User, message: Any) -> BaseModel | None:
    """The answer to one message (not a join) at a table this process runs: an
    acknowledgement, an ``error`` (nothing changed), or None."""
    bet_id = getattr(message, "bet_id", None)
    try:
        if isinstance(runner, PlayersRunner):
            return await _players_table(message, runner, user)
        return await _house_table(message, state, runner, user)
    except BetError as error:
        return ErrorMessage(code=error.code, message=str(error), bet_id=bet_id)
    except Exception:  # never a traceback for the player, never the connection dropped
        log.exception("a %s message failed", message.type)
        return ErrorMessage(
            code="server_error",
            message="the server could not do that now: try again",
            bet_id=bet_id,
        )


async def _house_table(
    message: Any, state: ServerState, runner: TableRunner, user: User
) -> BaseModel | None:
    if isinstance(message, BetMessage):
        if not state.bet_limiter.allow(user.name):
            return ErrorMessage(
                code="rate_limited", message="too many bets: slow down", bet_id=message.bet_id
            )
        return await runner.place_bet(user, message)
    if isinstance(message, SqueezeMessage):
        runner.peel(user, message.side, message.peel)
        return None
    if isinstance(message, SeedMessage):
        try:
            await runner.db_write(runner.add_client_seed, user, message.seed)
        except FairError as error:
            return ErrorMessage(code="bad_seed", message=str(error))
        return SeedAck(table=runner.id, seed=message.seed)
    return ErrorMessage(
        code="wrong_table", message=f"{message.type} is for the players' games, not this table"
    )


async def _players_table(message: Any, runner: PlayersRunner[Any], user: User) -> BaseModel | None:
    if isinstance(message, SitMessage):
        await runner.sit(user, message.buy_in)
    elif isinstance(message, LeaveMessage):
        await runner.leave(user)
    elif isinstance(message, ActMessage):
        await runner.act(user, message)
    elif isinstance(message, SeedMessage):
        runner.add_client_seed(user, message.seed)
        return SeedAck(table=runner.id, seed=message.seed)
    else:
        return ErrorMessage(
            code="wrong_table",
            message=f"{message.type} is for the house-banked games, not a players' table",
            bet_id=getattr(message, "bet_id", None),
        )
    return None
