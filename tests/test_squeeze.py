"""A squeeze table through the real server (issue 25): each hand's cards face down in
the house's order, squeezed by its biggest bettor, no card's value sent before its
corner is bent; the squeezers end each squeeze early."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.harness import Player
from tests.support.inprocess import ServerThread
from tests.test_server import run

from baccara.coup import Coup
from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig
from baccara.server.tables.squeeze import CORNER


def test_squeeze_table(tmp_path: Path) -> None:
    """A squeeze table: each hand's cards face down, squeezed by its biggest stake in
    the house's order, no card's value sent before its corner is bent; the squeezers
    end each squeeze early."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'squeeze.db'}",
        tables=("s1=punto-banco:squeeze",),
        bet_seconds=5.0,
        card_seconds=0.02,
        result_seconds=0.1,
        squeeze_seconds=12.0,
    )

    async def scenario(process: ServerThread) -> dict[str, Any]:
        ann, bob = Player(process, "sq_ann"), Player(process, "sq_bob")
        await ann.register()
        await bob.register()
        snap = await ann.join("s1")
        seen = await bob.join("s1")
        assert (snap["squeeze"], snap["squeeze_seconds"]) == (True, 12.0)
        assert seen["seats"]["sq_ann"] == 1  # the seat rail: everybody's seat
        if not (snap["phase"] == "betting" and snap["time_left"] > 2.5):
            snap = await ann.expect(lambda m: m["type"] == "round_open", 40)
        round_id = snap["round"]
        first = await ann.bet("banker", 5_000)
        assert first["type"] == "bet_ack", first
        assert (await bob.bet("banker", 2_000))["type"] == "bet_ack"
        assert (await bob.bet("player", 1_000))["type"] == "bet_ack"
        squeeze = await bob.expect(lambda m: m["type"] == "squeeze", 20)
        assert squeeze["round"] == round_id
        assert (squeeze["side"], squeeze["squeezer"]) == ("player", "sq_bob")  # Player first
        assert (squeeze["first"], squeeze["count"], squeeze["seconds"]) == (0, 2, 12.0)
        assert squeeze["ends_at"] == pytest.approx(squeeze["time"] + 12.0, abs=1.0)
        async with httpx.AsyncClient(base_url=process.url) as client:
            during = (await client.get("/api/tables/s1")).json()
        assert during["phase"] == "squeeze" and during["revealed"] == []
        assert during["squeezing"]["squeezer"] == "sq_bob"
        assert during["squeezing"]["cards"] is None  # not bent yet: no value
        # A reconnecting client draws everybody's chips and seats from the snapshot.
        assert during["table_bets"] == {
            "sq_ann": {"banker": 5_000},
            "sq_bob": {"banker": 2_000, "player": 1_000},
        }
        assert set(during["seats"]) == {"sq_ann", "sq_bob"}
        # Only the hand's squeezer may peel it, by a number from 0 to 1.
        await ann.send({"type": "squeeze", "side": "player", "peel": 0.5})
        assert (await ann.expect(lambda m: m["type"] == "error"))["code"] == "not_squeezer"
        for bad in (1.5, -0.1, "half", True, None):
            await bob.send({"type": "squeeze", "side": "player", "peel": bad})
            assert (await bob.expect(lambda m: m["type"] == "error"))["code"] == "bad_peel"
        late = {"type": "squeeze", "side": "player", "peel": 0.5, "first": 2}  # a third's
        await bob.send(late)
        assert (await bob.expect(lambda m: m["type"] == "error"))["code"] == "not_squeezing"
        await bob.send({"type": "squeeze", "side": "tie", "peel": 0.5})
        assert (await bob.expect(lambda m: m["type"] == "error"))["code"] == "bad_side"
        await bob.send({"type": "squeeze", "side": "player", "peel": 0.5})
        peel = await ann.expect(lambda m: m["type"] == "peel")
        assert (peel["side"], peel["by"], peel["peel"]) == ("player", "sq_bob", 0.5)
        assert len(peel["cards"]) == 2  # the corner shows: the values go to all
        # Each squeezer turns their cards at once: the hands are turned in the house's
        # order, long before the 12 s are up.
        squeezer = {"sq_bob": bob, "sq_ann": ann}
        await bob.send({"type": "squeeze", "side": "player", "peel": 1.0})
        while True:
            got = await ann.expect(lambda m: m["type"] in ("squeeze", "result"), 10)
            if got["type"] == "result":
                result = got
                break
            await squeezer[got["squeezer"]].send(
                {"type": "squeeze", "side": got["side"], "peel": 1}
            )
        await bob.expect(lambda m: m["type"] == "result", 20)
        late = await ann.expect(lambda m: m["type"] == "error" or m["type"] == "round_open", 20)
        await ann.send({"type": "squeeze", "side": "banker", "peel": 0.2})
        over = await ann.expect(lambda m: m["type"] == "error")
        await ann.close()
        await bob.close()
        return {"ann": ann.inbox, "bob": bob.inbox, "result": result, "late": late, "over": over}

    with ServerThread(config, log=tmp_path / "server.log") as process:
        got = run(scenario(process))
        lobby = httpx.get(f"{process.url}/api/tables").json()
    assert [(t["id"], t["squeeze"]) for t in lobby] == [("s1", True)]
    assert got["over"]["code"] == "not_squeezing"
    coup = Coup.parse(got["result"]["coup"])
    hands = {"player": [str(c) for c in coup.player], "banker": [str(c) for c in coup.banker]}
    tokens = [f'"{card}"' for card in coup.deal_order()]
    for inbox in (got["ann"], got["bob"]):
        # Between "no more bets" and the result, a card's value travels only in the
        # squeezer's peel once the corner is bent, and in the card that turns it.
        closed = next(i for i, m in enumerate(inbox) if m["type"] == "no_more_bets")
        over = next(i for i, m in enumerate(inbox) if m["type"] == "result")
        squeezing: dict[str, Any] = {}
        for m in inbox[closed:over]:
            if m["type"] == "squeeze":
                squeezing = m
            elif m["type"] == "peel":
                first, count = squeezing["first"], squeezing["count"]
                bent = hands[squeezing["side"]][first : first + count]
                assert m["cards"] == (bent if m["peel"] >= CORNER else None), m
            elif m["type"] != "card":
                assert not [t for t in tokens if t in json.dumps(m)], m
        cards = [m["card"] for m in inbox if m["type"] == "card" and m["card"]]
        by_hand = coup.player[:2] + coup.banker[:2] + coup.player[2:] + coup.banker[2:]
        assert cards == [str(c) for c in by_hand]
        squeezes = [(m["side"], m["first"]) for m in inbox if m["type"] == "squeeze"]
        assert squeezes[:2] == [("player", 0), ("banker", 0)]
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()
