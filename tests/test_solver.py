"""The Chemin de Fer and Banque solvers against the papers and against themselves.

Sources (figures in tests/data/numbers.toml): Kemeny and Snell (1957), American
Mathematical Monthly 64(7): the punter draws on 5 with probability 9/11 and the game is
worth about 1.28% to the banker (section 5); the house-tableau values are the Punto Banco
Player edges of section 1 (infinite deck 1.2281%, 6 decks 1.2374%) and the Banker 5% edge
(6 decks 1.0558%), since both sides then play the Punto Banco tableau.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from tests.support.reference import NUMBERS

from baccara.cli import cli
from baccara.skill.solver.banque import NATURAL, STOOD, banker_decisions, solve_banque
from baccara.skill.solver.check import simulate
from baccara.skill.solver.chemin import best_response_gains, house_strategy, solve_chemin
from baccara.skill.solver.models import Model, SolverError, build_game, deal_weights

MODELS = [m.value for m in Model]
KEMENY_SNELL = ("chemin", "kemeny_snell")
DRAW_ON_5 = NUMBERS.ratio(*KEMENY_SNELL, "player_draws_on_5")  # 9/11


def test_kemeny_snell_punter_draws_on_5_with_probability_9_11() -> None:
    sol = solve_chemin("kemeny-snell")
    assert sol.player_draw["5"] == pytest.approx(float(DRAW_ON_5), abs=1e-9)


def test_kemeny_snell_solution_in_exact_fractions() -> None:
    """With replacement every deal weighs an integer over 13**6: recover the exact kernel."""
    from fractions import Fraction

    game = build_game("kemeny-snell")
    sol = solve_chemin("kemeny-snell")
    scale = 13**6
    cell = game.cells.index(("6", None))

    def exact(value: float) -> Fraction:
        units = round(value * scale)
        assert abs(value * scale - units) < 1e-5
        return Fraction(units, scale)

    # the punter's p makes the banker indifferent in his mixed cell
    base = game.lin_b[cell] + game.m_b[0, 0, cell]
    slope = game.m_b[0, 1, cell] - game.m_b[0, 0, cell]
    assert -exact(base) / exact(slope) == DRAW_ON_5
    # the banker's q makes the punter indifferent on 5
    y = sol.y.copy()
    y[cell] = 0.0
    d_g = game.m_g[0, 1] - game.m_g[0, 0]
    q = -exact(game.k_g[0, 1] - game.k_g[0, 0] + d_g @ y) / exact(d_g[cell])
    assert q == Fraction(859, 2288) and float(q) == pytest.approx(sol.banker_draw[("6", None)])
    # and the value
    stand = exact(game.const_b + game.lin_b @ y + game.k_b[0, 0] + game.m_b[0, 0] @ y)
    draw = exact(game.const_b + game.lin_b @ y + game.k_b[0, 1] + game.m_b[0, 1] @ y)
    value = (1 - DRAW_ON_5) * stand + DRAW_ON_5 * draw
    assert value == Fraction(679_568, 11 * 13**6)
    assert float(value) == pytest.approx(sol.value, abs=1e-12)


def test_kemeny_snell_value_is_about_1_28_percent() -> None:
    sol = solve_chemin("kemeny-snell")
    assert round(sol.value, 4) == NUMBERS.figure(*KEMENY_SNELL, "banker_value").fraction
    # the banker mixes only when he has 6 and the punter stood
    assert list(sol.banker_mixed) == [("6", None)]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("banker", ["free", "tableau"])
def test_primal_and_dual_values_agree(model: str, banker: str) -> None:
    sol = solve_chemin(model, decks=6, banker=banker)
    assert sol.primal_value is not None and sol.dual_value is not None
    assert sol.primal_value == pytest.approx(sol.dual_value, abs=1e-12)
    assert sol.value == pytest.approx(sol.primal_value, abs=1e-12)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("commission", [0.0, 0.05])
@pytest.mark.parametrize("banker", ["free", "tableau"])
def test_best_responses_to_the_equilibrium_gain_nothing(
    model: str, commission: float, banker: str
) -> None:
    sol = solve_chemin(model, decks=6, commission=commission, banker=banker)
    game = build_game(model, 6, commission)
    banker_gain, punter_gain = best_response_gains(game, sol.x, sol.y, banker)
    assert abs(banker_gain) < 1e-12 and abs(punter_gain) < 1e-12
    # and a pure deviation of the punter on each free set gains nothing either
    for c in range(len(sol.x)):
        for pure in (0.0, 1.0):
            x = sol.x.copy()
            x[c] = pure
            assert game.punter_loss(x, sol.y) >= sol.punter_loss - 1e-12


def _edges(decks: str) -> tuple[float, float]:
    """The Player and Banker 5% house edges of the Punto Banco table by decks."""
    row = NUMBERS.row("main", decks)
    return row["player"].fraction, row["banker_5"].fraction


@pytest.mark.parametrize(
    ("model", "decks", "player_edge", "banker_edge"),
    [
        ("kemeny-snell", 6, _edges("infinite")[0], None),
        ("totals", 6, *_edges("6")),
        ("downton-lockwood", 6, *_edges("6")),
        ("compositions", 6, *_edges("6")),
        ("totals", 8, *_edges("8")),
    ],
)
def test_the_house_tableau_value_is_the_punto_banco_edge(
    model: str, decks: int, player_edge: float, banker_edge: float | None
) -> None:
    assert round(solve_chemin(model, decks=decks).house_value, 6) == player_edge
    if banker_edge is not None:
        net = solve_chemin(model, decks=decks, commission=0.05).house_value
        assert round(-net, 6) == banker_edge


# An independent check, not a copy of our own output: these figures come from a
# separate program (a plain-Python enumeration of the deals and a SciPy LP, written
# from the models' definitions by another engineer, without this package's code).
# Each is kept only to the digits on which both computations agree.
@pytest.mark.parametrize(
    ("decks", "draw_on_5", "value", "mix_0_6_stood"),
    [
        (1, 0.73976608187134, 0.0137599721250, 0.64519232478),
        (6, 0.80535303211347, 0.0129367120783, 0.63613257178),
        (8, 0.80856868414798, 0.0128998022291, 0.63286362170),
    ],
)
def test_downton_lockwood_agrees_with_an_independent_computation(
    decks: int, draw_on_5: float, value: float, mix_0_6_stood: float
) -> None:
    sol = solve_chemin("downton-lockwood", decks=decks)
    assert sol.player_draw["5"] == pytest.approx(draw_on_5, abs=1e-13)
    assert sol.value == pytest.approx(value, abs=1e-13)
    # the banker mixes only with a ten-value card and a 6 when the punter stood
    assert list(sol.banker_mixed) == [("0-6", None)]
    assert sol.banker_mixed[("0-6", None)] == pytest.approx(mix_0_6_stood, abs=1e-11)


def test_downton_lockwood_six_decks_strategies() -> None:
    sol = solve_chemin("downton-lockwood", decks=6)
    assert sol.primal_value == pytest.approx(sol.dual_value, abs=1e-12)
    # where the banker leaves the tableau (same cells in the independent computation)
    assert {cell for cell, _, _ in sol.departures()} == {
        ("0-6", None),
        ("1-4", 4),
        ("2-3", 4),
        ("8-8", None),
    }
    # B2 is worth more to the banker than B1 (he sees his cards) and B3 (the punter sees his)
    assert sol.value > max(solve_chemin("totals").value, solve_chemin("compositions").value)


def test_downton_lockwood_with_commission() -> None:
    free = solve_chemin("downton-lockwood", decks=6)
    taxed = solve_chemin("downton-lockwood", decks=6, commission=0.05)
    # the banker's mix keeps the punter indifferent, so the punter loses the game's value
    assert taxed.banker_mixed == pytest.approx(free.banker_mixed, abs=1e-12)
    assert taxed.punter_loss == pytest.approx(free.value, abs=1e-12)
    assert taxed.player_draw["5"] == pytest.approx(0.823205629637, abs=1e-9)
    assert taxed.value < 0


@pytest.mark.parametrize(
    ("model", "draw_on_5", "value"),
    [("totals", 0.81122874816001, 0.0129155125528), ("compositions", None, 0.0128410139245)],
)
def test_totals_and_compositions_agree_with_the_independent_computation(
    model: str, draw_on_5: float | None, value: float
) -> None:
    # the same independent program as above (6 decks, no commission)
    sol = solve_chemin(model, decks=6)
    assert sol.value == pytest.approx(value, abs=1e-13)
    if draw_on_5 is not None:
        assert sol.player_draw["5"] == pytest.approx(draw_on_5, abs=1e-13)
    else:
        assert round(sol.player_draw["1-4"], 6) == 0.467455


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("commission", [0.0, 0.05])
def test_the_scarne_tableau_banker(model: str, commission: float) -> None:
    sol = solve_chemin(model, decks=6, commission=commission, banker="tableau", house="scarne")
    game = build_game(model, 6, commission)
    assert sol.house == "scarne"
    banker_gain, punter_gain = best_response_gains(game, sol.x, sol.y, "tableau", "scarne")
    assert abs(banker_gain) < 1e-12 and abs(punter_gain) < 1e-12
    if commission == 0.0:
        assert sol.primal_value == pytest.approx(sol.dual_value, abs=1e-12)
    # 4 against an ace and 6 against a standing punter are bound to stand
    for (info, third), total in zip(game.cells, game.cell_totals, strict=True):
        if (total, third) in ((4, 1), (6, None)):
            assert sol.banker_draw[(info, third)] == 0.0
    # with only 3-9 and 5-4 free the banker has no cell worth mixing in
    assert not sol.banker_mixed


def test_compositions_model_choices_on_5() -> None:
    sol = solve_chemin("compositions", decks=6)
    assert set(sol.player_draw) == {"0-5", "1-4", "2-3", "6-9", "7-8"}
    assert sol.player_draw["2-3"] == 0.0 and sol.player_draw["0-5"] == 1.0
    assert 0 < sol.player_draw["1-4"] < 1
    # seeing his own cards is worth something to the punter against the totals model
    assert sol.value < solve_chemin("totals", decks=6).value


def test_commission_makes_the_bank_a_losing_seat_and_changes_the_punter_mix() -> None:
    free = solve_chemin("kemeny-snell")
    taxed = solve_chemin("kemeny-snell", commission=0.05)
    assert taxed.value < 0 < taxed.punter_loss
    assert taxed.primal_value is None
    # the banker's mix keeps the punter indifferent, so it does not move; the punter's does
    assert taxed.banker_mixed == pytest.approx(free.banker_mixed)
    assert taxed.player_draw["5"] > free.player_draw["5"]


def test_deal_weights_are_exact_card_removal_probabilities() -> None:
    w = deal_weights(2)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    # four 9s from two decks: 8*7*6*5 over 104*103*102*101, then any two cards
    assert w[9, 9, 9, 9].sum() == pytest.approx(8 * 7 * 6 * 5 / (104 * 103 * 102 * 101))
    with pytest.raises(SolverError, match="decks"):
        deal_weights(0)


def test_bad_model_and_commission_are_refused() -> None:
    with pytest.raises(SolverError, match="unknown model 'poker'"):
        solve_chemin("poker")
    with pytest.raises(SolverError, match="commission"):
        build_game("totals", 6, 1.5)
    with pytest.raises(SolverError, match="banker model"):
        solve_chemin("totals", banker="greedy")


@pytest.mark.slow
def test_the_equilibrium_bot_wins_what_the_solver_says(full_size: bool) -> None:
    coups = 20_000_000 if full_size else 300_000
    for model, seed in (("kemeny-snell", 1), ("downton-lockwood", 3), ("compositions", 2)):
        sol = solve_chemin(model, decks=6)
        game = build_game(model, 6, 0.0)
        hx, hy = house_strategy(game)
        # the equilibrium banker against a punter playing by the house tableau
        sim = simulate(model, hx, sol.y, coups=coups, seed=seed)
        assert abs(sim.mean - game.banker_payoff(hx, sol.y)) < 4 * sim.stderr
        # the equilibrium punter against a banker playing by the house tableau
        sim = simulate(model, sol.x, hy, coups=coups, seed=seed + 10)
        assert abs(sim.mean - game.banker_payoff(sol.x, hy)) < 4 * sim.stderr
    # with the commission, the net result
    sol = solve_chemin("totals", decks=6, commission=0.05)
    game = build_game("totals", 6, 0.05)
    hx, _ = house_strategy(game)
    sim = simulate("totals", hx, sol.y, coups=coups, seed=7, commission=0.05)
    assert abs(sim.mean - game.banker_payoff(hx, sol.y)) < 4 * sim.stderr


def test_banque_equilibrium_and_best_responses() -> None:
    sol = solve_banque()
    assert sol.player_draw_on_5 == pytest.approx(9 / 11, abs=1e-12)
    assert abs(sol.banker_gain) < 1e-12 and abs(sol.punter_gain) < 1e-12
    assert 0 < sol.value < sol.house_value
    mixed = {(b, left, right) for b, left, right, _ in sol.mixed_cells()}
    assert (6, STOOD, STOOD) in mixed
    data = sol.to_json()
    assert data["player_draw_on_5"] == sol.player_draw_on_5


def test_banque_banker_decisions_are_symmetric_and_follow_the_stakes() -> None:
    d = banker_decisions(1.0, 1.0)
    assert (d == d.transpose(0, 2, 1)).all()
    assert d[:3, :NATURAL, :NATURAL].all() and not d[7].any()
    # a banker with 4 against a 4 on the left and an 8 on the right: the stakes decide
    heavy_left = banker_decisions(1.0, 1.0, left_stake=10.0, right_stake=1.0)
    heavy_right = banker_decisions(1.0, 1.0, left_stake=1.0, right_stake=10.0)
    assert heavy_left[4, 4, 8] and not heavy_right[4, 4, 8]
    assert heavy_right[4, 8, 4] and not heavy_left[4, 8, 4]
    with pytest.raises(SolverError, match="probability"):
        banker_decisions(1.5, 0.0)


@pytest.mark.parametrize("model", MODELS)
def test_cli_solve_chemin_de_fer_json(model: str) -> None:
    result = CliRunner().invoke(
        cli, ["solve", "chemin-de-fer", "--model", model, "--decks", "6", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["value"] == pytest.approx(solve_chemin(model, decks=6).value)
    if model == "compositions":
        assert set(data["player_draw_on_5"]) == {"0-5", "1-4", "2-3", "6-9", "7-8"}
    else:
        assert 0 < data["player_draw_on_5"] < 1
    assert data["house"] == "french"


@pytest.mark.parametrize("commission", [[], ["--commission"]])
def test_cli_solve_downton_lockwood_json(commission: list[str]) -> None:
    args = ["solve", "chemin-de-fer", "--model", "downton-lockwood", "--json", *commission]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    sol = solve_chemin("downton-lockwood", decks=6, commission=0.05 if commission else 0.0)
    assert data["model"] == "downton-lockwood"
    assert data["value"] == pytest.approx(sol.value)
    assert isinstance(data["player_draw_on_5"], float)
    assert data["player_draw_on_5"] == pytest.approx(sol.player_draw["5"])
    assert [(m["info"], m["third"]) for m in data["banker_mixed"]] == [("0-6", None)]
    assert len(data["banker_strategy"]) == 44 and len(data["banker_strategy"]["0-6"]) == 11


def test_cli_solve_with_the_scarne_tableau() -> None:
    args = ["solve", "chemin-de-fer", "--model", "totals", "--banker", "tableau"]
    result = CliRunner().invoke(cli, [*args, "--house", "scarne", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["house"] == "scarne" and data["banker_mixed"] == []
    assert data["value"] == pytest.approx(
        solve_chemin("totals", banker="tableau", house="scarne").value
    )
    text = CliRunner().invoke(cli, [*args, "--house", "scarne"]).output
    assert "banker tableau (scarne)" in text


def test_cli_solve_readable_and_banque() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["solve", "chemin-de-fer", "--model", "totals", "--commission"])
    assert out.exit_code == 0 and "Value of the game to the banker" in out.output
    out = runner.invoke(cli, ["solve", "banque", "--json"])
    assert out.exit_code == 0
    assert json.loads(out.output)["player_draw_on_5"] == pytest.approx(9 / 11)
    out = runner.invoke(cli, ["solve", "banque"])
    assert out.exit_code == 0 and "Banker 6" in out.output
    assert np.isfinite(
        json.loads(runner.invoke(cli, ["solve", "banque", "--json"]).output)["value"]
    )
