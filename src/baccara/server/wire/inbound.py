"""What a client sends in (the inbound half of the wire): every message, validated at the edge.

A message that does not fit gets one `ProtocolError` with a ``code`` naming what was
wrong and a message for people, and changes nothing (`read_client`). The server's half
and the schema of both are in `baccara.server.wire.protocol`, which re-exports these.

>>> read_client('{"type": "bet", "bet_id": "b1", "kind": "tie", "amount": 500}').amount
500
>>> read_client('{"type": "bet", "bet_id": "b1", "kind": "tie", "amount": 2.5}')
Traceback (most recent call last):
...
baccara.server.wire.inbound.ProtocolError: bad amount: a positive whole number of cents is required
>>> read_client('{"type": "fly"}').code
Traceback (most recent call last):
...
baccara.server.wire.inbound.ProtocolError: unknown message type 'fly': join, bet, seed, squeeze, sit, leave, sit_out, act, ping
>>> read_client('{"type": "act", "action": "stake", "amount": 500, "tableau": "X"}')
Traceback (most recent call last):
...
baccara.server.wire.inbound.ProtocolError: bad tableau: L (left) or R (right)
"""

from __future__ import annotations

import contextlib
import json
import math
from types import UnionType
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, TypeAdapter
from pydantic import ValidationError as _ValidationError

__all__ = [
    "CLIENT",
    "CLIENT_TYPES",
    "MAX_AMOUNT",
    "MAX_MESSAGE",
    "ActMessage",
    "AnyClientMessage",
    "BetMessage",
    "ClientMessage",
    "Credentials",
    "JoinMessage",
    "LeaveMessage",
    "PasswordChange",
    "PingMessage",
    "ProtocolError",
    "SeedMessage",
    "SitMessage",
    "SitOutMessage",
    "SqueezeMessage",
    "message_types",
    "read_client",
]

MAX_MESSAGE = 4096
"""The longest client message, in characters."""
MAX_AMOUNT = 10**12
"""The largest amount a bet may name (cents); the table's limits are far lower."""


class ProtocolError(ValueError):
    """A client message that does not fit the protocol; ``code`` names the problem."""

    def __init__(self, code: str, message: str, *, bet_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.bet_id = bet_id  # a bad bet's id, when it had a usable one


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class JoinMessage(_In):
    """Join a table; ``since`` is the last event ``seq`` seen (its missed events follow)."""

    type: Literal["join"]
    table: Annotated[str, Field(min_length=1, max_length=64)]
    since: StrictInt | None = None


class BetMessage(_In):
    """A bet; ``bet_id`` makes a resend harmless, ``round`` guards against a late bet."""

    type: Literal["bet"]
    bet_id: Annotated[str, Field(min_length=1, max_length=64)]
    kind: Annotated[str, Field(min_length=1, max_length=32)]
    amount: Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT)]
    round: StrictInt | None = None


class SeedMessage(_In):
    """A player's client seed for the next shoe."""

    type: Literal["seed"]
    seed: Annotated[str, Field(min_length=1, max_length=64)]


class SqueezeMessage(_In):
    """A squeezer bends a hand's cards: 0 flat, 1 turned."""

    type: Literal["squeeze"]
    side: Literal["player", "banker"]
    peel: Annotated[StrictFloat | StrictInt, Field(ge=0, le=1, allow_inf_nan=False)]
    first: Annotated[StrictInt, Field(ge=0, le=2)] | None = None  # the squeeze it answers


class SitMessage(_In):
    """Sit at a players' table, buying ``buy_in`` of chips from the wallet."""

    type: Literal["sit"]
    buy_in: Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT)]


class LeaveMessage(_In):
    """Leave a players' table (the chips go back to the wallet); ``stay``: cancel a leave
    asked for during a coup, before it is settled."""

    type: Literal["leave"]
    stay: StrictBool = False


class SitOutMessage(_In):
    """Sit out at a players' table (``out``: the player's turns are passed at once) or
    come back (``out`` false)."""

    type: Literal["sit_out"]
    out: StrictBool


class ActMessage(_In):
    """A decision at a players' table: set, keep or pass the bank, stake or banco, draw
    or stand (as punter on 5, or as banker in a free cell); at Baccarat Banque also bid
    for the bank, retire from it, and stake on a ``tableau`` (L or R)."""

    type: Literal["act"]
    action: Literal[
        "open_bank",
        "pass_bank",
        "keep_bank",
        "stake",
        "banco",
        "draw",
        "stand",
        "banker_draw",
        "banker_stand",
        "bid",
        "retire",
    ]
    amount: Annotated[StrictInt, Field(ge=0, le=MAX_AMOUNT)] | None = None
    tableau: Literal["L", "R"] | None = None
    # the decision it answers, as the table's state names it (`baccara.server.tables.turns`)
    shoe: Annotated[StrictInt, Field(ge=0)]
    coup: Annotated[StrictInt, Field(ge=0)]
    decision: Annotated[StrictInt, Field(ge=0)]


