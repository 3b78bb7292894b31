"""The one signal path between processes (`baccara.db.signals`), on SQLite (in the
process) and on PostgreSQL (LISTEN/NOTIFY, each `Signals` on its own listening
connection, as two processes are): a signal sent in a transaction is heard once if the
transaction commits and never if it rolls back; topics reach everybody, an inbox its
process only, long payloads whole; a listener whose connection is lost gets back, and
what it missed meanwhile is read from the database (the session watch's look)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.support.clock import InlineExecutor, SimulatedClock

from baccara.db.auth import Auth
from baccara.db.betting import BetError
from baccara.db.database import database_at, writing
from baccara.db.gate import SessionEnds
from baccara.db.ledger import Ledger
from baccara.db.protections import Protections
from baccara.db.signals import PostgresSignals, Signals, Topic, open_signals, signal
from baccara.server.infra.revocation import SessionWatch

DEADLINE = 20.0
"""How long a test waits for a signal before it fails (a deadline, not a pause)."""


class Heard:
    """The payloads a handler was called with, in order."""

    def __init__(self) -> None:
        self.payloads: list[str] = []
        self.changed = asyncio.Event()

    def __call__(self, payload: str) -> None:
        self.payloads.append(payload)
        self.changed.set()

    async def until(self, payload: str) -> list[str]:
        """Wait until ``payload`` is heard; everything heard by then."""
        async with asyncio.timeout(DEADLINE):
            while payload not in self.payloads:
                self.changed.clear()
                await self.changed.wait()
        return list(self.payloads)


@asynccontextmanager
async def started(*all_signals: Signals) -> AsyncIterator[None]:
    for signals in all_signals:
        await signals.start()
    try:
        yield
    finally:
        for signals in all_signals:
            await signals.stop()


def _signals(database: sa.Engine) -> Signals:
    found = open_signals(database)
    if isinstance(found, PostgresSignals):
        found.retry_seconds = 0.05  # a lost connection is opened again at once
    return found


def test_a_signal_in_a_transaction_is_heard_once_if_it_commits_never_if_it_rolls_back(
    database_url: str,
) -> None:
    """Notifications of transactions are heard in the order the transactions commit, so
    once the commit after the roll-back is heard, the roll-back's would have been."""
    database = database_at(database_url)

    def commit(payload: str, *, roll_back: bool = False) -> None:
        try:
            with writing(database) as conn:
                signal(conn, Topic.REVOCATIONS, payload)
                if roll_back:
                    raise LookupError("the transaction fails")
        except LookupError:
            pass

    async def scenario() -> tuple[list[str], list[str]]:
        one, two = _signals(database), _signals(database)  # two listeners (two processes)
        heard_one, heard_two = Heard(), Heard()
        one.on(Topic.REVOCATIONS, heard_one)
        two.on(Topic.REVOCATIONS, heard_two)
        one.on(Topic.CONTROL, heard_one)  # another topic hears none of them
        async with started(one, two):
            commit("rolled back", roll_back=True)
            commit("first")
            await heard_one.until("first")
            commit("second")
            await heard_two.until("second")
            return await heard_one.until("second"), heard_two.payloads

    try:
        assert asyncio.run(scenario()) == (["first", "second"], ["first", "second"])
    finally:
        database.dispose()


def test_a_signal_outside_a_writing_transaction_is_refused_on_sqlite(tmp_path: Path) -> None:
    """On SQLite a signal is handed on after `writing`'s commit: elsewhere it could not
    be, and says so rather than go unheard."""
    database = database_at(f"sqlite:///{tmp_path / 's.db'}")
    with database.begin() as conn, pytest.raises(ValueError, match="writing"):
        signal(conn, Topic.REVOCATIONS, "7")
    database.dispose()


def test_topics_reach_every_process_an_inbox_its_own_long_payloads_whole(
    database_url: str,
) -> None:
    database = database_at(database_url)
    long = secrets.token_hex(30_000)  # 60 kB that do not compress: sent in parts
    odd = "~&not an encoded payload"

    async def scenario() -> dict[str, list[str]]:
        one, two = _signals(database), _signals(database)
        heard = {name: Heard() for name in ("one", "two", "one_inbox", "two_inbox")}
        one.on(Topic.CLUSTER, heard["one"])
        two.on(Topic.CLUSTER, heard["two"])
        one.on_inbox(heard["one_inbox"])
        two.on_inbox(heard["two_inbox"])
        async with started(one, two):
            for payload in ("a", long, odd, "last"):
                one.publish(Topic.CLUSTER, payload)  # the sender hears its own too
            one.send(two.process, "for two")
            one.send(one.process, "for one")
            await heard["two"].until("last")  # (queued: sent soon; the next goes at once)
            with writing(database) as conn:
                signal(conn, Topic.CLUSTER, long + "!")  # in parts, in a transaction
            for name in ("one", "two"):
                await heard[name].until(long + "!")
            await heard["two_inbox"].until("for two")
            await heard["one_inbox"].until("for one")
            return {name: h.payloads for name, h in heard.items()}

    try:
        got = asyncio.run(scenario())
    finally:
        database.dispose()
    assert got["one"] == got["two"] == ["a", long, odd, "last", long + "!"]
    assert (got["one_inbox"], got["two_inbox"]) == (["for one"], ["for two"])


