"""The operator's console (``/admin``) in Debian's chromium, at laptop (1280x800) and
phone (390x844) size: an operator signs in and walks every section (opens a table,
sees it listed, pauses (by keyboard) and resumes it, changes its limits, closes one,
stops and resumes a game's play, books a deposit and a withdrawal for a player and reads
them on the player's statement and its CSV, as the books have them, stops and restores a
player's logins, reads those actions in the audit log); compliance walks the reports
(each grouping against the bets' own sums, the plot, the CSV), a player's account and
last rounds replayed card by card, suspends, reinstates and notes a player, scans the
alerts, reads one's evidence and acknowledges it; an auditor sees no change and a
change forced all the same gets the server's 403 in words; a session ended elsewhere
brings back the sign-in; a player who opens ``/admin`` is told the console is for staff.
The server's table t1 deals fast, and ann bets at it through the table's socket before
the tests. axe-core checks every section. Screenshots go to /tmp/admin-shots/.

One browser and one server for the module; each test has its own browser context."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.harness import Player, ServerProcess
from tests.test_browser import ARGS, CHROMIUM, _need_chromium
from tests.test_people import _stored_shoes

from baccara.bets import BetKind, settle
from baccara.coup import deal_coup
from baccara.db.auth import Auth
from baccara.db.books import wallet_account
from baccara.db.ledger import Ledger
from baccara.db.staff import Role
from baccara.exact.theory import price
from baccara.money import format_money
from baccara.server.app import ServerConfig
from baccara.server.tables.make import TABLE_KINDS
from baccara.shoe import Shoe, ShoeSettings
from baccara.variants import PUNTO_BANCO, variants_of

SHOTS = Path("/tmp/admin-shots")
SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
PASSWORD = "a long password"
STAFF = {"olga": Role.OPERATOR, "cora": Role.COMPLIANCE, "ivan": Role.AUDITOR}
SECTIONS = ("tables", "cashier", "players", "reports", "alerts", "audit")
JSON = {"Content-Type": "application/json"}
FAST = {"bet_seconds": 1.0, "card_seconds": 0.01, "result_seconds": 0.05}
# ann's bets at t1, a round each: the reports, the replay and the RTP have real play
PLAYS = [("banker", 1_000), ("player", 2_500), ("banker", 1_010)]
MOVED = 210_000  # a deposit past the alert's 2,000.00 in a day, for each size's player


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("admin-pages")
    config = ServerConfig(
        database_url=f"sqlite:///{folder / 'console.db'}",
        tables=("t1=punto-banco", "c1=chemin-de-fer"),
        logins_per_minute=6000,
        **FAST,
    )
    with ServerProcess(config, log=folder / "server.log") as process:
        ledger = Ledger.connect(config.database_url)
        try:
            for name, role in STAFF.items():
                Auth(ledger).create_staff(name, PASSWORD, role, actor="cli")
        finally:
            ledger.database.dispose()
        for player in ("ann", "cyd"):
            reply = httpx.post(
                process.url + "/api/register",
                json={"name": player, "password": PASSWORD},
                headers=JSON,
            )
            assert reply.status_code == 200, reply.text
        _seed(process)
        yield process


def _deal_hot_shoe(ledger: Ledger, now: float) -> None:
    """Table "hot" deals a seeded shoe, 100.00 on the Banker every coup, priced as Punto
    Banco but paid 3:1 without commission (its z-score is past -4); then a round of
    table "v1" is voided with its bet refunded (an interrupted round)."""
    wallet = ledger.create_account(wallet_account("hot-seat"))
    ledger.deposit(wallet, 10**10, ref="hot-seat")
    paid = replace(PUNTO_BANCO, banker_pays=Fraction(3))
    shoe = Shoe.shuffled(ShoeSettings(decks=8), seed=11)
    shoe.burn()
    number = 0
    while not shoe.finished:
        number += 1
        rnd = ledger.open_round(table="hot", number=number, shoe_id=9011, coup_index=number)
        ledger.place_bet(
            account=wallet, round_id=rnd, bet_id=f"hot-{number}", kind="banker", amount=10_000
        )
        ledger.close_round(rnd)
        priced = price(shoe.cards[shoe.position :], PUNTO_BANCO)
        coup = deal_coup(shoe)
        returned = settle(BetKind.BANKER, 10_000, coup, paid).returned
        ledger.settle_round(
            rnd, coup, "punto-banco", {(wallet, "banker"): returned}, price=priced, now=now
        )
    rnd = ledger.open_round(table="v1", number=1, shoe_id=9012, coup_index=1)
    ledger.place_bet(account=wallet, round_id=rnd, bet_id="v1-1", kind="player", amount=500)
    assert ledger.void_round(rnd, "round 1 was open: voided, bets refunded", now=now)


def _seed(process: ServerProcess) -> None:
    """Money for ann, who then bets on a few rounds at t1 through the table's socket (as
    the page does); a deposit past the day's 2,000.00 for each size's player."""
    with httpx.Client(base_url=process.url, headers=JSON) as olga:
        assert olga.post("/api/login", json={"name": "olga", "password": PASSWORD}).is_success
        for player, amount, reference in [
            ("ann", 100_000, "seed-ann"),
            *((f"mo-{size}", MOVED, f"big-{size}") for size in SIZES),
        ]:
            if player != "ann":
                body = {"name": player, "password": PASSWORD}
                assert httpx.post(process.url + "/api/register", json=body, headers=JSON).is_success
            booked = olga.post(
                "/api/admin/cashier/deposit",
                json={"player": player, "amount": format_money(amount), "reference": reference},
            )
            assert booked.status_code == 200, booked.text

    ledger = Ledger.connect(process.config.database_url)
    try:
        _deal_hot_shoe(ledger, now=time.time())
    finally:
        ledger.database.dispose()

    async def play() -> None:
        ann = Player(process, "ann")
        ann.password = PASSWORD
        await ann.register()
        await ann.join("t1")
        played: list[int] = []
        try:
            while len(played) < len(PLAYS):
                opened = await ann.expect(lambda m: m["type"] == "round_open")
                if opened["closes_at"] > time.time() + 0.3:  # time enough to bet in
                    kind, amount = PLAYS[len(played)]
                    answer = await ann.bet(kind, amount, round=opened["round"])
                    if answer["type"] == "bet_ack":
                        played.append(opened["round"])
            await ann.expect(lambda m: m["type"] == "payout" and m["round"] == played[-1])
        finally:
            await ann.close()

    asyncio.run(play())


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page_at(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(size: str) -> Any:
        width, height = SIZES[size]
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _wallet(server: ServerProcess, player: str) -> int:
    """The player's wallet from the books, summed here from its entries."""
    path = server.config.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        (total,) = db.execute(
            "SELECT COALESCE(SUM(e.amount), 0) FROM table_entries e"
            " JOIN table_accounts a ON a.id = e.account_id WHERE a.name = ?",
            (wallet_account(player),),
        ).fetchone()
    return int(total)


