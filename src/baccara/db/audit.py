"""The audit log: every staff action, appended, chained by hashes, changed by nobody.

An entry says who acted (a staff member's name, or ``cli`` for the machine's own
command line), in which role, what they did (``action``) to what (``target``), the
value before and after (JSON), and when (``at``: the caller's clock, epoch seconds;
this module reads no clock). Each entry carries the hash of the one before it
(``prev_hash``; the first follows `GENESIS`) and its own (``hash``): the SHA-256 of the
canonical JSON of its fields and ``prev_hash`` (`entry_hash`); the values before and
after are stored as the canonical JSON text that was hashed, so what is read back is
what was hashed (a ``1.0`` stays a ``1.0``). So changing, removing
or reordering an entry breaks the chain at it, and `verify` names the first entry
that does not hold.

The database refuses ``UPDATE`` and ``DELETE`` on ``audit_log`` (triggers, on SQLite and
PostgreSQL: revision 0010). Appends are serialised: `append` takes the log's lock in
the caller's transaction (PostgreSQL: ``LOCK TABLE ... IN EXCLUSIVE MODE``, which
readers pass; SQLite: the database's write lock a `baccara.db.database.writing`
transaction holds) before it reads the last entry, and numbers the entries itself, so
two writers can never fork the chain: the primary key refuses a second entry with the
same number.

>>> from baccara.db.database import database_at, writing
>>> from baccara.db.migrate import upgrade
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> with writing(database) as conn:
...     first = append(conn, actor="cli", role=None, action="staff.create",
...                    target="ann", after={"role": "operator"}, now=1_700_000_000.0)
>>> first.id, first.prev_hash == GENESIS, len(first.hash)
(1, True, 64)
>>> with writing(database) as conn:
...     second = append(conn, actor="ann", role="operator", action="table.pause",
...                     target="t1", before={"paused": False}, after={"paused": True},
...                     now=1_700_000_060.0)
>>> second.prev_hash == first.hash
True
>>> verify(database)
AuditCheck(count=2, broken=None, reason=None)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.db.schema import audit_log

__all__ = [
    "GENESIS",
    "MAX_PAGE",
    "AuditCheck",
    "AuditEntry",
    "Json",
    "append",
    "entries",
    "entry_hash",
    "lock",
    "verify",
]

Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None
"""A value JSON holds (an entry's ``before`` and ``after``)."""

GENESIS = "0" * 64
"""The ``prev_hash`` of the first entry: the chain starts from this fixed value."""

MAX_PAGE = 500
"""The most entries `entries` gives at once."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditEntry:
    """One entry of the audit log, as stored."""

    id: int
    at: float
    actor: str
    role: str | None
    action: str
    target: str
    before: Json
    after: Json
    prev_hash: str
    hash: str

    def expected_hash(self) -> str:
        """The hash this entry's fields and ``prev_hash`` give (`entry_hash`)."""
        return entry_hash(
            id=self.id,
            at=self.at,
            actor=self.actor,
            role=self.role,
            action=self.action,
            target=self.target,
            before=self.before,
            after=self.after,
            prev_hash=self.prev_hash,
        )


def _canonical(value: object) -> str:
    """One text for one JSON value: keys sorted, no spaces, UTF-8 as is, no NaN."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def entry_hash(
    *,
    id: int,
    at: float,
    actor: str,
    role: str | None,
    action: str,
    target: str,
    before: Json,
    after: Json,
    prev_hash: str,
) -> str:
    """The SHA-256 (hex) of the canonical JSON of an entry's fields and the hash before it.

    >>> fields = dict(id=1, at=0.0, actor="cli", role=None, action="staff.create",
    ...               target="ann", before=None, after={"role": "auditor"})
    >>> entry_hash(**fields, prev_hash=GENESIS) == entry_hash(**fields, prev_hash=GENESIS)
    True
    >>> entry_hash(**fields, prev_hash=GENESIS) == entry_hash(**{**fields, "target": "bob"},
    ...                                                       prev_hash=GENESIS)
    False
    """
    document = {
        "id": id,
        "at": float(at),
        "actor": actor,
        "role": role,
        "action": action,
        "target": target,
        "before": before,
        "after": after,
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(_canonical(document).encode()).hexdigest()


def _as_stored(value: Json) -> Json:
    """``value`` as the database gives it back (tuples as lists...), so that what is
    hashed is what is read; a value JSON cannot hold is a `ValueError`."""
    try:
        stored: Json = json.loads(_canonical(value))
    except (TypeError, ValueError) as error:
        raise ValueError(f"an audit entry's value must be JSON: {error}") from None
    return stored


def lock(conn: Connection) -> None:
    """Take the log's lock for the rest of ``conn``'s transaction (see the module): a
    writer that reads what it then changes and audits takes it first, so that two such
    writers run one after the other (PostgreSQL; SQLite has one writer anyway)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text(f"LOCK TABLE {audit_log.name} IN EXCLUSIVE MODE"))


