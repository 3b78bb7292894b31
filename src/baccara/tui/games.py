"""The terminal's players' games in a registry: for each game family, the function that
plays a whole shoe of it at the terminal (`TERMINAL_GAMES`), keyed by the family of
`baccara.variants` as the engines' registry is (`baccara.skill.games`).

``baccara play`` (`baccara.cli.skill_play`) finds the game here; a family the terminal
does not play is refused in one line:

>>> from baccara.tui.games import TERMINAL_GAMES, terminal_game
>>> [family.value for family in TERMINAL_GAMES]
['chemin-de-fer', 'banque']
>>> from baccara.variants import find_variant
>>> terminal_game(find_variant("mini"))
Traceback (most recent call last):
...
baccara.variants.FamilyError: mini is a house-banked game (Punto Banco); the terminal's players' games covers Chemin de Fer and Baccarat Banque: chemin-de-fer, banque
"""

from __future__ import annotations

from collections.abc import Callable

from baccara.tui.banque import play_banque
from baccara.tui.chemin import play_chemin
from baccara.tui.prompts import GameResult, TerminalSeats
from baccara.variants import Family, Variant, require_family

__all__ = ["TERMINAL_GAMES", "TerminalSeats", "register_terminal_game", "terminal_game"]


TerminalGame = Callable[[TerminalSeats], GameResult]
"""Plays a whole shoe at the terminal."""

TERMINAL_GAMES: dict[Family, TerminalGame] = {}
"""Every game the terminal plays, by family, in registration order."""


def register_terminal_game(family: Family, play: TerminalGame) -> TerminalGame:
    """Add ``play`` to `TERMINAL_GAMES` as the terminal's game of ``family``."""
    TERMINAL_GAMES[family] = play
    return play


def terminal_game(variant: Variant) -> TerminalGame:
    """The terminal's game of ``variant``'s family; `baccara.variants.FamilyError` in one
    line for a family it does not play."""
    require_family(variant, TERMINAL_GAMES, user="the terminal's players' games")
    return TERMINAL_GAMES[variant.family]


def _chemin(seats: TerminalSeats) -> GameResult:
    return play_chemin(
        seats,
        free_banker=bool(seats.setup.get("free_banker", False)),
        tableau=str(seats.setup.get("tableau", "french")),
    )


register_terminal_game(Family.CHEMIN_DE_FER, _chemin)
register_terminal_game(Family.BANQUE, play_banque)