class PingMessage(_In):
    """Are you there? Answered with ``pong`` and the server's clock."""

    type: Literal["ping"]


AnyClientMessage = (
    JoinMessage
    | BetMessage
    | SeedMessage
    | SqueezeMessage
    | SitMessage
    | LeaveMessage
    | SitOutMessage
    | ActMessage
    | PingMessage
)
"""Every message a client sends, one of these (matched on its class)."""
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)
"""Validates any client message."""


def message_types(union: UnionType | type[BaseModel]) -> tuple[str, ...]:
    """The ``type`` tags of a message model or a union of them (their discriminator's
    values), in order.

    >>> message_types(SitMessage | SitOutMessage), message_types(PingMessage)
    (('sit', 'sit_out'), ('ping',))
    """
    tags: list[str] = []
    for model in get_args(union) or (union,):
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{model!r} is not a message model")
        tags.extend(get_args(model.model_fields["type"].annotation))
    return tuple(tags)


CLIENT_TYPES = message_types(AnyClientMessage)
"""Every client message's ``type``, from the union (never a list kept by hand)."""

*_FIRST_ACTIONS, _LAST_ACTION = get_args(ActMessage.model_fields["action"].annotation)
_ACTIONS = f"{', '.join(_FIRST_ACTIONS)} or {_LAST_ACTION}"  # from the model, not by hand
# Which code a bad field gets, and what people are told.
_FIELD_ERRORS = {
    "amount": ("bad_amount", "bad amount: a positive whole number of cents is required"),
    "bet_id": ("bad_bet_id", "bad bet id: a string of 1 to 64 characters"),
    "kind": ("unknown_bet", "bad bet kind: a name such as player, banker or tie"),
    "round": ("bad_message", "bad round: a round number"),
    "table": ("unknown_table", "bad table: a table id of 1 to 64 characters"),
    "since": ("bad_message", "bad since: the last event number seen"),
    "seed": ("bad_seed", "bad client seed: a string of 1 to 64 characters"),
    "side": ("bad_side", "bad side: player or banker"),
    "peel": ("bad_peel", "peel must be a number from 0 to 1"),
    "buy_in": ("bad_amount", "bad buy-in: a positive whole number of cents is required"),
    "out": ("bad_message", "bad out: true (sit out) or false (come back)"),
    "stay": ("bad_message", "bad stay: true (stay at the table) or false"),
    "action": ("bad_action", "bad decision: " + _ACTIONS),
    "tableau": ("bad_tableau", "bad tableau: L (left) or R (right)"),
    "shoe": ("bad_decision", "a decision names its shoe, coup and decision, as the state shows"),
    "coup": ("bad_decision", "a decision names its shoe, coup and decision, as the state shows"),
    "decision": (
        "bad_decision",
        "a decision names its shoe, coup and decision, as the state shows",
    ),
}


def read_client(text: str) -> AnyClientMessage:
    """Parse and validate one client message; raise `ProtocolError` naming the problem."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("bad_message", f"message too long: at most {MAX_MESSAGE} characters")
    with contextlib.suppress(_ValidationError):  # the usual case: parsed and checked at once
        return CLIENT.validate_json(text)
    try:  # a message that does not fit: found again step by step, to name the problem
        data = json.loads(text, parse_constant=lambda name: math.nan)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "malformed message: expected one JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", "malformed message: expected an object with a 'type'")
    kind = data["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind[:32]!r}: {', '.join(CLIENT_TYPES)}"
        )
    try:
        message = CLIENT.validate_python(data)
    except _ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][1]) if len(first["loc"]) > 1 else ""
        if first["type"] == "extra_forbidden":
            raise ProtocolError("bad_message", f"unknown field {field[:32]!r} in {kind}") from None
        code, words = _FIELD_ERRORS.get(field, ("bad_message", f"bad {kind} message"))
        bet_id = data.get("bet_id")
        usable = isinstance(bet_id, str) and 0 < len(bet_id) <= 64
        raise ProtocolError(code, words, bet_id=bet_id if usable else None) from None
    return message


class Credentials(_In):
    """The body of ``POST /api/register`` and ``POST /api/login``."""

    name: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=1024)]


class PasswordChange(_In):
    """The body of ``POST /api/me/password``: the password now and the new one."""

    old: Annotated[str, Field(min_length=1, max_length=1024)]
    new: Annotated[str, Field(min_length=1, max_length=1024)]
