"""A house table whose start-up recovery fails, and `baccara db repair` (db/repair.py).

The broken state is the one two servers on one SQLite file left (issue 23, finding 11),
reproduced with live processes: server A deals table t1; a second ``baccara serve``
started by mistake on the same file (on A's port: it failed to bind, after its start-up)
ran t1's recovery while A's round 5 was open, and voided it. A did not know: it closed
round 5 (a no-op), dealt its coup from the shoe, found the round already finished, and
settled round 6 with the shoe's sixth coup, at coup index 6. Every start since replays
the shoe's settled coups in order, deals the fifth coup where the store has the sixth,
and fails: "table t1: recovery failed; the table stays closed".

`break_table` builds that state directly in the database, with the ledger's own calls
in the order the two processes made them (a live race depends on the second server's
start-up landing inside the first one's betting window); A is then killed while round
7 is open (one more unfinished round for the repair). Each test runs on SQLite and on
PostgreSQL (the ``database_url`` fixture).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from tests.support.harness import Player
from tests.support.inprocess import ServerThread

from baccara.cli import main
from baccara.coup import Coup, deal_shoe
from baccara.db.ledger import Ledger, bets, rounds, wallet_account
from baccara.db.schema import online_shoes, transactions
from baccara.db.shoes import ShoeBook
from baccara.fair import FairShoe, verify
from baccara.server.app import ServerConfig
from baccara.shoe import ShoeSettings
from baccara.skill import records
from baccara.variants import PUNTO_BANCO, find_variant

DEPOSIT = 100_000
SHOE = ShoeSettings(decks=1)  # the servers below deal one deck (`_config`)
FAILED = "table t1: recovery failed"


@dataclass(frozen=True, slots=True)
class Broken:
    """What `break_table` made: the rounds' ids by number, the voided coup's notation."""

    round_ids: dict[int, int]
    shoe_id: int
    dealt_but_voided: str  # the fifth coup: A dealt it, B's start had voided its round
    coups: list[str]  # the shoe's coups in order


def break_table(url: str) -> Broken:
    """Table t1 as the race left it (see the module)."""
    ledger = Ledger.connect(url)
    try:
        players = {name: ledger.create_account(wallet_account(name)) for name in ("ann", "bob")}
        for name, account in players.items():
            ledger.deposit(account, DEPOSIT, ref=f"welcome:{name}")
        book = ShoeBook(ledger, "t1")
        # a seeded shoe: a random one-deck shoe can end before the seventh coup
        fair = FairShoe.new(PUNTO_BANCO, SHOE, source=lambda n: bytes(range(7, 7 + n)))
        shoe_id = book.add(fair)
        coups = [coup.notation() for coup in deal_shoe(fair.shoe())]  # A seals the shoe
        assert len(coups) >= 7, coups
        book.update(shoe_id, fair)
        ids: dict[int, int] = {}

        def open_with_bets(number: int) -> int:
            ids[number] = ledger.open_round(
                table="t1", number=number, shoe_id=shoe_id, coup_index=number
            )
            ledger.place_bet(
                account=players["ann"], round_id=ids[number], bet_id=f"a{number}",
                kind="banker", amount=1_000 * number,
            )  # fmt: skip
            ledger.place_bet(
                account=players["bob"], round_id=ids[number], bet_id=f"b{number}",
                kind="player", amount=500,
            )  # fmt: skip
            return ids[number]

        def play(number: int) -> None:
            open_with_bets(number)
            ledger.close_round(ids[number])
            settled = ledger.settle_round(ids[number], Coup.parse(coups[number - 1]), "punto-banco")
            assert settled

        for number in range(1, 5):  # A plays rounds 1-4
            play(number)
        open_with_bets(5)  # A's round 5 is open when the second server starts...
        assert ledger.void_round(ids[5])  # ...whose start-up recovery voids it
        ledger.close_round(ids[5])  # A: no more bets (the round is voided: a no-op)
        # A deals the fifth coup; its settlement finds the round finished (False)
        assert not ledger.settle_round(ids[5], Coup.parse(coups[4]), "punto-banco")
        play(6)  # A settles round 6 with the sixth coup, at coup index 6
        open_with_bets(7)  # A is killed while round 7 is open
        assert ledger.check_invariants() == []
        return Broken(round_ids=ids, shoe_id=shoe_id, dealt_but_voided=coups[4], coups=coups)
    finally:
        ledger.database.dispose()


def _config(url: str) -> ServerConfig:
    return ServerConfig(
        database_url=url,
        tables=("t1=punto-banco",),
        decks=SHOE.decks,
        bet_seconds=1.0,
        card_seconds=0.02,
        result_seconds=0.1,
        share_seconds=0.0,
    )


def _wait_for_line(log: Path, text: str, timeout: float = 60.0) -> str:
    """The first line of ``log`` holding ``text``, once the server has written it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if text in line:
                return line
        time.sleep(0.1)
    raise AssertionError(f"no {text!r} in {log} after {timeout} s")


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_race_leaves_a_table_whose_recovery_fails(database_url: str, tmp_path: Path) -> None:
    """A start on the state the race left: the recovery fails, and says what repairs it."""
    broken = break_table(database_url)
    log = tmp_path / "server.log"
    with ServerThread(_config(database_url), log=log) as server:
        line = _wait_for_line(log, FAILED)
        view = httpx.get(f"{server.url}/api/tables/t1").json()
    assert "run `baccara db repair t1`" in line
    assert view["phase"] == "closed"
    text = log.read_text()
    assert f"replays {broken.dealt_but_voided}, the store has {broken.coups[5]}" in text


