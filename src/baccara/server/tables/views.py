"""What the clients see of a table, built from the engine and the rulebook.

Labels, pays, limits, chips and totals all come from here (the page derives none),
as the protocol's models (`baccara.server.wire.protocol`).
"""

from __future__ import annotations

import gzip
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from pydantic import JsonValue

from baccara.bets import bets_for, describe_pays, payout, short_pays
from baccara.coup import Coup
from baccara.db.auth import User
from baccara.db.ledger import BetReceipt
from baccara.roads.board import Roads
from baccara.roads.render import render_svg
from baccara.server.wire import protocol as P
from baccara.server.wire.http import Edges
from baccara.table.events import CoupSettled, Phase, TableSettings
from baccara.variants import Variant

if TYPE_CHECKING:
    from baccara.server.tables.house import HouseRunner

__all__ = [
    "Lobby",
    "RoadsCache",
    "ack",
    "bet_spots",
    "result",
    "roads_view",
    "snapshot",
    "summary",
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


def result(
    runner: HouseRunner, coup: Coup, settled: CoupSettled
) -> tuple[dict[str, JsonValue], dict[str, dict[str, P.Returned]]]:
    """A settled round as everybody sees it (each spot won, what it paid, or lost or
    pushed, with the table's stakes on it and what came back), and each player's
    stakes and returns by bet."""
    staked: Counter[str] = Counter()
    returned: Counter[str] = Counter()
    by_player: dict[str, dict[str, P.Returned]] = {}
    for r in settled.results:
        mine = by_player.setdefault(runner.table.player_at(r.seat), {})
        bet = mine.setdefault(r.kind.value, {"staked": 0, "returned": 0})
        bet["staked"] += r.stake
        bet["returned"] += r.returned
        staked[r.kind.value] += r.stake
        returned[r.kind.value] += r.returned
    spots: dict[str, JsonValue] = {}
    for kind in bets_for(runner.variant):
        pay = payout(kind, coup, runner.variant)
        spots[kind.value] = P.SpotResult(
            outcome=pay.outcome.value,
            paid=pay.paid,
            reason=pay.reason,
            staked=staked[kind.value],
            returned=returned[kind.value],
        ).model_dump()
    found: dict[str, JsonValue] = {
        "round": runner.round_id,
        "number": runner.round_number,
        "coup": coup.notation(),
        "winner": coup.winner.word,
        "player_total": coup.player_total,
        "banker_total": coup.banker_total,
        "announcement": coup.announcement(),
        "steps": [step.model_dump() for step in runner.revealed],
        "spots": spots,
    }
    return found, by_player


def _limits(spots: list[P.BetSpot]) -> dict[str, dict[Any, int]]:
    return {spot.kind: {"min": spot.min, "max": spot.max} for spot in spots}


def summary(runner: HouseRunner) -> P.TableSummary:
    """The lobby's line for a table."""
    spots = bet_spots(runner.variant, runner.settings)
    return runner.lobby_line(
        phase=runner.phase,
        seats=runner.settings.seats,
        seated=len(runner.table.seats),
        behind=len(runner.table.behind),
        squeeze=runner.squeeze,
        bets=spots,
        limits=_limits(spots),
        roads=runner.roads.view(runner.table.roads),
    )


async def snapshot(runner: HouseRunner, user: User | None) -> P.Snapshot:
    """Everything a (re)connecting client needs to draw the table."""
    balance = None if user is None else await runner.db(runner.ledger.balance, user.account)
    mine: list[dict[str, str | int]] = []
    if user is not None and runner.round_id is not None:
        rows = await runner.db(runner.ledger.round_bets, runner.round_id, user.account)
        mine = [
            {"bet_id": r["bet_id"], "kind": r["kind"], "amount": r["amount"], "status": r["status"]}
            for r in rows
        ]
    place = None if user is None else runner.table.seat_of(user.name)
    behind = place is not None and place > runner.settings.seats
    spots = bet_spots(runner.variant, runner.settings)
    if behind:  # the spots this player may bet on: behind the seats, the main bets
        spots = [spot for spot in spots if spot.main]
    now = runner.clock.now()
    return P.Snapshot(
        table=runner.id,
        seq=runner.seq,
        variant=runner.variant.name,
        title=runner.variant.title,
        bets=spots,
        chips=list(runner.settings.chips),
        pays={spot.kind: spot.pays for spot in spots},
        limits=_limits(spots),
        phase=runner.phase,
        round=runner.round_id,
        number=runner.round_number,
        closes_at=runner.closes_at,
        server_time=now,
        time_left=max(0.0, runner.closes_at - now) if runner.phase is Phase.BETTING else 0.0,
        bet_seconds=runner.timing.bet_seconds,
        squeeze=runner.squeeze,
        squeeze_seconds=runner.timing.squeeze_seconds if runner.squeeze else 0.0,
        squeezing=None if runner.squeezing is None else runner.squeezing.shown(peel=True),
        user=None if user is None else user.name,
        seat=None if behind else place,
        behind=behind,
        seats={s.player: s.number for s in runner.table.seats},
        balance=balance,
        my_bets=mine,
        table_bets=runner.layout(),
        bettors_behind=runner.table.staked()[1],
        revealed=list(runner.revealed),
        history=list(runner.history),
        roads=runner.roads.view(runner.table.roads),
        fair=None if runner.fair is None else P.Commitment(**runner.fair.commitment()),
        records=list(runner.records)[-3:],
        shoe_coups=len(runner.table.coups),
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
