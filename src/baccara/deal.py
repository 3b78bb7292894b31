"""The dealer: who gets the next card of a coup, as an explicit chance model.

A coup's state is the point values dealt so far to each hand (and any choice a
player made in a free cell). `step` says what happens next, as OpenSpiel's chance
nodes do: a card goes to a hand (`Deal`), a player must choose to draw or stand in
a free cell of the tableau (`Choose`), or the coup is over (`OVER`). The deal order
(P1, B1, P2, B2, then the Player's third card, then the Banker's) and the drawing
rules live here and in `baccara.rules` only; the coup dealer, the exact engine's
tables, the simulator's compiled tables and the skill solver's enumeration are all
derived from this model.

>>> state = DealState()
>>> for points in (2, 5, 3, 0):
...     state = state.dealt(points)
>>> state, step(state)
(DealState(player=(2, 3), banker=(5, 0)), Deal(side=<Side.PLAYER: 'P'>))
>>> play((2, 5, 3, 0, 4, 9))
Ending(player=(2, 3, 4), banker=(5, 0, 9))

A players' game has free cells; a `DrawingRules` marks them ``None``:

>>> chemin = DrawingRules.from_rows(player=(True,) * 5 + (None, False, False))
>>> step(DealState(player=(2, 3), banker=(5, 0)), chemin)
Choose(side=<Side.PLAYER: 'P'>, total=5, third=None)
>>> step(DealState(player=(2, 3), banker=(5, 0), player_choice=False), chemin)
Deal(side=<Side.BANKER: 'B'>)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import Literal

from baccara import rules

__all__ = [
    "ALL_FREE",
    "FIRST_CARDS",
    "OVER",
    "PUNTO_BANCO",
    "Choose",
    "Deal",
    "DealError",
    "DealState",
    "DrawingRules",
    "Ending",
    "HalvesState",
    "Over",
    "Side",
    "ending_index",
    "ending_table",
    "order_of",
    "play",
    "step",
    "step_halves",
]


class DealError(ValueError):
    """A coup state the model cannot continue (a card after the end, a missing choice)."""


class Side(StrEnum):
    """The two hands; the value is the notation."""

    PLAYER = "P"
    BANKER = "B"

    @property
    def word(self) -> Literal["player", "banker"]:
        """``'player'`` or ``'banker'``."""
        return "player" if self is Side.PLAYER else "banker"

    @property
    def other(self) -> Side:
        """The opposite hand."""
        return Side.BANKER if self is Side.PLAYER else Side.PLAYER

    def __str__(self) -> str:
        return self.value


Rule = bool | None
"""A tableau cell: True draws, False stands, None is free (the player chooses)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawingRules:
    """The drawing rules as data: ``player[total]`` and ``banker[total][column]``.

    Columns 0-9 are the Player's third card's points, `rules.NO_CARD` (10) that the
    Player stood. Totals 8 and 9 are naturals and never consulted.
    """

    player: tuple[Rule, ...]
    banker: tuple[tuple[Rule, ...], ...]

    @classmethod
    def from_rows(
        cls,
        *,
        player: Sequence[Rule] | None = None,
        banker: Sequence[Sequence[Rule]] | None = None,
    ) -> DrawingRules:
        """A tableau with the given rows (totals 0-7), Punto Banco's where one is omitted."""
        p = tuple(player) if player is not None else PUNTO_BANCO.player[:8]
        b = tuple(tuple(row) for row in banker) if banker is not None else PUNTO_BANCO.banker[:8]
        if len(p) != 8 or len(b) != 8 or any(len(row) != rules.NO_CARD + 1 for row in b):
            raise DealError("a tableau has rows for totals 0-7 and 11 Banker columns")
        stand = (False,) * (rules.NO_CARD + 1)
        return cls(player=(*p, False, False), banker=(*b, stand, stand))

    @property
    def free(self) -> bool:
        """Whether any cell is left to a player's choice."""
        return None in self.player or any(None in row for row in self.banker)


PUNTO_BANCO = DrawingRules(player=rules.PLAYER_DRAWS, banker=rules.BANKER_DRAWS)
"""The house tableau of `baccara.rules`: every cell bound."""

ALL_FREE = DrawingRules.from_rows(player=(None,) * 8, banker=((None,) * (rules.NO_CARD + 1),) * 8)
"""Every non-natural cell free: lets a choice reach any hand sizes (see `order_of`)."""


def _half_field(half: int) -> str:
    """A node's ``half`` in its repr: said only at a table of several halves."""
    return f", half={half}" if half else ""


