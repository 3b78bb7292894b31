"""Fast server starts: a helper process imports the server once and forks each start.

A crash cycle starts the server again and again. Started afresh
(``python -m tests.support.harness``), each start is a new interpreter importing
FastAPI, pydantic, SQLAlchemy, Alembic, uvicorn and the package: most of a cycle. The
`Forker` starts one helper (``python -m tests.support.forker``) that imports all of
that (and reads the migrations' head revision) once, and freezes it out of the garbage
collector as the server's start-up does; for each start it forks a child
that runs what ``python -m tests.support.harness`` runs, `harness._main`: `create_app`
with the crash hook, under uvicorn, on its port, its output to the log. The child is a
process of its own: it opens its own database connections, threads and event loop (the
helper opens none, and refuses to fork with a thread running), so a SIGKILL ends it
exactly as it ends a fresh process; only the imports are shared, and the random
module is seeded afresh in each child.

The helper is the children's parent: it reaps them and reports their status as
`subprocess.Popen` does (-9 after SIGKILL). It speaks one JSON line per request on
its standard input and answers one per line on its standard output.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["Forked", "Forker"]

REPO_ROOT = Path(__file__).resolve().parents[2]


class Forked:
    """A server forked by the helper (what `ServerProcess` needs of `subprocess.Popen`)."""

    def __init__(self, forker: Forker, pid: int) -> None:
        self.forker = forker
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit status if the process has ended, else None."""
        if self.returncode is None:
            self.returncode = self.forker.status(self.pid, 0.0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the process to end; its status (`subprocess.TimeoutExpired` if not)."""
        if self.returncode is None:
            self.returncode = self.forker.status(self.pid, 1e9 if timeout is None else timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0.0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        """Signal the process (nothing if it has ended and been reaped)."""
        if self.poll() is None:
            os.kill(self.pid, sig)


class Forker:
    """The helper that forks servers (a `tests.support.harness.Launcher`)."""

    def __init__(self, log: Path) -> None:
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(REPO_ROOT), environment.get("PYTHONPATH")])
        )
        with log.open("ab") as errors:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.support.forker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=environment,
            )
        self.log = log
        self._ask({"op": "ready"})  # once the imports are done

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the forker died ({self.proc.wait()}): see {self.log}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the forker: {answer['error']}")
        return answer

    def launch(self, argv: list[str], env: dict[str, str], log: Path) -> Forked:
        """Fork a server running ``harness._main(argv)`` with exactly ``env`` as its
        environment, its output appended to ``log``."""
        answer = self._ask({"op": "start", "argv": argv, "env": env, "log": str(log)})
        return Forked(self, int(answer["pid"]))

    def status(self, pid: int, timeout: float) -> int | None:
        """Server ``pid``'s exit status, waiting up to ``timeout`` s; None if it runs."""
        status = self._ask({"op": "wait", "pid": pid, "timeout": timeout})["status"]
        return None if status is None else int(status)

    def close(self) -> None:
        """End the helper (its servers must have ended): it ends at the end of its input."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()

    def __enter__(self) -> Forker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- the helper --------------------------------------------------------------------------


def _warm() -> None:
    """Import what a server imports before it answers (and read the migrations' head)."""
    import contextlib

    import argon2  # noqa: F401  (password hashing)
    import uvicorn.lifespan.on
    import uvicorn.loops.auto
    import uvicorn.protocols.websockets.auto  # noqa: F401
    from tests.support import harness  # noqa: F401

    from baccara.db.migrate import head
    from baccara.server.app import create_app  # noqa: F401
    from baccara.server.infra.edge import uvicorn_options  # noqa: F401

    with contextlib.suppress(ImportError):  # PostgreSQL's driver, where installed
        import psycopg  # noqa: F401
    head()


def _child(argv: list[str], env: dict[str, str], log: str) -> None:
    """In the forked child: become the server (never returns)."""
    code = 1
    try:
        out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.close(null)
        os.environ.clear()
        os.environ.update(env)
        import random

        random.seed()  # not the helper's sequence
        from tests.support.harness import _main

        _main(argv)
        code = 0
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _serve() -> None:
    _warm()
    # What the helper holds is what the server's start-up would freeze out of the
    # collector (`create_app`'s lifespan: ``gc.collect(); gc.freeze()``): frozen here
    # once, each child's pass scans only its own objects (0.08 s a start, otherwise).
    gc.collect()
    gc.freeze()
    reaped: dict[int, int] = {}
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        answer: dict[str, Any]
        if op == "ready":
            answer = {}
        elif op == "start":
            if threading.active_count() != 1:
                answer = {"error": "a thread runs in the forker: it cannot fork safely"}
            else:
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    _child(request["argv"], request["env"], request["log"])
                answer = {"pid": pid}
        elif op == "wait":
            answer = {"status": _wait(reaped, int(request["pid"]), float(request["timeout"]))}
        else:
            answer = {"error": f"unknown request {op!r}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def _wait(reaped: dict[int, int], pid: int, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while pid not in reaped:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            reaped[pid] = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.002)
    return reaped[pid]


if __name__ == "__main__":
    _serve()
