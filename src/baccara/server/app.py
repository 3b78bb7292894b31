"""The online table's web application: pages, the JSON API and the WebSocket.

`create_app` builds a FastAPI app for a `ServerConfig`; ``baccara serve`` runs it under
uvicorn. On PostgreSQL several processes share the tables (`baccara.server.hall`): each
table is run by the process holding its advisory lock, and a player connected to any
process plays at any table.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from baccara.db.auth import Auth, AuthError, Excluded, User, good_password
from baccara.db.drills import DrillRecords
from baccara.db.ledger import Ledger
from baccara.db.limits import PlayLimits
from baccara.db.records import PlayerRecords
from baccara.server import views
from baccara.server.clock import Clock, RealClock
from baccara.server.cluster import Moving
from baccara.server.dispatch import moving
from baccara.server.edge import BodyLimit, Proxies, SecurityHeaders, cross_site, problem, reply
from baccara.server.hall import Hall, TableSpec
from baccara.server.http_models import Done, Edges, Health, ProtocolSchema, ShoeRecord, TableView
from baccara.server.learn import learn_router
from baccara.server.me import me_router
from baccara.server.pool import BoundedPool, Busy
from baccara.server.protocol import Account, Credentials, PasswordChange, TableSummary, schema
from baccara.server.revocation import SessionWatch
from baccara.server.services import Fault, TableServices, no_fault
from baccara.server.throttle import LoginThrottle, RateLimiter
from baccara.server.writer import BetBatcher
from baccara.server.ws import serve_socket
from baccara.variants import find_variant

__all__ = ["ServerConfig", "ServerState", "create_app"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("baccara.server")
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerConfig:
    """How to run the server. ``tables``: variants, or ``id=variant`` pairs, each with an
    optional ``:squeeze`` (the first cards dealt face down and squeezed); ``squeeze``
    makes every table a squeeze table."""

    database_url: str
    tables: tuple[str, ...] = ("punto-banco", "punto-banco", "super6", "ez")
    bet_seconds: float = 15.0
    card_seconds: float = 0.7
    result_seconds: float = 4.0
    welcome: int = 100_000
    allowed_origins: tuple[str, ...] = ()
    bets_per_second: float = 10.0
    bet_burst: float = 30.0
    logins_per_minute: float = 20.0
    failed_logins_per_minute: float = 5.0  # per account name and client address
    failed_logins_per_name_per_minute: float = 60.0  # per name, every address (`throttle`)
    trusted_proxies: tuple[str, ...] = ()  # whose X-Forwarded-For is read (IPs or networks)
    joins_per_second: float = 1.0  # each player's joins (each sends a snapshot)
    join_burst: float = 10.0
    secure_cookies: bool = False
    workers: int = 8
    writers: int = 0  # the database writer's threads (0: one; PostgreSQL takes more)
    hash_workers: int = 2  # argon2 threads (registrations, logins), apart from the database's
    hash_queue: int = 32  # registrations and logins waiting for them; beyond: 503 Retry-After
    decks: int | None = None
    squeeze: bool = False
    squeeze_seconds: float = 8.0
    decision_seconds: float = 20.0  # a players' game: each decision's clock
    seed_seconds: float = 8.0  # a players' game: the seated players' seeds before a shoe
    bots: int = 0  # a players' game: seats filled by bots of the solver's equilibrium
    bot_seconds: float = 1.0
    idle_seconds: float = 300.0  # a WebSocket that sends no message is closed after this
    ws_ping_seconds: float = 20.0  # the protocol's pings; unanswered for as long: closed
    ws_send_seconds: float = 30.0  # a WebSocket whose writes (or close) are stuck this long: reset
    header_seconds: float = 10.0  # an HTTP request's headers must all come within this
    header_bytes: int = 64 * 1024  # an HTTP request's line and headers, at most (431 past it)
    seat_grace_seconds: float = 60.0  # a house-banked seat, its player gone and no bet on it
    sockets_per_player: int = 8  # WebSockets one account may hold at once (tabs, devices)
    behind: int = 1000  # a house table: players betting behind its seats (main bets only)
    takeover_seconds: float = 1.0  # PostgreSQL: how often the tables nobody runs are tried
    share_seconds: float = 1.2  # PostgreSQL: a starting process hears the others this long
    # before it takes its share of the tables (0: at once, for a process alone)
    dead_seconds: float = 5.0  # PostgreSQL: a process not heard for this long is gone
    revoke_seconds: float = 0.5  # how often the sockets' sessions are checked (revocation)


@dataclass(slots=True)
class ServerState:
    """What the running app holds."""

    config: ServerConfig
    ledger: Ledger
    auth: Auth
    executor: ThreadPoolExecutor
    hall: Hall
    watch: SessionWatch
    """The open sockets, closed when their session ends (`baccara.server.revocation`)."""
    bet_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=10, burst=30))
    message_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=30, burst=60))
    """Every message a player sends (pings, peels, seeds...), bets included."""
    login_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=1, burst=20))
    """Logins and registrations per client address."""
    login_throttle: LoginThrottle = field(
        default_factory=lambda: LoginThrottle(per_pair=5, per_name=60)
    )
    """Failed logins per name and address, and per name (`baccara.server.throttle`)."""
    proxies: Proxies = field(default_factory=lambda: Proxies(()))
    hashing: BoundedPool = field(default_factory=lambda: BoundedPool(workers=2, queue=32))
    """argon2 on its own threads, with a bounded queue (`baccara.server.pool`)."""
    join_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=1, burst=10))
    cookie_name: str = "baccara_session"
    sockets: dict[str, int] = field(default_factory=dict)
    """Each player's open WebSockets (at most `ServerConfig.sockets_per_player`)."""

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a blocking call on the worker threads."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))


