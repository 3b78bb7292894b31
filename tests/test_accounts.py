"""Finding an account by the name typed (`baccara.db.accounts`): with the older
accounts "Ann" (key "ann") and "ANN" (no key, revision 0005), "ANN" is ANN and any
other case is Ann, for the house's stops of logins as for logins and the cashier."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy.engine import Engine

from baccara.db import audit
from baccara.db.database import writing
from baccara.db.ledger import Ledger
from baccara.db.protections import Protections, stop_logins, suspend
from baccara.db.schema import users

NOW = 1e9


@pytest.fixture
def database(database_url: str) -> Iterator[Engine]:
    book = Ledger.connect(database_url)
    made = datetime.now(UTC)
    with writing(book.database) as conn:
        conn.execute(
            users.insert(),
            [
                {
                    "id": 1,
                    "name": "Ann",
                    "name_key": "ann",
                    "password_hash": "x",
                    "created_at": made,
                },
                {
                    "id": 2,
                    "name": "ANN",
                    "name_key": None,
                    "password_hash": "x",
                    "created_at": made,
                },
            ],
        )
    try:
        yield book.database
    finally:
        book.database.dispose()


def _suspended(database: Engine) -> list[int]:
    return [user for user in (1, 2) if Protections(database).get(user, now=NOW).suspended(NOW)]


def test_stopping_the_logins_of_ann_in_capitals_stops_that_account(database: Engine) -> None:
    assert stop_logins(database, "ANN", stopped=True, actor="olga", role="operator", now=NOW) == 2
    assert _suspended(database) == [2]
    assert [entry.target for entry in audit.entries(database)] == ["ANN"]


def test_any_other_case_finds_the_keyed_account_and_audits_its_registered_name(
    database: Engine,
) -> None:
    assert stop_logins(database, "aNN", stopped=True, actor="olga", role="operator", now=NOW) == 1
    assert _suspended(database) == [1]
    assert [entry.target for entry in audit.entries(database)] == ["Ann"]
    assert suspend(database, "ANN", None, now=NOW) == 2
