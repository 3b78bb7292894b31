"""``baccara odds`` and ``baccara eor``: exact odds for any shoe, and effects of removal."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from numbers import Integral
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.bets import BetKind, describe_pays
from baccara.cli.common import HOUSE_GAMES, echo_json, fail, variant_option
from baccara.shoe import MAX_DECKS
from baccara.variants import Variant

if TYPE_CHECKING:  # the engine (and numba) load only when a command runs
    from baccara.exact.odds import Odds


__all__ = ["COMMANDS", "odds_json", "parse_count_list", "parse_shoe"]


def parse_count_list(text: str, expected: int, what: str) -> tuple[int, ...]:
    """Parse ``"16,4,4,..."`` into ``expected`` whole numbers, or fail with one line."""
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    if len(parts) != expected:
        fail(f"bad {what} {text!r}: expected {expected} comma-separated counts, got {len(parts)}")
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        fail(f"bad {what} {text!r}: counts are whole numbers")


def parse_shoe(
    decks: int, counts: str | None, ranks: str | None, remove: str | None
) -> tuple[int, ...]:
    """The shoe of the ``--counts``, ``--ranks`` or ``--decks`` and ``--remove`` options:
    10 counts by value, 13 by rank, or 52 by card (full decks, card by card, so that
    ``--remove`` takes the very cards), less the cards removed."""
    from baccara.exact.odds import remove_cards

    if counts and ranks:
        fail("--counts and --ranks cannot be combined: give one shoe")
    shoe: tuple[int, ...]
    if counts:
        shoe = parse_count_list(counts, 10, "--counts")
    elif ranks:
        shoe = parse_count_list(ranks, 13, "--ranks")
    else:
        shoe = (decks,) * 52
    return remove_cards(shoe, remove) if remove else shoe


def _number(x: Any) -> float | int:
    return int(x) if isinstance(x, Integral) else float(x)


def odds_json(result: Odds) -> dict[str, Any]:
    """The JSON object ``baccara odds --json`` prints."""
    data: dict[str, Any] = {
        "variant": result.variant.name,
        "composition": list(result.composition),
        "cards": sum(result.composition),
        "exact": result.exact,
        "probabilities": {k: _number(v) for k, v in result.probabilities.items()},
        "edges": {k: _number(v) for k, v in result.edges.items()},
    }
    if result.counts is not None:
        data["counts"] = dict(result.counts)
        data["fractions"] = {
            "probabilities": {k: str(v) for k, v in result.probabilities.items()},
            "edges": {k: str(v) for k, v in result.edges.items()},
        }
    return data


def _percent(x: Any) -> str:
    return f"{100 * float(x):.4f}%"


def _print_odds(result: Odds) -> None:
    from baccara.exact.composition import VALUE_NAMES
    from baccara.exact.outcomes import PROBABILITY_KEYS

    console = Console(highlight=False)
    n = sum(result.composition)
    shape = ", ".join(
        f"{name} {c}" for name, c in zip(VALUE_NAMES, result.composition, strict=True)
    )
    console.print(Text(f"{result.variant.title}: {n} cards", style="bold underline"))
    console.print(Text(shape, style="dim"))
    main = Table(title="Who wins", title_justify="left")
    main.add_column("Result")
    main.add_column("Probability", justify="right")
    if result.counts is not None:
        main.add_column("Ordered 6-card deals", justify="right")
    for key in PROBABILITY_KEYS:
        row = [key.title(), f"{float(result.probabilities[key]):.9f}"]
        if result.counts is not None:
            row.append(f"{result.counts[key]:,}")
        main.add_row(*row)
    if result.counts is not None:
        main.add_row("Total", "1", f"{result.counts['total']:,}", style="bold")
    console.print(main)
    table = Table(title="Bets", title_justify="left")
    table.add_column("Bet")
    table.add_column("Pays")
    table.add_column("House edge", justify="right")
    for kind in BetKind:
        edge = result.edges[kind.value]
        style = "green" if float(edge) < 0 else ""
        table.add_row(kind.label, describe_pays(kind, result.variant), _percent(edge), style=style)
    console.print(table)
    mode = "exact fractions" if result.exact else "float64"
    console.print(f"House edge: minus the expected return per unit bet ({mode}).", style="dim")


@click.command(name="odds")
@click.option(
    "--decks", type=click.IntRange(1, MAX_DECKS), default=None, help="Full shoe of N decks [8]."
)
@click.option("--counts", metavar="C0,...,C9", help="10 counts by point value, tens/faces first.")
@click.option("--ranks", metavar="A,2,...,K", help="13 counts by rank, ace first.")
@click.option("--remove", metavar="CARDS", help="Cards already seen, e.g. 'Kh,9s,9d'.")
@variant_option(families=HOUSE_GAMES)
@click.option("--exact", is_flag=True, help="Exact integer counts and fractions.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--batch",
    "batch_in",
    type=click.Path(path_type=Path),
    help="Read K compositions (.npy K x 10, or .csv).",
)
@click.option("--out", "batch_out", type=click.Path(path_type=Path), help="Write the batch here.")
def odds_command(
    decks: int | None,
    counts: str | None,
    ranks: str | None,
    remove: str | None,
    variant: Variant,
    exact: bool,
    as_json: bool,
    batch_in: Path | None,
    batch_out: Path | None,
) -> None:
    """Exact odds and house edge of every bet for a full or depleted shoe.

    \b
    Examples:
      baccara odds --decks 6 --exact
      baccara odds --remove "Kh,9s,9d,5c" --json
      baccara odds --counts 128,32,32,32,32,32,32,32,32,20 --variant ez
      baccara odds --batch shoes.npy --out odds.npy
    """
    from baccara.exact.odds import batch_odds, odds

    if batch_in is not None:
        if counts or ranks or remove or decks or exact:
            fail("--batch cannot be combined with --decks, --counts, --ranks, --remove or --exact")
        from baccara.exact.batch_files import BatchFileError, read_batch, write_batch, write_csv

        try:
            batch = batch_odds(read_batch(batch_in), variant)
            if batch_out is None:
                write_csv(sys.stdout, batch.columns, batch.values)
            else:
                write_batch(batch.columns, batch.values, batch_out)
        except BatchFileError as error:
            fail(str(error))
        return
    if batch_out is not None:
        fail("--out needs --batch")
    given = [
        name for name, v in (("--decks", decks), ("--counts", counts), ("--ranks", ranks)) if v
    ]
    if len(given) > 1:
        fail(f"{' and '.join(given)} cannot be combined: give one shoe")
    shoe = parse_shoe(decks or 8, counts, ranks, remove)
    result = odds(shoe, variant, exact=exact)
    if as_json:
        echo_json(odds_json(result))
    else:
        _print_odds(result)


@click.command(name="eor")
@click.option("--decks", type=click.IntRange(1, MAX_DECKS), default=8, show_default=True)
@variant_option(families=HOUSE_GAMES)
@click.option(
    "--levels", type=click.IntRange(1, 9), default=3, show_default=True, help="Largest count tag."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def eor_command(decks: int, variant: Variant, levels: int, as_json: bool) -> None:
    """Effects of removal: how one card of each value changes every bet's house edge.

    For each bet, also a balanced count (tags proportional to the effects) and its
    betting correlation.
    """
    from baccara.exact.composition import VALUE_NAMES
    from baccara.exact.outcomes import PROBABILITY_KEYS
    from baccara.exact.removal import effects_of_removal

    effects = effects_of_removal(decks, variant)
    counts = {kind.value: effects.balanced_count(kind, levels) for kind in BetKind}
    if as_json:
        echo_json(
            {
                "decks": decks,
                "variant": variant.name,
                "values": list(VALUE_NAMES),
                "probabilities": {k: list(v) for k, v in effects.probabilities.items()},
                "edges": {k: list(v) for k, v in effects.edges.items()},
                "counts": {
                    k: {"tags": list(c.tags), "correlation": c.correlation}
                    for k, c in counts.items()
                },
            }
        )
        return
    console = Console(highlight=False)
    console.print(
        Text(f"Effects of removal: {variant.title}, {decks} decks", style="bold underline")
    )
    columns = [(f"P({key})", effects.probabilities[key]) for key in PROBABILITY_KEYS]
    columns += [(kind.label, effects.edges[kind.value]) for kind in BetKind]
    for table in _card_tables(columns, VALUE_NAMES, console.width):
        console.print(table)
    console.print(
        "Change per card of each value removed, in millionths of a unit "
        "(edge: + is better for the house).",
        style="dim",
    )
    tags = Table(
        title=f"Balanced counts (tags -{levels}..{levels})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    tags.add_column("Bet", max_width=14)
    for name in VALUE_NAMES:
        tags.add_column(name, justify="right")
    tags.add_column("Corr.", justify="right")
    for kind in BetKind:
        c = counts[kind.value]
        tags.add_row(kind.label, *(f"{t:+d}" for t in c.tags), f"{c.correlation:.3f}")
    console.print(tags)


def _card_tables(columns: list[tuple[str, Any]], values: Sequence[str], width: int) -> list[Table]:
    """Tables with a row per card value and a column per measure, as many columns to a
    table as ``width`` holds (a header wraps at its spaces)."""
    cells = [(name, [f"{1e6 * x:+.1f}" for x in numbers]) for name, numbers in columns]
    label = max(len(v) for v in values)
    tables: list[Table] = []
    used = width
    for name, shown in cells:
        wide = max(max(len(word) for word in name.split()), *(len(c) for c in shown))
        if used + wide + 3 > width:  # a column: its cells, a space each side, a rule
            tables.append(Table(box=box.SIMPLE_HEAD, pad_edge=False))
            tables[-1].add_column("Card", justify="right", min_width=label)
            used = label + 1
        tables[-1].add_column(name, justify="right", min_width=wide, max_width=wide)
        used += wide + 3
    for table in tables:
        names = [str(column.header) for column in table.columns[1:]]
        for row, value in enumerate(values):
            table.add_row(value, *(dict(cells)[n][row] for n in names))
    return tables


COMMANDS = (odds_command, eor_command)
