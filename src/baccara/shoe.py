"""The shoe: decks shuffled together, a cut card, the burn, and the last-hand rule.

Randomness is always injected: a seed, a ``numpy.random.Generator``, or, when
neither is given, the operating system's CSPRNG. There is one shuffle, `fisher_yates`,
over the ordered decks; a seed feeds it shoe ``index``'s own stream (`shoe_stream`).
The simulator's compiled kernels run the same steps on the same stream, bit for bit,
so shoe ``k`` of seed ``S`` is the same card order at the table, in ``baccara deal
--seed S --shoe k`` and in ``baccara simulate --seed S``; the provably fair shoes
(`baccara.fair`) run it on their HMAC stream.

>>> shoe = Shoe.shuffled(ShoeSettings(decks=1, burn=False), seed=7)
>>> len(shoe), shoe.remaining, shoe.cut_index
(52, 52, 38)
>>> shoe.draw()
Card.parse('Kh')
>>> Shoe.shuffled(ShoeSettings(decks=1, burn=False), seed=7).draw()
Card.parse('Kh')

The last-hand rule: when the cut card comes out, the coup is finished and one
more is dealt; if it comes out where a coup's first card would be, that coup is
the last. `start_coup` and `finish_coup` keep that book.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from baccara.cards import RANKS, Card, full_deck

if TYPE_CHECKING:  # numpy is loaded when a seeded shoe is dealt, not by every command
    import numpy as np

__all__ = [
    "MAX_DECKS",
    "Shoe",
    "ShoeError",
    "ShoeSettings",
    "ShoeStream",
    "composition_by_value",
    "fisher_yates",
    "generator_below",
    "shoe_seed_state",
    "shoe_stream",
]

T = TypeVar("T")

MAX_DECKS = 12
_COUP_MAX_CARDS = 6


class ShoeError(ValueError):
    """Bad shoe settings, or a draw from a shoe that cannot give one."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeSettings:
    """How a shoe is made and dealt.

    ``cut_card`` counts the cards left behind the cut card (0 deals to the end).
    With ``burn`` on, the first card is exposed and as many cards as its point
    value are burned; a ten or face burns ``ten_burns`` (10) and an ace
    ``ace_burns`` (1; a few houses burn 11).

    >>> ShoeSettings(decks=0)
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
        "seed",
        "settings",
    )

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        settings: ShoeSettings,
        seed: int | None = None,
        index: int = 0,
    ):
        self._cards: tuple[Card, ...] = tuple(cards)
        self.settings = settings
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
        settings: ShoeSettings | None = None,
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
        settings = settings or ShoeSettings()
        below: Callable[[int], int] = secrets.randbelow
        if rng is not None:
            below = generator_below(rng)
        elif seed is not None:
            below = shoe_stream(seed, index).below
        cards = fisher_yates(full_deck() * settings.decks, below)
        return cls(cards, settings=settings, seed=seed, index=index)

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
        settings = ShoeSettings(decks=decks, cut_card=min(cut_card, len(cards)), burn=burn)
        return cls(cards, settings=settings)

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
        return len(self._cards) - self.settings.cut_card

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
        if not self.settings.burn:
            return ()
        exposed = self.draw()
        count = exposed.points
        if count == 0:
            count = self.settings.ten_burns
        elif count == 1:
            count = self.settings.ace_burns
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


def shoe_seed_state(seed: int, index: int = 0) -> tuple[int, int, int, int]:
    """The four 64-bit words that start shoe ``index`` of the series ``seed``.

    numpy's ``SeedSequence(seed, spawn_key=(index,))`` (``SeedSequence(seed).spawn(n)
    [index]`` gives the same): each shoe has its own stream, so shoe 1000 of a series
    is the same whether it is dealt after shoe 999 or alone on another worker.
    """
    if seed < 0 or index < 0:
        raise ShoeError(f"bad seed {seed} or shoe index {index}: both must be >= 0")
    import numpy as np

    sequence = np.random.SeedSequence(entropy=seed, spawn_key=(index,))
    a, b, c, d = (int(word) for word in sequence.generate_state(4, np.uint64))
    return a, b, c, d


_MASK64 = (1 << 64) - 1


class ShoeStream:
    """A shoe's random stream: xoshiro256** (Blackman and Vigna) and its bounded draws.

    >>> stream = shoe_stream(7)
    >>> [stream.below(52) for _ in range(5)], shoe_stream(7).next64() == shoe_stream(7).next64()
    ([15, 45, 51, 12, 37], True)
    """

    __slots__ = ("_quarters", "_s0", "_s1", "_s2", "_s3", "_word")

    def __init__(self, state: Sequence[int]) -> None:
        self._s0, self._s1, self._s2, self._s3 = (int(word) & _MASK64 for word in state)
        self._word = 0
        self._quarters = 0

    def next64(self) -> int:
        """The next 64-bit output."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        x = (s1 * 5) & _MASK64
        result = ((((x << 7) | (x >> 57)) & _MASK64) * 9) & _MASK64
        t = (s1 << 17) & _MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _MASK64
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3
        return result

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, ``bound`` at most 2**16 (Lemire, 2019).

        Each output serves four draws, 16 bits each from the top; a rejected quarter
        (probability below ``bound / 2**16``) is replaced by the top 16 bits of a
        fresh output.
        """
        if not 1 <= bound <= 1 << 16:
            raise ShoeError(f"bad bound {bound}: 1 to 65536")
        if self._quarters == 0:
            self._word, self._quarters = self.next64(), 4
        self._quarters -= 1
        m = ((self._word >> (16 * self._quarters)) & 0xFFFF) * bound
        if m & 0xFFFF < bound:
            threshold = (0x10000 - bound) % bound
            while m & 0xFFFF < threshold:
                m = (self.next64() >> 48) * bound
        return m >> 16


def shoe_stream(seed: int, index: int = 0) -> ShoeStream:
    """The random stream of shoe ``index`` in the series ``seed`` (see `shoe_seed_state`)."""
    return ShoeStream(shoe_seed_state(seed, index))


def fisher_yates(items: Sequence[T], below: Callable[[int], int]) -> list[T]:
    """The one shuffle: for ``i`` from ``n - 1`` down to 1, swap item ``i`` with item
    ``below(i + 1)`` (a uniform integer in ``[0, i + 1)`` from the caller's random source).

    >>> fisher_yates("abcde", shoe_stream(1).below)
    ['e', 'b', 'a', 'c', 'd']
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
    `fisher_yates` with it gives ``generator.permutation``'s order (`Shoe.shuffled`'s
    ``rng``).

    >>> import numpy as np
    >>> rng = np.random.default_rng(9)
    >>> fisher_yates(range(52), generator_below(rng)) == np.random.default_rng(9).permutation(
    ...     52
    ... ).tolist()
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
