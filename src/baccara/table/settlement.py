"""The settlement of a layout: every bet at every place, paid by `baccara.bets.settle`.

A table settles one coup for all its places at once (its seats and, at a table that
takes them, the players betting behind). Bets of the same kind and stake settle alike,
so each distinct one is settled once: a thousand players betting behind cost a few
settlements, not a thousand.

>>> from baccara.coup import Coup
>>> from baccara.variants import PUNTO_BANCO
>>> places = {1: Seat(number=1, player="ann", stack=0, strategy=None,
...                   bets={BetKind.BANKER: 1000, BetKind.TIE: 100})}
>>> done = settle_places(places, Coup.parse("P:6h,Kd B:7s,Kc"), PUNTO_BANCO, TableSettings())
>>> [(r.kind.value, r.outcome.value, r.returned) for r in done]
[('banker', 'win', 1950), ('tie', 'lose', 0)]
"""

from __future__ import annotations

from collections.abc import Mapping

from baccara.bets import BetKind, BetOutcome, Settlement, settle
from baccara.coup import Coup
from baccara.table.events import BetResult, TableSettings
from baccara.table.seats import Seat
from baccara.variants import Variant

__all__ = ["settle_places"]

_STAYS_ON_PUSH = (BetKind.PLAYER, BetKind.BANKER)


def settle_places(
    places: Mapping[int, Seat], coup: Coup, variant: Variant, settings: TableSettings
) -> list[BetResult]:
    """Settle every bet at ``places`` (in place order) on ``coup``: each bet's result.

    Each place's bets are cleared, but for a Player or Banker bet that pushed at a table
    whose pushes stay on the layout (``settings.pushes_stay``); the caller pays the
    ``returned`` amounts.
    """
    done: dict[tuple[BetKind, int], Settlement] = {}
    results: list[BetResult] = []
    for number in sorted(places):
        place = places[number]
        kept: dict[BetKind, int] = {}
        for kind, stake in sorted(place.bets.items()):
            found = done.get((kind, stake))
            if found is None:
                found = done[kind, stake] = settle(
                    kind,
                    stake,
                    coup,
                    variant,
                    commission_rounding=settings.commission_rounding,
                    payout_rounding=settings.payout_rounding,
                )
            push = found.outcome is BetOutcome.PUSH and kind in _STAYS_ON_PUSH
            stays = stake if push and settings.pushes_stay else 0
            if stays:
                kept[kind] = stays
            results.append(
                BetResult(
                    seat=number,
                    kind=kind,
                    stake=stake,
                    outcome=found.outcome,
                    net=found.net,
                    returned=found.returned - stays,
                    stays=stays,
                    commission=found.commission,
                    reason=found.reason,
                )
            )
        place.bets = dict(kept)
        place.pushed = dict(kept)
    return results
