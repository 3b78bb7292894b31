"""The squeeze at a house table: a hand's cards lie face down while its bettor peels
them, and a squeezer's peel: `Squeezes`, a small state the house table composes.

The house's order: the Player's two cards are squeezed and turned, then the Banker's,
then a third card of the Player, then one of the Banker, each by its hand's squeezer
(the seated player at the table with the largest stake on it; the lower seat, on equal
stakes). A hand no such player bet on is turned by the croupier at once. No card's value leaves the server
before its squeezer has bent it past the corner (`CORNER`): then the values go to all
in the ``peel`` relay (the table sends it, told of each new peel by `Squeezes.watch`),
so every page shows the index and pips as they are peeled.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import JsonValue

from baccara.cards import Card
from baccara.coup import Coup
from baccara.db.auth import User
from baccara.server.infra.clock import Clock
from baccara.server.tables.refusal import Refused
from baccara.table.events import Reveal

__all__ = ["CORNER", "Side", "Squeezes", "Squeezing", "squeezer_of"]


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


def squeezer_of(
    layout: Mapping[str, Mapping[str, int]], here: Collection[str], side: Side
) -> str | None:
    """The biggest stake on ``side`` of a player at the table (one who has gone would
    hold every squeeze up for its whole clock); None if nobody here bet on it.

    >>> squeezer_of({"ann": {"player": 500}, "bob": {"player": 900}}, {"ann"}, "player")
    'ann'
    """
    stakes = [
        (bets[side], name) for name, bets in layout.items() if bets.get(side) and name in here
    ]
    return max(stakes, key=lambda stake: stake[0])[1] if stakes else None


class Squeezes:
    """A house table's squeezes: the one under way (`under_way`) and its squeezer's peels.

    The table composes it and keeps its own phase: it asks `start` before a hand's cards
    are turned, `watch` until they are, and reads `under_way` for its snapshot; a peel
    from a player is `peel`. Nothing here reads or writes the table."""

    def __init__(self, *, seconds: float, clock: Clock) -> None:
        self.seconds = seconds
        self.clock = clock
        self.under_way: Squeezing | None = None

    def start(
        self,
        coup: Coup,
        step: Reveal,
        *,
        round: int | None,
        squeezer: Callable[[Side], str | None],
    ) -> Squeezing | None:
        """The squeeze before ``step`` turns a hand's first card or its third, by that
        hand's ``squeezer`` (the first two cards together), now under way; None where no
        card is squeezed (nobody here bet on the hand, or its pair's second card)."""
        if step.card is None or step.side is None:
            return None
        side: Side = step.side.word
        shown = len(step.player if side == "player" else step.banker)
        if shown == 2 or (by := squeezer(side)) is None:
            return None
        hand = coup.hand(step.side)
        self.under_way = Squeezing(
            round=round,
            side=side,
            first=shown - 1,
            cards=hand[:2] if shown == 1 else hand[2:3],
            squeezer=by,
            seconds=self.seconds,
            ends_at=self.clock.now() + self.seconds,
        )
        return self.under_way

    async def watch(self, peeled: Callable[[Squeezing], None]) -> None:
        """Until the cards under way are turned (a peel of 1) or their clock runs out,
        tell ``peeled`` of each new peel; then no squeeze is under way (also when the
        table stops under it)."""
        squeezing = self.under_way
        try:
            sent = squeezing.peel if squeezing is not None else 1.0
            while squeezing is not None and (left := squeezing.ends_at - self.clock.now()) > 0:
                await self.clock.sleep(min(left, 0.1))
                if squeezing.peel != sent:  # the squeezer's hand, relayed (not logged)
                    sent = squeezing.peel
                    peeled(squeezing)
                if squeezing.peel >= 1.0:
                    break
        finally:
            self.under_way = None

    def peel(self, user: User, side: Side, amount: float, first: int | None = None) -> None:
        """A squeezer bends the hand's cards under the squeeze (0 flat .. 1 turned,
        checked at the edge); 1 ends their squeeze. ``first`` (the position of the first
        card squeezed) keeps a late peel of the pair off the third card's squeeze."""
        squeezing = self.under_way
        if squeezing is None or squeezing.side != side or first not in (None, squeezing.first):
            raise Refused("not_squeezing", f"no {side} card is being squeezed now")
        if squeezing.squeezer != user.name:
            raise Refused("not_squeezer", f"the {side} cards are squeezed by {squeezing.squeezer}")
        squeezing.peel = max(squeezing.peel, amount)
