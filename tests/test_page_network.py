"""A table page that survives the network: left open past the server's idle limit,
its network cut (a tunnel: the socket stays open, nothing passes), the server killed
and started again in mid-round. The page calls again by itself within 5 s of the
network or the server coming back, resends what was never answered under its id, and
its balance is the ledger's; no script error on the way.

The network is cut with a proxy (`tests.support.proxy`): a browser's offline mode does
not touch an open WebSocket.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.browser import browser_page
from tests.support.harness import ServerProcess
from tests.support.proxy import Proxy
from tests.test_browser import ARTIFACTS

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

IDLE = 24.0  # the server closes a socket silent this long; the page pings every 20 s
BACK_WITHIN = 5.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'network.db'}",
        tables=("t1=punto-banco",),
        bet_seconds=5.0,
        card_seconds=0.1,
        result_seconds=1.0,
        idle_seconds=IDLE,
    )
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def _ledger_balance(server: ServerProcess, name: str) -> int:
    book = Ledger.connect(server.config.database_url)
    try:
        return book.balance(book.create_account(wallet_account(name)))
    finally:
        book.database.dispose()


def _shown_balance(page: Any) -> int:
    major, minor = page.locator("#balance").inner_text().replace(",", "").split(".")
    return int(major) * 100 + int(minor)


def _sit(page: Any, url: str, name: str) -> tuple[list[str], list[Any]]:
    """Register ``name`` and open table t1; the page's script errors and its sockets."""
    from playwright.sync_api import expect

    errors: list[str] = []
    sockets: list[Any] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(url + "/")
    page.fill("#name", name)
    page.fill("#password", "a long password")
    page.click("#do-register")
    expect(page.locator("#lobby")).to_be_visible(timeout=20_000)
    page.locator(".table-card button").first.click()
    expect(page.locator("#phase")).to_have_text("Place your bets", timeout=30_000)
    return errors, sockets


def _bet(page: Any) -> None:
    """100.00 on Banker in a betting window with time to spare."""
    from playwright.sync_api import expect

    expect(page.locator("#phase")).to_have_text("Place your bets", timeout=30_000)
    page.wait_for_function(
        "() => parseFloat(document.getElementById('timer-text').textContent) > 2.5",
        timeout=30_000,
    )
    page.keyboard.press("4")  # the 100.00 chip
    page.click(".spot.banker")
    page.click("#confirm")


def _recovered(page: Any, server: ServerProcess, name: str, since: float) -> float:
    """Seconds from ``since`` until the page is connected again and shows the ledger's
    balance (at most `BACK_WITHIN` and a little: else the test fails)."""
    deadline = since + BACK_WITHIN + 1
    while time.monotonic() < deadline:
        if page.locator("#link").is_hidden() and (
            _shown_balance(page) == _ledger_balance(server, name)
        ):
            return time.monotonic() - since
        page.wait_for_timeout(50)
    raise AssertionError(
        f"not back within {BACK_WITHIN} s: {page.locator('#bet-msg').inner_text()!r}"
    )


def test_a_page_left_open_and_cut_from_the_network_comes_back(server: ServerProcess) -> None:
    from playwright.sync_api import expect

    with Proxy(server.port) as proxy, browser_page("laptop") as page:
        errors, sockets = _sit(page, proxy.url, "net_ann")
        # left open past the server's idle limit: the page's pings keep it
        page.wait_for_timeout((IDLE + 4) * 1000)
        assert len(sockets) == 1 and page.locator("#link").is_hidden()
        _bet(page)
        expect(page.locator("#bet-msg")).to_contain_text("Bet accepted", timeout=10_000)
        # a short cut: the socket stays open, what was sent waits and then passes
        proxy.cut()
        page.wait_for_timeout(3_000)
        proxy.restore()
        took_short = _recovered(page, server, "net_ann", time.monotonic())
        # a long cut, the browser offline and back: its ping goes unanswered, the socket
        # is given up, calls are refused; a bet confirmed meanwhile stays unanswered
        _bet(page)
        proxy.cut()
        page.context.set_offline(True)
        page.wait_for_timeout(500)
        page.context.set_offline(False)  # "online": the page pings, nothing answers
        expect(page.locator("#link")).to_be_visible(timeout=8_000)
        page.screenshot(path=str(ARTIFACTS / "reconnecting-laptop.png"))
        page.wait_for_timeout(4_000)
        assert proxy.refused >= 1  # it kept calling
        proxy.restore()
        took_long = _recovered(page, server, "net_ann", time.monotonic())
        expect(page.locator("#phase")).not_to_have_text("—")
        assert len(sockets) >= 2
    assert errors == []
    assert took_short < BACK_WITHIN and took_long < BACK_WITHIN, (took_short, took_long)


def test_a_page_comes_back_when_the_server_restarts_mid_round(server: ServerProcess) -> None:
    from playwright.sync_api import expect

    with browser_page("phone") as page:
        errors, _ = _sit(page, server.url, "net_bob")
        _bet(page)
        expect(page.locator("#bet-msg")).to_contain_text("Bet accepted", timeout=10_000)
        server.kill()  # in mid-round: the bet is taken, the coup not yet dealt
        expect(page.locator("#link")).to_be_visible(timeout=5_000)
        page.wait_for_timeout(3_000)  # down a while: the page keeps calling
        server.start()
        took = _recovered(page, server, "net_bob", time.monotonic())
        page.screenshot(path=str(ARTIFACTS / "after-restart-phone.png"))
        # and the table plays on for it: the next round's bet is taken
        _bet(page)
        expect(page.locator("#bet-msg")).to_contain_text(re.compile("Bet accepted"), timeout=10_000)
    assert errors == []
    assert took < BACK_WITHIN, took
