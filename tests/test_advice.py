"""The value of each choice in teaching mode's advice, against independent computations.

The solver derives each value from its game (`AdditiveGame`, `baccara.skill.solver.banque`);
here every remaining card is enumerated by brute force from the rules alone (Chemin de
Fer: exact card removal from the table's shoe; Banque: the model's cards drawn with
replacement), the chooser's opponent playing the equilibrium's strategy.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from baccara.cards import parse_cards
from baccara.shoe import Shoe
from baccara.skill import tableaux
from baccara.skill.advice import (
    banker_advice,
    banque_banker_advice,
    banque_punter_advice,
    banque_solution,
    punter_advice,
    table_solution,
    table_values,
)
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import Phase
from baccara.skill.solver.banque import (
    NATURAL,
    STOOD,
    banker_decisions,
    banker_values,
    solve_banque,
)
from baccara.skill.solver.chemin import choice_values, solve_chemin
from baccara.skill.solver.models import SolverError

Counts = list[int]
Cell = tuple[str, int | None]


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _draws(counts: Counts) -> list[tuple[int, float]]:
    """Each point value still in the shoe with its chance of coming next."""
    n = sum(counts)
    return [(value, count / n) for value, count in enumerate(counts) if count]


def _take(counts: Counts, *values: int) -> Counts:
    left = list(counts)
    for value in values:
        left[value] -= 1
    return left


def _shoe(decks: int) -> Counts:
    return [16 * decks] + [4 * decks] * 9  # point 0 is the ten and the three faces


def _label(a: int, b: int) -> str:
    return f"{min(a, b)}-{max(a, b)}"


# -- Chemin de Fer by brute force ------------------------------------------------------


def _punter_by_hand(
    decks: int, cards: Sequence[int], banker: Mapping[Cell, float]
) -> dict[str, float]:
    """The punter's mean result on his two ``cards`` if he draws and if he stands, every
    banker hand without a natural enumerated, the banker drawing as ``banker`` says."""
    shoe = _take(_shoe(decks), *cards)
    total = sum(cards) % 10
    sums = {"draw": 0.0, "stand": 0.0}
    weight = 0.0

    def banker_plays(left: Counts, banker_total: int, punter: int, q: float) -> float:
        drawn = sum(w * _sign(punter, (banker_total + c) % 10) for c, w in _draws(left))
        return (1 - q) * _sign(punter, banker_total) + q * drawn

    for b1, w1 in _draws(shoe):
        for b2, w2 in _draws(_take(shoe, b1)):
            banker_total = (b1 + b2) % 10
            if banker_total >= 8:
                continue  # a natural is shown before the punter chooses
            w, left, info = w1 * w2, _take(shoe, b1, b2), _label(b1, b2)
            weight += w
            sums["stand"] += w * banker_plays(left, banker_total, total, banker[info, None])
            for third, wt in _draws(left):
                final = (total + third) % 10
                q = banker[info, third]
                sums["draw"] += w * wt * banker_plays(_take(left, third), banker_total, final, q)
    return {k: v / weight for k, v in sums.items()}


def _banker_by_hand(
    decks: int,
    cards: Sequence[int],
    third: int | None,
    punter: Mapping[str, float],
    commission: float,
) -> dict[str, float]:
    """The banker's mean net result with ``cards`` against the punter's ``third`` (None:
    he stood) if he draws and if he stands, every punter hand enumerated, the punter
    drawing on 5 as ``punter`` says (by composition) and by the tableau elsewhere."""
    shoe = _take(_shoe(decks), *cards)
    total = sum(cards) % 10
    sums = {"draw": 0.0, "stand": 0.0}
    weight = 0.0

    def net(result: int) -> float:
        return 1 - commission if result > 0 else float(result)

    for p1, w1 in _draws(shoe):
        for p2, w2 in _draws(_take(shoe, p1)):
            punter_total = (p1 + p2) % 10
            if punter_total >= 8:
                continue
            x = punter[_label(p1, p2)] if punter_total == 5 else float(punter_total < 5)
            left = _take(shoe, p1, p2)
            if third is None:
                w, final = w1 * w2 * (1 - x), punter_total
            else:
                w = w1 * w2 * x * left[third] / sum(left)
                left, final = _take(left, third), (punter_total + third) % 10
            if w == 0:
                continue
            weight += w
            sums["stand"] += w * net(_sign(total, final))
            sums["draw"] += w * sum(
                wc * net(_sign((total + c) % 10, final)) for c, wc in _draws(left)
            )
    return {k: v / weight for k, v in sums.items()}


_FILL = parse_cards("2h 5s 3d Qc 9c 4d") * 52


def _chemin_table(cards: str, free_banker: bool = False) -> CheminTable:
    """A six-deck table whose first coup deals ``cards`` (punter, banker, punter, banker, ...)."""
    dealt = parse_cards(cards)
    shoe = Shoe.stacked([*dealt, *_FILL[: 312 - len(dealt)]])
    table = CheminTable(
        names=("Ann", "Bob"), bankrolls=(10_000,) * 2, shoe=shoe, free_banker=free_banker
    )
    table.open_bank(1_000)
    table.banco(1)
    return table


@pytest.mark.parametrize(
    ("cards", "label", "best"),
    [
        ("Ah Kd 4s 3c", "1-4", "either"),
        ("2h Kd 3s 3c", "2-3", "stand"),
        ("Kh 2d 5s 3c", "0-5", "draw"),
    ],
)
def test_chemin_punter_values_agree_with_brute_force(cards: str, label: str, best: str) -> None:
    table = _chemin_table(cards)
    assert table.phase is Phase.PUNTER and table.shoe.settings.decks == 6
    advice = punter_advice(table)
    banker = table_solution(table).banker_draw
    expected = _punter_by_hand(6, [c.points for c in table.punter_cards], banker)
    assert advice.values == pytest.approx(expected, abs=1e-12)
    assert table_values(table).punter[label].best == best
    if best == "either":  # the equilibrium mixes: he is indifferent, and is told so
        assert 0 < advice.draw < 1 and "indifferent" in advice.text
        assert advice.values["draw"] == pytest.approx(advice.values["stand"], abs=1e-9)
    else:
        assert advice.draw == float(best == "draw") and "indifferent" not in advice.text


@pytest.mark.parametrize(
    ("cards", "cell", "free_banker", "p"),
    [
        ("3h Kd 4s 6c", ("0-6", None), False, None),  # the mixed cell
        ("Ah Kd 3s 3c 9d", ("0-3", 9), False, 1.0),  # a free cell where he draws
        ("Ah Kd 3s 4c 9d", ("0-4", 9), True, 0.0),  # a free banker who stands
    ],
)
def test_chemin_banker_values_agree_with_brute_force(
    cards: str, cell: Cell, free_banker: bool, p: float | None
) -> None:
    table = _chemin_table(cards, free_banker)
    assert table.banker_free()
    advice = banker_advice(table)
    sol = table_solution(table)
    banker_cards = [c.points for c in table.banker_cards]
    assert (_label(*banker_cards), table.punter_third) == cell
    expected = _banker_by_hand(6, banker_cards, cell[1], sol.player_draw, 0.05)
    assert advice.values == pytest.approx(expected, abs=1e-12)
    assert "after commission" in advice.text
    if p is None:
        assert 0 < advice.draw < 1 and "indifferent" in advice.text
        assert abs(advice.values["draw"] - advice.values["stand"]) <= 1e-9
    else:
        assert advice.draw == p
        assert (advice.values["draw"] > advice.values["stand"]) == (p == 1.0)


def _total_of(info: str) -> int:
    return sum(int(v) for v in info.split("-")) % 10 if "-" in info else int(info)


@pytest.mark.parametrize(
    ("model", "commission", "banker", "house"),
    [
        ("compositions", 0.05, "tableau", "french"),
        ("compositions", 0.05, "free", "french"),
        ("compositions", 0.0, "tableau", "french"),
        ("compositions", 0.05, "tableau", "scarne"),
        ("downton-lockwood", 0.0, "free", "french"),
        ("kemeny-snell", 0.0, "free", "french"),
    ],
)
def test_mixed_cells_are_indifferent_and_pure_cells_best_responses(
    model: str, commission: float, banker: str, house: str
) -> None:
    sol = solve_chemin(model, decks=6, commission=commission, banker=banker, house=house)
    values = choice_values(sol)
    mixed = 0
    choices = [(values.punter[k], p) for k, p in sol.player_draw.items()]
    for cell, p in sol.banker_draw.items():
        free = tableaux.banker_cell(_total_of(cell[0]), cell[1], house) is tableaux.Cell.FREE
        if (banker == "free" or free) and not math.isnan(values.banker[cell].draw):
            choices.append((values.banker[cell], p))
    for value, p in choices:
        if 0 < p < 1:
            mixed += 1
            assert abs(value.draw - value.stand) <= 1e-9
        elif p == 1:
            assert value.draw >= value.stand - 1e-12
        else:
            assert value.stand >= value.draw - 1e-12
    assert mixed == (0 if house == "scarne" and banker == "tableau" else 2)


# -- Baccarat Banque by brute force ----------------------------------------------------

_Q = [4 / 13] + [1 / 13] * 9


def _tableau_columns(p5: float) -> dict[int, dict[int, float]]:
    """Joint chances of a tableau's column (third card, stood, natural) and final total."""
    out: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for a in range(10):
        for c in range(10):
            w, total = _Q[a] * _Q[c], (a + c) % 10
            if total >= 8:
                out[NATURAL][total] += w
            elif total >= 6:
                out[STOOD][total] += w
            else:
                p = 1.0 if total < 5 else p5
                for d in range(10):
                    out[d][(total + d) % 10] += w * p * _Q[d]
                out[STOOD][total] += w * (1 - p)
    return out


