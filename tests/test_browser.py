"""People in browsers (Debian's chromium driven by Playwright) at the online tables.

Punto Banco: two players register, sit down at a squeeze table, bet, see each other's chips on the layout,
squeeze the face-down cards (one by dragging, one by keyboard), watch the reveal, see
the result, the payout and the roads; the balances on the page match the ledger.
Chemin de Fer: three players sit down with a typed buy-in, add their seeds to the
shuffle, and play through a banco, a punter's decision on 5 and the bank passing, each
seeing the others' chips on the rail, the banker, whose turn it is and the clock.
Baccarat Banque: `tests/test_browser_banque.py`. Screenshots (laptop and phone sizes)
go to artifacts/.
Skipped without chromium on a developer machine; a failure in CI (CI=true).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.harness import ServerProcess
from tests.support.services import need_service

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DECISION_SECONDS = 600.0  # a decision clock longer than a test: it runs out at `ServerProcess.jump`
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
        result_seconds=6.0,  # the result stays while the test reads the felt, under load too
        squeeze_seconds=30.0,  # ends as soon as both squeezers turn their cards
    )
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


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
            # The squeeze, in the house's order: the Player's two cards face down first,
            # squeezed by Bob (the biggest Player stake); he drags a corner.
            for page in (ann, bob):
                expect(page.locator("#player-cards .pcard.down")).to_have_count(2, timeout=20_000)
                expect(page.locator("#phase")).to_have_text("Squeeze")
            assert ann.locator(".pcard .face, .pcard .idx").count() == 0  # no value yet
            expect(bob.locator("#player-cards .pcard.down.mine")).to_have_count(2)
            expect(ann.locator("#player-cards .pcard.down.mine")).to_have_count(0)
            card = bob.locator("#player-cards .pcard.down").first
            card.hover()  # waits until the card has landed (its deal-in animation is over)
            box = card.bounding_box()
            assert box is not None
            bob.mouse.move(box["x"] + box["width"] * 0.85, box["y"] + box["height"] * 0.85)
            bob.mouse.down()
            bob.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.4, steps=5)
            bob.mouse.up()
            # Bob's peel is relayed: Ann sees the cards bent, the corner's index and the
            # pips drawn beneath.
            ann.wait_for_function(
                "() => parseFloat(document.querySelector('#player-cards .pcard.down')"
                ".style.getPropertyValue('--p')) > 0",
                timeout=10_000,
            )
            expect(ann.locator("#player-cards .pcard.down .sq-face .idx")).to_have_count(4)
            expect(ann.locator("#player-cards .pcard.down .sq-face .pips").first).to_be_attached()
            ann.screenshot(path=str(ARTIFACTS / "squeeze-laptop.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "squeeze-phone.png"), full_page=True)
            bob.locator("#player-cards .pcard.down").first.focus()
            for _ in range(4):
                bob.keyboard.press(" ")  # Space on the focused face-down card
            # Turned: the Player's hand is shown, then the Banker's cards go down for Ann.
            for page in (ann, bob):
                expect(page.locator("#player-cards .pcard").nth(1)).to_have_attribute(
                    "aria-label", re.compile(r"^[2-9TJQKA][shdc]$"), timeout=10_000
                )
                expect(page.locator("#banker-cards .pcard.down")).to_have_count(2, timeout=10_000)
            expect(ann.locator("#banker-cards .pcard.down.mine")).to_have_count(2)
            # Ann turns hers with the S key, and each squeezes a third card if one comes.
            deadline = time.monotonic() + 60
            while not ann.locator("#result-banner").is_visible():
                assert time.monotonic() < deadline, "the squeeze never ended"
                for page in (ann, bob):
                    if page.locator(".pcard.down.mine").count():
                        page.keyboard.press("s")
                ann.wait_for_timeout(150)
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
            told = ann.locator("#history li").first.inner_text()  # cards, not "P:9h,3d"
            assert re.search(r"Player [0-9JQKA]+[♠♥♦♣]", told) and "P:" not in told, told
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
                book.database.dispose()
            winner = banner.split(":")[-1]
            # The felt shows each spot's result: the winner marked with what it paid,
            # the stakes swept from a loser, each player's own amount won or lost.
            won, lost = ann.locator(".main-spots .spot.won"), ann.locator(".spot.lost")
            if "Banker wins" in winner:
                assert (ann_bal, bob_bal) == (100_000 + 9_500, 100_000 - 20_000)
                expect(won.locator(".outcome")).to_have_text("Wins 0.95:1")
                expect(ann.locator(".spot.banker .stake")).to_have_text("+95.00")
                expect(bob.locator(".spot.player .stake")).to_have_text("−200.00")
                expect(lost).to_have_attribute("data-settled", "swept 200.00")
                expect(won).to_have_attribute("data-settled", "paid 95.00")
            elif "Player wins" in winner:
                assert (ann_bal, bob_bal) == (100_000 - 10_000, 100_000 + 20_000)
                expect(won.locator(".outcome")).to_have_text("Wins 1:1")
                expect(bob.locator(".spot.player .stake")).to_have_text("+200.00")
                expect(ann.locator(".spot.banker .stake")).to_have_text("−100.00")
                expect(won).to_have_attribute("data-settled", "paid 200.00")
                expect(lost).to_have_attribute("data-settled", "swept 100.00")
            else:
                assert (ann_bal, bob_bal) == (100_000, 100_000)
                expect(won.locator(".outcome")).to_have_text("Wins 8:1")
                expect(ann.locator(".spot.banker .stake")).to_have_text("100.00 back")
                expect(bob.locator(".spot.player.pushed .outcome")).to_have_text("Push")
                expect(ann.locator(".spot.player")).to_have_attribute(
                    "data-settled", "returned 200.00"
                )
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


# -- Chemin de Fer: three people at a players' table ----------------------------------------

CHEMIN_BUY_IN = "200"  # typed as people type it; 200.00 on the page


@pytest.fixture
def chemin_server(tmp_path: Path) -> Iterator[ServerProcess]:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'chemin.db'}",
        tables=("t1=punto-banco", "c1=chemin-de-fer"),
        decks=2,  # short shoes: a shoe may end and a new one be shuffled during the test
        # the test plays every decision: no clock runs out on a page slow to answer (the
        # bank passes by choice or by a loss, never because a loaded machine was late)
        decision_seconds=DECISION_SECONDS,
        seed_seconds=8.0,  # three browsers add their seeds, on a busy machine too
        result_seconds=0.8,
    )
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


_MY_CHOICES = (
    "() => Array.from(document.querySelectorAll('#cdf-controls:not([hidden]) button'),"
    " (b) => b.dataset.action)"
)


def _decide(
    page: Any, choices: list[str], seen: dict[str, Any], shoot: Callable[[str], None]
) -> None:
    """What one person does on their turn: bank the minimum, 10.00, so that everybody's
    chips last the whole test (and pass it after a win); try a stake over the bank once
    (refused), then banco; stand on 5, and where the tableau binds the punter (his page
    shows only its rule's button) do as it says; the banker stands."""

    def click(action: str) -> None:
        page.click(f"#cdf-controls [data-action={action}]", timeout=2_000)

    if "open_bank" in choices:
        page.fill("#cdf-amount", "10", timeout=2_000)
        click("open_bank")
    elif "keep_bank" in choices:
        click("pass_bank")
        seen["passed_by_choice"] = True
    elif "banco" in choices:
        if not seen["refused"]:
            page.fill("#cdf-amount", "1,000", timeout=2_000)
            click("stake")
            expect_text(page, "#cdf-msg", re.compile(r"bad stake 1,000\.00"))
            seen["refused"] = True
        click("banco")
        seen["banco"] += 1
    elif choices in (["draw"], ["stand"]):  # bound: his own choices came privately
        expect_text(page, "#cdf-prompt", re.compile(r"as the tableau has you"))
        click(choices[0])
    elif "draw" in choices:
        expect_text(page, "#cdf-prompt", re.compile(r"draw a third card or stand"))
        if not seen["five"]:
            shoot("decision")  # the punter's choice on 5, seen by all three
        seen["five"] += 1
        click("stand")
    elif "banker_draw" in choices:
        seen["banker_choice"] += 1
        click("banker_stand")


def expect_text(page: Any, selector: str, pattern: re.Pattern[str]) -> None:
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_have_text(pattern, timeout=5_000)


def test_three_players_at_a_chemin_de_fer_table(chemin_server: ServerProcess) -> None:
    _need_chromium()
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect, sync_playwright

    server = chemin_server
    ARTIFACTS.mkdir(exist_ok=True)
    sizes = {"ann": (1366, 900), "bob": (390, 844), "cy": (1280, 800)}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            pages: dict[str, Any] = {}
            for name, (width, height) in sizes.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(server.url + "/")
                page.fill("#name", f"cdf_{name}")
                page.fill("#password", f"{name} password")
                page.click("#do-register")
                expect(page.locator("#lobby")).to_be_visible(timeout=20_000)
                pages[name] = page
            ann, bob = pages["ann"], pages["bob"]
            # The lobby lists each table with what fits its game: no roads at a players' table.
            card = ann.locator(".table-card[data-game=chemin-de-fer]")
            expect(card).to_contain_text("A game between players")
            expect(card).to_contain_text("bank and buy-in from 10.00")
            assert card.locator("svg").count() == 0
            expect(ann.locator(".table-card[data-game=punto-banco] svg")).to_have_count(1)
            ann.screenshot(path=str(ARTIFACTS / "chemin-lobby.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "chemin-lobby-phone.png"), full_page=True)
            for page in pages.values():
                page.locator(".table-card[data-game=chemin-de-fer] button").click()
                expect(page.locator("#chemin")).to_be_visible()
                expect(page.locator("#table")).to_be_hidden()
                expect(page.locator("#cdf-sit")).to_be_visible()
            # A bad buy-in is refused on the page; then each sits down with 200.00.
            ann.fill("#cdf-buy-in", "lots")
            ann.click("#cdf-sit button")
            expect(ann.locator("#cdf-msg")).to_have_text(
                "Type the buy-in as an amount, such as 200.00."
            )
            for page in pages.values():
                page.fill("#cdf-buy-in", CHEMIN_BUY_IN)
                page.click("#cdf-sit button")
            for name, page in pages.items():
                expect(page.locator("#cdf-rail .seat")).to_have_count(3, timeout=10_000)
                expect(page.locator("#cdf-rail .seat.mine")).to_contain_text(f"cdf_{name} (you)")
                expect(page.locator("#balance")).to_have_text("800.00", timeout=5_000)
            # The shuffle: every seated player adds a seed.
            for name, page in pages.items():
                expect(page.locator("#cdf-seed")).to_be_visible(timeout=15_000)
                page.fill("#cdf-client-seed", f"seed of {name}")
                page.click("#cdf-seed button")
                expect(page.locator("#cdf-msg")).to_have_text(
                    "Client seed added to the next shuffle."
                )
            ann.screenshot(path=str(ARTIFACTS / "chemin-shuffle-laptop.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "chemin-shuffle-phone.png"), full_page=True)
            # The first bank is the first seat's; everybody sees whose turn it is, and the clock.
            expect(ann.locator("#cdf-controls [data-action=open_bank]")).to_be_visible(
                timeout=20_000
            )
            expect(ann.locator("#cdf-controls [data-action=pass_bank]")).to_be_visible()
            expect(ann.locator("#cdf-prompt")).to_have_text(
                "You hold the bank: set it (at least 10.00) or pass it."
            )
            expect(bob.locator("#cdf-controls")).to_be_hidden()
            expect(bob.locator("#cdf-rail .seat.turn")).to_contain_text("cdf_ann")
            # the bank not yet set: "Sets the bank" on the rail (it said "Bank 0.00")
            expect(bob.locator("#cdf-rail .seat.banker .mark.bank")).to_have_text("Sets the bank")
            expect(bob.locator("#cdf-timer-text")).to_have_text(re.compile(r"^cdf_ann: \d+\.\d s$"))
            expect(ann.locator("#cdf-timer-text")).to_have_text(re.compile(r"^You: \d+\.\d s$"))
            expect(ann.locator("#cdf-client-seeds")).to_contain_text("seed of bob")
            ann.screenshot(path=str(ARTIFACTS / "chemin-bank-laptop.png"), full_page=True)
            bob.screenshot(path=str(ARTIFACTS / "chemin-bank-phone.png"), full_page=True)

            shots: set[str] = set()

            def shoot(moment: str) -> None:
                if moment in shots:
                    return
                shots.add(moment)
                ann.wait_for_timeout(600)  # the cards dealt have turned over
                for name, page in pages.items():
                    size = "phone" if name == "bob" else "laptop"
                    page.screenshot(
                        path=str(ARTIFACTS / f"chemin-{moment}-{size}-{name}.png"), full_page=True
                    )

            seen: dict[str, Any] = {
                "refused": False,
                "banco": 0,
                "five": 0,
                "banker_choice": 0,
                "passed_by_choice": False,
                "bankers": set(),
            }
            ann.check("#teaching")  # Ann sees teaching mode's advice at a free choice
            lines: set[str] = set()
            stop_at = time.monotonic() + 240
            while time.monotonic() < stop_at:
                lines.update(ann.locator("#cdf-news li").all_inner_texts())
                banker = ann.evaluate(
                    "() => document.querySelector('#cdf-rail .seat.banker')?.dataset.name ?? null"
                )
                if banker:
                    seen["bankers"].add(banker)
                if len(seen["bankers"]) >= 2:
                    shoot("bank-passed")
                if (
                    seen["banco"]
                    and seen["five"]
                    and len(seen["bankers"]) >= 2
                    and "result" in shots
                ):
                    break
                if ann.locator("#cdf-result").is_visible() and seen["banco"]:
                    shoot("result")
                for page in pages.values():
                    choices = page.evaluate(_MY_CHOICES)
                    if not choices:
                        continue
                    # the turn may move on (another page decided) while this one is clicking
                    with contextlib.suppress(PlaywrightError, AssertionError):
                        _decide(page, choices, seen, shoot)
                    if seen["banco"] == 1 and "banco" not in shots:
                        shoot("banco")
                time.sleep(0.05)
            assert seen["refused"], "a stake over the bank was never tried"
            assert seen["banco"], "nobody called banco"
            assert seen["five"], "no decision on 5 came in the time allowed"
            assert len(seen["bankers"]) >= 2, "the bank never passed"
            # What the server said happened, as the page showed it.
            assert any(line.startswith(("Banco! ", "Banco suivi! ")) for line in lines), lines
            # the punter's choice is told without his total; no face-down card is named
            assert any(line.startswith(("The punter draws", "The punter stands")) for line in lines)
            assert not any(" against the banker's " in line for line in lines), lines
            assert any(" passes from " in line for line in lines), lines
            # Money on the page: the wallet as the ledger has it, chips as 10.00 on the rail.
            book = Ledger.connect(server.config.database_url)
            try:
                for name, page in pages.items():
                    stored = book.balance(book.create_account(wallet_account(f"cdf_{name}")))
                    assert _money(page.locator("#balance").inner_text()) == stored == 80_000
            finally:
                book.database.dispose()
            for text in ann.locator("#cdf-rail .pstake").all_inner_texts():
                assert re.fullmatch(r"[\d,]+\.\d\d|next shoe", text), text
            # Leaving: the chips go back at once (or when the coup he plays is settled; the
            # players go on deciding meanwhile, as no decision's clock runs out in the test)
            bob.click("#cdf-leave")
            left = time.monotonic() + 60
            while "cdf_bob leaves the table with" not in bob.locator("#cdf-news").inner_text():
                assert time.monotonic() < left, "bob's leave never came"
                for page in pages.values():
                    choices = page.evaluate(_MY_CHOICES)
                    if choices:
                        with contextlib.suppress(PlaywrightError, AssertionError):
                            _decide(page, choices, seen, shoot)
                time.sleep(0.05)
            expect(bob.locator("#cdf-sit-go")).to_have_text("Sit down")
            book = Ledger.connect(server.config.database_url)
            try:
                stored = book.balance(book.create_account(wallet_account("cdf_bob")))
            finally:
                book.database.dispose()
            assert stored >= 80_000  # his chips are back in the wallet
            expect(bob.locator("#balance")).to_have_text(f"{stored // 100:,}.{stored % 100:02d}")
            shoot("leave")
        finally:
            browser.close()
