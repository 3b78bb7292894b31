"""What the equilibrium plays at a players' table: the advice teaching mode shows, and
the bots' play.

Each `Advice` also says what drawing and standing are each worth to the one who
chooses: his expected result per unit staked, given what he sees (the cell), the
other side playing the equilibrium, after commission (`Advice.values`). Where the
equilibrium mixes, the two are equal: he is indifferent.

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
>>> {k: round(v, 4) for k, v in advice.values.items()}  # standing loses less
{'draw': -0.008, 'stand': -0.0069}
>>> print(advice.text.split("; ")[-1])
by the rule he would draw. Given his cards, on average drawing loses 0.008 and standing loses 0.007 per 1.00 staked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from baccara.cards import hand_total
from baccara.money import format_money
from baccara.skill import tableaux
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half
from baccara.skill.chemin import CheminTable
from baccara.skill.solver import banque as banque_solver
from baccara.skill.solver.banque import NATURAL, BanqueSolution, banker_decisions, solve_banque
from baccara.skill.solver.chemin import CheminSolution, ChoiceValues, choice_values, solve_chemin
from baccara.skill.solver.models import COMPOSITION_LABELS, ChoiceValue

__all__ = [
    "Advice",
    "banker_advice",
    "banque_banker_advice",
    "banque_punter_advice",
    "banque_solution",
    "punter_advice",
    "table_solution",
    "table_values",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Advice:
    """The equilibrium's probability of drawing in this cell, what each choice is worth,
    and why, in words.

    ``values`` maps ``"draw"`` and ``"stand"`` to the chooser's expected result per unit
    staked if he draws and if he stands, given what he sees, the other side playing the
    equilibrium: positive is good for him, the commission taken. The punter's unit is
    his stake; the banker's, the stakes against him (at Banque, on the tableaux still
    in play, each weighed by its stake). A punter asked in a bound cell (one who always
    speaks) has no choice: his advice is the tableau's rule, with no values.
    """

    draw: float
    text: str
    values: dict[str, float]


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


@cache
def _values(free_banker: bool, house: str, decks: int, commission: float) -> ChoiceValues:
    return choice_values(_solution(free_banker, house, decks, commission))


def table_values(table: CheminTable) -> ChoiceValues:
    """What drawing and standing are worth at each decision of ``table``'s equilibrium.

    >>> values = table_values(CheminTable(names=("Ann", "Bob"), bankrolls=(10_000,) * 2))
    >>> values.punter["1-4"].indifferent, values.banker["0-6", None].indifferent
    (True, True)
    """
    decks = table.shoe.settings.decks
    return _values(table.free_banker, table.tableau, decks, float(table.variant.commission))


def _outcome(value: float, digits: int, plural: bool) -> str:
    amount = f"{abs(value):.{digits}f}"
    if float(amount) == 0:
        return "break even" if plural else "breaks even"
    verb = ("win" if plural else "wins") if value > 0 else ("lose" if plural else "loses")
    return f"{verb} {amount}"


def _worth(value: ChoiceValue, p: float, *, sees: str, unit: str = "per 1.00 staked") -> str:
    """The two values in words: what each choice wins or loses on average."""
    if value.indifferent:
        why = "so the equilibrium mixes" if 0 < p < 1 else "either will do"
        both = _outcome(value.draw, 3, plural=True)
        return (
            f"{sees}, on average drawing and standing both {both} {unit}: he is indifferent, {why}."
        )
    digits = 3
    while digits < 6 and f"{value.draw:.{digits}f}" == f"{value.stand:.{digits}f}":
        digits += 1
    return (
        f"{sees}, on average drawing {_outcome(value.draw, digits, plural=False)} and "
        f"standing {_outcome(value.stand, digits, plural=False)} {unit}."
    )


def _dict(value: ChoiceValue) -> dict[str, float]:
    return {"draw": value.draw, "stand": value.stand}


def _terms(table: CheminTable) -> str:
    decks, commission = table.shoe.settings.decks, table.variant.commission
    return f"{decks} decks, {float(commission * 100):g}% commission"


def _what(p: float) -> str:
    return "draws" if p == 1 else "stands" if p == 0 else f"draws with probability {p:.3f}"


def _composition(points: Sequence[int]) -> str:
    a, b = sorted(points)
    return f"{a}-{b}"


def _bound_punter(total: int) -> Advice | None:
    """The tableau's rule for a punter asked on a bound ``total``; None on a free 5.

    >>> _bound_punter(3).text, _bound_punter(5)
    ('The tableau binds the punter on 3: he draws (he is free only on 5).', None)
    """
    if tableaux.punter_cell(total) is tableaux.Cell.FREE:
        return None
    draws = tableaux.house_punter_draws(total)
    word = "draws" if draws else "stands"
    text = f"The tableau binds the punter on {total}: he {word} (he is free only on 5)."
    return Advice(draw=float(draws), text=text, values={})


def punter_advice(table: CheminTable) -> Advice:
    """The equilibrium's play for the punter on 5, and why (the rule where it binds).

    The table's solution is found (once, then cached) whether or not the cell binds, so
    that the time the first one takes tells nobody which it was.
    """
    solution, values = table_solution(table), table_values(table)
    if (bound := _bound_punter(table.punter_total)) is not None:
        return bound
    low = min(card.points for card in table.punter_cards[:2])
    label = next(lb for lb in COMPOSITION_LABELS if int(lb.split("-")[0]) == low)
    p = solution.player_draw[label]
    value = values.punter[label]
    return Advice(
        draw=p,
        text=(
            f"The tableau leaves the punter free on 5: with {label} the equilibrium {_what(p)} "
            f"(Ethier-Gámez compositions model, {_terms(table)}); by the rule he would draw. "
            + _worth(value, p, sees="Given his cards")
        ),
        values=_dict(value),
    )


def banker_advice(table: CheminTable) -> Advice:
    """The equilibrium's play for the banker in this free cell, and why."""
    info = _composition([card.points for card in table.banker_cards[:2]])
    third = table.punter_third
    p = table_solution(table).banker_draw[(info, third)]
    value = table_values(table).banker[(info, third)]
    house = tableaux.house_banker_draws(table.banker_total, third, table.tableau)
    against = "the punter stood" if third is None else f"the punter drew a {third}"
    unit = "per 1.00 staked" + (", after commission" if table.variant.commission else "")
    return Advice(
        draw=p,
        text=(
            f"Banker {info} (total {table.banker_total}) and {against}: a free cell. "
            f"The equilibrium {_what(p)}; by the rule he would {'draw' if house else 'stand'}. "
            + _worth(value, p, sees="Given what he sees", unit=unit)
        ),
        values=_dict(value),
    )


