"""Baccarat Banque as an OpenSpiel game (issue 26), checked with OpenSpiel's own tools.

- its random simulation test, for both models;
- NashConv of the solver's equilibrium (`solve_banque`, the stated model) below 1e-9 on
  the replacement model (OpenSpiel's C++ best responses on the compiled game; its Python
  `exploitability.nash_conv` with ``--slow``), and its value played through OpenSpiel
  the solver's, per unit staked on a tableau;
- the same policy on a shoe's game is not an equilibrium there: the check can fail;
- on small shoes: chance sums to 1 at every chance node (a 10-card shoe; the 17-card
  one with ``--slow``), and one deal's chance along the tree is the hand-made fraction.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import expected_game_score, exploitability  # noqa: E402

from baccara.research.efg import compiled, compiled_policy  # noqa: E402
from baccara.research.openspiel_banque import (  # noqa: E402
    BANKER,
    DRAW,
    GAME_NAME,
    LEFT,
    PAIRS,
    RIGHT,
    SolverPolicy,
)
from baccara.skill.solver.banque import BanqueSolution, solve_banque  # noqa: E402
from baccara.skill.solver.information import SolverError  # noqa: E402

SMALL = "6,2,0,2,0,3,0,2,1,1"  # 17 cards of 6 values
TINY = "4,0,0,2,0,2,0,0,0,2"  # 10 cards of 4 values: every chance node in a second or two


@pytest.fixture(scope="module")
def solution() -> BanqueSolution:
    return solve_banque()


@pytest.mark.parametrize(
    "params",
    [{"model": "replacement"}, {"model": "shoe", "decks": 1}, {"model": "shoe", "counts": SMALL}],
)
def test_the_game_passes_openspiel_s_random_simulation_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=40, serialize=False, verbose=False)
    assert game.num_players() == 3
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_the_solver_s_equilibrium_is_a_nash_equilibrium_of_the_openspiel_game(
    solution: BanqueSolution,
) -> None:
    """OpenSpiel's C++ best responses, on the game compiled to C++ (the Python game's
    states, actions and information: `tests/test_research_efg.py`); the Python ones
    with ``--slow``. Each player's gain is at least 0, so their sum bounds each."""
    game = pyspiel.load_game(GAME_NAME, {"model": "replacement"})
    fast = compiled(game)
    equilibrium = compiled_policy(game, fast, SolverPolicy(game, solution))
    assert pyspiel.nash_conv(fast, equilibrium) < 1e-9


@pytest.mark.slow
def test_the_solver_s_equilibrium_passes_openspiel_s_python_nash_conv(
    solution: BanqueSolution, full_size: bool
) -> None:
    if not full_size:
        pytest.skip("OpenSpiel's Python best responses on 443,527 states: with --slow")
    game = pyspiel.load_game(GAME_NAME, {"model": "replacement"})
    conv = exploitability.nash_conv(game, SolverPolicy(game, solution), False)
    assert conv.nash_conv < 1e-9
    assert all(abs(gain) < 1e-9 for gain in conv.player_improvements)


def test_the_equilibrium_played_through_openspiel_is_worth_the_solver_s_value(
    solution: BanqueSolution,
) -> None:
    game = pyspiel.load_game(GAME_NAME, {"model": "replacement"})
    equilibrium = SolverPolicy(game, solution)
    left, right, banker = expected_game_score.policy_value(
        game.new_initial_state(), [equilibrium] * 3
    )
    # the solver's value is the banker's per unit staked on a tableau: one on each here
    assert banker / 2 == pytest.approx(solution.value, abs=1e-12)
    assert left == pytest.approx(-solution.value, abs=1e-12)
    assert right == pytest.approx(left, abs=1e-12)


def test_the_stated_model_s_equilibrium_is_not_one_of_a_small_shoe(
    solution: BanqueSolution,
) -> None:
    game = pyspiel.load_game(GAME_NAME, {"model": "shoe", "counts": TINY})
    assert exploitability.nash_conv(game, SolverPolicy(game, solution)) > 1e-3


def _chance_nodes(state: pyspiel.State) -> Iterator[pyspiel.State]:
    if state.is_terminal():
        return
    if state.is_chance_node():
        yield state
        actions = [action for action, _ in state.chance_outcomes()]
    else:
        actions = state.legal_actions()
    for action in actions:
        yield from _chance_nodes(state.child(action))


