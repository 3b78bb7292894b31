"""The WebSocket connection: one JSON object per message (`baccara.server.protocol`).

Client to server::

    {"type": "join", "table": "t1", "since": 41}      # since: last event seq seen (optional)
    {"type": "bet", "bet_id": "c-17", "kind": "banker", "amount": 2500, "round": 88}
    {"type": "seed", "seed": "my lucky string"}        # client seed for the next shoe
    {"type": "squeeze", "side": "player", "peel": 0.4} # a squeezer bends the cards (1: turned)
    {"type": "ping"}

Server to client: ``snapshot`` (the whole table, on join), the table's events
(``round_open``, ``bets`` (the layout, a few times a second), ``no_more_bets``, ``card``, ``result``, ``shoe``,
``shoe_end``, ``seat``, ``notice``, ``squeeze`` (at squeeze tables: the first cards
face down, their squeezers, ``ends_at``; no card values); each with ``seq``), ``peel``
(a squeezer's hand, relayed live, not logged), and private messages
(``bet_ack``, ``payout``, ``error`` with a ``code`` and a ``message``, ``pong``).
After a reconnect with ``since``, the events missed are replayed after the
snapshot, marked ``"missed": true``.

The connection needs a session cookie, and a browser's ``Origin`` must match the
host (or be listed in the server's allowed origins).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from baccara.db.ledger import BetError
from baccara.fair import FairError
from baccara.server import views
from baccara.server.protocol import (
    BetMessage,
    ErrorMessage,
    JoinMessage,
    PingMessage,
    Pong,
    ProtocolError,
    SeedAck,
    SqueezeMessage,
    read_client,
)
from baccara.server.runner import Listener, TableRunner

if TYPE_CHECKING:
    from baccara.server.app import ServerState

__all__ = ["origin_allowed", "serve_socket"]


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's Origin must name this host (or an allowed origin); no Origin is a
    non-browser client, which the session cookie alone authenticates.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
    True
    >>> origin_allowed("http://evil.example", "127.0.0.1:8000", ())
    False
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    return urlsplit(origin).netloc == (host or "")


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
    runner: TableRunner | None = None
    sender = asyncio.create_task(_send_loop(socket, listener))
    try:
        while True:
            text = await socket.receive_text()
            if not state.message_limiter.allow(user.name):
                listener.send(
                    ErrorMessage(code="rate_limited", message="too many messages: slow down")
                )
                continue
            reply = await _handle(text, state, listener, runner)
            if isinstance(reply, TableRunner):
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


async def _send_loop(socket: WebSocket, listener: Listener) -> None:
    while True:
        await socket.send_text(await listener.queue.get())


async def _handle(
    text: str, state: ServerState, listener: Listener, runner: TableRunner | None
) -> BaseModel | TableRunner | None:
    try:
        message = read_client(text)
    except ProtocolError as error:
        return ErrorMessage(code=error.code, message=str(error), bet_id=error.bet_id)
    user = listener.user
    assert user is not None
    if isinstance(message, PingMessage):
        return Pong(server_time=time.time())
    if isinstance(message, JoinMessage):
        target = state.tables.get(message.table)
        if target is None:
            return ErrorMessage(code="unknown_table", message=f"unknown table {message.table!r}")
        if runner is not None:
            runner.listeners.discard(listener)
        snapshot = await views.snapshot(target, user)
        listener.send(snapshot)
        if message.since is not None:
            for seq, event in list(target.events):
                if message.since < seq <= snapshot.seq:
                    listener.send_text(event[:-1] + ',"missed":true}')
        target.listeners.add(listener)
        target.take_seat(user)
        return target
    if runner is None:
        return ErrorMessage(code="not_joined", message="join a table first")
    if isinstance(message, BetMessage):
        if not state.bet_limiter.allow(user.name):
            return ErrorMessage(
                code="rate_limited", message="too many bets: slow down", bet_id=message.bet_id
            )
        try:
            return await runner.place_bet(user, message)
        except BetError as error:
            return ErrorMessage(code=error.code, message=str(error), bet_id=message.bet_id)
    if isinstance(message, SqueezeMessage):
        try:
            runner.peel(user, message.side, message.peel)
        except BetError as error:
            return ErrorMessage(code=error.code, message=str(error))
        return None
    try:
        await runner.db_write(runner.add_client_seed, message.seed)
    except (FairError, BetError) as error:
        return ErrorMessage(code=getattr(error, "code", "bad_seed"), message=str(error))
    return SeedAck(table=runner.id, seed=message.seed)
