"""A small typed client for bots at ``baccara serve``, built from the wire's own models.

It logs in over HTTP, opens the table's WebSocket and speaks the protocol of
`baccara.server.wire`: every message it sends is a client model (validated before it
leaves), every message it gets back is parsed into the server's model (`Snapshot`,
`CheminState`, `BetAck`, ...). A decision names the one it answers from the state.

    async with Client("http://127.0.0.1:8000", "my_bot", "its password") as bot:
        await bot.login(register=True)
        state = await bot.join("c1")            # a CheminState
        await bot.sit(20_000)                   # 200.00 of chips
        while True:
            state = await bot.next(P.CheminState)
            if bot.asked(state):
                await bot.act(state, "banco" if "banco" in state.choices else state.choices[0])
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect

from baccara.server.wire import protocol as P

__all__ = ["Client", "ClientError"]

Model = TypeVar("Model", bound=BaseModel)


class ClientError(RuntimeError):
    """The server refused something (an HTTP error, or no answer in time)."""


class Client:
    """One player's session and socket at one table (see the module)."""

    def __init__(self, url: str, name: str, password: str) -> None:
        self.url, self.name, self.password = url.rstrip("/"), name, password
        self.token: str | None = None
        self.ws: ClientConnection | None = None
        self.seen: list[BaseModel] = []  # every message received, parsed
        self._answered: tuple[int, int, int] | None = None  # the last decision sent

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def login(self, *, register: bool = False) -> int:
        """Log in (or register first, ``register``); the wallet's balance in cents."""
        body = {"name": self.name, "password": self.password}
        async with httpx.AsyncClient(base_url=self.url, timeout=30) as http:
            reply = await http.post("/api/register" if register else "/api/login", json=body)
            if register and reply.status_code == 409:  # the name is taken: ours, perhaps
                reply = await http.post("/api/login", json=body)
        if reply.status_code != 200:
            raise ClientError(f"login refused ({reply.status_code}): {reply.text[:200]}")
        self.token = reply.cookies["baccara_session"]
        return int(reply.json()["balance"])

    async def join(self, table: str) -> BaseModel:
        """Open the socket and join ``table``: its state as the server first sends it."""
        if self.token is None:
            raise ClientError("log in first")
        ws_url = "ws" + self.url.removeprefix("http") + "/ws"
        self.ws = await connect(
            ws_url, additional_headers={"Cookie": f"baccara_session={self.token}"}
        )
        await self.send(P.JoinMessage(type="join", table=table))
        first: BaseModel = await self.next(P.Snapshot, P.CheminState, P.BanqueState)
        return first

    async def send(self, message: BaseModel) -> None:
        """Send one client message (a model of `baccara.server.wire.inbound`)."""
        if self.ws is None:
            raise ClientError("join a table first")
        await self.ws.send(message.model_dump_json(exclude_none=True))

    async def receive(self, timeout: float = 30.0) -> BaseModel:
        """The next server message, parsed into its model."""
        if self.ws is None:
            raise ClientError("join a table first")
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        found: BaseModel = P.SERVER.validate_json(text)
        self.seen.append(found)
        return found

    async def next(self, *kinds: type[Model], timeout: float = 30.0) -> Any:
        """The next message of one of these models (others are kept in ``seen``); an
        `ErrorMessage` that comes first is raised as `ClientError`."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            found = await self.receive(left)
            if isinstance(found, kinds):
                return found
            if isinstance(found, P.ErrorMessage) and P.ErrorMessage not in kinds:
                raise ClientError(f"{found.code}: {found.message}")
        raise ClientError(f"no {' or '.join(k.__name__ for k in kinds)} in {timeout} s")

    async def sit(self, buy_in: int) -> None:
        """Buy ``buy_in`` cents of chips at a players' table (or add them)."""
        await self.send(P.SitMessage(type="sit", buy_in=buy_in))

    async def leave(self) -> None:
        """Leave a players' table with the chips."""
        await self.send(P.LeaveMessage(type="leave"))

    def asked(self, state: P.PlayersState) -> bool:
        """Whether ``state`` asks this player for a decision not yet answered (a table
        sends its state again on every change, the same decision still due)."""
        due = (state.shoe or 0, state.coup, state.decision)
        return state.to_act == self.name and bool(state.choices) and due != self._answered

    async def act(
        self,
        state: P.PlayersState,
        action: str,
        amount: int | None = None,
        tableau: str | None = None,
    ) -> None:
        """Decide at a players' table, naming the decision ``state`` asks for."""
        self._answered = (state.shoe or 0, state.coup, state.decision)
        await self.send(
            P.ActMessage.model_validate(
                {
                    "type": "act",
                    "action": action,
                    "amount": amount,
                    "tableau": tableau,
                    "shoe": state.shoe or 0,
                    "coup": state.coup,
                    "decision": state.decision,
                }
            )
        )

    async def bet(self, kind: str, amount: int, round_id: int | None = None) -> P.BetAck:
        """Bet at a house table; its acknowledgement (a refusal raises `ClientError`)."""
        bet_id = uuid.uuid4().hex[:16]
        message = P.BetMessage(type="bet", bet_id=bet_id, kind=kind, amount=amount, round=round_id)
        await self.send(message)
        ack: P.BetAck = await self.next(P.BetAck)
        return ack

    async def close(self) -> None:
        """Close the socket."""
        if self.ws is not None:
            await self.ws.close()
            self.ws = None
