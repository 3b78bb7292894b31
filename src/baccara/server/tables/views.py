"""What the clients see of a house table, built from the engine and the rulebook.

Labels, pays, limits, chips and totals all come from here (the page derives none),
as the protocol's models (`baccara.server.wire.protocol`). The snapshot is built from a
`HouseState`, which the table fills when asked (the engine and its own state as the
views read them), and a round's result from the round (`HouseRound`) and the engine:
nothing here holds or reads a runner.
"""

from __future__ import annotations

import gzip
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from baccara.bets import bets_for, describe_pays, payout, short_pays
from baccara.coup import Coup
from baccara.db.auth import User
from baccara.db.ledger import BetReceipt, BetRow
from baccara.roads.board import Roads
from baccara.roads.render import render_svg
from baccara.server.tables.contract import Record
from baccara.server.tables.house_round import HouseRound
from baccara.server.tables.squeeze import Squeezing
from baccara.server.wire import protocol as P
from baccara.server.wire.http import Edges
from baccara.table.engine import Table
from baccara.table.events import CoupSettled, Phase, TableSettings
from baccara.variants import Variant

__all__ = [
    "HouseState",
    "Lobby",
    "RoadsCache",
    "ack",
    "bet_spots",
    "layout",
    "limits",
    "result",
    "roads_view",
    "snapshot",
]


def roads_view(roads: Roads) -> P.RoadsView:
    """The roads as drawn, the ask road's predictions and the statistics."""
    return P.RoadsView(
        svg=render_svg(roads, cell=18),
        predictions={side.word: p.to_json() for side, p in roads.predictions().items()},
        statistics=P.Statistics(**roads.statistics().to_json()),
        results="".join(cell.result.value for cell in roads.bead_plate),
    )


class RoadsCache:
    """A table's roads as drawn, drawn again only when they change (a coup added, the
    next shoe's roads): the lobby, the snapshots and the results share one drawing."""

    __slots__ = ("_count", "_roads", "_view")

    def __init__(self) -> None:
        self._roads: Roads | None = None
        self._count = -1
        self._view: P.RoadsView | None = None

    def view(self, roads: Roads) -> P.RoadsView:
        """`roads_view` of ``roads``, drawn once per change (roads only grow)."""
        if self._view is None or roads is not self._roads or len(roads) != self._count:
            self._view, self._roads, self._count = roads_view(roads), roads, len(roads)
        return self._view


def bet_spots(variant: Variant, settings: TableSettings) -> list[P.BetSpot]:
    """Every bet the table takes, in layout order (the main bets first).

    >>> from baccara.variants import find_variant
    >>> [spot.label for spot in bet_spots(find_variant("ez"), TableSettings())][-2:]
    ['Dragon 7', 'Panda 8']
    """
    return [
        P.BetSpot(
            kind=kind.value,
            label=kind.label,
            pays=describe_pays(kind, variant),
            short_pays=short_pays(kind, variant),
            main=kind.is_main,
            min=settings.limit(kind).minimum,
            max=settings.limit(kind).maximum,
        )
        for kind in bets_for(variant)
    ]


def layout(table: Table) -> dict[str, dict[str, int]]:
    """The seated players' stakes on the layout this round, from the engine's seats
    (the players betting behind the seats are in `Table.staked`'s totals)."""
    return {
        s.player: {kind.value: amount for kind, amount in s.bets} for s in table.seats if s.bets
    }


def limits(spots: list[P.BetSpot]) -> dict[str, dict[Any, int]]:
    """Each bet's limits, by kind, as the lobby and the snapshot say them."""
    return {spot.kind: {"min": spot.min, "max": spot.max} for spot in spots}


def result(
    round: HouseRound, table: Table, variant: Variant, coup: Coup, settled: CoupSettled
) -> tuple[dict[str, JsonValue], dict[str, dict[str, P.Returned]]]:
    """A settled round as everybody sees it (each spot won, what it paid, or lost or
    pushed, with the table's stakes on it and what came back), and each player's
    stakes and returns by bet (the players named by the engine's ``table``)."""
    staked: Counter[str] = Counter()
    returned: Counter[str] = Counter()
    by_player: dict[str, dict[str, P.Returned]] = {}
    for r in settled.results:
        mine = by_player.setdefault(table.player_at(r.seat), {})
        bet = mine.setdefault(r.kind.value, {"staked": 0, "returned": 0})
        bet["staked"] += r.stake
        bet["returned"] += r.returned
        staked[r.kind.value] += r.stake
        returned[r.kind.value] += r.returned
    spots: dict[str, JsonValue] = {}
    for kind in bets_for(variant):
        pay = payout(kind, coup, variant)
        spots[kind.value] = P.SpotResult(
            outcome=pay.outcome.value,
            paid=pay.paid,
            reason=pay.reason,
            staked=staked[kind.value],
            returned=returned[kind.value],
        ).model_dump()
    found: dict[str, JsonValue] = {
        "round": round.id,
        "number": round.number,
        "coup": coup.notation(),
        "winner": coup.winner.word,
        "player_total": coup.player_total,
        "banker_total": coup.banker_total,
        "announcement": coup.announcement(),
        "steps": [step.model_dump() for step in round.revealed],
        "spots": spots,
    }
    return found, by_player


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseState:
    """A house table as its snapshot reads it, filled by the table when asked: its id,
    the last event's ``seq`` and the time (``now``), the engine (its game, settings,
    seats, layout and coups), its phase and round, its clocks, whether it squeezes and
    the squeeze under way, the last results, the shoe's commitment (``fair``) and the
    last shoes' records, the roads as drawn."""

    table_id: str
    seq: int
    now: float
    table: Table
    phase: Phase
    round: HouseRound
    bet_seconds: float
    squeeze: bool
    squeeze_seconds: float
    squeezing: Squeezing | None
    history: Sequence[dict[str, JsonValue]]
    fair: P.Commitment | None
    records: Sequence[Record]
    roads: P.RoadsView
    house_paused: str | None = None


