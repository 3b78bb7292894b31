"""The WebSocket connection: one JSON object per message (`baccara.server.protocol`).

Client to server::

    {"type": "join", "table": "t1", "since": 41}      # since: last event seq seen (optional)
    {"type": "bet", "bet_id": "c-17", "kind": "banker", "amount": 2500, "round": 88}
    {"type": "seed", "seed": "my lucky string"}        # client seed for the next shoe
    {"type": "squeeze", "side": "player", "peel": 0.4} # a squeezer bends the cards (1: turned)
    {"type": "ping"}

At a players' table (Chemin de Fer, Baccarat Banque)::

    {"type": "sit", "buy_in": 50000}                   # chips from the wallet; play from the next shoe
    {"type": "act", "action": "banco"}                 # or open_bank/stake with "amount", pass_bank,
                                                       # keep_bank, draw, stand, banker_draw, banker_stand
    {"type": "act", "action": "bid", "amount": 5000}   # Banque: bid for the bank; retire gives it up
    {"type": "act", "action": "stake", "amount": 500, "tableau": "L"}  # Banque: on a tableau
    {"type": "leave"}                                  # the chips go back to the wallet
    {"type": "seed", "seed": "..."}                    # every seated player's seed shuffles the shoe

and the table's state comes as ``chemin`` or ``banque`` events (who plays, chips, the
bank or the auction, whose turn, the choices and the deadline, the cards face up, the
news), each player's own hands privately as ``chemin_hand`` or ``banque_hand``.

Server to client: ``snapshot`` (the whole table, on join), the table's events
(``round_open``, ``bets`` (the layout, a few times a second), ``no_more_bets``, ``card``, ``result``, ``shoe``,
``shoe_end``, ``seat``, ``notice``, ``squeeze`` (at squeeze tables: the first cards
face down, their squeezers, ``ends_at``; no card values); each with ``seq``), ``peel``
(a squeezer's hand, relayed live, not logged), and private messages
(``bet_ack``, ``payout``, ``error`` with a ``code`` and a ``message``, ``pong``).
After a reconnect with ``since``, the events missed are replayed after the
snapshot, marked ``"missed": true``: at most `MAX_REPLAY` of them and `MAX_REPLAY_BYTES`,
and only when every one is still kept; otherwise the snapshot alone is the table's
state (a small ``join`` never makes the server send megabytes). Joins are rate limited
per player (`ServerConfig.joins_per_second`).

The connection needs a session cookie, and a browser's ``Origin`` must match the
host (or be listed in the server's allowed origins).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from baccara.db.ledger import BetError
from baccara.fair import FairError
from baccara.server import protocol as P
from baccara.server import views
from baccara.server.auth import User
from baccara.server.edge import origin_allowed
from baccara.server.players import PlayersRunner
from baccara.server.protocol import (
    ActMessage,
    BetMessage,
    ErrorMessage,
    JoinMessage,
    LeaveMessage,
    PingMessage,
    Pong,
    ProtocolError,
    SeedAck,
    SeedMessage,
    SitMessage,
    SqueezeMessage,
    read_client,
)
from baccara.server.runner import Listener, TableRunner

if TYPE_CHECKING:
    from baccara.server.app import ServerState

__all__ = ["MAX_REPLAY", "MAX_REPLAY_BYTES", "missed_events", "origin_allowed", "serve_socket"]

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


async def serve_socket(socket: WebSocket, state: ServerState) -> None:
    """Run one client connection until it closes."""
    origin = socket.headers.get("origin")
    if not origin_allowed(origin, socket.headers.get("host"), state.config.allowed_origins):
        await socket.close(code=1008, reason="origin not allowed")
        return
    token = socket.cookies.get(state.cookie_name)
    user = await state.run(state.auth.user_for_token, token)
    if user is None:
        await socket.close(code=1008, reason="log in first")
        return
    await socket.accept()
    listener = Listener(user)
    runner: Runner | None = None
    sender = asyncio.create_task(_send_loop(socket, listener))
    try:
        while True:
            try:
                text = await _receive(socket, state.config.idle_seconds)
            except TimeoutError:  # the page pings; a silent client is closed (and may reconnect)
                idle = f"idle: no message for {state.config.idle_seconds:g} s"
                await socket.close(code=1001, reason=idle)
                break
            if not state.message_limiter.allow(user.name):
                listener.send(
                    ErrorMessage(
                        code="rate_limited",
                        message="too many messages: slow down",
                        bet_id=_bet_id(text),  # a bet is answered with its id, even here
                    )
                )
                continue
            if text is None:
                listener.send(
                    ErrorMessage(
                        code="bad_message", message="send text frames: one JSON object each"
                    )
                )
                continue
            reply = await _handle(text, state, listener, runner)
            if isinstance(reply, TableRunner | PlayersRunner):
                runner = reply
            elif reply is not None:
                listener.send(reply)
            if listener.dropped:
                break
    except WebSocketDisconnect:
        pass
    finally:
        if runner is not None:
            runner.listeners.discard(listener)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _receive(socket: WebSocket, idle: float) -> str | None:
    """The next text frame, or None for a binary one; `WebSocketDisconnect` when the
    client has gone, `TimeoutError` after ``idle`` seconds without a message."""
    message = await asyncio.wait_for(socket.receive(), idle)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _bet_id(text: str | None) -> str | None:
    """The bet id of a message, if it is a bet with a usable one."""
    if text is None:
        return None
    try:
        return getattr(read_client(text), "bet_id", None)
    except ProtocolError as error:
        return error.bet_id


async def _send_loop(socket: WebSocket, listener: Listener) -> None:
    while True:
        await socket.send_text(await listener.queue.get())


async def _handle(
    text: str, state: ServerState, listener: Listener, runner: Runner | None
) -> BaseModel | TableRunner | PlayersRunner[Any] | None:
    try:
        message = read_client(text)
    except ProtocolError as error:
        return ErrorMessage(code=error.code, message=str(error), bet_id=error.bet_id)
    user = listener.user
    assert user is not None
    if isinstance(message, PingMessage):
        return Pong(server_time=time.time())
    if isinstance(message, JoinMessage):
        if not state.join_limiter.allow(user.name):
            return ErrorMessage(code="rate_limited", message="too many joins: wait a moment")
        return await _join(message, state, listener, runner)
    if runner is None:
        return ErrorMessage(code="not_joined", message="join a table first")
    try:
        if isinstance(runner, PlayersRunner):
            return await _players_table(message, runner, user)
        return await _house_table(message, state, runner, user)
    except BetError as error:
        return ErrorMessage(
            code=error.code, message=str(error), bet_id=getattr(message, "bet_id", None)
        )
    except Exception:  # never a traceback for the player, never the connection dropped
        log.exception("a %s message failed", message.type)
        return ErrorMessage(
            code="server_error",
            message="the server could not do that now: try again",
            bet_id=getattr(message, "bet_id", None),
        )


async def _join(
    message: JoinMessage, state: ServerState, listener: Listener, runner: Runner | None
) -> BaseModel | TableRunner | PlayersRunner[Any]:
    target: Runner | None = state.tables.get(message.table) or state.players_tables.get(
        message.table
    )
    if target is None:
        return ErrorMessage(code="unknown_table", message=f"unknown table {message.table!r}")
    if runner is not None:
        runner.listeners.discard(listener)
    user = listener.user
    if isinstance(target, PlayersRunner):
        snapshot: P.Snapshot | P.PlayersState = target.view()
    else:
        snapshot = await views.snapshot(target, user)
    listener.send(snapshot)
    if message.since is not None:
        for event in missed_events(target.events, message.since, snapshot.seq):
            listener.send_text(event[:-1] + ',"missed":true}')
    target.listeners.add(listener)
    if isinstance(target, TableRunner) and user is not None:
        target.take_seat(user)
    if isinstance(target, PlayersRunner) and user is not None:
        hand = target.hands().get(user.name)  # back at the felt with a hand in play
        if hand is not None:
            listener.send(hand)
    return target


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
            await runner.db_write(runner.add_client_seed, message.seed)
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
        await runner.act(user, message.action, message.amount, message.tableau)
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
