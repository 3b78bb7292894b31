"""The server's figures in Prometheus' text format (`Metrics`), shared by the processes
of one machine (`MetricsFolder`).

A server process keeps its figures in files of prometheus-client's multiprocess mode, in
a folder that every process of the machine shares (``baccara serve --metrics-dir``; a
fresh one of its own otherwise), so that ``/metrics`` asked of any process answers for
all of them: the counters and the histogram summed over the processes, the gauges that
belong to one process (open sockets, the writer's queue) with its ``pid``. Recording is
cheap on purpose: an increment is a write into a memory-mapped file under a lock, the
bet path records once per bet, and the writer's queue is sampled once a second rather
than at every bet.

Without a folder (the tests' servers in their own process), the figures stay in the
process's memory, in a registry of their own.

>>> metrics = Metrics()
>>> metrics.round_ended("punto-banco", "ez", "settled")
>>> metrics.bet_refused("insufficient_funds")
>>> text = metrics.exposition().decode()
>>> 'baccara_rounds_total{ended="settled",kind="punto-banco",variant="ez"} 1.0' in text
True
>>> 'baccara_bets_total{code="insufficient_funds",outcome="refused"} 1.0' in text
True
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import os
import secrets
import shutil
import tempfile
import time
from pathlib import Path

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)

__all__ = [
    "ACK_BUCKETS",
    "DB_ERRORS_AT",
    "DB_RETRIES_AT",
    "MADE",
    "METRIC_NAMES",
    "MULTIPROC_VARIABLE",
    "TABLE_STATES",
    "Metrics",
    "MetricsFolder",
    "fresh_folder",
]

MULTIPROC_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
"""The variable prometheus-client reads its multiprocess folder from."""

ACK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""A bet's acknowledgement time's buckets, in seconds."""

TABLE_STATES = ("open", "paused", "closing", "closed")
"""The states ``baccara_tables`` counts: the table list's, and ``closing`` for a table
closed whose last round still plays."""

DB_ERRORS_AT = ("writer", "table_list", "session_watch")
"""Where database work that failed is counted, once each: a write through the writer (a
batch of bets, a round's settlement...), the table list's reading, the session watch's
sweep."""

DB_RETRIES_AT = ("ledger", "table", "table_list", "session_watch")
"""Where work tried again is counted: the ledger's writes after a lock conflict (no
error), a table's work retried until done (a round's settlement, its recovery), the
table list's reading and the session watch's sweep (at their next turn)."""

METRIC_NAMES = (
    "baccara_bets_total",
    "baccara_bet_ack_seconds",
    "baccara_open_sockets",
    "baccara_tables",
    "baccara_rounds_total",
    "baccara_writer_queue",
    "baccara_db_errors_total",
    "baccara_db_retries_total",
)
"""Every figure the server exports (a histogram's as its family name)."""

_folder: str | None = None  # this process's multiprocess folder, once chosen


def _use_folder(folder: str) -> None:
    """Keep this process's figures in ``folder`` (once per process: prometheus-client
    chooses where values live when a metric is made)."""
    global _folder
    if _folder == folder:
        return
    if _folder is not None:
        raise ValueError(f"this process keeps its figures in {_folder}, not {folder}")
    os.environ[MULTIPROC_VARIABLE] = folder
    # a dead process's live gauges, under this one's pid, go
    multiprocess.mark_process_dead(os.getpid(), folder)  # type: ignore[no-untyped-call]
    values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]
    _folder = folder


