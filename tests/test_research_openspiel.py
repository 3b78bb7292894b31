"""Chemin de Fer as an OpenSpiel game (issue 26), checked with OpenSpiel's own tools.

- its random simulation test, for every model;
- `exploitability.nash_conv` of baccara's equilibrium (the solver's linear program,
  `solve_chemin`) below 1e-9: in the zero-sum game, with the commission (general-sum),
  with a banker bound by the tableau, and on a small depleted shoe in the compositions
  model (the full B trees, 200,000 states, run with ``--slow``);
- the equilibrium's value, played through OpenSpiel, is the solver's (the punter draws
  on 5 with probability 9/11, Kemeny and Snell's 1.28%);
- OpenSpiel's CFR+ (its C++ solver) comes within 1e-4 of the linear program's value in
  64 iterations (on the game compiled to C++: `baccara.research.efg`).
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import expected_game_score, exploitability  # noqa: E402
from tests.support.reference import NUMBERS  # noqa: E402

from baccara.research.efg import compiled  # noqa: E402
from baccara.research.openspiel_chemin import GAME_NAME, SolverPolicy  # noqa: E402
from baccara.skill.solver.chemin import solve_chemin  # noqa: E402
from baccara.skill.solver.information import SolverError  # noqa: E402

SMALL = (6, 2, 0, 2, 0, 3, 0, 2, 1, 1)  # 17 cards of 6 values: a small tree
SMALL_TEXT = ",".join(map(str, SMALL))


def _nash_conv(params: dict[str, object], **solve: object) -> float:
    game = pyspiel.load_game(GAME_NAME, params)
    solution = solve_chemin(str(params.get("model", "kemeny-snell")), **solve)  # type: ignore[arg-type]
    return float(exploitability.nash_conv(game, SolverPolicy(game, solution)))


@pytest.mark.parametrize("model", ["kemeny-snell", "totals", "downton-lockwood", "compositions"])
def test_the_game_passes_openspiel_s_random_simulation_test(model: str) -> None:
    game = pyspiel.load_game(GAME_NAME, {"model": model, "decks": 1})
    pyspiel.random_sim_test(game, num_sims=40, serialize=False, verbose=False)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    taxed = pyspiel.load_game(GAME_NAME, {"model": model, "commission": True})
    assert taxed.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_the_solver_s_equilibrium_is_a_nash_equilibrium_of_the_openspiel_game() -> None:
    assert _nash_conv({"model": "kemeny-snell"}) < 1e-9
    commission = {"model": "kemeny-snell", "commission": True}
    assert _nash_conv(commission, commission=0.05) < 1e-9
    bound = {"model": "kemeny-snell", "banker": "tableau"}
    assert _nash_conv(bound, banker="tableau") < 1e-9
    shoe = {"model": "compositions", "counts": SMALL_TEXT}
    assert _nash_conv(shoe, counts=SMALL) < 1e-9
    # and an equilibrium of another game is not one of this: the check can fail
    game = pyspiel.load_game(GAME_NAME, shoe)
    other = SolverPolicy(game, solve_chemin("compositions", counts=(4, 3, 0, 2, 0, 3, 0, 2, 2, 1)))
    assert exploitability.nash_conv(game, other) > 1e-4


@pytest.mark.slow
@pytest.mark.parametrize("model", ["totals", "downton-lockwood", "compositions"])
def test_the_full_six_deck_games_at_the_solver_s_equilibrium(model: str, full_size: bool) -> None:
    if not full_size:
        pytest.skip("200,000 states in Python: with --slow")
    assert _nash_conv({"model": model, "decks": 6}, decks=6) < 1e-9


def test_the_equilibrium_played_through_openspiel_is_worth_the_solver_s_value() -> None:
    game = pyspiel.load_game(GAME_NAME, {"model": "kemeny-snell"})
    solution = solve_chemin("kemeny-snell")
    equilibrium = SolverPolicy(game, solution)
    punter, banker = expected_game_score.policy_value(
        game.new_initial_state(), [equilibrium, equilibrium]
    )
    assert banker == pytest.approx(solution.value, abs=1e-12) and punter == -banker
    about = NUMBERS.figure("chemin", "kemeny_snell", "banker_value").fraction
    assert round(banker, 4) == about  # Kemeny and Snell: about 1.28%
    draw_on_5 = float(NUMBERS.ratio("chemin", "kemeny_snell", "player_draws_on_5"))
    assert solution.player_draw["5"] == pytest.approx(draw_on_5, abs=1e-12)  # 9/11


def test_openspiel_s_cfr_plus_comes_within_1e_4_of_the_linear_program() -> None:
    """On the game compiled to C++, where CFR+ takes the Python game's very steps
    (`tests/test_research_efg.py`), 150 times faster."""
    game = compiled(pyspiel.load_game(GAME_NAME, {"model": "kemeny-snell"}))
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(64):
        solver.evaluate_and_update_policy()
    _, banker = pyspiel.expected_returns(
        game.new_initial_state(), solver.average_policy(), -1, True
    )
    assert banker == pytest.approx(solve_chemin("kemeny-snell").value, abs=1e-4)


def test_bad_parameters_are_refused_by_name() -> None:
    for params, says in (
        ({"model": "poker"}, "unknown model"),
        ({"model": "totals", "decks": 13}, "bad number of decks"),
        ({"model": "totals", "counts": "1,2,3"}, "10 counts"),
        ({"banker": "lazy"}, "bad banker"),
    ):
        with pytest.raises((SolverError, pyspiel.SpielError, RuntimeError), match=says):
            pyspiel.load_game(GAME_NAME, params)
