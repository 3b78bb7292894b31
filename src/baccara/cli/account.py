"""``baccara account``: the house's hand on a player's account: a suspension, and its end.

A suspended player cannot log in; every session they had ends at once, and every socket
they hold, in every server process on the database, closes within a second. Each is
written to the audit log (actor ``cli``) with the suspension before and after; a staff
account is refused (it is no player).
"""

from __future__ import annotations

import time

import click

from baccara.cli.common import echo_json, fail
from baccara.cli.db import db_option, upgraded_database

__all__ = ["COMMANDS"]


@click.group("account")
def account_group() -> None:
    """The house's hand on a player's account: suspend it, or lift the suspension."""


@account_group.command("suspend")
@click.argument("name")
@click.option(
    "--days",
    type=click.FloatRange(min=0, min_open=True, max=36_500),
    default=None,
    help="How long [default: until lifted with `baccara account reinstate`].",
)
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def suspend_command(name: str, days: float | None, db: str | None, as_json: bool) -> None:
    """Suspend player NAME: no login, every session and socket ended now."""
    until = time.time() + (
        days * 86_400 if days is not None else 36_500 * 86_400
    )  # the CLI's clock
    _suspend(name, until, db, as_json)


@account_group.command("reinstate")
@click.argument("name")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def reinstate_command(name: str, db: str | None, as_json: bool) -> None:
    """Lift player NAME's suspension (they log in again)."""
    _suspend(name, None, db, as_json)


def _suspend(name: str, until: float | None, db: str | None, as_json: bool) -> None:
    from baccara.db.protections import SuspendError, suspend

    try:
        with upgraded_database(db) as database:  # audited as the machine's own command line
            user = suspend(database, name, until, now=time.time(), actor="cli")
    except SuspendError as error:
        fail(str(error))
    if as_json:
        echo_json({"player": name, "id": user, "suspended_until": until})
    elif until is None:
        click.echo(f"{name}: the suspension is lifted")
    else:
        click.echo(
            f"{name}: suspended until {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(until))}; every session ended"
        )


COMMANDS = [account_group]
