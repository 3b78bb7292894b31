"""Two players in two browsers (Debian's chromium driven by Playwright) at one table.

They register, sit down at a squeeze table, bet, see each other's chips on the layout,
squeeze the face-down cards (one by dragging, one by keyboard), watch the reveal, see
the result, the payout and the roads; the balances on the page match the ledger.
Screenshots (laptop and phone sizes) go to artifacts/.
Skipped without chromium on a developer machine; a failure in CI (CI=true).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.harness import ServerProcess
from tests.support.services import need_service

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM = os.environ.get("BACCARA_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--metrics-recording-only",
]


def _need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    need_service(f"chromium at {CHROMIUM}", ".ci/run installs Debian's chromium")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'browser.db'}",
        tables=("t1=punto-banco:squeeze", "t2=ez"),
        bet_seconds=8.0,
        card_seconds=0.25,
        result_seconds=2.5,
        squeeze_seconds=30.0,  # ends as soon as both squeezers turn their cards
    )
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.engine.dispose()


def _money(text: str) -> int:
    major, minor = text.replace(",", "").split(".")
    return int(major) * 100 + int(minor)


def test_two_players_at_one_table(server: ServerProcess) -> None:
    _need_chromium()
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            pages = {}
            for name, size in (("ann", (1366, 900)), ("bob", (390, 844))):
                context = browser.new_context(viewport={"width": size[0], "height": size[1]})
                page = context.new_page()
                page.goto(server.url + "/")
                page.fill("#name", f"web_{name}")
                page.fill("#password", f"{name} password")
                page.click("#do-register")
                expect(page.locator("#lobby")).to_be_visible(timeout=20_000)
                expect(page.locator(".table-card").first).to_be_visible()
                pages[name] = page
            pages["ann"].screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)
            for page in pages.values():
                page.locator(".table-card button").first.click()
                expect(page.locator("#table")).to_be_visible()
                expect(page.locator(".spot.banker")).to_be_visible()
            ann, bob = pages["ann"], pages["bob"]
            # Wait for a fresh betting window with time to spare.
            for page in (ann, bob):
                expect(page.locator("#phase")).to_have_text("Place your bets", timeout=45_000)
            ann.wait_for_function(
                "() => parseFloat(document.getElementById('timer-text').textContent) > 4",
                timeout=45_000,
            )
            expect(ann.locator("#squeeze-tag")).to_be_visible()
            ann.keyboard.press("4")  # the 100.00 chip
            ann.click(".spot.banker")
            ann.click("#confirm")
            bob.locator(".chip").nth(3).click()
            bob.click(".spot.player")
            bob.click(".spot.player")
            bob.focus("#confirm")  # keyboard only: focus the button, press Enter
            bob.keyboard.press("Enter")
            expect(ann.locator("#bet-msg")).to_contain_text("Bet accepted", timeout=10_000)
            expect(bob.locator("#bet-msg")).to_contain_text("Bet accepted", timeout=10_000)
            expect(ann.locator(".spot.banker .stake")).to_have_text("100.00")
            expect(bob.locator(".spot.player .stake")).to_have_text("200.00")
            # Each sees the other's chips on the layout and on the seat rail.
            theirs = ann.locator(".spot.player .stack:not(.mine)")
            expect(theirs).to_have_count(1, timeout=5_000)
            assert "web_bob" in (theirs.get_attribute("title") or "")
            expect(ann.locator(".spot.banker .stack.mine")).to_have_count(1)
            expect(bob.locator(".spot.banker .stack:not(.mine)")).to_have_count(1)
            assert "200.00" in (
                bob.locator(".spot.player .stack.mine").get_attribute("title") or ""
            )
            expect(ann.locator("#rail .seat")).to_have_count(2)
            expect(ann.locator("#rail")).to_contain_text("web_bob")
            expect(bob.locator("#rail .seat.mine")).to_contain_text("200.00")
            ann.screenshot(path=str(ARTIFACTS / "chips-laptop.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "chips-phone.png"), full_page=True)
            # The squeeze: four cards face down; Banker's is Ann's (the biggest Banker
            # stake), Player's is Bob's. Ann drags a corner, Bob uses the S key.
            for page in (ann, bob):
                expect(page.locator(".pcard.down")).to_have_count(4, timeout=20_000)
                expect(page.locator("#phase")).to_have_text("Squeeze")
            assert ann.locator(".pcard.face, .pcard .face").count() == 0  # no value yet
            expect(ann.locator("#banker-cards .pcard.down.mine")).to_have_count(2)
            expect(bob.locator("#player-cards .pcard.down.mine")).to_have_count(2)
            card = ann.locator("#banker-cards .pcard.down").first
            card.hover()  # waits until the card has landed (its deal-in animation is over)
            box = card.bounding_box()
            assert box is not None
            ann.mouse.move(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.85)
            ann.mouse.down()
            ann.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.4, steps=5)
            ann.mouse.up()
            bob.locator("#player-cards .pcard.down").first.focus()
            bob.keyboard.press("s")
            # Ann's peel is relayed: Bob sees her Banker cards bent.
            bob.wait_for_function(
                "() => parseFloat(document.querySelector('#banker-cards .pcard.down')"
                ".style.getPropertyValue('--p')) > 0",
                timeout=10_000,
            )
            ann.screenshot(path=str(ARTIFACTS / "squeeze-laptop.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "squeeze-phone.png"), full_page=True)
            for _ in range(4):
                ann.keyboard.press("s")
                bob.keyboard.press(" ")  # Space on the focused face-down card
            # Both squeezers have turned their cards: the server reveals them.
            for page in (ann, bob):
                expect(page.locator(".pcard.down")).to_have_count(0, timeout=15_000)
                expect(page.locator("#banker-cards .pcard").nth(1)).to_have_attribute(
                    "aria-label", re.compile(r"^[2-9TJQKA][shdc]$")
                )
            ann.screenshot(path=str(ARTIFACTS / "deal-laptop.png"), full_page=True)
            for page in (ann, bob):
                expect(page.locator("#result-banner")).to_be_visible(timeout=20_000)
                expect(page.locator("#bet-msg")).to_have_text(
                    re.compile(r"You (win|lose)|push"), timeout=10_000
                )
            ann.check("#teaching")
            ann.screenshot(path=str(ARTIFACTS / "result-laptop.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "result-phone.png"), full_page=True)
            banner = ann.locator("#result-banner").inner_text()
            assert re.search(r"(Player|Banker) wins|a tie", banner)
            assert ann.locator("#roads svg").count() == 1
            assert ann.locator("#history li").count() >= 1
            book = Ledger.connect(server.config.database_url)
            try:
                for page, name in ((ann, "web_ann"), (bob, "web_bob")):
                    shown = _money(page.locator("#balance").inner_text())
                    stored = book.balance(book.create_account(wallet_account(name)))
                    assert shown == stored
                    assert page.request.get(server.url + "/api/me").json()["balance"] == stored
                ann_bal = _money(ann.locator("#balance").inner_text())
                bob_bal = _money(bob.locator("#balance").inner_text())
            finally:
                book.engine.dispose()
            winner = banner.split(":")[-1]
            if "Banker wins" in winner:
                assert (ann_bal, bob_bal) == (100_000 + 9_500, 100_000 - 20_000)
            elif "Player wins" in winner:
                assert (ann_bal, bob_bal) == (100_000 - 10_000, 100_000 + 20_000)
            else:
                assert (ann_bal, bob_bal) == (100_000, 100_000)
            # Recall the round step by step.
            ann.locator("#history li button").first.click()
            expect(ann.locator("#recall-words")).to_contain_text("step 1/")
            ann.click("#recall-next")
            expect(ann.locator("#recall-words")).to_contain_text("step 2/")
            # The next round clears everybody's chips from the layout and the rail.
            expect(bob.locator("#phase")).to_have_text("Place your bets", timeout=20_000)
            expect(bob.locator(".stack")).to_have_count(0)
            expect(bob.locator("#rail .seat.in")).to_have_count(0)
        finally:
            browser.close()
