"""One online Baccarat Banque table: the bank auctioned, two halves, one banker's hand.

The engine is the terminal's, `baccara.skill.banque.BanqueTable`; `BanqueGame` is the
game's part of its table (`baccara.server.tables.game.PlayersGame`), which the one
players' table, `baccara.server.tables.players.PlayersRunner`, composes with the seats,
the fair shoe, the clock, the ledger and the broadcast. At each shoe (and when a banker retires or is broke) the bank is auctioned
in the open: every seated player sees the best bid and may raise it; each bid starts
the clock again, and when it runs out the best bid takes the bank (nobody bidding ends
the shoe). The banker may retire between coups, before any stake; a banker who is gone
retires at the next coup. Punters stake in turn from the banker's right on the left or
the right half; each half is played by its largest stake. The first two cards of
each hand lie face down: whoever plays a half sees it, the banker sees his own
(``banque_hand``); a natural is shown at once, the third cards face up. The news says
each event as the engine lets everybody read it (`BanqueTable.seen`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from pydantic import BaseModel

from baccara.cards import Card, hand_total
from baccara.coup import Result
from baccara.server.tables.game import Shown, labelled
from baccara.server.tables.turns import Named
from baccara.server.wire import protocol as P
from baccara.skill import records
from baccara.skill.actions import Act, Action
from baccara.skill.advice import banque_banker_advice, banque_punter_advice
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import PHASES, BanqueError, Phase
from baccara.skill.bots import banque_bot_action, banque_bot_bid, banque_bot_budget

__all__ = ["BanqueGame", "banque_pot"]


_V = TypeVar("_V")


def _by_hand(found: Mapping[str, _V]) -> dict[P.Hand, _V]:
    """The engine's ``found``, keyed by hand (``L``, ``R``, ``B``), as the wire keys it."""
    return {key: found[key] for key in P.HANDS if key in found}


def _by_half(found: Mapping[str, _V]) -> dict[P.Half, _V]:
    """The engine's ``found``, keyed by half (``L``, ``R``), as the wire keys it."""
    return {key: found[key] for key in P.HALVES}


def _words(hands: Mapping[str, Sequence[Card]]) -> dict[P.Hand, list[str]]:
    return {key: [str(c) for c in cards] for key, cards in _by_hand(hands).items()}


def banque_pot(table: BanqueTable) -> int:
    """The money on a Banque table's felt: the bank and the stakes still at risk (a
    half settled on a natural has been paid already).

    >>> table = BanqueTable(names=("A", "B"), bankrolls=(5_000, 5_000), seed=3)
    >>> _ = table.bid(0, 2_000); _ = table.close_auction(); banque_pot(table)
    2000
    """
    return table.bank + sum(sum(stakes.values()) for stakes in table.at_risk().values())


def _last(table: BanqueTable) -> P.BanqueLastCoup | None:
    coups = records.banque_coups(table.log)
    if not coups:
        return None
    coup = coups[-1]
    cards = {"L": coup.left_cards, "R": coup.right_cards, "B": coup.banker_cards}

    def player(stakes: Sequence[tuple[int, int]]) -> str | None:
        if not stakes:
            return None
        order = [seat for seat, _ in stakes]
        seat = max(stakes, key=lambda s: (s[1], -order.index(s[0])))[0]
        return table.names[seat]

    return P.BanqueLastCoup(
        banker=table.names[coup.banker],
        players={"L": player(coup.left_stakes), "R": player(coup.right_stakes)},
        cards=_words(cards),
        totals={key: hand_total(hand) for key, hand in _by_hand(cards).items()},
        result={key: Result(letter) for key, letter in _by_half(coup.result).items()},
    )


