"""What a route asks of its request, as FastAPI dependencies: the server's state
(`State`), the client's address (`ClientAddress`), the logged-in player (`LoggedIn`,
`Player`; `Viewer` when a login is welcome but not needed), when the session began
(`SessionSince`), a post that is JSON from this site (`same_site_json`, `SAME_SITE_JSON`)
and its body as a pydantic model (`JsonBody`); for the console, the logged-in staff
member with a role the route allows (`StaffMember`, `require_role`), whom a player's
route refuses (403 ``staff_account``: a staff account plays nothing), and whoever is
logged in, player or staff (`Someone`).

A route declares what it needs and reads as: dependencies in, model out. A check that
fails raises `Refusal`, and the app answers it as every refusal is answered,
``{"error": code, "message": ...}`` with its status (`refusal_handlers`, which also
answer the errors that mean one thing wherever they come from: a full hashing queue, an
excluded player's login, a table moving between processes). A dependency refuses
before the route runs; a route refuses before it changes anything.

The checks run in the order a route declares them: its ``dependencies=[...]`` first,
then its parameters from left to right, each dependency's own dependencies before it; a
dependency asked twice in one request runs once. So a post that needs a login declares
``dependencies=[SAME_SITE_JSON]`` and then ``user: Player, asked: SomeBody``: another
site's post is refused (403) before the login is looked at (401), and the body is read
only after both (400).

The session's cookie is read through FastAPI's `APIKeyCookie` (`SESSION`), so
``/openapi.json`` shows each route that needs a login with its ``security``.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from fastapi import APIRouter, Cookie, Depends, Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import Response
from fastapi.routing import APIRoute
from fastapi.security import APIKeyCookie
from pydantic import BaseModel, ValidationError

from baccara.db.auth import Excluded, User
from baccara.db.staff import Role, Staff
from baccara.server.cluster.relay import Moving
from baccara.server.infra.edge import Refusal, cross_site, problem
from baccara.server.infra.pool import Busy
from baccara.server.state import SESSION_COOKIE, ServerState
from baccara.server.tables.dispatch import moving

__all__ = [
    "SAME_SITE_JSON",
    "SESSION",
    "ClientAddress",
    "JsonBody",
    "LoggedIn",
    "Operator",
    "Player",
    "SessionCookie",
    "SessionSince",
    "SessionToken",
    "Someone",
    "StaffMember",
    "StaffOnly",
    "State",
    "Viewer",
    "body_model",
    "document_bodies",
    "logged_in",
    "refusal_handlers",
    "require_role",
    "same_site",
    "same_site_json",
    "someone",
    "staff_access",
]

_Model = TypeVar("_Model", bound=BaseModel)


async def server_state(request: Request) -> ServerState:
    """The state of the app serving ``request`` (`baccara.server.app.create_app` keeps
    it in ``app.state.baccara``)."""
    state = request.app.state.baccara
    assert isinstance(state, ServerState)
    return state


State = Annotated[ServerState, Depends(server_state)]
"""The running server's state."""


async def client_address(request: Request, state: State) -> str:
    """The client's address, as `ServerState.client_address` reads it."""
    return state.client_address(request)


ClientAddress = Annotated[str, Depends(client_address)]
"""The client's address (a trusted proxy's ``X-Forwarded-For`` read)."""

SESSION = APIKeyCookie(
    name=SESSION_COOKIE,
    scheme_name="session",
    description="The session cookie that /api/register and /api/login set.",
    auto_error=False,
)
"""The session cookie, documented as the API's security scheme."""
SessionToken = Annotated[str | None, Depends(SESSION)]
"""The request's session token, if it sent one (live or not), on a route that needs a
login (``/openapi.json`` shows it in the route's ``security``)."""
SessionCookie = Annotated[str | None, Cookie(alias=SESSION_COOKIE)]
"""The same token on a route that welcomes a login but needs none."""


@dataclass(frozen=True, slots=True)
class LoggedIn:
    """The dependency of a route that needs a login: the player of the request's live
    session; with no session cookie, or a session that has ended (logged out, another
    password, excluded, suspended, expired), the route is refused with 401, ``code``
    and ``message``.

    >>> LoggedIn("login_required", "log in to drill")
    LoggedIn(code='login_required', message='log in to drill')
    """

    code: str = "not_logged_in"
    message: str = "log in first"

    async def __call__(self, state: State, token: SessionToken) -> User:
        user = None if not token else await state.run(state.auth.user_for_token, token)
        if user is None:
            if token and await state.run(state.auth.staff_for_token, token) is not None:
                raise Refusal(403, "staff_account", _STAFF_PLAY)
            raise Refusal(401, self.code, self.message)
        return user


