"""Decisions with identity at the players' tables.

Every decision a player sends names the one it answers: the shoe (its id), the coup in
play (its number in the shoe, from 1) and the decision (its number in the shoe, from 0),
as the table's state shows them (``shoe``, ``coup``, ``decision``). A decision that
answers anything but the one due now is refused with its own error and changes
nothing: one the clock already took for this player is ``too_late`` (so is one sent
after the clock ran out, before the house's rule is applied); one this player already
took is ``already_decided`` (a double click, a resend); one taken by somebody else, or
of a shoe that has ended, is ``stale_decision``; one not asked yet is ``bad_decision``.

>>> taken = [Taken(seat=0, timed_out=False), Taken(seat=1, timed_out=True)]
>>> due = Due(shoe=7, coup=1, taken=taken, deadline=100.0)
>>> due.check(shoe=7, coup=1, decision=2, seat=0, now=99.0)
>>> due.check(shoe=7, coup=1, decision=1, seat=1, now=99.0)
Traceback (most recent call last):
...
baccara.server.tables.refusal.Refused: decision 1 was taken by the clock: the house's rule decided for you
>>> due.check(shoe=7, coup=1, decision=0, seat=0, now=99.0)
Traceback (most recent call last):
...
baccara.server.tables.refusal.Refused: you already took decision 0
>>> due.check(shoe=7, coup=1, decision=2, seat=0, now=101.0)
Traceback (most recent call last):
...
baccara.server.tables.refusal.Refused: the clock ran out on decision 2: the house's rule decides
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from baccara.server.tables.refusal import Refused

__all__ = ["Due", "Named", "Taken"]


class Named(TypedDict):
    """A decision's identity on the wire: the shoe (None: no shoe in play), the coup
    (from 1; 0: none) and the decision's number in the shoe."""

    shoe: int | None
    coup: int
    decision: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Taken:
    """A decision of the shoe in play: whose (a seat, or None: the house's), and whether
    the clock took it."""

    seat: int | None
    timed_out: bool
    own: bool = False  # a seat's own act (leaving, adding chips): no decision of the coup's


@dataclass(frozen=True, slots=True, kw_only=True)
class Due:
    """The decision due now: the shoe, the coup in play, the decisions taken so far
    (the one due is number ``len(taken)``) and its clock."""

    shoe: int | None
    coup: int
    taken: Sequence[Taken]
    deadline: float

    @property
    def decisions(self) -> list[Taken]:
        """The decisions taken, without the seats' own acts (which number none)."""
        return [taken for taken in self.taken if not taken.own]

    def named(self) -> Named:
        """The decision due as the table's state names it."""
        return Named(shoe=self.shoe, coup=self.coup, decision=len(self.decisions))

    def check(self, *, shoe: int, coup: int, decision: int, seat: int, now: float) -> None:
        """Refuse (`Refused`) a decision by ``seat`` at ``now``, naming ``decision`` of
        ``coup`` of ``shoe``, that does not answer the one due (see the module)."""
        taken = self.decisions
        number = len(taken)
        if shoe != self.shoe:
            raise Refused("stale_decision", f"shoe {shoe} is not the shoe in play")
        if decision < number:
            past = taken[decision]
            if past.seat == seat and past.timed_out:
                raise Refused(
                    "too_late",
                    f"decision {decision} was taken by the clock: the house's rule decided for you",
                )
            if past.seat == seat:
                raise Refused("already_decided", f"you already took decision {decision}")
            raise Refused("stale_decision", f"decision {decision} was taken: the table moved on")
        if decision > number or coup != self.coup:
            raise Refused(
                "bad_decision",
                f"the decision due is number {number} of coup {self.coup}, "
                f"not {decision} of coup {coup}",
            )
        if now > self.deadline:
            raise Refused(
                "too_late", f"the clock ran out on decision {number}: the house's rule decides"
            )
