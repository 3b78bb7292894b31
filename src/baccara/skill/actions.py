"""A player's action at a players' game as a value: what a seat does, to apply later.

`baccara.skill.chemin.CheminTable` and `baccara.skill.banque.BanqueTable` take them
with ``apply`` (checking that it is that seat's turn) and give, with
``default_action``, the one the house's fixed rule takes for a player whose clock ran
out. A server keeps its clock and applies the default when it rings.

>>> Action(act=Act.STAKE, seat=2, amount=1_000)
Action(act=<Act.STAKE: 'stake'>, seat=2, amount=1000, tableau=None, reason='')
>>> Action.parse({"act": "draw", "seat": 1}).act.word
'draws'
>>> Act.PASS_BANK.label
'Pass the bank'

What a seat may do now is a `Legal` act, with the amounts it may name:

>>> stake = Legal(act=Act.STAKE, seat=2, high=2_500, tableaux=("L", "R"))
>>> stake.action(1_000, "R")
Action(act=<Act.STAKE: 'stake'>, seat=2, amount=1000, tableau='R', reason='')
>>> stake.allows(stake.action(2_500)), stake.allows(Action(act=Act.STAKE, seat=2, amount=2_600))
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["SEAT_ACTS", "Act", "Action", "ActionError", "Legal"]


class ActionError(ValueError):
    """A malformed action."""


class Act(StrEnum):
    """What a seat can do; the value is the table method that does it."""

    OPEN_BANK = "open_bank"  # Chemin de Fer: set the bank at ``amount``
    PASS_BANK = "pass_bank"  # Chemin de Fer: decline the bank or pass it on
    KEEP_BANK = "keep_bank"  # Chemin de Fer: keep the bank after a win
    STAKE = "stake"  # cover ``amount`` (0 declines; Banque: on ``tableau``)
    BANCO = "banco"  # Chemin de Fer: the whole bank
    DRAW = "draw"  # the punter on 5
    STAND = "stand"
    BANKER_DRAW = "banker_draw"  # the banker in a free cell
    BANKER_STAND = "banker_stand"
    BID = "bid"  # Banque: bid ``amount`` for the bank
    CLOSE_AUCTION = "close_auction"  # Banque: the best bid takes the bank
    RETIRE = "retire"  # Banque: the banker gives the bank up
    LEAVE = "leave"  # a seat leaves between coups, its chips with it
    ADD_CHIPS = "add_chips"  # a seat adds ``amount`` to its chips between coups

    @property
    def word(self) -> str:
        """The act in a few words (``'draws'``, ``'passes the bank'``)."""
        return _WORDS[self]

    @property
    def label(self) -> str:
        """The act as a button says it (``'Draw'``, ``'Pass the bank'``)."""
        return _LABELS[self]


_WORDS = {
    Act.OPEN_BANK: "sets the bank",
    Act.PASS_BANK: "passes the bank",
    Act.KEEP_BANK: "keeps the bank",
    Act.STAKE: "stakes",
    Act.BANCO: "calls banco",
    Act.DRAW: "draws",
    Act.STAND: "stands",
    Act.BANKER_DRAW: "draws",
    Act.BANKER_STAND: "stands",
    Act.BID: "bids",
    Act.CLOSE_AUCTION: "closes the auction",
    Act.RETIRE: "retires",
    Act.LEAVE: "leaves the table",
    Act.ADD_CHIPS: "adds chips",
}


_LABELS = {
    Act.OPEN_BANK: "Set the bank",
    Act.PASS_BANK: "Pass the bank",
    Act.KEEP_BANK: "Keep the bank",
    Act.STAKE: "Stake",
    Act.BANCO: "Banco",
    Act.DRAW: "Draw",
    Act.STAND: "Stand",
    Act.BANKER_DRAW: "Draw",
    Act.BANKER_STAND: "Stand",
    Act.BID: "Bid",
    Act.CLOSE_AUCTION: "Close the auction",
    Act.RETIRE: "Retire from the bank",
    Act.LEAVE: "Leave the table",
    Act.ADD_CHIPS: "Add chips",
}

SEAT_ACTS = frozenset({Act.LEAVE, Act.ADD_CHIPS})
"""What a seat does to its own place, not to the coup: any time it has nothing in play,
whoever's turn it is."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """``seat`` does ``act`` (with ``amount`` or ``tableau`` where it takes one).

    ``seat`` is None only for closing the auction (the table's act, not a player's);
    ``reason`` says, for a default action, which rule of the house chose it.
    """

    act: Act
    seat: int | None
    amount: int = 0
    tableau: str | None = None
    reason: str = ""

    def to_json(self) -> dict[str, object]:
        """The action as a JSON-ready document."""
        return {
            "act": self.act.value,
            "seat": self.seat,
            "amount": self.amount,
            "tableau": self.tableau,
            "reason": self.reason,
        }

    @classmethod
    def parse(cls, data: Mapping[str, object]) -> Action:
        """Read `to_json`'s document; `ActionError` naming a bad field."""
        try:
            act = Act(str(data["act"]))
        except (KeyError, ValueError):
            raise ActionError(f"bad action {dict(data)!r}: unknown act") from None
        seat, amount, tableau = data.get("seat"), data.get("amount", 0), data.get("tableau")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ActionError(f"bad action seat {seat!r}")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise ActionError(f"bad action amount {amount!r}: minor units")
        if tableau not in (None, "L", "R"):
            raise ActionError(f"bad tableau {tableau!r}: L or R")
        reason = data.get("reason", "")
        return cls(act=act, seat=seat, amount=amount, tableau=tableau, reason=str(reason or ""))


@dataclass(frozen=True, slots=True, kw_only=True)
class Legal:
    """An act ``seat`` may take now: with an amount from ``low`` to ``high`` (both 0 for
    an act that takes none) and, for Banque's stake, one of ``tableaux``."""

    act: Act
    seat: int
    low: int = 0
    high: int = 0
    tableaux: tuple[str, ...] = ()

    def action(self, amount: int | None = None, tableau: str | None = None) -> Action:
        """This act as an `Action` (``amount`` by default the least, ``tableau`` the first)."""
        return Action(
            act=self.act,
            seat=self.seat,
            amount=self.low if amount is None else amount,
            tableau=tableau or (self.tableaux[0] if self.tableaux else None),
        )

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is this act, by this seat, within its amounts and tableaux."""
        tableau_ok = not self.tableaux or (action.tableau or self.tableaux[0]) in self.tableaux
        return (
            action.act is self.act
            and action.seat == self.seat
            and self.low <= action.amount <= self.high
            and tableau_ok
        )
