"""Chemin de Fer and Baccarat Banque in the terminal: humans and equilibrium bots.

Each seat is a human (asked through ``ask``) or a bot that plays the solver's
equilibrium: in Chemin de Fer the ``compositions`` model with the variant's decks and
commission (the banker choosing in the tableau's free cells, or everywhere with a free
banker); in Banque the symmetric equilibrium of `baccara.skill.solver.banque`. In teaching
mode every choice is explained with what the equilibrium would do.

The input and output are injected, so a whole shoe can be played by bots alone:

>>> lines: list[str] = []
>>> result = play_chemin(humans=(), bots=3, seed=5, say=lines.append, coups=4)
>>> result.coups, sum(result.bankrolls) + result.house == result.start_total
(4, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from baccara.cards import hand_total
from baccara.money import MoneyError, format_money, parse_money
from baccara.skill import tableaux
from baccara.skill.banque import BanqueTable, Tableau
from baccara.skill.banque import Phase as BPhase
from baccara.skill.chemin import CheminTable, Phase
from baccara.skill.solver.banque import BanqueSolution, banker_decisions, solve_banque
from baccara.skill.solver.chemin import CheminSolution, solve_chemin
from baccara.skill.solver.models import COMPOSITION_LABELS
from baccara.variants import Variant

__all__ = [
    "GameResult",
    "chemin_banker_advice",
    "chemin_punter_advice",
    "play_banque",
    "play_chemin",
]

Ask = Callable[[str], str]
Say = Callable[[str], None]
_BOT_NAMES = ("Ada", "Borel", "Conway", "Dormoy", "Euler", "Foster", "Gauss", "Hoyle", "Isaacs")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """How a session ended: coups played, final bankrolls, the house's take."""

    coups: int
    names: tuple[str, ...]
    bankrolls: tuple[int, ...]
    house: int
    start_total: int


@lru_cache(maxsize=4)
def _chemin_solution(
    free_banker: bool, house: str, decks: int, commission: float
) -> CheminSolution:
    banker = "free" if free_banker else "tableau"
    return solve_chemin(
        "compositions", decks=decks, commission=commission, banker=banker, house=house
    )


def _table_solution(table: CheminTable) -> CheminSolution:
    variant = table.variant
    return _chemin_solution(
        table.free_banker, table.tableau, variant.decks, float(variant.commission)
    )


def _terms(variant: Variant) -> str:
    return f"{variant.decks} decks, {float(variant.commission * 100):g}% commission"


@lru_cache(maxsize=1)
def _banque_solution() -> BanqueSolution:
    return solve_banque()


def _composition(points: Sequence[int]) -> str:
    a, b = sorted(points)
    return f"{a}-{b}"


def chemin_punter_advice(table: CheminTable) -> tuple[float, str]:
    """The equilibrium's drawing probability for the punter on 5, and why."""
    sol = _table_solution(table)
    points = [c.points for c in table.punter_cards[:2]]
    low = min(points)
    label = next(lb for lb in COMPOSITION_LABELS if int(lb.split("-")[0]) == low)
    p = sol.player_draw[label]
    what = "draws" if p == 1 else "stands" if p == 0 else f"draws with probability {p:.3f}"
    return p, (
        f"The tableau leaves the punter free on 5. With {label} the equilibrium {what} "
        f"(Ethier-Gamez compositions model, {_terms(table.variant)}); by the rule he would draw."
    )


def chemin_banker_advice(table: CheminTable) -> tuple[float, str]:
    """The equilibrium's drawing probability for the banker in this cell, and why."""
    sol = _table_solution(table)
    info = _composition([c.points for c in table.banker_cards[:2]])
    third = table.punter_third
    p = sol.banker_draw[(info, third)]
    house = tableaux.house_banker_draws(table.banker_total, third, table.tableau)
    against = "the punter stood" if third is None else f"the punter drew a {third}"
    what = "draws" if p == 1 else "stands" if p == 0 else f"draws with probability {p:.3f}"
    return p, (
        f"Banker {info} (total {table.banker_total}) and {against}: a free cell. "
        f"The equilibrium {what}; by the rule he would {'draw' if house else 'stand'}."
    )