@dataclass(frozen=True, slots=True)
class Deal:
    """A chance node: the next card out of the shoe goes to ``side`` (at a table of
    several halves, a Player's ``side`` is the punters' hand of ``half``)."""

    side: Side
    half: int = 0

    def __repr__(self) -> str:
        return f"Deal(side={self.side!r}{_half_field(self.half)})"


@dataclass(frozen=True, slots=True)
class Choose:
    """A decision node: ``side`` holds ``total`` in a free cell and chooses to draw or stand.

    ``third`` is the Player's third card's points (None if he stood) when the Banker
    chooses against a single punters' hand; ``half`` the punters' hand that chooses at a
    table of several (where the banker sees every half, and ``third`` is None).
    """

    side: Side
    total: int
    third: int | None
    half: int = 0

    def __repr__(self) -> str:
        fields = f"side={self.side!r}, total={self.total}, third={self.third}"
        return f"Choose({fields}{_half_field(self.half)})"


@dataclass(frozen=True, slots=True)
class Over:
    """The coup is over."""

    def __repr__(self) -> str:
        return "OVER"


OVER = Over()
"""The one terminal step."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DealState:
    """A coup so far: the point values each hand holds, and the choices made in free cells."""

    player: tuple[int, ...] = ()
    banker: tuple[int, ...] = ()
    player_choice: bool | None = field(default=None, repr=False)
    banker_choice: bool | None = field(default=None, repr=False)

    def dealt(self, points: int, tableau: DrawingRules | None = None) -> DealState:
        """The state after the next card (of ``points``) goes where `step` says."""
        now = step(self, tableau or PUNTO_BANCO)
        if not isinstance(now, Deal):
            raise DealError(f"no card is due in {self!r}: {now!r}")
        return self.given(now.side, points)

    def given(self, side: Side, points: int) -> DealState:
        """The state after a card of ``points`` goes to ``side`` (as `step` said: not checked)."""
        player, banker = self.player, self.banker
        if side is Side.PLAYER:
            player = (*player, points)
        else:
            banker = (*banker, points)
        return DealState(  # not `replace`: this is the research games' inner loop
            player=player,
            banker=banker,
            player_choice=self.player_choice,
            banker_choice=self.banker_choice,
        )

    def chose(self, side: Side, draws: bool) -> DealState:
        """The state after ``side`` chose to draw (True) or stand in a free cell."""
        player, banker = self.player_choice, self.banker_choice
        if side is Side.PLAYER:
            player = draws
        else:
            banker = draws
        return DealState(
            player=self.player, banker=self.banker, player_choice=player, banker_choice=banker
        )


Step = Deal | Choose | Over


def _total(points: Iterable[int]) -> int:
    return sum(points) % 10


def step(state: DealState, tableau: DrawingRules = PUNTO_BANCO) -> Step:
    """What happens next in ``state``: a card to a hand, a choice, or the end.

    >>> step(DealState()), step(DealState(player=(4,)))
    (Deal(side=<Side.PLAYER: 'P'>), Deal(side=<Side.BANKER: 'B'>))
    >>> step(DealState(player=(4, 4), banker=(1, 1)))
    OVER
    >>> step(DealState(player=(1, 1), banker=(3, 0))), step(DealState(player=(1, 1, 8), banker=(3, 0)))
    (Deal(side=<Side.PLAYER: 'P'>), OVER)
    """
    p, b = len(state.player), len(state.banker)
    if p < 2 or b < 2:  # the first four cards alternate, the Player's first
        if b > p or p > b + 1:
            raise DealError(f"impossible deal: {p} Player and {b} Banker cards before the fourth")
        return Deal(Side.PLAYER if p == b else Side.BANKER)
    if p > 3 or b > 3:
        raise DealError(f"impossible deal: a hand holds {max(p, b)} cards")
    p_two, b_two = _total(state.player[:2]), _total(state.banker[:2])
    if rules.is_natural(p_two) or rules.is_natural(b_two):
        return _over_with(p == 2 and b == 2, state)
    punter = _punter_step(state.player, state.player_choice, tableau, 0)
    if punter is not None:
        if b == 3 and isinstance(punter, Deal):
            raise DealError(f"impossible deal: the Banker drew before the Player in {state!r}")
        return punter
    third = state.player[2] if p == 3 else None
    if b == 3:
        return OVER
    column = rules.NO_CARD if third is None else third
    draws = _resolve(tableau.banker[b_two][column], state.banker_choice)
    if draws is None:
        return Choose(Side.BANKER, b_two, third)
    return Deal(Side.BANKER) if draws else OVER


def _punter_step(
    hand: tuple[int, ...], choice: bool | None, tableau: DrawingRules, at: int
) -> Deal | Choose | None:
    """A punters' hand's turn (of two cards, no natural about): its third card, its
    choice, or None once it is done (it drew, or stands)."""
    if len(hand) == 3:
        return None
    two = _total(hand)
    draws = _resolve(tableau.player[two], choice)
    if draws is None:
        return Choose(Side.PLAYER, two, None, at)
    return Deal(Side.PLAYER, at) if draws else None


def _resolve(cell: Rule, choice: bool | None) -> bool | None:
    return cell if cell is not None else choice


def _over_with(two_each: bool, state: DealState) -> Over:
    if not two_each:
        raise DealError(f"impossible deal: a third card after a natural in {state!r}")
    return OVER


@dataclass(frozen=True, slots=True, kw_only=True)
class HalvesState:
    """A coup of several halves against one banker's hand (Baccarat Banque's two): the
    point values each punters' hand (``punters``, left first) and the banker hold, and
    the choices made in free cells.

    The deal goes round the hands, the banker's last, twice (L1, R1, B1, L2, R2, B2 for
    two halves); a banker's natural ends the coup; a half's natural is settled at
    once against the banker's two cards; each other half in order then draws or stands
    by the punter's row of the tableau, exactly as `step` has a single Player do; then the
    banker, who sees every half and is bound by no column, chooses once for all.

    >>> state = HalvesState.of(2)
    >>> for points in (2, 8, 1, 3, 0, 5):
    ...     state = state.given(step_halves(state), points)
    >>> state.punters, state.banker, step_halves(state)
    (((2, 3), (8, 0)), (1, 5), Deal(side=<Side.PLAYER: 'P'>))
    >>> state = state.given(Deal(Side.PLAYER), 4)  # the left half drew on 5
    >>> step_halves(state)  # the right one showed a natural: the banker chooses
    Choose(side=<Side.BANKER: 'B'>, total=6, third=None)
    """

    punters: tuple[tuple[int, ...], ...]
    banker: tuple[int, ...] = ()
    punter_choices: tuple[bool | None, ...] = ()
    """Each half's choice in a free cell (None: not made); empty: none made yet."""
    banker_choice: bool | None = None

    @classmethod
    def of(cls, halves: int) -> HalvesState:
        """The state before the first card of a coup of ``halves`` punters' hands."""
        if halves < 1:
            raise DealError(f"bad number of halves {halves}: at least 1")
        return cls(punters=((),) * halves, punter_choices=(None,) * halves)

    def given(self, deal: Deal, points: int) -> HalvesState:
        """The state after a card of ``points`` goes where ``deal`` says (not checked)."""
        punters, banker = self.punters, self.banker
        if deal.side is Side.BANKER:
            banker = (*banker, points)
        else:
            hands = list(punters)
            hands[deal.half] = (*hands[deal.half], points)
            punters = tuple(hands)
        return HalvesState(
            punters=punters,
            banker=banker,
            punter_choices=self.punter_choices,
            banker_choice=self.banker_choice,
        )

    def chose(self, choose: Choose, draws: bool) -> HalvesState:
        """The state after the hand that ``choose`` asks drew (True) or stood."""
        if choose.side is Side.BANKER:
            return replace(self, banker_choice=draws)
        choices = list(self.punter_choices or (None,) * len(self.punters))
        choices[choose.half] = draws
        return replace(self, punter_choices=tuple(choices))

    def natural(self, tableau: int) -> bool:
        """Whether a tableau's first two cards are a natural (settled at once)."""
        return rules.is_natural(_total(self.punters[tableau][:2]))

    @property
    def banker_natural(self) -> bool:
        """Whether the banker's first two cards are a natural (the coup is over)."""
        return rules.is_natural(_total(self.banker[:2]))


