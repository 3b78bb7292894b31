"""A table's history: save to JSON, load, and replay to the same table state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccara.bets import BetKind, BetOutcome
from baccara.cards import parse_cards
from baccara.coup import Coup
from baccara.shoe import ShoeSettings
from baccara.table.engine import Phase, Table
from baccara.table.events import BetResult, CoupSettled, TableSettings
from baccara.table.history import (
    ReplayError,
    TableHistory,
    event_from_json,
    event_to_json,
    replay,
    state,
)
from baccara.variants import find_variant


def play_some(table: Table, coups: int) -> None:
    """A few seats, bets of several kinds, a cancel, a leave and a shoe change."""
    table.change_shoe()
    table.seat(1, player="ann", stack=100_000)
    table.seat(3, player="bot", stack=50_000, strategy="flat:banker")
    for n in range(coups):
        if table.phase is Phase.SHOE_CHANGE:
            table.change_shoe()
        table.place_bet(1, BetKind.PLAYER, 1_000 + 100 * n)
        if table.seat_state(3).bet(BetKind.BANKER) == 0:
            table.place_bet(3, BetKind.BANKER, 2_000)
        table.place_bet(1, BetKind.TIE, 500)
        table.cancel_bet(1, BetKind.TIE, 500) if n % 2 else None
        table.deal()
        table.settle()
    table.leave(3)


def test_history_round_trips_through_json(tmp_path: Path) -> None:
    table = Table(variant=find_variant("ez"), seed=4, house=10**7)
    play_some(table, 12)
    history = TableHistory.of(table)
    path = tmp_path / "shoe.json"
    history.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "baccara-table/1" and data["variant"] == "ez"
    assert len(data["events"]) == len(table.log)
    loaded = TableHistory.load(path)
    assert loaded == history
    again = replay(loaded)
    assert state(again) == state(table)
    assert again.house == table.house and again.chips == table.chips


def test_replay_across_a_shoe_change() -> None:
    table = Table(settings=TableSettings(shoe=ShoeSettings(decks=1)), seed=8)
    play_some(table, 14)  # a one-deck shoe holds about 9 coups
    assert table.shoe_number == 2
    again = replay(TableHistory.from_json(json.loads(json.dumps(TableHistory.of(table).to_json()))))
    assert state(again) == state(table)
    assert again.shoe is not None and table.shoe is not None
    assert again.shoe.position == table.shoe.position


def test_replay_of_a_shuffled_shoe_without_a_seed() -> None:
    table = Table()  # the operating system's CSPRNG: only the card order can replay it
    play_some(table, 3)
    assert state(replay(TableHistory.of(table))) == state(table)


def test_manual_shoe_replays_from_its_coups() -> None:
    table = Table(settings=TableSettings(shoe=ShoeSettings(decks=1, burn=False)))
    table.change_shoe(manual=True)
    table.seat(player="ann", stack=10_000)
    for cards in ("9h 5s Kd Qc", "2h 5d 3d Qh 4c 9d"):
        table.place_bet(1, BetKind.BANKER, 1_000)
        table.deal(parse_cards(cards))
        table.settle()
    history = TableHistory.from_json(TableHistory.of(table).to_json())
    assert history.shoes == (None,)
    again = replay(history)
    assert state(again) == state(table) and again.stack(1) == 10_000 - 1_000 - 1_000


def test_event_json_is_plain() -> None:
    event = CoupSettled(
        shoe=1,
        number=2,
        coup=Coup.parse("P:7h,Kd B:6s,Kc"),
        results=(
            BetResult(
                seat=1,
                kind=BetKind.PLAYER,
                stake=100,
                outcome=BetOutcome.WIN,
                net=100,
                returned=200,
                stays=0,
                commission=0,
                reason="Player wins: pays 1:1.",
            ),
        ),
        house=-100,
        shoe_finished=False,
    )
    data = event_to_json(event)
    assert data["type"] == "coup_settled" and data["coup"] == "P:7h,Kd B:6s,Kc"
    assert data["results"][0]["outcome"] == "win"
    assert json.loads(json.dumps(data)) == data
    assert event_from_json(data) == event


def test_tampered_history_is_refused() -> None:
    table = Table(seed=1)
    play_some(table, 2)
    data = TableHistory.of(table).to_json()
    data["events"][2]["stack"] = 99_999  # the bot's buy-in: it leaves with more
    with pytest.raises(ReplayError, match="replay diverged"):
        replay(TableHistory.from_json(data))
    data = TableHistory.of(table).to_json()
    data["format"] = "other"
    with pytest.raises(ReplayError, match="not a table history"):
        TableHistory.from_json(data)
    data = TableHistory.of(table).to_json()
    data["events"].insert(
        3, {"type": "bet_placed", "seat": 5, "kind": "tie", "amount": 100, "total": 100}
    )
    with pytest.raises(ReplayError, match="seat 5 is empty"):
        replay(TableHistory.from_json(data))
