"""The audit log (`baccara.db.audit`) on SQLite and PostgreSQL: a chain of hashes the
database refuses to change, appended by one writer at a time even from two processes,
and ``baccara admin audit verify`` naming the first entry edited behind the triggers'
back."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine

from baccara.cli import main
from baccara.db.audit import GENESIS, Json, append, entries, entry_hash, verify
from baccara.db.database import database_at, writing
from baccara.db.migrate import upgrade

T0 = 1_795_651_200.0  # 2026-11-26 00:00 UTC


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = database_at(database_url)
    upgrade(made)
    yield made
    made.dispose()


def _fill(engine: Engine, count: int) -> None:
    for number in range(1, count + 1):
        with writing(engine) as conn:
            append(
                conn,
                actor="olga",
                role="operator",
                action="table.limits",
                target=f"t{number}",
                before={"max_bet": 100_00, "note": "ünïcode"},
                after={"max_bet": 200_00, "ratio": 0.1},
                now=T0 + number,
            )


def test_entries_chain_from_the_genesis_and_read_back_as_hashed(engine: Engine) -> None:
    _fill(engine, 3)
    found = entries(engine)
    assert [e.id for e in found] == [1, 2, 3]
    assert found[0].prev_hash == GENESIS
    assert [e.prev_hash for e in found[1:]] == [e.hash for e in found[:-1]]
    assert all(e.hash == e.expected_hash() for e in found)  # what is read is what was hashed
    assert found[1].before == {"max_bet": 100_00, "note": "ünïcode"}
    assert found[1].at == T0 + 2
    assert verify(engine).whole and verify(engine).count == 3
    assert [e.id for e in entries(engine, after=1, limit=1)] == [2]


def test_the_clock_is_the_callers(engine: Engine) -> None:
    with writing(engine) as conn:
        entry = append(conn, actor="cli", role=None, action="staff.create", target="x", now=42)
    assert entry.at == 42.0 and entries(engine)[0].at == 42.0
    assert verify(engine).whole


def test_a_value_json_cannot_hold_is_refused_and_nothing_is_appended(engine: Engine) -> None:
    with pytest.raises(ValueError, match="must be JSON"), writing(engine) as conn:
        append(
            conn, actor="cli", role=None, action="x", target="y", after={"n": float("nan")}, now=T0
        )
    assert entries(engine) == []


def test_a_field_too_long_is_refused_before_the_database_sees_it(engine: Engine) -> None:
    for field, most in (("actor", 24), ("action", 40), ("target", 200)):
        fields = {"actor": "cli", "action": "x", "target": "y", field: "z" * (most + 1)}
        with pytest.raises(ValueError, match=f"{field} is at most {most}"), writing(engine) as conn:
            append(conn, role=None, now=T0, **fields)
    assert entries(engine) == []


def test_the_database_refuses_to_change_or_remove_an_entry(engine: Engine) -> None:
    _fill(engine, 2)
    before = entries(engine)
    statements = ["UPDATE audit_log SET target = 'elsewhere'", "DELETE FROM audit_log"]
    if engine.dialect.name == "postgresql":
        statements.append("TRUNCATE audit_log")
    for statement in statements:
        with pytest.raises(sa.exc.DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(sa.text(statement))
    assert entries(engine) == before


def _behind_the_triggers(engine: Engine, statement: str) -> None:
    """Run ``statement`` on ``audit_log`` with its triggers dropped, then put them back
    (as someone with the database's keys could)."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(sa.text("DROP TRIGGER audit_log_no_update"))
            conn.execute(sa.text("DROP TRIGGER audit_log_no_delete"))
            conn.execute(sa.text(statement))
            for action in ("UPDATE", "DELETE"):
                conn.execute(
                    sa.text(
                        f"CREATE TRIGGER audit_log_no_{action.lower()} BEFORE {action} ON "
                        "audit_log BEGIN SELECT RAISE(ABORT, 'audit_log are append-only'); END"
                    )
                )
        else:
            conn.execute(sa.text("DROP TRIGGER audit_log_append_only ON audit_log"))
            conn.execute(sa.text(statement))
            conn.execute(
                sa.text(
                    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log "
                    "FOR EACH ROW EXECUTE FUNCTION baccara_append_only()"
                )
            )
    with pytest.raises(sa.exc.DBAPIError, match="append-only"), engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM audit_log"))  # the triggers are back


def _verify(url: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["admin", "audit", "verify", "--db", url])
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_names_an_entry_edited_behind_the_triggers(
    engine: Engine, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(engine, 4)
    assert _verify(database_url, capsys) == (0, "the audit log holds: 4 entries\n", "")
    _behind_the_triggers(engine, "UPDATE audit_log SET after = '{\"max_bet\": 1}' WHERE id = 3")
    code, out, err = _verify(database_url, capsys)
    assert (code, err) == (1, "")
    assert out == "the audit log is broken at entry 3: its hash does not match its contents\n"


def test_verify_names_the_entry_after_one_rehashed_or_removed(
    engine: Engine, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _fill(engine, 4)
    second = entries(engine)[1]
    forged = entry_hash(
        id=2,
        at=second.at,
        actor="mallory",
        role=second.role,
        action=second.action,
        target=second.target,
        before=second.before,
        after=second.after,
        prev_hash=second.prev_hash,
    )  # a forger who recomputes the edited entry's hash breaks the next one
    _behind_the_triggers(
        engine, f"UPDATE audit_log SET actor = 'mallory', hash = '{forged}' WHERE id = 2"
    )
    code, out, _ = _verify(database_url, capsys)
    assert code == 1
    assert out == (
        "the audit log is broken at entry 3: its prev_hash is not the hash of the entry before it\n"
    )
    _behind_the_triggers(engine, "DELETE FROM audit_log WHERE id = 3")
    code, out, _ = _verify(database_url, capsys)
    assert (code, out) == (1, "the audit log is broken at entry 4: entry 3 is missing before it\n")
    assert main(["admin", "audit", "verify", "--db", database_url, "--json"]) == 1
    assert capsys.readouterr().out == (
        '{"whole":false,"count":3,"broken":4,"reason":"entry 3 is missing before it"}\n'
    )


_APPENDER = """
import sys
from baccara.db.audit import append
from baccara.db.database import database_at, writing

url, who, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
engine = database_at(url)
with engine.connect():
    pass
print("ready", flush=True)
assert sys.stdin.readline() == "go\\n"
for number in range(count):
    with writing(engine) as conn:
        append(conn, actor=who, role="operator", action="race", target=str(number), now=number)
engine.dispose()
"""


def test_two_processes_appending_at_once_make_one_chain(engine: Engine, database_url: str) -> None:
    """Two processes, started together (each says ready, then both are told to go),
    append 150 entries each: every one is kept, in one chain (without the log's lock,
    on PostgreSQL both read the same last entry and one's insert is refused)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", _APPENDER, database_url, who, "150"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=Path(__file__).parents[1],
        )
        for who in ("ann", "bob")
    ]
    for racer in racers:
        assert racer.stdout is not None
        assert racer.stdout.readline() == "ready\n"
    for racer in racers:
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    for racer in racers:
        _, err = racer.communicate(timeout=300)
        assert racer.returncode == 0, err
    found = verify(engine)
    assert (found.whole, found.count) == (True, 300)
    actors = [e.actor for e in entries(engine, limit=300)]
    assert sorted(actors) == ["ann"] * 150 + ["bob"] * 150


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**62), max_value=2**62)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(before=JSON_VALUES, after=JSON_VALUES, target=st.text(max_size=200), now=st.floats(0, 4e9))
def test_any_json_value_reads_back_as_it_was_hashed(
    engine: Engine, before: Json, after: Json, target: str, now: float
) -> None:
    """Whatever JSON an entry holds (unicode, floats, nesting), the database gives back
    what was hashed: the chain holds after every append."""
    target = target.replace("\x00", "")  # PostgreSQL stores no NUL in text
    with writing(engine) as conn:
        made = append(
            conn, actor="cli", role=None, action="fuzz", target=target, before=before,
            after=after, now=now,
        )  # fmt: skip
    (read,) = entries(engine, after=made.id - 1, limit=1)
    assert read == made and read.expected_hash() == made.hash  # 1 == 1.0, but not as JSON
    assert verify(engine).whole


def test_a_float_alone_reads_back_a_float(engine: Engine) -> None:
    """A JSON column on SQLite reads a ``1.0`` stored alone as the number 1 (its
    affinity is NUMERIC): the entry would no longer match its hash (the fuzz above
    found it)."""
    with writing(engine) as conn:
        append(conn, actor="cli", role=None, action="x", target="y", before=1.0, after=2, now=T0)
    (read,) = entries(engine)
    assert (repr(read.before), repr(read.after)) == ("1.0", "2")
    assert verify(engine).whole
