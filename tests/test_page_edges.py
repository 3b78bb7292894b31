"""The page's rough edges a newcomer hit (issue 17, point 5), each at laptop and phone
size in Debian's chromium: what the ``hidden`` attribute hides, Enter after a spot,
keys while the teaching box has the focus, the cards and the chips together on a
phone, the result said once, and "1 coup". Screenshots go to artifacts/.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.browser import SIZES, browser_page
from tests.support.harness import ServerProcess, watching
from tests.test_browser import ARTIFACTS

from baccara.db.books import wallet_account
from baccara.money import format_money
from baccara.server.app import ServerConfig


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fresh server for each size: its table's first coup is still news in the lobby."""
    folder = tmp_path
    config = ServerConfig(
        database_url=f"sqlite:///{folder / 'edges.db'}",
        tables=("t1=punto-banco",),
        bet_seconds=6.0,
        card_seconds=0.2,
        result_seconds=4.0,
    )
    with ServerProcess(config, log=folder / "server.log") as process, watching(process, "t1"):
        yield process  # somebody watches the table: it deals while the newcomer looks


def _rounds_played(server: ServerProcess, name: str) -> list[tuple[int, int]]:
    """``name``'s rounds as the database holds them, newest first: staked, returned."""
    path = server.config.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        found = db.execute(
            "SELECT SUM(b.amount), SUM(COALESCE(b.returned, 0)) FROM bets b"
            " JOIN table_accounts a ON a.id = b.account_id WHERE a.name = ?"
            " GROUP BY b.round_id ORDER BY b.round_id DESC",
            (wallet_account(name),),
        ).fetchall()
    return [(int(staked), int(returned)) for staked, returned in found]


def _on_screen(page: Any, selector: str) -> bool:
    """Whether the element is inside the viewport as the page is scrolled now."""
    return bool(
        page.eval_on_selector(
            selector,
            "e => { const r = e.getBoundingClientRect();"
            " return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }",
        )
    )


