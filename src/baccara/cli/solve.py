"""``baccara solve``: optimal play in Chemin de Fer and Baccarat Banque."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.cli.common import echo_json, fail, house_option
from baccara.cli.odds import parse_shoe
from baccara.shoe import MAX_DECKS
from baccara.skill.solver.information import Model

if TYPE_CHECKING:  # the solvers load SciPy (and numpy): on use
    from baccara.skill.solver.banque import BanqueSolution
    from baccara.skill.solver.chemin import CheminSolution
    from baccara.skill.solver.models import Array

__all__ = ["COMMANDS", "solve"]

_COLUMN_NAMES = [str(c) for c in range(10)] + ["-"]


@click.group(name="solve")
def solve() -> None:
    """Solve the skill variants: equilibrium strategies and the value of the game."""


@solve.command(name="chemin-de-fer")
@click.option(
    "--model",
    type=click.Choice([m.value for m in Model]),
    default=Model.KEMENY_SNELL.value,
    show_default=True,
    help="kemeny-snell (A1): with replacement, totals; totals (B1): N decks, totals; "
    "downton-lockwood (B2): N decks, the banker sees his two cards, the punter his total; "
    "compositions (B3): N decks, each side sees its two cards.",
)
@click.option(
    "--decks",
    type=click.IntRange(1, MAX_DECKS),
    default=6,
    show_default=True,
    help="A shoe of this many full decks, for the models that deal from a shoe "
    "(kemeny-snell draws with replacement: it ignores --decks).",
)
@click.option(
    "--counts", metavar="C0,...,C9", help="Any shoe: 10 counts by point value, tens first."
)
@click.option("--ranks", metavar="A,2,...,K", help="Any shoe: 13 counts by rank, ace first.")
@click.option("--remove", metavar="CARDS", help="Cards already seen, e.g. 'Kh,9s,9d'.")
@click.option("--commission", is_flag=True, help="Take 5% commission on the banker's wins.")
@click.option(
    "--banker",
    type=click.Choice(["free", "tableau"]),
    default="free",
    show_default=True,
    help="free: the banker chooses everywhere; tableau: only in the tableau's free cells.",
)
@house_option(
    "The house tableau whose free cells --banker tableau may choose in: french "
    "(3-9, 4-1, 5-4, 6-stood) or scarne (3-9, 5-4). The house value settles the free "
    "cells as Punto Banco, so it is the same for both."
)
@click.option("--json", "as_json", is_flag=True, help="Print the solution as JSON.")
def chemin_command(
    model: str,
    decks: int,
    counts: str | None,
    ranks: str | None,
    remove: str | None,
    commission: bool,
    banker: str,
    house: str,
    as_json: bool,
) -> None:
    """Chemin de Fer as a punter-banker game, solved by linear programming, for a
    full shoe of --decks or any shoe (--counts, --ranks, --remove, as `odds` takes it).

    \b
    Examples:
      baccara solve chemin-de-fer --model downton-lockwood --decks 6 --json
      baccara solve chemin-de-fer --model compositions --decks 1 --remove "5h,5s,Kd"
    """
    from baccara.skill.solver.chemin import solve_chemin

    left = _shoe_left(decks, counts, ranks, remove)
    if left is not None and model == Model.KEMENY_SNELL.value:
        fail(
            "the kemeny-snell model (the default) draws with replacement: it takes no shoe;"
            " give --model totals, downton-lockwood or compositions with a shoe"
        )
    solution = solve_chemin(
        model,
        decks=decks,
        commission=0.05 if commission else 0.0,
        banker=banker,
        house=house,
        counts=left,
    )
    if as_json:
        echo_json(solution.to_json())
        return
    _print_chemin(solution)


def _shoe_left(
    decks: int, counts: str | None, ranks: str | None, remove: str | None
) -> tuple[int, ...] | None:
    """The cards left by point value when a shoe other than full decks is given."""
    if not (counts or ranks or remove):
        return None
    from baccara.exact.composition import composition

    return composition(parse_shoe(decks, counts, ranks, remove))[0]


def _pct(value: float) -> str:
    return f"{100 * value:+.4f}%"


def _print_chemin(sol: CheminSolution) -> None:
    console = Console(highlight=False)
    decks = (
        f"a shoe of {sum(sol.counts)} cards ({','.join(map(str, sol.counts))} by value)"
        if sol.counts is not None
        else "cards drawn with replacement"
        if sol.decks is None
        else f"{sol.decks} decks"
    )
    commission = "5% commission" if sol.commission else "no commission"
    banker = f"tableau ({sol.house})" if sol.banker == "tableau" else sol.banker
    console.print(
        Text(
            f"Chemin de Fer, model {sol.model.value}: {decks}, {commission}, banker {banker}",
            style="bold underline",
        )
    )
    console.print(f"Value of the game to the banker: {_pct(sol.value)} per unit staked")
    if sol.commission:
        console.print(f"Punter's expected loss:          {_pct(sol.punter_loss)}")
    console.print(f"Both by the house tableau:       {_pct(sol.house_value)}")
    if sol.primal_value is not None and sol.dual_value is not None:
        console.print(
            f"Banker's LP {sol.primal_value:.12f}, punter's LP {sol.dual_value:.12f}", style="dim"
        )
    console.print()
    console.print(Text("Punter on 5", style="bold"))
    for label, p in sol.player_draw.items():
        what = "draws" if p == 1 else "stands" if p == 0 else f"draws with probability {p:.6f}"
        console.print(f"  {label:>4}: {what}")
    console.print()
    table = Table(
        title="Banker: D draws, . stands, a number is a drawing probability", title_justify="left"
    )
    table.add_column("Banker", justify="right")
    for name in _COLUMN_NAMES:
        table.add_column(name, justify="center")
    infos = list(dict.fromkeys(cell[0] for cell in sol.banker_draw))
    for info in infos:
        row = []
        for third in (*range(10), None):
            p = sol.banker_draw[(info, third)]
            if p == 1:
                row.append(Text("D", style="green"))
            elif p == 0:
                row.append(Text(".", style="dim"))
            else:
                row.append(Text(f"{p:.3f}", style="bold yellow"))
        table.add_row(info, *row)
    table.caption = "columns: the punter's third card (0 = ten or face), - if he stood"
    console.print(table)
    departures = sol.departures()
    if departures:
        console.print(Text("Where the equilibrium leaves the house tableau", style="bold"))
        for (info, third), p, house in departures:
            against = "stood" if third is None else f"a {third}"
            console.print(
                f"  banker {info} against {against}: draws with probability {p:.4f} "
                f"(the house {'draws' if house else 'stands'})"
            )


@solve.command(name="banque")
@click.option(
    "--punters",
    "punters",
    type=click.FloatRange(0, 1),
    default=None,
    help="Instead of the equilibrium: the banker's best decisions when both punters "
    "draw on 5 with this probability.",
)
@click.option("--left-stake", type=click.FloatRange(min=0), default=1.0, show_default=True)
@click.option("--right-stake", type=click.FloatRange(min=0), default=1.0, show_default=True)
@click.option(
    "--decks",
    type=click.IntRange(1, MAX_DECKS),
    default=None,
    help="A shoe of this many full decks (without a shoe: cards drawn with replacement).",
)
@click.option(
    "--counts", metavar="C0,...,C9", help="Any shoe: 10 counts by point value, tens first."
)
@click.option("--ranks", metavar="A,2,...,K", help="Any shoe: 13 counts by rank, ace first.")
@click.option(
    "--remove",
    metavar="CARDS",
    help="Cards already seen, e.g. 'Kh,9s,9d', from --decks (the table's 3 if not given).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the solution as JSON.")
def banque_command(
    punters: float | None,
    left_stake: float,
    right_stake: float,
    decks: int | None,
    counts: str | None,
    ranks: str | None,
    remove: str | None,
    as_json: bool,
) -> None:
    """Baccarat Banque: the banker against two tableaux, each punter seeing his total.

    Cards drawn with replacement, or, given a shoe (--decks, --counts, --ranks,
    --remove, as `odds` takes it), every card from the cards left, none put back (the
    order they are dealt in does not change the chances): the equilibrium and the value
    are that shoe's. A shoe needs at least 9 cards, a coup's most. Without --punters:
    the symmetric equilibrium with equal stakes. With it: the banker's best decision in
    every cell against those punters and stakes.

    \b
    Examples:
      baccara solve banque --json
      baccara solve banque --decks 8
      baccara solve banque --decks 1 --remove "5h,5s,Kd"
      baccara solve banque --punters 1 --left-stake 3 --right-stake 1
    """
    from baccara.skill.solver.banque import banker_decisions, solve_banque
    from baccara.variants import find_variant

    left = _shoe_left(decks or find_variant("banque").decks, counts, ranks, remove)
    if left is None and decks is not None:
        from baccara.skill.solver.models import shoe_counts

        left = shoe_counts(decks)
    if punters is None:
        solution = solve_banque(counts=left)
        if as_json:
            echo_json(solution.to_json())
            return
        _print_banque(solution)
        return
    best = banker_decisions(
        punters, punters, left_stake=left_stake, right_stake=right_stake, counts=left
    )
    if as_json:
        echo_json(
            {
                "punters_draw_on_5": punters,
                "counts": None if left is None else list(left),
                "left_stake": left_stake,
                "right_stake": right_stake,
                "banker_draws": {
                    str(b): [[bool(v) for v in row] for row in best[b]] for b in range(8)
                },
            }
        )
        return
    title = (
        f"Baccarat Banque, {_banque_cards(left)}: the banker's best decisions, punters drawing "
        f"on 5 with probability {punters:g}, stakes {left_stake:g} left and {right_stake:g} right"
    )
    _print_grids(Console(highlight=False), title, best.astype(float))


def _banque_cards(counts: tuple[int, ...] | None) -> str:
    if counts is None:
        return "cards with replacement"
    return f"a shoe of {sum(counts)} cards ({','.join(map(str, counts))} by value)"


def _print_banque(sol: BanqueSolution) -> None:
    console = Console(highlight=False)
    _print_grids(
        console,
        f"Baccarat Banque: symmetric equilibrium, {_banque_cards(sol.counts)}",
        sol.banker_draw,
    )
    console.print(
        f"Value to the banker:             {_pct(sol.value)} per unit staked on a tableau"
    )
    console.print(f"Punters draw on 5 (banker best): {_pct(sol.house_value)}")
    console.print(f"Each punter draws on 5 with probability {sol.player_draw_on_5:.6f}")


def _print_grids(console: Console, title: str, draws: Array) -> None:
    from baccara.skill.solver.banque import NATURAL, STOOD

    console.print(Text(title, style="bold underline"))
    names = [*_COLUMN_NAMES, "N"]
    for b in range(8):
        grid = draws[b]
        core = grid.copy()
        core[NATURAL, NATURAL] = core[0, 0]  # both naturals: nothing to decide
        if (core == 1).all() or (core == 0).all():
            console.print(f"Banker {b}: {'always draws' if grid[0, 0] else 'always stands'}")
            continue
        table = Table(title=f"Banker {b}: rows left tableau, columns right", title_justify="left")
        table.add_column("L\\R", justify="right")
        for name in names:
            table.add_column(name, justify="center")
        for left in range(NATURAL + 1):
            cells = []
            for right in range(NATURAL + 1):
                p = grid[left, right]
                cells.append(
                    Text("D", style="green")
                    if p == 1
                    else Text(".", style="dim")
                    if p == 0
                    else Text(f"{p:.2f}", style="bold yellow")
                )
            table.add_row(names[left], *cells)
        console.print(table)
    console.print(
        f"Columns: third card 0-9, - stood ({STOOD}), N natural ({NATURAL}).", style="dim"
    )


COMMANDS = (solve,)
