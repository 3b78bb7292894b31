"""The capacity benchmark's load generator, in a process of its own.

``python -m bench.loadgen`` reads a JSON plan on stdin: the players (``ws``: the
WebSocket address of the process to use, ``table``, ``token``: the session cookie),
``pace`` (seconds between a player's bets while betting is open), ``warmup`` and
``seconds`` (the measured window). Each player joins its table and, at every
``round_open``, bets every ``pace`` seconds (the first at a random moment) until
0.3 s before the close, without waiting for the answers, as a person clicks. It prints
one JSON line: the bets sent and acknowledged in the window, the errors by code, the
acknowledgement times (p50, p99, max, in seconds) and its own CPU time.

Only ``round_open``, ``bet_ack`` and ``error`` are parsed; every other message is
counted and dropped, so the generator's own work stays small beside the server's.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
import uuid
from collections import Counter
from typing import Any

import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException


class Stats:
    """What the players saw in the measured window."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = start, end
        self.sent = 0
        self.times: list[float] = []
        self.errors: Counter[str] = Counter()
        self.messages = 0
        self.connected = 0
        self.failed = 0

    def counts(self, sent_at: float) -> bool:
        return self.start <= sent_at < self.end


async def _bets(
    ws: Any,
    opened: dict[str, Any],
    pace: float,
    sent: dict[str, float],
    rng: random.Random,
    stats: Stats,
) -> None:
    closes = float(opened["closes_at"]) - 0.3
    await asyncio.sleep(rng.uniform(0, pace))
    while time.time() < closes:
        bet_id = uuid.uuid4().hex[:12]
        now = time.perf_counter()
        sent[bet_id] = now
        if stats.counts(now):
            stats.sent += 1
        message = {
            "type": "bet",
            "bet_id": bet_id,
            "kind": "banker",
            "amount": 1_000,
            "round": opened["round"],
        }
        await ws.send(json.dumps(message))
        await asyncio.sleep(pace)


async def _player(target: dict[str, Any], pace: float, stats: Stats, stop: float) -> None:
    rng = random.Random(target["token"])
    sent: dict[str, float] = {}
    betting: asyncio.Task[None] | None = None
    try:
        async with connect(
            target["ws"],
            additional_headers={"Cookie": f"baccara_session={target['token']}"},
            open_timeout=60,
            close_timeout=1,
            max_size=2**22,
            max_queue=None,
            compression=None,
        ) as ws:
            await ws.send(json.dumps({"type": "join", "table": target["table"]}))
            stats.connected += 1
            while time.perf_counter() < stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), max(0.1, stop - time.perf_counter()))
                except TimeoutError:
                    break
                stats.messages += 1
                head = text[:120]
                if '"type":"bet_ack"' in head or '"type":"error"' in head:
                    got = time.perf_counter()
                    message = json.loads(text)
                    at = sent.pop(message.get("bet_id") or "", None)
                    if at is not None and stats.counts(at):
                        if message["type"] == "bet_ack":
                            stats.times.append(got - at)
                        else:
                            stats.errors[message["code"]] += 1
                elif '"type":"round_open"' in head:
                    if betting is not None:
                        betting.cancel()
                    betting = asyncio.create_task(
                        _bets(ws, json.loads(text), pace, sent, rng, stats)
                    )
    except (WebSocketException, OSError):
        stats.failed += 1
    finally:
        if betting is not None:
            betting.cancel()


async def run(plan: dict[str, Any]) -> dict[str, Any]:
    """Run the plan; the figures of the measured window."""
    begin = time.perf_counter()
    start = begin + float(plan["warmup"])
    stats = Stats(start, start + float(plan["seconds"]))
    stop = stats.end + 2.0  # the last answers come in
    players = plan["players"]
    pace = float(plan.get("pace", 1.0))
    tasks = []
    for n, target in enumerate(players):
        tasks.append(asyncio.create_task(_player(target, pace, stats, stop)))
        if n % 50 == 49:
            await asyncio.sleep(0.05)  # connect in waves, as players arrive
    await asyncio.gather(*tasks)
    times = sorted(stats.times)
    usage = resource.getrusage(resource.RUSAGE_SELF)

    def quantile(q: float) -> float | None:
        return times[min(len(times) - 1, int(q * len(times)))] if times else None

    return {
        "players": len(players),
        "connected": stats.connected,
        "failed": stats.failed,
        "sent": stats.sent,
        "acked": len(times),
        "errors": dict(stats.errors),
        "messages": stats.messages,
        "p50": quantile(0.5),
        "p99": quantile(0.99),
        "max": times[-1] if times else None,
        "seconds": float(plan["seconds"]),
        "cpu": usage.ru_utime + usage.ru_stime,
    }


def main() -> None:
    plan = json.load(sys.stdin)
    print(json.dumps(uvloop.run(run(plan))), flush=True)


if __name__ == "__main__":
    main()
