"""No face-down card reaches a seat or a spectator before the table shows it, whatever
the event that would carry it.

A card counts as shown once it lies face up: a third card, a hand settled on a natural,
every card of a coup once it is settled (`PlayersTable.observation` says which), and,
at a Punto Banco table, each card as the croupier turns it or its squeezer bends it past
the corner. The check reads every word a seat may read of every event
(`PlayersTable.seen`), and online every message a connection is sent, looking for any
card's notation; it knows no event type. One-deck shoes make every card's notation
name one card of the shoe, so a notation found is the card itself.

The games are played by the bots (`baccara.skill.bots`): at the engine, a shoe for each
of hypothesis' tables (seats, speaking punters, the banker's tableau), about 2,400
coups of Chemin de Fer and 2,000 of Banque; online, whole shoes of each game in process
on the simulated clock (`tests.support.tables`), a person and a spectator among the
bots, every message each is sent (the states, the news, the private hands, any field),
and Punto Banco shoes with and without the squeeze. A test-only event that carries a
card shows nobody anything unless its engine marks it public, and the check finds the
card when it does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.clock import SimulatedClock, inline_services, settle
from tests.support.tables import Tables, players_table

from baccara.cards import Card, format_cards
from baccara.db.auth import User
from baccara.db.ledger import Ledger
from baccara.fair import FairShoe
from baccara.server.infra.throttle import RateLimiter
from baccara.server.tables.audience import Listener
from baccara.server.tables.dispatch import answer
from baccara.server.tables.game import PlayersTiming
from baccara.server.tables.house import HouseRunner, Timing
from baccara.server.tables.squeeze import CORNER
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import records, tableaux
from baccara.skill.actions import Act, Action
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half
from baccara.skill.bots import banque_bot_action, banque_bot_bid, chemin_bot_action
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import CheminEvent
from baccara.skill.players import GameEvent
from baccara.table.narration import reveal
from baccara.variants import find_variant

Game = CheminTable | BanqueTable

NOTATION = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][shdc](?![A-Za-z0-9])")
"""A card's notation in words or JSON ("Kd", "Th"), not inside another word."""

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve")  # no name reads as a card


def cards_named(text: str) -> set[str]:
    """The cards ``text`` names.

    >>> sorted(cards_named('["Kd","Th"] draws: 9c. Kids'))
    ['9c', 'Kd', 'Th']
    """
    return set(NOTATION.findall(text))


def _words(cards: Sequence[Card]) -> set[str]:
    return {str(card) for card in cards}


def coup_cards(table: Game) -> set[str]:
    """Every card of the coup in play or last played (the engine's, face up or down)."""
    if isinstance(table, CheminTable):
        return _words(table.punter_cards) | _words(table.banker_cards)
    assert isinstance(table, BanqueTable)
    return _words(table.hands[Half.LEFT] + table.hands[Half.RIGHT] + table.banker_cards)


def face_down(table: Game, seat: int | None) -> set[str]:
    """The cards of the coup in play that ``seat`` (None: a spectator) may not see now:
    none once the coup is settled (its cards are all shown then)."""
    if table.phase.value not in ("punter", "banker"):
        return set()
    seen = table.observation(seat)
    open_ = [*seen.shown.values(), *seen.hands.values()]  # face up, and its own
    return coup_cards(table) - {str(card) for hand in open_ for card in hand}


@dataclass
class Witness:
    """What each seat (None: a spectator) may have seen so far at an engine: every card
    shown to it; `check` raises on a word naming a card it may not see."""

    table: Game
    viewers: tuple[int | None, ...]
    shown: dict[int | None, set[str]] = field(default_factory=dict)
    coups: int = 0

    def check(self, events: Sequence[GameEvent]) -> None:
        """After one action, the ``events`` it caused as each viewer may read them (what
        one message to it tells): the cards they name are all shown to that viewer, now
        or before."""
        for seat in self.viewers:
            allowed = self.shown.setdefault(seat, set())
            allowed |= coup_cards(self.table) - face_down(self.table, seat)
            for event in events:
                words = self.table.seen(event, seat)
                if words is None:
                    continue
                leaked = cards_named(words) - allowed
                assert not leaked, f"seat {seat} reads {words!r} of {event!r}: {leaked} are down"


