"""One server per SQLite file (db/serve_lock.py), and the terminal game beside a server.

The mistake of issue 23 (finding 11): a second ``baccara serve`` on the file of a running
one, even on the same port (it fails to bind only after its start-up has run each
table's recovery, which voided the first one's open round). It must be refused before
it touches the database; the lock dies with its holder.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from tests.support.harness import Child, Player, ServerProcess

from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig


class ServeCommand:
    """Starts ``baccara serve`` itself (a `tests.support.harness.Launcher`)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None

    def launch(self, argv: list[str], env: dict[str, str], log: Path) -> Child:
        config = json.loads(argv[0])
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [*_serve(config["database_url"], argv[1]), "--bet-seconds", "2"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        return self.proc


def _serve(db: str, port: str | int) -> list[str]:
    return [sys.executable, "-m", "baccara", "serve", "--db", db, "--port", str(port),
            "--tables", "t1=punto-banco", "--card-seconds", "0", "--result-seconds", "0"]  # fmt: skip


def _config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'one.db'}",
        tables=("t1=punto-banco",),
        bet_seconds=1.0,
        card_seconds=0.02,
        result_seconds=0.1,
    )


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    """The second start is one line, exit status 2, naming the file and the first's pid;
    the first serves on and settles the round that was open; once the first is killed,
    a new one starts."""
    database = tmp_path / "one.db"
    command = ServeCommand()
    first = ServerProcess(_config(tmp_path), log=tmp_path / "first.log", launcher=command)
    first.start()
    try:

        async def scenario() -> tuple[subprocess.CompletedProcess[str], dict[str, Any], int]:
            ann = Player(first)
            await ann.register()
            await ann.join("t1")
            opened = await ann.expect(lambda m: m["type"] == "round_open")
            ack = await ann.bet("banker", 1_000, round=opened["round"])
            assert ack["type"] == "bet_ack"
            second = await asyncio.to_thread(  # the mistake: the same file and port
                subprocess.run, _serve(str(database), first.port), capture_output=True, text=True
            )
            paid = await ann.expect(lambda m: m["type"] == "payout")
            await ann.close()
            return second, paid, opened["round"]

        second, paid, round_id = asyncio.run(asyncio.wait_for(scenario(), 90))
        assert second.returncode == 2
        assert second.stdout == ""
        assert second.stderr.count("\n") == 1, second.stderr
        assert second.stderr.startswith("baccara: error: the SQLite database ")
        assert str(database) in second.stderr
        assert command.proc is not None
        assert f"`baccara serve` (pid {command.proc.pid})" in second.stderr
        assert "Traceback" not in second.stderr
        assert paid["round"] == round_id  # the open round was settled, not voided
        assert httpx.get(f"{first.url}/api/health").status_code == 200
    finally:
        first.kill()  # SIGKILL: the lock dies with it
    with ServerProcess(_config(tmp_path), log=tmp_path / "third.log", launcher=ServeCommand()):
        pass  # started: /api/health answered
    book = Ledger.connect(f"sqlite:///{database}")
    try:
        assert book.round(round_id)["phase"] == "settled"
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def test_the_terminal_game_beside_a_server_is_safe(tmp_path: Path) -> None:
    """``baccara play`` on the file of a running server: its own tables (sessions,
    events, hands) and accounts (its players' wallets and seats), every write in
    SQLite's one write transaction at a time; both play and the books balance."""
    config = _config(tmp_path)
    with ServerProcess(config, log=tmp_path / "server.log") as server:

        async def scenario() -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
            bob = Player(server)
            await bob.register()
            await bob.join("t1")
            payouts = []
            game = asyncio.create_task(asyncio.to_thread(_terminal_game, tmp_path / "one.db"))
            while not game.done() or len(payouts) < 2:
                opened = await bob.expect(lambda m: m["type"] == "round_open")
                ack = await bob.bet("player", 1_000, round=opened["round"])
                if ack["type"] == "bet_ack":  # (not "betting_closed": sent as it closed)
                    payouts.append(await bob.expect(lambda m: m["type"] == "payout"))
            await bob.close()
            return await game, payouts

        played, payouts = asyncio.run(asyncio.wait_for(scenario(), 120))
        assert played.returncode == 0, played.stderr
        assert "Coup 5 of shoe 1" in played.stdout and "Saved session 1" in played.stdout
        assert all(p["staked"] == 1_000 for p in payouts)
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def _terminal_game(database: Path) -> subprocess.CompletedProcess[str]:
    """Five coups of the terminal game with a bet each, two bots betting too."""
    script = "b 100\ndeal\n" * 5 + "q\n"
    return subprocess.run(
        [sys.executable, "-m", "baccara", "play", "--seed", "1", "--bots", "2", "--db",
         str(database)],
        input=script, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
