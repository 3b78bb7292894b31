"""The research environments. The Punto Banco bettor in Gymnasium: the vectorised form
on the compiled dealer, steps a second (a coup in one sub-environment each; target
1,000,000 on one core) beside the plain Python environment in the same run. Chemin de
Fer and Banque in OpenSpiel (``baccara_chemin_de_fer``, ``baccara_banque``): game states
per second in random playthroughs, beside OpenSpiel's own Python Kuhn poker in the same
run (the reference point of a Python game); CFR+ iterations to 1e-4 of the solvers'
values, OpenSpiel's C++ solver on the game compiled to a C++ tree
(`baccara.research.efg`), beside the same iterations on the Python game (Banque's, with
``--quick`` skipped, by its first iteration's time).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from baccara.skill.solver.banque import solve_banque
from baccara.skill.solver.chemin import solve_chemin


def _states_per_second(game: Any, seconds: float, seed: int) -> float:
    """Random playthroughs for ``seconds``: states visited (each applied action) a second."""
    rng = random.Random(seed)
    visited, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            visited += 1
    return visited / (time.perf_counter() - start)


def _cfr_to(game: Any, gap: Callable[[list[float]], float], most: int) -> tuple[int, float]:
    """CFR+ iterations (OpenSpiel's C++ solver) until ``gap`` of the average policy's
    returns is below 1e-4 (checked after every iteration), and the seconds they took."""
    import pyspiel

    solver, took = pyspiel.CFRPlusSolver(game), 0.0
    for iteration in range(1, most + 1):
        start = time.perf_counter()
        solver.evaluate_and_update_policy()
        took += time.perf_counter() - start
        returns = pyspiel.expected_returns(
            game.new_initial_state(), solver.average_policy(), -1, True
        )
        if gap(returns) < 1e-4:
            return iteration, took
    return most, took


def _cfr_seconds(game: Any, iterations: int) -> float:
    """Seconds for ``iterations`` CFR+ iterations on ``game`` (the Python game's baseline)."""
    import pyspiel

    solver, start = pyspiel.CFRPlusSolver(game), time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return time.perf_counter() - start


def _compiled_cfr(game: Any, gap: Callable[[list[float]], float]) -> tuple[int, float, float]:
    """``game`` compiled to a C++ tree, then CFR+ on it to 1e-4 (`_cfr_to`): the iterations,
    their seconds and the compiling's."""
    from baccara.research.efg import compiled

    start = time.perf_counter()
    fast = compiled(game)
    compiling = time.perf_counter() - start
    return (*_cfr_to(fast, gap, 400), compiling)


def _cfr(quick: bool) -> None:
    """CFR+ to 1e-4 of the solvers' values: on the compiled C++ tree, beside the same
    iterations on the Python game (Banque's: its first iteration, per iteration)."""
    import pyspiel

    chemin = pyspiel.load_game("baccara_chemin_de_fer", {"model": "kemeny-snell"})
    value = solve_chemin("kemeny-snell").value
    iterations, took, compiling = _compiled_cfr(chemin, lambda returns: abs(returns[1] - value))
    python = _cfr_seconds(chemin, iterations)
    print(
        f"   CFR+ (C++) to 1e-4 of the LP value, Chemin de Fer kemeny-snell: {iterations} "
        f"iterations, {took:.2f} s on the compiled tree (+{compiling:.1f} s compiling) | "
        f"baseline the Python game {python:.1f} s | ratio {python / (took + compiling):.0f}"
    )
    if quick:
        return
    banque = pyspiel.load_game("baccara_banque", {"model": "replacement"})
    value = solve_banque().value
    iterations, took, compiling = _compiled_cfr(banque, lambda returns: abs(returns[2] / 2 - value))
    python = _cfr_seconds(banque, 1)
    print(
        f"   CFR+ (C++) to 1e-4 of the solver's value a tableau, Banque (3 players, "
        f"443,527 states): {iterations} iterations, {took:.1f} s on the compiled tree "
        f"(+{compiling:.1f} s compiling), {took / iterations:.2f} s/iteration | baseline "
        f"the Python game {python:.1f} s/iteration (its first) | ratio "
        f"{python * iterations / took:.0f}"
    )


def _bettor_steps(seconds: float) -> float:
    """The Gymnasium bettor's steps a second (a coup each), random actions."""
    from baccara.research.gym_bettor import PuntoBancoBettor

    env = PuntoBancoBettor()
    env.reset(seed=1)
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        *_, done, _, _ = env.step(rng.randrange(env.actions.n))
        steps += 1
        if done:
            env.reset()
    return steps / (time.perf_counter() - start)


def _vector_steps(seconds: float, num_envs: int) -> float:
    """The vectorised bettor's steps a second: ``num_envs`` coups a call, numpy's random
    actions drawn inside the timed loop (one ``integers`` call a batch)."""
    from baccara.research.gym_vector import PuntoBancoBettorVectorEnv

    envs = PuntoBancoBettorVectorEnv(num_envs)
    envs.reset(seed=1)
    envs.step(np.zeros(num_envs, dtype=np.int64))  # compiled, or loaded from numba's cache
    rng = np.random.default_rng(1)
    actions = int(envs.single_action_space.n)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        envs.step(rng.integers(actions, size=num_envs))
        steps += num_envs
    return steps / (time.perf_counter() - start)


def _bettors(quick: bool) -> None:
    """The Gymnasium bettor: vectorised against plain, the ratio, and the target."""
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        print("   Gymnasium is not installed: pip install 'baccara[rl]'")
        return
    seconds, num_envs = (1.0, 1024) if quick else (5.0, 4096)
    plain = _bettor_steps(seconds)
    vector = _vector_steps(seconds, num_envs)
    met = "met" if vector >= 1_000_000 else "NOT met"
    print(
        f"   Gymnasium bettor, vectorised ({num_envs:,} sub-envs, one compiled call a step, "
        f"random actions drawn in the loop): {vector:>12,.0f} steps/s | baseline plain "
        f"Python env {plain:>9,.0f} steps/s | ratio {vector / plain:,.0f} | "
        f"target 1,000,000 steps/s on one core: {met}"
    )


def main(quick: bool) -> None:
    _bettors(quick)
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

        import baccara.research.openspiel_banque
        import baccara.research.openspiel_chemin  # noqa: F401  (each registers its game)
    except ImportError:
        print("   OpenSpiel is not installed: pip install 'baccara[rl]'")
        return
    seconds = 1.0 if quick else 5.0
    kuhn = _states_per_second(pyspiel.load_game("python_kuhn_poker"), seconds, 1)
    for label, name, model in (
        ("Chemin", "baccara_chemin_de_fer", "kemeny-snell"),
        ("Chemin", "baccara_chemin_de_fer", "compositions"),
        ("Banque", "baccara_banque", "replacement"),
        ("Banque", "baccara_banque", "shoe"),
    ):
        rate = _states_per_second(pyspiel.load_game(name, {"model": model}), seconds, 2)
        print(
            f"   random playthroughs, {label} {model:<12}: {rate:>9,.0f} states/s | "
            f"baseline Python Kuhn poker {kuhn:>9,.0f} states/s | ratio {rate / kuhn:.2f}"
        )
    _cfr(quick)