def play_chemin(table: CheminTable, rng: random.Random, limit: int = 2_000) -> Iterator[Any]:
    """The bots' shoe at ``table``, one action's events at a time (a seat adds chips
    between coups now and then)."""
    for _ in range(limit):
        if table.phase.value == "over":
            return
        idle = [s for s in range(table.seats) if s != table.actor and table.can_leave(s)]
        if idle and rng.random() < 0.05:
            yield table.apply(Action(act=Act.ADD_CHIPS, seat=rng.choice(idle), amount=1_000))
        yield table.apply(chemin_bot_action(table, rng))


def play_banque(table: BanqueTable, rng: random.Random, limit: int = 2_000) -> Iterator[Any]:
    """The bots' shoe at ``table``: each bids up to its budget at the auction, which
    closes on the best bid; a banker retires now and then, a seat adds chips."""
    budgets = {s: table.bankrolls[s] // 3 for s in range(table.seats)}
    for _ in range(limit):
        if table.phase.value == "over":
            return
        if table.phase.value == "auction":
            bids = [
                (s, a) for s in range(table.seats) if (a := banque_bot_bid(table, s, budgets[s]))
            ]
            if bids:
                seat, amount = bids[0]
                yield table.apply(Action(act=Act.BID, seat=seat, amount=amount))
            elif table.can_close_auction():
                yield table.apply(Action(act=Act.CLOSE_AUCTION, seat=None))
            else:
                return  # nobody bids: the shoe ends
            continue
        banker = table.banker
        if banker is not None and table.can_retire() and rng.random() < 0.05:
            yield table.apply(Action(act=Act.RETIRE, seat=banker))
            continue
        idle = [s for s in range(table.seats) if s != table.actor and table.can_leave(s)]
        if idle and rng.random() < 0.05:
            yield table.apply(Action(act=Act.ADD_CHIPS, seat=rng.choice(idle), amount=1_000))
        yield table.apply(banque_bot_action(table, rng))


def witness(table: Game, plays: Iterator[Any]) -> Witness:
    """Play ``plays`` at ``table``, checking what every seat and a spectator read."""
    seen = Witness(table, (None, *range(table.seats)))
    for events in plays:
        seen.check(events)
    if isinstance(table, CheminTable):
        seen.coups = len(records.chemin_coups(table.log))
    else:
        seen.coups = len(records.banque_coups(table.log))
    return seen


@settings(max_examples=320, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 5),
    speaks=st.booleans(),
    free_banker=st.booleans(),
    house=st.sampled_from(list(tableaux.House)),
)
def test_chemin_de_fer_tells_no_seat_a_card_face_down(
    seed: int, seats: int, speaks: bool, free_banker: bool, house: tableaux.House
) -> None:
    rng = random.Random(seed)
    shoe = Shoe.shuffled(ShoeSettings(decks=1), seed=seed)
    shoe.burn()
    table = CheminTable(
        names=NAMES[:seats],
        bankrolls=[rng.randrange(2_000, 40_000, 100) for _ in range(seats)],
        shoe=shoe,
        punter_speaks=speaks,
        free_banker=free_banker,
        tableau=house,
    )
    seen = witness(table, play_chemin(table, rng))
    assert seen.coups >= 3  # a whole shoe was played (6 to 9 coups), every word read


@settings(max_examples=320, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 5), speaks=st.booleans())
def test_banque_tells_no_seat_a_card_face_down(seed: int, seats: int, speaks: bool) -> None:
    rng = random.Random(seed)
    table = BanqueTable(
        names=NAMES[:seats],
        bankrolls=[rng.randrange(5_000, 60_000, 100) for _ in range(seats)],
        shoe=Shoe.shuffled(ShoeSettings(decks=1, burn=False), seed=seed),
        punter_speaks=speaks,
    )
    seen = witness(table, play_banque(table, rng))
    assert seen.coups >= 3  # a whole shoe was played (5 to 7 coups), every word read


