"""Many players at once for the load tests and the capacity benchmark: accounts,
wallets and sessions written straight into the database (one password hash for all),
instead of a registration each, whose argon2 hash is made slow on purpose.

>>> import tempfile
>>> url = f"sqlite:///{tempfile.mkdtemp()}/enroll.db"
>>> tokens = enroll(url, ["ann_e", "bob_e"], balance=5_000)
>>> sorted(tokens), len(tokens["ann_e"]) > 20
(['ann_e', 'bob_e'], True)
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime

from argon2 import PasswordHasher

from baccara.db import books
from baccara.db.auth import SESSION_SECONDS, token_digest
from baccara.db.database import writing
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.schema import users, web_sessions

__all__ = ["enroll"]


def enroll(url: str, names: list[str], *, balance: int) -> dict[str, str]:
    """Create each player of ``names`` with ``balance`` in the wallet and a session;
    each one's session token (the cookie), in one transaction."""
    ledger = Ledger.connect(url)
    digest = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("enrolled")
    now = datetime.now(UTC)
    tokens = {name: secrets.token_urlsafe(32) for name in names}
    try:
        with writing(ledger.database) as conn:
            conn.execute(
                users.insert(),
                [
                    {"name": n, "name_key": n.lower(), "password_hash": digest, "created_at": now}
                    for n in names
                ],
            )
            ids = dict(
                conn.execute(users.select().with_only_columns(users.c.name, users.c.id)).all()
            )
            conn.execute(
                web_sessions.insert(),
                [
                    {
                        "token_hash": token_digest(token),
                        "user_id": ids[name],
                        "expires": time.time() + SESSION_SECONDS,
                    }
                    for name, token in tokens.items()
                ],
            )
            wallets = [books.account_id(conn, wallet_account(n)) for n in names]
            books.post_many(
                conn,
                [
                    books.Posting(
                        memo=f"deposit enroll:{name}", moves={ledger.cashier: -balance, w: balance}
                    )
                    for name, w in zip(names, wallets, strict=True)
                ],
            )
    finally:
        ledger.database.dispose()
    return tokens
