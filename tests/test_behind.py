"""Betting behind the seats (issue 16, point 11): the engine's places behind, and the
online table that seats its players, then puts the others behind, on the main bets (in
process, on a simulated clock: `tests.support.tables`).

Live casino tables take any number of players beyond the seats on Player, Banker and
Tie ("bet behind"); the side bets stay with the seats.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from tests.support.tables import Tables, house_table

from baccara.bets import BetKind
from baccara.cards import parse_cards
from baccara.server.tables.house import Timing
from baccara.server.wire import protocol as P
from baccara.shoe import ShoeSettings
from baccara.table.engine import Table
from baccara.table.events import LimitError, SeatError, SettingsError, TableSettings
from baccara.table.history import TableHistory, replay
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
    again = replay(TableHistory.from_json(json.loads(json.dumps(TableHistory.of(table).to_json()))))
    assert [(s.player, s.stack) for s in again.behind] == [
        (s.player, s.stack) for s in table.behind
    ]
    assert again.chips == table.chips and again.house == table.house


def _bet(round_id: int, bet_id: str, kind: str, amount: int) -> P.BetMessage:
    return P.BetMessage(type="bet", bet_id=bet_id, kind=kind, amount=amount, round=round_id)


async def _opened(tables: Tables, after: int = 0) -> int:
    """Wait (on the simulated clock) for a round after round ``after`` to open."""
    runner = tables.runner
    await tables.clock.run_until(lambda: runner.phase == "betting" and runner.round.id > after)
    return int(runner.round.id)


def test_a_full_table_puts_players_behind_online() -> None:
    """A mini table of 7 seats and 9 players: two bet behind, on the main bets only, and
    are paid; the lobby and the layout count them; a freed seat goes to one of them."""
    timing = Timing(bet_seconds=15, card_seconds=0.5, result_seconds=2, seat_grace_seconds=0)

    async def test() -> None:
        async with house_table("mini", timing=timing, behind=1000) as tables:
            players = [await tables.join(f"behind{n}") for n in range(9)]
            snaps = [p.of("snapshot")[0] for p in players]
            await tables.start()
            late = players[7]
            round_id = await _opened(tables)
            side = await late.send(_bet(round_id, "s1", "player_pair", 500))
            main = await late.send(_bet(round_id, "m1", "banker", 1_000))
            await tables.clock.advance(1)
            bets = next(m for m in late.of("bets") if m["bettors_behind"])
            lobby = tables.runner.summary()
            await tables.clock.run_until(lambda: bool(late.of("payout")))
            players[0].leave()  # a seat frees (no grace, no bet)...
            await _opened(tables, round_id)
            await tables.clock.advance(1)
            assert any(m.get("left") and m["player"] == "behind0" for m in late.of("seat"))
            late.leave()
            again = await tables.join("behind7")  # ...and the player behind takes it
            (snapshot,) = again.of("snapshot")
        seated, behind = snaps[:7], snaps[7:]
        assert [s["seat"] for s in seated] == list(range(1, 8))
        assert all(s["seat"] is None and s["behind"] for s in behind)
        assert {spot["kind"] for spot in behind[0]["bets"]} == {"player", "banker", "tie"}
        assert len(seated[0]["bets"]) > 3  # a seat is offered the side bets too
        assert side is not None and (side["type"], side["code"]) == ("error", "behind_main_only")
        assert main is not None and main["type"] == "bet_ack"
        assert bets["bettors_behind"] == 1 and "behind7" not in bets["players"]
        assert bets["totals"]["banker"] >= 1_000
        assert (lobby.seated, lobby.behind) == (7, 2)
        assert late.of("payout")[0]["staked"] == 1_000
        assert snapshot["seat"] == 1 and not snapshot["behind"]

    asyncio.run(test())


def test_a_player_who_joins_while_the_cards_are_out_sits_at_the_next_bet() -> None:
    """Nobody sits down while the cards are out: a join then gets the table (no seat yet,
    the connection kept), and the player sits at their first bet of the next round. (A
    join during the deal at a table with free seats dropped the connection.)"""
    timing = Timing(bet_seconds=1, card_seconds=0.5, result_seconds=0.1)

    async def test() -> None:
        async with house_table("punto-banco", timing=timing) as tables:
            watcher = await tables.join("deal_watch")
            await tables.start()
            await tables.clock.run_until(lambda: bool(watcher.of("card")))  # the cards are out
            late = await tables.join("deal_late")
            (snap,) = late.of("snapshot")
            round_id = await _opened(tables, int(tables.runner.round.id))
            ack = await late.send(_bet(round_id, "b1", "banker", 1_000))  # seated, then acked
            seat = next(m for m in late.of("seat") if m["player"] == "deal_late")
        assert snap["phase"] == "dealing" and snap["seat"] is None, snap
        assert ack is not None and ack["type"] == "bet_ack" and seat["seat"] >= 1

    asyncio.run(test())
