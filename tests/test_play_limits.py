"""Responsible play: a daily loss limit the table enforces, a session reminder, and a
self-exclusion the server enforces (no login, no session, until it ends)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from tests.support.harness import Player
from tests.support.inprocess import ServerThread
from tests.test_hardening_http import in_process

from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig, create_app


async def _post(client: httpx.AsyncClient, path: str, body: object) -> httpx.Response:
    return await client.post(
        path, content=json.dumps(body), headers={"Content-Type": "application/json"}
    )


async def _limited(server: ServerThread, name: str, limit: str) -> Player:
    """A registered player who has set a daily loss limit of ``limit``."""
    player = Player(server, name)
    await player.register()
    async with httpx.AsyncClient(base_url=server.url) as client:
        client.cookies.set("baccara_session", player.token)
        await _post(client, "/api/me/limits", {"loss_limit": limit})
    return player


def test_limits_and_a_self_exclusion_over_http(tmp_path: Path) -> None:
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'l.db'}", tables=())
    me = {"name": "careful", "password": "careful pw"}

    async def scenario(client: httpx.AsyncClient) -> None:
        assert (await client.get("/api/me/limits")).status_code == 401
        await _post(client, "/api/register", me)
        first = (await client.get("/api/me/limits")).json()
        assert first["loss_limit"] is None and first["session_since"] > 0
        set_ = (await _post(client, "/api/me/limits", {"loss_limit": "50.00"})).json()
        assert set_["loss_limit"] == 5_000 and set_["next_from"] is None  # a first limit: now
        raised = (await _post(client, "/api/me/limits", {"loss_limit": "80"})).json()
        assert raised["loss_limit"] == 5_000 and raised["next_loss_limit"] == 8_000
        assert raised["next_from"] > first["session_since"] + 86_000  # a raise waits a day
        cut = (await _post(client, "/api/me/limits", {"reminder_minutes": 30})).json()
        assert cut["reminder_minutes"] == 30 and cut["loss_limit"] == 5_000  # left as it was
        for body, message in (
            ({"loss_limit": "lots"}, "loss_limit"),
            ({"loss_limit": "-5"}, "loss_limit"),
            ({"reminder_minutes": 1}, "reminder_minutes"),
            ({"surprise": 1}, "surprise"),
        ):
            refused = await _post(client, "/api/me/limits", body)
            assert refused.status_code == 400 and message in refused.json()["message"], body
        assert (await client.get("/api/me/limits")).json() == cut  # nothing changed
        other_site = await client.post("/api/me/exclusion", content="days=1")
        assert other_site.status_code == 415
        assert (await _post(client, "/api/me/exclusion", {"days": 2})).status_code == 400
        for not_a_day in (True, False, "7"):  # true was taken as 1: a day's exclusion
            refused = await _post(client, "/api/me/exclusion", {"days": not_a_day})
            assert refused.status_code == 400 and "days" in refused.json()["message"], not_a_day
        assert (await client.get("/api/me")).status_code == 200  # still here: not excluded
        out = await _post(client, "/api/me/exclusion", {"days": 7})
        assert out.status_code == 200 and out.json()["excluded_until"] > first["session_since"]
        assert (await client.get("/api/me")).status_code == 401  # the session ended
        back = await _post(client, "/api/login", me)
        assert back.status_code == 403 and back.json()["error"] == "self_excluded"
        assert "until" in back.json()["message"]
        wrong = await _post(client, "/api/login", {**me, "password": "not the password"})
        assert wrong.status_code == 401  # a wrong password says nothing of the exclusion

    in_process(create_app(config), scenario)


def test_the_table_keeps_a_player_within_their_daily_loss_limit(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'loss.db'}"
    config = ServerConfig(
        database_url=url, tables=("t1=punto-banco",), bet_seconds=3.0,
        card_seconds=0.01, result_seconds=0.1,
    )  # fmt: skip

    async def scenario(server: ServerThread) -> dict[str, Any]:
        player = await _limited(server, "limited", "30.00")
        await player.join("t1")  # the limit comes with the connection
        opened = await player.expect(lambda m: m["type"] == "round_open", 30)
        got = {
            "first": await player.bet("banker", 2_000, round=opened["round"]),
            "second": await player.bet("player", 2_000, round=opened["round"]),
            "small": await player.bet("player", 1_000, round=opened["round"]),
        }
        await player.close()
        return got

    with ServerThread(config, log=tmp_path / "server.log") as server:
        got = asyncio.run(scenario(server))
    assert got["first"]["type"] == "bet_ack"
    assert (got["second"]["type"], got["second"]["code"]) == ("error", "loss_limit")
    assert "daily loss limit is 30.00: today 20.00 is lost or in play" in got["second"]["message"]
    assert got["small"]["type"] == "bet_ack"  # 20 + 10 is within 30
    book = Ledger.connect(url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def test_a_players_game_counts_the_chips_bought_against_the_limit(tmp_path: Path) -> None:
    """At Chemin de Fer the chips bought stay at risk until cashed out: a buy-in past the
    player's daily loss limit is refused, one within it is taken."""
    url = f"sqlite:///{tmp_path / 'cdf.db'}"
    config = ServerConfig(database_url=url, tables=("c1=chemin-de-fer",))

    async def scenario(server: ServerThread) -> dict[str, Any]:
        player = await _limited(server, "careful_cdf", "50.00")
        await player.join("c1", first="chemin")
        await player.send({"type": "sit", "buy_in": 6_000})
        over = await player.expect(lambda m: m["type"] == "error")
        await player.send({"type": "sit", "buy_in": 4_000})
        seated = await player.expect(
            lambda m: m["type"] == "chemin" and "careful_cdf" in m["players"]
        )
        await player.close()
        return {"over": over, "seated": seated}

    with ServerThread(config, log=tmp_path / "server.log") as server:
        got = asyncio.run(scenario(server))
    assert got["over"]["code"] == "loss_limit" and "50.00" in got["over"]["message"]
    assert "careful_cdf" in got["seated"]["players"]
