"""Chemin de Fer and Banque solvers: time to enumerate and solve each model.

Baseline: the same enumeration of the Kemeny-Snell deals (the house-tableau value)
done one deal at a time in plain Python, per deal, against the numpy build. Banque:
the same enumeration and equilibrium with replacement and from a shoe, side by side.
"""

from __future__ import annotations

import itertools
import time

from baccara.cards import hand_total
from baccara.skill import tableaux
from baccara.skill.solver.banque import solve_banque
from baccara.skill.solver.banque_chances import banque_chances, clear_cache
from baccara.skill.solver.chemin import house_strategy, solve_game
from baccara.skill.solver.models import build_game, shoe_counts


def _python_house_value(first_cards: int) -> tuple[float, int]:
    q = [4 / 13] + [1 / 13] * 9
    value, deals = 0.0, 0
    for p1 in range(first_cards):
        for b1, p2, b2, c5, c6 in itertools.product(range(10), repeat=5):
            deals += 1
            w = q[p1] * q[b1] * q[p2] * q[b2] * q[c5] * q[c6]
            pt, bt = hand_total([p1, p2]), hand_total([b1, b2])
            if pt >= 8 or bt >= 8:
                pf, bf = pt, bt
            else:
                third = c5 if tableaux.house_punter_draws(pt) else None
                pf = hand_total([pt, c5]) if third is not None else pt
                card = c6 if third is not None else c5
                bf = hand_total([bt, card]) if tableaux.house_banker_draws(bt, third) else bt
            value += w * ((bf > pf) - (bf < pf))
    return value, deals


def main(quick: bool) -> None:
    for model, decks, commission in (
        ("kemeny-snell", 6, 0.0),
        ("totals", 6, 0.0),
        ("totals", 6, 0.05),
        ("downton-lockwood", 6, 0.0),
        ("downton-lockwood", 6, 0.05),
        ("compositions", 6, 0.0),
        ("compositions", 6, 0.05),
    ):
        build_game.cache_clear()
        start = time.perf_counter()
        game = build_game(model, decks, commission)
        built = time.perf_counter() - start
        start = time.perf_counter()
        sol = solve_game(game)
        solved = time.perf_counter() - start
        print(
            f"   {model:<16} decks {decks} commission {commission:.2f}: enumerate {built:.2f} s, "
            f"solve {solved * 1000:.0f} ms, value {100 * sol.value:+.4f}%"
        )
    shoes: tuple[tuple[str, int | None], ...] = (
        ("with replacement", None),
        ("8 decks", 8),
        ("1 deck", 1),
    )
    for label, deck_count in shoes:
        clear_cache()
        start = time.perf_counter()
        banque_chances(None if deck_count is None else shoe_counts(deck_count))
        built = time.perf_counter() - start
        start = time.perf_counter()
        banque = solve_banque(decks=deck_count)
        solved = time.perf_counter() - start
        print(
            f"   banque {label:<16}: enumerate {built:.2f} s, solve {solved * 1000:.0f} ms, "
            f"punters draw on 5 with {banque.player_draw_on_5:.6f}, "
            f"value {100 * banque.value:+.4f}%"
        )
    build_game.cache_clear()
    start = time.perf_counter()
    game = build_game("kemeny-snell")
    numpy_time = time.perf_counter() - start
    hx, hy = house_strategy(game)
    first = 1 if quick else 10
    start = time.perf_counter()
    _, deals = _python_house_value(first)
    python_time = time.perf_counter() - start
    per_numpy = numpy_time / 1_000_000
    per_python = python_time / deals
    print(
        f"   baseline: plain Python {per_python * 1e6:.2f} us/deal over {deals} deals, "
        f"numpy build {per_numpy * 1e6:.3f} us/deal: ratio {per_python / per_numpy:.0f}x "
        f"(house value {100 * game.banker_payoff(hx, hy):.4f}%)"
    )
