"""A player's own records (`GET /api/me/records`): movements with their rounds, the last
rounds step by step, this session's win or loss; logged out or bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from tests.test_hardening_http import in_process

from baccara.coup import Coup
from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig, create_app

COUP = "P:2h,3d,4c B:5s,Qc,9d"  # Player 9, Banker 4: Player wins


def test_my_records(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    config = ServerConfig(database_url=url, tables=(), welcome=100_000)

    async def scenario(client: httpx.AsyncClient) -> None:
        assert (await client.get("/api/me/records")).status_code == 401
        await client.post(
            "/api/register",
            content=json.dumps({"name": "rita", "password": "rita password"}),
            headers={"Content-Type": "application/json"},
        )
        book = Ledger.connect(url)
        try:
            me = book.create_account(wallet_account("rita"))
            for number in (1, 2):
                r = book.open_round(table="t9", number=number, shoe_id=None, coup_index=number)
                for kind in ("player", "tie"):
                    book.place_bet(account=me, round_id=r, bet_id=f"{number}{kind}", kind=kind,
                                   amount=1_000)  # fmt: skip
                book.close_round(r)
                book.settle_round(r, Coup.parse(COUP), "punto-banco", None)
        finally:
            book.database.dispose()
        found = (await client.get("/api/me/records")).json()
        memos = [m["memo"].split()[0] for m in found["movements"]]
        assert found["movements"][0]["what"] == "Round paid"
        assert memos.count("bet") == 4 and memos[-1] == "deposit"
        assert {
            (m["table"], m["round"]) for m in found["movements"] if m["memo"].startswith("bet")
        } == {
            ("t9", 1),
            ("t9", 2),
        }
        newest = found["rounds"][0]
        assert (newest["table"], newest["round"], newest["coup"]) == ("t9", 2, COUP)
        assert [(b["kind"], b["returned"]) for b in newest["bets"]] == [
            ("player", 2_000),
            ("tie", 0),
        ]
        assert (
            newest["steps"][-1]["words"] == "Nine to the Player, four to the Banker: Player wins."
        )
        assert "Banker draws on 0-5" in newest["steps"][-2]["reason"]
        assert found["session"] == {**found["session"], "bets": 4, "staked": 4_000,
                                    "returned": 4_000, "net": 0}  # fmt: skip
        assert found["shoes"] == [{"table": "t9", "url": "/api/tables/t9/shoes"}]
        oldest = found["movements"][-1]["id"]
        older = (await client.get("/api/me/records", params={"before": oldest})).json()
        assert older["movements"] == []
        second = found["movements"][1]["id"]
        assert (
            len(
                (await client.get("/api/me/records", params={"before": second})).json()["movements"]
            )
            == len(found["movements"]) - 2
        )
        for bad in ("x", "-1", "9" * 40, "²", "¹²³"):  # superscripts: str.isdigit, not int
            refused = await client.get("/api/me/records", params={"before": bad})
            assert refused.status_code == 400 and refused.json()["error"] == "bad_request"

    in_process(create_app(config), scenario)
