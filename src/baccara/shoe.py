"""The shoe: decks shuffled together, a cut card, the burn, and the last-hand rule.

Randomness is always injected: a seed, a ``numpy.random.Generator``, or, when
neither is given, the operating system's CSPRNG. There is one shuffle, `fisher_yates`,
over the ordered decks; a seed feeds it shoe ``index``'s own stream (`shoe_generator`)
exactly as ``Generator.permutation`` draws (`generator_below`). The simulator's compiled
kernels run the same steps on the same stream, bit for bit, so shoe ``k`` of seed ``S``
is the same card order at the table, in ``baccara deal --seed S --shoe k`` and in
``baccara simulate --seed S``; the provably fair shoes (`baccara.fair`) run it on their
HMAC stream.

>>> shoe = Shoe.shuffled(ShoeRules(decks=1, burn=False), seed=7)
>>> len(shoe), shoe.remaining, shoe.cut_index
(52, 52, 38)
>>> shoe.draw()
Card.parse('5c')
>>> Shoe.shuffled(ShoeRules(decks=1, burn=False), seed=7).draw()
Card.parse('5c')

The last-hand rule: when the cut card comes out, the coup is finished and one
more is dealt; if it comes out where a coup's first card would be, that coup is
the last. `start_coup` and `finish_coup` keep that book.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from baccara.cards import RANKS, Card, full_deck

__all__ = [
    "MAX_DECKS",
    "Shoe",
    "ShoeError",
    "ShoeRules",
    "composition_by_value",
    "fisher_yates",
    "generator_below",
    "shoe_generator",
]

T = TypeVar("T")

MAX_DECKS = 12
_COUP_MAX_CARDS = 6


class ShoeError(ValueError):
    """Bad shoe rules, or a draw from a shoe that cannot give one."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeRules:
    """How a shoe is made and dealt.

    ``cut_card`` counts the cards left behind the cut card (0 deals to the end).
    With ``burn`` on, the first card is exposed and as many cards as its point
    value are burned; a ten or face burns ``ten_burns`` (10) and an ace
    ``ace_burns`` (1; a few houses burn 11).

    >>> ShoeRules(decks=0)
    Traceback (most recent call last):
    ...
    baccara.shoe.ShoeError: bad number of decks 0: expected 1 to 12
    """

    decks: int = 8
    cut_card: int = 14
    burn: bool = True
    ten_burns: int = 10
    ace_burns: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.decks <= MAX_DECKS:
            raise ShoeError(f"bad number of decks {self.decks}: expected 1 to {MAX_DECKS}")
        if not 0 <= self.cut_card <= self.size:
            raise ShoeError(
                f"bad cut card position {self.cut_card}: expected 0 to {self.size} cards from the end"
            )
        if not 0 <= self.ten_burns <= 11 or not 0 <= self.ace_burns <= 11:
            raise ShoeError("bad burn rule: a card burns 0 to 11 cards")

    @property
    def size(self) -> int:
        """Number of cards in the full shoe."""
        return 52 * self.decks


