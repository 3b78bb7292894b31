"""The wire: every message in and out of the online table, as pydantic models.

Client messages are validated here, at the edge, before anything else reads them: a
message that does not fit gets one ``error`` with a ``code`` naming what was wrong and
a ``message`` for people, and changes nothing. Server messages are built from these
models too, so `schema` (served at ``/api/protocol``) describes exactly what is sent.
Amounts are integer minor units (cents) on the wire; the page shows them as 10.00.

>>> read_client('{"type": "bet", "bet_id": "b1", "kind": "tie", "amount": 500}').amount
500
>>> read_client('{"type": "bet", "bet_id": "b1", "kind": "tie", "amount": 2.5}')
Traceback (most recent call last):
...
baccara.server.protocol.ProtocolError: bad amount: a positive whole number of cents is required
>>> read_client('{"type": "fly"}').code
Traceback (most recent call last):
...
baccara.server.protocol.ProtocolError: unknown message type 'fly': join, bet, seed, squeeze, sit, leave, act, ping
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictFloat,
    StrictInt,
    TypeAdapter,
)
from pydantic import ValidationError as _ValidationError

__all__ = [
    "MAX_AMOUNT",
    "MAX_MESSAGE",
    "Account",
    "ActMessage",
    "BetAck",
    "BetMessage",
    "BetSpot",
    "CheminHand",
    "CheminState",
    "ClientMessage",
    "Credentials",
    "ErrorMessage",
    "Event",
    "Problem",
    "ProtocolError",
    "ServerMessage",
    "TableSummary",
    "read_client",
    "schema",
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


class SitMessage(_In):
    """Sit at a players' table, buying ``buy_in`` of chips from the wallet."""

    type: Literal["sit"]
    buy_in: Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT)]


class LeaveMessage(_In):
    """Leave a players' table (the chips go back to the wallet)."""

    type: Literal["leave"]


class ActMessage(_In):
    """A decision at a players' table: set, keep or pass the bank, stake or banco,
    draw or stand (as punter on 5, or as banker in a free cell)."""

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
    ]
    amount: Annotated[StrictInt, Field(ge=0, le=MAX_AMOUNT)] | None = None


class PingMessage(_In):
    """Are you there? Answered with ``pong`` and the server's clock."""

    type: Literal["ping"]


ClientMessage = Annotated[
    JoinMessage
    | BetMessage
    | SeedMessage
    | SqueezeMessage
    | SitMessage
    | LeaveMessage
    | ActMessage
    | PingMessage,
    Field(discriminator="type"),
]
_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)

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
    "action": (
        "bad_action",
        "bad decision: open_bank, pass_bank, keep_bank, stake, banco, "
        "draw, stand, banker_draw or banker_stand",
    ),
}


_TYPES = ("join", "bet", "seed", "squeeze", "sit", "leave", "act", "ping")


def read_client(text: str) -> Any:
    """Parse and validate one client message; raise `ProtocolError` naming the problem."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("bad_message", f"message too long: at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text, parse_constant=lambda name: math.nan)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "malformed message: expected one JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", "malformed message: expected an object with a 'type'")
    kind = data["type"]
    if kind not in _TYPES:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind[:32]!r}: {', '.join(_TYPES)}"
        )
    try:
        message: Any = _CLIENT.validate_python(data)
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


# -- server to client ---------------------------------------------------------------------


class Account(BaseModel):
    """Who is logged in, and the wallet's balance (``/api/me``, login, register)."""

    name: str
    balance: int


class Problem(BaseModel):
    """An HTTP refusal: ``error`` for programs, ``message`` for people."""

    error: str
    message: str


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BetSpot(_Out):
    """One bet of the layout as the page draws it: all of it comes from the rulebook."""

    kind: str
    label: str
    pays: str
    short_pays: str
    main: bool
    min: int
    max: int


class Statistics(_Out):
    """The shoe's counts (`baccara.roads.board.Statistics`)."""

    coups: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    naturals: int
    longest_streak: dict[Literal["banker", "player"], int]
    current_streak: dict[Literal["side", "length"], str | int | None]


class RoadsView(_Out):
    """The roads as drawn (SVG), the ask road's predictions and the statistics."""

    svg: str
    predictions: dict[Literal["banker", "player"], dict[str, str | None]]
    statistics: Statistics
    results: str


class Shown(_Out):
    """One step of the deal as shown: the card, the hands so far, their totals, the words."""

    card: str | None
    side: Literal["player", "banker"] | None
    player: list[str]
    banker: list[str]
    player_total: int | None
    banker_total: int | None
    words: str
    reason: str


class Event(_Out):
    """A table event: logged with a ``seq`` and replayed to a client that reconnects."""

    table: str
    seq: int
    time: float
    missed: bool = False


class RoundOpen(Event):
    type: Literal["round_open"] = "round_open"
    round: int
    number: int
    closes_at: float
    seconds: float


class Bets(Event):
    type: Literal["bets"] = "bets"
    round: int | None
    totals: dict[str, int]
    players: dict[str, dict[str, int]]


class NoMoreBets(Event):
    type: Literal["no_more_bets"] = "no_more_bets"
    round: int | None


class CardShown(Event, Shown):
    type: Literal["card"] = "card"
    round: int | None
    step: int


class RoundResult(Event):
    type: Literal["result"] = "result"
    round: int
    number: int
    coup: str
    winner: Literal["player", "banker", "tie"]
    player_total: int
    banker_total: int
    announcement: str
    steps: list[Shown]
    roads: RoadsView


class Commitment(_Out):
    """A shoe's published commitment (`baccara.fair.FairShoe.commitment`)."""

    server_seed_hash: str
    rules_hash: str
    rules: dict[str, JsonValue]
    client_seeds: list[str]


