"""Alembic migrations of the one schema (`baccara.db.schema`); run by `baccara.db.migrate`."""
