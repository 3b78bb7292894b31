"""What the equilibrium plays at a players' table: the advice teaching mode shows, and
the bots' play.

At Chemin de Fer the solution is the solver's `compositions` model (Ethier and Gámez:
the punter knows his two cards, the banker his and the punter's third) for the table's
decks, commission and house tableau, solved once per table kind. At Baccarat Banque it
is the solver's symmetric equilibrium (`baccara.skill.solver.banque`), the banker
answering the tableaux' actual stakes.

>>> from baccara.cards import parse_cards
>>> from baccara.shoe import Shoe
>>> table = CheminTable(names=("Ann", "Bob"), bankrolls=(10_000,) * 2,
...     shoe=Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9))
>>> _ = table.open_bank(1_000); _ = table.banco(1)
>>> advice = punter_advice(table)
>>> advice.draw, advice.text.split(":")[0]  # with 2-3 the equilibrium stands
(0.0, 'The tableau leaves the punter free on 5')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from baccara.cards import hand_total
from baccara.money import format_money
from baccara.skill import tableaux
from baccara.skill.banque import BanqueTable, Tableau
from baccara.skill.chemin import CheminTable
from baccara.skill.solver.banque import BanqueSolution, banker_decisions, solve_banque
from baccara.skill.solver.chemin import CheminSolution, solve_chemin
from baccara.skill.solver.models import COMPOSITION_LABELS

__all__ = [
    "Advice",
    "banker_advice",
    "banque_banker_advice",
    "banque_punter_advice",
    "banque_solution",
    "punter_advice",
    "table_solution",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Advice:
    """The equilibrium's probability of drawing in this cell, and why, in words."""

    draw: float
    text: str


@cache
def _solution(free_banker: bool, house: str, decks: int, commission: float) -> CheminSolution:
    banker = "free" if free_banker else "tableau"
    return solve_chemin(
        "compositions", decks=decks, commission=commission, banker=banker, house=house
    )


def table_solution(table: CheminTable) -> CheminSolution:
    """The equilibrium of ``table``'s game (its decks, commission and house tableau)."""
    decks = table.shoe.settings.decks  # the shoe's, which a house may set apart from the variant's
    return _solution(table.free_banker, table.tableau, decks, float(table.variant.commission))


def _terms(table: CheminTable) -> str:
    decks, commission = table.shoe.settings.decks, table.variant.commission
    return f"{decks} decks, {float(commission * 100):g}% commission"


def _what(p: float) -> str:
    return "draws" if p == 1 else "stands" if p == 0 else f"draws with probability {p:.3f}"


def _composition(points: Sequence[int]) -> str:
    a, b = sorted(points)
    return f"{a}-{b}"


def punter_advice(table: CheminTable) -> Advice:
    """The equilibrium's play for the punter on 5, and why."""
    low = min(card.points for card in table.punter_cards[:2])
    label = next(lb for lb in COMPOSITION_LABELS if int(lb.split("-")[0]) == low)
    p = table_solution(table).player_draw[label]
    return Advice(
        draw=p,
        text=(
            f"The tableau leaves the punter free on 5: with {label} the equilibrium {_what(p)} "
            f"(Ethier-Gámez compositions model, {_terms(table)}); by the rule he would draw."
        ),
    )


def banker_advice(table: CheminTable) -> Advice:
    """The equilibrium's play for the banker in this free cell, and why."""
    info = _composition([card.points for card in table.banker_cards[:2]])
    third = table.punter_third
    p = table_solution(table).banker_draw[(info, third)]
    house = tableaux.house_banker_draws(table.banker_total, third, table.tableau)
    against = "the punter stood" if third is None else f"the punter drew a {third}"
    return Advice(
        draw=p,
        text=(
            f"Banker {info} (total {table.banker_total}) and {against}: a free cell. "
            f"The equilibrium {_what(p)}; by the rule he would {'draw' if house else 'stand'}."
        ),
    )


@cache
def banque_solution() -> BanqueSolution:
    """The symmetric equilibrium of Baccarat Banque (solved once)."""
    return solve_banque()


def banque_punter_advice(table: BanqueTable) -> Advice:
    """The equilibrium's play for the live tableau's punter on 5, and why."""
    live = table.live_tableau
    if live is None:
        raise ValueError("no punter has a choice now")
    p = banque_solution().player_draw_on_5
    return Advice(
        draw=p,
        text=(
            f"The {live.word} punter is free on 5: the equilibrium {_what(p)} "
            "(the banker answering both tableaux); by the rule he would draw."
        ),
    )


_COLUMNS = [str(c) for c in range(10)] + ["stood", "a natural"]


def banque_banker_advice(table: BanqueTable) -> Advice:
    """The equilibrium's play for the Banque banker, who sees both tableaux, and why.

    With equal stakes it is the equilibrium's cell; otherwise his best answer to the
    punters' equilibrium, weighing each tableau by its stake.
    """
    sol = banque_solution()
    b = hand_total(table.banker_cards)
    left, right = table.column(Tableau.LEFT), table.column(Tableau.RIGHT)
    stake_l = sum(table.stakes[Tableau.LEFT].values())
    stake_r = sum(table.stakes[Tableau.RIGHT].values())
    if stake_l == stake_r:
        p = float(sol.banker_draw[b, left, right])
    else:
        p5 = sol.player_draw_on_5
        p = float(banker_decisions(p5, p5, left_stake=stake_l, right_stake=stake_r)[b, left, right])
    return Advice(
        draw=p,
        text=(
            f"Banker {b} against left {_COLUMNS[left]} and right {_COLUMNS[right]} "
            f"(stakes {format_money(stake_l)} and {format_money(stake_r)}): "
            f"the equilibrium {_what(p)}."
        ),
    )
