"""``baccara admin``: the staff who run the house, and the audit log of what they do.

``admin create NAME --role ROLE`` makes a staff account (operator, compliance or
auditor: no wallet, no play); its password is asked twice on the terminal, or read as
one line from stdin when stdin is not a terminal (``printf '%s\\n' "$PW" | baccara admin
create ...``). The creation is written to the audit log, by ``cli``. ``admin list``
shows the staff; ``admin disable``, ``admin enable`` and ``admin password`` stop a
member's sign-in (every session ended), restore it, and set a new password, each
audited; ``admin audit verify`` walks the audit log's chain of hashes and names
the first entry that does not hold (exit status 1), or counts the entries (0).
``admin alerts scan`` stores the markers of harm of whole UTC days (`baccara.db.alerts`:
yesterday by default; a scheduler runs it daily).
"""

from __future__ import annotations

import getpass
import json
import sys
import time
from typing import Any

import click

from baccara.cli.common import echo_json, fail
from baccara.cli.db import db_option, upgraded_database

__all__ = ["COMMANDS", "read_password"]

CLI_ACTOR = "cli"
"""Who the audit log says acted when the command line did."""


@click.group("admin")
def admin_group() -> None:
    """The staff (operator, compliance, auditor) and the audit log of their actions."""


def read_password() -> str:
    """The new password: asked twice on a terminal, else one line of stdin."""
    if not sys.stdin.isatty():
        line = sys.stdin.readline()
        if not line:
            fail("no password on stdin: give it as one line")
        return line.removesuffix("\n").removesuffix("\r")
    try:
        first = getpass.getpass("Password: ")
        again = getpass.getpass("Repeat the password: ")
    except EOFError:
        fail("no password given")
    if first != again:
        fail("the two passwords differ")
    return first


@admin_group.command("create")
@click.argument("name")
@click.option(
    "--role",
    required=True,
    metavar="ROLE",
    help="operator (tables, cashier), compliance (players, reports, alerts) or "
    "auditor (reads everything, changes nothing).",
)
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the account as JSON.")
def create_command(name: str, role: str, db: str | None, as_json: bool) -> None:
    """Create staff account NAME with ROLE (the password: asked, or one line of stdin)."""
    from baccara.db.auth import Auth, good_name
    from baccara.db.ledger import Ledger
    from baccara.db.staff import find_role

    chosen = find_role(role)  # bad input is refused before the password is asked
    if not good_name(name):
        fail("bad name: 3 to 24 characters, letters, digits, '_' or '-' only")
    password = read_password()
    with upgraded_database(db) as database:
        staff = Auth(Ledger(database), now=time.time).create_staff(
            name, password, chosen, actor=CLI_ACTOR
        )
    if as_json:
        echo_json({"name": staff.name, "role": staff.role.value, "id": staff.id})
    else:
        click.echo(f"{staff.name}: a staff account, role {staff.role.value}")


def _switch(name: str, disabled: bool, db: str | None, as_json: bool) -> None:
    from baccara.db.staff import StaffError, set_disabled

    try:
        with upgraded_database(db) as database:
            staff = set_disabled(
                database, name, disabled=disabled, actor=CLI_ACTOR, role=None, now=time.time()
            )
    except StaffError as error:
        fail(str(error))
    state = "disabled" if staff.disabled_at is not None else "enabled"
    if as_json:
        echo_json({"name": staff.name, "role": staff.role.value, "state": state})
    else:
        click.echo(f"{staff.name}: {state}" + (": every session ended" if disabled else ""))


@admin_group.command("disable")
@click.argument("name")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the account as JSON.")
def disable_command(name: str, db: str | None, as_json: bool) -> None:
    """Disable staff account NAME: no sign-in, every session ended (audited)."""
    _switch(name, True, db, as_json)


@admin_group.command("enable")
@click.argument("name")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the account as JSON.")
def enable_command(name: str, db: str | None, as_json: bool) -> None:
    """Let disabled staff account NAME sign in again (audited)."""
    _switch(name, False, db, as_json)


@admin_group.command("password")
@click.argument("name")
@db_option
def password_command(name: str, db: str | None) -> None:
    """Set staff account NAME's password (asked, or one line of stdin); every session
    of the account ends (audited, the password never)."""
    from baccara.db.auth import Auth, AuthError
    from baccara.db.ledger import Ledger

    password = read_password()
    try:
        with upgraded_database(db) as database:
            Auth(Ledger(database), now=time.time).set_staff_password(
                name, password, actor=CLI_ACTOR
            )
    except AuthError as error:
        fail(str(error))
    click.echo(f"{name}: a new password; every session ended")


