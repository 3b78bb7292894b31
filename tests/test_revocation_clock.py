"""The revocation watch on the clock it is given (issues 23 and 24), in process: a
revocation whose signal it hears closes the sockets it names at once; one written where
no signal reaches it (another process on a SQLite file, the command line) at the next
look, every `SessionWatch.seconds`; a session that expires closes at the next full
look, every `SessionWatch.full_seconds`. The signals themselves, and a revocation
missed while PostgreSQL's listener was away: tests/test_signals.py; across real
processes on PostgreSQL: tests/test_money_gate.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support.clock import InlineExecutor, SimulatedClock, settle

from baccara.db.auth import SESSION_SECONDS, Auth, User
from baccara.db.betting import BetError
from baccara.db.gate import SessionEnds
from baccara.db.ledger import Ledger
from baccara.db.protections import Protections, suspend
from baccara.db.schema import web_sessions
from baccara.db.signals import LocalSignals
from baccara.server.infra.revocation import SessionWatch


class Sockets:
    """Sockets of players, and why each was closed."""

    def __init__(self, watch: SessionWatch) -> None:
        self.watch = watch
        self.closed: dict[str, str] = {}

    def open(self, name: str, user: User) -> None:
        async def close(why: BetError) -> None:
            self.closed[name] = why.code

        self.watch.add(user, close)


def test_revocations_close_the_sockets_they_name_at_the_next_look(tmp_path: Path) -> None:
    async def test() -> None:
        clock = SimulatedClock()
        ledger = Ledger.connect(f"sqlite:///{tmp_path / 'r.db'}")
        auth = Auth(ledger, now=clock.now)
        for name in ("ann", "bob", "cyd"):
            auth.register(name, f"{name} password")
        tokens = {
            "ann": auth.login("ann", "ann password"),
            "bob_phone": auth.login("bob", "bob password"),
            "bob_laptop": auth.login("bob", "bob password"),
            "cyd": auth.login("cyd", "cyd password"),
            "ann_2": auth.login("ann", "ann password"),
        }
        users = {key: auth.user_for_token(token) for key, token in tokens.items()}
        watch = SessionWatch(
            SessionEnds(ledger.database), seconds=0.5, clock=clock, executor=InlineExecutor()
        )
        sockets = Sockets(watch)
        for key, user in users.items():
            assert user is not None
            sockets.open(key, user)
        await watch.start()
        try:
            ann = users["ann"]
            assert ann is not None
            Protections(ledger.database).exclude(ann.id, clock.now() + 86_400)  # elsewhere
            await clock.advance(0.4)
            assert sockets.closed == {}  # not looked yet
            await clock.advance(0.1)
            assert sockets.closed == {"ann": "self_excluded", "ann_2": "self_excluded"}

            auth.logout(tokens["bob_phone"])  # one device of bob's
            await clock.advance(0.5)
            assert sockets.closed.get("bob_phone") == "session_ended"
            assert "bob_laptop" not in sockets.closed  # his other device stays

            # the house, from the command line
            suspend(ledger.database, "cyd", clock.now() + 3_600, now=clock.now())
            await clock.advance(0.5)
            assert sockets.closed["cyd"] == "suspended"
            assert set(sockets.closed) == {"ann", "ann_2", "bob_phone", "cyd"}
            assert watch.sockets and {w.user.name for w in watch.sockets} == {"bob"}

            clock.time += SESSION_SECONDS  # a week on: bob's laptop session has expired
            await clock.advance(0.5)  # more than a minute since every socket was looked at
            assert sockets.closed["bob_laptop"] == "session_ended"
            assert watch.sockets == set()
        finally:
            await watch.stop()
            ledger.database.dispose()

    asyncio.run(test())


def test_a_revocation_heard_closes_the_sockets_it_names_at_once(tmp_path: Path) -> None:
    """With the signals of its database, the watch reads a revocation made in this
    process as it commits: the clock does not move."""

    async def test() -> None:
        clock = SimulatedClock()
        ledger = Ledger.connect(f"sqlite:///{tmp_path / 'r.db'}")
        auth = Auth(ledger, now=clock.now)
        users = {}
        for name in ("ann", "bob"):
            auth.register(name, f"{name} password")
            users[name] = auth.user_for_token(auth.login(name, f"{name} password"))
        signals = LocalSignals(ledger.database)
        watch = SessionWatch(
            SessionEnds(ledger.database),
            signals=signals,
            seconds=0.5,
            clock=clock,
            executor=InlineExecutor(),
        )
        sockets = Sockets(watch)
        for name, user in users.items():
            assert user is not None
            sockets.open(name, user)
        await signals.start()
        await watch.start()
        try:
            ann = users["ann"]
            assert ann is not None
            Protections(ledger.database).exclude(ann.id, clock.now() + 86_400, now=clock.now())
            await settle()
            assert sockets.closed == {"ann": "self_excluded"}
        finally:
            await watch.stop()
            await signals.stop()
            ledger.database.dispose()

    asyncio.run(test())


def test_a_session_gone_without_a_revocation_closes_at_the_next_full_look(tmp_path: Path) -> None:
    """A session gone without a revocation naming it (expired, or removed by hand) is
    found by the look at every socket, once a minute: not before, not later."""

    async def test() -> None:
        clock = SimulatedClock()
        ledger = Ledger.connect(f"sqlite:///{tmp_path / 'r.db'}")
        auth = Auth(ledger, now=clock.now)
        auth.register("ann", "ann password")
        token = auth.login("ann", "ann password")
        user = auth.user_for_token(token)
        assert user is not None
        watch = SessionWatch(
            SessionEnds(ledger.database),
            seconds=0.5,
            full_seconds=60,
            clock=clock,
            executor=InlineExecutor(),
        )
        sockets = Sockets(watch)
        sockets.open("ann", user)
        await watch.start()
        try:
            await clock.advance(10)
            with ledger.database.begin() as conn:
                conn.execute(web_sessions.delete())  # no revocation names it
            await clock.advance(49.4)
            assert sockets.closed == {}
            await clock.advance(0.6)  # a minute since the watch started
            assert sockets.closed == {"ann": "session_ended"}
        finally:
            await watch.stop()
            ledger.database.dispose()

    asyncio.run(test())


def test_the_server_stops_at_once_after_a_logout(tmp_path: Path) -> None:
    """A logout pokes the watch; the server's stop then cancels it. The watch waited in
    ``wait_for``, which can lose a cancellation that comes as its event is set: the stop
    hung for a minute (found by a helper, reproduced on d9c7b8a). The clock's ``wait``
    keeps it (`asyncio.timeout`)."""
    import json

    import httpx

    from baccara.server.app import ServerConfig, create_app

    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'h.db'}", tables=("t1=punto-banco",))
    app = create_app(config)
    json_body = {"Content-Type": "application/json"}

    async def main() -> None:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://baccara") as web:
                account = {"name": "leaver", "password": "leaver password"}
                registered = await web.post(
                    "/api/register", content=json.dumps(account), headers=json_body
                )
                assert registered.status_code == 200, registered.text
                left = await web.post("/api/logout", content="{}", headers=json_body)
                assert left.status_code == 200, left.text

    asyncio.run(asyncio.wait_for(main(), 20))  # the old watch held the stop for 60 s
