"""The online table's web application: `create_app` wires the parts of the server
together for a `ServerConfig` (``baccara serve`` runs it under uvicorn).

The parts (docs/architecture.md): the routes (`baccara.server.http`: accounts, tables,
the player's own pages, Learn), the sockets (`baccara.server.realtime`), the state they
share (`baccara.server.state`), the tables this process serves and the cluster
(`baccara.server.cluster`), the tables themselves (`baccara.server.tables`), and below
them the infrastructure (`baccara.server.infra`: the clock, the writer, the edge, the
session watch) and the wire (`baccara.server.wire`). On PostgreSQL several processes
share the tables: each table is run by the process holding its advisory lock, and a
player connected to any process plays at any table.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from fastapi import FastAPI, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from baccara.db.auth import Auth
from baccara.db.cashier import Cashier
from baccara.db.drills import DrillScores
from baccara.db.gate import SessionEnds
from baccara.db.history import PlayerHistory
from baccara.db.ledger import Ledger
from baccara.db.protections import Protections
from baccara.db.signals import cancel_and_wait, open_signals
from baccara.server.cluster.hall import Hall, table_specs
from baccara.server.http.accounts import accounts_router
from baccara.server.http.admin import admin_router
from baccara.server.http.cashier import cashier_router
from baccara.server.http.depends import (
    StaffMember,
    document_bodies,
    refusal_handlers,
    staff_access,
)
from baccara.server.http.learn import learn_router
from baccara.server.http.me import me_router
from baccara.server.http.metrics import metrics_router
from baccara.server.http.people import people_router
from baccara.server.http.reports import reports_router
from baccara.server.http.tables import tables_router
from baccara.server.infra.clock import Clock, RealClock
from baccara.server.infra.config import ServerConfig
from baccara.server.infra.edge import BodyLimit, Proxies, SecurityHeaders, reply
from baccara.server.infra.metrics import Metrics
from baccara.server.infra.pool import BoundedPool
from baccara.server.infra.revocation import SessionWatch
from baccara.server.infra.services import Fault, TableServices, no_fault
from baccara.server.infra.throttle import LoginThrottle, RateLimiter
from baccara.server.infra.writer import BetBatcher
from baccara.server.realtime.sockets import serve_socket
from baccara.server.state import ServerState
from baccara.server.wire.admin import StaffAccess
from baccara.server.wire.http import Health

__all__ = ["ServerConfig", "ServerState", "create_app"]

STATIC = Path(__file__).parent / "static"
SAMPLE_SECONDS = 1.0  # how often the writer's queue is sampled for the figures
log = logging.getLogger("baccara.server")


def create_app(
    config: ServerConfig, *, fault: Fault = no_fault, clock: Clock | None = None
) -> FastAPI:
    """The web application for ``config``; ``fault`` is called at the runner's and the
    ledger's named points (the crash tests' hook; nothing by default); the tables,
    sessions and revocations read the time from ``clock`` (the system's by default)."""
    clock = RealClock() if clock is None else clock
    specs = table_specs(config.tables, config.squeeze)  # what may be refused, refused first
    proxies = Proxies(config.trusted_proxies)
    ledger = Ledger.connect(config.database_url)
    # Then the figures' folder, which the app's shutdown lets go (a process that stops
    # before has left nothing in it).
    metrics = Metrics(config.metrics_dir)  # in the machine's shared folder, if given
    ledger.retried = partial(metrics.db_retried, "ledger")
    executor = ThreadPoolExecutor(max_workers=config.workers, thread_name_prefix="baccara-db")
    # Bets are group-committed (one commit for many bets) by one writer thread that
    # also does the other writes, bets first.
    writers = config.writers or 1  # one: more measured slower, on both databases
    batcher = BetBatcher(ledger, writers=writers, metrics=metrics)
    bet_limiter = RateLimiter(rate=config.bets_per_second, burst=config.bet_burst)
    signals = open_signals(ledger.database)  # between processes: tables, revocations
    hall = Hall(
        config,
        specs,
        services=TableServices(
            ledger=ledger,
            executor=executor,
            batcher=batcher,
            clock=clock,
            fault=fault,
            metrics=metrics,
        ),
        signals=signals,
        bets=bet_limiter,
    )
    state = ServerState(
        config=config,
        ledger=ledger,
        auth=Auth(ledger, welcome=config.welcome, now=clock.now),
        executor=executor,
        hall=hall,
        clock=clock,
        bet_limiter=bet_limiter,
        message_limiter=RateLimiter(rate=config.messages_per_second, burst=config.message_burst),
        login_limiter=RateLimiter(
            rate=config.logins_per_minute / 60, burst=config.logins_per_minute
        ),
        join_limiter=RateLimiter(rate=config.joins_per_second, burst=config.join_burst),
        login_throttle=LoginThrottle(
            per_pair=config.failed_logins_per_minute,
            per_name=config.failed_logins_per_name_per_minute,
        ),
        proxies=proxies,
        hashing=BoundedPool(workers=config.hash_workers, queue=config.hash_queue),
        watch=SessionWatch(
            SessionEnds(ledger.database),
            signals=signals,
            seconds=config.revoke_seconds,
            clock=clock,
            executor=executor,
            failed=partial(metrics.db_failed, "session_watch", retried=True),
        ),
        metrics=metrics,
    )
    watch = state.watch

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        batcher.start()
        await signals.start()
        await watch.start()
        await hall.start()
        # Everything loaded so far lives as long as the server: keep it out of the
        # collector's full passes, which otherwise stop every thread for 0.1-0.2 s.
        gc.collect()
        gc.freeze()
        # Fewer, larger young collections, and rare full ones: a full collection of a
        # thousand connections' objects stops every thread for 50-60 ms.
        gc.set_threshold(20_000, 20, 400)
        sampler = asyncio.create_task(_sample(metrics, batcher, clock))
        try:
            yield
        finally:
            await cancel_and_wait(sampler)
            await watch.stop()
            await hall.stop()
            await signals.stop()
            batcher.stop()
            # the database work under way finishes first: a connection it holds goes back
            # to the pool before the pool is closed (else it stays open, left to the GC)
            executor.shutdown(wait=True, cancel_futures=True)
            state.hashing.shutdown()
            ledger.database.dispose()
            metrics.close()  # here: uvicorn ends the process with the signal it caught

    app = FastAPI(
        title="baccara",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        exception_handlers=refusal_handlers(),  # a `Refusal` raised anywhere is answered
    )
    app.state.baccara = state
    app.add_middleware(BodyLimit)  # inside: its 413 gets the security headers too
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # The routes check what they need by their dependencies (`baccara.server.http.depends`).
    routers = [
        learn_router(STATIC, scores=DrillScores(ledger.database), run=state.run),
        me_router(state, PlayerHistory(ledger.database), Protections(ledger.database)),
        accounts_router(state),
        tables_router(state),
        admin_router(state),
        metrics_router(state),
        people_router(state),
        reports_router(state),
        cashier_router(
            state, Cashier(ledger), PlayerHistory(ledger.database), Protections(ledger.database)
        ),
    ]
    for router in routers:
        app.include_router(document_bodies(router))
    access = staff_access(routers)

    @app.get("/api/admin/access")
    async def my_access(staff: StaffMember) -> StaffAccess:
        """Who is logged in to the console, and which of its routes their role may call
        (the pages show only the changes it may make)."""
        return StaffAccess(name=staff.name, role=staff.role, may=access[staff.role])

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/admin", include_in_schema=False)
    async def console() -> FileResponse:  # the operator's console: its sections ask the API
        return FileResponse(STATIC / "admin.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:  # what browsers ask for before reading a page
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/api/health", response_model=Health)
    async def health() -> JSONResponse:
        """Alive; the tables this process runs (and its name in the cluster)."""
        cluster = hall.cluster
        process = None if cluster is None else cluster.process
        return reply(Health(ok=True, tables=hall.owned(), process=process))

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, state)

    return app


async def _sample(metrics: Metrics, batcher: BetBatcher, clock: Clock) -> None:
    """The writer's queue in the figures, once a second (a scrape also reads it first):
    nothing is recorded on the bet path for it."""
    while True:
        metrics.writer_queue.set(batcher.waiting())
        await clock.sleep(SAMPLE_SECONDS)
