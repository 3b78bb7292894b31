"""Betting strategies over simulated shoes: bankroll, risk of ruin, value per hand.

Session ``s`` plays shoes ``s * S .. s * S + S - 1`` of the series (``S`` =
``session_shoes``) from a fresh bankroll; every strategy plays the same coups, so
they are compared on the same cards. A strategy is ruined when its bankroll falls
below the table minimum. Wagers are settled by `baccara.bets.settle` in integer
minor units.

>>> from baccara.sim.simulation import Job
>>> plan = Plan(specs=("flat:banker", "martingale:player"), bankroll=10_000, unit=100)
>>> report = play(Job(shoes=4, seed=3), plan)
>>> [r.name for r in report], report[0].sessions
(['flat:banker', 'martingale:player'], 4)

Each report sets the observed edge per unit wagered beside the edge the bets it
made would have on their own (their stakes times the exact full-shoe edges): a
betting system does not change it, and the report says so when the interval
covers it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from baccara.bets import bets_for
from baccara.coup import Coup
from baccara.money import format_money
from baccara.sim.payouts import settle_net
from baccara.sim.shoes import keyed_coups
from baccara.sim.simulation import Progress, SimulationError, exact_odds, execute, processes_for
from baccara.sim.strategies import make_strategy
from baccara.variants import Variant

__all__ = ["Plan", "SessionChunk", "StrategyReport", "play", "play_chunk", "plot"]

Z95 = 1.959963984540054
SESSIONS_PER_CHUNK = 32
PLAY_SHOES_PER_PROCESS = 5_000
"""Shoes of sessions a worker process must play to repay its start (measured: 20,000
shoes of flat betting took 14.0 s in one process, 11.1 s in two)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """Which strategies play, with what money and under which table limits (minor units).

    >>> Plan(specs=("flat:banker",), bankroll=500, unit=100, table_min=1000)
    Traceback (most recent call last):
    ...
    baccara.sim.simulation.SimulationError: bankroll 5.00 is below the table minimum 10.00
    """

    specs: tuple[str, ...]
    bankroll: int
    unit: int
    table_min: int | None = None
    table_max: int | None = None
    session_shoes: int = 1
    paths: int = 20

    def __post_init__(self) -> None:
        if not self.specs:
            raise SimulationError("no strategy given")
        if self.bankroll <= 0:
            raise SimulationError(
                f"bad bankroll {format_money(self.bankroll)}: expected a positive amount"
            )
        if self.table_min is not None and self.bankroll < self.table_min:
            raise SimulationError(
                f"bankroll {format_money(self.bankroll)} is below the table minimum "
                f"{format_money(self.table_min)}"
            )
        if self.unit > self.bankroll:
            raise SimulationError(
                f"unit {format_money(self.unit)} is more than the bankroll "
                f"{format_money(self.bankroll)}"
            )
        if self.session_shoes < 1:
            raise SimulationError(f"bad session length {self.session_shoes}: at least 1 shoe")
        for spec in self.specs:
            make_strategy(spec, unit=self.unit, table_min=self.table_min, table_max=self.table_max)

    def check(self, variant: Variant) -> None:
        """Refuse strategies that bet what ``variant`` does not offer."""
        offered = bets_for(variant)
        for spec in self.specs:
            strategy = make_strategy(spec, unit=self.unit)
            kind = getattr(strategy, "kind", None)
            if kind is not None and kind not in offered:
                raise SimulationError(
                    f"strategy {spec!r}: bet {kind.value!r} is not offered in {variant.name}"
                )


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionChunk:
    """What one strategy did in some sessions, session by session."""

    finals: tuple[int, ...]
    hands: tuple[int, ...]
    wagered: tuple[int, ...]
    expected: tuple[float, ...]
    ruined: tuple[bool, ...]
    paths: tuple[tuple[int, ...], ...]