_LONGEST = {
    name: length
    for name in ("actor", "action", "target")
    if isinstance(kind := audit_log.c[name].type, sa.String) and (length := kind.length)
}
"""The most characters of each text field (PostgreSQL refuses more)."""

_LAST = sa.select(audit_log.c.id, audit_log.c.hash).order_by(audit_log.c.id.desc()).limit(1)


def append(
    conn: Connection,
    *,
    actor: str,
    role: str | None,
    action: str,
    target: str,
    before: Json = None,
    after: Json = None,
    now: float,
) -> AuditEntry:
    """Append an entry in ``conn``'s transaction (a `baccara.db.database.writing` one,
    the same that makes the change it records: both are kept or neither); the entry.
    ``now`` is the caller's clock (epoch seconds)."""
    if not actor or not action:
        raise ValueError("an audit entry names its actor and its action")
    for name, text in (("actor", actor), ("action", action), ("target", target)):
        most = _LONGEST[name]
        if len(text) > most:
            raise ValueError(f"an audit entry's {name} is at most {most} characters")
    lock(conn)
    last = conn.execute(_LAST).first()
    number, prev_hash = (1, GENESIS) if last is None else (int(last.id) + 1, str(last.hash))
    entry = AuditEntry(
        id=number,
        at=float(now),
        actor=actor,
        role=role,
        action=action,
        target=target,
        before=_as_stored(before),
        after=_as_stored(after),
        prev_hash=prev_hash,
        hash="",
    )
    digest = entry.expected_hash()
    conn.execute(
        audit_log.insert().values(
            id=entry.id,
            at=entry.at,
            actor=entry.actor,
            role=entry.role,
            action=entry.action,
            target=entry.target,
            before=_canonical(entry.before),  # the text hashed, kept as text
            after=_canonical(entry.after),
            prev_hash=entry.prev_hash,
            hash=digest,
        )
    )
    return replace(entry, hash=digest)


def _entry(row: Mapping[Any, Any]) -> AuditEntry:
    return AuditEntry(
        id=int(row["id"]),
        at=float(row["at"]),
        actor=str(row["actor"]),
        role=None if row["role"] is None else str(row["role"]),
        action=str(row["action"]),
        target=str(row["target"]),
        before=json.loads(row["before"]),
        after=json.loads(row["after"]),
        prev_hash=str(row["prev_hash"]),
        hash=str(row["hash"]),
    )


def entries(database: Engine, *, after: int = 0, limit: int = 100) -> list[AuditEntry]:
    """The entries whose id is past ``after``, oldest first, at most ``limit``
    (1 to `MAX_PAGE`).

    >>> from baccara.db.database import database_at
    >>> from baccara.db.migrate import upgrade
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> entries(database, after=0, limit=10)
    []
    >>> entries(database, limit=0)
    Traceback (most recent call last):
    ...
    ValueError: bad limit 0: 1 to 500 entries
    """
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"bad limit {limit}: 1 to {MAX_PAGE} entries")
    if after < 0:
        raise ValueError(f"bad after {after}: an entry's id, 0 or more")
    query = sa.select(audit_log).where(audit_log.c.id > after).order_by(audit_log.c.id).limit(limit)
    with database.connect() as conn:
        return [_entry(row) for row in conn.execute(query).mappings()]


def _all(database: Engine, page: int = 1_000) -> Iterator[AuditEntry]:
    """Every entry, oldest first, read a page at a time."""
    after = 0
    while found := entries(database, after=after, limit=min(page, MAX_PAGE)):
        yield from found
        after = found[-1].id


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditCheck:
    """What `verify` found: how many entries it walked, and the first broken one (its
    id and why), or None when the chain holds."""

    count: int
    broken: int | None = None
    reason: str | None = None

    @property
    def whole(self) -> bool:
        """Whether every entry holds."""
        return self.broken is None


def verify(database: Engine) -> AuditCheck:
    """Walk the chain from `GENESIS`: each entry must follow the one before it (its
    ``prev_hash`` is that one's ``hash``, its id the next number) and hash to its
    ``hash``. The first entry that does not is named, with why; ``count`` is how many
    entries were read up to it (all of them when the chain holds).

    An entry removed from the end leaves a chain that holds: compare ``count`` (or the
    last hash) with one noted before to see that.
    """
    count, previous = 0, GENESIS
    for count, entry in enumerate(_all(database), start=1):
        if entry.id != count:
            why = f"entry {count} is missing before it" if entry.id > count else "out of order"
            return AuditCheck(count=count, broken=entry.id, reason=why)
        if entry.prev_hash != previous:
            why = "its prev_hash is not the hash of the entry before it"
            return AuditCheck(count=count, broken=entry.id, reason=why)
        if entry.hash != entry.expected_hash():
            why = "its hash does not match its contents"
            return AuditCheck(count=count, broken=entry.id, reason=why)
        previous = entry.hash
    return AuditCheck(count=count)
