"""The WebSocket protocol: one JSON object per message.

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
import json
import math
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect

from baccara.db.ledger import BetError
from baccara.fair import FairError
from baccara.server.runner import Listener, TableRunner

if TYPE_CHECKING:
    from baccara.server.app import ServerState

__all__ = ["origin_allowed", "serve_socket"]

MAX_MESSAGE = 4096


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


def _error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}


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
                listener.send(_error("rate_limited", "too many messages: slow down"))
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
) -> dict[str, Any] | TableRunner | None:
    if len(text) > MAX_MESSAGE:
        return _error("bad_message", f"message too long: at most {MAX_MESSAGE} characters")
    try:
        message = json.loads(text, parse_constant=lambda name: math.nan)
    except ValueError:
        return _error("bad_message", "malformed message: expected one JSON object")
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return _error("bad_message", "malformed message: expected an object with a 'type'")
    kind = message["type"]
    user = listener.user
    assert user is not None
    if kind == "ping":
        return {"type": "pong", "server_time": time.time()}
    if kind == "join":
        target = state.tables.get(str(message.get("table")))
        if target is None:
            return _error("unknown_table", f"unknown table {message.get('table')!r}")
        if runner is not None:
            runner.listeners.discard(listener)
        snapshot = await target.snapshot(user)
        listener.send(snapshot)
        since = message.get("since")
        if isinstance(since, int) and not isinstance(since, bool):
            for seq, text in list(target.events):
                if since < seq <= snapshot["seq"]:
                    listener.send_text(text[:-1] + ',"missed":true}')
        target.listeners.add(listener)
        target.take_seat(user)
        return target
    if runner is None:
        return _error("not_joined", "join a table first")
    if kind == "bet":
        bet_id = message.get("bet_id")
        if not state.bet_limiter.allow(user.name):
            return _error("rate_limited", "too many bets: slow down", bet_id=bet_id)
        try:
            return await runner.place_bet(user, message)
        except BetError as error:
            return _error(error.code, str(error), bet_id=bet_id)
    if kind == "squeeze":
        try:
            runner.peel(user, message.get("side"), message.get("peel"))
        except BetError as error:
            return _error(error.code, str(error))
        return None
    if kind == "seed":
        seed = message.get("seed")
        try:
            if not isinstance(seed, str):
                raise FairError("bad client seed: a string is required")
            await runner.db_write(runner.add_client_seed, seed)
        except (FairError, BetError) as error:
            return _error(getattr(error, "code", "bad_seed"), str(error))
        return {"type": "seed_ack", "table": runner.id, "seed": seed}
    return _error("bad_message", f"unknown message type {kind!r}")
