"""Services some tests need (PostgreSQL, chromium, node): skipped on a developer's
machine without them, a failure in CI (``CI=true``), where `.ci/run` installs them."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from typing import NoReturn

import pytest


def need_service(what: str, hint: str) -> NoReturn:
    """Skip (developer machine) or fail (CI) a test whose service is missing."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{what} is missing in CI: {hint}")
    pytest.skip(f"{what} is not available: {hint}")


@contextlib.contextmanager
def private_schema(base: str, prefix: str = "t") -> Iterator[str]:
    """A fresh schema in the PostgreSQL database at ``base`` (its URL, searching that
    schema), dropped afterwards."""
    import sqlalchemy as sa

    from baccara.db.database import normalize_url

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(normalize_url(base))
    try:
        with admin.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
        yield f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()