def _banque_banker_by_hand(
    total: int, columns: Sequence[int], stakes: Sequence[int], p5: float
) -> dict[str, float]:
    """The banker's mean result per unit staked on the tableaux still in play."""
    joint = _tableau_columns(p5)
    sums = {"draw": 0.0, "stand": 0.0}
    weight = 0.0
    for column, stake in zip(columns, stakes, strict=True):
        if column == NATURAL:
            continue
        finals = joint[column]
        chance = sum(finals.values())
        for final, w in finals.items():
            share = stake * w / chance
            sums["stand"] += share * _sign(total, final)
            sums["draw"] += share * sum(_Q[e] * _sign((total + e) % 10, final) for e in range(10))
        weight += stake
    return {k: v / weight for k, v in sums.items()}


def _banque_table(cards: str, left: int, right: int) -> BanqueTable:
    """Cards go left, right, banker, twice; Bob stakes ``left`` and Cy ``right``."""
    shoe = Shoe.stacked(parse_cards(cards) * 8)
    table = BanqueTable(names=("Ann", "Bob", "Cy"), bankrolls=(50_000, 10_000, 10_000), shoe=shoe)
    table.bid(0, 20_000)
    table.close_auction()
    table.stake(1, Half.LEFT, left)
    table.stake(2, Half.RIGHT, right)
    return table