def test_repair_voids_refunds_retires_the_shoe_and_the_table_plays_again(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = break_table(database_url)
    # the table's server still runs (its recovery failed): the repair waits for its stop
    with ServerThread(_config(database_url), log=tmp_path / "failed.log"):
        _wait_for_line(tmp_path / "failed.log", FAILED)
        code, out, err = _cli(["db", "repair", "t1", "--db", database_url], capsys)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and "stop it" in err and "Traceback" not in err

    code, out, err = _cli(["db", "repair", "t1", "--db", database_url, "--json"], capsys)
    assert (code, err) == (0, "")
    done = json.loads(out)
    assert done["table"] == "t1" and done["changed"] is True
    assert [(r["round"], r["bets"], r["refunded"]) for r in done["voided"]] == [(7, 2, 7_000 + 500)]
    (shoe,) = done["shoes"]
    assert shoe["shoe"] == broken.shoe_id
    assert shoe["coups"] == 6 and shoe["verified"] is True
    assert shoe["dealt_in_voided_rounds"] == [5]

    ledger = Ledger.connect(database_url)
    try:
        assert ledger.check_invariants() == []
        assert ledger.unfinished_rounds("t1") == []
        with ledger.database.connect() as conn:
            for number in (5, 7):  # each bet of a voided round refunded, once
                round_id = broken.round_ids[number]
                placed = conn.execute(sa.select(bets).where(bets.c.round_id == round_id)).all()
                assert len(placed) == 2
                assert all(b.status == "refunded" and b.returned == b.amount for b in placed)
                memo = f"refund void:{round_id}"
                count = sa.select(sa.func.count()).where(transactions.c.memo == memo)
                assert conn.execute(count).scalar() == 1
            row = conn.execute(
                sa.select(online_shoes).where(online_shoes.c.id == broken.shoe_id)
            ).one()
            assert row.finished and row.sealed
            voided = conn.execute(sa.select(rounds).where(rounds.c.id == broken.round_ids[5]))
            assert voided.one().coup == broken.dealt_but_voided  # dealt: in the record
        (record,) = ShoeBook(ledger, "t1").records()  # the seed revealed
        assert record["coups"] == broken.coups[:6]
        checked = verify(record)  # whole as far as it went, and saying why it stopped
        assert checked.ok and "retired after coup 6" in checked.notes[0], checked
        for name in ("ann", "bob"):  # each wallet: the deposit, less stakes, plus returns
            account = ledger.create_account(wallet_account(name))
            with ledger.database.connect() as conn:
                staked, returned = conn.execute(
                    sa.select(sa.func.sum(bets.c.amount), sa.func.sum(bets.c.returned)).where(
                        bets.c.account_id == account
                    )
                ).one()
            assert ledger.balance(account) == DEPOSIT - staked + returned
        before = ledger.balances([ledger.house])
    finally:
        ledger.database.dispose()

    code, out, err = _cli(["db", "repair", "t1", "--db", database_url], capsys)  # again
    assert (code, err) == (0, "")
    assert out.strip() == "table t1: nothing to repair (no unfinished round, no shoe in play)"

    log = tmp_path / "server.log"
    with ServerThread(_config(database_url), log=log) as server:
        paid = asyncio.run(asyncio.wait_for(_play_one_round(server), 90))
    assert FAILED not in log.read_text()
    assert paid["returned"] in (0, 1_000, 2_000)  # a 10.00 Player bet: lost, a tie, won
    ledger = Ledger.connect(database_url)
    try:
        assert ledger.check_invariants() == []
        house = ledger.balances([ledger.house])[ledger.house]
        assert house == before[ledger.house] + 1_000 - paid["returned"]
    finally:
        ledger.database.dispose()


async def _play_one_round(server: ServerThread) -> dict[str, Any]:
    """A new player bets 10.00 on Player at t1; the payout."""
    player = Player(server)
    await player.register()
    await player.join("t1")
    opened = await player.expect(lambda m: m["type"] == "round_open")
    ack = await player.bet("player", 1_000, round=opened["round"])
    assert ack["type"] == "bet_ack"
    paid = await player.expect(lambda m: m["type"] == "payout")
    await player.close()
    return paid


def test_repair_refuses_an_unknown_table_and_a_players_table(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = Ledger.connect(database_url)
    try:
        chemin = ShoeBook(ledger, "c")
        chemin.add(records.new_game_shoe(find_variant("chemin-de-fer"), ShoeSettings()))
    finally:
        ledger.database.dispose()
    for table, words in (("zz", "unknown table 'zz'"), ("c", "Chemin de Fer")):
        code, out, err = _cli(["db", "repair", table, "--db", database_url], capsys)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and words in err and "Traceback" not in err
