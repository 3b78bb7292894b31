"""The players' games online, killed at decision points: the server restarts at that decision.

Both games (Chemin de Fer and Baccarat Banque) run on one runner (`server/tables/players.py`);
each is killed here with its own script.

Points (``BACCARA_CRASH_AT``): ``decided`` (inside a decision's transaction: the
decision and its money are not stored), ``after_decision`` (stored, not yet shown to
anybody). The ``BACCARA_CRASH_AFTER``-th decision of a cycle dies, so the cycles land
on different kinds of decision (the bank, a stake or a banco, a punter or a banker
choosing, keeping or passing the bank; at Banque a bid, the auction's close, a stake on
a tableau). After each restart the players reconnect to
the same shoe at its next decision; no money appears or disappears at any point, and
the shoe played to its end verifies, decisions before and after the crash included.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.support.harness import Player, ServerProcess
from tests.support.scripts import play

from baccara.db.books import HOUSE
from baccara.db.chips import Chips
from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig
from baccara.skill.replay import verify

WELCOME = 100_000
NAMES = ("kc_ann", "kc_bob", "kc_cy")
CYCLES = [("decided", 3), ("after_decision", 5), ("decided", 8), ("after_decision", 11)]


def _money(url: str) -> tuple[int, list[str]]:
    book = Ledger.connect(url)
    try:
        wallets = sum(book.balance(book.create_account(wallet_account(n))) for n in NAMES)
        stacks = Chips(book, "c1").stacks(NAMES)
        house = book.balance(book.create_account(HOUSE))
        return wallets + sum(stacks.values()) + house, book.check_invariants()
    finally:
        book.database.dispose()


@pytest.mark.parametrize(("game", "kind"), [("chemin-de-fer", "chemin"), ("banque", "banque")])
def test_killed_at_decisions_the_shoe_resumes_with_nothing_lost(
    tmp_path: Path, full_size: bool, game: str, kind: str
) -> None:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'players.db'}",
        tables=(f"c1={game}",),
        decks=1,
        welcome=WELCOME,
        decision_seconds=2.0,
        seed_seconds=0.6,
        result_seconds=0.02,
    )
    cycles = CYCLES if full_size else CYCLES[:2]
    process = ServerProcess(config, log=tmp_path / "server.log")
    players = {name: Player(process, name) for name in NAMES}
    commitment = None
    try:
        for number, (point, after) in enumerate(cycles):
            process.start(BACCARA_CRASH_AT=point, BACCARA_CRASH_AFTER=str(after))
            if number == 0:
                for player in players.values():
                    asyncio.run(player.register())
            first, _ = asyncio.run(
                asyncio.wait_for(play(players, kind, sit=number == 0, until_end=False), 120)
            )
            assert process.wait_exit(60) != 0, f"the server did not die at {point}"
            total, problems = _money(config.database_url)
            assert problems == [] and total == WELCOME * len(NAMES), (point, problems, total)
            if number > 0 and first is not None and first["fair"] is not None:
                # the same shoe, unless the decision that died was its last
                same = first["fair"]["server_seed_hash"] == commitment
                assert same or _finished(config.database_url, commitment)
            commitment = _last_commitment(config.database_url)
        process.start()
        first, record = asyncio.run(
            asyncio.wait_for(play(players, kind, sit=False, until_end=True), 180)
        )
        assert first is not None and first["fair"] is not None
        same = first["fair"]["server_seed_hash"] == commitment
        assert same or _finished(config.database_url, commitment)
        assert record is not None, "the shoe did not end"
        result = verify(record)
        assert result.ok, result.problems
        total, problems = _money(config.database_url)
        assert problems == [] and total == WELCOME * len(NAMES)
    finally:
        process.stop()


def _finished(url: str, commitment: str | None) -> bool:
    """Whether the shoe committed to as ``commitment`` was played to its end."""
    import sqlalchemy as sa

    from baccara.db.schema import online_shoes
    from baccara.fair import seed_hash

    book = Ledger.connect(url)
    try:
        with book.database.connect() as conn:
            rows = conn.execute(sa.select(online_shoes.c.server_seed, online_shoes.c.finished))
            found = [bool(done) for seed, done in rows if seed_hash(str(seed)) == commitment]
        return found == [True]
    finally:
        book.database.dispose()


def _last_commitment(url: str) -> str:
    import sqlalchemy as sa

    from baccara.db.schema import online_shoes
    from baccara.fair import seed_hash

    book = Ledger.connect(url)
    try:
        with book.database.connect() as conn:
            seed = conn.execute(
                sa.select(online_shoes.c.server_seed).order_by(online_shoes.c.id.desc())
            ).scalar()
        assert seed is not None
        return seed_hash(str(seed))
    finally:
        book.database.dispose()
