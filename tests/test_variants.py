"""The variant registry, and one conformance run over every variant."""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccara.bets import BetOutcome, bets_for, payout, settle
from baccara.coup import deal_shoe
from baccara.shoe import Shoe, ShoeSettings
from baccara.variants import VARIANTS, Family, VariantError, find_variant, variants_of

HOUSE_BANKED = [v.name for v in variants_of([Family.PUNTO_BANCO])]


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Punto Banco", "punto-banco"),
        ("baccarat", "punto-banco"),
        ("punto-2000", "super6"),
        ("No Commission", "super6"),
        ("super-6", "super6"),
        ("EZ_Baccarat", "ez"),
        ("mini-baccarat", "mini"),
        ("tie-9-1", "tie-9"),
        ("4-percent", "commission-4"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert find_variant(alias).name == name


def test_pay_tables() -> None:
    assert find_variant("punto-banco").banker_pays == Fraction(19, 20)
    assert find_variant("punto-banco").tie_pays == 8
    assert find_variant("tie-9").tie_pays == 9
    assert find_variant("commission-4").commission == Fraction(1, 25)
    assert find_variant("super6").banker_six_pays == Fraction(1, 2)
    assert find_variant("ez").banker_three_card_seven_pushes
    assert find_variant("mini").seats == 7 and find_variant("punto-banco").seats == 14


def test_unknown_variant_lists_the_choices() -> None:
    with pytest.raises(VariantError, match=r"unknown variant 'x'.*punto-banco"):
        find_variant("x")


def test_variants_are_frozen() -> None:
    with pytest.raises(AttributeError):
        find_variant("ez").tie_pays = 9  # type: ignore[misc]


@pytest.mark.parametrize("name", HOUSE_BANKED)
def test_a_whole_shoe_settles_consistently_under_every_variant(name: str) -> None:
    variant = VARIANTS[name]
    shoe = Shoe.shuffled(ShoeSettings(decks=variant.decks), seed=11)
    coups = list(deal_shoe(shoe))
    assert sum(len(c.player) + len(c.banker) for c in coups) + len(shoe.burned) == shoe.position
    for coup in coups:
        for kind in bets_for(variant):
            s = settle(kind, 1000, coup, variant)
            assert s.returned == s.stake + s.net >= 0
            assert (s.outcome is BetOutcome.WIN) is (s.net > 0)
            assert (s.outcome is BetOutcome.PUSH) is (s.net == 0)
            assert s.net <= 1000 * 40
            assert payout(kind, coup, variant).ratio * 1000 >= s.net
