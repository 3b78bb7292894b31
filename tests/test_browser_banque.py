"""People in browsers at a Baccarat Banque table (Debian's chromium driven by
Playwright): two people bid for the bank in the open, stake on a tableau and play a coup
to its result; the banker retires. Screenshots (laptop and phone sizes) go to artifacts/.
Skipped without chromium on a developer machine; a failure in CI (CI=true).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.harness import JUMP_VARIABLE, ServerProcess
from tests.test_browser import (
    ARGS,
    ARTIFACTS,
    CHROMIUM,
    DECISION_SECONDS,
    _money,
    _need_chromium,
)

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

# -- Baccarat Banque: two people through an auction -------------------------------------------

BANQUE_BUY_IN = "300"
SCREENS = os.environ.get("BACCARA_SCREENS")  # another folder to copy the screenshots to


@pytest.fixture
def banque_server(tmp_path: Path) -> Iterator[ServerProcess]:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'banque.db'}",
        tables=("b1=banque",),
        decks=1,
        # Each bid starts the clock again; it runs out on the best bid when the test moves
        # the server's clock on (`ServerProcess.jump`). No clock runs out by itself, so a
        # page that answers late on a loaded machine is never sat out (the punter's clock
        # ran out while the banker's retire was on its way, and it was refused).
        decision_seconds=DECISION_SECONDS,
        seed_seconds=8.0,
        result_seconds=1.0,
    )
    env = {JUMP_VARIABLE: str(DECISION_SECONDS)}
    with ServerProcess(config, log=tmp_path / "server.log", env=env) as process:
        yield process
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


_BQ_CHOICES = (
    "() => Array.from(document.querySelectorAll('#bq-controls:not([hidden]) button'),"
    " (b) => b.dataset.action)"
)


def test_two_people_at_a_banque_table_through_an_auction(
    banque_server: ServerProcess, tmp_path: Path
) -> None:
    """Ann (laptop) and Bob (phone) sit down, add their seeds, bid for the bank in the open
    (Bob sees Ann's bid and raises), the auction closes on Bob's bid, Ann stakes on the
    right tableau, the coup is played to its result, shown on both pages; Bob retires."""
    _need_chromium()
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect, sync_playwright

    server = banque_server
    shots_dir = tmp_path / "screens"
    shots_dir.mkdir()
    ARTIFACTS.mkdir(exist_ok=True)
    sizes = {"ann": (1366, 900), "bob": (390, 844)}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            pages: dict[str, Any] = {}
            for name, (width, height) in sizes.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(server.url + "/")
                page.fill("#name", f"bq_{name}")
                page.fill("#password", f"{name} password")
                page.click("#do-register")
                expect(page.locator("#lobby")).to_be_visible(timeout=20_000)
                pages[name] = page
            ann, bob = pages["ann"], pages["bob"]

            def shoot(moment: str) -> None:
                ann.wait_for_timeout(700)  # the cards dealt have turned over
                for name, page in pages.items():
                    size = "phone" if name == "bob" else "laptop"
                    path = shots_dir / f"banque-{moment}-{size}.png"
                    page.screenshot(path=str(path), full_page=True)
                    shutil.copy(path, ARTIFACTS / path.name)
                    if SCREENS:
                        Path(SCREENS).mkdir(parents=True, exist_ok=True)
                        shutil.copy(path, Path(SCREENS) / path.name)
                # nothing runs off the phone's screen sideways
                assert bob.evaluate("document.documentElement.scrollWidth") <= sizes["bob"][0]

            card = ann.locator(".table-card[data-game=banque]")
            expect(card).to_contain_text("A game between players")
            expect(card).to_contain_text("bank and buy-in from 10.00")
            for page in pages.values():
                page.locator(".table-card[data-game=banque] button").click()
                expect(page.locator("#banque")).to_be_visible()
                expect(page.locator("#table")).to_be_hidden()
                expect(page.locator("#chemin")).to_be_hidden()
                page.fill("#bq-buy-in", BANQUE_BUY_IN)
                page.click("#bq-sit button")
            for name, page in pages.items():
                expect(page.locator("#bq-rail .seat")).to_have_count(2, timeout=10_000)
                expect(page.locator("#bq-rail .seat.mine")).to_contain_text(f"bq_{name} (you)")
                expect(page.locator("#balance")).to_have_text("700.00", timeout=5_000)
            for name, page in pages.items():
                expect(page.locator("#bq-seed")).to_be_visible(timeout=15_000)
                page.fill("#bq-client-seed", f"seed of {name}")
                page.click("#bq-seed button")
                expect(page.locator("#bq-msg")).to_have_text(
                    "Client seed added to the next shuffle."
                )

            # The auction, in the open: Ann bids, Bob sees her bid and raises.
            for page in pages.values():
                expect(page.locator("#bq-auction")).to_be_visible(timeout=20_000)
                expect(page.locator("#bq-best")).to_have_text("No bid yet: the least is 10.00")
                expect(page.locator("#bq-bid")).to_have_value("10.00")  # prefilled: next_bid
            expect(ann.locator("#bq-bid-button")).to_have_text("Bid")  # the server's label
            ann.fill("#bq-bid", "50")
            ann.click("#bq-bid-button")
            expect(bob.locator("#bq-best")).to_have_text("Best bid 50.00 by bq_ann")
            expect(bob.locator("#bq-bids li")).to_have_count(1)
            expect(bob.locator("#bq-bid")).to_have_value("50.01")
            expect(bob.locator("#bq-timer-text")).to_have_text(re.compile(r"^Auction: \d+\.\d s$"))
            expect(bob.locator("#bq-rail .seat[data-name=bq_ann] .mark.bid")).to_have_text(
                "Bid 50.00"
            )
            bob.fill("#bq-bid", "60")
            bob.click("#bq-bid-button")
            expect(ann.locator("#bq-best")).to_have_text("Best bid 60.00 by bq_bob")
            expect(ann.locator("#bq-bids li")).to_have_text(["bq_bob 60.00", "bq_ann (you) 50.00"])
            expect(ann.locator("#bq-bid")).to_have_value("60.01")
            expect(bob.locator("#bq-prompt")).to_contain_text("You hold the best bid, 60.00")
            shoot("auction")

            # The clock runs out on the best bid: Bob holds the bank; Ann, on his right, stakes.
            server.jump()
            expect(ann.locator("#bq-banker")).to_have_text(" · held by bq_bob", timeout=15_000)
            expect(bob.locator("#bq-banker")).to_have_text(" · held by you")
            expect(ann.locator("#bq-bank")).to_have_text("60.00")
            expect(ann.locator("#bq-auction")).to_be_hidden()
            expect(ann.locator("#bq-controls [data-action=stake]")).to_be_visible(timeout=5_000)
            expect(ann.locator("#bq-controls [data-action=stake]")).to_have_text("Stake")
            expect(ann.locator("#bq-prompt")).to_have_text(
                "The bank is 60.00, 0.00 covered: stake on the left or the right tableau, or sit out."
            )
            expect(bob.locator("#bq-controls")).to_be_hidden()
            expect(bob.locator("#bq-rail .seat.turn")).to_contain_text("bq_ann")
            expect(bob.locator("#bq-timer-text")).to_have_text(re.compile(r"^bq_ann: \d+\.\d s$"))
            expect(bob.locator("#bq-retire")).to_have_text("Retire from the bank")
            ann.fill("#bq-amount", "20")
            ann.click("label[for=bq-tableau-R]")
            expect(ann.locator("#bq-tableau-R")).to_be_checked()
            ann.click(".bq-hand[data-hand=L]")  # a tableau on the felt is chosen by a click too
            expect(ann.locator("#bq-tableau-L")).to_be_checked()
            ann.click(".bq-hand[data-hand=R]")
            expect(ann.locator("#bq-tableau-R")).to_be_checked()
            shoot("stakes")
            ann.click("#bq-controls [data-action=stake]")

            # The coup: the hands face down but one's own; a punter on 5 stands, the banker stands.
            seen: dict[str, Any] = {"decisions": [], "facedown": False}
            ann.check("#teaching")  # Ann sees teaching mode's advice at a free choice
            stop_at = time.monotonic() + 60
            while time.monotonic() < stop_at:
                if all(page.locator("#bq-result").is_visible() for page in pages.values()):
                    break
                if bob.locator("#bq-hands:not(.over) .pcard.facedown").count():
                    seen["facedown"] = True
                for name, page in pages.items():
                    choices = page.evaluate(_BQ_CHOICES)
                    if not {"draw", "stand", "banker_draw"} & set(choices):
                        continue
                    with contextlib.suppress(PlaywrightError, AssertionError):
                        if {"draw", "stand"} & set(choices):  # Ann, her right tableau face up
                            expect(ann.locator("#bq-R-total")).to_have_text(re.compile(r"^\d$"))
                            expect(ann.locator("#bq-advice")).not_to_be_empty()
                        else:  # Bob's own hand, face up for him, with its total
                            expect(bob.locator("#bq-B-cards .pcard.facedown")).to_have_count(0)
                            expect(bob.locator("#bq-B-total")).to_have_text(re.compile(r"^\d$"))
                        if not seen["decisions"]:
                            shoot("decision")
                        action = next(
                            a for a in ("stand", "draw", "banker_stand") if a in choices
                        )  # bound, her page shows the rule's one button
                        page.click(f"#bq-controls [data-action={action}]", timeout=2_000)
                        seen["decisions"].append(f"{name} {action}")
                time.sleep(0.05)
            for name, page in pages.items():
                result = page.locator("#bq-result")
                expect(result).to_be_visible()
                right = result.locator("p[data-tableau=R]")
                expect(right).to_have_text(
                    re.compile(r"^Right \((you|bq_ann)\): \d to \d, (punters win|bank wins|tie)$")
                )
                expect(right).to_contain_text("you" if name == "ann" else "bq_ann")
                expect(page.locator("#bq-R-outcome")).to_have_text(
                    re.compile("Punters win|Bank wins|Tie")
                )
                expect(page.locator("#bq-R-name")).to_have_text(
                    "you" if name == "ann" else "bq_ann"
                )
                for hand in "LBR":  # the settled hands, whole, with their totals
                    expect(page.locator(f"#bq-{hand}-total")).to_have_text(re.compile(r"^\d$"))
                    expect(page.locator(f"#bq-{hand}-cards .pcard.facedown")).to_have_count(0)
                history = page.locator("#bq-history li")
                expect(history).to_have_count(1)
                expect(history).to_contain_text("bq_ann 20.00")
            shoot("result")

            # Bob retires from the bank between coups: it goes to auction again.
            bob.click("#bq-retire", timeout=5_000)
            expect(ann.locator("#bq-news")).to_contain_text(
                "bq_bob leaves the bank (retired)", timeout=10_000
            )
            expect(ann.locator("#bq-auction")).to_be_visible()
            expect(ann.locator("#bq-result")).to_be_visible()  # the last coup stays in sight
            shoot("retired")
            # Money on the page: the wallets as the ledger has them; chips as 10.00 on the rail.
            book = Ledger.connect(server.config.database_url)
            try:
                for name, page in pages.items():
                    stored = book.balance(book.create_account(wallet_account(f"bq_{name}")))
                    assert _money(page.locator("#balance").inner_text()) == stored == 70_000
            finally:
                book.database.dispose()
            for text in ann.locator("#bq-rail .pstake").all_inner_texts():
                assert re.fullmatch(r"[\d,]+\.\d\d", text), text
        finally:
            browser.close()