def _chance_sums_to_one(counts: str) -> int:
    game = pyspiel.load_game(GAME_NAME, {"model": "shoe", "counts": counts})
    nodes = 0
    for node in _chance_nodes(game.new_initial_state()):
        chances = [p for _, p in node.chance_outcomes()]
        assert math.fsum(chances) == pytest.approx(1.0, abs=1e-12), str(node)
        assert all(p > 0 for p in chances)
        nodes += 1
    return nodes


def test_chance_sums_to_one_at_every_chance_node_of_a_small_shoe() -> None:
    assert _chance_sums_to_one(TINY) > 1_000


@pytest.mark.slow
def test_chance_sums_to_one_at_every_chance_node_of_17_cards(full_size: bool) -> None:
    if not full_size:
        pytest.skip("every chance node of 17 cards, in Python: with --slow")
    assert _chance_sums_to_one(SMALL) > 100_000


def test_one_deal_s_chance_is_the_hand_made_fraction() -> None:
    game = pyspiel.load_game(GAME_NAME, {"model": "shoe", "counts": SMALL})
    state = game.new_initial_state()
    chance = 1.0
    # left 0-5, right 0-3, banker 1-3 (a 4); the left punter draws on 5: a 9 (he has 4);
    # the right draws on 3 (bound): a 7 (0); the banker draws against 9 and 7: a 5 (9)
    for action in (PAIRS.index((0, 5)), PAIRS.index((0, 3)), PAIRS.index((1, 3)), DRAW, 9, 7):
        if state.is_chance_node():
            chance *= dict(state.chance_outcomes())[action]
        state.apply_action(action)
    assert state.current_player() == BANKER
    assert state.information_state_string(BANKER) == "banker 4 against 9 7"
    assert state.information_state_string(LEFT) == "left 5 drew"
    assert state.information_state_string(RIGHT) == "right 3 drew"
    state.apply_action(DRAW)
    chance *= dict(state.chance_outcomes())[5]
    state.apply_action(5)
    # 17 cards: six tens, two aces, two 3s, three 5s, two 7s, a 8 and a 9
    by_hand = (
        Fraction(6 * 3, math.comb(17, 2))  # a ten and a 5 of 17 cards
        * Fraction(5 * 2, math.comb(15, 2))  # a ten and a 3 of the 15 left
        * Fraction(2 * 1, math.comb(13, 2))  # an ace and the last 3 of 13
        * Fraction(1, 11)  # the 9
        * Fraction(2, 10)  # a 7
        * Fraction(2, 9)  # a 5 of the two left
    )
    assert chance == pytest.approx(float(by_hand), rel=1e-12)
    assert state.is_terminal() and state.returns() == [-1.0, -1.0, 2.0]


def test_naturals_settle_against_the_banker_s_first_two_cards() -> None:
    game = pyspiel.load_game(GAME_NAME, {"model": "replacement"})
    state = game.new_initial_state()
    for total in (8, 2, 6):  # left 8, a natural; right 2; banker 6
        state.apply_action(PAIRS.index((0, total)))
    assert state.is_chance_node()  # the right punter on 2 is bound to draw
    state.apply_action(5)  # his third card: right has 7
    assert state.information_state_string(BANKER) == "banker 6 against natural 5"
    state.apply_action(DRAW)
    state.apply_action(3)  # the banker's 9 beats the right, not the natural
    assert state.returns() == [1.0, -1.0, 0.0]


def test_bad_parameters_are_refused_by_name() -> None:
    for params, says in (
        ({"model": "poker"}, "unknown model"),
        ({"model": "shoe", "decks": 13}, "bad number of decks"),
        ({"model": "shoe", "counts": "1,2,3"}, "10 counts"),
        ({"model": "shoe", "counts": "4,1,1,1,0,0,0,0,0,0"}, "at least 9"),
        ({"banker": "tableau"}, "bad banker"),
    ):
        with pytest.raises((SolverError, pyspiel.SpielError, RuntimeError), match=says):
            pyspiel.load_game(GAME_NAME, params)


def test_the_any_shoe_solver_s_equilibrium_is_one_of_that_shoe_s_game() -> None:
    """`solve_banque(counts=...)` (the solver's own enumeration) against the OpenSpiel
    game dealt card by card from the same shoe: no player gains by deviating."""
    shoe = [int(count) for count in TINY.split(",")]
    solution = solve_banque(counts=shoe)
    game = pyspiel.load_game(GAME_NAME, {"model": "shoe", "counts": TINY})
    equilibrium = SolverPolicy(game, solution)
    assert exploitability.nash_conv(game, equilibrium) < 1e-9
    *_, banker = expected_game_score.policy_value(game.new_initial_state(), [equilibrium] * 3)
    assert banker / 2 == pytest.approx(solution.value, abs=1e-12)