_STAFF_PLAY = "a staff account cannot play: log in as a player"


logged_in = LoggedIn()
Player = Annotated[User, Depends(logged_in)]
"""The logged-in player (401 ``not_logged_in`` otherwise)."""


async def viewer(state: State, token: SessionCookie = None) -> User | None:
    """The player of the request's live session, or None: a page anybody may see."""
    return None if not token else await state.run(state.auth.user_for_token, token)


Viewer = Annotated[User | None, Depends(viewer)]
"""The logged-in player, or None."""


async def session_since(state: State, token: SessionToken) -> float | None:
    """When the request's live session began (epoch seconds), or None."""
    return None if not token else await state.run(state.auth.session_started, token)


SessionSince = Annotated[float | None, Depends(session_since)]
"""When the request's live session began, or None."""


async def same_site_json(request: Request, state: State) -> None:
    """Refuse a post that is not JSON (415: no form or text/plain post from another
    site) or that another site's page sent (403 ``bad_origin``: its ``Origin``, or a
    browser's ``Sec-Fetch-Site``; `baccara.server.infra.edge.cross_site`)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refusal(415, "bad_request", "send the request as application/json")
    await same_site(request, state)


async def same_site(request: Request, state: State) -> None:
    """Refuse a request another site's page sent (403 ``bad_origin``), whatever its
    method: the console's reads too."""
    why = cross_site(request.headers, state.config.allowed_origins)
    if why is not None:
        raise Refusal(403, "bad_origin", f"refused: {why}")


SAME_SITE_JSON = Depends(same_site_json)
"""For a post's ``dependencies=[...]``: JSON from this site only, checked first."""


@dataclass(frozen=True, slots=True)
class StaffOnly:
    """The dependency of a console route: the staff member of the request's live session
    if their role is one of ``roles``. Checked in this order: a request another site's
    page sent, 403 ``bad_origin`` (a read too); no live session, 401 ``not_logged_in``;
    a player's session, 403 ``staff_only``; another role, 403 ``wrong_role``.

    >>> require_role(Role.OPERATOR)
    StaffOnly(roles=(<Role.OPERATOR: 'operator'>,))
    """

    roles: tuple[Role, ...] = tuple(Role)

    async def __call__(self, request: Request, state: State, token: SessionToken) -> Staff:
        await same_site(request, state)
        if not token:
            raise Refusal(401, "not_logged_in", "log in first")
        member = await state.run(state.auth.staff_for_token, token)
        if member is None:
            if await state.run(state.auth.user_for_token, token) is None:
                raise Refusal(401, "not_logged_in", "log in first")
            raise Refusal(403, "staff_only", "for staff only: this is a player's account")
        if member.role not in self.roles:
            allowed = " or ".join(role.value for role in self.roles)
            raise Refusal(403, "wrong_role", f"for the {allowed} role only")
        return member


def require_role(*roles: Role) -> StaffOnly:
    """The dependency that gives the logged-in staff member if their role is one of
    ``roles`` (`StaffOnly`): ``Annotated[Staff, Depends(require_role(Role.OPERATOR))]``."""
    if not roles:
        raise ValueError("require_role needs at least one role")
    return StaffOnly(tuple(roles))


StaffMember = Annotated[Staff, Depends(StaffOnly())]
"""The logged-in staff member, of any role (a read every role may make)."""
Operator = Annotated[Staff, Depends(require_role(Role.OPERATOR))]
"""The logged-in staff member of the ``operator`` role (the tables and the cashier)."""


async def someone(state: State, token: SessionToken) -> User | Staff:
    """Whoever the request's live session is: a player or a staff member (401
    ``not_logged_in`` otherwise)."""
    user = None if not token else await state.run(state.auth.user_for_token, token)
    if user is not None:
        return user
    member = None if not token else await state.run(state.auth.staff_for_token, token)
    if member is None:
        raise Refusal(401, "not_logged_in", "log in first")
    return member


Someone = Annotated[User | Staff, Depends(someone)]
"""The logged-in player or staff member (401 ``not_logged_in`` otherwise)."""


