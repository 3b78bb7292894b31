"""The squeeze at a house table: the first two cards of each hand face down while their
squeezers peel them (`squeeze`), and a squeezer's peel (`peel`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from baccara.db.auth import User
from baccara.db.ledger import BetError
from baccara.server.wire import protocol as P

if TYPE_CHECKING:
    from baccara.server.tables.house import TableRunner

__all__ = ["peel", "squeeze"]


async def squeeze(runner: TableRunner) -> None:
    """The first two cards of each hand lie face down while their squeezers peel them.

    A hand's squeezer is the player with the largest stake on it (the first to bet,
    on equal stakes); nobody's bet on it: the croupier turns it. No card value is
    sent: the values go out in the ``card`` events after the squeeze, which ends
    after ``Timing.squeeze_seconds`` or as soon as every squeezer has peeled fully.
    """
    squeezers: dict[str, str | None] = {}
    layout = runner.layout()
    for side in ("player", "banker"):
        stakes = [(bets[side], n) for n, bets in layout.items() if bets.get(side)]
        squeezers[side] = max(stakes, key=lambda stake: stake[0])[1] if stakes else None
    ends_at = runner.clock.now() + runner.timing.squeeze_seconds
    announced: dict[str, Any] = {
        "round": runner.round_id,
        "cards": {"player": 2, "banker": 2},
        "squeezers": squeezers,
        "seconds": runner.timing.squeeze_seconds,
        "ends_at": ends_at,
    }
    peel = {"player": 0.0, "banker": 0.0}
    runner.squeezing = {**announced, "peel": peel}
    runner.phase = "squeeze"
    runner.emit(P.SqueezeStart, **announced)
    sent = dict(peel)
    squeezed = [side for side, name in squeezers.items() if name is not None]
    while (left := ends_at - runner.clock.now()) > 0:
        await runner.clock.sleep(min(left, 0.1))
        for side, value in peel.items():
            if value != sent[side]:  # the squeezer's hand, relayed (not logged)
                sent[side] = value
                runner.relay(
                    P.Peel(
                        table=runner.id,
                        round=runner.round_id,
                        side=side,  # type: ignore[arg-type]
                        by=squeezers[side],
                        peel=value,
                    )
                )
        if squeezed and all(peel[side] >= 1.0 for side in squeezed):
            break
    runner.squeezing = None
    runner.phase = "dealing"


def peel(runner: TableRunner, user: User, side: Literal["player", "banker"], amount: float) -> None:
    """A squeezer bends a hand's cards (0 flat .. 1 turned, checked at the edge); 1
    ends their squeeze."""
    squeezing = runner.squeezing
    if squeezing is None:
        raise BetError("not_squeezing", "no card is being squeezed now")
    if squeezing["squeezers"][side] != user.name:
        who = squeezing["squeezers"][side] or "the croupier"
        raise BetError("not_squeezer", f"the {side} cards are squeezed by {who}")
    squeezing["peel"][side] = max(squeezing["peel"][side], amount)
