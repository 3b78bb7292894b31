"""One online Chemin de Fer table: the bank passing round, punters staking and calling banco.

The engine is the terminal's, `baccara.skill.chemin.CheminTable`; `CheminGame` is the
game's part of its table (`baccara.server.tables.game.PlayersGame`), which the one
players' table, `baccara.server.tables.players.PlayersRunner`, composes with the seats,
the fair shoe, the clock, the ledger and the broadcast. The first two cards of each hand lie face down until the coup is settled:
the punter and the banker see their own (``chemin_hand``, with teaching mode's advice
to whoever must choose), everybody sees the third cards and the result; the news says
each event as the engine lets everybody read it (`CheminTable.seen`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from baccara.cards import Card, hand_total
from baccara.coup import Result
from baccara.server.tables.game import Shown, labelled
from baccara.server.tables.turns import Named
from baccara.server.wire import protocol as P
from baccara.skill import records
from baccara.skill.actions import Act, Action
from baccara.skill.advice import banker_advice, punter_advice
from baccara.skill.bots import chemin_bot_action
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import PHASES, CheminError, Phase

__all__ = ["CheminGame"]


def _advice(table: CheminTable) -> str | None:
    """Teaching mode's word at a choice: the tableau's rule and the equilibrium (the rule
    alone where it binds the punter)."""
    if table.phase is Phase.PUNTER:
        return punter_advice(table).text
    if table.phase is Phase.BANKER and table.banker_free():
        return banker_advice(table).text
    return None


def _last(table: CheminTable) -> P.LastCoup | None:
    """The coup just settled (None before the shoe's first)."""
    coups = records.chemin_coups(table.log)
    if not coups:
        return None
    coup = coups[-1]
    return P.LastCoup(
        punter=table.names[coup.punter],
        banker=table.names[coup.banker],
        punter_cards=[str(c) for c in coup.punter_cards],
        banker_cards=[str(c) for c in coup.banker_cards],
        punter_total=hand_total(coup.punter_cards),
        banker_total=hand_total(coup.banker_cards),
        result=Result(coup.result),  # the record's letter
    )


def _words(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


class CheminGame:
    """Chemin de Fer's part of its table online (`baccara.server.tables.game.PlayersGame`)."""

    engine = CheminTable
    phases = PHASES
    errors = (CheminError,)
    anytime: frozenset[Act] = frozenset()

    def pot(self, table: CheminTable) -> int:
        """The bank and the stakes that cover it."""
        return table.bank + table.covered

    def bot_action(
        self, table: CheminTable, bots: frozenset[int], rng: random.Random
    ) -> Action | None:
        """A bot to act plays as the tableau and the equilibrium say."""
        return chemin_bot_action(table, rng) if table.actor in bots else None

    def house_action(self, table: CheminTable, absent: Callable[[str], bool]) -> Action | None:
        """None: the house has no move of its own at Chemin de Fer."""
        return None

    def hands(self, table: CheminTable, table_id: str, due: Named) -> dict[str, BaseModel]:
        """What the punter and the banker see of their own hands while the coup is played
        (and, for whoever must choose, teaching mode's advice)."""
        if (punter := table.observation().punter) is None:
            return {}  # no coup in play
        out: dict[str, BaseModel] = {}
        for seat in (punter, table.banker):
            seen = table.observation(seat)
            for key, cards in seen.hands.items():  # the punter's (P) or the banker's (B)
                asked = seat == seen.actor  # the legal acts, for him alone
                out[table.names[seat]] = P.CheminHand(
                    table=table_id,
                    side="punter" if key == "P" else "banker",
                    cards=_words(cards),
                    total=seen.totals[key],
                    advice=_advice(table) if asked else None,
                    choices=[legal.act.value for legal in seen.legal] if asked else None,
                    **due,
                )
        return out

    def view(self, table: CheminTable | None, shown: Shown[Phase]) -> P.CheminState:
        """The table as everybody sees it (no card face down, no card of the shoe)."""
        if table is None:
            return P.CheminState(
                **shown,
                banker=None,
                bank=0,
                choices=[],
                stakes={},
                punter=None,
                punter_cards=[],
                banker_cards=[],
            )
        seen, names = table.observation(), table.names  # a spectator's view
        return P.CheminState(
            **shown,
            banker=names[table.banker],
            bank=seen.bank,
            # the punter's draw and stand both, whatever his hidden total
            **labelled([act.value for act in seen.choices]),
            stakes={names[seat]: amount for seat, amount in seen.stakes},
            punter=None if seen.punter is None else names[seen.punter],
            # the first two cards of each hand lie face down until the coup is settled
            punter_cards=_words(seen.shown["P"]),
            banker_cards=_words(seen.shown["B"]),
            hidden=seen.hidden["P"],
            last=_last(table),
        )