def play_chunk(
    job: Any, plan: Plan, variant: Variant, edges: dict[str, float], first: int, count: int
) -> dict[str, SessionChunk]:
    """Play sessions ``first .. first + count - 1`` for every strategy of ``plan``.

    ``edges`` are the bets' exact edges, computed once by the caller so that every
    worker uses the very same numbers.
    """
    rows: dict[str, list[Any]] = {spec: [] for spec in plan.specs}
    floor = plan.table_min or 1
    for session in range(first, first + count):
        shoes = keyed_coups(
            job.seed, session * plan.session_shoes, plan.session_shoes, job.settings
        )
        for spec in plan.specs:
            strategy = make_strategy(
                spec,
                unit=plan.unit,
                table_min=plan.table_min,
                table_max=plan.table_max,
                decks=job.settings.decks,
                variant=variant,
            )
            bankroll, hands, wagered, expected, ruined = plan.bankroll, 0, 0, 0.0, False
            path = [bankroll] if session < plan.paths else None
            for coups in shoes:
                history: list[Coup] = []
                for coup, key in coups:
                    if bankroll < floor:
                        ruined = True
                        break
                    wagers = strategy.wagers(bankroll, history)
                    if sum(w.amount for w in wagers) > bankroll:
                        raise SimulationError(f"strategy {spec} bet more than its bankroll")
                    net = 0
                    for wager in wagers:
                        net += settle_net(wager.kind, wager.amount, key, variant)
                        wagered += wager.amount
                        expected -= wager.amount * edges.get(wager.kind.value, 0.0)
                    hands += bool(wagers)
                    bankroll += net
                    strategy.record(coup, net)
                    history.append(coup)
                    if path is not None:
                        path.append(bankroll)
                if ruined:
                    break
            ruined = ruined or bankroll < floor
            rows[spec].append((bankroll, hands, wagered, expected, ruined, path))
    out = {}
    for spec, items in rows.items():
        out[spec] = SessionChunk(
            finals=tuple(r[0] for r in items),
            hands=tuple(r[1] for r in items),
            wagered=tuple(r[2] for r in items),
            expected=tuple(r[3] for r in items),
            ruined=tuple(r[4] for r in items),
            paths=tuple(tuple(r[5]) for r in items if r[5] is not None),
        )
    return out


def _ratio(num: Sequence[float], den: Sequence[float]) -> tuple[float, float]:
    """Ratio estimate sum(num) / sum(den) over sessions and its standard error."""
    total = sum(den)
    if total == 0:
        return math.nan, math.nan
    r = sum(num) / total
    k = len(num)
    if k < 2:
        return r, math.nan
    mean = total / k
    spread = sum((x - r * y) ** 2 for x, y in zip(num, den, strict=True))
    return r, math.sqrt(spread / (k * (k - 1))) / mean


def _quantile(sorted_values: Sequence[int], q: float) -> float:
    pos = q * (len(sorted_values) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)


@dataclass(frozen=True, slots=True, kw_only=True)
class StrategyReport:
    """One strategy over every session: its bankrolls, ruin and value per hand."""

    name: str
    bankroll: int
    chunk: SessionChunk

    @property
    def sessions(self) -> int:
        """Sessions played."""
        return len(self.chunk.finals)

    @property
    def risk_of_ruin(self) -> float:
        """Share of sessions that ended below the table minimum."""
        return sum(self.chunk.ruined) / self.sessions

    def ruin_interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the risk of ruin."""
        n, p = self.sessions, self.risk_of_ruin
        centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
        low = 0.0 if p == 0 else max(0.0, centre - half)
        return low, 1.0 if p == 1 else min(1.0, centre + half)

    def nets(self) -> list[int]:
        """Each session's result (final bankroll minus the starting one)."""
        return [f - self.bankroll for f in self.chunk.finals]

    def ev_per_hand(self) -> tuple[float, float]:
        """Mean net per hand played (minor units) and its standard error over sessions."""
        return _ratio(self.nets(), self.chunk.hands)

    def edge(self) -> tuple[float, float]:
        """Observed house edge per unit wagered and its standard error over sessions."""
        r, se = _ratio(self.nets(), self.chunk.wagered)
        return -r, se

    def expected_edge(self) -> float:
        """The edge its wagers have on their own: stakes times the exact full-shoe edges."""
        wagered = sum(self.chunk.wagered)
        return -sum(self.chunk.expected) / wagered if wagered else math.nan

    def verdict(self) -> str:
        """Whether the observed edge is consistent with the bets' own edge."""
        edge, se = self.edge()
        expected = self.expected_edge()
        if math.isnan(se) or math.isnan(expected):
            return "not enough play to judge"
        low, high = edge - Z95 * se, edge + Z95 * se
        if low <= expected <= high:
            return "the system does not change the edge (the interval covers the bets' own edge)"
        return "the edge differs from the bets' own edge (the interval does not cover it)"

    def to_json(self) -> dict[str, Any]:
        """The report as plain numbers (minor units for money)."""
        finals = sorted(self.chunk.finals)
        ev, ev_se = self.ev_per_hand()
        edge, edge_se = self.edge()
        low, high = self.ruin_interval()
        return {
            "sessions": self.sessions,
            "bankroll": self.bankroll,
            "hands": sum(self.chunk.hands),
            "wagered": sum(self.chunk.wagered),
            "net": sum(self.nets()),
            "final_bankroll": {
                "mean": sum(finals) / len(finals),
                "p05": _quantile(finals, 0.05),
                "p25": _quantile(finals, 0.25),
                "median": _quantile(finals, 0.5),
                "p75": _quantile(finals, 0.75),
                "p95": _quantile(finals, 0.95),
            },
            "risk_of_ruin": self.risk_of_ruin,
            "risk_of_ruin_ci95": [low, high],
            "ev_per_hand": ev,
            "ev_per_hand_ci95": [ev - Z95 * ev_se, ev + Z95 * ev_se],
            "edge": edge,
            "edge_ci95": [edge - Z95 * edge_se, edge + Z95 * edge_se],
            "expected_edge": self.expected_edge(),
            "verdict": self.verdict(),
        }