@pytest.mark.parametrize(
    ("cards", "stakes", "cell", "p"),
    [
        ("7h 6d 3s Kc Kd 3c", (1_000, 1_000), (6, STOOD, STOOD), None),  # mixed
        ("2h 7d 3s Kc Qd 2s 4c", (1_000, 2_000), (5, 4, STOOD), 1.0),
        ("2h 7d 3s Kc Qd 2s 4c", (2_000, 500), (5, 4, STOOD), 1.0),
        ("Kh 9d 4s 6c Kd 2c", (1_000, 1_000), (6, STOOD, NATURAL), None),  # one natural
        ("Kh 9d 4s 6c Kd 2c", (1_000, 2_000), (6, STOOD, NATURAL), 0.0),
    ],
)
def test_banque_banker_values_agree_with_brute_force(
    cards: str, stakes: tuple[int, int], cell: tuple[int, int, int], p: float | None
) -> None:
    table = _banque_table(cards, *stakes)
    assert table.phase is BanquePhase.BANKER
    total, left, right = cell
    assert (table.column(Half.LEFT), table.column(Half.RIGHT)) == (left, right)
    advice = banque_banker_advice(table)
    p5 = banque_solution().player_draw_on_5
    expected = _banque_banker_by_hand(total, (left, right), stakes, p5)
    assert advice.values == pytest.approx(expected, abs=1e-12)
    if p is None:  # the equilibrium mixes there: indifferent, whatever the stakes
        assert 0 < advice.draw < 1 and "indifferent" in advice.text
        assert abs(advice.values["draw"] - advice.values["stand"]) <= 1e-9
    elif p == 1.0:
        assert advice.draw == p and advice.values["draw"] > advice.values["stand"]
    else:  # unequal stakes against a natural: his best answer stands, indifferent
        assert advice.draw == p and "either will do" in advice.text
    if NATURAL in cell:
        assert "natural is settled" in advice.text


