"""The ``baccara`` command line: a thin layer over the library.

Every command has ``--help``; every data command has ``--json``. Bad input gives
one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys

import click

from baccara.cli.common import main_group

__all__ = ["cli", "main"]


@click.group(cls=main_group(), context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "--version", package_name="baccara", prog_name="baccara")
def cli() -> None:
    """Baccarat in full: deal, explain, play, and compute the odds."""


def _register() -> None:
    # Each front end lives in its own module and adds its commands here.
    from baccara.cli import account, admin, db, game, odds, play, roads, serve, simulate, solve

    for module in (game, serve, roads, solve, play, odds, simulate, db, account, admin):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    from baccara.cli.common import run

    return run(cli, sys.argv[1:] if argv is None else argv)
