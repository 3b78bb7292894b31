"""Chemin de Fer and Baccarat Banque in the terminal: humans and equilibrium bots.

The games live in `baccara.tui.chemin` and `baccara.tui.banque`, their prompts in
`baccara.tui.prompts`; this module gathers them. Each seat is a human (asked through
``ask``) or a bot that plays the solver's equilibrium. The input and output are
injected, so a whole shoe can be played by bots alone:

>>> lines: list[str] = []
>>> result = play_chemin(TerminalSeats(bots=3, seed=5, say=lines.append, coups=4))
>>> result.coups, sum(result.bankrolls) + result.house == result.start_total
(4, True)
"""

from __future__ import annotations

from baccara.tui.banque import play_banque
from baccara.tui.chemin import play_chemin
from baccara.tui.prompts import GameResult, Quit, TerminalSeats

__all__ = [
    "GameResult",
    "Quit",
    "TerminalSeats",
    "play_banque",
    "play_chemin",
]
