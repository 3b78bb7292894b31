"""``baccara simulate``: millions of real shoes, every bet's edge, and betting systems."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table

from baccara.cli.common import (
    HOUSE_GAMES,
    echo_json,
    fail,
    money_option,
    shoe_options,
    variant_option,
)
from baccara.money import MINOR, format_money
from baccara.shoe import MAX_DECKS, ShoeSettings
from baccara.sim.strategies import STRATEGIES
from baccara.variants import Variant

if TYPE_CHECKING:  # the simulator loads numba and its kernels: on use
    from baccara.sim.bankroll import StrategyReport
    from baccara.sim.simulation import SimulationResult

__all__ = ["COMMANDS"]


def _strategy_help() -> str:
    names = ", ".join(STRATEGIES)
    return f"Betting strategy to play (repeatable): {names}. See docs/simulate.md."


COMPILED_SECONDS = 2.0
"""A warm-up longer than this compiled the kernels (loading them takes well under)."""


@contextmanager
def _status(text: str) -> Iterator[None]:
    """A spinner on stderr while ``text`` goes on, when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield
        return
    with Console(stderr=True).status(text):
        yield


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


@click.command(name="simulate")
@variant_option(families=HOUSE_GAMES)
@click.option("--decks", type=click.IntRange(1, MAX_DECKS), help="Decks (default: the variant's).")
@click.option(
    "--shoes",
    type=int,
    help="Shoes to deal (default 10,000; 1,000 when strategies play).",
)
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the series (default: random).")
@shoe_options
@click.option("--strategy", "strategies", multiple=True, metavar="NAME", help=_strategy_help())
@money_option("--bankroll", "1000", "Starting bankroll of each session.")
@money_option("--unit", "10", "Base stake of the strategies.")
@money_option("--table-min", None, "Table minimum (default: the unit).")
@money_option("--table-max", None, "Table maximum (default: none).")
@click.option(
    "--session-shoes",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Shoes per session (each starts from the bankroll).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes, at most: a run too small to gain from them uses fewer (dealing alone "
    "already uses every core).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS|local",
    help="Run on Dask: 'local' starts a LocalCluster of --workers processes.",
)
@click.option(
    "--plot", "plot_path", metavar="FILE.png", help="Draw bankroll paths and their distribution."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
def simulate_command(
    variant: Variant,
    decks: int | None,
    shoes: int | None,
    seed: int | None,
    cut_card: int,
    no_burn: bool,
    strategies: tuple[str, ...],
    bankroll: int,
    unit: int,
    table_min: int | None,
    table_max: int | None,
    session_shoes: int,
    workers: int,
    scheduler: str | None,
    plot_path: str | None,
    as_json: bool,
) -> None:
    """Deal real shoes fast and measure every bet, with exact values beside.

    Same --seed, same numbers, for any --workers and on Dask. Money is typed and
    shown in currency units (10.50); the JSON report gives minor units (cents).
    """
    from baccara.sim.bankroll import Plan, play, plot
    from baccara.sim.simulation import Job, simulate, warm

    if plot_path and not strategies:
        strategies = ("flat:banker",)
    if shoes is None:
        shoes = 1_000 if strategies else 10_000
    if shoes < 1:
        fail(f"bad number of shoes {shoes}: expected at least 1")
    if seed is None:
        seed = secrets.randbits(63)
    settings = ShoeSettings(decks=decks or variant.decks, cut_card=cut_card, burn=not no_burn)
    job = Job(shoes=shoes, seed=seed, variant=variant, settings=settings)
    plan = None
    if strategies:
        floor = table_min if table_min is not None else unit
        if bankroll < floor:
            fail(
                f"bankroll {format_money(bankroll)} is below the table minimum "
                f"{format_money(floor)}"
            )
        plan = Plan(
            specs=strategies,
            bankroll=bankroll,
            unit=unit,
            table_min=table_min if table_min is not None else unit,
            table_max=table_max,
            session_shoes=session_shoes,
        )
        plan.check(variant)
    with _status("Loading the compiled kernels (the first run after an install compiles them)"):
        loading = warm(job)
    with _progress(shoes, "Dealing shoes") as advance:
        result = simulate(job, workers=workers, scheduler=scheduler, progress=advance)
    reports: list[StrategyReport] = []
    if plan is not None:
        with _progress(shoes // session_shoes, "Playing sessions") as advance:
            reports = play(job, plan, workers=workers, scheduler=scheduler, progress=advance)
        if plot_path:
            plot(reports, plot_path, minor=MINOR)
    if as_json:
        data = result.to_json()
        if reports:
            data["strategies"] = {r.name: r.to_json() for r in reports}
        echo_json(data)
        return
    _print(result, reports, plot_path, loading)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.4f}%"


def _print(
    result: SimulationResult,
    reports: list[StrategyReport],
    plot_path: str | None,
    loading: float = 0.0,
) -> None:
    console = Console()
    job = result.job
    console.print(
        f"[bold]{job.variant.title}[/], {job.settings.decks} decks, seed {job.seed}: "
        f"{result.shoes:,} shoes, {result.hands:,} hands in {result.seconds:.2f} s "
        f"({result.hands_per_second / 1e6:.1f} million hands/s)"
    )
    if loading >= COMPILED_SECONDS:  # the clock above starts once the kernels are ready
        console.print(
            f"Before that, {loading:.1f} s compiling the kernels: once after an install, "
            "kept in numba's cache for the next runs.",
            style="dim",
        )
    outcomes = Table(title="Outcomes")
    for column in ("", "count", "frequency", "exact", "z"):
        outcomes.add_column(column, justify="right")
    counts = {"banker": result.banker, "player": result.player, "tie": result.tie}
    for name, row in result.outcome_stats().items():
        z = row["z"]
        outcomes.add_row(
            name.title(),
            f"{counts[name]:,}",
            _pct(row["observed"]),
            _pct(row["exact"]),
            "-" if z is None else f"{z:+.2f}",
        )
    console.print(outcomes)
    bets = Table(title="Bets (one unit every coup; 95% interval over shoes)")
    for column in ("bet", "hits", "net (units)", "house edge", "95% interval", "exact"):
        bets.add_column(column, justify="right")
    for b in result.bets():
        bets.add_row(
            b.kind.label,
            f"{b.hits:,}",
            f"{b.net:,.2f}",
            _pct(b.edge),
            f"{_pct(b.ci_low)} .. {_pct(b.ci_high)}",
            _pct(b.exact_edge),
        )
    console.print(bets)
    shape = Table(title="Naturals, draws and cards")
    for column in ("", "observed", "exact"):
        shape.add_column(column, justify="right")
    for name, row in result.shape().items():
        shape.add_row(name.replace("_", " "), _pct(row["observed"]), _pct(row["exact"]))
    console.print(shape)
    banker, player, ties = result.totals.longest
    console.print(
        f"Longest streaks in a shoe: Banker {banker}, Player {player}, ties in a row {ties}."
    )
    if not reports:
        return
    # One column per strategy, so that a few of them fit an 80-column terminal.
    labels = (
        "sessions",
        "mean final",
        "final, 5%..95%",
        "risk of ruin",
        "EV per hand",
        "  95% interval",
        "edge",
        "  95% interval",
        "bets' own edge",
    )
    columns = []
    for report in reports:
        data = report.to_json()
        final = data["final_bankroll"]
        ev, (ev_lo, ev_hi) = data["ev_per_hand"], data["ev_per_hand_ci95"]
        lo, hi = data["edge_ci95"]
        columns.append(
            (
                f"{report.sessions:,}",
                format_money(round(final["mean"])),
                f"{format_money(round(final['p05']))}..{format_money(round(final['p95']))}",
                f"{report.risk_of_ruin:.2%}",
                f"{ev / MINOR:+.3f}",
                f"{ev_lo / MINOR:+.2f}..{ev_hi / MINOR:+.2f}",
                _pct(data["edge"]),
                f"{_pct(lo)}..{_pct(hi)}",
                _pct(data["expected_edge"]),
            )
        )
    table = Table(title="Strategies (money in currency units)")
    table.add_column("")
    for report in reports:
        table.add_column(report.name, justify="right", overflow="fold")
    for line, label in enumerate(labels):
        table.add_row(label, *(column[line] for column in columns))
    console.print(table)
    for report in reports:
        console.print(f"{report.name}: {report.verdict()}.")
    if plot_path:
        console.print(f"Plot written to {plot_path}.")


COMMANDS = (simulate_command,)