class ShoeAnnounced(Event, Commitment):
    type: Literal["shoe"] = "shoe"


class ShoeEnd(Event):
    type: Literal["shoe_end"] = "shoe_end"
    record: dict[str, JsonValue]


class SeatEvent(Event):
    type: Literal["seat"] = "seat"
    seat: int
    player: str


class Notice(Event):
    type: Literal["notice"] = "notice"
    text: str


class SqueezeStart(Event):
    type: Literal["squeeze"] = "squeeze"
    round: int | None
    cards: dict[Literal["player", "banker"], int]
    squeezers: dict[Literal["player", "banker"], str | None]
    seconds: float
    ends_at: float


class LastCoup(_Out):
    """A settled Chemin de Fer coup as the table shows its result."""

    punter: str
    banker: str
    punter_cards: list[str]
    banker_cards: list[str]
    punter_total: int
    banker_total: int
    result: Literal["P", "B", "T"]


class CheminHand(_Out):
    """Private, to the punter or the banker during a coup: that hand's cards and total,
    and teaching mode's advice to whoever must choose (the tableau's rule and the
    equilibrium's play)."""

    type: Literal["chemin_hand"] = "chemin_hand"
    table: str
    side: Literal["punter", "banker"]
    cards: list[str]
    total: int
    advice: str | None = None


class CheminState(Event):
    """A Chemin de Fer table as everybody sees it, sent after every change: who is
    seated, who plays this shoe and their chips, the bank and the stakes, whose turn it
    is with the choices and the deadline, the hands once dealt, and the latest news."""

    type: Literal["chemin"] = "chemin"
    phase: str
    players: list[str]
    in_shoe: list[str]
    chips: dict[str, int] | None
    banker: str | None
    bank: int
    stakes: dict[str, int]
    to_act: str | None
    choices: list[str]
    deadline: float | None
    punter: str | None
    punter_cards: list[str]
    banker_cards: list[str]
    news: list[str]
    hidden: int = 0  # cards of each hand face down (the first two, until the settlement)
    last: LastCoup | None = None  # the coup just settled, for the result
    history: list[dict[str, JsonValue]] = []  # this shoe's last coups with every decision
    minimum: int
    fair: Commitment | None


class Peel(_Out):
    """A squeezer's hand, relayed live (not logged)."""

    type: Literal["peel"] = "peel"
    table: str
    round: int | None
    side: Literal["player", "banker"]
    by: str | None
    peel: float


class BetAck(_Out):
    """A bet placed (or found again: ``duplicate``), with the wallet's balance after it."""

    type: Literal["bet_ack"] = "bet_ack"
    table: str
    bet_id: str
    round: int
    kind: str
    amount: int
    balance: int
    duplicate: bool
    status: str
    returned: int | None


class Payout(_Out):
    """A player's round: staked, returned and the balance after the settlement."""

    type: Literal["payout"] = "payout"
    table: str
    round: int
    balance: int
    staked: int
    returned: int


class ErrorMessage(_Out):
    """A refusal: ``code`` for programs, ``message`` for people (money as 10.00)."""

    type: Literal["error"] = "error"
    code: str
    message: str
    bet_id: str | None = None


class Pong(_Out):
    type: Literal["pong"] = "pong"
    server_time: float


class SeedAck(_Out):
    type: Literal["seed_ack"] = "seed_ack"
    table: str
    seed: str


class TableSummary(_Out):
    """The lobby's line for a table (``/api/tables``)."""

    id: str
    game: Literal["punto-banco", "chemin-de-fer", "banque"]
    variant: str
    title: str
    description: str
    phase: str
    players: int
    seats: int
    seated: int
    squeeze: bool
    bets: list[BetSpot]
    limits: dict[str, dict[Literal["min", "max"], int]]
    roads: RoadsView | None
    minimum: int | None = None  # a players' game: the least buy-in and bank


class Snapshot(_Out):
    """Everything a (re)connecting client needs to draw the table."""

    type: Literal["snapshot"] = "snapshot"
    table: str
    seq: int
    variant: str
    title: str
    bets: list[BetSpot]
    chips: list[int]
    pays: dict[str, str]
    limits: dict[str, dict[Literal["min", "max"], int]]
    phase: str
    round: int | None
    number: int
    closes_at: float
    server_time: float
    time_left: float
    bet_seconds: float
    squeeze: bool
    squeeze_seconds: float
    squeezing: dict[str, JsonValue] | None
    user: str | None
    seat: int | None
    seats: dict[str, int]
    balance: int | None
    my_bets: list[dict[str, str | int]]
    table_bets: dict[str, dict[str, int]]
    revealed: list[Shown]
    history: list[dict[str, JsonValue]]
    roads: RoadsView
    fair: Commitment | None
    records: list[dict[str, JsonValue]]
    shoe_coups: int


ServerMessage = Annotated[
    Snapshot
    | RoundOpen
    | Bets
    | NoMoreBets
    | CardShown
    | RoundResult
    | ShoeAnnounced
    | ShoeEnd
    | SeatEvent
    | Notice
    | SqueezeStart
    | CheminState
    | CheminHand
    | Peel
    | BetAck
    | Payout
    | ErrorMessage
    | Pong
    | SeedAck,
    Field(discriminator="type"),
]
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)
"""Validates any server message (the tests check every message they receive with it)."""


def schema() -> dict[str, Any]:
    """The JSON Schema of both directions, as served at ``/api/protocol``.

    >>> sorted(schema())
    ['client', 'server']
    """
    return {"client": _CLIENT.json_schema(), "server": SERVER.json_schema()}
