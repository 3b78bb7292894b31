"""The players' accounts over HTTP: register, log in and out, change the password, and
who am I (`accounts_router`). Staff (`baccara.db.staff`) log in and out here too, and
``/api/me`` answers them with their role.

Every post is same-site JSON (`baccara.server.http.depends.same_site_json`); logins and
registrations are limited per client address (`login_rate`) and hashed on their own
bounded pool, and failed logins are throttled per name
(`baccara.server.infra.throttle`). A session is a random token in an HttpOnly,
SameSite=Strict cookie; a logout or a new password ends sessions, and their sockets
close at once (`baccara.server.infra.revocation`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from baccara.db.auth import AuthError, Excluded, User, good_password
from baccara.db.staff import Staff
from baccara.server.http.depends import (
    SAME_SITE_JSON,
    ClientAddress,
    JsonBody,
    Player,
    SessionCookie,
    Someone,
    State,
    someone,
)
from baccara.server.infra.edge import Refusal
from baccara.server.infra.pool import Busy
from baccara.server.state import SESSION_COOKIE, ServerState
from baccara.server.wire.admin import StaffAccount
from baccara.server.wire.http import Done
from baccara.server.wire.protocol import Account, Credentials, PasswordChange

__all__ = ["accounts_router", "login_rate"]

COOKIE_SECONDS = 7 * 24 * 3600

CredentialsBody = Annotated[
    Credentials,
    Depends(JsonBody(Credentials, "expected a JSON body {name, password} of strings")),
]
PasswordBody = Annotated[
    PasswordChange,
    Depends(JsonBody(PasswordChange, "expected a JSON body {old, new} of strings")),
]


async def login_rate(state: State, address: ClientAddress) -> None:
    """Refuse (429) a login or registration past the client address's rate."""
    if not state.login_limiter.allow(address):
        raise Refusal(429, "rate_limited", "too many attempts: wait a minute")


LOGIN_RATE = Depends(login_rate)


def accounts_router(state: ServerState) -> APIRouter:
    """The account routes of the server whose state is ``state``."""
    router = APIRouter()
    config, ledger, watch = state.config, state.ledger, state.watch

    def session_cookie(response: Response, token: str | None) -> None:
        """The session's cookie set on ``response`` (None: deleted)."""
        secure = config.secure_cookies
        if token is None:
            response.delete_cookie(
                SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="strict"
            )
        else:
            response.set_cookie(
                SESSION_COOKIE,
                token,
                max_age=COOKIE_SECONDS,
                path="/",
                secure=secure,
                httponly=True,
                samesite="strict",
            )

    async def account(name: str, account: int) -> Account:
        return Account(name=name, balance=await state.run(ledger.balance, account))

    async def whoever(who: User | Staff) -> Account | StaffAccount:
        if isinstance(who, Staff):
            return StaffAccount(name=who.name, role=who.role)
        return await account(who.name, who.account)

    @router.post("/api/register", dependencies=[LOGIN_RATE, SAME_SITE_JSON])
    async def register(
        asked: CredentialsBody, address: ClientAddress, response: Response
    ) -> Account:
        try:  # the password hashed on the bounded pool; the session needs no second hash
            user = await state.hashing.run(state.auth.register, asked.name, asked.password)
        except AuthError as error:
            raise Refusal(400, "bad_registration", str(error)) from error
        state.login_throttle.remember(user.name, address)
        session_cookie(response, await state.run(state.auth.start_session, user.id))
        return await account(user.name, user.account)

    @router.post("/api/login", dependencies=[LOGIN_RATE, SAME_SITE_JSON])
    async def login(
        asked: CredentialsBody, address: ClientAddress, response: Response
    ) -> Account | StaffAccount:
        """Log in, a player or a staff member: who it is (a player's balance, a staff
        member's role)."""
        attempt = state.login_throttle.attempt(asked.name, address)
        if attempt.refused is not None:
            raise Refusal(429, "rate_limited", attempt.refused)
        try:
            token = await state.hashing.run(state.auth.login, asked.name, asked.password)
        except Excluded:
            attempt.succeeded()  # the password was right
            raise
        except AuthError as error:
            attempt.failed()
            raise Refusal(401, "bad_login", str(error)) from error
        except Busy:
            attempt.not_tried()
            raise
        attempt.succeeded()  # only failures count
        session_cookie(response, token)
        return await whoever(await someone(state, token))

    @router.post("/api/logout", dependencies=[SAME_SITE_JSON])
    async def logout(response: Response, token: SessionCookie = None) -> Done:
        if token:
            await state.run(state.auth.logout, token)
            watch.poke()  # this session's sockets close at once
        session_cookie(response, None)
        return Done(ok=True)

    @router.post("/api/me/password", dependencies=[SAME_SITE_JSON])
    async def change_password(user: Player, asked: PasswordBody, address: ClientAddress) -> Done:
        """A new password (the old one checked): every other session ends, this one goes on."""
        if not good_password(asked.new):
            raise Refusal(400, "bad_password", "bad password: 8 to 128 characters")
        attempt = state.login_throttle.attempt(user.name, address)
        if attempt.refused is not None:
            raise Refusal(429, "rate_limited", attempt.refused)
        try:
            await state.hashing.run(state.auth.change_password, user, asked.old, asked.new)
        except AuthError as error:
            attempt.failed()
            raise Refusal(400, "bad_password", str(error)) from error
        except Busy:
            attempt.not_tried()
            raise
        attempt.succeeded()
        watch.poke()  # the other sessions' sockets close at once
        return Done(ok=True)

    @router.get("/api/me")
    async def me(who: Someone) -> Account | StaffAccount:
        """Who is logged in: a player with the wallet's balance, or a staff member with
        the role."""
        return await whoever(who)

    return router
