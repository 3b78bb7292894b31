"""``baccara serve`` (the online table) and ``baccara verify`` (a provably fair shoe)."""

from __future__ import annotations

import json

import click

from baccara.cli.common import HOUSE_GAMES, echo_json, fail, money_option
from baccara.fair import FairError
from baccara.skill.replay import verify
from baccara.variants import find_variant

__all__ = ["COMMANDS"]


def check_tables(tables: tuple[str, ...]) -> None:
    """Stop in one line, at start-up, on a ``[id=]variant[:squeeze]`` spec the web table
    cannot open: an unknown game, or a squeeze at a players' game.

    The web table plays every game: the house-banked ones, Chemin de Fer and Baccarat
    Banque.

    >>> check_tables(("punto-banco", "c=chemin-de-fer", "b=banque", "s=ez:squeeze"))
    """
    for spec in tables:
        base, _, option = spec.partition(":")
        try:
            variant = find_variant(base.partition("=")[2] or base)
        except ValueError as error:
            fail(f"bad table {spec!r}: {error}")
        if option not in ("", "squeeze"):
            fail(f"bad table {spec!r}: unknown option {option!r} (only ':squeeze')")
        if option and variant.family not in HOUSE_GAMES:
            fail(
                f"bad table {spec!r}: {variant.family.label} is a players' game, dealt face "
                "down to its punter and banker, not squeezed"
            )


