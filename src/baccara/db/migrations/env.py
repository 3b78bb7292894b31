"""Alembic's environment: migrate the connection `baccara.db.migrate.upgrade` hands over.

Alembic runs this file itself (it is never imported): online mode only, inside the
caller's write transaction.
"""

from __future__ import annotations

from alembic import context

from baccara.db.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - `baccara db upgrade` always passes one
    raise RuntimeError("baccara's migrations run through baccara.db.migrate.upgrade")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
