"""The shoe: shuffling by seed, burn, cut card and the last-hand rule."""

from __future__ import annotations

from collections import Counter

import pytest

from baccara.cards import full_deck, parse_cards
from baccara.coup import deal_coup, deal_shoe
from baccara.shoe import Shoe, ShoeError, ShoeSettings, composition_by_value


def test_whole_eight_deck_shoe_accounts_for_every_card() -> None:
    shoe = Shoe.shuffled(ShoeSettings(decks=8), seed=2024)
    assert Counter(shoe.cards) == Counter(full_deck() * 8)
    coups = list(deal_shoe(shoe))
    dealt = [card for coup in coups for card in coup.deal_order()]
    seen = list(shoe.burned) + dealt
    assert seen == list(shoe.dealt)  # every card taken is burned or in a coup, in order
    assert len(seen) + shoe.remaining == 416
    remaining = Counter(shoe.cards[shoe.position :])
    assert Counter(seen) + remaining == Counter(full_deck() * 8)
    assert shoe.finished and shoe.cut_card_out


def test_same_seed_same_shoe_and_different_seeds_differ() -> None:
    settings = ShoeSettings(decks=8)
    assert Shoe.shuffled(settings, seed=7).cards == Shoe.shuffled(settings, seed=7).cards
    assert Shoe.shuffled(settings, seed=7).cards != Shoe.shuffled(settings, seed=8).cards
    assert Shoe.shuffled(settings, seed=7, index=1).cards != Shoe.shuffled(settings, seed=7).cards


def test_unseeded_shoes_use_the_system_generator() -> None:
    settings = ShoeSettings(decks=1)
    assert Shoe.shuffled(settings).cards != Shoe.shuffled(settings).cards  # 1 in 52! to fail


@pytest.mark.parametrize(("first", "burned"), [("5h", 5), ("Ks", 10), ("Ad", 1), ("9c", 9)])
def test_burn_exposes_the_first_card_and_burns_its_value(first: str, burned: int) -> None:
    shoe = Shoe.shuffled(ShoeSettings(decks=1, burn=False), seed=1)
    cards = (*parse_cards(first), *(c for c in shoe.cards if str(c) != first))
    stacked = Shoe(cards, settings=ShoeSettings(decks=1))
    out = stacked.burn()
    assert out[0] == parse_cards(first)[0]
    assert len(out) == 1 + burned
    assert stacked.position == 1 + burned


def test_burn_rule_options() -> None:
    cards = parse_cards("As") + full_deck()[1:]
    assert len(Shoe(cards, settings=ShoeSettings(decks=1, ace_burns=11)).burn()) == 12
    assert Shoe(cards, settings=ShoeSettings(decks=1, burn=False)).burn() == ()


def _coup_starts(shoe: Shoe) -> list[int]:
    starts = []
    while not shoe.finished:
        starts.append(shoe.position)
        deal_coup(shoe)
    return starts


def test_cut_card_out_during_a_coup_means_one_more_coup() -> None:
    # Every coup is a Player natural 9 against a Banker 0: four cards each.
    cards = parse_cards("9s Ts Ts Ts") * 13
    shoe = Shoe.stacked(cards, cut_card=len(cards) - 10)  # cut card after card 10
    starts = _coup_starts(shoe)
    # coup at 8 takes cards 8-11 and the cut card comes out after card 10: one more at 12.
    assert starts == [0, 4, 8, 12]


def test_cut_card_where_a_coup_starts_makes_that_coup_the_last() -> None:
    cards = parse_cards("9s Ts Ts Ts") * 13
    shoe = Shoe.stacked(cards, cut_card=len(cards) - 8)  # the cut card sits before card 8
    assert _coup_starts(shoe) == [0, 4, 8]


def test_no_coup_starts_with_fewer_than_six_cards() -> None:
    shoe = Shoe.stacked(parse_cards("9s Ts Ts Ts 9s Ts Ts Ts 9s"), cut_card=0)
    assert _coup_starts(shoe) == [0]


def test_compositions() -> None:
    shoe = Shoe.stacked(parse_cards("Ah Kd 5s 5c"))
    assert shoe.composition_by_rank() == (1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1)
    assert shoe.composition_by_value() == (1, 1, 0, 0, 0, 2, 0, 0, 0, 0)
    shoe.draw()
    assert shoe.composition_by_value() == (1, 0, 0, 0, 0, 2, 0, 0, 0, 0)
    assert composition_by_value([24] * 13) == (96, *(24,) * 9)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decks": 0}, "decks 0"),
        ({"decks": 13}, "decks 13"),
        ({"decks": 1, "cut_card": 53}, "cut card"),
        ({"cut_card": -1}, "cut card"),
        ({"ten_burns": 12}, "burn"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ShoeError, match=message):
        ShoeSettings(**kwargs)


def test_empty_shoe_errors() -> None:
    shoe = Shoe.stacked(parse_cards("9s"))
    shoe.draw()
    with pytest.raises(ShoeError, match="empty"):
        shoe.draw()
    with pytest.raises(ShoeError, match="finished"):
        shoe.start_coup()
