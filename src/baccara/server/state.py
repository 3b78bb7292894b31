"""What the running server holds (`ServerState`: its configuration, ledger, accounts,
tables, session watch, limits and threads). The routes ask it of a request through
their dependencies (`baccara.server.http.depends`: the player, the client's address,
whether a post is same-site JSON)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import ClassVar, ParamSpec, Protocol, TypeVar

from fastapi import Request

from baccara.db.auth import Auth
from baccara.db.ledger import Ledger
from baccara.server.cluster.hall import Hall
from baccara.server.infra.clock import Clock
from baccara.server.infra.config import ServerConfig
from baccara.server.infra.edge import Proxies
from baccara.server.infra.metrics import Metrics
from baccara.server.infra.pool import BoundedPool
from baccara.server.infra.revocation import SessionWatch
from baccara.server.infra.throttle import LoginThrottle, RateLimiter

__all__ = ["SESSION_COOKIE", "Blocking", "ServerState"]

_T = TypeVar("_T")
_P = ParamSpec("_P")


class Blocking(Protocol):
    """Runs a blocking call (the database's) on the worker threads: `ServerState.run`,
    as the routes are given it."""

    def __call__(
        self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> Awaitable[_T]: ...


SESSION_COOKIE = "baccara_session"
"""The name of the session's cookie (HttpOnly, SameSite=Strict)."""


@dataclass(slots=True)
class ServerState:
    """What the running app holds."""

    config: ServerConfig
    ledger: Ledger
    auth: Auth
    executor: ThreadPoolExecutor
    hall: Hall
    clock: Clock
    """The server's time (`baccara.server.infra.clock`)."""
    watch: SessionWatch
    """The open sockets, closed when their session ends (`baccara.server.infra.revocation`)."""
    bet_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=10, burst=30))
    message_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=30, burst=60))
    """Every message a player sends (pings, peels, seeds...), bets included."""
    login_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=1, burst=20))
    """Logins and registrations per client address."""
    login_throttle: LoginThrottle = field(
        default_factory=lambda: LoginThrottle(per_pair=5, per_name=60)
    )
    """Failed logins per name and address, and per name (`baccara.server.infra.throttle`)."""
    proxies: Proxies = field(default_factory=lambda: Proxies(()))
    hashing: BoundedPool = field(default_factory=lambda: BoundedPool(workers=2, queue=32))
    """argon2 on its own threads, with a bounded queue (`baccara.server.infra.pool`)."""
    join_limiter: RateLimiter = field(default_factory=lambda: RateLimiter(rate=1, burst=10))
    metrics: Metrics = field(default_factory=Metrics)
    """The server's figures (`baccara.server.infra.metrics`), the tables' too."""
    cookie_name: ClassVar[str] = SESSION_COOKIE
    sockets: dict[str, int] = field(default_factory=dict)
    """Each player's open WebSockets (at most `ServerConfig.sockets_per_player`)."""

    async def run(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a blocking call on the worker threads."""
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, partial(fn, *args, **kwargs)
        )

    def client_address(self, request: Request) -> str:
        """The client's address (the trusted proxies' X-Forwarded-For read)."""
        peer = request.client.host if request.client else "?"
        return self.proxies.client(peer, request.headers.get("x-forwarded-for"))