def _ask_choice(ask: Ask, question: str, choices: dict[str, str]) -> str:
    keys = "/".join(choices)
    while True:
        answer = ask(f"{question} [{keys}]").strip().lower()
        if answer in choices:
            return choices[answer]


def _ask_amount(ask: Ask, question: str, low: int, high: int) -> int:
    """Ask for an amount between ``low`` and ``high`` (minor units), typed as money; 0 passes."""
    while True:
        answer = ask(f"{question} ({format_money(low)} to {format_money(high)}, 0 to pass)")
        try:
            amount = parse_money(answer)
        except MoneyError:
            continue
        if amount == 0 or low <= amount <= high:
            return amount


def _bankrolls(names: Sequence[str], bankrolls: Sequence[int]) -> str:
    return ", ".join(f"{n} {format_money(b)}" for n, b in zip(names, bankrolls, strict=True))


def _seats(humans: Sequence[str], bots: int) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    names = list(humans) + [
        _BOT_NAMES[i % len(_BOT_NAMES)] + ("" if i < len(_BOT_NAMES) else str(i))
        for i in range(bots)
    ]
    if len(names) < 2:
        raise ValueError(f"bad table: {len(names)} seat(s); a table needs at least two players")
    return tuple(names), tuple([True] * len(humans) + [False] * bots)


