"""Baccarat Banque solved for any shoe (issue 26): every card drawn from the cards left.

Independent checks: a deal's chance from a small shoe worked out by hand in
fractions; every ordering of a nine-card shoe played at the `BanqueTable` itself, its
exact mean against the solver's figures; the equilibrium of a 25-card shoe played out
at the table, a fresh shuffle of the same cards each coup; best responses to it gain
nothing; with replacement, the figures of the stated model unchanged, and a very
large shoe drawn without replacement close to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from baccara.cards import Card, full_deck, hand_total
from baccara.cli import cli
from baccara.coup import Result
from baccara.exact.composition import composition
from baccara.shoe import Shoe
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half, HalfSettled, Phase
from baccara.skill.solver.banque import (
    NATURAL,
    STOOD,
    banker_decisions,
    banker_values,
    expected_results,
    punter_values,
    solve_banque,
)
from baccara.skill.solver.banque_chances import (
    PAIRS,
    Draws,
    _tensors,
    banque_chances,
    hand_chances,
)
from baccara.skill.solver.models import Array, SolverError, shoe_counts

# 25 cards by point value, tens first: a deck half dealt, few 4s, 5s and 9s
SHOE = (6, 1, 3, 3, 1, 2, 2, 4, 2, 1)
# nine cards, a coup's most: 3 tens, two each of 4, 5 and 9
NINE = (3, 0, 0, 0, 2, 2, 0, 0, 0, 2)
_SIGN = {Result.BANKER: 1, Result.PLAYER: -1, Result.TIE: 0}


def cards_of(counts: Sequence[int]) -> list[Card]:
    """Real cards with these counts by point value (suits and faces spread)."""
    by_card = composition(counts)[2]
    return [card for card, n in zip(full_deck(), by_card, strict=True) for _ in range(n)]


def play_coup(
    cards: Sequence[Card], p: tuple[float, float], y: Array, rng: np.random.Generator
) -> tuple[int, int]:
    """One coup at a `BanqueTable` stacked with ``cards``: the left and right punters
    draw on 5 with ``p``, the banker with ``y``; the banker's result on each tableau."""
    table = BanqueTable(
        names=("Bank", "Left", "Right"),
        bankrolls=(10_000, 10_000, 10_000),
        shoe=Shoe.stacked(cards),
    )
    table.bid(0, 1_000)
    table.close_auction()
    events = [*table.stake(1, Half.LEFT, 100), *table.stake(2, Half.RIGHT, 100)]
    while table.phase is Phase.PUNTER:
        chance = p[0] if table.live_half is Half.LEFT else p[1]
        events += table.draw() if rng.random() < chance else table.stand()
    if table.phase is Phase.BANKER:
        total = hand_total(table.banker_cards)
        cell = (total, table.column(Half.LEFT), table.column(Half.RIGHT))
        events += table.banker_draw() if rng.random() < y[cell] else table.banker_stand()
    results = {e.half: _SIGN[e.result] for e in events if isinstance(e, HalfSettled)}
    return results[Half.LEFT], results[Half.RIGHT]


def orderings(counts: dict[int, int]) -> Iterator[list[int]]:
    """Every distinct ordering of a multiset of point values."""
    if not any(counts.values()):
        yield []
        return
    for value in [v for v, n in counts.items() if n]:
        counts[value] -= 1
        for rest in orderings(counts):
            yield [value, *rest]
        counts[value] += 1


def test_a_deal_from_a_small_shoe_has_the_chance_of_drawing_it() -> None:
    w = hand_chances((7, 0), SHOE)
    fives, ten_three = PAIRS.index((5, 5)), PAIRS.index((0, 3))
    # left 5 5 draws a 2, right 0 3 stands, banker 0 7: in the dealer's order
    # (left, right, banker, twice, then the left's third), from the 25 cards
    dealt = [5, 0, 0, 5, 3, 7, 2]
    left = list(SHOE)
    by_hand = Fraction(1)
    for k, value in enumerate(dealt):
        by_hand *= Fraction(left[value], 25 - k)
        left[value] -= 1
    by_hand *= 2 * 2  # the right's and the banker's two cards in either order
    assert by_hand == Fraction(2 * 6 * 5 * 1 * 3 * 4 * 3 * 4, 25 * 24 * 23 * 22 * 21 * 20 * 19)
    assert float(w[fives, ten_three, 2, 10]) == pytest.approx(float(by_hand), rel=1e-12)
    assert float(w[fives, :, 5].sum() + w[fives, :, :, 5].sum()) == 0.0  # two 5s: no third
    assert float(w[PAIRS.index((9, 9))].sum()) == 0.0  # one 9: never two
    # every deal of six, whatever the thirds: chance 1 in all
    six = sum(float(hand_chances(hand, SHOE)[:, :, 10, 10].sum()) for hand in PAIRS)
    assert six == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("counts", [SHOE, shoe_counts(1)])
