"""Cards: notation, point values and hand totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccara.cards import (
    RANKS,
    SUITS,
    Card,
    CardError,
    Rank,
    Suit,
    format_cards,
    full_deck,
    hand_total,
    parse_cards,
    parse_ranks,
)

cards = st.builds(Card, rank=st.sampled_from(RANKS), suit=st.sampled_from(SUITS))


def test_point_values() -> None:
    # Seed 000: 2-9 face value, 10/J/Q/K zero, ace one.
    assert [rank.points for rank in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]


@pytest.mark.parametrize(
    ("hand", "total"),
    [
        ("8h 9c", 7),
        ("2s 3s", 5),
        ("6d 7d", 3),
        ("4c 6h", 0),
        ("Ah 8s", 9),
        ("Th 9s", 9),
        ("6s 6h", 2),
    ],
)
def test_hand_totals_from_the_seed_documents(hand: str, total: int) -> None:
    assert hand_total(parse_cards(hand)) == total


@given(cards)
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card  # repr rebuilds the value


@given(st.lists(cards, max_size=12))
def test_card_lists_round_trip(hand: list[Card]) -> None:
    assert parse_cards(format_cards(hand)) == tuple(hand)


def test_alternative_spellings() -> None:
    assert Card.parse("10s") == Card.parse("Ts") == Card.parse("t♠")
    assert Card.parse(" qH ") == Card(rank=Rank.QUEEN, suit=Suit.HEARTS)
    assert parse_ranks("A 10 kd") == (Rank.ACE, Rank.TEN, Rank.KING)


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("Zh", "unknown rank 'Z'"),
        ("Ax", "unknown suit 'x'"),
        ("A", "write rank then suit"),
        ("", "bad card"),
    ],
)
def test_bad_cards_are_named(token: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        Card.parse(token)


def test_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(CardError, match="'Xs'"):
        parse_cards("Ah Xs")


def test_full_deck() -> None:
    deck = full_deck()
    assert len(set(deck)) == 52
    assert [card.index for card in deck] == list(range(52))
    assert sum(card.points == 0 for card in deck) == 16
