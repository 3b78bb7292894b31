"""The round in play at a house table: `HouseRound`, a small state the table composes.

A round has a number (counted on from the ledger's last after a restart), the ledger's
id once opened, the moment its betting closes, the coup being shown and the deal's
steps shown so far. The table begins the next round here (`begin`), names it once the
ledger has opened it (`opened`), asks whether a bet is for it and in time (`takes`,
`open_at`) and turns each step of the deal through it (`show`); it is told the time and
returns what to send (`announcement`, the step as shown). It holds no runner, ledger
or clock, and not the table's phase (the runner's, which every table has). The house's
pause holds the table between rounds, before the next one begins (the runner's loop).

>>> from baccara.coup import Coup
>>> from baccara.table.narration import reveal
>>> current = HouseRound(number=7)
>>> current.begin(closes_at=15.0), current.opened(41), current.announcement(seconds=15.0)
(8, None, {'round': 41, 'number': 8, 'closes_at': 15.0, 'seconds': 15.0})
>>> current.takes(None), current.takes(41), current.takes(40)
(True, True, False)
>>> current.open_at(14.9), current.open_at(15.0), current.time_left(14.5)
(True, False, 0.5)
>>> shown = current.show(reveal(Coup.parse("P:2h,6d B:5s,4c"), by_hand=False)[0])
>>> shown.card, shown.player_total, len(current.revealed)
('2h', 2, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import JsonValue

from baccara.cards import hand_total
from baccara.coup import Coup
from baccara.server.wire import protocol as P
from baccara.table.events import Reveal

__all__ = ["HouseRound"]


@dataclass(slots=True, kw_only=True)
class HouseRound:
    """The round in play (or the last one): its ``number``, the ledger's ``id``, when its
    betting closes (``closes_at``), the coup dealt and being shown, with no result yet
    (``showing``), and the deal's steps shown (``revealed``)."""

    number: int = 0
    id: int | None = None
    closes_at: float = 0.0
    showing: Coup | None = None
    revealed: list[P.Shown] = field(default_factory=list)

    def begin(self, *, closes_at: float) -> int:
        """The next round, its betting until ``closes_at``, nothing shown: its number (the
        ledger opens it; the last round's id stays until `opened`)."""
        self.number += 1
        self.closes_at = closes_at
        self.revealed = []
        return self.number

    def opened(self, round_id: int) -> None:
        """The ledger has opened the round as ``round_id``."""
        self.id = round_id

    def announcement(self, *, seconds: float) -> dict[str, JsonValue]:
        """The ``round_open`` event's fields: betting for ``seconds``, until ``closes_at``."""
        return {
            "round": self.id,
            "number": self.number,
            "closes_at": self.closes_at,
            "seconds": seconds,
        }

    def takes(self, round_id: int | None) -> bool:
        """Whether a bet naming ``round_id`` (or no round) is for this round."""
        return round_id is None or round_id == self.id

    def open_at(self, now: float) -> bool:
        """Whether betting is still open at ``now`` by the round's clock."""
        return now < self.closes_at

    def time_left(self, now: float) -> float:
        """The seconds of betting left at ``now``."""
        return max(0.0, self.closes_at - now)

    def show(self, step: Reveal) -> P.Shown:
        """Turn ``step`` of the deal: the step as the clients see it, kept with those shown."""
        shown = P.Shown(
            card=None if step.card is None else str(step.card),
            side=None if step.side is None else step.side.word,
            player=[str(c) for c in step.player],
            banker=[str(c) for c in step.banker],
            player_total=hand_total(step.player) if step.player else None,
            banker_total=hand_total(step.banker) if step.banker else None,
            words=step.words,
            reason=step.reason,
        )
        self.revealed.append(shown)
        return shown
