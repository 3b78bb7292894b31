"""``baccara deal``, ``baccara explain`` and ``baccara rules``: the game itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara import rules as tableau
from baccara.bets import bets_for, describe_pays
from baccara.cards import Card
from baccara.cli.common import (
    HOUSE_GAMES,
    echo_json,
    house_option,
    seed_option,
    shoe_options,
    variant_option,
)
from baccara.cli.game_rules import players_game_json, print_players_game
from baccara.coup import Coup, Result, deal_coup, explain
from baccara.shoe import MAX_DECKS, Shoe, ShoeSettings
from baccara.skill.tableaux import House
from baccara.variants import PUNTO_BANCO, Variant

__all__ = ["COMMANDS", "coup_json", "coup_text", "deal_coups"]

RESULT_STYLE = {Result.BANKER: "bold red", Result.PLAYER: "bold blue", Result.TIE: "bold green"}


def deal_coups(
    settings: ShoeSettings, seed: int | None, hands: int | None, first_shoe: int = 0
) -> Iterator[tuple[int, int, Coup]]:
    """Deal coups from shoe ``first_shoe`` on of the series ``seed``: (shoe, coup number, coup).

    ``hands`` coups, or with None the whole of shoe ``first_shoe``. Shoe ``k`` of seed
    ``S`` is the simulator's shoe ``k`` (``baccara simulate --seed S``).
    """
    dealt, index = 0, first_shoe
    while hands is None or dealt < hands:
        if hands is None and index > first_shoe:
            return
        shoe = Shoe.shuffled(settings, seed=seed, index=index)
        shoe.burn()
        number = 0
        while not shoe.finished and (hands is None or dealt < hands):
            number += 1
            dealt += 1
            yield index, number, deal_coup(shoe)
        index += 1


def coup_json(coup: Coup, *, shoe: int | None = None, number: int | None = None) -> dict[str, Any]:
    """A coup as the JSON object ``deal --json`` prints."""
    data: dict[str, Any] = {}
    if shoe is not None:
        data["shoe"] = shoe
    if number is not None:
        data["coup"] = number
    data.update(
        player=[str(card) for card in coup.player],
        banker=[str(card) for card in coup.banker],
        player_total=coup.player_total,
        banker_total=coup.banker_total,
        winner=coup.winner.word,
        natural=coup.natural,
        player_pair=coup.player_pair,
        banker_pair=coup.banker_pair,
        cards=coup.cards,
        notation=coup.notation(),
        explanation=explain(coup),
    )
    return data


def _card_text(card: Card) -> Text:
    return Text(card.pretty, style="bold red" if card.suit.red else "bold")


def coup_text(coup: Coup) -> Text:
    """One coloured line: both hands, their totals and the result."""
    line = Text()
    for label, hand, total, style in (
        ("Player", coup.player, coup.player_total, "blue"),
        ("Banker", coup.banker, coup.banker_total, "red"),
    ):
        line.append(f"{label} ", style=style)
        for card in hand:
            line.append_text(_card_text(card))
            line.append(" ")
        line.append("   " if len(hand) == 2 else "")
        line.append(f"= {total}", style=f"bold {style}")
        line.append("   ")
    winner = coup.winner
    line.append(f"{winner.word.title():<6}", style=RESULT_STYLE[winner])
    if coup.marks:
        line.append("  " + ", ".join(coup.marks), style="dim")
    return line


MAX_HANDS = 1_000_000  # a stream for people and pipes; counting millions is the simulator's


@click.command()
@click.option("--decks", type=click.IntRange(1, MAX_DECKS), default=8, show_default=True)
@seed_option
@click.option(
    "--hands",
    type=click.IntRange(1, MAX_HANDS),
    default=None,
    help=f"Coups to deal, at most {MAX_HANDS:,} (for more: baccara simulate) "
    "[default: 10; with --shoe, the whole shoe].",
)
@click.option(
    "--shoe",
    "first_shoe",
    type=click.IntRange(min=0),
    default=None,
    help="Start at shoe K of the series (0 is the first): with --seed S, the shoe K "
    "that 'baccara simulate --seed S' dealt.",
)
@variant_option(families=HOUSE_GAMES)
@shoe_options
@click.option("--explain", "explain_", is_flag=True, help="Explain every draw and stand.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line and coup.")
def deal(
    decks: int,
    seed: int | None,
    hands: int | None,
    first_shoe: int | None,
    variant: Variant,
    cut_card: int,
    no_burn: bool,
    explain_: bool,
    as_json: bool,
) -> None:
    """Deal HANDS coups from shuffled shoes (a new shoe when one ends).

    Shoe K of seed S is the simulator's shoe K: a shoe found by ``baccara simulate
    --seed S`` replays here with ``--seed S --shoe K``.

    \b
    Example: baccara deal --decks 8 --seed 7 --hands 5 --explain
    Example: baccara deal --seed 7 --shoe 1234 --json
    """
    settings = ShoeSettings(decks=decks, cut_card=cut_card, burn=not no_burn)
    if first_shoe is not None and seed is None:
        raise click.UsageError("--shoe needs --seed: a shoe is numbered within a seeded series")
    if hands is None and first_shoe is None:
        hands = 10
    coups = deal_coups(settings, seed, hands, first_shoe or 0)
    if as_json:
        for shoe, number, coup in coups:
            echo_json(coup_json(coup, shoe=shoe, number=number))
        return
    console = Console(highlight=False, soft_wrap=True)
    current = -1
    for shoe, number, coup in coups:
        if shoe != current:
            current = shoe
            console.print(
                Text(
                    f"Shoe {shoe + 1}: {decks} decks, {variant.title}"
                    + ("" if seed is None else f" (replay: --seed {seed} --shoe {shoe})"),
                    style="bold underline",
                )
            )
        row = Text(f"{number:>3}  ", style="dim")
        row.append_text(coup_text(coup))
        console.print(row)
        if explain_:
            for line in explain(coup):
                console.print(f"       {line}", style="italic")


@click.command(name="explain")
@click.argument("coup", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the coup and its explanation as JSON.")
def explain_command(coup: tuple[str, ...], as_json: bool) -> None:
    """Explain a COUP given in the compact notation, step by step.

    \b
    Example: baccara explain "P:9h,Kd B:5s,Qc,3d"
    (that one is refused: a natural 9 stops the deal, so the Banker cannot draw)
    """
    parsed = Coup.parse(" ".join(coup))
    if as_json:
        echo_json(coup_json(parsed))
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(coup_text(parsed))
    for number, line in enumerate(explain(parsed), start=1):
        console.print(f"  {number}. {line}")


@click.command(name="rules")
@variant_option()
@house_option("Chemin de Fer only: the house tableau.")
@click.option("--json", "as_json", is_flag=True, help="Print the tableau and pay table as JSON.")
def rules_command(variant: Variant, house: str, as_json: bool) -> None:
    """Print a variant's tableau (who draws) and its money: pay table or commission.

    \b
    Example: baccara rules --variant chemin-de-fer --house scarne
    """
    if not variant.house_banked:
        if as_json:
            echo_json(players_game_json(variant, House(house)))
        else:
            print_players_game(Console(highlight=False, soft_wrap=True), variant, House(house))
        return
    banker = {
        str(total): {
            ("none" if col == tableau.NO_CARD else str(col)): tableau.BANKER_DRAWS[total][col]
            for col in range(11)
        }
        for total in range(8)
    }
    pays = {kind.value: describe_pays(kind, variant) for kind in bets_for(variant)}
    if as_json:
        echo_json(
            {
                "variant": variant.name,
                "title": variant.title,
                "family": variant.family.value,
                "drawing": variant.drawing.value,
                "banking": variant.banking.value,
                "money_model": variant.money_model,
                "player_draws": [t for t in range(8) if tableau.PLAYER_DRAWS[t]],
                "banker_draws": banker,
                "pays": pays,
            }
        )
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(Text(variant.title, style="bold underline"))
    console.print(variant.description)
    console.print()
    console.print(f"Money: {variant.money_model}")
    console.print("Naturals: a two-card 8 or 9 on either side and nobody draws.")
    console.print("Player: draws on 0-5, stands on 6 or 7.")
    table = Table(title="Banker: D draws, . stands", title_justify="left")
    table.add_column("Banker", justify="right")
    for col in range(11):
        table.add_column("none" if col == tableau.NO_CARD else str(col), justify="center")
    table.caption = (
        "columns: the Player's third card (points; 0 = ten or face), or none if the Player stood"
    )
    for total in range(8):
        table.add_row(
            str(total),
            *(
                Text("D", style="green")
                if tableau.BANKER_DRAWS[total][col]
                else Text(".", style="dim")
                for col in range(11)
            ),
        )
    console.print(table)
    pay_table = Table(title="Pay table", title_justify="left")
    pay_table.add_column("Bet")
    pay_table.add_column("Pays")
    for kind in bets_for(variant):
        pay_table.add_row(kind.label, pays[kind.value])
    console.print(pay_table)
    if variant is not PUNTO_BANCO:
        console.print("Everything not listed follows Punto Banco.", style="dim")


COMMANDS = (deal, explain_command, rules_command)