def _kill_listener(database: sa.Engine, signals: PostgresSignals) -> None:
    """End the listening session, as a network or database failure would."""
    with database.connect() as conn:
        ended = conn.execute(
            sa.text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = :name"
            ),
            {"name": signals.application_name},
        ).scalars()
        assert list(ended) == [True]


def _postgres_only(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("a listening connection is PostgreSQL's; SQLite signals in the process")


def test_a_listener_whose_connection_is_lost_gets_back_missing_what_was_sent_meanwhile(
    database_url: str,
) -> None:
    """The hooks are told when the connection is lost and when it is back; a signal
    committed in between is missed (the other listener hears it), and the next is heard."""
    _postgres_only(database_url)
    database = database_at(database_url)

    def commit(payload: str) -> None:
        with writing(database) as conn:
            signal(conn, Topic.CONTROL, payload)

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        one, two = _signals(database), _signals(database)
        assert isinstance(one, PostgresSignals)
        heard_one, heard_two, gaps = Heard(), Heard(), Heard()
        one.on(Topic.CONTROL, heard_one)
        two.on(Topic.CONTROL, heard_two)

        def lost() -> None:
            gaps("lost")
            commit("while away")  # committed with nobody listening for ``one``

        one.on_gap(lost=lost, back=lambda: gaps("back"))
        async with started(one, two):
            commit("before")
            await heard_one.until("before")
            _kill_listener(database, one)
            await gaps.until("back")
            commit("after")
            await heard_two.until("after")
            return await heard_one.until("after"), heard_two.payloads, gaps.payloads

    try:
        one, two, gaps = asyncio.run(scenario())
    finally:
        database.dispose()
    assert one == ["before", "after"]
    assert two == ["before", "while away", "after"]
    assert gaps == ["lost", "back"]


def test_a_revocation_missed_while_the_listener_was_away_is_read_once_it_is_back(
    database_url: str,
) -> None:
    """The session watch on a clock that never moves (so no periodic look): a revocation
    signal makes it read the revocations at once; one committed while its listening
    connection was lost is never heard, and the watch reads it when the connection is
    back."""
    _postgres_only(database_url)
    ledger = Ledger.connect(database_url)
    clock = SimulatedClock()  # never moved: the watch looks only when woken
    auth = Auth(ledger, now=clock.now)
    for name in ("ann", "bob"):
        auth.register(name, f"{name} password")
    users = {n: auth.user_for_token(auth.login(n, f"{n} password")) for n in ("ann", "bob")}
    protections = Protections(ledger.database)

    async def scenario() -> tuple[dict[str, str], list[str]]:
        signals = _signals(ledger.database)
        assert isinstance(signals, PostgresSignals)
        watch = SessionWatch(
            SessionEnds(ledger.database), signals=signals, clock=clock, executor=InlineExecutor()
        )
        closed: dict[str, str] = {}
        shut = Heard()

        def closer(name: str) -> Callable[[BetError], Awaitable[None]]:
            async def close(why: BetError) -> None:
                closed[name] = why.code
                shut(name)

            return close

        for name, user in users.items():
            assert user is not None
            watch.add(user, closer(name))
        revocations = Heard()
        signals.on(Topic.REVOCATIONS, revocations)

        def lost() -> None:  # bob excludes himself while nobody listens here
            bob = users["bob"]
            assert bob is not None
            protections.exclude(bob.id, clock.now() + 86_400, now=clock.now())

        signals.on_gap(lost=lost)
        async with started(signals):
            await watch.start()
            try:
                ann = users["ann"]
                assert ann is not None
                protections.exclude(ann.id, clock.now() + 86_400, now=clock.now())
                await shut.until("ann")  # at once: the signal woke the watch
                _kill_listener(ledger.database, signals)
                await shut.until("bob")  # when the listener is back
            finally:
                await watch.stop()
        return closed, revocations.payloads

    try:
        closed, revocations = asyncio.run(scenario())
    finally:
        ledger.database.dispose()
    assert closed == {"ann": "self_excluded", "bob": "self_excluded"}
    ann = users["ann"]
    assert ann is not None
    assert revocations == [str(ann.id)]  # bob's signal was never heard
