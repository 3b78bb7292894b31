"""The online table hardened against abuse, at the table (issue 16): each test here
reproduced its finding against the server before the fix (docs/hardening.md).

Real server processes on loopback (`tests.support.harness`); sizes of abuse are sized
down unless ``--slow`` is given. No test measures time: they wait for the table's
events and count messages and bytes.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
from tests.support.forker import Forker
from tests.support.harness import Player, ServerProcess
from websockets.exceptions import ConnectionClosed

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

MAX_REPLAY = 200  # as in baccara.server.realtime.sockets (the test runs against older servers too)
MAX_REPLAY_BYTES = 64 * 1024

T = TypeVar("T")
FAST = {"bet_seconds": 1.2, "card_seconds": 0.02, "result_seconds": 0.1}


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 120))


def _check_invariants(url: str) -> Ledger:
    book = Ledger.connect(url)
    assert book.check_invariants() == []
    return book


# -- 1. seats are released --------------------------------------------------------------


def test_a_seat_is_freed_when_its_player_is_gone_with_no_bet(
    forker: Forker, tmp_path: Path
) -> None:
    """Seven throwaway accounts join a 7-seat mini table and go: the eighth player was
    refused (``table_full``) in every round until a restart, and the lobby said 7/7
    seated. Now a seat whose player has been gone for the grace period, with no bet in
    the round, is freed; a player gone with a bet in play keeps the seat until the
    round is settled (and is paid)."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'seats.db'}",
        tables=("m1=mini",),
        seat_grace_seconds=0.5,
        **FAST,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        ghosts = [Player(server, f"ghost_{n}") for n in range(7)]
        for ghost in ghosts[:6]:
            await ghost.register()
            await ghost.join("m1")
            await ghost.close()
        last = ghosts[6]
        await last.register()
        snap = await last.join("m1")
        minimum = snap["limits"]["banker"]["min"]
        staked = None
        while staked is None:  # a bet in this round's window, then gone
            opened = await last.expect(lambda m: m["type"] == "round_open")
            answer = await last.bet("banker", minimum, bet_id="ghost-bet", round=opened["round"])
            staked = opened["round"] if answer["type"] == "bet_ack" else None
        await last.close()
        lea = Player(server, "late_lea")
        await lea.register()
        await lea.join("m1")
        await lea.expect(lambda m: m["type"] == "no_more_bets" and m["round"] == staked)
        async with httpx.AsyncClient(base_url=server.url) as client:
            during = (await client.get("/api/tables/m1")).json()
        await lea.expect(lambda m: m["type"] == "result" and m["round"] == staked)
        answers = []
        for _ in range(6):  # a few rounds: the grace is 0.5 s, a round 1.3 s
            opened = await lea.expect(lambda m: m["type"] == "round_open")
            answers.append(await lea.bet("banker", minimum, round=opened["round"]))
            if answers[-1]["type"] == "bet_ack":
                break
        lobby: list[dict[str, Any]] = []
        for _ in range(6):  # the last ghost's seat goes once its round is settled
            await lea.expect(lambda m: m["type"] == "round_open")
            async with httpx.AsyncClient(base_url=server.url) as client:
                lobby = (await client.get("/api/tables")).json()
            if lobby[0]["seated"] == 1:
                break
        async with httpx.AsyncClient(base_url=server.url) as client:
            after = (await client.get("/api/tables/m1")).json()
        await lea.close()
        return {"during": during, "answers": answers, "lobby": lobby, "after": after}

    with ServerProcess(config, log=tmp_path / "server.log", launcher=forker) as server:
        got = run(scenario(server))
    assert "ghost_6" in got["during"]["seats"]  # a bet in play keeps the seat
    assert got["answers"][-1]["type"] == "bet_ack", got["answers"]
    assert (got["lobby"][0]["seated"], got["lobby"][0]["seats"]) == (1, 7), got["lobby"]
    assert set(got["after"]["seats"]) == {"late_lea"}
    book = _check_invariants(config.database_url)
    try:
        account = book.create_account(wallet_account("ghost_6"))
        bet = book.find_bet(account, "ghost-bet")
        assert bet is not None and bet.status == "settled"
        assert book.balance(account) == 100_000 - bet.amount + (bet.returned or 0)
    finally:
        book.database.dispose()