def step_halves(state: HalvesState, tableau: DrawingRules = PUNTO_BANCO) -> Step:
    """What happens next at a table of several halves (see `HalvesState`): a card to a
    hand, a choice, or the end. A punters' hand draws or stands by ``tableau``'s Player
    row, as `step` decides it.

    >>> step_halves(HalvesState.of(2)), step_halves(HalvesState(punters=((4,), ()), punter_choices=(None, None)))
    (Deal(side=<Side.PLAYER: 'P'>), Deal(side=<Side.PLAYER: 'P'>, half=1))
    """
    hands = (*state.punters, state.banker)
    dealt = [len(hand) for hand in hands]
    if min(dealt) < 2:  # round the hands, the banker's last, twice
        if dealt != sorted(dealt, reverse=True) or dealt[0] - dealt[-1] > 1:
            raise DealError(f"impossible deal: hands of {dealt} cards before the first three")
        first = dealt.index(min(dealt))
        if first == len(state.punters):
            return Deal(Side.BANKER)
        return Deal(Side.PLAYER, first)
    if state.banker_natural or all(state.natural(t) for t in range(len(state.punters))):
        if max(dealt) > 2:
            raise DealError(f"impossible deal: a third card after a natural in {state!r}")
        return OVER
    choices = state.punter_choices or (None,) * len(state.punters)
    for t, hand in enumerate(state.punters):
        if len(hand) > 3:
            raise DealError(f"impossible deal: a hand holds {len(hand)} cards")
        if not state.natural(t) and (own := _punter_step(hand, choices[t], tableau, t)):
            return own
    if len(state.banker) == 3:
        return OVER
    if state.banker_choice is None:
        return Choose(Side.BANKER, _total(state.banker), None)
    return Deal(Side.BANKER) if state.banker_choice else OVER