# -- the check can fail: an event that carries a card ---------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Peek(CheminEvent):
    """A test-only event: the banker's cards, in words and as a field."""

    cards: tuple[Card, ...]


class PeekingTable(CheminTable):
    """A Chemin de Fer engine that logs a `Peek` after each deal; ``marked``: it marks
    the event public (a leak), else it leaves it as made (closed by default)."""

    marked = False

    def _deal(self) -> list[CheminEvent]:
        events = super()._deal()
        cards = tuple(self.banker_cards[:2])
        text = f"The banker holds {format_cards(cards)}."
        peek = Peek(text=text, public=text if self.marked else None, cards=cards)
        return [events[0], peek, *events[1:]]


class LeakingTable(PeekingTable):
    marked = True


def _peeking(kind: type[PeekingTable], seed: int) -> PeekingTable:
    shoe = Shoe.shuffled(ShoeSettings(decks=1), seed=seed)
    return kind(names=NAMES[:3], bankrolls=(20_000,) * 3, shoe=shoe, punter_speaks=True)


def test_an_event_the_engine_does_not_mark_public_shows_nobody_anything() -> None:
    table = _peeking(PeekingTable, 7)
    seen = witness(table, play_chemin(table, random.Random(7)))
    peeks = [event for event in table.log if isinstance(event, Peek)]
    assert peeks and seen.coups > 0
    assert all(table.seen(peek, seat) is None for peek in peeks for seat in (None, 0, 1, 2))
    assert all(str(peek.cards[0]) in peek.text for peek in peeks)  # the record keeps it all
    assert table.seen(GameEvent(text="2h 3d")) is None  # the base event: closed as well


@pytest.mark.parametrize("seed", range(5))
def test_the_check_finds_a_card_an_event_marked_public_carries(seed: int) -> None:
    table = _peeking(LeakingTable, seed)
    with pytest.raises(AssertionError, match="The banker holds"):
        witness(table, play_chemin(table, random.Random(seed)))


def test_a_natural_paid_while_the_other_punter_chooses_keeps_the_banker_s_total() -> None:
    """The engine knows, when it makes the settlement, that the banker's cards stay down:
    the table reads the natural and the money, not the banker's total; the banker's own
    words and the record say it all."""
    from baccara.cards import parse_cards

    table = BanqueTable(
        names=("Ann", "Bob", "Cy"),
        bankrolls=(50_000, 10_000, 10_000),
        shoe=Shoe.stacked(parse_cards("2h 9d 5s 3d Kc Qc 4c 7h") * 8),
        punter_speaks=True,
    )
    table.bid(0, 20_000)
    table.close_auction()
    table.stake(1, Half.LEFT, 1_000)
    events = table.stake(2, Half.RIGHT, 2_000)
    assert table.phase.value == "punter"
    settled = events[-1]
    assert settled.text == "Right: 9 to 5, the punters win 20.00."
    for seat in (None, 1, 2):
        assert table.seen(settled, seat) == "Right: a natural 9, the punters win 20.00."
    dealt = events[-2]
    assert table.log_for(None)[-2:] == [
        "Two cards to the left tableau, to the right, and to the banker.",
        "Right: a natural 9, the punters win 20.00.",
    ]
    assert table.seen(dealt, 0) == (
        "Two cards to the left tableau, to the right, and to the banker: you hold 5s,Qc."
    )
    assert table.seen(dealt, 1) == (
        "Two cards to the left tableau, to the right, and to the banker: "
        "the left tableau holds 2h,3d."
    )


# -- online: every message each connection is sent -------------------------------------

_UNLIMITED = RateLimiter(rate=1_000_000, burst=1_000_000)


class Wire(Listener):
    """A connection that looks, as each message is queued for it, for a card it names
    that lies face down for its player (``secret``: those cards now): ``leaks``."""

    def __init__(self, user: User, secret: Callable[[], set[str]]) -> None:
        super().__init__(user)
        self.player = user
        self.secret = secret
        self.messages: list[dict[str, Any]] = []
        self.leaks: list[str] = []
        self.checking = True

    def send_text(self, text: str, seq: int | None = None) -> None:
        if text and self.checking:
            if leaked := cards_named(text) & self.secret():
                self.leaks.append(f"{self.player.name} is sent {leaked}: {text}")
            self.messages.append(json.loads(text))
        super().send_text(text, seq)

    def last(self, kind: str) -> dict[str, Any] | None:
        return next((m for m in reversed(self.messages) if m.get("type") == kind), None)