def _betting(page: Any, seconds: float = 3.5) -> None:
    """Wait for a betting window with ``seconds`` left."""
    from playwright.sync_api import expect

    expect(page.locator("#phase")).to_have_text("Place your bets", timeout=30_000)
    page.wait_for_function(
        f"() => parseFloat(document.getElementById('timer-text').textContent) > {seconds}",
        timeout=30_000,
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_for_a_newcomer(server: ServerProcess, size: str) -> None:
    from playwright.sync_api import expect

    with browser_page(size) as page:
        page.goto(server.url + "/")
        # hidden means hidden: the header's controls wait for a login
        expect(page.locator("#login")).to_be_visible()
        expect(page.locator("#nav")).to_be_hidden()
        page.fill("#name", f"edge_{size}")
        page.fill("#password", f"{size} password")
        page.click("#do-register")
        expect(page.locator("#lobby")).to_be_visible(timeout=20_000)
        expect(page.locator("#nav")).to_be_visible()
        # the table's first coup, in the lobby's roads: "1 coup", never "1 coups"
        for _ in range(60):
            page.click("#to-lobby")  # the lobby as it is now
            expect(page.locator(".table-card").first).to_be_visible()
            lobby = page.locator("#tables").text_content() or ""
            if re.search(r"\b[1-9]\d* coups?\b", lobby):
                break
            page.wait_for_timeout(500)
        assert re.search(r"\b1 coup\b", lobby) and not re.search(r"\b1 coups\b", lobby)
        page.locator(".table-card button").first.click()
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#squeeze-tag")).to_be_hidden()  # not a squeeze table
        expect(page.locator("#limits")).to_contain_text("Banker")  # limits on the table
        expect(page.locator("#limits")).to_contain_text("–")
        # the exact edges of the cards left, beside the layout, remembered (the server's
        # first exact computation compiles its kernels: long on a busy machine)
        page.check("#show-edges")
        expect(page.locator(".spot.banker .edge")).to_have_text(
            re.compile(r"edge 1\.\d\d%"), timeout=60_000
        )
        expect(page.locator("#edges-note")).to_contain_text("cards not yet seen")
        assert page.evaluate("localStorage.getItem('baccara.edges')") == "on"

        # Enter after clicking a spot confirms the bet (it added a chip)
        _betting(page)
        page.locator(".chip").nth(3).click()  # 100.00: over the table's minimum
        chip = (page.locator(".chip").nth(3).get_attribute("aria-label") or "").split()[-1]
        page.click(".spot.banker")
        page.keyboard.press("Enter")
        # one chip sent: Enter confirmed, it did not stake a second chip
        expect(page.locator("#bet-msg")).to_have_text(
            f"Bet accepted: Banker {chip}.", timeout=5_000
        )

        # keys work while the teaching box has the focus
        page.check("#teaching")
        assert page.evaluate("document.activeElement.id") == "teaching"
        _betting(page)
        page.keyboard.press("4")
        page.keyboard.press("p")
        expect(page.locator("#bet-msg")).to_contain_text("Player +", timeout=3_000)
        page.keyboard.press("Enter")
        expect(page.locator("#bet-msg")).to_contain_text("Bet accepted: Player", timeout=5_000)

        # the cards and the chips with Confirm on screen together (a phone too)
        page.locator("#player-cards").scroll_into_view_if_needed()
        assert _on_screen(page, "#player-cards"), size
        assert _on_screen(page, "#confirm") and _on_screen(page, "#chips"), size

        # the result is said once, and the teaching stays after it
        banner = page.locator("#result-banner")
        expect(banner).to_be_visible(timeout=20_000)
        said = banner.inner_text()
        felt = page.locator("#felt").inner_text()
        assert felt.count(said) == 1, (said, felt)
        expect(page.locator("#reason")).not_to_be_empty()
        assert _on_screen(page, "#confirm"), size  # with the result on the felt too
        page.screenshot(path=str(ARTIFACTS / f"edges-{size}.png"))

        # my own records: the round just played step by step, my wallet's movements
        expect(page.locator("#bet-msg")).to_have_text(re.compile(r"^You |^Your bets push"))
        page.click("#to-records")
        expect(page.locator("#mine")).to_be_visible()
        # the two bets fell in one round, or (a busy machine: the window closed between
        # them) in two: the records show what the database holds
        played = _rounds_played(server, f"edge_{size}")
        assert sum(staked for staked, _ in played) == 20_000 and len(played) in (1, 2)
        mine = page.locator("#my-rounds details").first
        expect(mine).to_contain_text(f"staked {format_money(played[0][0])}")
        mine.locator("summary").click()
        expect(mine.locator(".my-steps li").first).to_contain_text("Card for the Player")
        paid = sum(returned > 0 for _, returned in played)  # a round that paid back
        expect(page.locator("#my-moves tr")).to_have_count(3 + paid)  # welcome, two bets
        expect(page.locator("#my-session")).to_contain_text("2 bets")
        expect(page.locator("#my-shoes a")).to_have_attribute("href", "/api/tables/t1/shoes")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # responsible play: a loss limit, a reminder, then a break the server enforces;
        # a limit of 0.00 (no bet at all) is asked about first (it was set at once)
        asked: list[str] = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.fill("#loss-limit", "0.00")
        page.click("#loss-form button[type=submit]")
        assert asked and "0.00 stops every bet" in asked[0], asked
        limits = page.request.get(server.url + "/api/me/limits").json()
        assert limits["loss_limit"] is None, limits  # declined: nothing was set
        page.fill("#loss-limit", "500")
        page.click("#loss-form button[type=submit]")
        expect(page.locator("#play-status")).to_contain_text("Daily loss limit 500.00.")
        page.select_option("#reminder", "30")
        expect(page.locator("#play-status")).to_contain_text("A reminder every 30 minutes.")
        # more limits: a deposit limit over 7 days, a loss limit over 30 days, then a raise
        page.select_option("#period-kind", "deposit_week")
        page.fill("#period-limit", "200")
        page.click("#period-form button[type=submit]")
        expect(page.locator("#play-status")).to_contain_text("7-day deposit limit 200.00.")
        page.select_option("#period-kind", "loss_month")
        page.fill("#period-limit", "900")
        page.click("#period-form button[type=submit]")
        expect(page.locator("#play-status")).to_contain_text("30-day loss limit 900.00.")
        page.select_option("#period-kind", "deposit_week")
        page.click("#period-remove")  # a removal waits its day, shown pending
        expect(page.locator("#play-status")).to_contain_text(
            re.compile(r"7-day deposit limit 200\.00 \(from .*: no limit\)\.")
        )
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(ARTIFACTS / f"records-{size}.png"), full_page=True)
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#exclusion-form button[type=submit]")
        expect(page.locator("#login")).to_be_visible()
        expect(page.locator("#login-error")).to_contain_text("excluded from play until")
        page.fill("#name", f"edge_{size}")
        page.fill("#password", f"{size} password")
        page.click("#do-login")
        expect(page.locator("#login-error")).to_contain_text("you excluded yourself")


def test_a_short_laptop_screen_shows_every_spot_above_the_chip_bar(server: ServerProcess) -> None:
    """At 1280x800 the chip bar (it stays at the bottom of the window) covered the last
    row of side bets and the limits: now the layout fits above it, and a spot scrolled
    to (by Tab) stays clear of it."""
    from playwright.sync_api import expect

    with browser_page("laptop") as page:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(server.url + "/")
        page.fill("#name", "short_screen")
        page.fill("#password", "short screen password")
        page.click("#do-register")
        page.locator(".table-card button").first.click()
        expect(page.locator(".spot.banker_natural_8")).to_be_visible()
        bar_top = page.eval_on_selector(".bet-bar", "e => e.getBoundingClientRect().top")
        for selector in (".spot", "#limits"):
            bottoms = page.eval_on_selector_all(
                selector, "all => all.map(e => e.getBoundingClientRect().bottom)"
            )
            assert bottoms and max(bottoms) <= bar_top, (selector, bottoms, bar_top)
        page.screenshot(path=str(ARTIFACTS / "table-1280x800.png"))
