"""``baccara play``: the terminal game, humans and bots at one table."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click
from rich.console import Console

from baccara.cli.common import fail, house_option, seed_option, variant_option
from baccara.shoe import MAX_DECKS, ShoeSettings
from baccara.sim.strategies import BOT_STRATEGIES
from baccara.table.events import MAX_SEATS, TableSettings
from baccara.variants import Variant, find_variant

if TYPE_CHECKING:  # the store and the game load SQLAlchemy and the exact engine: on use
    from baccara.db.store import Store
    from baccara.tui.table import Game

__all__ = ["COMMANDS"]


def _reader(console: Console) -> Callable[[str], str | None]:
    """Read one line: with a prompt and line editing in a terminal, plainly from a script."""
    if sys.stdin.isatty():

        def read_tty(prompt: str) -> str | None:
            try:
                return console.input(prompt)
            except EOFError:
                console.print()
                return None

        return read_tty

    def read_script(prompt: str) -> str | None:
        line = sys.stdin.readline()
        if not line:
            return None
        console.print(f"{prompt}{line.rstrip()}", highlight=False, markup=False)
        return line

    return read_script


@click.command()
@variant_option()
@click.option(
    "--decks",
    type=click.IntRange(1, MAX_DECKS),
    default=None,
    help="Decks in the shoe [default: the variant's].",
)
@click.option(
    "--seats",
    type=click.IntRange(0, MAX_SEATS),
    default=1,
    show_default=True,
    help="Human players at this terminal.",
)
@click.option(
    "--bots",
    type=click.IntRange(0, MAX_SEATS),
    default=2,
    show_default=True,
    help="Bots at the table (" + ", ".join(BOT_STRATEGIES) + " in turn).",
)
@seed_option
@click.option(
    "--db",
    "db",
    metavar="PATH|URL",
    default=None,
    help="SQLite file or database URL for balances and history "
    "[default: $BACCARA_DB, else the user data folder].",
)
@click.option("--teach", is_flag=True, help="Explain every draw and stand, and every payout.")
@click.option("--new", "new", is_flag=True, help="Start a new table even if one can be resumed.")
@click.option(
    "--delay",
    type=click.FloatRange(0, 5),
    default=None,
    help="Seconds between two cards [default: 0.4 in a terminal, 0 in a script].",
)
@house_option(
    "Chemin de Fer only: the house tableau, french (banker free at 3-9, 4-1, 5-4, "
    "6-stood) or scarne (3-9, 5-4)."
)
def play(
    variant: Variant,
    decks: int | None,
    seats: int,
    bots: int,
    seed: int | None,
    db: str | None,
    teach: bool,
    new: bool,
    delay: float | None,
    house: str,
) -> None:
    """Play baccarat at a table with other humans and bots, one command a line.

    Every action is saved: quit with q, Ctrl-D or Ctrl-C and the next 'baccara
    play' (same --db) resumes the table with every balance as it was. Type help
    in the game for the commands.

    \b
    Example: baccara play --seats 2 --bots 3 --teach
    Scripted: printf 'b 100\\ndeal\\nq\\n' | baccara play --seed 1 --db game.db
    """
    if not variant.house_banked and seats + bots > variant.seats:
        fail(
            f"{seats} players and {bots} bots do not fit: a {variant.title} table has "
            f"{variant.seats} seats"
        )
    from baccara.cli.db import open_database
    from baccara.db.database import resolve_url
    from baccara.db.store import Store

    _, database = open_database(db)  # a bad --db is one line and exit status 2
    store = Store(resolve_url(db), database=database)
    if not variant.house_banked:  # the players' games have their own game loop
        from baccara.cli.skill_play import play_skill  # lazy: it loads the solver (scipy)

        if decks is not None:
            variant = variant.with_changes(decks=decks)
        try:
            play_skill(
                variant, store=store, seats=seats, bots=bots, seed=seed, teach=teach,
                tableau=house, new=new,
            )  # fmt: skip
        finally:
            store.close()
        return
    console = Console(highlight=False)
    if delay is None:
        delay = 0.4 if sys.stdout.isatty() and sys.stdin.isatty() else 0.0
    try:
        game = _open(store, console, variant, decks, seats, bots, seed, teach, delay, new)
        game.run(_reader(console))
    finally:
        store.close()


def _open(
    store: Store,
    console: Console,
    variant: Variant,
    decks: int | None,
    seats: int,
    bots: int,
    seed: int | None,
    teach: bool,
    delay: float,
    new: bool,
) -> Game:
    from baccara.table.engine import Table
    from baccara.tui.table import Game, start_table

    sessions = [  # the players' games keep their own sessions (`baccara.cli.skill_play`)
        s for s in store.list_sessions(open_only=True) if find_variant(s.variant).house_banked
    ]
    if sessions and not new:
        info = sessions[0]
        table = store.load_table(info.id)
        console.print(
            f"Resuming session {info.id} ({table.variant.title}, shoe {table.shoe_number}, "
            f"{len(table.coups)} coup{'' if len(table.coups) == 1 else 's'} dealt): every stack is as you left it. "
            "(--new starts another table.)",
            highlight=False,
        )
        return Game(
            table=table, store=store, session=info.id, console=console, teach=teach, delay=delay
        )
    for info in sessions:  # a new table: the old ones close, their chips back to the wallets
        old = store.load_table(info.id)
        if old.current is not None:
            old.settle()
        for state in old.seats:
            old.leave(state.number)
        store.save(info.id, old)
        store.close_session(info.id)
    if seats + bots > variant.seats:
        fail(
            f"{seats} players and {bots} bots do not fit: a {variant.title} table has {variant.seats} seats"
        )
    settings = TableSettings(
        seats=variant.seats, shoe=ShoeSettings(decks=decks if decks is not None else variant.decks)
    )
    table = Table(variant=variant, settings=settings, seed=seed)
    humans = [f"guest{i}" for i in range(1, seats + 1)]
    console.print(f"A new {variant.title} table. Type help for the commands.", highlight=False)
    return start_table(
        store, table, humans=humans, bots=bots, console=console, teach=teach, delay=delay
    )


COMMANDS = (play,)