def _sign_in(page: Any, server: ServerProcess, name: str) -> None:
    from playwright.sync_api import expect

    page.goto(server.url + "/admin")
    expect(page.locator("#signin")).to_be_visible(timeout=20_000)
    page.fill("#signin-name", name)
    page.fill("#signin-password", PASSWORD)
    page.press("#signin-password", "Enter")


def _to(page: Any, section: str) -> None:
    from playwright.sync_api import expect

    page.click(f"#console-nav a[data-section={section}]")
    expect(page.locator(f"section#{section}")).to_be_visible()
    expect(page.locator(f"#console-nav a[data-section={section}]")).to_have_attribute(
        "aria-current", "page"
    )


def _accessible(page: Any, where: str) -> None:
    """axe-core finds nothing on the page as shown; the page is no wider than the window."""
    from axe_playwright_python.sync_playwright import Axe

    text = page.locator("main").inner_text()
    assert "null" not in text and "undefined" not in text, where
    found = Axe().run(page)
    assert found.violations_count == 0, f"{where}: {found.generate_report()}"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), where


def _row(page: Any, table: str) -> Any:
    return page.locator(f"tr[data-table='{table}']")


def _confirm(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#confirm")).to_be_visible()
    page.click("#confirm-yes")


@pytest.mark.parametrize("size", list(SIZES))
def test_an_operator_walks_every_section(server: ServerProcess, page_at: Any, size: str) -> None:
    from playwright.sync_api import expect

    page = page_at(size)
    _sign_in(page, server, "olga")
    expect(page.locator("#tables")).to_be_visible(timeout=20_000)
    expect(page.locator("#who")).to_have_text("olga (operator)")
    expect(_row(page, "t1")).to_contain_text("open")
    _accessible(page, f"tables, {size}")

    # open a table with a game the server offers: listed, open
    offered = page.locator("select[name=variant] option")
    expect(offered).to_have_count(len(variants_of(TABLE_KINDS)))
    table = f"n-{size}"
    page.fill("input[name=id]", table)
    page.select_option("select[name=variant]", "ez")
    page.click("text=Open the table")
    expect(page.locator("#tables .news")).to_have_text(f"Table {table} is open (ez).")
    expect(_row(page, table).locator(".state")).to_have_text("open")
    # the same id again: the server's refusal, in one line with its code
    page.fill("input[name=id]", table)
    page.click("text=Open the table")
    expect(page.locator("#tables .news.fail")).to_have_text(
        f"table '{table}' exists (open) (table_exists)"
    )

    # pause, by keyboard: the confirmation opens on Cancel, Yes is one Shift+Tab away
    _row(page, table).get_by_role("button", name=f"Pause table {table}").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-no")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#confirm-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(_row(page, table).locator(".state")).to_have_text("Paused by the house")
    page.screenshot(path=str(SHOTS / f"tables-{size}.png"), full_page=True)
    _row(page, table).get_by_role("button", name=f"Resume table {table}").click()
    expect(_row(page, table).locator(".state")).to_have_text("open")

    # the limits and a timing, from the table's next round
    _row(page, table).locator("summary", has_text="Change limits").click()
    setup = _row(page, table).locator("form.setup")
    setup.get_by_label("Minimum").fill("20.00")
    setup.get_by_label("Maximum").fill("600.00")
    setup.get_by_label("Betting window (s)").fill("12")
    _accessible(page, f"tables with the limits open, {size}")
    setup.get_by_role("button", name="Save limits and timings").click()
    expect(page.locator("#tables .news")).to_have_text(f"Table {table}: limits and timings saved.")
    expect(_row(page, table)).to_contain_text("20.00 – 600.00 (set here)")
    expect(_row(page, table)).to_contain_text("Betting window 12 s")

    # stop one game's play, then resume it
    page.select_option("select[name=scope]", "chemin-de-fer")
    page.click("text=Stop play")
    _confirm(page)
    expect(page.locator("#stops-now")).to_have_text("Play is stopped: chemin-de-fer.")
    expect(_row(page, "c1").locator(".state")).to_contain_text("stopped")
    page.click("text=Resume play")
    expect(page.locator("#stops-now")).to_have_text("Play runs everywhere.")

    # a deposit to ann: the answer, the statement and its CSV, as the books have it
    _to(page, "cashier")
    before = _wallet(server, "ann")
    page.fill("input[name=player]", "ann")
    page.fill("input[name=amount]", "10.50")
    page.fill("input[name=reference]", f"slip-{size}")
    page.click("text=Book it")
    news = page.locator("#cashier .news")
    expect(news).to_contain_text(f"Deposit of 10.50 for ann, reference slip-{size}.")
    after = _wallet(server, "ann")
    assert after - before == 1050
    expect(news).to_have_text(
        f"Deposit of 10.50 for ann, reference slip-{size}. Wallet now {format_money(after)}."
    )
    statement = page.locator("table.statement tbody tr")
    expect(statement.last).to_contain_text(f"slip-{size}")
    expect(statement.last).to_contain_text("10.50")
    expect(page.locator(".net")).to_have_text(f"Net: {format_money(after)}")
    _accessible(page, f"cashier, {size}")
    page.screenshot(path=str(SHOTS / f"cashier-{size}.png"), full_page=True)
    link = page.locator("a.csv").get_attribute("href")
    rows = list(csv.DictReader(io.StringIO(page.request.get(server.url + link).text())))
    assert sum(int(row["amount_cents"]) for row in rows) == after
    assert rows[-1]["memo"].endswith(f"slip-{size}") or f"slip-{size}" in rows[-1]["memo"]
    # a withdrawal
    page.fill("input[name=amount]", "0.50")
    page.fill("input[name=reference]", f"pay-{size}")
    page.check("input[name=kind][value=withdrawal]")
    page.click("text=Book it")
    expect(news).to_contain_text(f"Withdrawal of 0.50 for ann, reference pay-{size}.")
    paid = _wallet(server, "ann")
    assert after - paid == 50
    expect(news).to_contain_text(f"Wallet now {format_money(paid)}.")
    expect(page.locator(".net")).to_have_text(f"Net: {format_money(paid)}")
    after = paid
    # a bad amount: refused in one line, nothing booked
    page.fill("input[name=amount]", "-5")
    page.fill("input[name=reference]", f"bad-{size}")
    page.click("text=Book it")
    expect(page.locator("#cashier .news.fail")).to_contain_text("(bad_amount)")
    assert _wallet(server, "ann") == after

    # close a table (confirmed): closed, and it may be opened again
    _to(page, "tables")
    closing = f"z-{size}"
    page.fill("input[name=id]", closing)
    page.click("text=Open the table")
    expect(_row(page, closing).locator(".state")).to_have_text("open")
    _row(page, closing).get_by_role("button", name=f"Close table {closing}").click()
    _confirm(page)
    expect(_row(page, closing).locator(".state")).to_have_text("closed")
    _row(page, closing).get_by_role("button", name=f"Open again: table {closing}").click()
    expect(page.locator("#tables .news")).to_have_text(f"Table {closing} is open again.")
    expect(_row(page, closing).locator(".state")).to_have_text("open")

    # the operator finds a player (reads only: no suspension, no note)
    _to(page, "players")
    page.fill("input[name=q]", "cy")
    page.click("#players >> text=Search")
    expect(page.locator("#players .found button[data-player=cyd]")).to_be_visible()
    # cyd's logins stopped (confirmed): cyd's login is refused; letting cyd in again is
    # compliance's (no button for the operator), done here by cora over HTTP
    page.fill("input[name=logins-player]", "cyd")
    page.click("text=Stop logins")
    _confirm(page)
    expect(page.locator("#players .news")).to_have_text("cyd's logins are stopped.")
    login = {"name": "cyd", "password": PASSWORD}
    refused = httpx.post(server.url + "/api/login", json=login, headers=JSON)
    assert (refused.status_code, refused.json()["error"]) == (403, "suspended")
    expect(page.locator("#players >> text=Let them log in")).to_have_count(0)
    with httpx.Client(base_url=server.url, headers=JSON) as cora:
        signed = cora.post("/api/login", json={"name": "cora", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        lifted = cora.post("/api/admin/players/cyd/logins", json={"stopped": False})
        assert lifted.json() == {"name": "cyd", "stopped": False}, lifted.text
    assert httpx.post(server.url + "/api/login", json=login, headers=JSON).status_code == 200
    _accessible(page, f"players, {size}")
    page.screenshot(path=str(SHOTS / f"players-{size}.png"), full_page=True)
    page.click("#players button[data-player=cyd]")
    expect(page.locator("#players dd[data-fact=Balance]")).to_have_text(
        format_money(_wallet(server, "cyd"))
    )
    assert page.locator("#players button", has_text="Suspend").count() == 0
    expect(page.locator("#players .note-form")).to_have_count(0)
    _to(page, "reports")
    expect(page.locator("#reports table.hold tr[data-key=t1]")).to_be_visible()
    _to(page, "alerts")  # the operator's role does not read the alerts
    expect(page.locator("#alerts .read-only")).to_have_text(
        "Your role (operator) may not read the alerts."
    )

    # the audit log, newest page: those actions, by olga in the operator role
    _to(page, "audit")
    for action in ("table.open", "table.pause", "table.resume", "table.setup", "play.stop"):
        expect(page.locator(f"#audit tr[data-action='{action}']").first).to_contain_text(
            "olga (operator)"
        )
    deposit = page.locator("#audit tr[data-action='cashier.deposit']").first
    expect(deposit).to_contain_text("ann")
    page.fill("input[name=action]", "table.pause")
    expect(page.locator("#audit tbody tr[data-action]").first).to_have_attribute(
        "data-action", "table.pause"
    )
    assert set(
        page.locator("#audit tbody tr").evaluate_all("r => r.map(x => x.dataset.action)")
    ) == {"table.pause"}
    page.fill("input[name=action]", "")
    _accessible(page, f"audit, {size}")
    page.screenshot(path=str(SHOTS / f"audit-{size}.png"), full_page=True)

    page.click("#logout")
    expect(page.locator("#signin")).to_be_visible()
    _accessible(page, f"sign in, {size}")
    page.screenshot(path=str(SHOTS / f"signin-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_an_auditor_reads_and_changes_nothing(
    server: ServerProcess, page_at: Any, size: str
) -> None:
    from playwright.sync_api import expect

    page = page_at(size)
    _sign_in(page, server, "ivan")
    expect(page.locator("#tables")).to_be_visible(timeout=20_000)
    expect(_row(page, "t1")).to_be_visible()
    changes = ("Pause", "Resume", "Close", "Open", "Stop", "Book", "Save", "Let them", "Suspend",
               "Reinstate", "Add", "Acknowledge", "Scan")  # fmt: skip
    for section in SECTIONS:
        _to(page, section)
        shown = page.locator(f"section#{section} button:visible").all_inner_texts()
        assert not [t for t in shown if t.startswith(changes)], (section, shown)
    _to(page, "tables")
    expect(page.locator("#tables .read-only")).to_contain_text("Your role (auditor) reads")
    expect(page.locator("#tables form.setup")).to_have_count(0)
    _to(page, "cashier")
    expect(page.locator("input[name=amount]")).to_have_count(0)
    page.fill("input[name=statement-player]", "ann")
    page.click("text=Show the statement")
    expect(page.locator(".net")).to_have_text(f"Net: {format_money(_wallet(server, 'ann'))}")
    _accessible(page, f"auditor's cashier, {size}")
    page.screenshot(path=str(SHOTS / f"auditor-{size}.png"), full_page=True)
    # a change the page does not offer, asked all the same: the server's 403
    answer = page.evaluate(
        """async () => {
            const { call, errorLine } = await import("/static/admin/common.js");
            try { await call("/api/admin/tables/t1/pause", { method: "POST", body: {} }); return "done"; }
            catch (error) { return errorLine(error); }
        }"""
    )
    assert answer == "Your role may not do this: for the operator role only (wrong_role)"
    # the session ends elsewhere: the next read asks to sign in again, in words
    assert page.request.post(server.url + "/api/logout", data="{}", headers=JSON).ok
    page.click("#console-nav a[data-section=tables]")
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#notice")).to_have_text("Your session has ended: sign in again.")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_is_told_the_console_is_for_staff(
    server: ServerProcess, page_at: Any, size: str
) -> None:
    from playwright.sync_api import expect

    page = page_at(size)
    _sign_in(page, server, "ann")
    refused = page.locator("#refused")
    expect(refused).to_be_visible(timeout=20_000)
    expect(page.locator("#refused-text")).to_have_text(
        "You are signed in with a player's account. The console is for the house's staff: "
        "log out, then sign in with a staff account."
    )
    expect(page.locator("#sections")).to_be_hidden()
    page.reload()  # coming back with the player's session: the same refusal
    expect(refused).to_be_visible()
    _accessible(page, f"a player, {size}")
    page.screenshot(path=str(SHOTS / f"player-{size}.png"), full_page=True)
    page.click("#refused-logout")
    expect(page.locator("#signin")).to_be_visible()
    # a wrong password: the server's refusal in one line
    page.fill("#signin-name", "olga")
    page.fill("#signin-password", "not the password")
    page.press("#signin-password", "Enter")
    expect(page.locator("#signin-error")).to_contain_text("(")


def test_the_console_routes_it_reads(server: ServerProcess) -> None:
    """``/admin`` is a page for anyone (it asks who is signed in); ``/api/admin/access``
    and ``/api/admin/variants`` answer staff only, each role with the routes its role may
    call, read from the routes themselves."""
    page = httpx.get(server.url + "/admin")
    assert page.status_code == 200 and "/static/admin/admin.js" in page.text
    assert httpx.get(server.url + "/api/admin/access").json()["error"] == "not_logged_in"
    seen = {}
    for name in STAFF:
        with httpx.Client(base_url=server.url) as client:
            login = client.post(
                "/api/login", json={"name": name, "password": PASSWORD}, headers=JSON
            )
            assert login.status_code == 200, login.text
            seen[name] = client.get("/api/admin/access").json()
            found = client.get("/api/admin/variants").json()["variants"]
            assert [v["name"] for v in found] == [v.name for v in variants_of(TABLE_KINDS)]
    olga, ivan = seen["olga"]["may"], seen["ivan"]["may"]
    assert seen["olga"]["role"] == "operator" and seen["ivan"]["role"] == "auditor"
    for change in (
        "POST /api/admin/tables",
        "POST /api/admin/tables/{table_id}/pause",
        "PATCH /api/admin/tables/{table_id}",
        "POST /api/admin/cashier/deposit",
        "POST /api/admin/players/{name}/logins",
    ):
        assert change in olga and change not in ivan
    for read in ("GET /api/admin/tables", "GET /api/admin/audit", "GET /api/admin/variants"):
        assert read in olga and read in ivan
    with httpx.Client(base_url=server.url) as client:
        client.post("/api/login", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        assert client.get("/api/admin/access").json()["error"] == "staff_only"


def test_the_audit_log_pages_from_the_newest(server: ServerProcess, page_at: Any) -> None:
    """Past a page of entries: the newest 50 first, newest on top; Older, Newer and
    Oldest move by pages of the log as the database holds it."""
    from playwright.sync_api import expect

    with httpx.Client(base_url=server.url, headers=JSON) as client:
        login = client.post("/api/login", json={"name": "olga", "password": PASSWORD})
        assert login.status_code == 200, login.text
        for _ in range(30):
            assert client.post("/api/admin/tables/t1/pause", json={}).status_code == 200
            assert client.post("/api/admin/tables/t1/resume", json={}).status_code == 200
    path = server.config.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM audit_log ORDER BY id")]
    assert len(ids) > 60

    page = page_at("laptop")
    _sign_in(page, server, "ivan")
    _to(page, "audit")
    shown = page.locator("#audit tbody tr td:first-child")

    def numbers() -> list[int]:
        return [int(text) for text in shown.all_inner_texts()]

    expect(shown.first).to_have_text(str(ids[-1]))
    assert numbers() == ids[-50:][::-1]
    expect(page.locator("#audit .page-line")).to_have_text(
        f"Entries {ids[-1]} to {ids[-50]}, newest first."
    )
    page.click("#audit >> text=Older")  # the 50 numbers before those shown
    older = [i for i in ids if ids[-50] - 51 < i < ids[-50]]
    expect(shown.first).to_have_text(str(older[-1]))
    assert numbers() == older[::-1]
    page.click("#audit >> text=Newer")
    expect(shown.first).to_have_text(str(ids[-1]))
    page.click("#audit >> text=Oldest")
    expect(shown.last).to_have_text(str(ids[0]))
    expect(page.locator("#audit tbody tr").last).to_contain_text("staff.create")
    page.click("#audit >> text=Check the chain")  # the chain as the database holds it
    expect(page.locator("#audit .verdict")).to_have_text(
        f"The chain holds: {len(ids)} entries, each following the one before it."
    )


def _sql(server: ServerProcess, query: str, *args: Any) -> list[Any]:
    path = server.config.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        return db.execute(query, args).fetchall()


# the settled bets at house tables, summed here by the group asked (not by the reports)
_SETTLED = (
    "SELECT {key}, COUNT(DISTINCT b.round_id), SUM(b.amount), SUM(b.amount - b.returned)"
    " FROM bets b JOIN rounds r ON r.id = b.round_id WHERE r.phase = 'settled' GROUP BY {key}"
)
_KEYS = {"table": "r.table_id", "kind": "b.kind", "shoe": "r.shoe_id"}


@pytest.mark.parametrize("size", list(SIZES))
def test_compliance_walks_reports_players_and_alerts(
    server: ServerProcess, page_at: Any, size: str
) -> None:
    """Reports by every grouping (the figures as the bets sum them, the plot with a
    point per day of the series, the CSV); ann's account and last rounds replayed step
    by step to the cards the stored fair shoe deals; a player suspended, reinstated and
    noted; a money alert scanned, its evidence read, acknowledged, and audited."""
    from playwright.sync_api import expect

    page = page_at(size)
    _sign_in(page, server, "cora")
    expect(page.locator("#tables")).to_be_visible(timeout=20_000)

    # -- reports: each grouping; its total is the settled bets' sum
    _to(page, "reports")
    (total,) = _sql(server, _SETTLED.format(key="1"))
    _, rounds, handle, win = total
    for by in ("table", "game", "kind", "band", "shoe", "day"):
        page.select_option("select[name=by]", by)
        hold = page.locator(f"#reports table.hold[data-by={by}]")
        foot = hold.locator("tfoot tr")
        expect(foot.locator("td[data-label=Handle]")).to_have_text(format_money(handle))
        expect(foot.locator("td[data-label='House win']")).to_have_text(format_money(win))
        if by in _KEYS:
            for key, counted, staked, kept in _sql(server, _SETTLED.format(key=_KEYS[by])):
                row = hold.locator(f"tbody tr[data-key='{key}']")
                expect(row.locator("td[data-label=Rounds]")).to_have_text(str(counted))
                expect(row.locator("td[data-label=Handle]")).to_have_text(format_money(staked))
                expect(row.locator("td[data-label='House win']")).to_have_text(format_money(kept))
    expect(page.locator("#reports table.hold tfoot td[data-label=Rounds]")).to_have_text(
        str(rounds)
    )
    # the table paid 3:1 is past 4 SD, said in words; t1 is not marked
    page.select_option("select[name=by]", "table")
    expect(page.locator("#reports tr[data-key=hot] td.z-alarm")).to_contain_text("beyond 4 SD")
    expect(page.locator("#reports tr[data-key=t1] td.z-alarm")).to_have_count(0)
    # one table's reports
    page.fill("input[name=report-table]", "hot")
    page.click("#reports >> text=Show the reports")
    expect(page.locator("#reports table.hold tbody tr")).to_have_count(1)
    expect(page.locator("#reports table.hold tbody tr[data-key=hot]")).to_be_visible()
    expect(page.locator("#reports table.interrupted")).to_have_count(0)
    page.fill("input[name=report-table]", "")
    page.click("#reports >> text=Show the reports")
    voided = page.locator("#reports table.interrupted tbody tr")
    expect(voided).to_have_count(1)
    expect(voided).to_contain_text("v1 #1")
    expect(voided).to_contain_text("voided, every bet refunded")
    expect(voided.locator("td[data-label=Handle]")).to_have_text("5.00")
    series = page.request.get(server.url + "/api/admin/reports/hold/series").json()["points"]
    assert series, "a day with settled bets"
    expect(page.locator("#reports svg.plot .actual-points circle")).to_have_count(len(series))
    expect(page.locator("#reports svg.plot title").first).to_contain_text("House win against")
    expect(page.locator("#reports table.series tbody tr")).to_have_count(len(series))
    sheet = page.request.get(
        server.url + page.locator("#reports a.dl-csv").first.get_attribute("href")
    )
    assert sheet.ok and sheet.headers["content-type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(sheet.text())))
    assert lines[0][:5] == ["key", "rounds", "bets", "handle", "win"]
    assert lines[-1][0] == "total" and lines[-1][3:5] == [format_money(handle), format_money(win)]
    expect(page.locator("#reports table.rtp tbody tr").first).to_be_visible()
    _accessible(page, f"reports, {size}")
    page.screenshot(path=str(SHOTS / f"reports-{size}.png"), full_page=True)

    # -- ann: the account and the last rounds, replayed to the cards the fair shoe deals
    _to(page, "players")
    page.fill("input[name=q]", "an")
    page.click("#players >> text=Search")
    page.click("#players button[data-player=ann]")
    expect(page.locator("#players dd[data-fact=Balance]")).to_have_text(
        format_money(_wallet(server, "ann"))
    )
    link = page.locator("#players a.statement-csv").get_attribute("href")
    assert page.request.get(server.url + link).ok
    replays = page.locator("#players details.replay")
    expect(replays).to_have_count(len(PLAYS))
    newest = replays.first
    number = int(newest.get_attribute("data-round"))
    ((shoe_id, coup_index),) = _sql(
        server,
        "SELECT shoe_id, coup_index FROM rounds WHERE table_id = 't1' AND number = ?"
        " ORDER BY id DESC LIMIT 1",
        number,
    )
    dealt = _stored_shoes(server.config.database_url)[shoe_id][coup_index - 1]
    stage = newest.locator(".replay-stage .pcard")
    expect(newest.locator(".step-count")).to_contain_text("Step 1 of")
    expect(newest.locator(".step-prev")).to_be_disabled()
    steps = 1
    while newest.locator(".step-next").is_enabled():
        newest.locator(".step-next").click()
        steps += 1
        expect(newest.locator(".step-count")).to_contain_text(f"Step {steps} of")
    assert sorted(stage.evaluate_all("cs => cs.map(c => c.dataset.card)")) == sorted(dealt)
    newest.locator(".step-prev").click()
    expect(newest.locator(".step-count")).to_contain_text(f"Step {steps - 1} of")
    _accessible(page, f"a player's replay, {size}")
    page.screenshot(path=str(SHOTS / f"replay-{size}.png"), full_page=True)

    # -- suspend (confirmed), reinstate, a note
    mo = f"mo-{size}"
    login = {"name": mo, "password": PASSWORD}
    page.fill("input[name=q]", mo)
    page.click("#players >> text=Search")
    page.click(f"#players button[data-player={mo}]")
    expect(page.locator("#player-title")).to_have_text(mo)
    page.get_by_role("button", name=f"Suspend {mo}").click()
    _confirm(page)
    expect(page.locator("#players .news")).to_have_text(f"{mo} is suspended until reinstated.")
    expect(page.locator("#players dd[data-fact=Status]")).to_have_text("Suspended until reinstated")
    refused = httpx.post(server.url + "/api/login", json=login, headers=JSON)
    assert (refused.status_code, refused.json()["error"]) == (403, "suspended")
    page.get_by_role("button", name=f"Reinstate {mo}").click()
    _confirm(page)
    expect(page.locator("#players .news")).to_have_text(f"{mo} is reinstated.")
    expect(page.locator("#players dd[data-fact=Status]")).to_have_text("May play")
    assert httpx.post(server.url + "/api/login", json=login, headers=JSON).status_code == 200
    page.fill("#note-text", f"called {mo}: asked for a break")
    page.click("#players >> text=Add the note")
    note = page.locator("#players .notes li").first
    expect(note).to_contain_text(f"called {mo}: asked for a break")
    expect(note).to_contain_text("cora (compliance)")
    expect(page.locator("#players table.history tbody tr").first).to_contain_text("cora")
    _accessible(page, f"a player, {size}")
    page.screenshot(path=str(SHOTS / f"player-detail-{size}.png"), full_page=True)

    # -- alerts: a scan raises the deposit past 2,000.00; its evidence; acknowledged
    _to(page, "alerts")
    page.click("#alerts >> text=Scan these days")
    expect(page.locator("#alerts .news")).to_contain_text("Scanned 30 days:")
    alert = page.locator(f"#alerts tr[data-marker=money_moved][data-subject='{mo}']")
    expect(alert.locator(".state")).to_have_text("Open: not acknowledged")
    alert.locator(".evidence summary").click()
    evidence = alert.locator(".evidence-rows tbody tr")
    expect(evidence).to_have_count(1)
    expect(evidence.locator("td[data-label=reference]")).to_have_text(f"big-{size}")
    expect(evidence.locator("td[data-label=amount]")).to_have_text(format_money(MOVED))
    # the table paid 3:1: its day's hold past 4 SD, with the figures the bets sum to
    hot = page.locator("#alerts tr[data-marker=table_hold][data-subject=hot]")
    hot.locator(".evidence summary").click()
    ((staked, kept),) = _sql(
        server,
        "SELECT SUM(b.amount), SUM(b.amount - b.returned) FROM bets b"
        " JOIN rounds r ON r.id = b.round_id WHERE r.table_id = 'hot'",
    )
    expect(hot.locator("td[data-label=handle]")).to_have_text(format_money(staked))
    expect(hot.locator("td[data-label=house_win]")).to_have_text(format_money(kept))
    _accessible(page, f"alerts, {size}")
    page.screenshot(path=str(SHOTS / f"alerts-{size}.png"), full_page=True)
    alert_id = alert.get_attribute("data-alert")
    alert.get_by_role("button", name="Acknowledge").click()
    _confirm(page)
    expect(alert.locator(".state")).to_contain_text("Acknowledged by cora at")
    assert alert.get_by_role("button", name="Acknowledge").count() == 0
    ((acknowledged_by,),) = _sql(
        server, "SELECT acknowledged_by FROM alerts WHERE id = ?", alert_id
    )
    assert acknowledged_by == "cora"
    _to(page, "audit")
    page.fill("input[name=action]", "alert.acknowledge")
    expect(page.locator("#audit tr[data-action='alert.acknowledge']").first).to_contain_text(
        "cora (compliance)"
    )
