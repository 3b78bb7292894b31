"""What the two players' games share: `PlayersTable`, the skeleton under Chemin de Fer
(`baccara.skill.chemin`) and Baccarat Banque (`baccara.skill.banque`), and the
`Observation` of a seat.

A players' table has seats with bankrolls (minor units), a shoe, a bank held by one
of them, punters who stake in turn from the banker's next seat, one hand for the
banker, and a punter's and a banker's choice to draw or stand. Each decision is a
``can_...``/``verify_...``/action triplet; an action returns the immutable events it
caused, also appended to ``log``; `PlayersTable.apply` takes an action as a value
(`baccara.skill.actions.Action`) and keeps it in ``actions``, the shoe's record.

What a seat may do now is `PlayersTable.legal_actions` (as pokerkit's State says it),
what it may see `PlayersTable.observation`: the server, the terminal and the bots read
them, and none of them derives a rule from the phase. What a seat may read of each event
is the engine's too (`PlayersTable.seen`): an event says it all in ``text`` (the record's
words), and only what the engine marked ``public``, or a seat's own ``held`` words, to
the table; an event marked neither shows nobody anything.

>>> outcome(5, 3), outcome(2, 7), outcome(4, 4)
(<Result.PLAYER: 'P'>, <Result.BANKER: 'B'>, <Result.TIE: 'T'>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

from baccara.cards import Card, hand_total
from baccara.coup import Result
from baccara.money import format_money
from baccara.shoe import Shoe
from baccara.skill import tableaux
from baccara.skill.actions import SEAT_ACTS, Act, Action, Legal
from baccara.variants import Family, Variant, find_variant, require_family

__all__ = [
    "GameError",
    "GameEvent",
    "GamePhase",
    "Observation",
    "PlayersPhases",
    "PlayersTable",
    "PublicWords",
    "largest_stake",
    "outcome",
    "public_text",
]


class GameError(ValueError):
    """An action a players' table's rules do not allow now."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEvent:
    """Something that happened at a players' table, in words for each reader.

    ``text`` says all of it, face-down cards included: the record's words, and the
    terminal's where every seat's cards are on one screen. ``public`` is what the
    engine lets everybody read when it makes the event (None, the default: nobody reads
    anything of it); ``held`` the words a seat reads instead, (seat, words), where its
    own hand tells it more. Read them through `PlayersTable.seen`.
    """

    text: str
    public: str | None = None
    held: tuple[tuple[int, str], ...] = ()


class PublicWords(TypedDict):
    """An event's words when everybody may read all of them (`public_text`)."""

    text: str
    public: str


def public_text(text: str) -> PublicWords:
    """The words of an event that hides nothing: ``text``, for everybody
    (``Event(**public_text(words), ...)``).

    >>> public_text("A declines.")
    {'text': 'A declines.', 'public': 'A declines.'}
    """
    return PublicWords(text=text, public=text)


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """What one seat (``seat``; None: a spectator) may see of a players' table now.

    The public part, everybody's: the seats' ``names`` and ``bankrolls``, the ``bank``
    and its ``banker``, the seat to act (``actor``) and the ``choices`` it is offered
    as everybody sees them (a punter's draw and stand both, whatever his hidden total).
    The seat's own: what it may do now (``legal``, `PlayersTable.legal_actions`), and
    its ``hands`` in play face down, keyed as the game names its hands.
    """

    seat: int | None
    names: tuple[str, ...]
    bankrolls: tuple[int, ...]
    banker: int | None
    bank: int
    actor: int | None
    choices: tuple[Act, ...]
    legal: tuple[Legal, ...]
    hands: Mapping[str, tuple[Card, ...]]

    @property
    def totals(self) -> dict[str, int]:
        """The totals of the seat's own ``hands``."""
        return {key: hand_total(cards) for key, cards in self.hands.items()}


def largest_stake(stakes: Mapping[int, int]) -> int | None:
    """The seat with the largest of ``stakes`` (seat: amount, in the order placed), the
    first placed on a tie; None without stakes.

    >>> largest_stake({3: 500, 1: 900, 2: 900}), largest_stake({})
    (1, None)
    """
    if not stakes:
        return None
    order = list(stakes)
    return max(order, key=lambda s: (stakes[s], -order.index(s)))


