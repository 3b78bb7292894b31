"""Players of the online table: registration, argon2 passwords, sessions.

A session is a random token in an HttpOnly, SameSite=Strict cookie; the database
keeps only its SHA-256. Every new player gets a welcome deposit of play money into the
wallet (``welcome``; 0 on a real-money server, where money comes in only through the
cashier, `baccara.db.cashier`).

>>> from baccara.db.ledger import Ledger
>>> auth = Auth(Ledger.connect("sqlite://"), welcome=50_000)
>>> user = auth.register("ann", "correct horse")
>>> user.name, auth.ledger.balance(user.account)
('ann', 50000)
>>> token = auth.login("ann", "correct horse")
>>> auth.user_for_token(token).session == token_digest(token)   # the session acted under
True
>>> auth.login("ann", "wrong password")
Traceback (most recent call last):
...
baccara.db.auth.AuthError: wrong name or password

A name is checked whole (no trailing newline) and is one account whatever its case;
the name as registered is the one shown:

>>> auth.register("ann\\n", "correct horse")
Traceback (most recent call last):
...
baccara.db.auth.AuthError: bad name: 3 to 24 characters, letters, digits, '_' or '-' only
>>> auth.register("ANN", "other horse")
Traceback (most recent call last):
...
baccara.db.auth.AuthError: the name 'ANN' is taken
>>> auth.user_for_token(auth.login("Ann", "correct horse")).name
'ann'

A staff account (`baccara.db.staff`) logs in the same way; its session is a staff
member's, never a player's, and it has no wallet:

>>> from baccara.db.staff import Role
>>> staff = auth.create_staff("olga", "long password", Role.OPERATOR, actor="cli")
>>> token = auth.login("olga", "long password")
>>> auth.user_for_token(token) is None, auth.staff_for_token(token).role
(True, <Role.OPERATOR: 'operator'>)
>>> auth.staff_for_token(auth.login("ann", "correct horse")) is None
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from baccara.db import audit
from baccara.db.accounts import find_player
from baccara.db.database import writing
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.protections import Protections, protections_of
from baccara.db.schema import play_limits, users, web_sessions
from baccara.db.sessions import revoke
from baccara.db.staff import Role, Staff

__all__ = [
    "Auth",
    "AuthError",
    "Excluded",
    "User",
    "good_name",
    "good_password",
    "token_digest",
]

SESSION_SECONDS = 7 * 24 * 3600
_NAME = re.compile(r"[A-Za-z0-9_-]{3,24}")  # with fullmatch: no "$" before a newline
_BAD_NAME = "bad name: 3 to 24 characters, letters, digits, '_' or '-' only"
_BAD_PASSWORD = "bad password: 8 to 128 characters"


def good_name(name: object) -> bool:
    """A name as registered: 3 to 24 ASCII letters, digits, ``_`` or ``-``, whole.

    >>> good_name("ann_1"), good_name("ann\\n"), good_name("ann\\x00"), good_name("ａｎｎ")
    (True, False, False, False)
    """
    return isinstance(name, str) and _NAME.fullmatch(name) is not None


def good_password(password: object) -> bool:
    """8 to 128 characters that UTF-8 can encode (no lone surrogate).

    >>> good_password("correct horse"), good_password("short"), good_password("\\ud800" * 9)
    (True, False, False)
    """
    if not isinstance(password, str) or not 8 <= len(password) <= 128:
        return False
    try:
        password.encode()
    except UnicodeEncodeError:
        return False
    return True


class AuthError(ValueError):
    """A refused registration or login."""


class Excluded(AuthError):
    """A player who excluded themselves (or whom the house suspended), logging in before
    it ends."""

    def __init__(self, message: str, code: str = "self_excluded") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True, kw_only=True)
class User:
    """A logged-in player: who, the id of their wallet account, and the digest of the
    session they act under (None: a registration's answer, before any session). What
    they may do with money is never read from here: the money gate reads it from the
    database in the transaction that moves it (`baccara.db.gate`)."""

    id: int
    name: str
    account: int
    session: str | None = None


class Auth:
    """Users and sessions in the ledger's database (its tables: `baccara.db.schema`)."""

    def __init__(
        self, ledger: Ledger, *, welcome: int = 100_000, now: Callable[[], float] = time.time
    ) -> None:
        self.ledger = ledger
        self.welcome = welcome
        self.now = now  # the clock of the sessions' start and expiry (given by the server)
        # Low-cost argon2id parameters keep logins fast on a small server; still salted
        # and memory-hard (RFC 9106's second recommended option uses 64 MiB).
        self.hasher = PasswordHasher(time_cost=2, memory_cost=19_456, parallelism=1)

    def register(self, name: str, password: str) -> User:
        """Create a player (name: 3-24 letters, digits, ``_`` or ``-``, unique whatever
        its case; password: 8-128)."""
        if not good_name(name):
            raise AuthError(_BAD_NAME)
        if not good_password(password):
            raise AuthError(_BAD_PASSWORD)
        digest = self.hasher.hash(password)
        try:
            with self.ledger.database.begin() as conn:
                key = conn.execute(
                    users.insert().values(
                        name=name,
                        name_key=name.lower(),
                        password_hash=digest,
                        created_at=datetime.fromtimestamp(self.now(), UTC),
                    )
                ).inserted_primary_key
        except sa.exc.IntegrityError:
            raise AuthError(f"the name {name!r} is taken") from None
        assert key is not None
        account = self.ledger.create_account(wallet_account(name))
        if self.welcome:  # play money; none on a real-money server (the cashier's only)
            self.ledger.deposit(account, self.welcome, ref=f"welcome:{name}")
        return User(id=int(key[0]), name=name, account=account)

    def create_staff(
        self, name: str, password: str, role: Role, *, actor: str, actor_role: Role | None = None
    ) -> Staff:
        """Create a staff account (`baccara.db.staff`: no wallet, no play) with the
        players' rules for its name and password, and write it to the audit log in the
        same transaction, as done by ``actor`` (``"cli"``: the command line) at this
        clock's time."""
        if not good_name(name):
            raise AuthError(_BAD_NAME)
        if not good_password(password):
            raise AuthError(_BAD_PASSWORD)
        role = Role(role)
        digest = self.hasher.hash(password)
        now = self.now()
        try:
            with writing(self.ledger.database) as conn:
                key = conn.execute(
                    users.insert().values(
                        name=name,
                        name_key=name.lower(),
                        password_hash=digest,
                        created_at=datetime.fromtimestamp(now, UTC),
                        role=role.value,
                    )
                ).inserted_primary_key
                assert key is not None
                audit.append(
                    conn,
                    actor=actor,
                    role=None if actor_role is None else actor_role.value,
                    action="staff.create",
                    target=name,
                    after={"name": name, "role": role.value},
                    now=now,
                )
        except sa.exc.IntegrityError:
            raise AuthError(f"the name {name!r} is taken") from None
        return Staff(id=int(key[0]), name=name, role=role)

    def login(self, name: str, password: str) -> str:
        """Check the password; return a new session token. The name may come in any
        case (an older account that differs from another only in case: exactly)."""
        row = None
        if good_name(name) and good_password(password):
            with self.ledger.database.connect() as conn:
                row = find_player(conn, name)
        if row is None:
            self.hasher.hash("no such player")  # the same cost whether or not the name exists
            raise AuthError("wrong name or password")
        try:
            self.hasher.verify(row["password_hash"], password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise AuthError("wrong name or password") from None
        now = self.now()
        protections = Protections(self.ledger.database).get(int(row["id"]), now=now)
        if protections.excluded(now):
            until = datetime.fromtimestamp(protections.excluded_until or 0, UTC)
            raise Excluded(f"you excluded yourself from play until {until:%Y-%m-%d %H:%M} UTC")
        if protections.suspended(now):
            raise Excluded("your account is suspended by the house", code="suspended")
        return self.start_session(int(row["id"]))

    def change_password(self, user: User, old: str, new: str) -> None:
        """Set a new password (the old one checked); every other session of the player
        ends (their sockets close: `baccara.server.infra.revocation`), this one goes on."""
        if not good_password(new):
            raise AuthError(_BAD_PASSWORD)
        with self.ledger.database.connect() as conn:
            stored = conn.execute(
                sa.select(users.c.password_hash).where(users.c.id == user.id)
            ).scalar()
        try:
            self.hasher.verify(str(stored), old)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise AuthError("wrong password") from None
        digest = self.hasher.hash(new)
        with writing(self.ledger.database) as conn:
            conn.execute(users.update().where(users.c.id == user.id).values(password_hash=digest))
            ended = conn.execute(
                sa.delete(web_sessions)
                .where(web_sessions.c.user_id == user.id, web_sessions.c.token_hash != user.session)
                .returning(web_sessions.c.token_hash)
            ).scalars()
            for session in list(ended):
                revoke(conn, user.id, str(session), now=self.now())

    def start_session(self, user_id: int) -> str:
        """A new session for a player whose password was just checked (or set); the
        account's last login is now."""
        token = secrets.token_urlsafe(32)
        now = self.now()
        with self.ledger.database.begin() as conn:
            conn.execute(
                web_sessions.insert().values(
                    token_hash=token_digest(token),
                    user_id=user_id,
                    expires=now + SESSION_SECONDS,
                )
            )
            conn.execute(users.update().where(users.c.id == user_id).values(last_login_at=now))
        return token

    def logout(self, token: str) -> None:
        """End a session (its sockets close, in every process: `revoke`)."""
        digest = token_digest(token)
        with writing(self.ledger.database) as conn:
            user = conn.execute(
                sa.delete(web_sessions)
                .where(web_sessions.c.token_hash == digest)
                .returning(web_sessions.c.user_id)
            ).scalar()
            if user is not None:
                revoke(conn, int(user), digest, now=self.now())

    def session_started(self, token: str | None) -> float | None:
        """When the live session of ``token`` began (epoch seconds), or None."""
        if not token:
            return None
        query = sa.select(web_sessions.c.expires).where(
            web_sessions.c.token_hash == token_digest(token),
            web_sessions.c.expires > self.now(),
        )
        with self.ledger.database.connect() as conn:
            expires = conn.execute(query).scalar()
        return None if expires is None else float(expires) - SESSION_SECONDS

    def staff_for_token(self, token: str | None) -> Staff | None:
        """The staff member of a live session, or None (a player's session: None)."""
        if not token:
            return None
        query = (
            sa.select(users.c.id, users.c.name, users.c.role)
            .join(web_sessions, web_sessions.c.user_id == users.c.id)
            .where(
                web_sessions.c.token_hash == token_digest(token),
                web_sessions.c.expires > self.now(),
                users.c.role.is_not(None),
            )
        )
        with self.ledger.database.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        return Staff(
            id=int(row.id), name=row.name, role=Role(row.role), session=token_digest(token)
        )

    def user_for_token(self, token: str | None) -> User | None:
        """The player of a live session, or None (a staff member's session: None, as
        a staff account plays nothing)."""
        if not token:
            return None
        now = self.now()
        query = (
            sa.select(users.c.id, users.c.name, *play_limits.c)
            .join(web_sessions, web_sessions.c.user_id == users.c.id)
            .outerjoin(play_limits, play_limits.c.user_id == users.c.id)
            .where(
                web_sessions.c.token_hash == token_digest(token),
                web_sessions.c.expires > now,
                users.c.role.is_(None),
            )
        )
        with self.ledger.database.connect() as conn:
            row = conn.execute(query).mappings().first()
        if row is None:
            return None
        protections = protections_of(row if row["user_id"] is not None else None, now)
        # a session opened before an exclusion or a suspension ends with it
        if protections.excluded(now) or protections.suspended(now):
            return None
        return User(
            id=int(row["id"]),
            name=row["name"],
            account=self.ledger.create_account(wallet_account(row["name"])),
            session=token_digest(token),
        )


def token_digest(token: str) -> str:
    """What the database keeps of a session token (its SHA-256, never the token)."""
    return hashlib.sha256(token.encode()).hexdigest()
