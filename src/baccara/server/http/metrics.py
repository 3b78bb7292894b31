"""``GET /metrics``: the server's figures in Prometheus' text format
(`baccara.server.infra.metrics`), every process of the machine's.

They hold no player's data (counts, times and states only), yet they say how busy the
house is: they are read from the server's own machine, or with the metrics token. A
request is let in when it comes from the loopback and no proxy forwarded it (no
``X-Forwarded-For`` nor ``Forwarded``: a reverse proxy on the same machine does not
open them to the world), or when it carries ``Authorization: Bearer TOKEN`` with the
token the server was given (``baccara serve --metrics-token-file``). Otherwise 403
``metrics_forbidden``; a wrong token, 401 ``bad_token``.

>>> loopback("127.0.0.1"), loopback("::1"), loopback("10.0.0.2"), loopback("testclient")
(True, True, False, False)
"""

from __future__ import annotations

import hmac
import ipaddress

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST

from baccara.server.infra.edge import Refusal
from baccara.server.state import ServerState

__all__ = ["loopback", "metrics_router"]


FORWARDING = ("x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host", "via")
"""Headers a proxy adds to a request it passes on."""


def loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def metrics_router(state: ServerState) -> APIRouter:
    """The ``/metrics`` route of the server whose state is ``state``."""
    router = APIRouter()
    token = state.config.metrics_token

    def check(request: Request) -> None:
        given = request.headers.get("authorization")
        if given is not None and token:
            if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                return
            raise Refusal(401, "bad_token", "that is not the metrics token")
        peer = request.client.host if request.client else ""
        # a request a proxy passed on is not the machine's own, whatever its headers say:
        # from a trusted proxy (``--trusted-proxy``) or naming a client, it needs the token
        forwarded = any(name in request.headers for name in FORWARDING)
        if not loopback(peer) or forwarded or state.proxies.trusts(peer):
            raise Refusal(
                403,
                "metrics_forbidden",
                "the metrics are read from the server's machine, or with the metrics token",
            )

    @router.get(
        "/metrics",
        response_class=Response,
        responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}},
    )
    async def metrics(request: Request) -> Response:
        """Every process's figures in Prometheus' text format (from the loopback, or with
        the metrics token as a bearer token)."""
        check(request)
        state.metrics.writer_queue.set(state.hall.services.batcher.waiting())
        body = await state.run(state.metrics.exposition)
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    return router
