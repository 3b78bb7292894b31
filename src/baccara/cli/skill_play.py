"""``baccara play --variant chemin-de-fer|banque``: the players' games in the terminal.

`baccara play` hands the variants of these families to `play_skill`; the game loops
and their equilibrium bots live in `baccara.tui.skill`. Amounts are typed and shown
as money (``25``, ``12.50``), kept in minor units inside.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console

from baccara.tui.skill import GameResult, play_banque, play_chemin
from baccara.variants import Family, Variant, require_family, variants_of

__all__ = ["SKILL_FAMILIES", "SKILL_VARIANTS", "play_skill"]

SKILL_FAMILIES = (Family.CHEMIN_DE_FER, Family.BANQUE)
"""The families `play_skill` runs."""
SKILL_VARIANTS = tuple(v.name for v in variants_of(SKILL_FAMILIES))
"""The variants `play_skill` runs (by registry name)."""


class _Quit(Exception):
    """The player typed q or the input ended."""


def _ask(console: Console) -> Callable[[str], str]:
    def ask(question: str) -> str:
        if sys.stdin.isatty():
            try:
                line = console.input(f"{question} ")
            except EOFError:
                raise _Quit from None
        else:
            raw = sys.stdin.readline()
            if not raw:
                raise _Quit
            line = raw.rstrip("\n")
            console.print(f"{question} {line}", markup=False)
        if line.strip().lower() in ("q", "quit", "exit"):
            raise _Quit
        return line

    return ask


def play_skill(
    variant: Variant,
    *,
    seats: int,
    bots: int,
    seed: int | None,
    teach: bool,
    bankroll: int = 100_000,
    free_banker: bool = False,
    tableau: str = "french",
) -> GameResult | None:
    """Play a whole shoe of ``variant`` with ``seats`` humans and ``bots`` bots.

    ``tableau`` is the Chemin de Fer house tableau (``french`` or ``scarne``, `tableaux.House`).
    """
    require_family(variant, SKILL_FAMILIES, user="the terminal's players' games")
    console = Console(highlight=False)
    humans = tuple(f"Player {i + 1}" for i in range(seats))
    ask = _ask(console)
    say = console.print
    try:
        if variant.family is Family.CHEMIN_DE_FER:
            return play_chemin(
                variant=variant,
                humans=humans,
                bots=bots,
                seed=seed,
                bankroll=bankroll,
                teach=teach,
                free_banker=free_banker,
                tableau=tableau,
                ask=ask,
                say=say,
            )
        return play_banque(
            variant=variant,
            humans=humans,
            bots=bots,
            seed=seed,
            bankroll=bankroll,
            teach=teach,
            ask=ask,
            say=say,
        )
    except _Quit:
        console.print("Goodbye.")
        return None
