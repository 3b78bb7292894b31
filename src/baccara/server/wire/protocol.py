"""The wire: every message in and out of the online table, as pydantic models.

Client messages (`baccara.server.wire.inbound`, re-exported here) are validated at
the edge, before anything else reads them: a message that does not fit gets one
``error`` with a ``code`` naming what was wrong and a ``message`` for people, and
changes nothing. Server messages are built from the models here, so `schema` (served
at ``/api/protocol``) describes exactly what is sent. Amounts are integer minor units
(cents) on the wire; the page shows them as 10.00.

>>> read_client('{"type": "act", "action": "bid", "amount": 2500,'
...             ' "shoe": 4, "coup": 1, "decision": 0}').action
'bid'
>>> sorted(schema())
['client', 'server']
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import UnionType
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, WithJsonSchema

from baccara.coup import Result
from baccara.server.wire.inbound import (
    CLIENT,
    MAX_AMOUNT,
    MAX_MESSAGE,
    ActMessage,
    AnyClientMessage,
    BetMessage,
    ClientMessage,
    Credentials,
    JoinMessage,
    LeaveMessage,
    PasswordChange,
    PingMessage,
    ProtocolError,
    SeedMessage,
    SitMessage,
    SitOutMessage,
    SqueezeMessage,
    message_types,
    read_client,
)
from baccara.skill.banque_events import Half as BanqueHalf
from baccara.skill.banque_events import Phase as BanquePhaseEnum
from baccara.skill.chemin_events import Phase as CheminPhaseEnum
from baccara.table.events import Phase as HousePhaseEnum
from baccara.variants import FAMILIES

__all__ = [
    "MAX_AMOUNT",
    "MAX_MESSAGE",
    "Account",
    "ActMessage",
    "AnyClientMessage",
    "BanqueHand",
    "BanqueLastCoup",
    "BanqueState",
    "BetAck",
    "BetMessage",
    "BetSpot",
    "CheminHand",
    "CheminState",
    "ClientMessage",
    "Credentials",
    "ErrorMessage",
    "Event",
    "JoinMessage",
    "LeaveMessage",
    "PasswordChange",
    "PingMessage",
    "PlayersState",
    "Problem",
    "ProtocolError",
    "SeedMessage",
    "ServerMessage",
    "SitMessage",
    "SitOutMessage",
    "SqueezeMessage",
    "TableSummary",
    "message_types",
    "read_client",
    "schema",
]

# -- phases ------------------------------------------------------------------------------


def _listed(*enums: type[StrEnum]) -> WithJsonSchema:
    """The JSON Schema of a field that takes the members of ``enums``: their values,
    listed as a literal's are (pydantic sends a member as its value)."""
    values = list(dict.fromkeys(member.value for enum in enums for member in enum))
    return WithJsonSchema({"enum": values, "type": "string"})


HousePhase: TypeAlias = Annotated[HousePhaseEnum, _listed(HousePhaseEnum)]
"""A house table's phase (`baccara.table.events.Phase`: the engine's and its runner's)."""
CheminPhase: TypeAlias = Annotated[CheminPhaseEnum, _listed(CheminPhaseEnum)]
"""A Chemin de Fer table's phase (`baccara.skill.chemin_events.Phase`)."""
BanquePhase: TypeAlias = Annotated[BanquePhaseEnum, _listed(BanquePhaseEnum)]
"""A Baccarat Banque table's phase (`baccara.skill.banque_events.Phase`)."""
AnyPlayersPhase: TypeAlias = Annotated[
    CheminPhaseEnum | BanquePhaseEnum, _listed(CheminPhaseEnum, BanquePhaseEnum)
]
"""A players' table's phase, whichever its game."""
AnyPhase: TypeAlias = Annotated[
    HousePhaseEnum | CheminPhaseEnum | BanquePhaseEnum,
    _listed(HousePhaseEnum, CheminPhaseEnum, BanquePhaseEnum),
]
"""The lobby's: any table's phase."""
Outcome: TypeAlias = Annotated[Result, _listed(Result)]
"""A coup's result on the wire: ``"B"``, ``"P"`` or ``"T"`` (`baccara.coup.Result`)."""
GameName: TypeAlias = Annotated[str, WithJsonSchema({"enum": list(FAMILIES), "type": "string"})]
"""A table's game, as the lobby names it: a family's name (`baccara.variants.FAMILIES`)."""

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
    """The layout: the seated players' stakes, everybody's totals, and how many players
    bet behind the seats this round."""

    type: Literal["bets"] = "bets"
    round: int | None
    totals: dict[str, int]
    players: dict[str, dict[str, int]]
    bettors_behind: int = 0


