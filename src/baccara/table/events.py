"""The table's vocabulary: its phases, house settings, errors and the events it logs.

Every action of a `baccara.table.engine.Table` returns one of these frozen events and
appends it to ``table.log``; the terminal game, the web server and the store
consume them. Events hold no card of the shoe before it is dealt; a coup comes whole
in `CoupDealt`, and the online table never sends an event to a page: it turns the cards
one at a time (`baccara.table.narration.reveal`).

>>> settings = TableSettings()
>>> settings.limit(BetKind.BANKER)
BetLimit(kind=<BetKind.BANKER: 'banker'>, minimum=1000, maximum=500000)
>>> TableSettings(seats=15)
Traceback (most recent call last):
...
baccara.table.events.SettingsError: bad number of seats 15: a table has 1 to 14
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from baccara.bets import BetKind, BetOutcome, Rounding
from baccara.cards import Card
from baccara.coup import Coup, Side
from baccara.money import format_money
from baccara.shoe import ShoeSettings

__all__ = [
    "DEFAULT_LIMITS",
    "MAX_SEATS",
    "BetCancelled",
    "BetLimit",
    "BetPlaced",
    "BetResult",
    "CoupDealt",
    "CoupSettled",
    "Event",
    "LimitError",
    "Phase",
    "PhaseError",
    "Reveal",
    "SeatError",
    "SeatLeft",
    "SeatTaken",
    "SettingsError",
    "ShoeChanged",
    "StackError",
    "TableError",
    "TableSettings",
]

MAX_SEATS = 14


class TableError(ValueError):
    """An action the table refuses; the message names the problem and ``code`` its kind
    (the online table sends both).

    >>> LimitError("too much", code="over_limit").code, PhaseError("closed").code
    ('over_limit', 'wrong_phase')
    """

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class PhaseError(TableError):
    """An action outside the phase that allows it (a bet while the cards are out, say)."""

    code = "wrong_phase"


class SeatError(TableError):
    """An unknown, taken or empty seat."""

    code = "bad_seat"


class LimitError(TableError):
    """A bet below the table minimum (``under_limit``), over its maximum (``over_limit``),
    or on a bet the table does not take (``unknown_bet``)."""

    code = "over_limit"


class StackError(TableError):
    """A bet or buy-in that the seat's chips cannot cover."""

    code = "insufficient_funds"


class SettingsError(TableError):
    """House settings that do not make sense."""

    code = "bad_settings"


class Phase(StrEnum):
    """Where the table is in its cycle; the value is the JSON name. One enum for the
    engine, the online table's runner and the wire.

    The engine's: ``BETTING``: bets are open. ``DEALING``: the cards are out, bets are
    locked until the settlement. ``SETTLED``: the last coup is paid; bets for the next
    are open (the first bet starts ``BETTING``). ``SHOE_CHANGE``: the shoe is finished
    (or there is none yet): only a new shoe, seats and withdrawals.

    The online table's own, around the engine's (the engine never takes them):
    ``STARTING``: the table opens (its recovery). ``CLOSED``: the table is closed (its
    recovery failed, or a round is being finished after a failure). ``CLOSING``: no
    more bets, the ledger closing the round. ``SQUEEZE``: a hand is being squeezed.
    """

    BETTING = "betting"
    DEALING = "dealing"
    SETTLED = "settled"
    SHOE_CHANGE = "shoe_change"
    STARTING = "starting"
    CLOSED = "closed"
    CLOSING = "closing"
    SQUEEZE = "squeeze"


@dataclass(frozen=True, slots=True, kw_only=True)
class BetLimit:
    """The minimum and maximum stake (minor units) on one kind of bet."""

    kind: BetKind
    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise SettingsError(
                f"bad limits for {self.kind.value}: minimum {format_money(self.minimum)} and "
                f"maximum {format_money(self.maximum)} must satisfy 0 < minimum <= maximum"
            )


def _limits(
    main: tuple[int, int], tie: tuple[int, int], side: tuple[int, int]
) -> tuple[BetLimit, ...]:
    def pick(kind: BetKind) -> tuple[int, int]:
        if kind is BetKind.TIE:
            return tie
        return main if kind.is_main else side

    return tuple(BetLimit(kind=k, minimum=pick(k)[0], maximum=pick(k)[1]) for k in BetKind)


