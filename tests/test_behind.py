"""Betting behind the seats (issue 16, point 11): the engine's places behind, and the
online table that seats its players, then puts the others behind, on the main bets.

Live casino tables take any number of players beyond the seats on Player, Banker and
Tie ("bet behind"); the side bets stay with the seats.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.harness import Player, ServerProcess

from baccara.bets import BetKind
from baccara.cards import parse_cards
from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig
from baccara.shoe import ShoeSettings
from baccara.table.engine import Table
from baccara.table.events import LimitError, SeatError, SettingsError, TableSettings
from baccara.table.history import TableRecord, replay
from baccara.variants import find_variant

SHORT = ShoeSettings(decks=1, cut_card=0, burn=False)
BANKER = "6h 7d Jd Jc"  # P:6h,Jd B:7d,Jc  seven beats six
FILLER = "2c 3c 4c 5c 6c 8c 9c Tc"


def behind_table(behind: int = 3) -> Table:
    table = Table(settings=TableSettings(seats=2, behind=behind, shoe=SHORT))
    table.change_shoe(parse_cards(f"{BANKER} {FILLER}"))
    return table


def test_places_behind_take_the_main_bets_only_and_are_paid() -> None:
    table = behind_table()
    table.seat(player="ann", stack=0, wallet=True)
    table.seat(player="bob", stack=0, wallet=True)
    assert not table.can_seat(player="cy", stack=0, wallet=True)  # the seats are taken
    place = table.seat(player="cy", stack=0, wallet=True, behind=True)
    assert (place.seat, place.behind) == (3, True)  # numbered after the seats
    assert table.seat(player="dee", stack=5_000, behind=True).seat == 4  # chips work too
    assert [s.player for s in table.seats] == ["ann", "bob"]
    assert [s.player for s in table.behind] == ["cy", "dee"]
    assert table.seat_of("cy") == 3 and table.player_at(4) == "dee"
    table.place_bet(3, BetKind.BANKER, 2_000)
    table.place_bet(4, BetKind.TIE, 500)
    with pytest.raises(LimitError, match="Player, Banker or Tie only") as refused:
        table.place_bet(3, BetKind.PLAYER_PAIR, 500)
    assert refused.value.code == "behind_main_only"
    table.place_bet(1, BetKind.PLAYER_PAIR, 500)  # a seat takes the side bets
    assert table.staked() == (
        {BetKind.BANKER: 2_000, BetKind.TIE: 500, BetKind.PLAYER_PAIR: 500},
        2,
    )
    settled = table.settle() if table.deal() else None
    assert settled is not None
    paid = {(r.seat, r.kind): r.returned for r in settled.results}
    assert paid == {(1, BetKind.PLAYER_PAIR): 0, (3, BetKind.BANKER): 3_900, (4, BetKind.TIE): 0}
    assert table.stack(4) == 4_500 and table.on_layout == 0
    assert table.chips == table.house_start + table.bought_in - table.cashed_out


def test_places_behind_are_limited_and_refused_where_the_table_takes_none() -> None:
    table = behind_table(behind=1)
    table.seat(player="cy", stack=0, wallet=True, behind=True)
    with pytest.raises(SeatError, match="all 1 places behind the seats are taken"):
        table.seat(player="dee", stack=0, wallet=True, behind=True)
    with pytest.raises(SeatError, match="already seated"):
        table.seat(player="cy", stack=0, wallet=True)  # one wallet, one place
    with pytest.raises(SeatError, match="bad place behind 2"):
        behind_table().seat(2, player="eve", stack=0, wallet=True, behind=True)
    plain = Table(settings=TableSettings(seats=2, shoe=SHORT))
    with pytest.raises(SeatError, match="takes no bets behind"):
        plain.seat(player="cy", stack=0, wallet=True, behind=True)
    with pytest.raises(SettingsError, match="places behind"):
        TableSettings(behind=-1)
    table.leave(3)
    assert table.behind == () and table.seat_of("cy") is None


def test_a_table_with_places_behind_replays_from_its_record() -> None:
    table = Table(
        variant=find_variant("ez"),
        settings=TableSettings(seats=1, behind=5, shoe=ShoeSettings(decks=1)),
        seed=3,
    )
    table.change_shoe()
    table.seat(player="ann", stack=50_000)
    for name in ("bob", "cy"):
        table.seat(player=name, stack=20_000, behind=True)
    for _ in range(4):
        table.place_bet(1, BetKind.BANKER, 1_000)
        table.place_bet(2, BetKind.PLAYER, 1_000)
        table.place_bet(3, BetKind.TIE, 100)
        table.deal()
        table.settle()
    table.leave(2)
    again = replay(TableRecord.from_json(json.loads(json.dumps(TableRecord.of(table).to_json()))))
    assert [(s.player, s.stack) for s in again.behind] == [
        (s.player, s.stack) for s in table.behind
    ]
    assert again.chips == table.chips and again.house == table.house


def test_a_full_table_puts_players_behind_online(tmp_path: Path) -> None:
    """A mini table of 7 seats and 9 players: two bet behind, on the main bets only, and
    are paid; the lobby and the layout count them; a freed seat goes to one of them."""
    url = f"sqlite:///{tmp_path / 'behind.db'}"
    config = ServerConfig(
        database_url=url,
        tables=("m1=mini",),
        bet_seconds=2.5,
        card_seconds=0.01,
        result_seconds=0.1,
        seat_grace_seconds=0.0,
        logins_per_minute=60_000,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        players = [Player(server, f"behind{n}") for n in range(9)]
        for player in players:
            await player.register()
        snaps = [await player.join("m1") for player in players]
        got: dict[str, Any] = {"snaps": snaps}
        late = players[7]
        opened = await late.expect(lambda m: m["type"] == "round_open", 30)
        got["side"] = await late.bet("player_pair", 500, round=opened["round"])
        got["main"] = await late.bet("banker", 1_000, round=opened["round"])
        got["bets"] = await late.expect(lambda m: m["type"] == "bets" and m["bettors_behind"], 10)
        got["lobby"] = httpx.get(f"{server.url}/api/tables").json()[0]
        got["payout"] = await late.expect(lambda m: m["type"] == "payout", 30)
        await players[0].close()  # a seat frees (no grace, no bet)...
        await late.expect(lambda m: m["type"] == "seat" and m.get("left"), 30)
        await late.close()
        got["again"] = await late.join("m1")  # ...and the player behind takes it
        for player in players:
            await player.close()
        return got

    with ServerProcess(config, log=tmp_path / "server.log") as server:
        got = asyncio.run(scenario(server))
    seated, behind = got["snaps"][:7], got["snaps"][7:]
    assert [s["seat"] for s in seated] == list(range(1, 8))
    assert all(s["seat"] is None and s["behind"] for s in behind)
    assert {spot["kind"] for spot in behind[0]["bets"]} == {"player", "banker", "tie"}
    assert len(seated[0]["bets"]) > 3  # a seat is offered the side bets too
    assert (got["side"]["type"], got["side"]["code"]) == ("error", "behind_main_only")
    assert got["main"]["type"] == "bet_ack"
    assert got["bets"]["bettors_behind"] == 1 and "behind7" not in got["bets"]["players"]
    assert got["bets"]["totals"]["banker"] >= 1_000
    assert (got["lobby"]["seated"], got["lobby"]["behind"]) == (7, 2)
    assert got["payout"]["staked"] == 1_000
    assert got["again"]["seat"] == 1 and not got["again"]["behind"]
    book = Ledger.connect(url)
    try:
        assert book.check_invariants() == []
    finally:
        book.engine.dispose()


def test_a_player_who_joins_while_the_cards_are_out_sits_at_the_next_bet(tmp_path: Path) -> None:
    """Nobody sits down while the cards are out: a join then gets the table (no seat yet,
    the connection kept), and the player sits at their first bet of the next round. (A
    join during the deal at a table with free seats dropped the connection.)"""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'deal.db'}",
        tables=("d1=punto-banco",),
        bet_seconds=1.0,
        card_seconds=0.5,
        result_seconds=0.1,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        watcher, late = Player(server, "deal_watch"), Player(server, "deal_late")
        await watcher.register()
        await late.register()
        await watcher.join("d1")
        await watcher.expect(lambda m: m["type"] == "card", 30)  # the cards are out
        snap = await late.join("d1")
        opened = await late.expect(lambda m: m["type"] == "round_open", 30)
        ack = await late.bet("banker", 1_000, round=opened["round"])  # seated, then acked
        seat = next(m for m in late.inbox if m["type"] == "seat" and m["player"] == "deal_late")
        for player in (watcher, late):
            await player.close()
        return {"snap": snap, "ack": ack, "seat": seat}

    with ServerProcess(config, log=tmp_path / "server.log") as server:
        got = asyncio.run(scenario(server))
    assert got["snap"]["phase"] == "dealing" and got["snap"]["seat"] is None, got["snap"]
    assert got["ack"]["type"] == "bet_ack" and got["seat"]["seat"] >= 1
    assert "Traceback" not in (tmp_path / "server.log").read_text()