class NoMoreBets(Event):
    type: Literal["no_more_bets"] = "no_more_bets"
    round: int | None


class CardShown(Event, Shown):
    type: Literal["card"] = "card"
    round: int | None
    step: int


class SpotResult(_Out):
    """One bet of the layout settled (`baccara.bets.payout`): won (``paid``: what it
    paid, ``'8:1'``), lost or pushed, and everybody's stakes on it and what came back."""

    outcome: Literal["win", "lose", "push"]
    paid: str
    reason: str
    staked: int
    returned: int


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
    spots: dict[str, SpotResult] = {}
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
    left: bool = False  # the seat was freed: its player had gone, with no bet in the round


class Notice(Event):
    type: Literal["notice"] = "notice"
    text: str


class HousePause(Event):
    """The house paused the table (``reason``: why, in words; the round or coup in play
    finishes, no new one starts) or let it play again (``reason`` null)."""

    type: Literal["house_pause"] = "house_pause"
    reason: str | None


class SqueezeStart(Event):
    """A hand's cards lie face down while its squeezer peels them (no value)."""

    type: Literal["squeeze"] = "squeeze"
    round: int | None
    side: Literal["player", "banker"]
    first: int  # the position in the hand of the first card squeezed (0, or 2: a third)
    count: int  # how many cards lie face down (2, or 1: a third)
    squeezer: str
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
    result: Outcome


class _OwnHand(_Out):
    """Private, during a coup, to a seat that plays a hand or holds the bank: besides
    its cards, to whoever must choose what he may do (``choices``: the state's are the
    same on every total, not to tell his cards) and teaching mode's advice, and the
    decision due, as the state names it."""

    table: str
    advice: str | None = None
    choices: list[str] | None = None
    shoe: int | None = None
    coup: int = 0
    decision: int = 0


class CheminHand(_OwnHand):
    """The punter's or the banker's hand: its cards and total (the advice: the tableau's
    rule and the equilibrium's play)."""

    type: Literal["chemin_hand"] = "chemin_hand"
    side: Literal["punter", "banker"]
    cards: list[str]
    total: int


class PlayersState(Event):
    """A players' table as everybody sees it, sent after every change: who is seated,
    who plays this shoe and their chips, the bank, whose turn it is with the choices and
    the deadline, the latest news, and this shoe's last coups with every decision."""

    phase: AnyPlayersPhase  # each game names its own (`CheminPhase`, `BanquePhase`)
    players: list[str]
    in_shoe: list[str]  # who plays the shoe in play (those who left it are gone)
    chips: dict[str, int] | None
    away: list[str] = []  # seated, sitting out: their turns are passed at once
    leaving: list[str] = []  # leave when the coup in play is settled
    paused: bool = False  # nobody who plays the shoe is at the table: it waits
    house_paused: str | None = None  # why the house paused the table (null: it plays)
    banker: str | None
    bank: int
    to_act: str | None
    choices: list[str]
    labels: dict[str, str] = {}  # what each choice's button says
    ranges: dict[str, list[int]] = {}  # a choice's amounts for the seat to act: [low, high]
    deadline: float | None
    shoe: int | None = None  # the shoe in play (its id): a decision names it,
    coup: int = 0  # ...the coup in play (from 1; 0: none)
    decision: int = 0  # ...and the decision due (from 0 in the shoe)
    news: list[str]
    history: list[dict[str, JsonValue]] = []
    minimum: int
    fair: Commitment | None


class CheminState(PlayersState):
    """A Chemin de Fer table: the stakes, the punter, the hands once dealt."""

    type: Literal["chemin"] = "chemin"
    phase: CheminPhase
    stakes: dict[str, int]
    punter: str | None
    punter_cards: list[str]
    banker_cards: list[str]
    hidden: int = 0  # cards of each hand face down (the first two, until the settlement)
    last: LastCoup | None = None  # the coup just settled, for the result


Hand = Literal["L", "R", "B"]
"""A Banque hand: the left half, the right one, the banker's."""
HANDS: tuple[Hand, ...] = ("L", "R", "B")
Half = Literal["L", "R"]
"""A Banque half: the left, the right (`baccara.skill.banque_events.Half`'s values)."""
HALVES: tuple[Half, ...] = ("L", "R")
LiveHalf: TypeAlias = Annotated[BanqueHalf, _listed(BanqueHalf)]
"""A Banque half as its engine names it (`baccara.skill.banque_events.Half`)."""


