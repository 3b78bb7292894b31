"""The messages the processes of a cluster send each other (`baccara.server.cluster.relay`),
typed: one tagged union (`ClusterMessage`, by ``op``), read with `read_cluster`.

>>> beat = Beat(sender="p1", tables=["t1"], can=["t1", "c1"], lines={})
>>> text = beat.model_dump_json(by_alias=True)
>>> text
'{"from":"p1","op":"beat","tables":["t1"],"can":["t1","c1"],"lines":{}}'
>>> read_cluster(text) == beat
True
>>> ask = Ask(sender="p2", id="p2.7", table="t1", what="view", user=None, text="")
>>> read_cluster(ask.model_dump_json(by_alias=True)).what
'view'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from baccara.db.auth import User

__all__ = [
    "Ask",
    "AskedUser",
    "Beat",
    "ClusterMessage",
    "Event",
    "Gone",
    "Hello",
    "Private",
    "Question",
    "Reply",
    "read_cluster",
]

Question = Literal["message", "view", "shoes", "edges"]
"""What one process asks the process running a table: to answer a player's message,
or for the table's state, its shoes' records or its edges."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class _From(_Message):
    sender: str = Field(validation_alias="from", serialization_alias="from")
    """The process that sent it."""


class Hello(_From):
    """A process has started listening (the others send it every lobby line again)."""

    op: Literal["hello"] = "hello"


class Beat(_From):
    """A process's heartbeat: the tables it runs, those it may run, and the lobby lines
    that changed."""

    op: Literal["beat"] = "beat"
    tables: list[str]
    can: list[str]
    lines: dict[str, str]


class Event(_From):
    """A table's event for the players connected to other processes."""

    op: Literal["event"] = "event"
    table: str
    seq: int | None
    text: str


class Private(_Message):
    """A player's private message for their connections on the process it is sent to."""

    op: Literal["to"] = "to"
    table: str
    name: str
    text: str


class AskedUser(_Message):
    """The player a question is asked for (as the asking process authenticated them)."""

    id: int
    name: str
    account: int
    session: str | None

    @classmethod
    def of(cls, user: User) -> AskedUser:
        """The wire form of ``user``."""
        return cls(id=user.id, name=user.name, account=user.account, session=user.session)

    def user(self) -> User:
        """The player again."""
        return User(id=self.id, name=self.name, account=self.account, session=self.session)


class Ask(_From):
    """A question for the process running ``table`` (answered with a `Reply`)."""

    op: Literal["ask"] = "ask"
    id: str
    table: str
    what: Question
    user: AskedUser | None
    text: str


class Reply(_Message):
    """The answer to the `Ask` ``id``: JSON texts for the player or the asker."""

    op: Literal["reply"] = "reply"
    id: str
    texts: list[str]


class Gone(_From):
    """One of ``name``'s connections on the sender left ``table``."""

    op: Literal["gone"] = "gone"
    table: str
    name: str


ClusterMessage = Hello | Beat | Event | Private | Ask | Reply | Gone
_ADAPTER: TypeAdapter[ClusterMessage] = TypeAdapter(
    Annotated[ClusterMessage, Field(discriminator="op")]
)


def read_cluster(text: str) -> ClusterMessage:
    """A message from another process (`pydantic.ValidationError` if it is not one)."""
    return _ADAPTER.validate_json(text)