def test_best_responses_to_the_equilibrium_gain_nothing(counts: tuple[int, ...]) -> None:
    sol = solve_banque(counts=counts)
    p, y = sol.player_draw_on_5, sol.banker_draw
    assert abs(sol.banker_gain) < 1e-12 and abs(sol.punter_gain) < 1e-12
    left, right = expected_results(p, p, y, counts=counts)
    assert left == pytest.approx(sol.value, abs=1e-15) and right == pytest.approx(left, abs=1e-15)
    best = banker_decisions(p, p, counts=counts).astype(np.float64)
    assert sum(expected_results(p, p, best, counts=counts)) / 2 - sol.value < 1e-12
    for x in (0.0, 1.0):  # each punter, the other at p: his loss no smaller
        assert expected_results(x, p, y, counts=counts)[0] - left > -1e-12
        assert expected_results(p, x, y, counts=counts)[1] - right > -1e-12
    if 0 < p < 1:
        assert punter_values(p, y, counts=counts).indifferent
    assert banker_decisions(p, p, counts=counts).shape == y.shape == (8, 12, 12)
    assert sol.counts == counts and sol.to_json()["counts"] == list(counts)


def test_every_ordering_of_a_nine_card_shoe_played_at_the_table() -> None:
    rng = np.random.default_rng(5)
    y = (rng.random((8, 12, 12)) < 0.5).astype(np.float64)  # a banker with no symmetry
    shoe = cards_of(NINE)
    by_value: dict[int, list[Card]] = {}
    for card in shoe:
        by_value.setdefault(card.points, []).append(card)
    sums = {(1.0, 0.0): [0, 0], (0.0, 1.0): [0, 0]}
    deals = 0
    for order in orderings({v: n for v, n in enumerate(NINE) if n}):
        used = dict.fromkeys(by_value, 0)
        cards = []
        for value in order:
            cards.append(by_value[value][used[value]])
            used[value] += 1
        deals += 1
        for p, total in sums.items():
            left, right = play_coup(cards, p, y, rng)
            total[0] += left
            total[1] += right
    assert deals == 7560  # 9! / (3! 2! 2! 2!), each as likely
    for p, (left, right) in sums.items():
        solved = expected_results(*p, y, counts=NINE)
        assert solved[0] == pytest.approx(left / deals, abs=1e-12)
        assert solved[1] == pytest.approx(right / deals, abs=1e-12)


@pytest.mark.slow
def test_the_equilibrium_of_a_small_shoe_holds_when_played_at_the_table(
    full_size: bool,
) -> None:
    sol = solve_banque(counts=SHOE)
    cards = cards_of(SHOE)
    rng = np.random.default_rng(26)
    coups = 400_000 if full_size else 12_000
    results = np.array(
        [
            play_coup(
                [cards[i] for i in rng.permutation(len(cards))],
                (sol.player_draw_on_5,) * 2,
                sol.banker_draw,
                rng,
            )
            for _ in range(coups)
        ],
        dtype=np.float64,
    )
    for side in results.T:
        stderr = side.std(ddof=1) / np.sqrt(coups)
        assert abs(side.mean() - sol.value) < 4 * stderr, (side.mean(), stderr, sol.value)
    # this shoe is another game: not the one with replacement
    assert abs(sol.value - solve_banque().value) > 0.003