def test_nothing_staked_on_the_tableau_in_play_is_worth_nothing() -> None:
    table = _banque_table("7h 9d Ks Kc Kd Qc", 0, 1_000)  # the right's natural is settled
    assert table.phase is BanquePhase.BANKER and table.column(Half.LEFT) == STOOD
    advice = banque_banker_advice(table)
    assert advice.values == {"draw": 0.0, "stand": 0.0} and "risks nothing" in advice.text
    with pytest.raises(SolverError, match="nothing is staked"):
        banker_values(0, STOOD, NATURAL, left_stake=0, right_stake=1_000)


def test_banque_banker_values_follow_his_decisions() -> None:
    """Drawing is worth more exactly where `banker_decisions` draws, whatever the stakes."""
    sol = solve_banque()
    for p, stakes in [(sol.player_draw_on_5, (1.0, 1.0)), (1.0, (3.0, 1.0)), (0.5, (1.0, 5.0))]:
        decisions = banker_decisions(p, p, left_stake=stakes[0], right_stake=stakes[1])
        for total, left, right in np.ndindex(decisions.shape):
            if left == NATURAL and right == NATURAL:
                continue
            v = banker_values(total, left, right, p, p, left_stake=stakes[0], right_stake=stakes[1])
            if not v.indifferent:
                assert bool(decisions[total, left, right]) == (v.draw > v.stand)
    for total, left, right, _ in sol.mixed_cells():
        p5 = sol.player_draw_on_5
        assert banker_values(total, left, right, p5, p5).indifferent


def _banque_punter_by_hand(p5: float, y: np.ndarray) -> dict[str, float]:
    """The left punter's mean result on 5 if he draws and if he stands, the banker
    without a natural drawing with ``y[total, left column, right column]``."""
    two = [0.0] * 10
    for a in range(10):
        for c in range(10):
            two[(a + c) % 10] += _Q[a] * _Q[c]
    other = {col: sum(finals.values()) for col, finals in _tableau_columns(p5).items()}
    choices = {"draw": [(d, (5 + d) % 10, _Q[d]) for d in range(10)], "stand": [(STOOD, 5, 1.0)]}
    sums = {"draw": 0.0, "stand": 0.0}
    for banker in range(8):
        for col, wo in other.items():
            for action, outcomes in choices.items():
                for mine, final, wm in outcomes:
                    q = float(y[banker, mine, col])
                    drawn = sum(_Q[e] * _sign(final, (banker + e) % 10) for e in range(10))
                    played = (1 - q) * _sign(final, banker) + q * drawn
                    sums[action] += two[banker] * wo * wm * played
    weight = sum(two[:8])
    return {k: v / weight for k, v in sums.items()}


def test_banque_punter_values_agree_with_brute_force() -> None:
    table = _banque_table("2h 7d 3s 3c Qd 2s", 1_000, 1_000)
    assert table.live_half is Half.LEFT
    advice = banque_punter_advice(table)
    sol = banque_solution()
    expected = _banque_punter_by_hand(sol.player_draw_on_5, sol.banker_draw)
    assert advice.values == pytest.approx(expected, abs=1e-12)
    assert abs(advice.values["draw"] - advice.values["stand"]) <= 1e-9
    assert "indifferent" in advice.text
    right = _banque_table("7h 2d 3s Kc 3d 2s", 1_000, 3_000)  # the right punter on 5
    assert right.live_half is Half.RIGHT
    assert banque_punter_advice(right).values == pytest.approx(advice.values, abs=1e-12)


def test_the_sentence_says_the_values_in_money() -> None:
    table = _chemin_table("2h Kd 3s 3c")
    advice = punter_advice(table)
    assert advice.values == pytest.approx({"draw": 0.005984, "stand": 0.006463}, abs=1e-6)
    # equal to three decimals, so said with four
    assert advice.text.endswith(
        "Given his cards, on average drawing wins 0.0060 and standing wins 0.0065 per 1.00 staked."
    )
    banker = _banque_table("2h 7d 3s Kc Qd 2s 4c", 1_000, 2_000)
    text = banque_banker_advice(banker).text
    assert "on average drawing loses 0.448 and standing loses 0.729 per 1.00 staked" in text