def _table_specs(specs: tuple[str, ...], squeeze: bool = False) -> list[TableSpec]:
    """``[id=]variant[:squeeze]`` specs as `TableSpec` values; a bad one raises.

    >>> _table_specs(("punto-banco", "b1=ez:squeeze"))
    [TableSpec(id='t1', variant='punto-banco', squeeze=False), TableSpec(id='b1', variant='ez', squeeze=True)]
    >>> _table_specs(("b2=pai-gow",))
    Traceback (most recent call last):
    ...
    baccara.variants.VariantError: unknown variant 'pai-gow': choose from punto-banco, tie-9, commission-4, super6, ez, mini, chemin-de-fer, banque
    >>> _table_specs(("c=chemmy",))
    [TableSpec(id='c', variant='chemmy', squeeze=False)]
    >>> _table_specs(("b=banque:squeeze",))
    Traceback (most recent call last):
    ...
    ValueError: bad table 'b=banque:squeeze': Baccarat Banque is not squeezed
    """
    out = []
    for number, spec in enumerate(specs, start=1):
        base, _, option = spec.partition(":")
        if option not in ("", "squeeze"):
            raise ValueError(f"bad table option {option!r} in {spec!r}: only ':squeeze'")
        name, _, variant = base.partition("=")
        table_id, variant = (name, variant) if variant else (f"t{number}", name)
        found = find_variant(variant)  # refused here, in one line, not at start-up
        if option and not found.house_banked:
            raise ValueError(f"bad table {spec!r}: {found.family.label} is not squeezed")
        out.append(TableSpec(table_id, variant, squeeze or option == "squeeze"))
    return out


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip.

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("identity"), accepts_gzip("gzip;q=0")
    (True, False, False)
    """
    for item in header.lower().split(","):
        name, _, params = item.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            quality = params.strip().removeprefix("q=")
            return not (params and quality.replace("0", "").strip(".") == "")
    return False


def create_app(
    config: ServerConfig, *, fault: Fault = no_fault, clock: Clock | None = None
) -> FastAPI:
    """The web application for ``config``; ``fault`` is called at the runner's and the
    ledger's named points (the crash tests' hook; nothing by default); the tables,
    sessions and revocations read the time from ``clock`` (the system's by default)."""
    clock = RealClock() if clock is None else clock
    ledger = Ledger.connect(config.database_url)
    executor = ThreadPoolExecutor(max_workers=config.workers, thread_name_prefix="baccara-db")
    # Bets are group-committed (one commit for many bets) by one writer thread that
    # also does the other writes, bets first.
    writers = config.writers or 1  # one: more measured slower, on both databases
    batcher = BetBatcher(ledger, writers=writers)
    bet_limiter = RateLimiter(rate=config.bets_per_second, burst=config.bet_burst)
    hall = Hall(
        config,
        _table_specs(config.tables, config.squeeze),
        services=TableServices(
            ledger=ledger, executor=executor, batcher=batcher, clock=clock, fault=fault
        ),
        bets=bet_limiter,
    )
    state = ServerState(
        config=config,
        ledger=ledger,
        auth=Auth(ledger, welcome=config.welcome, now=clock.now),
        executor=executor,
        hall=hall,
        bet_limiter=bet_limiter,
        login_limiter=RateLimiter(
            rate=config.logins_per_minute / 60, burst=config.logins_per_minute
        ),
        join_limiter=RateLimiter(rate=config.joins_per_second, burst=config.join_burst),
        login_throttle=LoginThrottle(
            per_pair=config.failed_logins_per_minute,
            per_name=config.failed_logins_per_name_per_minute,
        ),
        proxies=Proxies(config.trusted_proxies),
        hashing=BoundedPool(workers=config.hash_workers, queue=config.hash_queue),
        watch=SessionWatch(
            ledger.engine, seconds=config.revoke_seconds, clock=clock, executor=executor
        ),
    )
    watch = state.watch

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        batcher.start()
        await watch.start()
        await hall.start()
        # Everything loaded so far lives as long as the server: keep it out of the
        # collector's full passes, which otherwise stop every thread for 0.1-0.2 s.
        gc.collect()
        gc.freeze()
        # Fewer, larger young collections, and rare full ones: a full collection of a
        # thousand connections' objects stops every thread for 50-60 ms.
        gc.set_threshold(20_000, 20, 400)
        try:
            yield
        finally:
            await watch.stop()
            await hall.stop()
            batcher.stop()
            executor.shutdown(wait=False, cancel_futures=True)
            state.hashing.shutdown()
            ledger.engine.dispose()

    app = FastAPI(title="baccara", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.baccara = state
    app.add_middleware(BodyLimit)  # inside: its 413 gets the security headers too
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    async def current_user(request: Request) -> User | None:
        return await state.run(state.auth.user_for_token, request.cookies.get(state.cookie_name))

    def busy(error: Busy) -> JSONResponse:
        return problem(
            503,
            "busy",
            f"too many players are logging in: try again in {error.retry_after} s",
            headers={"Retry-After": str(error.retry_after)},
        )

    def client_address(request: Request) -> str:
        peer = request.client.host if request.client else "?"
        return state.proxies.client(peer, request.headers.get("x-forwarded-for"))

    def same_site_json(request: Request) -> JSONResponse | None:
        """A refusal for an account post that is not JSON, or comes from another site."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":  # no form or text/plain posts from other sites
            return problem(415, "bad_request", "send the request as application/json")
        why = cross_site(request.headers, config.allowed_origins)
        if why is not None:  # nor JSON from a page of another site (login CSRF)
            return problem(403, "bad_origin", f"refused: {why}")
        return None

    app.include_router(
        learn_router(
            STATIC,
            records=DrillRecords(ledger.engine),
            user=current_user,
            guard=same_site_json,
            run=state.run,
        )
    )

    async def session_started(request: Request) -> float | None:
        return await state.run(state.auth.session_started, request.cookies.get(state.cookie_name))

    app.include_router(
        me_router(
            PlayerRecords(ledger.engine),
            PlayLimits(ledger.engine),
            user=current_user,
            started=session_started,
            guard=same_site_json,
            run=state.run,
            revoked=watch.poke,
        )
    )

    async def credentials(request: Request) -> Credentials | JSONResponse:
        if not state.login_limiter.allow(client_address(request)):
            return problem(429, "rate_limited", "too many attempts: wait a minute")
        refused = same_site_json(request)
        if refused is not None:
            return refused
        try:
            return Credentials.model_validate_json(await request.body())
        except ValidationError:
            return problem(400, "bad_request", "expected a JSON body {name, password} of strings")

    def account(user: User, balance: int, token: str | None = None) -> JSONResponse:
        response = reply(Account(name=user.name, balance=balance))
        return response if token is None else with_cookie(response, token)

    def with_cookie(response: JSONResponse, token: str) -> JSONResponse:
        response.set_cookie(
            state.cookie_name,
            token,
            httponly=True,
            samesite="strict",
            secure=config.secure_cookies,
            max_age=7 * 24 * 3600,
            path="/",
        )
        return response

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health", response_model=Health)
    async def health() -> JSONResponse:
        """Alive; the tables this process runs (and its name in the cluster)."""
        cluster = hall.cluster
        process = None if cluster is None else cluster.process
        return reply(Health(ok=True, tables=hall.owned(), process=process))

    @app.post("/api/register", response_model=Account)
    async def register(request: Request) -> JSONResponse:
        got = await credentials(request)
        if isinstance(got, JSONResponse):
            return got
        try:  # the password hashed on the bounded pool; the session needs no second hash
            user = await state.hashing.run(state.auth.register, got.name, got.password)
        except AuthError as error:
            return problem(400, "bad_registration", str(error))
        except Busy as error:
            return busy(error)
        state.login_throttle.remember(user.name, client_address(request))
        token = await state.run(state.auth.start_session, user.id)
        return account(user, await state.run(ledger.balance, user.account), token)

    @app.post("/api/login", response_model=Account)
    async def login(request: Request) -> JSONResponse:
        got = await credentials(request)
        if isinstance(got, JSONResponse):
            return got
        attempt = state.login_throttle.attempt(got.name, client_address(request))
        if attempt.refused is not None:
            return problem(429, "rate_limited", attempt.refused)
        try:
            token = await state.hashing.run(state.auth.login, got.name, got.password)
        except Excluded as error:
            attempt.succeeded()  # the password was right
            return problem(403, error.code, str(error))
        except AuthError as error:
            attempt.failed()
            return problem(401, "bad_login", str(error))
        except Busy as error:
            attempt.not_tried()
            return busy(error)
        attempt.succeeded()  # only failures count
        user = await state.run(state.auth.user_for_token, token)
        assert user is not None
        return account(user, await state.run(ledger.balance, user.account), token)

    @app.post("/api/logout", response_model=Done)
    async def logout(request: Request) -> JSONResponse:
        refused = same_site_json(request)
        if refused is not None:
            return refused
        token = request.cookies.get(state.cookie_name)
        if token:
            await state.run(state.auth.logout, token)
            watch.poke()  # this session's sockets close at once
        response = reply(Done(ok=True))
        response.delete_cookie(
            state.cookie_name,
            path="/",
            secure=config.secure_cookies,
            httponly=True,
            samesite="strict",
        )
        return response

    @app.post("/api/me/password", response_model=Done)
    async def change_password(request: Request) -> JSONResponse:
        """A new password (the old one checked): every other session ends, this one goes on."""
        refused = same_site_json(request)
        if refused is not None:
            return refused
        user = await current_user(request)
        if user is None:
            return problem(401, "not_logged_in", "log in first")
        try:
            asked = PasswordChange.model_validate_json(await request.body())
        except ValidationError:
            return problem(400, "bad_request", "expected a JSON body {old, new} of strings")
        if not good_password(asked.new):
            return problem(400, "bad_password", "bad password: 8 to 128 characters")
        attempt = state.login_throttle.attempt(user.name, client_address(request))
        if attempt.refused is not None:
            return problem(429, "rate_limited", attempt.refused)
        try:
            await state.hashing.run(state.auth.change_password, user, asked.old, asked.new)
        except AuthError as error:
            attempt.failed()
            return problem(400, "bad_password", str(error))
        except Busy as error:
            attempt.not_tried()
            return busy(error)
        attempt.succeeded()
        watch.poke()  # the other sessions' sockets close at once
        return reply(Done(ok=True))

    @app.get("/api/me", response_model=Account)
    async def me(request: Request) -> JSONResponse:
        user = await current_user(request)
        if user is None:
            return problem(401, "not_logged_in", "log in first")
        return account(user, await state.run(ledger.balance, user.account))

    lobby_body = views.Lobby(hall.lobby, seconds=1.0)

    @app.get("/api/tables", response_model=list[TableSummary])
    async def lobby(request: Request) -> Response:
        """The lobby, built at most once a second (`views.Lobby`), gzipped if asked."""
        zipped = accepts_gzip(request.headers.get("accept-encoding", ""))
        headers = {"Vary": "Accept-Encoding"} | ({"Content-Encoding": "gzip"} if zipped else {})
        body = lobby_body.body(gzipped=zipped)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/api/protocol", response_model=ProtocolSchema)
    async def protocol() -> JSONResponse:
        """The JSON Schema of every WebSocket message, both ways."""
        return JSONResponse(schema())

    def unknown(table_id: str) -> JSONResponse:
        return problem(404, "unknown_table", f"unknown table {table_id!r}")

    def table_moving(table_id: str) -> JSONResponse:
        error = moving(table_id)
        return problem(503, error.code, error.message, headers={"Retry-After": "2"})

    @app.get("/api/tables/{table_id}", response_model=TableView)
    async def table_view(table_id: str, request: Request) -> Response:
        runner = hall.runner(table_id)
        if runner is not None:
            found = await runner.state(await current_user(request))
            return reply(found)
        if not hall.remote(table_id):
            return unknown(table_id)
        try:  # a table another process runs
            text = (await hall.ask(table_id, "view"))[0]
        except (Moving, IndexError):
            return table_moving(table_id)
        return Response(text, media_type="application/json")

    @app.get(
        "/api/tables/{table_id}/roads.svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
    )
    async def roads_svg(table_id: str) -> Response:
        svg = hall.roads_svg(table_id)
        if svg is None:
            return unknown(table_id)
        return Response(svg, media_type="image/svg+xml")

    @app.get("/api/tables/{table_id}/shoes", response_model=list[ShoeRecord])
    async def shoes(table_id: str) -> JSONResponse:
        if (
            hall.runner(table_id) is None
            and table_id not in hall.specs
            and not hall.remote(table_id)
        ):
            return unknown(table_id)
        try:
            return JSONResponse(await hall.shoe_records(table_id))
        except Moving:
            return table_moving(table_id)

    @app.get("/api/tables/{table_id}/edges", response_model=Edges)
    async def edges(table_id: str) -> JSONResponse:
        """Each bet's exact house edge for the cards this shoe has not yet shown."""
        if hall.runner(table_id) is None and not hall.remote(table_id):
            return unknown(table_id)
        try:
            return JSONResponse(await hall.edges(table_id))
        except Moving:
            return table_moving(table_id)

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, state)

    return app