def outcome(punter: int, banker: int) -> Result:
    """The result of a punter's total against the banker's."""
    return Result.PLAYER if punter > banker else Result.BANKER if banker > punter else Result.TIE


Event = TypeVar("Event", bound=GameEvent)
GamePhase = TypeVar("GamePhase", bound=StrEnum)
"""A players' game's `Phase` (`baccara.skill.chemin_events.Phase`, `baccara.skill.banque_events.Phase`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayersPhases(Generic[GamePhase]):
    """The phases every players' game has, as its own `Phase` names them (one enum per
    game, for its engine, its table online and the wire): the online table's before a
    shoe is dealt (the engine never takes them) and the skeleton's.

    ``starting``: the table opens. ``shuffle``: a shoe is committed, the seated players
    send their seeds. ``waiting``: for players (two, one of them a person). ``stakes``:
    the punters stake in turn. ``punter``: a punter chooses on 5. ``over``: the shoe is
    finished.
    """

    starting: GamePhase
    shuffle: GamePhase
    waiting: GamePhase
    stakes: GamePhase
    punter: GamePhase
    over: GamePhase

    @classmethod
    def of(cls, phases: type[GamePhase]) -> PlayersPhases[GamePhase]:
        """The shared phases out of a game's `Phase`, each the member of the same name."""
        return cls(**{name: phases[name.upper()] for name in cls.__dataclass_fields__})


_PUNTER_ACTS = (Act.DRAW, Act.STAND)