@dataclass(frozen=True, slots=True, kw_only=True)
class Ending:
    """A finished coup by point values: each hand's cards in the order dealt."""

    player: tuple[int, ...]
    banker: tuple[int, ...]

    @property
    def player_total(self) -> int:
        """The Player's final total."""
        return _total(self.player)

    @property
    def banker_total(self) -> int:
        """The Banker's final total."""
        return _total(self.banker)


def play(
    values: Iterable[int],
    tableau: DrawingRules = PUNTO_BANCO,
    *,
    player_choice: bool | None = None,
    banker_choice: bool | None = None,
) -> Ending:
    """Deal point ``values`` in shoe order by the model until the coup is over.

    Cards left over are not used; a free cell takes the choice given for its side.

    >>> play((9, 3, 0, 4, 7, 7)), play((1, 3, 4, 2, 8, 5))
    (Ending(player=(9, 0), banker=(3, 4)), Ending(player=(1, 4, 8), banker=(3, 2)))
    """
    state = DealState(player_choice=player_choice, banker_choice=banker_choice)
    cards = iter(values)
    while True:
        now = step(state, tableau)
        if isinstance(now, Over):
            return Ending(player=state.player, banker=state.banker)
        if isinstance(now, Choose):
            raise DealError(f"{now.side.word} must choose at {now.total}: no choice given")
        points = next(cards, None)
        if points is None:
            raise DealError("the cards ran out before the coup was over")
        state = state.given(now.side, points)


def order_of(player_cards: int, banker_cards: int) -> tuple[Side, ...]:
    """Who gets each card, in shoe order, of a coup that ends with these hand sizes.

    >>> "".join(order_of(3, 3)), "".join(order_of(2, 3))
    ('PBPBPB', 'PBPBB')
    """
    if not (2 <= player_cards <= 3 and 2 <= banker_cards <= 3):
        raise DealError(f"bad hand sizes {player_cards} and {banker_cards}: each is 2 or 3")
    state = DealState(player_choice=player_cards == 3, banker_choice=banker_cards == 3)
    order: list[Side] = []
    while isinstance(now := step(state, ALL_FREE), Deal):
        order.append(now.side)
        state = state.given(now.side, 0)
    return tuple(order)


FIRST_CARDS: tuple[Side, ...] = order_of(2, 2)
"""Who gets each of the first four cards: P1, B1, P2, B2."""


def ending_index(player_two: int, banker_two: int, fifth: int, sixth: int) -> int:
    """Index into `ending_table`: the two-card totals and the next two cards' points.

    >>> ending_index(9, 9, 9, 9)
    9999
    """
    return ((player_two * 10 + banker_two) * 10 + fifth) * 10 + sixth


@cache
def ending_table(tableau: DrawingRules = PUNTO_BANCO) -> tuple[tuple[int, int, int, int], ...]:
    """How every coup ends, for the compiled engines: 10,000 rows at `ending_index`.

    Each row is (Player total, Banker total, Player cards, Banker cards), from `play`
    on the deal whose first two cards per hand make the two totals (a hand's cards
    after the second count only through its total, which the model reads).

    >>> table = ending_table()
    >>> table[ending_index(5, 5, 4, 9)], table[ending_index(8, 2, 0, 0)]
    ((9, 4, 3, 3), (8, 2, 2, 2))
    """
    rows = []
    for pt in range(10):
        for bt in range(10):
            first = _first_four(pt, bt)
            for fifth in range(10):
                for sixth in range(10):
                    end = play((*first, fifth, sixth), tableau)
                    rows.append(
                        (end.player_total, end.banker_total, len(end.player), len(end.banker))
                    )
    return tuple(rows)


def _first_four(player_two: int, banker_two: int) -> tuple[int, ...]:
    """First four cards, in `FIRST_CARDS` order, making these two-card totals."""
    seen: set[Side] = set()
    cards = []
    for side in FIRST_CARDS:
        total = player_two if side is Side.PLAYER else banker_two
        cards.append(0 if side in seen else total)
        seen.add(side)
    return tuple(cards)
