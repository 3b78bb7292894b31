"""``baccara play --variant chemin-de-fer|banque``: the skill variants in the terminal.

`baccara play` hands these two variants to `play_skill`; the game loop and its
equilibrium bots live in `baccara.tui.skill`. Amounts are in minor units (cents).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.console import Console

from baccara.tui.skill import GameResult, play_banque, play_chemin
from baccara.variants import Variant

__all__ = ["SKILL_VARIANTS", "play_skill"]

SKILL_VARIANTS = ("chemin-de-fer", "banque")
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
    if variant.name not in SKILL_VARIANTS:
        raise ValueError(
            f"bad variant {variant.name!r}: play_skill runs {', '.join(SKILL_VARIANTS)}"
        )
    console = Console(highlight=False)
    humans = tuple(f"Player {i + 1}" for i in range(seats))
    ask = _ask(console)
    say = console.print
    try:
        if variant.name == "chemin-de-fer":
            return play_chemin(
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
            humans=humans, bots=bots, seed=seed, bankroll=bankroll, teach=teach, ask=ask, say=say
        )
    except _Quit:
        console.print("Goodbye.")
        return None
