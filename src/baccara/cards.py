"""Cards, their notation and their baccarat point values.

A card is written rank then suit: ``"Ah"``, ``"Td"``, ``"9s"``. Ranks are
``A 2 3 4 5 6 7 8 9 T J Q K`` and suits ``s h d c``. An ace counts 1, two to
nine their face value, tens and faces 0; a hand is worth its sum modulo 10.

>>> Card.parse("Kd")
Card.parse('Kd')
>>> hand_total(parse_cards("8h 9c"))
7
>>> format_cards(parse_cards("9h,Kd"))
'9h,Kd'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "format_cards",
    "full_deck",
    "hand_total",
    "parse_cards",
    "parse_ranks",
]


class CardError(ValueError):
    """A card, rank or suit that is not in the notation."""


class Rank(StrEnum):
    """A card's rank; the value is its notation."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def points(self) -> int:
        """Baccarat point value: A = 1, 2-9 face value, T/J/Q/K = 0.

        >>> Rank("A").points, Rank("7").points, Rank("Q").points
        (1, 7, 0)
        """
        return _POINTS[self]

    @property
    def order(self) -> int:
        """Position in the order A, 2, ..., K (0 to 12)."""
        return _RANK_INDEX[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank; ``10`` is accepted for ``T`` and case is ignored.

        >>> Rank.parse("t"), Rank.parse("10")
        (<Rank.TEN: 'T'>, <Rank.TEN: 'T'>)
        """
        token = text.strip().upper()
        if token == "10":
            token = "T"
        try:
            return cls(token)
        except ValueError:
            raise CardError(f"unknown rank {text!r}: use A 2 3 4 5 6 7 8 9 T J Q K") from None

    def __str__(self) -> str:
        return self.value


class Suit(StrEnum):
    """A card's suit; the value is its notation."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        """The suit's symbol, for display."""
        return _SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.value


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
_POINTS = {rank: min(i + 1, 10) % 10 for i, rank in enumerate(RANKS)}
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_SYMBOL = {symbol: suit for suit, symbol in _SYMBOLS.items()}
_SPLIT = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class Card:
    """A playing card.

    >>> card = Card(rank=Rank.ACE, suit=Suit.HEARTS)
    >>> str(card), card.points
    ('Ah', 1)
    >>> Card.parse("10♠")
    Card.parse('Ts')
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"Ah"``, ``"td"``, ``"10s"`` or ``"Q♥"``; raise `CardError` otherwise."""
        token = text.strip()
        if len(token) < 2:
            raise CardError(f"bad card {text!r}: write rank then suit, as in 'Ah' or 'Td'")
        rank_text, suit_text = token[:-1], token[-1]
        suit = _SUIT_BY_SYMBOL.get(suit_text)
        if suit is None:
            try:
                suit = Suit(suit_text.lower())
            except ValueError:
                raise CardError(
                    f"bad card {text!r}: unknown suit {suit_text!r}, use s h d c"
                ) from None
        try:
            rank = Rank.parse(rank_text)
        except CardError:
            raise CardError(f"bad card {text!r}: unknown rank {rank_text!r}") from None
        return cls(rank=rank, suit=suit)

    @property
    def points(self) -> int:
        """Baccarat point value of the card."""
        return _POINTS[self.rank]

    @property
    def index(self) -> int:
        """Index 0-51 in a fresh deck ordered by suit (s h d c) then rank (A..K)."""
        return SUITS.index(self.suit) * 13 + self.rank.order

    @property
    def pretty(self) -> str:
        """The card with its suit symbol: ``'A♥'``."""
        return f"{self.rank.value}{self.suit.symbol}"

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse cards separated by commas or spaces (or an iterable of tokens).

    >>> parse_cards("Ah, 10d Ks")
    (Card.parse('Ah'), Card.parse('Td'), Card.parse('Ks'))
    >>> parse_cards("")
    ()
    """
    tokens = _SPLIT.split(text.strip()) if isinstance(text, str) else list(text)
    return tuple(Card.parse(token) for token in tokens if token)


def parse_ranks(text: str) -> tuple[Rank, ...]:
    """Parse ranks, or cards whose suits are ignored, separated by commas or spaces.

    >>> parse_ranks("A, 9 Kd")
    (<Rank.ACE: 'A'>, <Rank.NINE: '9'>, <Rank.KING: 'K'>)
    """
    ranks = []
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        if len(token) >= 2 and token != "10":
            ranks.append(Card.parse(token).rank)
        else:
            ranks.append(Rank.parse(token))
    return tuple(ranks)


def format_cards(cards: Iterable[Card]) -> str:
    """Format cards as the comma-separated notation ``parse_cards`` reads."""
    return ",".join(str(card) for card in cards)


def hand_total(cards: Sequence[Card] | Sequence[int]) -> int:
    """Total of a hand: the sum of point values modulo 10 (cards or point values).

    >>> hand_total([6, 7]), hand_total(parse_cards("4s 6h"))
    (3, 0)
    """
    return sum(c if isinstance(c, int) else c.points for c in cards) % 10


def full_deck() -> tuple[Card, ...]:
    """The 52 cards of one deck, by suit (s h d c) then rank (A..K).

    >>> deck = full_deck()
    >>> len(deck), deck[0], deck[-1]
    (52, Card.parse('As'), Card.parse('Kc'))
    """
    return tuple(Card(rank=rank, suit=suit) for suit in SUITS for rank in RANKS)
