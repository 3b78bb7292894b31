"""Chemin de Fer solved for any shoe (issue 26): the cards left, as `baccara odds` takes
them, in place of a number of full decks.

Independent checks: a deal's chance from a depleted shoe worked out by hand in
fractions; the equilibrium of a depleted shoe played out by simulation from that very
shoe (`baccara.skill.solver.check`, which deals card by card); best responses to it gain
nothing; a full shoe given card by card is the shoe of its decks.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from baccara.cli import cli
from baccara.skill.solver.check import simulate
from baccara.skill.solver.chemin import best_response_gains, solve_chemin
from baccara.skill.solver.models import SolverError, build_game, deal_weights, shoe_counts

# 35 cards: few tens, no 2s, many 5s (a shoe late in a one-deck game)
LEFT = (10, 3, 0, 4, 2, 6, 1, 4, 3, 2)


@pytest.mark.parametrize("model", ["totals", "downton-lockwood", "compositions"])
def test_a_full_shoe_given_by_its_cards_is_the_shoe_of_its_decks(model: str) -> None:
    by_decks = solve_chemin(model, decks=6, commission=0.05)
    by_cards = solve_chemin(model, counts=shoe_counts(6), commission=0.05)
    assert by_cards.value == pytest.approx(by_decks.value, abs=1e-15)
    assert by_cards.player_draw == pytest.approx(by_decks.player_draw, abs=1e-12)
    assert by_cards.counts == (96, *(24,) * 9) and by_decks.counts is None


def test_a_deal_from_a_depleted_shoe_has_the_chance_of_drawing_it() -> None:
    w = deal_weights(None, LEFT)
    assert float(w.sum()) == pytest.approx(1.0, abs=1e-12)
    # 5, 5, 0, 3, 7, 5 in shoe order, drawn one by one from the 35 cards
    by_hand = (Fraction(6, 35) * Fraction(5, 34) * Fraction(10, 33) * Fraction(4, 32)) * (
        Fraction(4, 31) * Fraction(4, 30)
    )
    assert float(w[5, 5, 0, 3, 7, 5]) == pytest.approx(float(by_hand), rel=1e-12)
    assert float(w[6, 6, 0, 0, 0, 0]) == 0.0  # one 6 left: never two
    assert float(w[:, :, 2].sum()) == 0.0  # no 2 left: none is dealt


def test_the_equilibrium_of_a_depleted_shoe_holds_when_played_from_it() -> None:
    sol = solve_chemin("totals", counts=LEFT)
    game = build_game("totals", counts=LEFT)
    banker_gain, punter_gain = best_response_gains(game, sol.x, sol.y)
    assert abs(banker_gain) < 1e-12 and abs(punter_gain) < 1e-12
    played = simulate("totals", sol.x, sol.y, coups=3_000_000, seed=11, counts=LEFT)
    assert abs(played.mean - sol.value) < 4 * played.stderr, (played, sol.value)
    # this shoe is another game: not the full deck's
    full = solve_chemin("totals", decks=1)
    assert abs(sol.value - full.value) > 1e-4
    assert sol.player_draw["5"] != pytest.approx(full.player_draw["5"], abs=1e-3)


def test_a_shoe_that_cannot_deal_a_coup_is_refused() -> None:
    with pytest.raises(SolverError, match="cannot deal a coup"):
        solve_chemin("totals", counts=(1, 1, 1, 1, 1, 0, 0, 0, 0, 0))
    with pytest.raises(SolverError, match="10 counts"):
        solve_chemin("totals", counts=(1, 2, 3))


def test_the_command_solves_any_shoe_as_odds_takes_it() -> None:
    runner = CliRunner()
    args = ["solve", "chemin-de-fer", "--model", "compositions", "--decks", "1"]
    done = runner.invoke(cli, [*args, "--remove", "5h,5s,Kd", "--json"])
    assert done.exit_code == 0, done.output
    found = json.loads(done.output)
    assert found["counts"] == [15, 4, 4, 4, 4, 2, 4, 4, 4, 4]
    counts = ",".join(map(str, LEFT))
    shown = runner.invoke(cli, ["solve", "chemin-de-fer", "--model", "totals", "--counts", counts])
    assert shown.exit_code == 0 and "a shoe of 35 cards" in shown.output, shown.output
    for bad, says in (
        (["--model", "kemeny-snell", "--counts", counts], "takes no shoe"),
        (["--counts", "1,1,1,1,1,0,0,0,0,0"], "cannot deal a coup"),
        (["--counts", "1,2"], "expected 10"),
        (["--counts", counts, "--ranks", ",".join(["4"] * 13)], "cannot be combined"),
    ):
        refused = runner.invoke(cli, ["solve", "chemin-de-fer", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
        assert says in refused.output and "Traceback" not in refused.output
        assert len(refused.output.strip().splitlines()) == 1, refused.output
