"""Chemin de Fer in the terminal: humans at the prompts, bots playing the equilibrium.

The bots play the solver's ``compositions`` model with the variant's decks and
commission (the banker choosing in the tableau's free cells, or everywhere with a free
banker). Before each human decision a status line shows the bank, the banker, every
seat's stack and who acts; the prompts are `baccara.tui.prompts`'. With ``teach``
every free choice is explained (`baccara.skill.advice`): the tableau's rule, the
equilibrium's play, and what drawing and standing are each worth to the chooser.

>>> lines: list[str] = []
>>> result = play_chemin(TerminalSeats(bots=3, seed=5, say=lines.append, coups=4))
>>> result.coups, sum(result.bankrolls) + result.house == result.start_total
(4, True)
>>> lines = []
>>> _ = play_chemin(TerminalSeats(bots=3, seed=2, say=lines.append, coups=6, teach=True))
>>> print(next(line for line in lines if "per 1.00 staked" in line).split("; ")[-1])
by the rule he would draw. Given his cards, on average drawing wins 0.014 and standing wins 0.006 per 1.00 staked.
"""

from __future__ import annotations

import random

from baccara.money import format_money
from baccara.skill import tableaux
from baccara.skill.actions import Act, Legal
from baccara.skill.advice import banker_advice, punter_advice
from baccara.skill.bots import chemin_bot_action
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import CoupSettled, Phase
from baccara.tui.prompts import (
    GameResult,
    Prompter,
    TerminalSeats,
    draw_or_stand,
    money_range,
    refusal,
    status_line,
)
from baccara.variants import Variant

__all__ = ["chemin_status", "play_chemin"]


def terms(variant: Variant) -> str:
    """The decks and the commission, in words."""
    return f"{variant.decks} decks, {float(variant.commission * 100):g}% commission"


def chemin_status(table: CheminTable) -> str:
    """One line: the bank and its banker, every seat's stack, who acts now.

    >>> table = CheminTable(names=("Ann", "Bob"), bankrolls=(10_000, 10_000), seed=1)
    >>> chemin_status(table)
    '— no bank yet, Ann holds the shoe; Ann to act | Ann 100.00 · Bob 100.00'
    >>> _ = table.open_bank(2_500)
    >>> chemin_status(table)
    '— bank 25.00 held by Ann; Bob to act | Ann 75.00 · Bob 100.00'
    """
    if table.bank:
        bank = f"bank {format_money(table.bank)} held by {table.names[table.banker]}"
        if table.covered:
            bank += f", {format_money(table.covered)} covered"
    else:
        bank = f"no bank yet, {table.names[table.banker]} holds the shoe"
    return status_line(bank, table.names, table.bankrolls, table.actor)


def holdings(table: CheminTable) -> list[int]:
    """What each seat holds: its stack, its stake and (the banker) the bank."""
    held = [money + table.stakes.get(seat, 0) for seat, money in enumerate(table.bankrolls)]
    held[table.banker] += table.bank
    return held


def _human_stake(p: Prompter, table: CheminTable, seat: int) -> None:
    legal = {x.act: x for x in table.legal_actions(seat)}
    name = table.names[seat]
    room = legal[Act.STAKE].high
    banco = Act.BANCO in legal
    words = [("b", "banco"), ("p", "pass")] if banco else [("p", "pass")]
    nudge = dict.fromkeys(("s", "stake"), "type the amount you cover, e.g. 10, or pass")
    if not banco:
        no_banco = refusal(lambda: table.verify_banco(seat))
        nudge |= dict.fromkeys(("b", "banco"), f"no banco: {no_banco}")
    question = (
        f"{name}: banco for {format_money(table.bank)}, or cover up to {format_money(room)}?"
        if banco
        else f"{name}: cover up to {format_money(room)}?"
    )
    answer = p.amount(
        question,
        lambda amount: (
            refusal(lambda: table.verify_stake(seat, amount))
            or (None if amount > 0 else f"bad stake {format_money(amount)}: type pass to decline")
        ),
        words=words,
        nudge=nudge,
    )
    if answer == "banco":
        table.banco(seat)
    else:
        table.stake(seat, 0 if answer == "pass" else int(answer))


