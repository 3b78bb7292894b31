"""The squeeze at a house table: the first two cards of each hand face down while their
squeezers peel them (`squeeze`), and a squeezer's peel (`peel`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import JsonValue

from baccara.db.auth import User
from baccara.db.ledger import BetError
from baccara.server.wire import protocol as P

if TYPE_CHECKING:
    from baccara.server.tables.house import HouseRunner

__all__ = ["SIDES", "Side", "Squeezing", "peel", "squeeze"]


Side = Literal["player", "banker"]
SIDES: tuple[Side, Side] = ("player", "banker")


@dataclass(slots=True, kw_only=True)
class Squeezing:
    """The squeeze under way: its round, each hand's squeezer (None: the croupier), its
    length and end, and how far each hand's cards are bent (0 flat .. 1 turned)."""

    round: int | None
    squeezers: dict[Side, str | None]
    seconds: float
    ends_at: float
    peel: dict[Side, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))

    def shown(self, *, peel: bool = False) -> dict[str, JsonValue]:
        """What the ``squeeze`` event says of it (no card value), and a snapshot with
        how far each hand is bent (``peel``)."""
        found: dict[str, JsonValue] = {
            "round": self.round,
            "cards": {"player": 2, "banker": 2},
            "squeezers": {str(side): name for side, name in self.squeezers.items()},
            "seconds": self.seconds,
            "ends_at": self.ends_at,
        }
        if peel:
            found["peel"] = {str(side): bent for side, bent in self.peel.items()}
        return found


async def squeeze(runner: HouseRunner) -> None:
    """The first two cards of each hand lie face down while their squeezers peel them.

    A hand's squeezer is the player with the largest stake on it (the first to bet,
    on equal stakes); nobody's bet on it: the croupier turns it. No card value is
    sent: the values go out in the ``card`` events after the squeeze, which ends
    after ``Timing.squeeze_seconds`` or as soon as every squeezer has peeled fully.
    """
    squeezers: dict[Side, str | None] = {}
    layout = runner.layout()
    for side in SIDES:
        stakes = [(bets[side], n) for n, bets in layout.items() if bets.get(side)]
        squeezers[side] = max(stakes, key=lambda stake: stake[0])[1] if stakes else None
    seconds = runner.timing.squeeze_seconds
    now = runner.clock.now()
    squeezing = Squeezing(
        round=runner.round_id, squeezers=squeezers, seconds=seconds, ends_at=now + seconds
    )
    runner.squeezing = squeezing
    runner.phase = "squeeze"
    runner.emit(P.SqueezeStart, **squeezing.shown())
    sent = dict(squeezing.peel)
    squeezed = [side for side, name in squeezers.items() if name is not None]
    while (left := squeezing.ends_at - runner.clock.now()) > 0:
        await runner.clock.sleep(min(left, 0.1))
        for side, value in squeezing.peel.items():
            if value != sent[side]:  # the squeezer's hand, relayed (not logged)
                sent[side] = value
                peeled = P.Peel(
                    table=runner.id,
                    round=runner.round_id,
                    side=side,
                    by=squeezers[side],
                    peel=value,
                )
                runner.relay(peeled)
        if squeezed and all(squeezing.peel[side] >= 1.0 for side in squeezed):
            break
    runner.squeezing = None
    runner.phase = "dealing"


def peel(runner: HouseRunner, user: User, side: Side, amount: float) -> None:
    """A squeezer bends a hand's cards (0 flat .. 1 turned, checked at the edge); 1
    ends their squeeze."""
    squeezing = runner.squeezing
    if squeezing is None:
        raise BetError("not_squeezing", "no card is being squeezed now")
    if squeezing.squeezers[side] != user.name:
        who = squeezing.squeezers[side] or "the croupier"
        raise BetError("not_squeezer", f"the {side} cards are squeezed by {who}")
    squeezing.peel[side] = max(squeezing.peel[side], amount)
