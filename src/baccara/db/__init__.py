"""Money and records in SQL, one schema for the terminal and the web (docs/db.md).

`database` (the one database: its default location, `database_at` opens it), `schema` (every table),
`migrations` and `migrate` (Alembic, applied on open), `books` (the one posting API and
the invariants), `betting` (a bet's checks and limits), `ledger` (the online table's
money), `store` (the terminal table's sessions and hand history).
"""
