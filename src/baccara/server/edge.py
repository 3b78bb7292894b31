"""The server's edge: who a request comes from, and how uvicorn runs the app.

The client's address is the socket's peer, unless that peer is one of the configured
trusted proxies (`ServerConfig.trusted_proxies`, ``--trusted-proxy``; none by default):
then ``X-Forwarded-For`` is read from the right, skipping the trusted proxies, and
the first other address is the client. A header from anybody else is ignored, so a
client cannot pick the address its login attempts are counted against. uvicorn's own
reading of the header is turned off (`uvicorn_options`) so that this is the only one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baccara.server.app import ServerConfig

__all__ = ["Proxies", "uvicorn_options"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


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