class JsonBody(Generic[_Model]):
    """The dependency that reads a post's body as ``model`` (in pydantic's JSON mode,
    strictly as the model says), after `same_site_json`. A body that is not such JSON
    is refused with 400 ``bad_request`` and ``refusal``, or the first field at fault
    and why. (FastAPI parses a body parameter of its own before any dependency runs, so
    a body that is not JSON would be answered before the site and the login are
    checked; `document_bodies` documents this one as FastAPI documents its own.)

    >>> from baccara.server.wire.protocol import Credentials
    >>> JsonBody(Credentials).read(b'{"name": "ann", "password": "secret"}').name
    'ann'
    >>> JsonBody(Credentials).read(b'{"name": "ann"}')
    Traceback (most recent call last):
    ...
    baccara.server.infra.edge.Refusal: 400 bad_request: password: Field required
    """

    def __init__(self, model: type[_Model], refusal: str | None = None) -> None:
        self.model = model
        self.refusal = refusal

    def __repr__(self) -> str:
        return f"JsonBody({self.model.__name__})"

    def read(self, body: bytes) -> _Model:
        """``body`` as the model, or the `Refusal`."""
        try:
            return self.model.model_validate_json(body)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            raise Refusal(400, "bad_request", self.refusal or f"{where}: {first['msg']}") from None

    async def __call__(
        self, request: Request, _: Annotated[None, Depends(same_site_json)]
    ) -> _Model:
        return self.read(await request.body())


def _calls(dependant: Dependant) -> list[Callable[..., Any]]:
    """Every dependency of ``dependant``, its own dependencies' first."""
    found: list[Callable[..., Any]] = []
    for one in dependant.dependencies:
        found += _calls(one)
        if one.call is not None:
            found.append(one.call)
    return found


def body_model(route: APIRoute) -> type[BaseModel] | None:
    """The model a route's `JsonBody` reads its body as, if it reads one."""
    bodies = [call.model for call in _calls(route.dependant) if isinstance(call, JsonBody)]
    return bodies[0] if bodies else None


def staff_access(routers: list[APIRouter]) -> dict[Role, list[str]]:
    """Which of the console's routes each role may call (``"POST /api/admin/tables"``),
    read from the routes' own `StaffOnly` dependencies: the console's pages show a
    change only to a role the server lets make it, and the rule stays in one place.

    >>> router = APIRouter()
    >>> @router.post("/x", dependencies=[Depends(require_role(Role.OPERATOR))])
    ... async def x() -> None: ...
    >>> staff_access([router])[Role.OPERATOR], staff_access([router])[Role.AUDITOR]
    (['POST /x'], [])
    """
    access: dict[Role, list[str]] = {role: [] for role in Role}
    for router in routers:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            guards = [call for call in _calls(route.dependant) if isinstance(call, StaffOnly)]
            if not guards:
                continue
            for role in Role:
                if all(role in guard.roles for guard in guards):
                    access[role] += [f"{m} {route.path}" for m in sorted(route.methods or ())]
    return access


def document_bodies(router: APIRouter) -> APIRouter:
    """``router`` with each route that reads a `JsonBody` documenting its request body
    (JSON, the model's schema) in ``/openapi.json``; FastAPI documents only the bodies
    it reads itself."""
    for route in router.routes:
        if isinstance(route, APIRoute) and (model := body_model(route)) is not None:
            schema = model.model_json_schema()
            content = {"application/json": {"schema": schema}}
            request_body = {"required": True, "content": content}
            route.openapi_extra = {**(route.openapi_extra or {}), "requestBody": request_body}
    return router


# -- the answers to refusals -----------------------------------------------------------


async def _refused(request: Request, error: Refusal) -> Response:
    return error.response()


async def _busy(request: Request, error: Busy) -> Response:
    """503 with Retry-After: the password hashing's queue is full."""
    return problem(
        503,
        "busy",
        f"too many players are logging in: try again in {error.retry_after} s",
        headers={"Retry-After": str(error.retry_after)},
    )


async def _excluded(request: Request, error: Excluded) -> Response:
    """403 with the exclusion's code (``self_excluded``, ``suspended``) and its end."""
    return problem(403, error.code, str(error))


async def _moving(request: Request, error: Moving) -> Response:
    """503 with Retry-After: the table passes to another process; nothing was done."""
    said = moving(str(request.path_params.get("table_id", "")))
    return problem(503, said.code, said.message, headers={"Retry-After": "2"})


Handler = Callable[[Request, Any], Coroutine[Any, Any, Response]]


def refusal_handlers() -> dict[int | type[Exception], Handler]:
    """The app's ``exception_handlers``: a `Refusal` as itself; a full hashing queue
    (`Busy`), an excluded player's login (`Excluded`) and a table between processes
    (`Moving`) as the refusals they are, from whichever route."""
    return {Refusal: _refused, Busy: _busy, Excluded: _excluded, Moving: _moving}
