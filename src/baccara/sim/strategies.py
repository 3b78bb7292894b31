"""Betting strategies: flat bets, pattern and road followers, progressions, counting.

A strategy is asked for its wagers before each coup, given its bankroll and the
coups of the current shoe so far (an empty history means a new shoe), and is told
the net result of its wagers after the coup. Amounts are integer minor units.
Table limits and the bankroll are enforced here: a wager is raised to the table
minimum, cut to the table maximum and to the bankroll, or dropped when the
bankroll cannot cover the minimum.

>>> from baccara.coup import Coup
>>> s = make_strategy("martingale:player", unit=100, table_max=1000)
>>> s.wagers(10_000, [])
(Wager(kind=<BetKind.PLAYER: 'player'>, amount=100),)
>>> s.record(Coup.parse("P:2h,Kd,3c B:7s,Qc"), -100)
>>> s.wagers(9_900, [])[0].amount
200
>>> sorted(STRATEGIES)[:3]
['1-3-2-6', 'big-eye-follow', 'cockroach-follow']

None of these changes the house edge: each wager on its own has the same
expectation, so a progression only reshapes the distribution of results.
Counting is the exception: it bets only when the exact expected value of a bet
for the cards left in the shoe is positive.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from baccara.bets import BetKind
from baccara.cards import Card
from baccara.coup import Coup, Result, Side
from baccara.money import format_money
from baccara.roads.board import Roads
from baccara.variants import PUNTO_BANCO, Variant

__all__ = [
    "BOT_STRATEGIES",
    "STRATEGIES",
    "Strategy",
    "StrategyError",
    "Wager",
    "make_strategy",
]


class StrategyError(ValueError):
    """An unknown strategy name or bad strategy parameters."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Wager:
    """One bet a strategy places on the next coup.

    >>> Wager(kind=BetKind.BANKER, amount=0)
    Traceback (most recent call last):
    ...
    baccara.sim.strategies.StrategyError: bad wager amount 0: a stake is a positive whole number of minor units
    """

    kind: BetKind
    amount: int

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount <= 0:
            raise StrategyError(
                f"bad wager amount {self.amount!r}: a stake is a positive whole number of minor units"
            )


