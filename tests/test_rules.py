"""The Punto Banco tableau, one printed cell at a time.

Source: seed document 000 ("Banker's Rule"), confirmed by 002 and 004: with the
Player's third card 2-3 the Banker draws on 0-4; 4-5: 0-5; 6-7: 0-6; 8: 0-2;
ace, 9, ten or face: 0-3; when the Player stood the Banker draws on 0-5.
"""

from __future__ import annotations

import pytest

from baccara import rules

# The printed tableau: Player's third card -> highest Banker total that draws.
PRINTED = {
    "none": 5,
    0: 3,
    1: 3,
    2: 4,
    3: 4,
    4: 5,
    5: 5,
    6: 6,
    7: 6,
    8: 2,
    9: 3,
}

CELLS = [
    (total, third, total <= PRINTED[third]) for total in range(8) for third in ("none", *range(10))
]


@pytest.mark.parametrize(
    ("banker_total", "player_third", "draws"),
    CELLS,
    ids=[f"banker_{t}_vs_{c}_{'draws' if d else 'stands'}" for t, c, d in CELLS],
)
def test_banker_tableau_cell(banker_total: int, player_third: int | str, draws: bool) -> None:
    third = None if player_third == "none" else int(player_third)
    assert rules.banker_draws(banker_total, third) is draws
    decision = rules.banker_decision(banker_total, third)
    assert decision.draws is draws
    assert ("draws" in decision.reason.split(":")[-1]) is draws
    assert f"Banker has {banker_total}" in decision.reason


@pytest.mark.parametrize("total", range(8))
def test_player_draws_on_0_to_5_and_stands_on_6_7(total: int) -> None:
    assert rules.player_draws(total) is (total <= 5)
    assert rules.player_decision(total).draws is (total <= 5)


@pytest.mark.parametrize("total", range(10))
def test_naturals_are_8_and_9(total: int) -> None:
    assert rules.is_natural(total) is (total >= 8)
    decision = rules.natural_decision(total, 0)
    assert (decision is not None) is (total >= 8)


def test_banker_table_is_the_shared_lookup() -> None:
    table = rules.banker_draw_table()
    assert len(table) == 10
    assert all(len(row) == 11 for row in table)
    assert not any(table[8]) and not any(table[9])


@pytest.mark.parametrize(
    ("total", "third", "reason"),
    [
        (
            6,
            0,
            "Banker has 6 and the Player's third card is a ten or face: "
            "Banker stands on 4-7 against a ten or face, an ace or a 9.",
        ),
        (
            3,
            8,
            "Banker has 3 and the Player's third card is an 8: Banker stands on 3-7 against an 8.",
        ),
        (2, 8, "Banker has 2 and the Player's third card is an 8: Banker always draws on 0-2."),
        (7, 6, "Banker has 7 and the Player's third card is a 6: Banker always stands on 7."),
        (5, None, "Player stood and Banker has 5: Banker draws on 0-5, as the Player does."),
    ],
)
def test_explanations_in_plain_words(total: int, third: int | None, reason: str) -> None:
    assert rules.banker_decision(total, third).reason == reason


@pytest.mark.parametrize(("total", "third"), [(-1, None), (10, None), (3, 11), (3, -1)])
def test_bad_values_are_rejected(total: int, third: int | None) -> None:
    with pytest.raises(ValueError, match="bad"):
        rules.banker_draws(total, third)
