"""The tables over HTTP: the lobby, a table's view, its roads, its shoes' records and the
exact edges of its shoe, and the JSON Schema of the WebSocket's messages
(`tables_router`). A table another process runs is asked there (`Hall.ask`); while a
table passes between processes (`Moving`) the answer is 503 with Retry-After
(`baccara.server.http.depends.refusal_handlers`).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from baccara.server.cluster.relay import Moving
from baccara.server.http.depends import Viewer
from baccara.server.infra.edge import Refusal, reply
from baccara.server.state import ServerState
from baccara.server.tables import views
from baccara.server.tables.make import protocol_schema
from baccara.server.wire.http import Edges, ProtocolSchema, ShoeRecord, TableView
from baccara.server.wire.protocol import TableSummary

__all__ = ["accepts_gzip", "tables_router"]


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


def tables_router(state: ServerState) -> APIRouter:
    """The table routes of the server whose state is ``state``."""
    router = APIRouter()
    hall = state.hall
    lobby_body = views.Lobby(hall.lobby, seconds=1.0)

    def unknown(table_id: str) -> Refusal:
        return Refusal(404, "unknown_table", f"unknown table {table_id!r}")

    @router.get("/api/tables", response_model=list[TableSummary])
    async def lobby(request: Request) -> Response:
        """The lobby, built at most once a second (`views.Lobby`), gzipped if asked."""
        zipped = accepts_gzip(request.headers.get("accept-encoding", ""))
        headers = {"Vary": "Accept-Encoding"} | ({"Content-Encoding": "gzip"} if zipped else {})
        body = lobby_body.body(gzipped=zipped)
        return Response(body, media_type="application/json", headers=headers)

    @router.get("/api/protocol", response_model=ProtocolSchema)
    async def protocol() -> JSONResponse:
        """The JSON Schema of every WebSocket message, both ways, and of the messages each
        kind of table takes."""
        return JSONResponse(protocol_schema())

    @router.get("/api/tables/{table_id}", response_model=TableView)
    async def table_view(table_id: str, user: Viewer) -> Response:
        """The table as ``user`` sees it (anybody; a player sees their own hand)."""
        runner = hall.runner(table_id)
        if runner is not None:  # a model of `TableView`, as the runner's contract says
            return reply(await runner.state(user))
        if not hall.remote(table_id):
            raise unknown(table_id)
        texts = await hall.ask(table_id, "view")  # a table another process runs
        if not texts:
            raise Moving(table_id)
        return Response(texts[0], media_type="application/json")

    @router.get(
        "/api/tables/{table_id}/roads.svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
    )
    async def roads_svg(table_id: str) -> Response:
        svg = hall.roads_svg(table_id)
        if svg is None:
            raise unknown(table_id)
        return Response(svg, media_type="image/svg+xml")

    @router.get("/api/tables/{table_id}/shoes", response_model=list[ShoeRecord])
    async def shoes(table_id: str) -> JSONResponse:
        if (
            hall.runner(table_id) is None
            and table_id not in hall.specs
            and not hall.remote(table_id)
        ):
            raise unknown(table_id)
        return JSONResponse(await hall.shoe_records(table_id))

    @router.get("/api/tables/{table_id}/edges")
    async def edges(table_id: str) -> Edges:
        """Each bet's exact house edge for the cards this shoe has not yet shown."""
        if hall.runner(table_id) is None and not hall.remote(table_id):
            raise unknown(table_id)
        return await hall.edges(table_id)

    return router
