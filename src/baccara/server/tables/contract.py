"""The one contract every table of the server keeps (`Runner`): the house's tables
(`baccara.server.tables.house`) and the players' tables (`baccara.server.tables.players`) implement
it, and the hall, the connections and the cluster speak to nothing else.

A table is joined (its state, the events missed, the player's private message),
handles a player's message (`TableMessage`, validated at the edge), shows its state
and its lobby line, publishes its shoes' records, and is paused, closed and set up by the
house (`Runner.pause`, `Runner.close`, `Runner.configure`); a house table also shows the
exact edges of the cards its shoe has left and its roads.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, TypeAlias

from pydantic import BaseModel, JsonValue

from baccara.db.auth import User
from baccara.server.tables.audience import Audience
from baccara.server.tables.base import TableSetup
from baccara.server.wire import protocol as P
from baccara.server.wire.http import Edges
from baccara.variants import Variant

__all__ = ["Record", "Runner", "TableMessage"]

TableMessage = (
    P.BetMessage
    | P.SqueezeMessage
    | P.SeedMessage
    | P.SitMessage
    | P.LeaveMessage
    | P.SitOutMessage
    | P.ActMessage
)
"""The messages a player sends to a table (a join is `Runner.join`; pings and leaving
a table are the connection's). Each kind of table takes part of them
(`baccara.server.tables.make.TableKind.takes`); the dispatcher refuses the rest before
`Runner.handle` sees them."""
Record: TypeAlias = dict[str, JsonValue]
"""A finished shoe's record for ``baccara verify`` (`baccara.fair`, `baccara.skill.records`)."""


class Runner(Protocol):
    """One table of the server, whatever its game (see the module)."""

    movable: ClassVar[bool]
    """Whether the table may pass to another process between two rounds."""
    id: str
    variant: Variant
    audience: Audience
    stopping: bool
    handing_over: bool
    closing: bool
    """Closed by the house: the loop ends once the round in play is over."""
    house_paused: str | None
    """Why the house holds the table (None: it plays)."""

    def pause(self, reason: str | None) -> None:
        """Hold the table after the round in play (``reason``, told to every listener),
        or let it play again (None)."""
        ...

    def close(self) -> None:
        """Stop after the round in play (a players' table gives the chips back first)."""
        ...

    def hand_over(self) -> None:
        """Stop after the round in play, for another process of the cluster to run the
        table (a table waiting, for players or held by the house, stops at once)."""
        ...

    def configure(self, setup: TableSetup) -> None:
        """The house's limits and timings, taken from the next round."""
        ...

    async def run(self, delay: float = 0.0) -> None:
        """Recover what a crash left, wait ``delay`` seconds, then play until stopped."""
        ...

    async def join(self, user: User | None, since: int | None) -> list[str]:
        """A join's answer (JSON texts): the table's state, the events after ``since``
        (`baccara.server.tables.base.missed_events`), the player's private message."""
        ...

    async def handle(self, user: User, message: TableMessage) -> BaseModel | None:
        """The answer to ``message`` (an acknowledgement, or None); a refusal raises
        `baccara.db.ledger.BetError` (money) or `baccara.server.tables.refusal.Refused` (the
        table's rules) and changes nothing."""
        ...

    async def state(self, user: User | None) -> BaseModel:
        """The table as ``user`` (None: anybody) sees it now."""
        ...

    def summary(self) -> P.TableSummary:
        """The table's line in the lobby."""
        ...

    async def shoe_records(self) -> list[Record]:
        """The table's last finished shoes' records, for ``baccara verify``."""
        ...

    async def edges(self) -> Edges | None:
        """Each bet's exact edge for the cards the shoe has left (None: no such bets)."""
        ...

    def roads_svg(self) -> str | None:
        """The table's roads as drawn (None: a game without roads)."""
        ...
