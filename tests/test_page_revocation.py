"""A page at a table when its player's session ends elsewhere (issue 23, live
revocation), in Debian's chromium: a self-exclusion made from another tab takes the
open table page back to the login within seconds, saying why, and it stays there (no
reconnecting for ever with a session that has ended)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from tests.support.browser import browser_page
from tests.support.harness import ServerProcess
from tests.test_browser import ARTIFACTS

from baccara.server.app import ServerConfig


def test_an_open_table_page_goes_to_the_login_when_the_player_excludes_themself(
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'r.db'}", tables=("t1=punto-banco",))
    with (
        ServerProcess(config, log=tmp_path / "server.log") as server,
        browser_page("laptop") as page,
    ):
        page.goto(server.url + "/")
        page.fill("#name", "tab_one")
        page.fill("#password", "tab one password")
        page.click("#do-register")
        expect(page.locator("#lobby")).to_be_visible(timeout=20_000)
        page.locator(".table-card button").first.click()
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#phase")).not_to_have_text("", timeout=10_000)  # joined
        cookie = next(c for c in page.context.cookies() if c["name"] == "baccara_session")
        excluded = httpx.post(  # the other tab: the same session
            server.url + "/api/me/exclusion",
            content=json.dumps({"days": 1}),
            headers={"Content-Type": "application/json"},
            cookies={"baccara_session": cookie["value"]},
        )
        assert excluded.status_code == 200
        expect(page.locator("#login")).to_be_visible(timeout=10_000)
        expect(page.locator("#login-error")).to_contain_text("excluded yourself")
        page.screenshot(path=str(ARTIFACTS / "revoked-laptop.png"))
        page.wait_for_timeout(3_000)  # a page that kept reconnecting would leave the login
        expect(page.locator("#login")).to_be_visible()
        log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log
