"""A network between a browser and a server that a test can take away: a TCP proxy on
127.0.0.1 (its own thread and event loop) that forwards to ``target``.

``cut()`` is a network gone quiet, as a train enters a tunnel: connections stay open
but nothing passes either way (what was sent waits, as TCP keeps it) and a new
connection is refused. ``restore()`` lets it pass again. (A browser's offline mode
does not touch an open WebSocket, so a page's reconnecting can only be tested this way.)
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from types import TracebackType

from tests.support.harness import free_port

__all__ = ["Proxy"]


class Proxy:
    """Forwards ``127.0.0.1:port`` to ``127.0.0.1:target``."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.flowing = asyncio.Event()
        self.connections = 0  # accepted while the network was up
        self.refused = 0
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Proxy:
        self.thread.start()
        self._call(self._start())
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._call(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()

    def cut(self) -> None:
        """Nothing passes, and new connections are refused, until `restore`."""
        self.loop.call_soon_threadsafe(self.flowing.clear)

    def restore(self) -> None:
        """What waited passes, and new connections are taken."""
        self.loop.call_soon_threadsafe(self.flowing.set)

    def _call(self, work: object) -> None:
        asyncio.run_coroutine_threadsafe(work, self.loop).result(10)  # type: ignore[arg-type]

    async def _start(self) -> None:
        self.flowing.set()
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _stop(self) -> None:
        if self.server is not None:
            self.server.close()
        tasks = asyncio.all_tasks() - {asyncio.current_task()}
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.flowing.is_set():
            self.refused += 1
            writer.transport.abort()
            return
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self.flowing.wait()
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                writer.close()
