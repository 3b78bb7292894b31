"""The server's edge: who a request comes from, whether another site sent it, and how
uvicorn runs the app.

Every HTTP response carries the security headers (`SecurityHeaders`): a Content
Security Policy fitting the page (ES modules and a stylesheet from ``/static``, the
WebSocket and the API on the same origin, nothing inline, no frames), and
``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
``Referrer-Policy: no-referrer``. A request body over `MAX_BODY` is refused with 413
before the rest of it is read (`BodyLimit`), a request's line and headers over
`ServerConfig.header_bytes` with 431 as they arrive (`guarded_http`), and a WebSocket
whose writes or close are stuck (a client that does not read) is reset
(`guarded_websocket`).

A browser's ``Origin`` must name this host (or an allowed origin, ``--allow-origin``)
for the WebSocket and for every post (`origin_allowed`), and a browser's
``Sec-Fetch-Site: cross-site`` is refused there too (`cross_site`, which the posts'
dependency calls: `baccara.server.http.depends.same_site_json`); the posts take JSON
only, which no other site can send without the browser asking first. A refusal is
raised as a `Refusal` and answered as every one is (`problem`).

The client's address is the socket's peer, unless that peer is one of the configured
trusted proxies (`ServerConfig.trusted_proxies`, ``--trusted-proxy``; none by default):
then ``X-Forwarded-For`` is read from the right, skipping the trusted proxies, and
the first other address is the client. A header from anybody else is ignored, so a
client cannot pick the address its login attempts are counted against. uvicorn's own
reading of the header is turned off (`uvicorn_options`) so that this is the only one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
from collections.abc import Iterable, Mapping
from typing import TypedDict
from urllib.parse import urlsplit

from pydantic import BaseModel
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from baccara.server.infra.config import ServerConfig
from baccara.server.wire.protocol import Problem

__all__ = [
    "CSP",
    "MAX_BODY",
    "BodyLimit",
    "Proxies",
    "Refusal",
    "SecurityHeaders",
    "UvicornOptions",
    "cross_site",
    "origin_allowed",
    "problem",
    "reply",
    "uvicorn_options",
]


def problem(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """A refusal as every endpoint answers one: ``{"error": code, "message": ...}``."""
    body = Problem(error=code, message=message).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


class Refusal(Exception):
    """A request refused, raised where the reason is found: the app answers it with
    `problem` (``status``, ``code``, ``message`` and any ``headers``) and nothing of
    the request is done.

    >>> Refusal(401, "not_logged_in", "log in first").response().body
    b'{"error":"not_logged_in","message":"log in first"}'
    """

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers

    def response(self) -> JSONResponse:
        """The refusal as the client gets it."""
        return problem(self.status, self.code, self.message, self.headers)


def reply(model: BaseModel) -> JSONResponse:
    """An answer as every endpoint sends one: its model (`baccara.server.wire.http`)
    as JSON, every field in its order."""
    return JSONResponse(model.model_dump(mode="json"))


CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",  # the API, and the WebSocket (CSP 3: 'self' covers ws: and wss:)
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The Content Security Policy of every response: the page's modules, stylesheet and
calls come from its own origin; nothing inline runs; no site may frame it."""
MAX_BODY = 64 * 1024
"""The largest HTTP request body (the API's are a few hundred bytes)."""
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A browser's Origin must name this host (or an allowed origin); no Origin is a
    non-browser client, which the session cookie alone authenticates.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
    True
    >>> origin_allowed("http://evil.example", "127.0.0.1:8000", ())
    False
    >>> origin_allowed("null", "127.0.0.1:8000", ())
    False
    """
    if origin is None:
        return True
    if origin in allowed:
        return True
    return urlsplit(origin).netloc == (host or "")


def cross_site(headers: Mapping[str, str], allowed: tuple[str, ...]) -> str | None:
    """Why a request came from another site (its ``Origin``, or a browser's
    ``Sec-Fetch-Site``), or None.

    >>> cross_site({"host": "a:1", "origin": "http://a:1"}, ()) is None
    True
    >>> cross_site({"host": "a:1", "origin": "http://b"}, ())
    "origin 'http://b' is another site"
    >>> cross_site({"host": "a:1", "sec-fetch-site": "cross-site"}, ())
    'the browser says another site sent this'
    """
    origin = headers.get("origin")
    if not origin_allowed(origin, headers.get("host"), allowed):
        return f"origin {origin[:100]!r} is another site" if origin else "another site"
    if headers.get("sec-fetch-site", "").lower() == "cross-site" and origin not in allowed:
        return "the browser says another site sent this"
    return None


class Proxies:
    """The trusted proxies: addresses or networks whose ``X-Forwarded-For`` is read.

    >>> Proxies(()).client("127.0.0.1", "10.0.0.7")
    '127.0.0.1'
    >>> proxies = Proxies(("127.0.0.1", "10.1.0.0/16"))
    >>> proxies.client("127.0.0.1", "203.0.113.9, 10.1.2.3")
    '203.0.113.9'
    >>> proxies.client("127.0.0.1", "forged, 198.51.100.4"), proxies.client("127.0.0.1", None)
    ('198.51.100.4', '127.0.0.1')
    >>> proxies.client("192.0.2.1", "203.0.113.9")
    '192.0.2.1'
    >>> Proxies(("nonsense",))
    Traceback (most recent call last):
    ...
    ValueError: bad trusted proxy 'nonsense': an IP address or network (10.0.0.0/8)
    """

    def __init__(self, trusted: Iterable[str]) -> None:
        self.networks: list[Network] = []
        for item in trusted:
            try:
                self.networks.append(ipaddress.ip_network(item.strip(), strict=False))
            except ValueError:
                raise ValueError(
                    f"bad trusted proxy {item!r}: an IP address or network (10.0.0.0/8)"
                ) from None

    def trusts(self, address: str) -> bool:
        """Whether ``address`` is a trusted proxy."""
        if not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(address.strip())
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, peer: str, forwarded_for: str | None) -> str:
        """The client's address for a request from ``peer`` with ``X-Forwarded-For``."""
        if not forwarded_for or not self.trusts(peer):
            return peer
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        for hop in reversed(hops):
            if not self.trusts(hop):
                return hop[:64]
        return hops[0][:64] if hops else peer


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in _HEADERS if name not in have]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 and the connection
    is closed, from its ``Content-Length`` before any of it is read, or as soon as a
    chunked body passes the limit; a body within it is read here, then handed on."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length", b"").strip()
        if length and (not length.isdigit() or int(length) > self.limit):
            await self._too_large(send)
            return
        if not length and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client has gone
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._too_large(send)
                return
            if not message.get("more_body", False):
                break
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        body = b'{"error":"too_large","message":"the request body is over %d bytes"}' % self.limit
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),  # the rest of the body is not read
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def too_large_head(limit: int) -> bytes:
    """The whole answer to a request whose line and headers pass ``limit`` bytes: 431,
    in JSON, with the security headers, and the connection closed.

    >>> too_large_head(65536).split(b"\\r\\n")[0]
    b'HTTP/1.1 431 Request Header Fields Too Large'
    """
    body = Problem(
        error="too_large", message=f"the request's line and headers are over {limit} bytes"
    ).model_dump_json()
    head = [
        b"HTTP/1.1 431 Request Header Fields Too Large",
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"connection: close",
        *(name + b": " + value for name, value in _HEADERS),
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body.encode()


def guarded_http(header_seconds: float, header_bytes: int) -> type[asyncio.Protocol] | str:
    """uvicorn's HTTP protocol with a deadline and a size for each request's head (its
    line and headers): a connection that sends nothing, or its headers a byte at a
    time, is closed after ``header_seconds`` (uvicorn closes only idle keep-alive
    connections); one whose head passes ``header_bytes`` is answered 431 and closed as
    soon as it does, its bytes fed to the parser only up to the limit (httptools keeps a
    header whole in memory, however long). Without httptools, uvicorn's own protocol
    (h11, whose own limit is 16 KiB)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return "auto"

    class GuardedHttp(HttpToolsProtocol):
        header_timer: asyncio.TimerHandle | None = None
        head_read: int | None = 0  # bytes of this request's head so far; None in its body

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            while data and self.head_read is not None and self._reading():
                room = header_bytes - self.head_read
                if room <= 0:
                    self._too_large()
                    return
                piece, data = data[:room], data[room:]
                self.head_read += len(piece)
                super().data_received(piece)
            if data and self._reading():
                super().data_received(data)  # a body (and what follows it: within one read)

        def _reading(self) -> bool:
            """Still this protocol's connection: not closing, not a WebSocket now."""
            return not self.transport.is_closing() and self.transport.get_protocol() is self

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.header_timer is None:  # the next request on a kept-alive connection
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            self.head_read = None
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self.head_read = 0  # what comes next is the next request's head

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self.header_timer = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _too_slow(self) -> None:
            self.header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def _too_large(self) -> None:
            self._disarm()
            if not self.transport.is_closing():
                self.transport.write(too_large_head(header_bytes))
                self.transport.close()

    return GuardedHttp


def guarded_websocket(send_seconds: float) -> type[asyncio.Protocol] | str:
    """uvicorn's WebSocket protocol (websockets' sans-I/O one) that cannot be held by a
    client that does not read: a connection whose writes make no progress for
    ``send_seconds`` (its buffer past the high-water mark, nothing taken from it), or
    whose close has not completed in as long (the close frame, or the ping timeout's,
    waits behind a full buffer), is aborted with a reset, its buffers dropped. The app
    hears the disconnect at once and frees what the connection held. Checked every
    ``send_seconds / 2``; uvicorn's own close only waits for the buffer to drain, for
    ever. Without websockets, uvicorn's choice, unguarded."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:  # pragma: no cover - uvicorn[standard] brings websockets
        return "auto"

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        stuck_since: float | None = None  # when writing paused, or the close began
        watch: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._watch()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self.stuck_since is None:
                self.stuck_since = self.loop.time()

        def resume_writing(self) -> None:
            super().resume_writing()
            self.stuck_since = None  # the client read: progress

        def connection_lost(self, exc: Exception | None) -> None:
            if self.watch is not None:
                self.watch.cancel()
                self.watch = None
            super().connection_lost(exc)

        def _watch(self) -> None:
            self.watch = self.loop.call_later(send_seconds / 2, self._check)

        def _check(self) -> None:
            now = self.loop.time()
            if self.stuck_since is None and self.transport.is_closing():
                self.stuck_since = now
            if self.stuck_since is None or now - self.stuck_since < send_seconds:
                self._watch()
                return
            self.watch = None
            sock = self.transport.get_extra_info("socket")
            if sock is not None:  # a reset, not a FIN behind megabytes nobody reads
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.transport.abort()

    return GuardedWebSocket


class UvicornOptions(TypedDict):
    """The keywords `uvicorn_options` gives ``uvicorn.run``."""

    http: type[asyncio.Protocol] | str
    ws: type[asyncio.Protocol] | str
    timeout_keep_alive: int
    ws_max_size: int
    ws_per_message_deflate: bool
    ws_ping_interval: float
    ws_ping_timeout: float
    proxy_headers: bool


def uvicorn_options(config: ServerConfig) -> UvicornOptions:
    """How ``baccara serve`` (and the tests' harness) run the app under uvicorn.

    No permessage-deflate: per-frame compression for every client is the event loop's
    biggest CPU cost under load. No proxy headers read by uvicorn: `Proxies` reads
    them, from the trusted proxies only. A connection must send its request's headers
    within ``header_seconds``, and at most ``header_bytes`` of them with the request
    line (`guarded_http`), an idle keep-alive one is closed after
    5 s, and a WebSocket that does not answer the protocol's ping within
    ``ws_ping_seconds`` is closed (browsers answer by themselves).
    """
    return {
        "http": guarded_http(config.header_seconds, config.header_bytes),
        "ws": guarded_websocket(config.ws_send_seconds),
        "timeout_keep_alive": 5,
        "ws_max_size": 65536,
        "ws_per_message_deflate": False,
        "ws_ping_interval": config.ws_ping_seconds,
        "ws_ping_timeout": config.ws_ping_seconds,
        "proxy_headers": False,
    }