# -- 3. amplification -------------------------------------------------------------------


async def _join_bytes(player: Player, since: int) -> tuple[int, int, int, int]:
    """Send one ``join`` with ``since``; return the bytes of its snapshot, of the events
    replayed after it (``missed``), how many those were and the snapshot's ``seq``."""
    await player.send({"type": "join", "table": player.table, "since": since})
    snapshot = replayed = count = seq = 0
    while True:
        text = await asyncio.wait_for(player.ws.recv(), 30)
        message = json.loads(text)
        if message["type"] == "snapshot":
            snapshot, seq = len(text.encode()), message["seq"]
        elif message.get("missed"):
            replayed += len(text.encode())
            count += 1
        elif snapshot:  # the first live event: the replay is over
            return snapshot, replayed, count, seq


def test_a_join_replays_a_bounded_number_of_bytes(
    forker: Forker, tmp_path: Path, full_size: bool
) -> None:
    """A 40-byte ``join`` with ``since: 0`` replayed every event the table kept (up to
    1,000: megabytes, with the roads in each result). Now the replay is at most
    `MAX_REPLAY` events and `MAX_REPLAY_BYTES`, and only when every event missed is
    still kept: otherwise the snapshot alone is the table's state. Joins are rate
    limited per player, so repeating one cannot multiply the snapshots either."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'replay.db'}",
        tables=("r1=punto-banco",),
        bet_seconds=0.2,
        card_seconds=0.0,
        result_seconds=0.0,
        decks=1,
        joins_per_second=0.01,
        join_burst=3,
    )
    events = 1_000 if full_size else 250

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        eve = Player(server, "replay_eve")
        await eve.register()
        await eve.join("r1")
        await eve.expect(lambda m: m.get("seq", 0) >= events, 300)
        first = await _join_bytes(eve, since=0)
        since = first[3] - 3
        recent = (since, *await _join_bytes(eve, since=since))  # a short drop: replayed
        answers = []
        for _ in range(10):
            await eve.send({"type": "join", "table": "r1", "since": 0})
            answers.append(await eve.expect(lambda m: m["type"] in ("snapshot", "error")))
        await eve.close()
        return {"first": first, "recent": recent, "answers": answers}

    with ServerProcess(config, log=tmp_path / "server.log", launcher=forker) as server:
        got = run(scenario(server))
    snapshot, replayed, count, _ = got["first"]
    assert replayed <= MAX_REPLAY_BYTES and count <= MAX_REPLAY, got["first"]
    assert snapshot < 64 * 1024, snapshot
    since, _, _, count, seq = got["recent"]
    assert count == seq - since >= 3, got["recent"]
    kinds = [(a["type"], a.get("code")) for a in got["answers"]]
    assert kinds.count(("snapshot", None)) <= 1 and ("error", "rate_limited") in kinds, kinds


# -- 7. protocol edges ------------------------------------------------------------------


def test_binary_frames_and_deep_json_get_an_error_and_keep_the_connection(
    forker: Forker, tmp_path: Path
) -> None:
    """A binary frame (``KeyError: 'text'``) and JSON nested 1,000 deep dropped the
    connection with a server traceback. Now each gets an ``error`` and the connection
    carries on; and a bet refused by the per-player message limit is answered with its
    ``bet_id``, as every answer to a bet is (the message limit's had none)."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'edges.db'}",
        tables=("e1=punto-banco",),
        bet_seconds=5.0,
        card_seconds=0.02,
        result_seconds=0.1,
        bets_per_second=1000,
        bet_burst=1000,
        # The message limit's burst of 60, and no token back while the test runs: the
        # server takes a token as it reads a message, after answering the one before
        # (each bet's commit), so a loaded machine gave back the 40 the flood overdraws
        messages_per_second=1 / 600,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        eve = Player(server, "edge_eve")
        await eve.register()
        snap = await eve.join("e1")
        answers = []
        for frame in (b"\x00\x01binary", '{"type": "ping"}'):  # a binary frame, then text
            await eve.ws.send(frame)
            answers.append(await eve.expect(lambda m: m["type"] in ("error", "pong")))
        for text in (
            "[" * 2000 + "]" * 2000,
            '{"type": "join", "table": "e1", "since": ' + "[" * 1500 + "]" * 1500 + "}",
            '{"type": "bet", "bet_id": "deep", "kind": ' + "{" * 1000 + "}" * 1000 + "}",
        ):
            await eve.send(text)
            answers.append(await eve.expect(lambda m: m["type"] in ("error", "pong")))
        await eve.send({"type": "ping"})
        answers.append(await eve.expect(lambda m: m["type"] in ("error", "pong")))
        if not (snap["phase"] == "betting" and snap["time_left"] > 3):
            await eve.expect(lambda m: m["type"] == "round_open")
        minimum = snap["limits"]["banker"]["min"]
        ids = [f"flood-{n}" for n in range(100)]
        for bet_id in ids:  # past the message limit (bursts of 60), without waiting
            await eve.send({"type": "bet", "bet_id": bet_id, "kind": "banker", "amount": minimum})
        bets = [await eve.expect(lambda m: m["type"] in ("bet_ack", "error")) for _ in ids]
        await eve.close()
        return {"answers": answers, "bets": bets}

    with ServerProcess(config, log=tmp_path / "server.log", launcher=forker) as server:
        got = run(scenario(server))
    kinds = [(a["type"], a.get("code")) for a in got["answers"]]
    assert kinds == [("error", "bad_message"), ("pong", None)] + [("error", "bad_message")] * 3 + [
        ("pong", None)
    ], kinds
    limited = [b["bet_id"] for b in got["bets"] if b.get("code") == "rate_limited"]
    sent_before = 1 + len(got["answers"])  # the join, then each message answered above
    assert limited == [f"flood-{n}" for n in range(60 - sent_before, 100)], limited
    assert sorted(b["bet_id"] for b in got["bets"]) == sorted(f"flood-{n}" for n in range(100))
    assert "Traceback" not in (tmp_path / "server.log").read_text()
    _check_invariants(config.database_url).database.dispose()


def test_silent_websockets_are_reaped(forker: Forker, tmp_path: Path) -> None:
    """Silent sockets were never reaped (73 of 100 still open after 210 s). Now a
    WebSocket that sends no message for ``idle_seconds`` is closed (the page
    reconnects by itself), one that does not even read (nor answer the protocol's
    pings, every ``ws_ping_seconds``) too; a client that talks stays."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'idle.db'}",
        tables=("i1=punto-banco",),
        idle_seconds=2.0,
        ws_ping_seconds=1.0,
        **FAST,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        quiet, chatty = Player(server, "quiet_quin"), Player(server, "chatty_cat")
        await quiet.register()
        await chatty.register()
        await quiet.join("i1")
        await chatty.join("i1")
        raw = _raw_websocket(server, quiet.token)  # never reads, so never answers a ping
        pongs = []
        for _ in range(20):  # 4 s of pings, every 0.2 s: twice the idle time
            await chatty.send({"type": "ping"})
            pongs.append(await chatty.expect(lambda m: m["type"] == "pong"))
            await asyncio.sleep(0.2)
        await chatty.close()
        closed = None
        try:
            while True:  # the quiet one's events, until the server closes it
                await asyncio.wait_for(quiet.ws.recv(), 60)
        except ConnectionClosed as error:
            closed = error.rcvd
        raw.settimeout(60)
        while raw.recv(65536):  # pings, then the close: b"" once the server has gone
            pass
        raw.close()
        return {"closed": closed, "pongs": pongs}

    with ServerProcess(config, log=tmp_path / "server.log", launcher=forker) as server:
        got = run(scenario(server))
    assert got["closed"] is not None and got["closed"].code == 1001, got["closed"]
    assert "idle" in got["closed"].reason
    assert len(got["pongs"]) == 20  # the one that talked was not closed


def _raw_websocket(server: ServerProcess, token: str) -> socket.socket:
    """A WebSocket opened by hand that then reads nothing (so answers no ping)."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: baccara_session={token}\r\n\r\n"
        ).encode()
    )
    return sock