DEFAULT_LIMITS: tuple[BetLimit, ...] = _limits((1000, 500000), (100, 50000), (100, 25000))
"""Player/Banker 10.00 to 5,000.00; Tie 1.00 to 500.00; side bets 1.00 to 250.00."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettings:
    """The house settings of one table (all amounts in minor units).

    ``seats`` is how many seats the table has (at most 14; a variant may allow fewer,
    7 at mini); ``chips`` the values of the chips it plays with. ``pushes_stay``: whether a Player or Banker bet that pushed on a tie
    stays on the layout for the next coup (a house rule); by default it goes back to
    the player like any returned stake, the same at every table, terminal or web.
    ``pushed_bets_withdrawable``: whether such a staying bet may be taken down before
    the next coup. ``behind``: how many players may bet behind the seats, on the main
    bets only (as at live casino tables; 0, the default: none). Rounding of the Banker commission and of fractional wins goes to
    `baccara.bets.settle`; the shoe's burn and cut card are its `ShoeSettings`.
    """

    seats: int = 7
    limits: tuple[BetLimit, ...] = DEFAULT_LIMITS
    chips: tuple[int, ...] = (100, 500, 2_500, 10_000, 50_000, 100_000)
    pushes_stay: bool = False
    pushed_bets_withdrawable: bool = True
    commission_rounding: Rounding = Rounding.DOWN
    payout_rounding: Rounding = Rounding.DOWN
    shoe: ShoeSettings = field(default_factory=ShoeSettings)
    behind: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.seats <= MAX_SEATS:
            raise SettingsError(f"bad number of seats {self.seats}: a table has 1 to {MAX_SEATS}")
        if isinstance(self.behind, bool) or not isinstance(self.behind, int) or self.behind < 0:
            raise SettingsError(f"bad number of places behind {self.behind!r}: 0 or more")
        kinds = [limit.kind for limit in self.limits]
        if len(set(kinds)) != len(kinds):
            raise SettingsError("bad limits: a bet kind is listed twice")

    def limit(self, kind: BetKind) -> BetLimit:
        """The limits on ``kind``; a kind without limits is not taken at this table."""
        for limit in self.limits:
            if limit.kind is kind:
                return limit
        raise LimitError(f"this table does not take {kind.label} bets", code="unknown_bet")

    def with_main_limits(self, minimum: int | None, maximum: int | None) -> TableSettings:
        """A copy whose Player and Banker limits are ``minimum`` and ``maximum`` (None:
        each keeps its own); the tie and side bets keep theirs. A minimum over the
        maximum is refused (`SettingsError`).

        >>> TableSettings().with_main_limits(2_000, None).limit(BetKind.BANKER).minimum
        2000
        >>> TableSettings().with_main_limits(900_000, None)
        Traceback (most recent call last):
        ...
        baccara.table.events.SettingsError: bad limits for player: minimum 9,000.00 and maximum 5,000.00 must satisfy 0 < minimum <= maximum
        """
        main = [limit for limit in self.limits if limit.kind in (BetKind.PLAYER, BetKind.BANKER)]
        return self.with_limits(
            {limit.kind: (minimum or limit.minimum, maximum or limit.maximum) for limit in main}
        )

    def with_limits(self, limits: Mapping[BetKind, tuple[int, int]]) -> TableSettings:
        """A copy whose limits for the given kinds are replaced by (minimum, maximum).

        >>> TableSettings().with_limits({BetKind.TIE: (500, 1000)}).limit(BetKind.TIE).maximum
        1000
        """
        new = tuple(
            BetLimit(kind=lim.kind, minimum=limits[lim.kind][0], maximum=limits[lim.kind][1])
            if lim.kind in limits
            else lim
            for lim in self.limits
        )
        return replace(self, limits=new)


# -- events ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatTaken:
    """A player sat down at ``seat`` with ``stack`` chips (bought in from outside).

    A ``wallet`` seat has no chips in front of it: each bet comes from the player's
    wallet (the online table's ledger) and each return goes back to it. A place
    ``behind`` the seats (numbered after them) bets on the main bets only.
    """

    seat: int
    player: str
    stack: int
    strategy: str | None = None
    wallet: bool = False
    behind: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLeft:
    """A player left ``seat`` taking ``stack`` chips (bets on the layout returned)."""

    seat: int
    player: str
    stack: int
    returned: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced:
    """``amount`` more on ``kind`` at ``seat``; ``total`` is the bet now on the layout."""

    seat: int
    kind: BetKind
    amount: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetCancelled:
    """``amount`` taken back from ``kind`` at ``seat``; ``total`` is what stays."""

    seat: int
    kind: BetKind
    amount: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeChanged:
    """A new shoe: its number at this table, its seed (if any) and the burn.

    ``burned`` holds the exposed card then the cards burned face down; ``manual``
    tables are dealt from cards given one coup at a time (a real shoe replayed). A
    ``pending`` shoe is announced before its order is sealed (the online table's
    provably fair shoe takes the players' seeds until the first deal): bets are open,
    and the shoe's cards come with a second event for the same shoe number.
    """

    shoe: int
    seed: int | None
    cards: int
    cut_index: int
    burned: tuple[Card, ...]
    manual: bool
    pending: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupDealt:
    """Coup ``number`` of shoe ``shoe`` was dealt; ``last`` when the cut card says so."""

    shoe: int
    number: int
    coup: Coup
    last: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BetResult:
    """One bet's settlement at one seat (`baccara.bets.Settlement` plus where it went).

    ``returned`` goes back to the stack; ``stays`` is the stake left on the layout (a
    pushed Player or Banker bet stays for the next coup).
    """

    seat: int
    kind: BetKind
    stake: int
    outcome: BetOutcome
    net: int
    returned: int
    stays: int
    commission: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupSettled:
    """Coup ``number`` settled: every bet's result; ``house`` is the house's net."""

    shoe: int
    number: int
    coup: Coup
    results: tuple[BetResult, ...]
    house: int
    shoe_finished: bool

    def seat_net(self, seat: int) -> int:
        """What ``seat`` won (negative: lost) on this coup."""
        return sum(r.net for r in self.results if r.seat == seat)


Event = SeatTaken | SeatLeft | BetPlaced | BetCancelled | ShoeChanged | CoupDealt | CoupSettled
"""Everything the table logs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal:
    """One step of the deal as the croupier shows it: a card, or a word with no card.

    ``player`` and ``banker`` are the cards face up after this step; ``words`` is
    what the croupier says, ``reason`` the rule behind a draw or a stand (teaching).
    """

    card: Card | None
    side: Side | None
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    words: str
    reason: str = ""
