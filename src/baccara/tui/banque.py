"""Baccarat Banque in the terminal: the auction, the two halves, humans and bots.

The auction is open: in rounds, every seat in order (but the best bidder) sees the
best bid so far, or "no bid yet", and may raise or pass; it closes when a whole round
passes, and the best bid takes the bank (a bid must beat the best, so there are no
ties). The bots are `baccara.skill.bots`' (the online tables' too): they bid up to a
budget reasoned from the solver, so a human who bids more wins the bank, and stake,
draw and choose as the symmetric equilibrium says. With ``teach`` every choice on 5
and every banker's decision is explained (`baccara.skill.advice`), with what drawing
and standing are each worth to the chooser.

>>> lines: list[str] = []
>>> result = play_banque(TerminalSeats(bots=3, seed=2, say=lines.append, coups=3))
>>> result.coups, sum(result.bankrolls) + result.house == result.start_total
(3, True)
>>> any(line.endswith("takes the bank for " + line.split()[-1]) for line in lines)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from baccara.money import format_money
from baccara.skill.actions import Act, Legal
from baccara.skill.advice import banque_banker_advice, banque_punter_advice
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half, HalvesDealt, Phase
from baccara.skill.bots import banque_bot_action, banque_bot_bid, banque_bot_budget
from baccara.tui.prompts import (
    GameResult,
    Prompter,
    TerminalSeats,
    draw_or_stand,
    refusal,
    status_line,
)

__all__ = ["banque_status", "play_banque"]

_CARDS_PER_COUP = 8  # six dealt and, on average, about two third cards


def _best(table: BanqueTable) -> tuple[int, int] | None:
    """The best bid so far and its bidder, or None."""
    if not table.bids:
        return None
    seat = max(table.bids, key=lambda s: table.bids[s])
    return table.bids[seat], seat


def _best_words(table: BanqueTable) -> str:
    best = _best(table)
    if best is None:
        return "no bid yet"
    return f"best bid {format_money(best[0])} by {table.names[best[1]]}"


def banque_status(table: BanqueTable, acting: int | None) -> str:
    """One line: the bank (or the auction), every seat's stack, who acts now.

    >>> table = BanqueTable(names=("Ann", "Bob"), bankrolls=(10_000, 10_000), seed=1)
    >>> banque_status(table, 0)
    '— auction: no bid yet; Ann to act | Ann 100.00 · Bob 100.00'
    """
    if table.phase is Phase.AUCTION:
        bank = f"auction: {_best_words(table)}"
    elif table.banker is not None:
        bank = f"bank {format_money(table.bank)} held by {table.names[table.banker]}"
        sides = [
            f"{t.word} {format_money(sum(table.stakes[t].values()))}"
            for t in Half
            if table.stakes[t]
        ]
        if sides:
            bank += ", staked " + ", ".join(sides)
    else:
        bank = "no bank"
    return status_line(bank, table.names, table.bankrolls, acting)


def holdings(table: BanqueTable) -> list[int]:
    """What each seat holds: its stack, its stakes and (the banker) the bank."""
    held = list(table.bankrolls)
    for stakes in table.at_risk().values():
        for seat, amount in stakes.items():
            held[seat] += amount
    if table.banker is not None:
        held[table.banker] += table.bank
    return held


def _bid_refusal(table: BanqueTable, seat: int, amount: int) -> str | None:
    best = _best(table)
    if best is None and amount < table.minimum:
        return f"bad bid {format_money(amount)}: the smallest bid is {format_money(table.minimum)}"
    if best is not None and amount <= best[0]:
        return f"bad bid {format_money(amount)}: it must beat the {_best_words(table)}"
    return refusal(lambda: table.verify_bid(seat, amount))


def _auction(p: Prompter, table: BanqueTable, human: Sequence[bool], rng: random.Random) -> None:
    """Rounds of bidding in seat order until a whole round passes."""
    names = table.names
    budgets = {s: banque_bot_budget(table, s, rng) for s in range(len(names)) if not human[s]}
    p.say("The bank is up for auction: bid in turn, the best bid takes it.")
    raised = True
    while raised:
        raised = False
        for seat in range(len(names)):
            best = _best(table)
            if best is not None and best[1] == seat:
                continue
            low = table.minimum if best is None else best[0] + 1
            if human[seat]:
                p.status = partial(banque_status, table, seat)
                where = (
                    f"no bid yet, at least {format_money(low)}"
                    if best is None
                    else f"best {format_money(best[0])} by {names[best[1]]}"
                )
                answer = p.amount(
                    f"{names[seat]}: bid for the bank ({where}) or",
                    partial(_bid_refusal, table, seat),
                    words=[("p", "pass")],
                    example="25 or 25.50",
                )
                amount = 0 if answer == "pass" else int(answer)
            else:
                amount = banque_bot_bid(table, seat, budgets[seat])
            if amount:
                table.bid(seat, amount)
                p.say(table.log[-1].text)
                raised = True


def _human_stake(p: Prompter, table: BanqueTable, seat: int, stake: Legal) -> None:
    name = table.names[seat]
    room = stake.high
    side = p.choose(
        f"{name}: stake on the left or the right tableau?", [("l", "left"), ("r", "right")]
    )
    half = Half.LEFT if side == "left" else Half.RIGHT
    answer = p.amount(
        f"{name}: your stake on the {half.word} (up to {format_money(room)}) or",
        lambda amount: (
            refusal(lambda: table.verify_stake(seat, half, amount))
            or (None if amount > 0 else f"bad stake {format_money(amount)}: type pass to sit out")
        ),
        words=[("p", "pass")],
    )
    table.stake(seat, half, 0 if answer == "pass" else int(answer))


def _turn(
    p: Prompter, table: BanqueTable, seat: int, human: bool, teach: bool, rng: random.Random
) -> None:
    """The seat to act (`BanqueTable.actor`) stakes, or draws or stands, as its legal acts
    allow: a bot as `baccara.skill.bots` says, a human at the prompts."""
    legal = {x.act: x for x in table.legal_actions(seat)}
    punter = Act.DRAW in legal or Act.STAND in legal
    if teach and punter:
        p.say(banque_punter_advice(table).text)
    elif teach and Act.BANKER_DRAW in legal:
        p.say(banque_banker_advice(table).text)
    if not human:
        table.apply(banque_bot_action(table, rng))
        return
    p.status = partial(banque_status, table, seat)
    if Act.STAKE in legal:
        _human_stake(p, table, seat, legal[Act.STAKE])
        return
    seen = table.observation(seat)
    if punter:
        assert seen.live is not None
        question = f"{table.names[seat]}, the {seen.live.word} tableau has 5: draw or stand?"
        acts = (Act.DRAW, Act.STAND)
    else:
        cards = " ".join(map(str, seen.hands["B"]))
        p.say(f"{table.names[seat]}, you hold {cards}: {seen.totals['B']}.")
        question, acts = "Draw or stand?", (Act.BANKER_DRAW, Act.BANKER_STAND)
    table.apply(draw_or_stand(p, question, acts, legal))


def play_banque(seats: TerminalSeats) -> GameResult:
    """Play Baccarat Banque until the shoe ends (or ``seats.coups`` coups); return the result."""
    names, human = seats.seated()
    rng = random.Random(seats.seed)
    table = BanqueTable(
        variant=seats.variant,
        names=names,
        bankrolls=[seats.bankroll] * len(names),
        seed=seats.seed,
    )
    p = seats.prompter()
    start = sum(table.bankrolls)
    played, seen = 0, 0
    asked_retire = -1
    p.say(f"{table.variant.title}: {len(names)} seats, {table.variant.decks} decks, two tableaux.")
    between = (Phase.AUCTION, Phase.STAKES)
    while table.phase is not Phase.OVER and not (
        seats.coups is not None
        and played >= seats.coups
        and table.phase in between
        and table.covered == 0
    ):
        if table.phase is Phase.AUCTION:
            _auction(p, table, human, rng)
            seen = len(table.log)  # the bids were said as they came
            if not table.can_close_auction():
                p.say("Nobody bids: the game is over.")
                break
            table.close_auction()
            asked_retire = played  # the new banker has just chosen to bank: no question yet
        else:
            banker, seat = table.banker, table.actor
            assert banker is not None and seat is not None
            retire = any(x.act is Act.RETIRE for x in table.legal_actions(banker))
            if retire and asked_retire != played and human[banker]:
                asked_retire = played
                p.status = partial(banque_status, table, banker)
                answer = p.choose(
                    f"{names[banker]}, the bank is {format_money(table.bank)}: keep it or retire?",
                    [("k", "keep"), ("r", "retire")],
                )
                if answer == "retire":
                    table.retire()
                    continue
            _turn(p, table, seat, human[seat], seats.teach, rng)
        caused = table.log[seen:]
        played += sum(isinstance(event, HalvesDealt) for event in caused)
        p.tell(caused, holdings(table), table.house)
        seen = len(table.log)
    return GameResult.of(p, table, coups=played, start=start)
