"""A server in the test's own process: the app under uvicorn, on a thread of its own
(its own event loop), on 127.0.0.1, with the settings of ``baccara serve``.

`ServerThread` is `tests.support.harness.ServerProcess` without the process: the same
``url``, ``ws_url``, ``config``, ``start``/``stop`` and log, so that `Player`, the
typed client, httpx and the ``websockets`` client talk to it over real sockets as to a
server process. A start costs no new interpreter (no imports, no forking); what the
server logs at WARNING and above goes to the log, with its tracebacks. Use a process
where the process is the point: a crash (SIGKILL), several processes on one database,
the serve lock, clients that must outpace the server (a flood, a throttle raced: here
they share its interpreter), a browser, a soak.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from tests.support.harness import CrashPoints, free_port

from baccara.db.serve_lock import ServeLock, hold
from baccara.server.app import ServerConfig, create_app
from baccara.server.infra.clock import Clock

__all__ = ["ServerThread"]


@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    """``env`` set in ``os.environ`` for the block."""
    before = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class ServerThread:
    """A ``baccara`` server on a thread of this process, on 127.0.0.1."""

    def __init__(self, config: ServerConfig, *, log: Path, clock: Clock | None = None) -> None:
        self.config = config
        self.port = free_port()
        self.log = log
        self.clock = clock
        self._server: object | None = None
        self._thread: threading.Thread | None = None
        self._handler: logging.Handler | None = None
        self._lock: ServeLock | None = None
        self._gc_threshold = gc.get_threshold()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The WebSocket address."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 60.0, **env: str) -> ServerThread:
        """Start (or restart) the server and wait until it listens (its tables started).
        ``env`` sets the fault hook as a process's environment does (`CrashPoints`:
        ``BACCARA_FAIL_AT`` and ``BACCARA_FAIL_TIMES``; a crash point would end this
        process, so it is refused)."""
        import uvicorn

        from baccara.server.infra.edge import uvicorn_options

        if "BACCARA_CRASH_AT" in env:
            raise ValueError("a crash point kills its process: crash a ServerProcess")
        with _environment(env):
            fault = CrashPoints()
        self._lock = hold(self.config.database_url, "baccara serve")  # as `baccara serve` does
        self._handler = logging.FileHandler(self.log)
        self._handler.setLevel(logging.WARNING)
        self._handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(self._handler)
        app = create_app(self.config, fault=fault, clock=self.clock)
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                log_config=None,  # the root logger's handlers: the log above
                **uvicorn_options(self.config),
            )
        )
        self._server = server
        self._thread = threading.Thread(
            target=asyncio.run, args=(server.serve(),), name=f"server:{self.port}", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive():
                raise RuntimeError(f"the server ended as it started: see {self.log}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start in {timeout} s: see {self.log}")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop the server cleanly (its tables stopped, its database closed)."""
        import uvicorn

        server, thread = self._server, self._thread
        if isinstance(server, uvicorn.Server) and thread is not None:
            server.should_exit = True
            thread.join(30)
            assert not thread.is_alive(), f"the server did not stop in 30 s: see {self.log}"
        self._server = self._thread = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._handler is not None:
            logging.getLogger().removeHandler(self._handler)
            self._handler.close()
            self._handler = None
        # the server's start froze what it found out of the collector, for a server's life
        with contextlib.suppress(Exception):
            gc.unfreeze()
            gc.set_threshold(*self._gc_threshold)

    def kill(self) -> None:
        """Stop the server (there is no process to kill: see `stop`)."""
        self.stop()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