class BanqueLastCoup(_Out):
    """A settled Baccarat Banque coup: the three hands and each half's result."""

    banker: str
    players: dict[Half, str | None]  # who played each half (None: unstaked)
    cards: dict[Hand, list[str]]
    totals: dict[Hand, int]
    result: dict[Half, Outcome]


class BanqueHand(_OwnHand):
    """The hands of whoever plays a half or holds the bank: their cards and totals."""

    type: Literal["banque_hand"] = "banque_hand"
    cards: dict[Hand, list[str]]
    totals: dict[Hand, int]


class BanqueState(PlayersState):
    """A Baccarat Banque table: the auction (the bids, the least bid that beats the
    best), the stakes on each half and who plays it, the cards face up."""

    type: Literal["banque"] = "banque"
    phase: BanquePhase
    bids: dict[str, int]
    next_bid: int | None  # at the auction: the least bid that beats the best
    can_retire: bool  # the banker may retire now (between coups, before any stake)
    stakes: dict[Half, dict[str, int]]
    playing: dict[Half, str | None]
    live: LiveHalf | None  # the half whose punter chooses on 5
    cards: dict[Hand, list[str]]  # face up: third cards, and a settled hand whole
    hidden: dict[Hand, int]  # cards of each hand face down
    last: BanqueLastCoup | None = None


class Peel(_Out):
    """A squeezer's hand, relayed live (not logged)."""

    type: Literal["peel"] = "peel"
    table: str
    round: int | None
    side: Literal["player", "banker"]
    by: str | None
    peel: float
    cards: list[str] | None = None  # the values, once bent past the corner


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
    seat: int | None = None  # where the bet put its player (None: said before)
    behind: bool = False  # behind the seats: the main bets only


Returned: TypeAlias = dict[Literal["staked", "returned"], int]
"""A player's bet in a round: staked, and returned at the settlement."""


class Payout(_Out):
    """A player's round: staked, returned and the balance after the settlement."""

    type: Literal["payout"] = "payout"
    table: str
    round: int
    balance: int
    staked: int
    returned: int
    bets: dict[str, Returned] = {}  # by bet kind


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
    game: GameName
    variant: str
    title: str
    description: str
    phase: AnyPhase
    players: int
    seats: int
    seated: int
    squeeze: bool
    bets: list[BetSpot]
    limits: dict[str, dict[Literal["min", "max"], int]]
    roads: RoadsView | None
    minimum: int | None = None  # a players' game: the least buy-in and bank
    behind: int = 0  # players at the places behind the seats (main bets only)
    house_paused: str | None = None  # why the house paused the table (null: it plays)


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
    phase: HousePhase
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
    behind: bool = False  # you bet behind the seats (every seat is taken): main bets only
    seats: dict[str, int]
    balance: int | None
    my_bets: list[dict[str, str | int]]
    table_bets: dict[str, dict[str, int]]
    bettors_behind: int = 0
    revealed: list[Shown]
    history: list[dict[str, JsonValue]]
    roads: RoadsView
    fair: Commitment | None
    records: list[dict[str, JsonValue]]
    shoe_coups: int
    house_paused: str | None = None  # why the house paused the table (null: it plays)


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
    | HousePause
    | SqueezeStart
    | CheminState
    | CheminHand
    | BanqueState
    | BanqueHand
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


def schema(tables: Mapping[str, UnionType] | None = None) -> dict[str, dict[str, JsonValue]]:
    """The JSON Schema of both directions and, under ``tables``, of the messages each
    kind of table takes (``tables``: a game family's name to a union of client
    messages; `baccara.server.tables.make.protocol_schema` serves them at
    ``/api/protocol``).

    >>> sorted(schema()), sorted(schema({"house": BetMessage | SeedMessage})["tables"])
    (['client', 'server'], ['house'])
    """
    both: dict[str, dict[str, JsonValue]] = {
        "client": CLIENT.json_schema(),
        "server": SERVER.json_schema(),
    }
    for game, takes in (tables or {}).items():
        tagged: Any = Annotated[takes, Field(discriminator="type")]  # a union known at run time
        both.setdefault("tables", {})[game] = TypeAdapter(tagged).json_schema()
    return both