def snapshot(
    state: HouseState, user: User | None, *, balance: int | None, mine: Iterable[BetRow]
) -> P.Snapshot:
    """Everything a (re)connecting client needs to draw the table, as ``user`` sees it
    (their ``balance`` and the bets they have made this round: ``mine``)."""
    table, settings, variant = state.table, state.table.settings, state.table.variant
    place = None if user is None else table.seat_of(user.name)
    behind = place is not None and place > settings.seats
    spots = bet_spots(variant, settings)
    if behind:  # the spots this player may bet on: behind the seats, the main bets
        spots = [spot for spot in spots if spot.main]
    betting = state.phase is Phase.BETTING
    return P.Snapshot(
        table=state.table_id,
        seq=state.seq,
        variant=variant.name,
        title=variant.title,
        bets=spots,
        chips=list(settings.chips),
        pays={spot.kind: spot.pays for spot in spots},
        limits=limits(spots),
        phase=state.phase,
        round=state.round.id,
        number=state.round.number,
        closes_at=state.round.closes_at,
        server_time=state.now,
        time_left=state.round.time_left(state.now) if betting else 0.0,
        bet_seconds=state.bet_seconds,
        squeeze=state.squeeze,
        squeeze_seconds=state.squeeze_seconds if state.squeeze else 0.0,
        squeezing=None if state.squeezing is None else state.squeezing.shown(peel=True),
        user=None if user is None else user.name,
        seat=None if behind else place,
        behind=behind,
        seats={s.player: s.number for s in table.seats},
        balance=balance,
        my_bets=[
            {"bet_id": r["bet_id"], "kind": r["kind"], "amount": r["amount"], "status": r["status"]}
            for r in mine
        ],
        table_bets=layout(table),
        bettors_behind=table.staked()[1],
        revealed=list(state.round.revealed),
        history=list(state.history),
        roads=state.roads,
        fair=state.fair,
        records=list(state.records)[-3:],
        shoe_coups=len(table.coups),
        house_paused=state.house_paused,
    )


def ack(receipt: BetReceipt, table: str, seat: int | None = None, seats: int = 0) -> P.BetAck:
    """The answer to a bet placed (or found again), with the ``seat`` it put its player
    at (a place behind when above the table's ``seats``)."""
    behind = seat is not None and seat > seats
    return P.BetAck(
        seat=None if behind else seat,
        behind=behind,
        table=table,
        bet_id=receipt.bet_id,
        round=receipt.round_id,
        kind=receipt.kind,
        amount=receipt.amount,
        balance=receipt.balance,
        duplicate=receipt.duplicate,
        status=receipt.status,
        returned=receipt.returned,
    )


class Lobby:
    """The lobby's body (``GET /api/tables``): every table's line (`TableSummary` as
    JSON), built at most once per ``seconds`` and kept gzipped too: a client asking
    again and again costs the tables nothing.

    >>> lobby = Lobby(lambda: ['{"id":"t1"}'], seconds=1.0, clock=iter([0.0, 0.5, 2.0]).__next__)
    >>> lobby.body(gzipped=False), lobby.builds, lobby.body(gzipped=False), lobby.builds
    (b'[{"id":"t1"}]', 1, b'[{"id":"t1"}]', 1)
    >>> gzip.decompress(lobby.body(gzipped=True)), lobby.builds
    (b'[{"id":"t1"}]', 2)
    """

    def __init__(
        self,
        lines: Callable[[], Iterable[str]],
        *,
        seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lines = lines
        self.seconds = seconds
        self.clock = clock
        self.builds = 0
        self._built = -float("inf")
        self._plain = self._gzipped = b""

    def body(self, *, gzipped: bool) -> bytes:
        """The lobby as JSON (gzipped or not), at most ``seconds`` old."""
        now = self.clock()
        if now - self._built >= self.seconds:
            self._plain = ("[" + ",".join(self.lines()) + "]").encode()
            self._gzipped = gzip.compress(self._plain, compresslevel=6)
            self._built = now
            self.builds += 1
        return self._gzipped if gzipped else self._plain


def cards_left_edges(variant: Variant, decks: int, coups: list[Coup]) -> Edges:
    """Each bet's exact house edge for the cards not yet seen in this shoe: the full
    shoe less the cards of ``coups`` (the burned cards are unseen, so they count as
    left), by the exact engine; what a counter at the table would know.

    >>> from baccara.variants import find_variant
    >>> found = cards_left_edges(find_variant("punto-banco"), 8, [])
    >>> found.left, round(found.edges["banker"], 6)
    (416, 0.010579)
    """
    from baccara.exact.odds import full_shoe, odds, remove_cards  # loads on first use

    left = remove_cards(
        full_shoe(decks), [c for coup in coups for c in (*coup.player, *coup.banker)]
    )
    found = odds(left, variant).edges
    return Edges(coups=len(coups), left=sum(left), edges={k: float(v) for k, v in found.items()})
