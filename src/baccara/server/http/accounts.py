"""The players' accounts over HTTP: register, log in and out, change the password, and
who am I (`accounts_router`).

Every post is same-site JSON (`ServerState.same_site_json`); logins and registrations
are limited per client address and hashed on their own bounded pool, and failed logins
are throttled per name (`baccara.server.infra.throttle`). A session is a random token
in an HttpOnly, SameSite=Strict cookie; a logout or a new password ends sessions, and
their sockets close at once (`baccara.server.infra.revocation`).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from baccara.db.auth import AuthError, Excluded, User, good_password
from baccara.server.infra.edge import problem, reply
from baccara.server.infra.pool import Busy
from baccara.server.state import ServerState
from baccara.server.wire.http import Done
from baccara.server.wire.protocol import Account, Credentials, PasswordChange

__all__ = ["accounts_router"]

COOKIE_SECONDS = 7 * 24 * 3600


def busy(error: Busy) -> JSONResponse:
    """503 with Retry-After: the password hashing's queue is full."""
    return problem(
        503,
        "busy",
        f"too many players are logging in: try again in {error.retry_after} s",
        headers={"Retry-After": str(error.retry_after)},
    )


def accounts_router(state: ServerState) -> APIRouter:
    """The account routes of the server whose state is ``state``."""
    router = APIRouter()
    config, ledger, watch = state.config, state.ledger, state.watch

    async def credentials(request: Request) -> Credentials | JSONResponse:
        if not state.login_limiter.allow(state.client_address(request)):
            return problem(429, "rate_limited", "too many attempts: wait a minute")
        refused = state.same_site_json(request)
        if refused is not None:
            return refused
        try:
            return Credentials.model_validate_json(await request.body())
        except ValidationError:
            return problem(400, "bad_request", "expected a JSON body {name, password} of strings")

    def session_cookie(response: JSONResponse, token: str | None) -> JSONResponse:
        """The session's cookie set on ``response`` (None: deleted)."""
        name, secure = state.cookie_name, config.secure_cookies
        if token is None:
            response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="strict")
        else:
            response.set_cookie(
                name,
                token,
                max_age=COOKIE_SECONDS,
                path="/",
                secure=secure,
                httponly=True,
                samesite="strict",
            )
        return response

    def account(user: User, balance: int, token: str | None = None) -> JSONResponse:
        response = reply(Account(name=user.name, balance=balance))
        return response if token is None else session_cookie(response, token)

    @router.post("/api/register", response_model=Account)
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
        state.login_throttle.remember(user.name, state.client_address(request))
        token = await state.run(state.auth.start_session, user.id)
        return account(user, await state.run(ledger.balance, user.account), token)

    @router.post("/api/login", response_model=Account)
    async def login(request: Request) -> JSONResponse:
        got = await credentials(request)
        if isinstance(got, JSONResponse):
            return got
        attempt = state.login_throttle.attempt(got.name, state.client_address(request))
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

    @router.post("/api/logout", response_model=Done)
    async def logout(request: Request) -> JSONResponse:
        refused = state.same_site_json(request)
        if refused is not None:
            return refused
        token = request.cookies.get(state.cookie_name)
        if token:
            await state.run(state.auth.logout, token)
            watch.poke()  # this session's sockets close at once
        return session_cookie(reply(Done(ok=True)), None)

    @router.post("/api/me/password", response_model=Done)
    async def change_password(request: Request) -> JSONResponse:
        """A new password (the old one checked): every other session ends, this one goes on."""
        refused = state.same_site_json(request)
        if refused is not None:
            return refused
        user = await state.user_of(request)
        if user is None:
            return problem(401, "not_logged_in", "log in first")
        try:
            asked = PasswordChange.model_validate_json(await request.body())
        except ValidationError:
            return problem(400, "bad_request", "expected a JSON body {old, new} of strings")
        if not good_password(asked.new):
            return problem(400, "bad_password", "bad password: 8 to 128 characters")
        attempt = state.login_throttle.attempt(user.name, state.client_address(request))
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

    @router.get("/api/me", response_model=Account)
    async def me(request: Request) -> JSONResponse:
        user = await state.user_of(request)
        if user is None:
            return problem(401, "not_logged_in", "log in first")
        return account(user, await state.run(ledger.balance, user.account))

    return router