def play(
    job: Any,
    plan: Plan,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[StrategyReport]:
    """Play every strategy of ``plan`` over ``job``'s shoes, in sessions.

    The same seed gives the same report for any number of workers.
    """
    plan.check(job.variant)
    sessions = job.shoes // plan.session_shoes
    if sessions < 1:
        raise SimulationError(
            f"{job.shoes} shoes make no session of {plan.session_shoes} shoes: deal more shoes"
        )
    parts = [
        (s, min(SESSIONS_PER_CHUNK, sessions - s)) for s in range(0, sessions, SESSIONS_PER_CHUNK)
    ]
    odds = exact_odds(job.variant, job.settings.decks)
    edges = {} if odds is None else {k: float(v) for k, v in odds.edges.items()}
    if scheduler is None:  # more processes only where the sessions repay their start
        workers = processes_for(sessions * plan.session_shoes, PLAY_SHOES_PER_PROCESS, workers)
    done = execute(
        partial(play_chunk, job, plan, job.variant, edges),
        parts,
        workers=workers,
        scheduler=scheduler,
        threads=1 if workers == 1 else os.cpu_count() or 1,
        progress=progress,
    )
    reports = []
    for spec in plan.specs:
        pieces = [chunk[spec] for chunk in done]
        merged = SessionChunk(
            finals=tuple(x for p in pieces for x in p.finals),
            hands=tuple(x for p in pieces for x in p.hands),
            wagered=tuple(x for p in pieces for x in p.wagered),
            expected=tuple(x for p in pieces for x in p.expected),
            ruined=tuple(x for p in pieces for x in p.ruined),
            paths=tuple(x for p in pieces for x in p.paths),
        )
        name = make_strategy(spec, unit=plan.unit).name
        reports.append(StrategyReport(name=name, bankroll=plan.bankroll, chunk=merged))
    return reports


def plot(reports: Sequence[StrategyReport], path: str, *, minor: int = 100) -> None:
    """Draw bankroll paths and the distribution of final bankrolls to a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, report in enumerate(reports):
        colour = colours[i % len(colours)]
        for j, line in enumerate(report.chunk.paths):
            left.plot(
                [x / minor for x in line],
                color=colour,
                alpha=0.45,
                linewidth=0.8,
                label=report.name if j == 0 else None,
            )
        right.hist(
            [x / minor for x in report.chunk.finals],
            bins=40,
            histtype="step",
            color=colour,
            linewidth=1.4,
            label=f"{report.name} (ruin {report.risk_of_ruin:.1%})",
        )
    left.set(title="Bankroll paths", xlabel="coup", ylabel="bankroll")
    right.set(title="Final bankroll", xlabel="bankroll", ylabel="sessions")
    left.legend(fontsize="small")
    right.legend(fontsize="small")
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=110)
    except OSError as error:
        raise SimulationError(f"cannot write the plot {path!r}: {error.strerror}") from None
    finally:
        plt.close(figure)
