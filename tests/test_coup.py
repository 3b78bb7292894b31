"""Coups: dealing by the tableau, the compact notation, explanations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccara import rules
from baccara.cards import RANKS, SUITS, Card, hand_total, parse_cards
from baccara.coup import Coup, CoupError, Result, deal_coup, deal_shoe, explain
from baccara.shoe import Shoe, ShoeSettings

cards = st.builds(Card, rank=st.sampled_from(RANKS), suit=st.sampled_from(SUITS))


@st.composite
def coups(draw: st.DrawFn) -> Coup:
    """Any legal coup: six cards drawn, dealt by the tableau."""
    return deal_coup(Shoe.stacked(draw(st.lists(cards, min_size=6, max_size=6))))


@given(coups())
def test_notation_round_trips(coup: Coup) -> None:
    assert Coup.parse(str(coup)) == coup
    assert Coup.parse(str(coup).lower()) == coup
    assert eval(repr(coup), {"Coup": Coup}) == coup
    assert Coup.from_deal(coup.deal_order()) == coup


@given(coups())
def test_dealt_coups_follow_the_tableau(coup: Coup) -> None:
    p2, b2 = hand_total(coup.player[:2]), hand_total(coup.banker[:2])
    if rules.is_natural(p2) or rules.is_natural(b2):
        assert coup.cards == 4 and coup.natural
        return
    assert (len(coup.player) == 3) is rules.player_draws(p2)
    third = coup.player[2].points if len(coup.player) == 3 else None
    assert (len(coup.banker) == 3) is rules.banker_draws(b2, third)
    assert coup.winner is (
        Result.PLAYER
        if coup.player_total > coup.banker_total
        else Result.BANKER
        if coup.banker_total > coup.player_total
        else Result.TIE
    )


def test_deal_order_is_p1_b1_p2_b2_then_thirds() -> None:
    coup = deal_coup(Shoe.stacked(parse_cards("2h 5s 3d Qc 4c 9d")))
    assert str(coup) == "P:2h,3d,4c B:5s,Qc,9d"
    assert [str(c) for c in coup.deal_order()] == ["2h", "5s", "3d", "Qc", "4c", "9d"]


def test_facts() -> None:
    coup = Coup.parse("P:Kh,Kd B:8c,Td")
    assert (coup.player_total, coup.banker_total, coup.winner) == (0, 8, Result.BANKER)
    assert coup.natural and coup.banker_natural and not coup.player_natural
    assert coup.player_pair and not coup.banker_pair
    assert coup.cards == 4


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("P:9h,Kd B:5s,Qc,3d", "natural 9: no more cards are drawn, but a third card was dealt"),
        ("P:2h,3d B:Ks,7c", "Player draws on 0-5, but the Player has no third card"),
        ("P:6h,Kd,2c B:Ks,7c", "Player stands on 6 or 7, but the Player drew a third card"),
        (
            "P:2h,3d,8c B:Ks,3c,2d",
            "Banker stands on 3-7 against an 8, but the Banker drew a third card",
        ),
        ("P:2h,3d,Tc B:Ks,2c", "Banker always draws on 0-2, but the Banker has no third card"),
        ("P:2h B:Ks,2c", "the Player holds 1 cards"),
    ],
)
def test_impossible_coups_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(CoupError, match="impossible coup") as info:
        Coup.parse(text)
    assert reason in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9h,Kd 5s,Qc", "expected 'P:<cards> B:<cards>'"),
        ("P:9h,Kd", "expected both hands"),
        ("P:9h,Kd P:5s,Qc", "given twice"),
        ("P:9h,Zd B:5s,Qc", "unknown rank 'Z'"),
        ("", "expected both hands"),
    ],
)
def test_malformed_coups_are_named(text: str, message: str) -> None:
    with pytest.raises(CoupError, match=message):
        Coup.parse(text)


def test_explanation_of_a_natural() -> None:
    assert explain(Coup.parse("P:9h,Kd B:5s,Qc")) == [
        "Player's first two cards: 9h Kd, total 9. Banker's: 5s Qc, total 5.",
        "Player has a natural 9: no more cards are drawn.",
        "Nine to the Player, five to the Banker: Player wins.",
    ]


def test_explanation_of_a_banker_stand() -> None:
    lines = explain(Coup.parse("P:2h,3d,8c B:Ks,3c"))
    assert lines[2] == "Player has 5: Player draws on 0-5. Player draws 8c: total 3."
    assert lines[3] == (
        "Banker has 3 and the Player's third card is an 8: Banker stands on 3-7 against an 8."
    )
    assert lines[4] == "Three to the Player, three to the Banker: a tie."


def test_seeded_shoe_is_deterministic() -> None:
    first = list(deal_shoe(Shoe.shuffled(ShoeSettings(decks=8), seed=99)))
    second = list(deal_shoe(Shoe.shuffled(ShoeSettings(decks=8), seed=99)))
    assert first == second
    assert 60 < len(first) < 90
