"""The tables over HTTP: the lobby, a table's view, its roads, its shoes' records and the
exact edges of its shoe, and the JSON Schema of the WebSocket's messages
(`tables_router`). A table another process runs is asked there (`Hall.ask`); while a
table passes between processes the answer is 503 with Retry-After.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from baccara.server.cluster.relay import Moving
from baccara.server.infra.edge import problem, reply
from baccara.server.state import ServerState
from baccara.server.tables import views
from baccara.server.tables.dispatch import moving
from baccara.server.wire.http import Edges, ProtocolSchema, ShoeRecord, TableView
from baccara.server.wire.protocol import TableSummary, schema

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

    def unknown(table_id: str) -> JSONResponse:
        return problem(404, "unknown_table", f"unknown table {table_id!r}")

    def table_moving(table_id: str) -> JSONResponse:
        error = moving(table_id)
        return problem(503, error.code, error.message, headers={"Retry-After": "2"})

    @router.get("/api/tables", response_model=list[TableSummary])
    async def lobby(request: Request) -> Response:
        """The lobby, built at most once a second (`views.Lobby`), gzipped if asked."""
        zipped = accepts_gzip(request.headers.get("accept-encoding", ""))
        headers = {"Vary": "Accept-Encoding"} | ({"Content-Encoding": "gzip"} if zipped else {})
        body = lobby_body.body(gzipped=zipped)
        return Response(body, media_type="application/json", headers=headers)

    @router.get("/api/protocol", response_model=ProtocolSchema)
    async def protocol() -> JSONResponse:
        """The JSON Schema of every WebSocket message, both ways."""
        return JSONResponse(schema())

    @router.get("/api/tables/{table_id}", response_model=TableView)
    async def table_view(table_id: str, request: Request) -> Response:
        runner = hall.runner(table_id)
        if runner is not None:
            found = await runner.state(await state.user_of(request))
            return reply(found)
        if not hall.remote(table_id):
            return unknown(table_id)
        try:  # a table another process runs
            text = (await hall.ask(table_id, "view"))[0]
        except (Moving, IndexError):
            return table_moving(table_id)
        return Response(text, media_type="application/json")

    @router.get(
        "/api/tables/{table_id}/roads.svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
    )
    async def roads_svg(table_id: str) -> Response:
        svg = hall.roads_svg(table_id)
        if svg is None:
            return unknown(table_id)
        return Response(svg, media_type="image/svg+xml")

    @router.get("/api/tables/{table_id}/shoes", response_model=list[ShoeRecord])
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

    @router.get("/api/tables/{table_id}/edges", response_model=Edges)
    async def edges(table_id: str) -> JSONResponse:
        """Each bet's exact house edge for the cards this shoe has not yet shown."""
        if hall.runner(table_id) is None and not hall.remote(table_id):
            return unknown(table_id)
        try:
            return reply(await hall.edges(table_id))
        except Moving:
            return table_moving(table_id)

    return router