class PlayersTable(Generic[Event, GamePhase]):
    """The skeleton of a players' table; a game fills in its phases and its rules."""

    error: ClassVar[type[GameError]] = GameError
    game: ClassVar[str] = "a players' game"  # "Chemin de Fer"
    user: ClassVar[str] = "the players' table"  # how a wrong variant's refusal names it
    family: ClassVar[Family]
    default_variant: ClassVar[str]
    no_punter: ClassVar[str] = "no punter has a choice now"
    no_banker: ClassVar[str] = "the banker has no choice now"

    phases: PlayersPhases[GamePhase]  # the game's (on its class)
    phase: GamePhase
    banker: int | None

    def __init__(
        self,
        *,
        names: Sequence[str],
        bankrolls: Sequence[int],
        variant: Variant | None = None,
        shoe: Shoe | None = None,
        seed: int | None = None,
        minimum: int = 100,
        punter_speaks: bool = False,
    ) -> None:
        if len(names) < 2 or len(names) != len(bankrolls):
            raise self.error("a table needs at least two seats, each with a bankroll")
        if any(b < 0 for b in bankrolls):
            raise self.error("a bankroll cannot be negative")
        self.variant = variant or find_variant(self.default_variant)
        require_family(self.variant, self.family, user=self.user)
        self.names = tuple(names)
        self.bankrolls = list(bankrolls)
        self.chips_at_start = tuple(bankrolls)
        self.minimum = minimum
        self.punter_speaks = punter_speaks
        self.shoe = self.new_shoe(seed) if shoe is None else shoe
        self.log: list[Event] = []
        self.actions: list[Action] = []  # every action `apply` took, in order: the record's
        self.bank = 0
        self.house = 0
        self.turn: list[int] = []
        self.banker_cards: list[Card] = []
        self.gone: set[int] = set()  # the seats that left during the shoe
        self.start()

    def start(self) -> None:
        """Set the game's table up before its first action."""
        raise NotImplementedError

    def new_shoe(self, seed: int | None) -> Shoe:
        """The game's shoe when none is given, shuffled from ``seed``."""
        raise NotImplementedError

    # -- facts -------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        """Number of seats."""
        return len(self.names)

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the order of play."""
        return (seat + 1) % self.seats

    @property
    def to_act(self) -> int | None:
        """The punter whose turn it is to stake, or None."""
        return self.turn[0] if self.phase is self.phases.stakes and self.turn else None

    @property
    def actor(self) -> int | None:
        """The seat that must act now, or None."""
        raise NotImplementedError

    @property
    def over(self) -> bool:
        """Whether the shoe is finished."""
        return self.phase is self.phases.over

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < self.seats else f"seat {seat}"

    def _record(self, events: list[Event]) -> tuple[Event, ...]:
        self.log.extend(events)
        return tuple(events)

    def _allows(self, verify: Callable[..., None], *args: Any) -> bool:
        """Whether ``verify(*args)`` passes: a ``can_...`` from its ``verify_...``."""
        try:
            verify(*args)
        except self.error:
            return False
        return True

    def _commission(self, won: int) -> int:
        """The house's commission on the banker's winnings ``won``, rounded down."""
        return int(Fraction(won) * self.variant.commission)

    # -- what a seat may do and see ------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Legal, ...]:
        """What ``seat`` may do now, each act with the amounts it may name; empty when
        nothing is ``seat``'s to do. Every one of them `apply` takes."""
        if not 0 <= seat < self.seats:
            return ()
        return tuple(self._legal(seat))

    def _legal(self, seat: int) -> list[Legal]:
        raise NotImplementedError

    def choices(self) -> tuple[Act, ...]:
        """What the seat to act is offered now, as everybody sees it: as the rules allow
        it, but a punter's draw and stand both, whatever his hidden total."""
        if self.phase is self.phases.punter and self.actor is not None:
            return _PUNTER_ACTS
        return () if self.actor is None else tuple(x.act for x in self.legal_actions(self.actor))

    def seen(self, event: GameEvent, seat: int | None = None) -> str | None:
        """The words ``seat`` (None: a spectator) may read of ``event``: its own
        ``held`` words, else the ``public`` ones; None when it may read nothing (an
        event the engine did not mark public shows nothing).

        >>> from baccara.skill.chemin import CheminTable
        >>> from baccara.cards import parse_cards
        >>> table = CheminTable(names=("A", "B"), bankrolls=(5_000,) * 2,
        ...                     shoe=Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9))
        >>> _ = table.open_bank(1_000); dealt = table.banco(1)[-1]
        >>> dealt.text
        "B plays the hand: 2h,3d against the banker's 5s,Qc."
        >>> table.seen(dealt), table.seen(dealt, 1), table.seen(dealt, 0)
        ('B plays the hand against the bank.', 'B plays the hand with 2h,3d.', 'B plays the hand against your 5s,Qc.')
        >>> table.seen(GameEvent(text="the banker holds 5s,Qc"), 1) is None
        True
        >>> table.log_for(None)[-2:]
        ['Banco! B plays for the whole bank of 10.00.', 'B plays the hand against the bank.']
        """
        if seat is not None:
            for holder, words in event.held:
                if holder == seat:
                    return words
        return event.public

    def log_for(self, seat: int | None = None, since: int = 0) -> list[str]:
        """The words ``seat`` may read of the log's events from ``since`` on, in order
        (the events it may read nothing of left out; `seen`'s example)."""
        found = (self.seen(event, seat) for event in self.log[since:])
        return [words for words in found if words is not None]

    @staticmethod
    def _own_hands(
        seat: int | None,
        dealt: bool,
        hands: Mapping[str, Sequence[Card]],
        owner: Mapping[str, int | None],
    ) -> dict[str, tuple[Card, ...]]:
        """What ``seat`` sees of ``hands`` (``owner``: the seat each is played by): its own,
        only while a coup is dealt; the others' stay face down to it."""
        if not dealt or seat is None:
            return {}
        return {key: tuple(cards) for key, cards in hands.items() if owner[key] == seat}

    def _seen(self, seat: int | None) -> dict[str, Any]:
        """The fields of `Observation` every game fills alike."""
        return {
            "seat": seat,
            "names": self.names,
            "bankrolls": tuple(self.bankrolls),
            "banker": self.banker,
            "bank": self.bank,
            "actor": self.actor,
            "choices": self.choices(),
            "legal": () if seat is None else self.legal_actions(seat),
        }

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Do ``action`` (a player's, or ``default_action``'s) if it is that seat's to do;
        a seat's own act (`SEAT_ACTS`: leaving, adding chips) whenever it has nothing in play."""
        if action.act in SEAT_ACTS:
            if action.seat is None:
                raise self.error(f"{action.act.word}: which seat?")
            if action.act is Act.LEAVE:
                events = self.leave(action.seat)
            else:
                events = self.add_chips(action.seat, action.amount)
        else:
            events = self._apply(action)
        self.actions.append(action)
        return events

    def _apply(self, action: Action) -> tuple[Event, ...]:
        raise NotImplementedError

    def _not_here(self, act: Act) -> GameError:
        return self.error(f"{act.value} is not an action of {self.game}")

    # -- seats that come and go between coups ---------------------------------------------

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` has money in the coup being played (its bank or its stake)."""
        raise NotImplementedError

    def _release(self, seat: int) -> list[Event]:
        """What ``seat`` gives up as it leaves, recorded: its turn to speak (declined),
        the bank it holds and has not put in play (passed), its bid."""
        raise NotImplementedError

    def _close(self) -> list[Event]:
        """Fewer than two seats are left with chips: the shoe ends, a bank held going back
        to its banker."""
        if self.banker is not None:
            self.bankrolls[self.banker] += self.bank
        self.bank = 0
        self.phase = self.phases.over
        return []

    def _seat_changed(self, text: str, seat: int, amount: int) -> Event:
        """The game's event for a seat's own act (``amount``: chips in, or out if negative)."""
        raise NotImplementedError

    def can_leave(self, seat: int) -> bool:
        """Whether ``seat`` may leave (or add chips) now: it has nothing in play."""
        return self._allows(self.verify_seat_act, seat)

    def verify_seat_act(self, seat: int) -> None:
        """Raise unless ``seat`` may leave or add chips now: still here, the shoe not
        over, nothing of its money in the coup being played."""
        if not 0 <= seat < self.seats:
            raise self.error(f"no seat {seat}")
        if seat in self.gone:
            raise self.error(f"{self.names[seat]} has left the table")
        if self.over:
            raise self.error("the shoe is over")
        if self.in_play(seat):
            raise self.error(f"{self.names[seat]} has money in the coup being played")

    def leave(self, seat: int) -> tuple[Event, ...]:
        """``seat`` leaves with its chips: its turn is declined, a bank it holds passes;
        with fewer than two seats left with chips the shoe ends.

        >>> from baccara.skill.chemin import CheminTable
        >>> table = CheminTable(names=("A", "B", "C"), bankrolls=(5_000,) * 3, seed=1)
        >>> [e.text for e in table.leave(0)]
        ['The bank passes from A to B (declined).', 'A leaves the table with 50.00.']
        >>> table.bankrolls, table.banker
        ([0, 5000, 5000], 1)
        >>> [e.text for e in table.leave(2)][-1], table.phase.value
        ('C leaves the table with 50.00.', 'over')
        """
        self.verify_seat_act(seat)
        self.gone.add(seat)  # no turn, no bank, from now on
        released = self._release(seat)
        chips, self.bankrolls[seat] = self.bankrolls[seat], 0
        text = f"{self.names[seat]} leaves the table with {format_money(chips)}."
        own = [self._seat_changed(text, seat, -chips)]
        left = [s for s in range(self.seats) if s not in self.gone]
        playing = [s for s in left if self.bankrolls[s] > 0 or self.in_play(s)]
        if len(playing) < 2 and not self.over:
            own.extend(self._close())
        return (*released, *self._record(own))

    def add_chips(self, seat: int, amount: int) -> tuple[Event, ...]:
        """``seat`` adds ``amount`` to its chips (bought from the player's wallet)."""
        self.verify_seat_act(seat)
        if amount <= 0:
            raise self.error(f"bad amount {format_money(amount)}: above 0.00")
        self.bankrolls[seat] += amount
        total = format_money(self.bankrolls[seat])
        text = f"{self.names[seat]} adds {format_money(amount)} of chips: {total}."
        return self._record([self._seat_changed(text, seat, amount)])

    # -- the stakes ----------------------------------------------------------------------

    def _punters_in_turn(self, first: int | None = None) -> None:
        """The stakes' turn: every seat after the banker's with chips (``first`` first);
        nobody left to punt ends the game, the bank back to its banker."""
        assert self.banker is not None
        order = [(self.banker + i) % self.seats for i in range(1, self.seats)]
        if first is not None and first in order:
            order.remove(first)
            order.insert(0, first)
        self.turn = [s for s in order if self.bankrolls[s] > 0 and s not in self.gone]
        if not self.turn:
            self.bankrolls[self.banker] += self.bank
            self.bank = 0
            self.phase = self.phases.over

    def _check_funds(self, seat: int, amount: int) -> None:
        """Raise unless ``seat`` has ``amount`` (0 included) to stake."""
        if amount < 0 or amount > self.bankrolls[seat]:
            raise self.error(
                f"bad stake {format_money(amount)}: {self.names[seat]} has "
                f"{format_money(self.bankrolls[seat])}"
            )

    @property
    def covered(self) -> int:
        """The part of the bank the punters cover."""
        raise NotImplementedError

    def _open_part(self) -> int:
        """The part of the bank not yet covered."""
        return self.bank - self.covered

    def _stake_range(self, seat: int) -> Legal:
        """A punter's stake: 0 (he declines) up to his chips or the open part of the bank."""
        high = max(0, min(self.bankrolls[seat], self._open_part()))
        return Legal(act=Act.STAKE, seat=seat, high=high)

    # -- the punter's and the banker's choices ---------------------------------------------

    def _choosing_total(self) -> int | None:
        """The total of the punter who must choose now, or None."""
        raise NotImplementedError

    def can_draw(self) -> bool:
        """Whether the punter to choose may draw (on 5; on 0-4 too when he speaks)."""
        total = self._choosing_total()
        return total is not None and not tableaux.punter_refusal(total, True)

    def can_stand(self) -> bool:
        """Whether the punter to choose may stand (on 5; on 6-7 too when he speaks)."""
        total = self._choosing_total()
        return total is not None and not tableaux.punter_refusal(total, False)

    def verify_punter(self, draws: bool) -> None:
        """Raise unless the punter to choose may draw (``draws``) or stand now."""
        total = self._choosing_total()
        if total is None:
            raise self.error(self.no_punter)
        if refusal := tableaux.punter_refusal(total, draws):
            raise self.error(refusal)

    def draw(self) -> tuple[Event, ...]:
        """The punter to choose draws (on 5; bound on 0-4 when he speaks)."""
        self.verify_punter(True)
        return self._record(self._punter_decides(True))

    def stand(self) -> tuple[Event, ...]:
        """The punter to choose stands (on 5; bound on 6-7 when he speaks)."""
        self.verify_punter(False)
        return self._record(self._punter_decides(False))

    def _punter_decides(self, draws: bool) -> list[Event]:
        raise NotImplementedError

    def _punter_legal(self, seat: int) -> list[Legal]:
        return [
            Legal(act=act, seat=seat)
            for act, can in ((Act.DRAW, self.can_draw()), (Act.STAND, self.can_stand()))
            if can
        ]

    def banker_free(self) -> bool:
        """Whether the banker has a choice to make now."""
        raise NotImplementedError

    def can_banker_draw(self) -> bool:
        """Whether the banker may choose to draw now."""
        return self.banker_free()

    def can_banker_stand(self) -> bool:
        """Whether the banker may choose to stand now."""
        return self.banker_free()

    def verify_banker(self) -> None:
        """Raise unless the banker has a choice to make."""
        if not self.banker_free():
            raise self.error(self.no_banker)

    def banker_draw(self) -> tuple[Event, ...]:
        """The banker draws a third card (his choice)."""
        self.verify_banker()
        return self._record(self._banker_decides(True))

    def banker_stand(self) -> tuple[Event, ...]:
        """The banker stands (his choice)."""
        self.verify_banker()
        return self._record(self._banker_decides(False))

    def _banker_decides(self, draws: bool) -> list[Event]:
        raise NotImplementedError

    def _banker_legal(self, seat: int) -> list[Legal]:
        if seat != self.banker or not self.banker_free():
            return []
        return [Legal(act=Act.BANKER_DRAW, seat=seat), Legal(act=Act.BANKER_STAND, seat=seat)]

    def _third_card(self, who: str, cards: list[Card], draws: bool) -> tuple[Card | None, str, str]:
        """A hand draws (a card from the shoe onto ``cards``) or stands: the card, the
        words, and the words for the table (the third card face up, no total: the first
        two cards lie face down)."""
        total = hand_total(cards)
        if not draws:
            return None, f"{who} has {total} and stands.", f"The {who.lower()} stands."
        card = self.shoe.draw()
        cards.append(card)
        words = f"{who} has {total} and draws {card}: {hand_total(cards)}."
        return card, words, f"The {who.lower()} draws: {card}."
