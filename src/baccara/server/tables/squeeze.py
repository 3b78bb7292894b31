"""The squeeze at a house table: a hand's cards lie face down while its bettor peels
them (`squeeze_before`), and a squeezer's peel (`peel`).

The house's order: the Player's two cards are squeezed and turned, then the Banker's,
then a third card of the Player, then one of the Banker, each by its hand's squeezer
(the seated player at the table with the largest stake on it; the lower seat, on equal
stakes). A hand no such player bet on is turned by the croupier at once. No card's value leaves the server
before its squeezer has bent it past the corner (`CORNER`): then the values go to all
in the ``peel`` relay, so every page shows the index and pips as they are peeled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import JsonValue

from baccara.cards import Card
from baccara.coup import Coup
from baccara.db.auth import User
from baccara.server.tables.refusal import Refused
from baccara.server.wire import protocol as P
from baccara.table.events import Phase, Reveal

if TYPE_CHECKING:
    from baccara.server.tables.house import HouseRunner

__all__ = ["CORNER", "Side", "Squeezing", "peel", "squeeze_before"]


Side = Literal["player", "banker"]
CORNER = 0.15  # bent this far, a card's index shows: its value is sent


@dataclass(slots=True, kw_only=True)
class Squeezing:
    """The squeeze under way: its round, the hand, the cards (``first``: the position in
    the hand of the first of them), the squeezer, its length and end, and how far the
    cards are bent (0 flat .. 1 turned)."""

    round: int | None
    side: Side
    first: int
    cards: tuple[Card, ...]
    squeezer: str
    seconds: float
    ends_at: float
    peel: float = 0.0

    def shown(self, *, peel: bool = False) -> dict[str, JsonValue]:
        """What the ``squeeze`` event says of it (no card value), and a snapshot with
        how far it is bent (``peel``) and the values once bent past the corner."""
        found: dict[str, JsonValue] = {
            "round": self.round,
            "side": self.side,
            "first": self.first,
            "count": len(self.cards),
            "squeezer": self.squeezer,
            "seconds": self.seconds,
            "ends_at": self.ends_at,
        }
        if peel:
            found["peel"] = self.peel
            cards = self.values()
            found["cards"] = None if cards is None else list[JsonValue](cards)
        return found

    def values(self) -> list[str] | None:
        """The cards' values, once the corner shows."""
        return [str(card) for card in self.cards] if self.peel >= CORNER else None


def _squeezer(runner: HouseRunner, side: Side) -> str | None:
    """The biggest stake on ``side`` of a player at the table (one who has gone would
    hold every squeeze up for its whole clock)."""
    here = runner.audience.names()
    stakes = [
        (bets[side], name)
        for name, bets in runner.layout().items()
        if bets.get(side) and name in here
    ]
    return max(stakes, key=lambda stake: stake[0])[1] if stakes else None


async def squeeze_before(runner: HouseRunner, coup: Coup, step: Reveal) -> int:
    """Before ``step`` turns a hand's first card or its third, that hand's squeezer
    squeezes them (the first two together), for ``Timing.squeeze_seconds`` or until
    they are turned (a peel of 1). The number of cards squeezed (a pair is turned
    together: its second card's step follows at once)."""
    if step.card is None or step.side is None:
        return 0
    side: Side = step.side.word
    shown = len(step.player if side == "player" else step.banker)
    if shown == 2 or (squeezer := _squeezer(runner, side)) is None:
        return 0
    hand = coup.hand(step.side)
    cards = hand[:2] if shown == 1 else hand[2:3]
    seconds = runner.timing.squeeze_seconds
    squeezing = Squeezing(
        round=runner.round_id,
        side=side,
        first=shown - 1,
        cards=cards,
        squeezer=squeezer,
        seconds=seconds,
        ends_at=runner.clock.now() + seconds,
    )
    runner.squeezing, runner.phase = squeezing, Phase.SQUEEZE
    runner.emit(P.SqueezeStart, **squeezing.shown())
    try:
        await _peeled(runner, squeezing)
    finally:  # over, or the table stopped under it
        runner.squeezing, runner.phase = None, Phase.DEALING
    return len(cards)


async def _peeled(runner: HouseRunner, squeezing: Squeezing) -> None:
    """Relay the squeezer's peel until the cards are turned or the clock runs out."""
    sent = squeezing.peel
    while (left := squeezing.ends_at - runner.clock.now()) > 0:
        await runner.clock.sleep(min(left, 0.1))
        if squeezing.peel != sent:  # the squeezer's hand, relayed (not logged)
            sent = squeezing.peel
            peeled = P.Peel(
                table=runner.id,
                round=runner.round_id,
                side=squeezing.side,
                by=squeezing.squeezer,
                peel=sent,
                cards=squeezing.values(),
            )
            runner.relay(peeled)
        if squeezing.peel >= 1.0:
            break


def peel(
    runner: HouseRunner, user: User, side: Side, amount: float, first: int | None = None
) -> None:
    """A squeezer bends the hand's cards under the squeeze (0 flat .. 1 turned, checked
    at the edge); 1 ends their squeeze. ``first`` (the position of the first card
    squeezed) keeps a late peel of the pair off the third card's squeeze."""
    squeezing = runner.squeezing
    if squeezing is None or squeezing.side != side or first not in (None, squeezing.first):
        raise Refused("not_squeezing", f"no {side} card is being squeezed now")
    if squeezing.squeezer != user.name:
        raise Refused("not_squeezer", f"the {side} cards are squeezed by {squeezing.squeezer}")
    squeezing.peel = max(squeezing.peel, amount)