class Metrics:
    """The server's figures (see the module); ``folder``: the machine's shared folder."""

    def __init__(self, folder: str | None = None) -> None:
        self.folder = folder
        self._held = None if folder is None else MetricsFolder(folder)
        if folder is not None:
            _use_folder(folder)
        # In multiprocess mode the values live in the folder's files, read at a scrape.
        own = CollectorRegistry(auto_describe=True) if folder is None else None
        self.registry = own
        self.bets = Counter(
            "baccara_bets",
            "Bets answered: accepted (code ok, or duplicate: sent again) or refused, by code.",
            ["outcome", "code"],
            registry=own,
        )
        self.bet_ack_seconds = Histogram(
            "baccara_bet_ack_seconds",
            "From a bet's message received to its acknowledgement sent (the server's clock).",
            buckets=ACK_BUCKETS,
            registry=own,
        )
        self.open_sockets = Gauge(
            "baccara_open_sockets",
            "WebSockets open, per process.",
            multiprocess_mode="liveall",
            registry=own,
        )
        self.tables = Gauge(
            "baccara_tables",
            "Tables by state, as the table list says (closing: closed, its round playing).",
            ["state"],
            multiprocess_mode="livemax",
            registry=own,
        )
        self.rounds = Counter(
            "baccara_rounds",
            "Rounds (a players' table's coups) ended, by game and how: settled or voided.",
            ["kind", "variant", "ended"],
            registry=own,
        )
        self.writer_queue = Gauge(
            "baccara_writer_queue",
            "Bets and other writes waiting for the database writer, per process.",
            multiprocess_mode="liveall",
            registry=own,
        )
        self.db_errors = Counter(
            "baccara_db_errors",
            "Database work that failed, by where.",
            ["where"],
            registry=own,
        )
        self.db_retries = Counter(
            "baccara_db_retries",
            "Database work tried again after a failure or a lock conflict, by where.",
            ["where"],
            registry=own,
        )
        self._accepted = self.bets.labels("accepted", "ok")
        self._duplicate = self.bets.labels("accepted", "duplicate")
        for state in TABLE_STATES:
            self.tables.labels(state)
        for where in DB_ERRORS_AT:  # shown at 0 before anything fails
            self.db_errors.labels(where)
        for where in DB_RETRIES_AT:
            self.db_retries.labels(where)

    # -- recording ------------------------------------------------------------------------

    def bet_acked(self, seconds: float, *, duplicate: bool = False) -> None:
        """A bet acknowledged, ``seconds`` after its message came."""
        (self._duplicate if duplicate else self._accepted).inc()
        self.bet_ack_seconds.observe(max(0.0, seconds))

    def bet_refused(self, code: str) -> None:
        """A bet refused with ``code`` (nothing changed)."""
        self.bets.labels("refused", code).inc()

    def bet_answer_text(self, text: str, seconds: float) -> None:
        """A bet's answer from another process (JSON): counted as `bet_acked` or
        `bet_refused`."""
        if not text.startswith(('{"type":"bet_ack"', '{"type":"error"')):
            return
        answer = json.loads(text)
        if answer["type"] == "bet_ack":
            self.bet_acked(seconds, duplicate=bool(answer.get("duplicate")))
        elif answer.get("bet_id") is not None:
            self.bet_refused(str(answer["code"]))

    def round_ended(self, kind: str, variant: str, ended: str) -> None:
        """A round of ``variant`` (game ``kind``) ended: ``settled`` or ``voided``."""
        self.rounds.labels(kind, variant, ended).inc()

    def db_failed(self, where: str, *, retried: bool) -> None:
        """Database work at ``where`` failed (and is tried again, if ``retried``)."""
        self.db_errors.labels(where).inc()
        if retried:
            self.db_retries.labels(where).inc()

    def db_retried(self, where: str) -> None:
        """Database work at ``where`` tried again (its failure, if any, counted where it
        failed: `db_failed`)."""
        self.db_retries.labels(where).inc()

    def tables_by_state(self, counts: dict[str, int]) -> None:
        """The tables in each state (a state left out: none)."""
        for state in TABLE_STATES:
            self.tables.labels(state).set(counts.get(state, 0))

    def close(self) -> None:
        """The server stops: let the folder go (`MetricsFolder.close`)."""
        if self._held is not None:
            self._held.close()

    # -- reading ---------------------------------------------------------------------------

    def exposition(self) -> bytes:
        """Every process's figures (this one's without a folder), in the text format.
        Files of processes that died without a word (SIGKILL) lose their gauges first."""
        if self.folder is None:
            assert self.registry is not None
            return generate_latest(self.registry)
        _sweep(self.folder)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=self.folder)  # type: ignore[no-untyped-call]
        return generate_latest(registry)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep(folder: str) -> None:
    """Mark dead the processes whose live gauges are in ``folder`` but which are gone."""
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        pid = Path(path).stem.rpartition("_")[2]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), folder)  # type: ignore[no-untyped-call]


def _clear(folder: Path) -> None:
    for path in folder.glob("*.db"):
        path.unlink(missing_ok=True)


MADE = ".made-by-baccara"
"""In a folder a server made (not the operator): the last process out removes it."""


FRESH_PREFIX = "baccara-metrics-"
STALE_SECONDS = 60.0  # a fresh folder nobody holds, this old: its process was killed


def fresh_folder() -> str:
    """A new folder's path (not made yet) for one process's figures, in the system's
    temporary folder: made by `MetricsFolder` and removed when the process ends. The
    fresh folders that processes killed without a word left (nobody holds their lock)
    are removed first."""
    for path in Path(tempfile.gettempdir()).glob(FRESH_PREFIX + "*"):
        with contextlib.suppress(OSError):
            if time.time() - path.stat().st_mtime > STALE_SECONDS and (path / MADE).exists():
                with (path / ".lock").open("a") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: in use
                    shutil.rmtree(path, ignore_errors=True)
    return os.path.join(tempfile.gettempdir(), FRESH_PREFIX + secrets.token_hex(8))


class MetricsFolder:
    """The folder a server process keeps its figures in, held while it runs.

    The machine's processes share it: the first to come (nobody else holds the folder's
    lock) clears what an earlier run left (processes killed without a word); each
    process's live gauges leave with it (`close`); the last one out clears it, and
    removes it if a server made it.

    >>> first = MetricsFolder(fresh_folder())
    >>> second = MetricsFolder(first.path)  # another process, as far as the lock knows
    >>> first.close(); os.path.isdir(first.path)
    True
    >>> second.close(); os.path.isdir(first.path)
    False
    """

    def __init__(self, path: str) -> None:
        self.path = path
        folder = Path(path)
        try:
            folder.mkdir(parents=True)
            (folder / MADE).touch()
        except FileExistsError:
            pass
        self._lock = (folder / ".lock").open("a")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            _clear(folder)  # nobody uses it: an earlier run's figures go
        except BlockingIOError:
            pass
        fcntl.flock(self._lock, fcntl.LOCK_SH)  # held while this process runs

    def close(self) -> None:
        """This process ends: its live gauges go; the last one out clears the folder."""
        if self._lock.closed:
            return
        folder = Path(self.path)
        multiprocess.mark_process_dead(os.getpid(), self.path)  # type: ignore[no-untyped-call]
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()  # others run on
            return
        _clear(folder)
        if (folder / MADE).exists():
            shutil.rmtree(folder, ignore_errors=True)
        self._lock.close()