def _human_draws(
    p: Prompter, table: CheminTable, seat: int, legal: dict[Act, Legal], why: str | None
) -> None:
    """The punter or the banker, who sees his hand, draws or stands as his legal acts
    allow (``why``: teaching mode's word)."""
    seen = table.observation(seat)
    ((key, cards),) = seen.hands.items()
    p.say(f"{table.names[seat]}, you hold {' '.join(map(str, cards))}: {seen.totals[key]}.")
    if why:
        p.say(why)
    punter = key == "P"
    acts = (Act.DRAW, Act.STAND) if punter else (Act.BANKER_DRAW, Act.BANKER_STAND)
    table.apply(draw_or_stand(p, "Draw or stand?", acts, legal))


def play_chemin(
    seats: TerminalSeats,
    *,
    free_banker: bool = False,
    tableau: str = tableaux.House.FRENCH,
) -> GameResult:
    """Play Chemin de Fer until the shoe ends (or ``seats.coups`` coups); return the result.

    ``tableau`` names the house tableau (`tableaux.House`) whose free cells the banker
    chooses in (all of them with ``free_banker``); ``seats.variant`` (a Chemin de Fer
    variant) gives the decks and the commission.
    """
    names, human = seats.seated()
    rng = random.Random(seats.seed)
    table = CheminTable(
        variant=seats.variant,
        names=names,
        bankrolls=[seats.bankroll] * len(names),
        seed=seats.seed,
        free_banker=free_banker,
        tableau=tableau,
    )
    p = seats.prompter()
    p.status = lambda: chemin_status(table)
    start = sum(table.bankrolls)
    played = 0
    seen = 0
    p.say(
        f"{table.variant.title}: {len(names)} seats, {terms(table.variant)} on the banker's wins."
    )
    p.say(f"House tableau: {table.tableau.value}.")
    while table.phase is not Phase.OVER and (seats.coups is None or played < seats.coups):
        seat = table.actor
        assert seat is not None
        legal = {x.act: x for x in table.legal_actions(seat)}
        why = None  # teaching mode's word at the punter's and the banker's choices
        if Act.DRAW in legal or Act.STAND in legal:
            why = punter_advice(table).text
        elif Act.BANKER_DRAW in legal:
            why = banker_advice(table).text
        if not human[seat]:
            if seats.teach and why:
                p.say(why)
            table.apply(chemin_bot_action(table, rng))
        elif Act.KEEP_BANK in legal:
            keep = (
                p.choose(
                    f"{names[seat]}, you won: the bank is {format_money(table.bank)}. "
                    "Keep it or pass it?",
                    [("k", "keep"), ("p", "pass")],
                )
                == "keep"
            )
            table.keep_bank() if keep else table.pass_bank()
        elif Act.PASS_BANK in legal:
            answer = p.amount(
                f"{names[seat]}, the shoe is yours: set the bank "
                f"({money_range(table.minimum, table.bankrolls[seat])}) or",
                lambda amount: refusal(lambda: table.verify_open_bank(amount)),
                words=[("p", "pass")],
            )
            amount = 0 if answer == "pass" else int(answer)
            if amount and table.can_open_bank(amount):
                table.open_bank(amount)
            else:
                table.pass_bank()
        elif Act.STAKE in legal:
            _human_stake(p, table, seat)
        else:
            _human_draws(p, table, seat, legal, why if seats.teach else None)
        caused = table.log[seen:]
        played += sum(isinstance(event, CoupSettled) for event in caused)
        p.tell(caused, holdings(table), table.house)
        seen = len(table.log)
    return GameResult.of(p, table, coups=played, start=start)
