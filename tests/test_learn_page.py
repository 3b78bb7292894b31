"""The Learn page in Debian's chromium, at laptop and phone size, with no login: the
rules and the tableau tried card by card, every game's pay table with its house
edges, the dictionary (an unknown term answered in words), the FAQs, the history and
the tips. Screenshots go to artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.browser import SIZES, browser_page
from tests.support.harness import ServerProcess
from tests.test_browser import ARTIFACTS

from baccara.learn.lessons import decide
from baccara.server.app import ServerConfig


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("learn")
    config = ServerConfig(database_url=f"sqlite:///{folder / 'learn.db'}", tables=("t1=mini",))
    with ServerProcess(config, log=folder / "server.log") as process:
        yield process


def _log_in(page: Any, server: ServerProcess, name: str) -> None:
    from playwright.sync_api import expect

    page.goto(server.url + "/")
    page.fill("#name", name)
    page.fill("#password", f"{name} password")
    page.click("#do-register")
    expect(page.locator("#lobby")).to_be_visible(timeout=20_000)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_newcomer_learns_the_game(server: ServerProcess, size: str) -> None:
    from playwright.sync_api import expect

    with browser_page(size) as page:
        page.goto(server.url + "/")  # the way in, before any login
        page.click("text=Learn baccarat")
        expect(page.locator("#rules")).to_be_visible(timeout=20_000)
        expect(page.locator("#tableau-lines li")).to_have_count(8, timeout=30_000)
        # the tableau tried: Player 2+3 draws, its third card a 4, Banker 5+K draws
        decision = page.locator("#decision")
        expect(decision).to_contain_text("Player 5, Banker 5.")
        expect(decision).to_contain_text("Banker draws on 0-5 against a 4 or a 5")
        page.select_option("#p3", "8s")
        expect(decision).to_contain_text("Banker stands on 3-7 against an 8")
        page.select_option("#p1", "9s")  # 9 and 3: the Player has 2 ...
        page.select_option("#p2", "Kc")  # ... and now a natural 9: no third card
        expect(decision).to_contain_text("natural 9: no more cards are drawn, so there")
        page.select_option("#p3", "")
        expect(decision).to_contain_text("Player has a natural 9")
        page.screenshot(path=str(ARTIFACTS / f"learn-rules-{size}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

        page.click(".learn-nav >> text=Games")
        expect(page.locator("#variants")).to_be_visible()
        expect(page.locator("#rules")).to_be_hidden()
        banker = page.locator("#variant-punto-banco tr", has_text="Banker").first
        expect(banker).to_contain_text("1.06%")
        expect(page.locator("#variant-chemin-de-fer")).to_contain_text("0.8182")
        page.screenshot(path=str(ARTIFACTS / f"learn-games-{size}.png"))

        page.click(".learn-nav >> text=Dictionary")
        page.fill("#term-input", "la grande")
        page.press("#term-input", "Enter")
        expect(page.locator("#term-answer")).to_contain_text("la grande: A natural 9")
        page.fill("#term-input", "cagnote")
        page.press("#term-input", "Enter")
        expect(page.locator("#term-answer")).to_have_text(
            "no term 'cagnote' in the dictionary: did you mean cagnotte?"
        )
        for part, text in (("FAQ", "Which bet is best?"), ("History", "Charles VIII"),
                           ("Tips", "1.24% of a Player bet")):  # fmt: skip
            page.click(f".learn-nav >> text={part}")
            expect(page.locator("main")).to_contain_text(text)
        page.screenshot(path=str(ARTIFACTS / f"learn-tips-{size}.png"))
        # a term linked from outside: /learn?term=banco#dictionary
        page.goto(server.url + "/learn?term=banco#dictionary")
        expect(page.locator("#term-answer")).to_contain_text("banco: In Chemin de Fer")

        # the drills: logged out, the shoe works and the others ask for a login
        page.goto(server.url + "/learn#drills")
        expect(page.locator("#drill-login")).to_be_visible()
        page.fill("#s-seed", "oops")
        page.click("#s-form button[type=submit]")
        expect(page.locator("#s-out")).to_contain_text("whole numbers")
        page.fill("#s-seed", "5")
        page.click("#s-form button[type=submit]")
        for _ in range(3):
            page.click("#s-next")
        expect(page.locator("#s-out")).to_have_text(re.compile(r"Shoe 5: coup 3 of \d+\."))
        expect(page.locator("#s-rows tr")).to_have_count(4)
        expect(page.locator("#s-rows tr").last).to_contain_text("1.058%")  # the full shoe
        _log_in(page, server, f"drill_{size}")
        page.goto(server.url + "/learn#drills")
        question = page.locator("#t-question .hands")
        expect(question).to_contain_text("Player")
        side = (
            "banker" if "Banker:" in page.locator("#t-question .prompt").inner_text() else "player"
        )
        text = question.inner_text().replace("Player's third card", "third")
        player, rest = text.removeprefix("Player ").split(" · Banker ")
        banker, _, third = rest.partition(" · third ")
        found = decide(player, banker, third.strip() or None)
        rule = found.player if side == "player" else found.banker
        assert rule is not None
        page.click("#t-draw" if rule.draws else "#t-stand")
        expect(page.locator("#t-out")).to_contain_text(
            f"Right: {'draw' if rule.draws else 'stand'}."
        )
        expect(page.locator("#t-record")).to_contain_text("1 right of 1")
        expect(page.locator("#p-question .prompt")).to_contain_text("What goes back")
        hands = page.locator("#p-question .hands").inner_text()  # cards, not "P:9h,3d"
        assert re.search(r"^Player .*[♠♥♦♣].* · Banker ", hands) and "P:" not in hands, hands
        page.fill("#p-answer", "0.01")
        page.click("#p-form button[type=submit]")
        expect(page.locator("#p-out")).to_contain_text("Not quite")
        page.screenshot(path=str(ARTIFACTS / f"learn-drills-{size}.png"), full_page=True)


def test_the_page_and_its_module_are_served(server: ServerProcess) -> None:
    import httpx

    assert "learn.js" in httpx.get(server.url + "/learn").text
    script = httpx.get(server.url + "/static/learn.js").text
    assert "/api/learn" in script
    assert (
        Path(__file__).resolve().parents[1].joinpath("src/baccara/server/static/learn.css").exists()
    )
