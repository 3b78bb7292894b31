"""``baccara rules`` for the players' games: the game's own tableau and money model.

Chemin de Fer prints its house tableau (`baccara.skill.tableaux`) with the free
cells marked; Banque its punters' tableau and a banker free in every cell. Neither
prints a pay table: the players stake against a player's bank.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara import rules as tableau
from baccara.skill import tableaux
from baccara.skill.tableaux import Cell, House
from baccara.variants import Drawing, Variant

__all__ = ["players_game_json", "print_players_game"]

_WORDS = {Cell.DRAW: "draw", Cell.STAND: "stand", Cell.FREE: "free"}
_MARKS = {
    Cell.DRAW: Text("D", style="green"),
    Cell.STAND: Text(".", style="dim"),
    Cell.FREE: Text("O", style="bold yellow"),
}


def _column(col: int) -> str:
    return "none" if col == tableau.NO_CARD else str(col)


def _banker_rows(variant: Variant, house: House) -> list[tuple[Cell, ...]]:
    if variant.drawing is Drawing.BANKER_FREE:
        return [(Cell.FREE,) * 11 for _ in range(8)]
    return [tableaux.BANKER_TABLES[house][total] for total in range(8)]


def players_game_json(variant: Variant, house: House) -> dict[str, Any]:
    """The rules of a players' game as JSON: punter's and banker's cells, money model."""
    cells = _banker_rows(variant, house)
    return {
        "variant": variant.name,
        "title": variant.title,
        "family": variant.family.value,
        "drawing": variant.drawing.value,
        "banking": variant.banking.value,
        "house_tableau": house.value if variant.drawing is Drawing.HOUSE_TABLEAU else None,
        "decks": variant.decks,
        "commission": str(variant.commission),
        "money_model": variant.money_model,
        "punter": {str(t): _WORDS[tableaux.PUNTER_TABLE[t]] for t in range(8)},
        "banker": {
            str(total): {_column(col): _WORDS[cell] for col, cell in enumerate(row)}
            for total, row in enumerate(cells)
        },
    }


def print_players_game(console: Console, variant: Variant, house: House) -> None:
    """Print a players' game's tableau (free cells marked O) and its money model."""
    console.print(Text(variant.title, style="bold underline"))
    console.print(variant.description)
    console.print()
    console.print(f"Game: {variant.family.label}, a players' game; {variant.decks} decks.")
    console.print(f"Money: {variant.money_model}")
    console.print("Naturals: a two-card 8 or 9 is shown at once and nobody draws.")
    console.print("Punter: draws on 0-4, chooses on 5 (draw or stand), stands on 6 or 7.")
    if variant.drawing is Drawing.BANKER_FREE:
        console.print(
            "Banker: free in every cell; he draws or stands as he likes, knowing both "
            "tableaux, and his one hand settles each of them."
        )
        return
    title = f"Banker ({house.value} house tableau): D draws, . stands, O free (his choice)"
    table = Table(title=title, title_justify="left")
    table.add_column("Banker", justify="right")
    for col in range(11):
        table.add_column(_column(col), justify="center")
    table.caption = (
        "columns: the punter's third card (points; 0 = ten or face), or none if he stood"
    )
    for total, row in enumerate(_banker_rows(variant, house)):
        table.add_row(str(total), *(_MARKS[cell] for cell in row))
    console.print(table)
    others = [h for h in House if h is not house]
    for other in others:
        cells = ", ".join(
            f"{t} against {'a stood punter' if c is None else c}"
            for t, c in tableaux.free_cells(other)
        )
        console.print(f"The {other.value} tableau (--house {other.value}) is free at {cells}.")
