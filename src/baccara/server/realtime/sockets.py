"""The WebSocket connection: one JSON object per message (`baccara.server.wire.protocol`).

Client to server::

    {"type": "join", "table": "t1", "since": 41}      # since: last event seq seen (optional)
    {"type": "bet", "bet_id": "c-17", "kind": "banker", "amount": 2500, "round": 88}
    {"type": "seed", "seed": "my lucky string"}        # client seed for the next shoe
    {"type": "squeeze", "side": "player", "peel": 0.4} # a squeezer bends the cards (1: turned)
    {"type": "ping"}

At a players' table (Chemin de Fer, Baccarat Banque)::

    {"type": "sit", "buy_in": 50000}                   # chips from the wallet; play from the next shoe
    {"type": "act", "action": "banco",                 # or open_bank/stake with "amount", pass_bank,
     "shoe": 12, "coup": 3, "decision": 17}            # keep_bank, draw, stand, banker_draw, banker_stand
                                                       # (each act names the decision it answers,
                                                       # as the state shows it: turns.py)
    {"type": "act", "action": "bid", "amount": 5000}   # Banque: bid for the bank; retire gives it up
    {"type": "act", "action": "stake", "amount": 500, "tableau": "L"}  # Banque: on a tableau
    {"type": "leave"}                                  # the chips go back to the wallet
    {"type": "seed", "seed": "..."}                    # every seated player's seed shuffles the shoe

and the table's state comes as ``chemin`` or ``banque`` events (who plays, chips, the
bank or the auction, whose turn, the choices and the deadline, the cards face up, the
news), each player's own hands privately as ``chemin_hand`` or ``banque_hand``.

Server to client: ``snapshot`` (the whole table, on join), the table's events
(``round_open``, ``bets`` (the layout, a few times a second), ``no_more_bets``, ``card``, ``result``, ``shoe``,
``shoe_end``, ``seat``, ``notice``, ``squeeze`` (at squeeze tables: a hand's cards
face down, its squeezer, ``ends_at``; no card values); each with ``seq``), ``peel``
(a squeezer's hand, relayed live, not logged; the values once the corner shows), and private messages
(``bet_ack``, ``payout``, ``error`` with a ``code`` and a ``message``, ``pong``).
After a reconnect with ``since``, the events missed are replayed after the
snapshot, marked ``"missed": true`` (`baccara.server.tables.base.missed_events`: bounded, so a small
``join`` never makes the server send megabytes). Joins are rate limited per player
(`ServerConfig.joins_per_second`).

A table another process runs (several processes on one PostgreSQL) is played the same
way: the player's messages are forwarded to its process and answered from there
(`baccara.server.cluster.relay`); while a table passes to another process (its own died), a
message gets ``table_moving`` and nothing is done.

The connection needs a session cookie, and a browser's ``Origin`` must match the
host (or be listed in the server's allowed origins). One account holds at most
`ServerConfig.sockets_per_player` sockets at once; the next is closed (1008).
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from baccara.db.betting import BetError
from baccara.db.signals import cancel_and_wait
from baccara.server.infra.edge import origin_allowed
from baccara.server.infra.metrics import Metrics
from baccara.server.state import ServerState
from baccara.server.tables.audience import END, Listener
from baccara.server.tables.dispatch import answer
from baccara.server.wire.protocol import (
    BetAck,
    BetMessage,
    ErrorMessage,
    JoinMessage,
    PingMessage,
    Pong,
    ProtocolError,
    read_client,
)

__all__ = ["origin_allowed", "serve_socket"]

log = logging.getLogger("baccara.server")


class Connection:
    """One client's connection: who, and the table joined."""

    def __init__(self, state: ServerState, listener: Listener) -> None:
        self.state = state
        self.listener = listener
        self.table: str | None = None

    def leave(self) -> None:
        """Leave the table joined (the process running it hears, if it is elsewhere)."""
        hall, table, user = self.state.hall, self.table, self.listener.user
        if table is None:
            return
        audience = hall.audiences.get(table)
        if audience is not None:
            audience.discard(self.listener)
        if hall.remote(table) and hall.cluster is not None and user is not None:
            hall.cluster.gone(table, user.name)
        self.table = None

    async def join(self, message: JoinMessage) -> BaseModel | None:
        """Join a table, here or elsewhere: its state and what was missed."""
        hall, listener = self.state.hall, self.listener
        audience = hall.audience(message.table)
        if audience is None:
            return ErrorMessage(code="unknown_table", message=f"unknown table {message.table!r}")
        self.leave()
        self.table = message.table
        runner = hall.runner(message.table)
        if runner is not None:
            for text in await runner.join(listener.user, message.since):
                listener.send_text(text)
            audience.add(listener)
            return None
        await hall.join_elsewhere(audience, listener, message.since)
        return None

    async def handle(self, text: str, received: float = 0.0) -> BaseModel | None:
        """The answer to one message (received at ``received``, on the server's clock: a
        bet's answer forwarded from another process is counted here)."""
        try:
            message = read_client(text)
        except ProtocolError as error:
            return ErrorMessage(code=error.code, message=str(error), bet_id=error.bet_id)
        user, state = self.listener.user, self.state
        assert user is not None
        if isinstance(message, PingMessage):
            return Pong(server_time=state.clock.now())
        if isinstance(message, JoinMessage):
            if not state.join_limiter.allow(user.name):
                return ErrorMessage(code="rate_limited", message="too many joins: wait a moment")
            return await self.join(message)
        if self.table is None:
            return ErrorMessage(code="not_joined", message="join a table first")
        runner = state.hall.runner(self.table)
        if runner is not None:
            reply = await answer(runner, user, message, state.bet_limiter)
            if isinstance(reply, BetAck) and not reply.duplicate:  # the player's other tabs
                runner.audience.echo(user.name, reply, besides=self.listener)
            return reply
        for forwarded in await state.hall.forward(self.table, user, text):
            self.listener.send_text(forwarded)
            if isinstance(message, BetMessage):
                state.metrics.bet_answer_text(forwarded, state.clock.now() - received)
        return None


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
    held = state.sockets.get(user.name, 0)
    if held >= state.config.sockets_per_player:  # one account cannot hold sockets without end
        await socket.close(code=1008, reason="too many connections")
        return
    state.sockets[user.name] = held + 1
    metrics = state.metrics
    metrics.open_sockets.inc()
    listener = Listener(user)
    connection = Connection(state, listener)
    sender = asyncio.create_task(_send_loop(socket, listener))
    watched = state.watch.add(user, partial(_revoked, socket, listener))
    try:
        while True:
            try:
                text = await _receive(socket, state.config.idle_seconds)
            except TimeoutError:  # the page pings; a silent client is closed (and may reconnect)
                idle = f"idle: no message for {state.config.idle_seconds:g} s"
                await socket.close(code=1001, reason=idle)
                break
            received = state.clock.now()
            if not state.message_limiter.allow(user.name):
                refusal = ErrorMessage(
                    code="rate_limited",
                    message="too many messages: slow down",
                    bet_id=_bet_id(text),  # a bet is answered with its id, even here
                )
                listener.send(refusal)
                _count_bet(metrics, refusal, received, state)
                continue
            if text is None:
                listener.send(
                    ErrorMessage(
                        code="bad_message", message="send text frames: one JSON object each"
                    )
                )
                continue
            reply = await connection.handle(text, received)
            if reply is not None:
                listener.send(reply)
                _count_bet(metrics, reply, received, state)
            if listener.dropped:
                break
    except WebSocketDisconnect:
        pass
    finally:
        metrics.open_sockets.dec()
        state.watch.discard(watched)
        connection.leave()
        left = state.sockets.get(user.name, 1) - 1
        if left > 0:
            state.sockets[user.name] = left
        else:
            state.sockets.pop(user.name, None)
        await cancel_and_wait(sender)


def _count_bet(metrics: Metrics, reply: BaseModel, received: float, state: ServerState) -> None:
    """A bet's answer in the figures: its acknowledgement with the time since its message
    came, or its refusal's code (any other answer: nothing)."""
    if isinstance(reply, BetAck):
        metrics.bet_acked(state.clock.now() - received, duplicate=reply.duplicate)
    elif isinstance(reply, ErrorMessage) and reply.bet_id is not None:
        metrics.bet_refused(reply.code)


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


async def _revoked(socket: WebSocket, listener: Listener, why: BetError) -> None:
    """The session ended (`baccara.server.infra.revocation`): say why, then close."""
    listener.end(ErrorMessage(code=why.code, message=str(why)))
    if listener.dropped:  # too far behind to be told: closed at once
        await socket.close(code=1008, reason=why.code)


async def _send_loop(socket: WebSocket, listener: Listener) -> None:
    while (text := await listener.queue.get()) != END:
        await socket.send_text(text)
    await socket.close(code=1008, reason="session ended")  # revoked