@admin_group.command("list")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the staff as JSON.")
def list_command(db: str | None, as_json: bool) -> None:
    """List the staff accounts and their roles."""
    from baccara.db.staff import list_staff

    with upgraded_database(db) as database:
        staff = list_staff(database)
    if as_json:
        echo_json(
            [
                {
                    "name": s.name,
                    "role": s.role.value,
                    "created_at": s.created_at.isoformat(),
                    "disabled": s.disabled_at is not None,
                }
                for s in staff
            ]
        )
        return
    if not staff:
        click.echo("no staff accounts: create one with `baccara admin create NAME --role ROLE`")
    for one in staff:
        off = " (disabled)" if one.disabled_at is not None else ""
        click.echo(
            f"{one.name:24} {one.role.value:10} since {one.created_at:%Y-%m-%d %H:%M} UTC{off}"
        )


@admin_group.group("audit")
def audit_group() -> None:
    """The audit log of the staff's actions."""


@audit_group.command("verify")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def verify_command(db: str | None, as_json: bool) -> None:
    """Walk the audit log's chain of hashes: exit status 0 and the count when it holds,
    1 and the first broken entry when it does not."""
    from baccara.db.audit import verify

    with upgraded_database(db) as database:
        check = verify(database)
    if as_json:
        echo_json(
            {"whole": check.whole, "count": check.count, "broken": check.broken,
             "reason": check.reason}
        )  # fmt: skip
    elif check.whole:
        click.echo(f"the audit log holds: {check.count} entr{'y' if check.count == 1 else 'ies'}")
    else:
        click.echo(f"the audit log is broken at entry {check.broken}: {check.reason}")
    if not check.whole:
        raise click.exceptions.Exit(1)


@admin_group.group("alerts")
def alerts_group() -> None:
    """The markers of harm: scan a period for them."""


@alerts_group.command("scan")
@click.option(
    "--from", "start", default=None, help="The first day (2026-11-01) [default: yesterday, UTC]."
)
@click.option("--to", "end", default=None, help="The day after the last [default: today, UTC].")
@click.option(
    "--thresholds",
    type=click.File("r"),
    default=None,
    help="A JSON file of thresholds (baccara.db.alerts.Thresholds' fields) [default: the defaults].",
)
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the alerts raised as JSON.")
def scan_command(
    start: str | None, end: str | None, thresholds: Any, db: str | None, as_json: bool
) -> None:
    """Scan whole UTC days for the markers of harm and store the alerts they raise (an
    alert already stored is not raised again): run it daily, after midnight UTC."""
    from datetime import UTC, datetime

    from baccara.db.alerts import DAY, AlertError, Thresholds, scan

    now = time.time()
    today = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)

    def day(text: str | None, default: float, name: str) -> float:
        if text is None:
            return default
        try:
            found = datetime.fromisoformat(text)
        except ValueError:
            fail(f"bad --{name} {text!r}: a date (2026-11-01) or an ISO 8601 time")
        return (found if found.tzinfo else found.replace(tzinfo=UTC)).timestamp()

    first = day(start, today.timestamp() - DAY, "from")
    last = day(end, today.timestamp(), "to")
    try:
        limits = Thresholds.from_json(json.load(thresholds)) if thresholds else Thresholds()
    except ValueError as error:  # JSON's errors are ValueErrors too
        fail(str(error))
    try:
        with upgraded_database(db) as database:
            raised = scan(
                database, start=first, end=last, now=now, thresholds=limits,
                actor=CLI_ACTOR,
            )  # fmt: skip
    except AlertError as error:
        fail(str(error))
    if as_json:
        echo_json(
            [{"id": a.id, "marker": a.marker.value, "subject": a.subject, "day": a.day,
              "summary": a.summary} for a in raised]
        )  # fmt: skip
        return
    for alert in raised:
        click.echo(f"{alert.day} {alert.marker.value:24} {alert.summary}")
    click.echo(f"{len(raised)} alert{'' if len(raised) == 1 else 's'} raised")


COMMANDS = (admin_group,)