def test_with_replacement_the_stated_model_is_unchanged() -> None:
    sol = solve_banque()
    assert sol.player_draw_on_5 == pytest.approx(9 / 11, abs=1e-12) and sol.counts is None
    assert (sol.value, sol.house_value) == pytest.approx((0.008680, 0.009221), abs=5e-7)
    assert [(b, left, right) for b, left, right, _ in sol.mixed_cells()] == [
        (6, STOOD, STOOD),
        (6, STOOD, NATURAL),
        (6, NATURAL, STOOD),
    ]
    assert sol.to_json()["model"] == "banque-replacement-totals"


def test_a_very_large_shoe_is_close_to_drawing_with_replacement() -> None:
    huge = tuple(10_000 * c for c in shoe_counts(1))
    drawn, replaced = _tensors(Draws.shoe(huge), huge), banque_chances()
    for name in ("chance", "draw", "stand"):
        gap = np.abs(getattr(drawn, name) - getattr(replaced, name)).max()
        assert gap < 1e-6, name
    assert drawn.settled == pytest.approx(replaced.settled, abs=1e-6)
    # a real shoe: eight decks are near it, one deck further
    eight, one, with_replacement = solve_banque(decks=8), solve_banque(decks=1), solve_banque()
    assert abs(eight.value - with_replacement.value) < 5e-4
    assert abs(eight.player_draw_on_5 - with_replacement.player_draw_on_5) < 0.01
    assert abs(one.value - with_replacement.value) > abs(eight.value - with_replacement.value)


def test_shoes_that_cannot_be_solved_are_refused() -> None:
    with pytest.raises(SolverError, match="cannot deal a coup: it needs at least 9"):
        solve_banque(counts=(1, 1, 1, 1, 1, 1, 1, 1, 0, 0))
    with pytest.raises(SolverError, match="not both"):
        solve_banque(decks=1, counts=SHOE)


def test_cells_no_coup_reaches_are_played_as_with_replacement() -> None:
    no_nines = (6, 1, 3, 3, 1, 2, 2, 4, 2, 0)
    sol = solve_banque(counts=no_nines)
    p = sol.player_draw_on_5
    as_replaced = banker_decisions(p, p).astype(np.float64)
    assert (sol.banker_draw[:, 9] == as_replaced[:, 9]).all()
    assert (sol.banker_draw[:, :, 9] == as_replaced[:, :, 9]).all()
    assert abs(sol.banker_gain) < 1e-12 and abs(sol.punter_gain) < 1e-12
    with pytest.raises(SolverError, match="no coup from this shoe reaches"):
        banker_values(3, 9, STOOD, counts=no_nines)  # no 9 to draw


def test_the_command_solves_banque_for_any_shoe() -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["solve", "banque", "--decks", "1", "--json"])
    assert done.exit_code == 0, done.output
    found = json.loads(done.output)
    one = solve_banque(decks=1)
    assert found["counts"] == list(shoe_counts(1)) and found["model"] == "banque-shoe-totals"
    assert found["value"] == pytest.approx(one.value, abs=1e-15)
    removed = runner.invoke(cli, ["solve", "banque", "--remove", "5h,5s,Kd", "--json"])
    assert removed.exit_code == 0, removed.output
    assert json.loads(removed.output)["counts"] == [47, 12, 12, 12, 12, 10, 12, 12, 12, 12]
    counts = ",".join(map(str, SHOE))
    shown = runner.invoke(cli, ["solve", "banque", "--counts", counts])
    assert shown.exit_code == 0 and "a shoe of 25 cards" in shown.output, shown.output
    best = runner.invoke(cli, ["solve", "banque", "--punters", "1", "--counts", counts, "--json"])
    assert best.exit_code == 0, best.output
    grid = json.loads(best.output)["banker_draws"]["3"]
    assert grid == banker_decisions(counts=SHOE)[3].tolist()
    for bad, says in (
        (["--counts", "1,1,1,1,1,1,1,1,0,0"], "it needs at least 9"),
        (["--counts", "1,2"], "expected 10"),
        (["--counts", counts, "--ranks", ",".join(["4"] * 13)], "cannot be combined"),
        (["--punters", "1", "--counts", "0,0,0,0,0,0,0,0,0,8"], "it needs at least 9"),
    ):
        refused = runner.invoke(cli, ["solve", "banque", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
        assert says in refused.output and "Traceback" not in refused.output
        assert len(refused.output.strip().splitlines()) == 1, refused.output