class Shoe:
    """A shoe of cards in dealing order, with the position of the cut card.

    Build one with `Shoe.shuffled` or `Shoe.stacked`; `draw` deals from the front.
    """

    __slots__ = (
        "_burned",
        "_cards",
        "_cut_out",
        "_finished",
        "_last_coup",
        "_position",
        "index",
        "rules",
        "seed",
    )

    def __init__(
        self, cards: Sequence[Card], *, rules: ShoeRules, seed: int | None = None, index: int = 0
    ):
        self._cards: tuple[Card, ...] = tuple(cards)
        self.rules = rules
        self.seed = seed
        self.index = index
        self._position = 0
        self._burned: tuple[Card, ...] = ()
        self._cut_out = False
        self._last_coup = False
        self._finished = False

    @classmethod
    def shuffled(
        cls,
        rules: ShoeRules | None = None,
        *,
        seed: int | None = None,
        index: int = 0,
        rng: np.random.Generator | None = None,
    ) -> Shoe:
        """A freshly shuffled shoe: the ``index``-th shoe of the series ``seed``.

        With ``seed`` (or ``rng``) the order is reproducible (with ``seed``, it is the
        simulator's shoe ``index``); with neither it comes from the operating system's
        CSPRNG.
        """
        rules = rules or ShoeRules()
        below: Callable[[int], int] = secrets.randbelow
        if seed is not None or rng is not None:
            below = generator_below(rng if rng is not None else shoe_generator(seed or 0, index))
        cards = fisher_yates(full_deck() * rules.decks, below)
        return cls(cards, rules=rules, seed=seed, index=index)

    @classmethod
    def stacked(cls, cards: Iterable[Card], *, cut_card: int = 0, burn: bool = False) -> Shoe:
        """A shoe holding exactly ``cards`` in this order (to replay a shoe or a test).

        >>> from baccara.cards import parse_cards
        >>> shoe = Shoe.stacked(parse_cards("9h Kd 5s Qc"))
        >>> shoe.remaining
        4
        """
        cards = tuple(cards)
        decks = max(1, -(-len(cards) // 52))
        if decks > MAX_DECKS:
            raise ShoeError(f"a stacked shoe holds at most {52 * MAX_DECKS} cards")
        rules = ShoeRules(decks=decks, cut_card=min(cut_card, len(cards)), burn=burn)
        return cls(cards, rules=rules)

    # -- dealing -----------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def position(self) -> int:
        """Number of cards taken from the shoe so far (burned cards included)."""
        return self._position

    @property
    def remaining(self) -> int:
        """Number of cards still in the shoe."""
        return len(self._cards) - self._position

    @property
    def cut_index(self) -> int:
        """Position of the cut card: the number of cards in front of it."""
        return len(self._cards) - self.rules.cut_card

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out."""
        return self._cut_out

    @property
    def burned(self) -> tuple[Card, ...]:
        """The exposed card and the cards burned after it."""
        return self._burned

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the shoe in dealing order."""
        return self._cards

    @property
    def dealt(self) -> tuple[Card, ...]:
        """The cards taken so far, in order (burned cards first)."""
        return self._cards[: self._position]

    def draw(self) -> Card:
        """Take the next card."""
        if self._position >= len(self._cards):
            raise ShoeError("the shoe is empty")
        card = self._cards[self._position]
        self._position += 1
        return card

    def burn(self) -> tuple[Card, ...]:
        """Expose the first card and burn as many as it says; return all of them.

        >>> from baccara.cards import parse_cards
        >>> shoe = Shoe.stacked(parse_cards("3h Ks Kd Kc 9s"), burn=True)
        >>> shoe.burn()
        (Card.parse('3h'), Card.parse('Ks'), Card.parse('Kd'), Card.parse('Kc'))
        """
        if self._position != 0:
            raise ShoeError("the burn comes before the first coup")
        if not self.rules.burn:
            return ()
        exposed = self.draw()
        count = exposed.points
        if count == 0:
            count = self.rules.ten_burns
        elif count == 1:
            count = self.rules.ace_burns
        count = min(count, self.remaining)
        self._burned = (exposed, *(self.draw() for _ in range(count)))
        return self._burned

    # -- the last-hand rule --------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Whether the shoe is over: its last coup was dealt, or too few cards remain."""
        return self._finished or self.remaining < _COUP_MAX_CARDS

    def start_coup(self) -> bool:
        """Mark the start of a coup; return whether it is the shoe's last one."""
        if self.finished:
            raise ShoeError("the shoe is finished: shuffle a new one")
        if self._position >= self.cut_index and not self._cut_out:
            self._cut_out = True  # the cut card comes out before this coup's first card
            self._last_coup = True
        elif self._cut_out:
            self._last_coup = True
        return self._last_coup

    def finish_coup(self) -> None:
        """Mark the end of a coup and apply the last-hand rule."""
        if self._last_coup:
            self._finished = True
        elif self._position > self.cut_index:
            self._cut_out = True  # it came out during this coup: one more coup follows

    # -- composition ---------------------------------------------------------------

    def composition_by_rank(self) -> tuple[int, ...]:
        """Counts of the remaining cards by rank, ordered A, 2, ..., K."""
        counts = [0] * 13
        for card in self._cards[self._position :]:
            counts[card.rank.order] += 1
        return tuple(counts)

    def composition_by_value(self) -> tuple[int, ...]:
        """Counts of the remaining cards by point value, ordered 0 (tens and faces), 1, ..., 9."""
        return composition_by_value(self.composition_by_rank())

    def __repr__(self) -> str:
        return (
            f"<Shoe {len(self)} cards, {self.remaining} left, "
            f"cut card at {self.cut_index}{', finished' if self.finished else ''}>"
        )


def shoe_generator(seed: int, index: int = 0) -> np.random.Generator:
    """The random stream of shoe number ``index`` in the series started by ``seed``.

    Each shoe has its own stream, so shoe 1000 of a series is the same whether it
    is dealt after shoe 999 or alone on another worker.
    """
    if seed < 0 or index < 0:
        raise ShoeError(f"bad seed {seed} or shoe index {index}: both must be >= 0")
    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


def fisher_yates(items: Sequence[T], below: Callable[[int], int]) -> list[T]:
    """The one shuffle: for ``i`` from ``n - 1`` down to 1, swap item ``i`` with item
    ``below(i + 1)`` (a uniform integer in ``[0, i + 1)`` from the caller's random source).

    >>> fisher_yates("abcde", generator_below(shoe_generator(1)))
    ['e', 'b', 'c', 'd', 'a']
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def generator_below(generator: np.random.Generator) -> Callable[[int], int]:
    """``below(m)`` as ``generator.permutation`` draws it, for a fresh PCG64 generator.

    numpy's bounded draw: the smallest all-ones mask over ``m - 1``, and 32-bit words
    (each 64-bit output split, low half first) masked until one is below ``m``. So
    `fisher_yates` with it gives ``generator.permutation``'s order, and the simulator's
    kernels (`baccara.sim._kernels`) repeat it in compiled code.

    >>> deck = list(range(52))
    >>> fisher_yates(deck, generator_below(shoe_generator(9, 4))) == [
    ...     int(i) for i in shoe_generator(9, 4).permutation(52)
    ... ]
    True
    """
    raw = generator.bit_generator.random_raw
    spare: list[int] = []

    def below(bound: int) -> int:
        top = bound - 1
        if not 0 <= top < 1 << 32:
            raise ShoeError(f"bad bound {bound}: 1 to 2**32")
        if top == 0:
            return 0  # numpy draws nothing for a single choice
        mask = (1 << top.bit_length()) - 1
        while True:
            if spare:
                word = spare.pop()
            else:
                out = int(raw())
                spare.append(out >> 32)
                word = out & 0xFFFFFFFF
            if word & mask <= top:
                return word & mask

    return below


def composition_by_value(by_rank: Sequence[int]) -> tuple[int, ...]:
    """Fold 13 counts by rank (A..K) into 10 counts by point value (0..9).

    >>> composition_by_value([4] * 13)
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    """
    if len(by_rank) != 13:
        raise ShoeError(f"expected 13 counts by rank, got {len(by_rank)}")
    counts = [0] * 10
    for rank, count in zip(RANKS, by_rank, strict=True):
        counts[rank.points] += count
    return tuple(counts)
