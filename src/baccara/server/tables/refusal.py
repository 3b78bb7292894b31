"""A table's refusal of a player's message by its own rules, apart from the money gate's.

A message can be refused for money (`baccara.db.betting.BetError`: the balance, a limit,
a closed round, a bet id used twice), checked in the transaction that would move it; or
by the table's rules (`Refused`: not the player's turn, a decision already taken, no
seat, a squeeze that is someone else's), checked by the table before any money moves.
Both carry a ``code`` the page reads and words for people, and both change nothing.

>>> error = Refused("not_your_turn", "you are not playing this shoe")
>>> error.code, str(error)
('not_your_turn', 'you are not playing this shoe')
"""

from __future__ import annotations

__all__ = ["Refused"]


class Refused(ValueError):
    """A message refused by the table's rules; nothing changed. ``code`` names why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