@cache
def banque_solution() -> BanqueSolution:
    """The symmetric equilibrium of Baccarat Banque (solved once)."""
    return solve_banque()


def banque_punter_advice(table: BanqueTable) -> Advice:
    """The equilibrium's play for the live tableau's punter on 5, and why (the rule where
    it binds)."""
    live = table.live_half
    if live is None:
        raise ValueError("no punter has a choice now")
    p = banque_solution().player_draw_on_5  # found whether or not the cell binds
    value = _banque_punter_values(live is Half.LEFT)
    if (bound := _bound_punter(table.total(live))) is not None:
        return bound
    return Advice(
        draw=p,
        text=(
            f"The {live.word} punter is free on 5: the equilibrium {_what(p)} "
            "(the banker answering both tableaux); by the rule he would draw. "
            + _worth(value, p, sees="Given his 5")
        ),
        values=_dict(value),
    )


@cache
def _banque_punter_values(left: bool) -> ChoiceValue:
    """The live punter's values against the equilibrium banker (his tableau first in ``y``)."""
    sol = banque_solution()
    y = sol.banker_draw if left else sol.banker_draw.transpose(0, 2, 1)
    return banque_solver.punter_values(sol.player_draw_on_5, y)


_COLUMNS = [str(c) for c in range(10)] + ["stood", "a natural"]


def banque_banker_advice(table: BanqueTable) -> Advice:
    """The equilibrium's play for the Banque banker, who sees both tableaux, and why.

    With equal stakes it is the equilibrium's cell; otherwise his best answer to the
    punters' equilibrium, weighing each tableau by its stake. The values are per unit
    staked on the tableaux still in play, weighed the same way (both 0 when nothing
    is staked there).
    """
    sol = banque_solution()
    b = hand_total(table.banker_cards)
    left, right = table.column(Half.LEFT), table.column(Half.RIGHT)
    stake_l = sum(table.stakes[Half.LEFT].values())
    stake_r = sum(table.stakes[Half.RIGHT].values())
    p5 = sol.player_draw_on_5
    if stake_l == stake_r:
        p = float(sol.banker_draw[b, left, right])
    else:
        p = float(banker_decisions(p5, p5, left_stake=stake_l, right_stake=stake_r)[b, left, right])
    live = [
        (t, stake)
        for t, stake in ((Half.LEFT, stake_l), (Half.RIGHT, stake_r))
        if table.column(t) != NATURAL
    ]
    unit = "per 1.00 staked"
    if len(live) == 1:
        unit += f" on the {live[0][0].word} tableau (the other's natural is settled)"
    if any(stake for _, stake in live):
        value = banque_solver.banker_values(
            b, left, right, p5, p5, left_stake=stake_l, right_stake=stake_r
        )
        worth = _worth(value, p, sees="Given what he sees", unit=unit)
    else:  # an unstaked tableau is played by the rule, for nothing
        value = ChoiceValue(draw=0.0, stand=0.0)
        worth = "Nothing is staked on the tableau still in play: he risks nothing either way."
    return Advice(
        draw=p,
        text=(
            f"Banker {b} against left {_COLUMNS[left]} and right {_COLUMNS[right]} "
            f"(stakes {format_money(stake_l)} and {format_money(stake_r)}): "
            f"the equilibrium {_what(p)}. {worth}"
        ),
        values=_dict(value),
    )