async def _connect(tables: Tables, name: str, secret: Callable[[], set[str]]) -> Wire:
    user = tables.users.get(name) or tables.player(name)
    wire = Wire(user, secret)
    for text in await tables.runner.join(user, None):
        wire.send_text(text)
    tables.runner.audience.add(wire)
    return wire


def _players_secret(tables: Tables, name: str | None) -> set[str]:
    table = tables.runner.table
    if table is None:
        return set()
    seat = table.names.index(name) if name in table.names else None
    return face_down(table, seat)


async def _a_players_shoe(variant: str, seed: int) -> tuple[int, int]:
    """A whole one-deck shoe with two bots, a person (whose moves a bot's policy makes)
    and a spectator; the coups played and the messages checked."""
    timing = PlayersTiming(decision_seconds=30, seed_seconds=2, result_seconds=1, bot_seconds=0.2)
    rng = random.Random(seed)
    async with players_table(variant, timing=timing, bots=2, decks=1) as tables:
        runner = tables.runner  # its shoe's secret seed and its bots' choices from ``seed``
        runner.rng = random.Random(seed)
        source = random.Random(seed).randbytes
        fair = partial(
            records.new_game_shoe,
            runner.variant,
            runner.shoe_settings,
            punter_speaks=True,
            source=source,
        )
        setattr(runner, "new_fair", fair)  # noqa: B010
        ann = await _connect(tables, "ann", partial(_players_secret, tables, "ann"))
        spectator = await _connect(tables, "sam", partial(_players_secret, tables, None))
        await tables.start()
        assert (
            await answer(
                tables.runner, ann.player, P.SitMessage(type="sit", buy_in=50_000), _UNLIMITED
            )
            is None
        )
        kind = "chemin" if variant == "chemin-de-fer" else "banque"
        while not ann.last("shoe_end"):
            assert not ann.leaks and not spectator.leaks, [*ann.leaks, *spectator.leaks][0]
            assert tables.clock.now() - tables.clock.start < 5_000, "the shoe never ended"
            await tables.clock.advance(0.5)
            table, state = tables.runner.table, ann.last(kind)
            if table is None or state is None or table.actor is None:
                continue
            if table.names[table.actor] != "ann" or state["to_act"] != "ann":
                continue
            if isinstance(table, CheminTable):
                action = chemin_bot_action(table, rng)
            else:
                assert isinstance(table, BanqueTable)
                action = banque_bot_action(table, rng)
            message = P.ActMessage.model_validate(
                {
                    "type": "act",
                    "action": action.act.value,
                    "amount": action.amount,
                    "tableau": action.tableau,
                    "shoe": state["shoe"],
                    "coup": state["coup"],
                    "decision": state["decision"],
                }
            )
            await answer(tables.runner, ann.player, message, _UNLIMITED)
            await settle()
        ann.checking = spectator.checking = False  # the next shoe's news keeps the last's
        assert not ann.leaks and not spectator.leaks, [*ann.leaks, *spectator.leaks][0]
        record = ann.last("shoe_end")
        assert record is not None
        assert spectator.messages and not any(
            m["type"] in ("chemin_hand", "banque_hand") for m in spectator.messages
        )
        return len(record["record"]["coups"]), len(ann.messages) + len(spectator.messages)


@pytest.mark.parametrize("variant", ["chemin-de-fer", "banque"])
@pytest.mark.parametrize("seed", range(3))
def test_online_players_tables_send_no_card_face_down(variant: str, seed: int) -> None:
    coups, messages = asyncio.run(_a_players_shoe(variant, seed))
    assert coups >= 3 and messages > 10 * coups


