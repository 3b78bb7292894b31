"""Money and records in SQL: `store` (sessions, seats, hand history) and `ledger` (the
online table's double-entry ledger)."""