class BanqueGame:
    """Baccarat Banque's part of its table online (`baccara.server.tables.game.PlayersGame`):
    one a table, for it keeps its bots' budgets at the auction under way."""

    engine = BanqueTable
    phases = PHASES
    errors = (BanqueError,)
    anytime = frozenset({Act.BID, Act.RETIRE})  # nobody's turn: refused as not allowed

    def __init__(self) -> None:
        # the bots' budgets at the auction under way, and the engine that holds it
        self._budgets: tuple[BanqueTable, dict[int, int]] | None = None

    def pot(self, table: BanqueTable) -> int:
        """The bank and the stakes still at risk (`banque_pot`)."""
        return banque_pot(table)

    def bot_action(
        self, table: BanqueTable, bots: frozenset[int], rng: random.Random
    ) -> Action | None:
        """At an auction, a bot's bid up to its budget for it (drawn once an auction);
        after it, the bot to act stakes or plays as the equilibrium says."""
        if table.phase is not Phase.AUCTION:
            self._budgets = None
            return banque_bot_action(table, rng) if table.actor in bots else None
        if self._budgets is None or self._budgets[0] is not table:  # a new auction
            budgets = {seat: banque_bot_budget(table, seat, rng) for seat in sorted(bots)}
            self._budgets = (table, budgets)
        for seat, budget in self._budgets[1].items():
            amount = banque_bot_bid(table, seat, budget)
            if amount:
                return Action(act=Act.BID, seat=seat, amount=amount)
        return None

    def house_action(self, table: BanqueTable, absent: Callable[[str], bool]) -> Action | None:
        """A banker who is gone (a person absent) retires before the next coup's stakes."""
        banker = table.banker
        if banker is None or not table.can_retire() or not absent(table.names[banker]):
            return None
        return Action(act=Act.RETIRE, seat=banker, reason="the banker has left the table")

    def hands(self, table: BanqueTable, table_id: str, due: Named) -> dict[str, BaseModel]:
        """Each hand in play to whoever holds it: a half to its largest stake, the
        banker's to the banker; teaching mode's advice to whoever must choose."""
        if table.banker is None:
            return {}
        public = table.observation()
        out: dict[str, BaseModel] = {}
        for seat in dict.fromkeys([*public.playing.values(), table.banker]):
            if seat is None or not (seen := table.observation(seat)).hands:
                continue  # an unstaked half, or no coup in play
            advice, choices = None, None
            if seat == seen.actor:  # the legal acts, for him alone
                punter = table.phase is Phase.PUNTER
                found = banque_punter_advice(table) if punter else banque_banker_advice(table)
                advice, choices = found.text, [legal.act.value for legal in seen.legal]
            out[table.names[seat]] = P.BanqueHand(
                table=table_id,
                cards=_words(seen.hands),
                totals=_by_hand(seen.totals),
                advice=advice,
                choices=choices,
                **due,
            )
        return out

    def view(self, table: BanqueTable | None, shown: Shown[Phase]) -> P.BanqueState:
        """The table as everybody sees it (no card face down, no card of the shoe)."""
        if table is None:
            return P.BanqueState(
                **shown,
                banker=None,
                bank=0,
                choices=[],
                bids={},
                next_bid=None,
                can_retire=False,
                stakes={"L": {}, "R": {}},
                playing={"L": None, "R": None},
                live=None,
                cards={"L": [], "R": [], "B": []},
                hidden={"L": 0, "R": 0, "B": 0},
            )
        seen, names = table.observation(), table.names  # a spectator's view
        return P.BanqueState(
            **shown,
            banker=None if seen.banker is None else names[seen.banker],
            bank=seen.bank,
            **labelled([act.value for act in seen.choices], "retire"),
            bids={names[seat]: amount for seat, amount in seen.bids},
            next_bid=seen.next_bid,
            can_retire=seen.can_retire,
            stakes={
                key: {names[s]: a for s, a in stakes}
                for key, stakes in _by_half(seen.stakes).items()
            },
            playing={
                key: None if s is None else names[s] for key, s in _by_half(seen.playing).items()
            },
            live=seen.live,
            cards=_words(seen.shown),
            hidden=_by_hand(seen.hidden),
            last=_last(table),
        )