def _house_secret(runner: HouseRunner) -> set[str]:
    """The cards of the coup being dealt not yet turned nor bent past the corner."""
    coup = runner.table.current
    if coup is None:
        return set()
    steps = reveal(coup, by_hand=runner.squeeze)
    turned = steps[len(runner.round.revealed) - 1] if runner.round.revealed else None
    shown = set() if turned is None else _words(turned.player) | _words(turned.banker)
    squeezing = runner.squeezing
    if squeezing is not None and squeezing.peel >= CORNER:
        shown |= _words(squeezing.cards)
    return (_words(coup.player) | _words(coup.banker)) - shown


async def _a_house_shoe(seed: int, squeeze: bool) -> tuple[int, int]:
    """A one-deck Punto Banco shoe: two players bet on each side and at a ``squeeze``
    table peel their hands in steps (under the corner, past it, turned); a spectator
    watches."""
    clock, ledger = SimulatedClock(), Ledger.connect("sqlite://")
    timing = Timing(bet_seconds=3, card_seconds=0.3, result_seconds=1, squeeze_seconds=4)
    make = partial(
        HouseRunner,
        table_id="t1",
        variant=find_variant("punto-banco"),
        services=inline_services(ledger, clock),
        timing=timing,
        decks=1,
        squeeze=squeeze,
    )
    tables = Tables(make(), clock, ledger, make)
    rng = random.Random(seed)
    try:
        runner: HouseRunner = tables.runner
        wires = {
            name: await _connect(tables, name, partial(_house_secret, runner))
            for name in ("ann", "bob", "sam")
        }
        await tables.start()
        bets = itertools.count()
        placed: set[tuple[str, int]] = set()
        peeled: dict[tuple[int | None, str, int], int] = {}
        while not wires["sam"].last("shoe_end"):
            leaks = [leak for wire in wires.values() for leak in wire.leaks]
            assert not leaks, leaks[0]
            assert clock.now() - clock.start < 5_000, "the shoe never ended"
            if runner.phase == "betting" and runner.round.id is not None:
                for name, side in (("ann", "player"), ("bob", "banker")):
                    if (name, runner.round.id) not in placed:
                        placed.add((name, runner.round.id))
                        message = P.BetMessage(
                            type="bet",
                            bet_id=f"b{next(bets)}",
                            kind=side,
                            amount=rng.choice((1_000, 2_000)),
                            round=runner.round.id,
                        )
                        reply = await answer(runner, tables.users[name], message, _UNLIMITED)
                        assert isinstance(reply, P.BetAck), reply
            squeezing = runner.squeezing
            if squeezing is not None and squeezing.squeezer in ("ann", "bob"):
                key = (squeezing.round, squeezing.side, squeezing.first)
                step = peeled.get(key, 0)
                if step < 3 and rng.random() < 0.5:
                    peeled[key] = step + 1
                    amount = (0.05, 0.4, 1.0)[step]
                    peel = P.SqueezeMessage(
                        type="squeeze", side=squeezing.side, peel=amount, first=squeezing.first
                    )
                    await answer(runner, tables.users[squeezing.squeezer], peel, _UNLIMITED)
            await clock.advance(0.1)
        leaks = [leak for wire in wires.values() for leak in wire.leaks]
        assert not leaks, leaks[0]
        end = wires["sam"].last("shoe_end")
        assert end is not None
        coups = len(end["record"]["coups"])
        assert len(peeled) >= coups if squeeze else not peeled  # they squeezed every coup
        return coups, sum(len(w.messages) for w in wires.values())
    finally:
        await tables.stop()
        assert ledger.check_invariants() == []
        ledger.database.dispose()


@pytest.mark.parametrize("squeeze", [True, False])
@pytest.mark.parametrize("seed", range(2))
def test_a_house_table_sends_no_card_before_it_is_turned(
    seed: int, squeeze: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, new = random.Random(seed).randbytes, FairShoe.new  # the shoes' seeds from ``seed``
    seeded = partial(new, source=source)
    monkeypatch.setattr(FairShoe, "new", staticmethod(seeded))
    coups, messages = asyncio.run(_a_house_shoe(seed, squeeze))
    assert coups >= 3 and messages > 10 * coups