class Strategy(Protocol):
    """What the simulator and the table's bots need from a strategy."""

    name: str

    def wagers(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        """The wagers for the next coup; ``history`` holds this shoe's coups so far."""
        ...

    def record(self, coup: Coup, net: int) -> None:
        """Learn the coup and the net gain (minor units) of the wagers placed on it."""
        ...


BOT_STRATEGIES = ("flat:banker", "flat:player", "follow-last", "martingale:banker")
"""What the bots at a terminal table play, in turn."""

STRATEGIES: dict[str, str] = {
    "flat": "flat:BET bets one unit on BET every coup (any bet: banker, tie, player_pair, ...)",
    "follow-last": "bet one unit on the side that won the last coup (ties ignored)",
    "ping-pong": "bet one unit against the last winner, expecting the sides to alternate",
    "martingale": "double the stake after a loss, back to one unit after a win (:player/:banker)",
    "paroli": "double after a win, up to three wins in a row, back to one unit after a loss",
    "fibonacci": "one step up the Fibonacci sequence after a loss, two steps back after a win",
    "1-3-2-6": "1, 3, 2 then 6 units after successive wins, back to 1 after a loss or the 6",
    "dalembert": "one unit more after a loss, one unit less after a win",
    "labouchere": "bet first + last of the line 1 2 3 4; cross them off on a win, add on a loss",
    "big-eye-follow": "bet the side that keeps Big Eye Boy's last colour",
    "small-road-follow": "bet the side that keeps the Small Road's last colour",
    "cockroach-follow": "bet the side that keeps the Cockroach Pig's last colour",
    "count": "count:BET bets BET only when its exact EV for the cards left is positive",
}
"""Every strategy name and a one-line description (for ``--help`` and the game)."""

_SIDES = {"player": BetKind.PLAYER, "banker": BetKind.BANKER}
_ROADS = {
    "big-eye-follow": "big_eye_boy",
    "small-road-follow": "small_road",
    "cockroach-follow": "cockroach_pig",
}


class _TableLimits:
    """Table limits and the bankroll applied to a wanted stake."""

    __slots__ = ("table_max", "table_min")

    def __init__(self, table_min: int | None, table_max: int | None) -> None:
        self.table_min = table_min or 1
        self.table_max = table_max

    def fit(self, kind: BetKind, amount: int, bankroll: int) -> tuple[Wager, ...]:
        amount = max(amount, self.table_min)
        if self.table_max is not None:
            amount = min(amount, self.table_max)
        amount = min(amount, bankroll)
        if amount < self.table_min or amount <= 0:
            return ()
        return (Wager(kind=kind, amount=amount),)


class _Base:
    """Shared state: a name, a unit, the table limits and the last wager placed."""

    def __init__(self, name: str, unit: int, limits: _TableLimits) -> None:
        self.name = name
        self.unit = unit
        self.limits = limits
        self.placed: tuple[Wager, ...] = ()

    def wagers(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        self.placed = self._choose(bankroll, history)
        return self.placed

    def _choose(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        raise NotImplementedError

    def record(self, coup: Coup, net: int) -> None:
        if self.placed:
            self._learn(coup, net)
        self.placed = ()

    def _learn(self, coup: Coup, net: int) -> None:
        """Update after a coup on which this strategy had wagers."""

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"


class Flat(_Base):
    """The same stake on the same bet every coup."""

    def __init__(self, name: str, unit: int, limits: _TableLimits, kind: BetKind) -> None:
        super().__init__(name, unit, limits)
        self.kind = kind

    def _choose(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        return self.limits.fit(self.kind, self.unit, bankroll)


def _last_winner(history: Sequence[Coup]) -> Side | None:
    for coup in reversed(history):
        if coup.winner is not Result.TIE:
            return Side(coup.winner.value)
    return None


class Pattern(_Base):
    """Follow the last winner, or bet against it (ping-pong). No bet before a result."""

    def __init__(self, name: str, unit: int, limits: _TableLimits, *, against: bool) -> None:
        super().__init__(name, unit, limits)
        self.against = against

    def _choose(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        last = _last_winner(history)
        if last is None:
            return ()
        side = last.other if self.against else last
        return self.limits.fit(_SIDES[side.word], self.unit, bankroll)


class RoadFollower(_Base):
    """Bet the side whose next mark would repeat a derived road's last colour."""

    def __init__(self, name: str, unit: int, limits: _TableLimits, road: str) -> None:
        super().__init__(name, unit, limits)
        self.road = road
        self.roads = Roads()
        self.seen = 0
        self.first: Coup | None = None

    def _sync(self, history: Sequence[Coup]) -> None:
        first = history[0] if history else None
        if len(history) < self.seen or first != self.first:  # a new shoe
            self.roads, self.seen, self.first = Roads(), 0, first
        for coup in history[self.seen :]:
            self.roads.add(coup)
        self.seen = len(history)

    def _choose(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        self._sync(history)
        marks = self.roads.derived(self.road)
        if not marks:
            return ()
        want = marks[-1].color
        sides = [
            side
            for side, prediction in self.roads.predictions().items()
            if getattr(prediction, self.road) is want
        ]
        if len(sides) != 1:
            return ()
        return self.limits.fit(_SIDES[sides[0].word], self.unit, bankroll)


class Progression(_Base):
    """A stake that moves in units after each win or loss on one side."""

    def __init__(self, name: str, unit: int, limits: _TableLimits, kind: BetKind) -> None:
        super().__init__(name, unit, limits)
        self.kind = kind
        self.restart()

    def restart(self) -> None:
        """Go back to the progression's first step."""

    def units(self) -> int:
        """The stake, in units, of the current step."""
        raise NotImplementedError

    def won(self) -> None:
        """Move after a win."""

    def lost(self) -> None:
        """Move after a loss."""

    def _choose(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        wanted = self.units() * self.unit
        cap = min(bankroll, self.limits.table_max or bankroll)
        if wanted > cap:  # the table limit or the bankroll breaks the progression
            self.restart()
            wanted = self.units() * self.unit
        return self.limits.fit(self.kind, wanted, bankroll)

    def _learn(self, coup: Coup, net: int) -> None:
        if net > 0:
            self.won()
        elif net < 0:
            self.lost()


class Martingale(Progression):
    def restart(self) -> None:
        self.step = 1

    def units(self) -> int:
        return self.step

    def won(self) -> None:
        self.step = 1

    def lost(self) -> None:
        self.step *= 2


class Paroli(Progression):
    def restart(self) -> None:
        self.wins = 0

    def units(self) -> int:
        return 1 << self.wins

    def won(self) -> None:
        self.wins = 0 if self.wins >= 2 else self.wins + 1

    def lost(self) -> None:
        self.wins = 0


class Fibonacci(Progression):
    def restart(self) -> None:
        self.sequence = [1, 1]
        self.index = 0

    def units(self) -> int:
        while self.index >= len(self.sequence):
            self.sequence.append(self.sequence[-1] + self.sequence[-2])
        return self.sequence[self.index]

    def won(self) -> None:
        self.index = max(0, self.index - 2)

    def lost(self) -> None:
        self.index += 1


class OneThreeTwoSix(Progression):
    STEPS = (1, 3, 2, 6)

    def restart(self) -> None:
        self.index = 0

    def units(self) -> int:
        return self.STEPS[self.index]

    def won(self) -> None:
        self.index = (self.index + 1) % len(self.STEPS)

    def lost(self) -> None:
        self.index = 0


class DAlembert(Progression):
    def restart(self) -> None:
        self.level = 1

    def units(self) -> int:
        return self.level

    def won(self) -> None:
        self.level = max(1, self.level - 1)

    def lost(self) -> None:
        self.level += 1


class Labouchere(Progression):
    START = (1, 2, 3, 4)

    def restart(self) -> None:
        self.line = list(self.START)

    def units(self) -> int:
        if not self.line:
            self.restart()
        return self.line[0] + self.line[-1] if len(self.line) > 1 else self.line[0]

    def won(self) -> None:
        self.line = self.line[1:-1]
        if not self.line:
            self.restart()

    def lost(self) -> None:
        self.line.append(self.units())


_PROGRESSIONS: dict[str, type[Progression]] = {
    "martingale": Martingale,
    "paroli": Paroli,
    "fibonacci": Fibonacci,
    "1-3-2-6": OneThreeTwoSix,
    "dalembert": DAlembert,
    "labouchere": Labouchere,
}


class Counter(_Base):
    """Bet only when the exact expected value of the bet for the cards left is positive.

    The cards left are the full shoe less every card of this shoe's coups so far
    (the burned cards are unseen, as at a real table).
    """

    def __init__(
        self,
        name: str,
        unit: int,
        limits: _TableLimits,
        *,
        kind: BetKind,
        decks: int,
        variant: Variant,
    ) -> None:
        super().__init__(name, unit, limits)
        self.kind = kind
        self.decks = decks
        self.variant = variant
        self.edge: float | None = None

    def remaining(self, history: Sequence[Coup]) -> list[int]:
        """Counts by rank (A..K) of the cards not yet seen in this shoe."""
        counts = [4 * self.decks] * 13
        for card in seen_cards(history):
            counts[card.rank.order] -= 1
        return counts

    def _choose(self, bankroll: int, history: Sequence[Coup]) -> tuple[Wager, ...]:
        exact = importlib.import_module("baccara.exact.odds")  # imported only when counting
        odds = exact.odds(self.remaining(history), self.variant, exact=False)
        self.edge = float(odds.edges[self.kind.value])
        if self.edge >= 0:
            return ()
        return self.limits.fit(self.kind, self.unit, bankroll)


def make_strategy(
    spec: str,
    *,
    unit: int,
    table_min: int | None = None,
    table_max: int | None = None,
    decks: int = 8,
    variant: Variant = PUNTO_BANCO,
) -> Strategy:
    """Build a strategy from its name, ``NAME`` or ``NAME:ARGUMENT``.

    ``unit`` is the base stake in minor units; ``decks`` and ``variant`` matter to
    counting only. Progressions take ``:player`` (the default) or ``:banker``.

    >>> make_strategy("flat:tie", unit=500).wagers(1_000, [])
    (Wager(kind=<BetKind.TIE: 'tie'>, amount=500),)
    >>> make_strategy("flat:banker", unit=500, table_min=1_000).wagers(800, [])
    ()
    >>> make_strategy("double-up", unit=100)
    Traceback (most recent call last):
    ...
    baccara.sim.strategies.StrategyError: unknown strategy 'double-up': choose from flat, follow-last, ping-pong, martingale, paroli, fibonacci, 1-3-2-6, dalembert, labouchere, big-eye-follow, small-road-follow, cockroach-follow, count
    """
    if isinstance(unit, bool) or not isinstance(unit, int) or unit <= 0:
        raise StrategyError(f"bad unit {unit!r}: a stake is a positive whole number of minor units")
    if table_min is not None and table_min <= 0:
        raise StrategyError(
            f"bad table minimum {format_money(table_min)}: expected a positive amount"
        )
    if table_max is not None and table_max < (table_min or 1):
        raise StrategyError(
            f"bad table maximum {format_money(table_max)}: below the table minimum "
            f"{format_money(table_min or 1)}"
        )
    text = spec.strip().lower()
    name, _, argument = text.partition(":")
    limits = _TableLimits(table_min, table_max)
    label = text
    if name == "flat":
        return Flat(label or "flat", unit, limits, _bet(argument or "banker", spec))
    if name in ("follow-last", "ping-pong"):
        _no_argument(name, argument, spec)
        return Pattern(label, unit, limits, against=name == "ping-pong")
    if name in _ROADS:
        _no_argument(name, argument, spec)
        return RoadFollower(label, unit, limits, _ROADS[name])
    if name in _PROGRESSIONS:
        side = argument or "player"
        if side not in _SIDES:
            raise StrategyError(f"bad side {argument!r} in strategy {spec!r}: use player or banker")
        return _PROGRESSIONS[name](f"{name}:{side}", unit, limits, _SIDES[side])
    if name == "count":
        kind = _bet(argument or "player_pair", spec)
        return Counter(f"count:{kind.value}", unit, limits, kind=kind, decks=decks, variant=variant)
    choices = ", ".join(STRATEGIES)
    raise StrategyError(f"unknown strategy {spec!r}: choose from {choices}")


def _bet(text: str, spec: str) -> BetKind:
    try:
        return BetKind.parse(text)
    except ValueError:
        names = ", ".join(kind.value for kind in BetKind)
        raise StrategyError(f"unknown bet {text!r} in strategy {spec!r}: use {names}") from None


def _no_argument(name: str, argument: str, spec: str) -> None:
    if argument:
        raise StrategyError(f"strategy {name} takes no argument, got {spec!r}")


def seen_cards(history: Sequence[Coup]) -> list[Card]:
    """Every card dealt in ``history``, in order (what a counter has seen)."""
    cards: list[Card] = []
    for coup in history:
        cards.extend(coup.deal_order())
    return cards
