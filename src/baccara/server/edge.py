"""The server's edge: who a request comes from, whether another site sent it, and how
uvicorn runs the app.

Every HTTP response carries the security headers (`SecurityHeaders`): a Content
Security Policy fitting the page (ES modules and a stylesheet from ``/static``, the
WebSocket and the API on the same origin, nothing inline, no frames), and
``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
``Referrer-Policy: no-referrer``.

A browser's ``Origin`` must name this host (or an allowed origin, ``--allow-origin``)
for the WebSocket and for the account posts (`origin_allowed`), and a browser's
``Sec-Fetch-Site: cross-site`` is refused there too (`cross_site`); the account posts
take JSON only, which no other site can send without the browser asking first.

The client's address is the socket's peer, unless that peer is one of the configured
trusted proxies (`ServerConfig.trusted_proxies`, ``--trusted-proxy``; none by default):
then ``X-Forwarded-For`` is read from the right, skipping the trusted proxies, and
the first other address is the client. A header from anybody else is ignored, so a
client cannot pick the address its login attempts are counted against. uvicorn's own
reading of the header is turned off (`uvicorn_options`) so that this is the only one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from baccara.server.app import ServerConfig

__all__ = [
    "CSP",
    "Proxies",
    "SecurityHeaders",
    "cross_site",
    "origin_allowed",
    "uvicorn_options",
]

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


def uvicorn_options(config: ServerConfig) -> dict[str, Any]:
    """How ``baccara serve`` (and the tests' harness) run the app under uvicorn.

    No permessage-deflate: per-frame compression for every client is the event loop's
    biggest CPU cost under load. No proxy headers read by uvicorn: `Proxies` reads
    them, from the trusted proxies only.
    """
    return {
        "ws_max_size": 65536,
        "ws_per_message_deflate": False,
        "proxy_headers": False,
    }