@click.command("verify")
@click.argument("record_file", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def verify_command(record_file: str, as_json: bool) -> None:
    """Check a revealed shoe record (JSON): seed, rules and every coup, to the shoe's end.

    A players' game's record (version 3) is played again on its engine with every
    action, and each coup, amount and the shoe's end checked against the replay. Exit
    status 0 when everything matches, 1 when it does not, 2 on bad input.
    """
    try:
        with click.open_file(record_file, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        fail(f"cannot read {record_file}: {error.strerror or error}")
    except json.JSONDecodeError as error:
        fail(f"bad record {record_file}: not JSON ({error.msg} at line {error.lineno})")
    try:
        result = verify(data)
    except FairError as error:
        fail(str(error))
    if as_json:
        echo_json(result.to_json())
    elif result.ok and result.decisions_checked is not None:
        click.echo(
            f"OK: seed hash, rules hash and {result.coups_checked} {result.family} "
            f"coup{_s(result.coups_checked)} match, with their {result.decisions_checked} "
            f"decision{_s(result.decisions_checked)}, to the shoe's end"
        )
    elif result.ok:
        click.echo(
            f"OK: seed hash, rules hash and {result.coups_checked} coup"
            f"{_s(result.coups_checked)} match, the whole shoe"
        )
    else:
        click.echo(f"MISMATCH: {len(result.problems)} problem(s)")
        for problem in result.problems:
            click.echo(f"  {problem}")
    if not as_json:
        for note in result.notes:
            click.echo(f"  note: {note}")
    if not result.ok:
        raise click.exceptions.Exit(1)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    default=None,
    help="Database URL or SQLite file [default: $BACCARA_DB, else SQLite in the user data "
    "folder]; postgresql://... works too.",
)
@click.option(
    "--tables",
    default="punto-banco,punto-banco,super6,ez",
    show_default=True,
    help="Comma-separated tables, [id=]variant[:squeeze]: the table list stored on the "
    "database's first start (afterwards the stored list, which the operator changes).",
)
@click.option("--squeeze", is_flag=True, help="Deal the first cards face down to be squeezed.")
@click.option("--squeeze-seconds", default=8.0, show_default=True, type=click.FloatRange(0, 60))
@click.option("--bet-seconds", default=15.0, show_default=True, type=click.FloatRange(0.2, 600))
@click.option("--card-seconds", default=0.7, show_default=True, type=click.FloatRange(0, 10))
@click.option("--result-seconds", default=4.0, show_default=True, type=click.FloatRange(0, 60))
@click.option(
    "--allow-origin", "origins", multiple=True, metavar="URL", help="Another allowed Origin."
)
@click.option("--bets-per-second", default=10.0, show_default=True, type=click.FloatRange(0.1))
@click.option(
    "--secure-cookies",
    is_flag=True,
    help="Mark the session cookie Secure (sent over https only): behind a TLS proxy.",
)
@click.option(
    "--trusted-proxy",
    "proxies",
    multiple=True,
    metavar="IP",
    help="A reverse proxy (address or network) whose X-Forwarded-For names the client "
    "[default: none: the header is ignored].",
)
@click.option(
    "--bots",
    default=0,
    show_default=True,
    type=click.IntRange(0, 11),
    help="At a players' table (Chemin de Fer, Banque): seats filled by bots playing the "
    "solver's equilibrium.",
)
@click.option(
    "--decision-seconds",
    default=20.0,
    show_default=True,
    type=click.FloatRange(1, 600),
    help="At a players' table: each decision's clock (then the house's rule).",
)
@click.option(
    "--behind",
    default=1000,
    show_default=True,
    type=click.IntRange(0, 100_000),
    help="At a house table: how many players may bet behind the seats once they are "
    "taken (Player, Banker and Tie only).",
)
@money_option(
    "--welcome",
    "1000.00",
    "Play money each new player's wallet is given; 0 on a real-money server, where money "
    "comes in only through the cashier (docs/operator.md).",
    positive=False,
)
@click.option(
    "--metrics-dir",
    metavar="DIR",
    default=None,
    help="The folder where this machine's server processes keep their figures for "
    "/metrics (give each process the same one) [default: a fresh folder of the process's "
    "own, removed at its exit].",
)
@click.option(
    "--metrics-token-file",
    metavar="FILE",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="A file whose first line is a token (16 characters or more) that reads /metrics "
    "from anywhere as 'Authorization: Bearer TOKEN' [default: the loopback only].",
)
def serve_command(
    host: str,
    port: int,
    db_url: str | None,
    tables: str,
    bet_seconds: float,
    card_seconds: float,
    result_seconds: float,
    origins: tuple[str, ...],
    bets_per_second: float,
    secure_cookies: bool,
    proxies: tuple[str, ...],
    squeeze: bool,
    squeeze_seconds: float,
    bots: int,
    decision_seconds: float,
    behind: int,
    welcome: int,
    metrics_dir: str | None,
    metrics_token_file: str | None,
) -> None:
    """Run the online table: the web page, the lobby and the WebSocket API.

    It plays every game: the house-banked ones (Punto Banco and its forms) and the
    players' games, Chemin de Fer and Baccarat Banque (``--tables
    c=chemin-de-fer,b=banque``), where people hold the bank. Several processes on one
    PostgreSQL share the tables: start each with the same ``--tables``; a SQLite file
    takes one server (a second one is refused, naming the first one's pid).
    """
    table_specs = tuple(t.strip() for t in tables.split(",") if t.strip())
    check_tables(table_specs)
    token = None if metrics_token_file is None else read_token(metrics_token_file)
    try:
        import uvicorn

        from baccara.db.database import resolve_url
        from baccara.db.serve_lock import DatabaseBusy, hold
        from baccara.server.app import ServerConfig, create_app
        from baccara.server.infra.edge import uvicorn_options
        from baccara.server.infra.metrics import fresh_folder
    except ImportError as error:  # pragma: no cover - the web extra is missing
        fail(f"the server needs the web extra: pip install 'baccara[web]' ({error})")
    database_url = resolve_url(db_url)
    try:  # one server per SQLite file, before anything touches it (held until the exit)
        lock = hold(database_url, "baccara serve")
    except DatabaseBusy as error:
        fail(str(error))
    config = ServerConfig(
        database_url=database_url,
        tables=table_specs,
        bet_seconds=bet_seconds,
        card_seconds=card_seconds,
        result_seconds=result_seconds,
        allowed_origins=origins,
        bets_per_second=bets_per_second,
        trusted_proxies=proxies,
        secure_cookies=secure_cookies,
        bet_burst=max(30.0, 3 * bets_per_second),
        squeeze=squeeze,
        squeeze_seconds=squeeze_seconds,
        bots=bots,
        decision_seconds=decision_seconds,
        behind=behind,
        welcome=welcome,
        metrics_dir=metrics_dir or fresh_folder(),  # this machine's processes' figures
        metrics_token=token,
    )
    try:
        app = create_app(config)
    except ValueError as error:
        fail(str(error))
    click.echo(f"baccara: the table is at http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    # The tests' and the benchmark's harness run the same settings.
    uvicorn.run(app, host=host, port=port, log_level="warning", **uvicorn_options(config))
    if lock is not None:
        lock.release()


def read_token(path: str) -> str:
    """The metrics token: the first line of the file at ``path``, 16 characters or more
    (Prometheus reads the same file: ``authorization: credentials_file``)."""
    try:
        with open(path, encoding="utf-8") as handle:
            token = handle.readline().strip()
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read the metrics token from {path}: {error}")
    if len(token) < 16 or not token.isprintable() or " " in token:
        fail(f"the metrics token in {path} must be one word of 16 characters or more")
    return token


def _s(count: int) -> str:
    return "" if count == 1 else "s"


COMMANDS = (serve_command, verify_command)