def play_chemin(
    *,
    variant: Variant | None = None,
    humans: Sequence[str] = (),
    bots: int = 3,
    seed: int | None = None,
    bankroll: int = 100_000,
    teach: bool = False,
    free_banker: bool = False,
    tableau: str = tableaux.House.FRENCH,
    coups: int | None = None,
    ask: Ask | None = None,
    say: Say = print,
) -> GameResult:
    """Play Chemin de Fer until the shoe ends (or ``coups`` coups); return the result.

    ``tableau`` names the house tableau (`tableaux.House`) whose free cells the banker chooses in;
    ``variant`` (a Chemin de Fer variant) gives the decks and the commission.
    """
    names, human = _seats(humans, bots)
    if any(human) and ask is None:
        raise ValueError("human seats need an input function")
    rng = random.Random(seed)
    table = CheminTable(
        variant=variant,
        names=names,
        bankrolls=[bankroll] * len(names),
        seed=seed,
        free_banker=free_banker,
        tableau=tableau,
    )
    start = sum(table.bankrolls)
    opening = dict.fromkeys(range(len(names)), 0)
    played = 0
    seen = 0
    say(f"{table.variant.title}: {len(names)} seats, {_terms(table.variant)} on the banker's wins.")
    say(f"House tableau: {table.tableau.value}.")
    while table.phase is not Phase.OVER and (coups is None or played < coups):
        banker = table.banker
        if table.phase is Phase.BANK:
            if human[banker]:
                assert ask is not None
                amount = _ask_amount(
                    ask,
                    f"{names[banker]}, the shoe is yours: set the bank",
                    table.minimum,
                    table.bankrolls[banker],
                )
            else:
                amount = min(
                    table.bankrolls[banker], max(table.minimum, table.bankrolls[banker] // 20)
                )
            if amount and table.can_open_bank(amount):
                table.open_bank(amount)
                opening[banker] = amount
            else:
                table.pass_bank()
        elif table.phase is Phase.AFTER:
            keep = table.bank < 4 * max(opening[banker], 1)
            if human[banker]:
                assert ask is not None
                keep = (
                    _ask_choice(
                        ask,
                        f"{names[banker]}, you won: the bank is {format_money(table.bank)}. Keep it or pass?",
                        {"k": "keep", "p": "pass"},
                    )
                    == "keep"
                )
            table.keep_bank() if keep else table.pass_bank()
        elif table.phase is Phase.STAKES:
            seat = table.to_act
            assert seat is not None
            open_part = table.bank - table.covered
            if human[seat]:
                assert ask is not None
                if (
                    table.can_banco(seat)
                    and _ask_choice(
                        ask,
                        f"{names[seat]}: banco ({format_money(table.bank)}) or a stake?",
                        {"b": "banco", "s": "stake"},
                    )
                    == "banco"
                ):
                    table.banco(seat)
                else:
                    amount = _ask_amount(
                        ask,
                        f"{names[seat]}: how much of the open {format_money(open_part)} do you cover",
                        1,
                        min(open_part, table.bankrolls[seat]),
                    )
                    table.stake(seat, amount)
            elif table.can_banco(seat) and (seat == table.suivi or rng.random() < 0.25):
                table.banco(seat)
            else:
                table.stake(seat, min(open_part, table.bankrolls[seat], max(1, table.bank // 3)))
        elif table.phase is Phase.PUNTER:
            seat = table.player_seat
            assert seat is not None
            p, why = chemin_punter_advice(table)
            if human[seat]:
                assert ask is not None
                say(f"You hold {' '.join(str(c) for c in table.punter_cards)}: 5.")
                if teach:
                    say(why)
                draws = _ask_choice(ask, "Draw or stand?", {"d": "draw", "s": "stand"}) == "draw"
            else:
                draws = rng.random() < p
                if teach:
                    say(why)
            table.draw() if draws else table.stand()
        elif table.phase is Phase.BANKER:
            p, why = chemin_banker_advice(table)
            if human[banker]:
                assert ask is not None
                say(
                    f"You hold {' '.join(str(c) for c in table.banker_cards)}: {table.banker_total}."
                )
                if teach:
                    say(why)
                draws = _ask_choice(ask, "Draw or stand?", {"d": "draw", "s": "stand"}) == "draw"
            else:
                draws = rng.random() < p
                if teach:
                    say(why)
            table.banker_draw() if draws else table.banker_stand()
        for event in table.log[seen:]:
            say(event.text)
            if type(event).__name__ == "CoupSettled":
                played += 1
        seen = len(table.log)
    if table.bank:
        table.bankrolls[table.banker] += table.bank
        table.bank = 0
    say("Bankrolls: " + _bankrolls(names, table.bankrolls))
    return GameResult(
        coups=played,
        names=names,
        bankrolls=tuple(table.bankrolls),
        house=table.house,
        start_total=start,
    )


def _banque_banker_p(table: BanqueTable) -> tuple[float, str]:
    sol = _banque_solution()
    b = hand_total(table.banker_cards)
    left, right = table.column(Tableau.LEFT), table.column(Tableau.RIGHT)
    stake_l = sum(table.stakes[Tableau.LEFT].values()) or 0
    stake_r = sum(table.stakes[Tableau.RIGHT].values()) or 0
    if stake_l == stake_r:
        p = float(sol.banker_draw[b, left, right])
    else:
        best = banker_decisions(
            sol.player_draw_on_5, sol.player_draw_on_5, left_stake=stake_l, right_stake=stake_r
        )
        p = float(best[b, left, right])
    names = [str(c) for c in range(10)] + ["stood", "a natural"]
    what = "draws" if p == 1 else "stands" if p == 0 else f"draws with probability {p:.3f}"
    return p, (
        f"Banker {b} against left {names[left]} and right {names[right]} "
        f"(stakes {format_money(stake_l)} and {format_money(stake_r)}): the equilibrium {what}."
    )


def play_banque(
    *,
    variant: Variant | None = None,
    humans: Sequence[str] = (),
    bots: int = 3,
    seed: int | None = None,
    bankroll: int = 100_000,
    teach: bool = False,
    coups: int | None = None,
    ask: Ask | None = None,
    say: Say = print,
) -> GameResult:
    """Play Baccarat Banque until the shoe ends (or ``coups`` coups); return the result."""
    names, human = _seats(humans, bots)
    if any(human) and ask is None:
        raise ValueError("human seats need an input function")
    rng = random.Random(seed)
    table = BanqueTable(variant=variant, names=names, bankrolls=[bankroll] * len(names), seed=seed)
    start = sum(table.bankrolls)
    p5 = _banque_solution().player_draw_on_5
    played, seen = 0, 0
    asked_retire = -1
    say(f"{table.variant.title}: {len(names)} seats, {table.variant.decks} decks, two tableaux.")
    between = (BPhase.AUCTION, BPhase.STAKES)
    while table.phase is not BPhase.OVER and not (
        coups is not None and played >= coups and table.phase in between and table.covered == 0
    ):
        if table.phase is BPhase.AUCTION:
            for bidder in range(len(names)):
                best = max(table.bids.values(), default=table.minimum - 1)
                if human[bidder]:
                    assert ask is not None
                    amount = _ask_amount(
                        ask,
                        f"{names[bidder]}: your bid for the bank (best {format_money(max(best, 0))})",
                        best + 1,
                        table.bankrolls[bidder],
                    )
                else:
                    amount = min(
                        table.bankrolls[bidder],
                        best + 1 + rng.randrange(table.bankrolls[bidder] // 4 + 1),
                    )
                if amount and table.can_bid(bidder, amount):
                    table.bid(bidder, amount)
            if not table.can_close_auction():
                say("Nobody bids: the game is over.")
                break
            table.close_auction()
        elif table.phase is BPhase.STAKES:
            banker = table.banker
            assert banker is not None
            if table.covered == 0 and asked_retire != played and human[banker]:
                assert ask is not None
                asked_retire = played
                if (
                    _ask_choice(
                        ask,
                        f"{names[banker]}, the bank is {format_money(table.bank)}: keep it or retire?",
                        {"k": "keep", "r": "retire"},
                    )
                    == "retire"
                ):
                    table.retire()
                    continue
            seat = table.to_act
            assert seat is not None
            room = min(table.bank - table.covered, table.bankrolls[seat])
            if human[seat]:
                assert ask is not None
                side = Tableau(
                    _ask_choice(ask, f"{names[seat]}: left or right tableau?", {"l": "L", "r": "R"})
                )
                amount = _ask_amount(ask, f"{names[seat]}: your stake on the {side.word}", 1, room)
            else:
                side = rng.choice(list(Tableau))
                amount = min(room, max(1, table.bank // 10))
            table.stake(seat, side, amount)
        elif table.phase is BPhase.PUNTER:
            live = table.live_tableau
            assert live is not None
            punter = table.player_of(live)
            assert punter is not None
            why = f"The {live.word} punter is free on 5: the equilibrium draws with probability {p5:.3f} (9/11)."
            if teach:
                say(why)
            if human[punter]:
                assert ask is not None
                draws = (
                    _ask_choice(
                        ask,
                        f"{names[punter]}, the {live.word} tableau has 5: draw or stand?",
                        {"d": "draw", "s": "stand"},
                    )
                    == "draw"
                )
            else:
                draws = rng.random() < p5
            table.draw() if draws else table.stand()
        elif table.phase is BPhase.BANKER:
            banker = table.banker
            assert banker is not None
            p, why = _banque_banker_p(table)
            if teach:
                say(why)
            if human[banker]:
                assert ask is not None
                say(
                    f"You hold {' '.join(str(c) for c in table.banker_cards)}: {hand_total(table.banker_cards)}."
                )
                draws = _ask_choice(ask, "Draw or stand?", {"d": "draw", "s": "stand"}) == "draw"
            else:
                draws = rng.random() < p
            table.banker_draw() if draws else table.banker_stand()
        for event in table.log[seen:]:
            say(event.text)
            if type(event).__name__ == "TableauxDealt":
                played += 1
        seen = len(table.log)
    if table.banker is not None and table.bank:
        table.bankrolls[table.banker] += table.bank
        table.bank = 0
    say("Bankrolls: " + _bankrolls(names, table.bankrolls))
    return GameResult(
        coups=played,
        names=names,
        bankrolls=tuple(table.bankrolls),
        house=table.house,
        start_total=start,
    )
