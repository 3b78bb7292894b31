"""What every command shares: error handling, JSON output, option types."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

import click

from baccara.money import MoneyError, parse_money
from baccara.skill.tableaux import House
from baccara.variants import (
    FAMILIES,
    VARIANTS,
    Family,
    FamilyError,
    Variant,
    find_variant,
    require_family,
)

__all__ = [
    "EXIT_BAD_INPUT",
    "HOUSE_GAMES",
    "BadInput",
    "echo_json",
    "fail",
    "house_option",
    "main_group",
    "money_option",
    "refuse_family",
    "run",
    "seed_option",
    "shoe_options",
    "variant_option",
]

EXIT_BAD_INPUT = 2
F = TypeVar("F", bound=Callable[..., Any])


def money_option(
    name: str, default: str | None, text: str, *, positive: bool = True
) -> Callable[[F], F]:
    """An option for an amount of money as people write it (``10``, ``12.50``), given
    to the command in minor units (`baccara.money.parse_money`); a bad one is refused
    with exit status 2. With ``positive`` it must be above 0.00."""

    def convert(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
        if value is None:
            return None
        try:
            amount = parse_money(value, positive=positive)
        except MoneyError as error:
            raise click.BadParameter(str(error), ctx, param) from None
        if amount < 0:
            raise click.BadParameter(f"bad amount {value!r}: it must not be below 0.00", ctx, param)
        return amount

    return click.option(
        name, metavar="AMOUNT", default=default, show_default=True, callback=convert, help=text
    )


class BadInput(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = EXIT_BAD_INPUT


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line error and exit status 2."""
    raise BadInput(message)


def main_group() -> type[click.Group]:
    """A group whose commands turn domain errors (ValueError) into `BadInput`."""

    class Group(click.Group):
        def invoke(self, ctx: click.Context) -> Any:
            try:
                return super().invoke(ctx)
            except (click.ClickException, click.exceptions.Exit, click.Abort):
                raise
            except ValueError as error:
                raise BadInput(str(error)) from None

    return Group


def run(command: click.Command, argv: Sequence[str]) -> int:
    """Run ``command`` with full control of errors: one line each, never a traceback."""
    try:
        result = command.main(args=list(argv), prog_name="baccara", standalone_mode=False)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.UsageError as error:
        hint = f" (try '{error.ctx.command_path} --help')" if error.ctx is not None else ""
        click.echo(f"baccara: error: {error.format_message()}{hint}", err=True)
        return EXIT_BAD_INPUT
    except click.ClickException as error:
        click.echo(f"baccara: error: {error.format_message()}", err=True)
        return error.exit_code
    except ValueError as error:
        click.echo(f"baccara: error: {error}", err=True)
        return EXIT_BAD_INPUT
    except click.Abort:
        click.echo("baccara: aborted", err=True)
        return 130
    except KeyboardInterrupt:
        click.echo("baccara: interrupted", err=True)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    return result if isinstance(result, int) else 0


HOUSE_GAMES = (Family.PUNTO_BANCO,)
"""The families of the house-banked games (odds, simulation, the Punto Banco tables)."""

_WHERE = {
    Family.PUNTO_BANCO: "`baccara odds`, `baccara simulate` or `baccara play`",
    Family.CHEMIN_DE_FER: (
        "`baccara solve chemin-de-fer` (its equilibrium) or "
        "`baccara play --variant chemin-de-fer` (bots alone with --seats 0)"
    ),
    Family.BANQUE: (
        "`baccara solve banque` (its equilibrium) or "
        "`baccara play --variant banque` (bots alone with --seats 0)"
    ),
}
"""Where each family is played or computed, for the one-line refusals (a family not
listed is refused without a pointer)."""


def refuse_family(variant: Variant, families: tuple[Family, ...] | None, command: str) -> Variant:
    """``variant`` if ``command`` plays its family (None: every registered family); else
    stop with one line naming what it does."""
    wanted = tuple(FAMILIES.values()) if families is None else families
    try:
        return require_family(variant, wanted, user=f"`{command}`")
    except FamilyError as error:
        where = _WHERE.get(variant.family)
        fail(str(error) if where is None else f"{error}; for {variant.family.label} use {where}")


def variant_option(
    default: str = "punto-banco", *, families: tuple[Family, ...] | None = None
) -> Callable[[F], F]:
    """The ``--variant NAME`` option: any registered name or alias, given as a `Variant`.

    A variant of a family outside ``families`` stops the command with one line
    (`refuse_family`).
    """

    def convert(ctx: click.Context, param: click.Parameter, value: str) -> Variant:
        try:
            variant = find_variant(value)
        except ValueError as error:
            raise click.BadParameter(str(error), ctx, param) from None
        return refuse_family(variant, families, ctx.command_path)

    return click.option(
        "--variant",
        metavar="NAME",
        default=default,
        show_default=True,
        callback=convert,
        help="Game variant: "
        + ", ".join(v.name for v in VARIANTS.values() if families is None or v.family in families)
        + " ('baccara rules --variant NAME' shows one's rules and pays).",
    )


def seed_option(command: F) -> F:
    """The ``--seed`` option: the same seed deals the same series of shoes."""
    return click.option(
        "--seed",
        type=click.IntRange(min=0),
        default=None,
        help="Seed for a reproducible series of shoes.",
    )(command)


def house_option(help: str) -> Callable[[F], F]:
    """The ``--house NAME`` option: a house tableau of Chemin de Fer by its name
    (`baccara.skill.tableaux.House`), french by default; ``help`` says what the command
    does with it."""
    return click.option(
        "--house",
        type=click.Choice([h.value for h in House]),
        default=House.FRENCH.value,
        show_default=True,
        help=help,
    )


def shoe_options(command: F) -> F:
    """The ``--cut-card`` and ``--no-burn`` options: how each shoe is dealt."""
    command = click.option(
        "--no-burn", is_flag=True, help="Do not burn cards at the start of a shoe."
    )(command)
    return click.option(
        "--cut-card",
        type=click.IntRange(min=0),
        default=14,
        show_default=True,
        help="Cards behind the cut card.",
    )(command)


def echo_json(data: Any) -> None:
    """Print one JSON document on one line."""
    click.echo(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
