"""How to run the server (`ServerConfig`): its tables (the list a first start stores,
`baccara.db.table_list`) and every clock, limit and size of
the server, with their defaults; ``baccara serve``'s options set them."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ServerConfig"]


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
    messages_per_second: float = 30.0  # each player's messages of every kind, bets included
    message_burst: float = 60.0
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
    control_seconds: float = 2.0  # how often the table list is read again, signal or none
    metrics_dir: str | None = None  # the figures' folder this machine's processes share
    # (`baccara.server.infra.metrics.metrics_folder`); None: this process's, in memory
    metrics_token: str | None = None  # a bearer token that reads /metrics from anywhere