def test_one_account_holds_a_bounded_number_of_sockets(forker: Forker, tmp_path: Path) -> None:
    """One account could open sockets without end (each holds a queue of 2,000 messages
    and a task at the server). Now an account holds `ServerConfig.sockets_per_player` at
    once; the next is closed with 1008 ``too many connections``, and a socket closed
    frees its place."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'sockets.db'}",
        tables=("s1=punto-banco",),
        sockets_per_player=3,
        **FAST,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        hog = Player(server, "socket_hog")
        await hog.register()
        tabs = [Player(server, "socket_hog") for _ in range(4)]
        for tab in tabs:
            tab.token = hog.token
        for tab in tabs[:3]:
            await tab.join("s1")
        refused = None
        try:
            await tabs[3].join("s1")
        except ConnectionClosed as error:
            refused = error.rcvd
        await tabs[0].close()
        await asyncio.sleep(0.5)
        again = await tabs[3].join("s1")  # a place was freed
        for tab in tabs:
            await tab.close()
        return {"refused": refused, "again": again}

    with ServerProcess(config, log=tmp_path / "server.log", launcher=forker) as server:
        got = run(scenario(server))
    assert got["refused"] is not None, "a fourth socket of one account was accepted"
    assert (got["refused"].code, got["refused"].reason) == (1008, "too many connections")
    assert got["again"]["type"] == "snapshot"


def _deaf_websocket(server: ServerProcess, token: str, table: str) -> socket.socket:
    """A WebSocket opened by hand with a tiny receive buffer: it joins ``table`` and sends
    one-byte binary frames, each answered with an error of 95 bytes, half as many
    again as the largest send buffer the kernel gives a socket can hold; then it
    never reads, so the server's writes to it stop making progress."""
    with open("/proc/sys/net/ipv4/tcp_wmem") as wmem:
        largest = int(wmem.read().split()[2])
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: baccara_session={token}\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:  # the 101: the last bytes it reads
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    join = json.dumps({"type": "join", "table": table}).encode()
    mask = os.urandom(4)  # masked frames, as a client sends them: text, then binary
    frame = bytes([0x81, 0x80 | len(join)]) + mask
    frame += bytes(byte ^ mask[n % 4] for n, byte in enumerate(join))
    byte = bytes([0x82, 0x81]) + mask + bytes([mask[0]])
    sock.sendall(frame + byte * (largest * 3 // 2 // 95))
    return sock


def _tcp_state(sock: socket.socket) -> int:
    """The socket's TCP state (Linux): 1 established, 7 closed (reset), 8 the peer closed."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]


def test_a_websocket_that_does_not_read_is_closed_and_its_place_freed(
    forker: Forker, tmp_path: Path
) -> None:
    """A WebSocket that never reads and never answers pings was never closed (0 of 100
    after 360 s): with its buffers full, the server's writes waited for ever, and so
    did every close behind them (the ping timeout's, the idle one, the app's own):
    still open after 60 s here, megabytes in the server's send queue. Now a connection
    whose writes make no progress for ``ws_send_seconds``, or whose close does not
    complete in as long, is reset and what it held is freed: the account's deaf
    sockets (its whole cap) are reset by the server without the client reading a byte,
    and the account opens a socket again."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'deaf.db'}",
        tables=("w1=punto-banco",),
        idle_seconds=600,  # the idle close is not what is tested
        ws_ping_seconds=5.0,  # nor the pings: the writes are stuck first
        ws_send_seconds=1.0,
        sockets_per_player=2,
        **FAST,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        owner = Player(server, "deaf_dora")
        await owner.register()
        deaf = [_deaf_websocket(server, owner.token, "w1") for _ in range(2)]
        states, polls = [1], 0
        while set(states) != {7} and polls < 300:  # until both are reset, 60 s at most
            await asyncio.sleep(0.2)
            states, polls = [_tcp_state(sock) for sock in deaf], polls + 1
        tab = Player(server, "deaf_dora")
        tab.token = owner.token
        for _ in range(50):  # the server frees the places once it has heard the resets
            try:  # the account's places are free (and, soon, its message tokens)
                again = await tab.join("w1", or_error=True)
            except ConnectionClosed as error:  # 1008 too many connections: still held
                again = {"type": "refused", "reason": error.rcvd and error.rcvd.reason}
            await tab.close()
            if again["type"] == "snapshot":
                break
            await asyncio.sleep(0.2)
        for sock in deaf:
            sock.close()
        return {"states": states, "again": again}

    with ServerProcess(config, log=tmp_path / "server.log", launcher=forker) as server:
        got = run(scenario(server))
    assert got["states"] == [7, 7], got["states"]  # reset by the server
    assert got["again"]["type"] == "snapshot", got["again"]
