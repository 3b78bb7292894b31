"""One online Chemin de Fer table: the bank passing round, punters staking and calling banco.

The engine is the terminal's, `baccara.skill.chemin.CheminTable`; `PlayersRunner`
(`baccara.server.tables.players`) adds the seats, the fair shoe, the clock, the ledger and the
broadcast. The first two cards of each hand lie face down until the coup is settled:
the punter and the banker see their own (``chemin_hand``, with teaching mode's advice
to whoever must choose), everybody sees the third cards and the result; the news says
each event as the engine lets everybody read it (`CheminTable.seen`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from baccara.cards import Card, hand_total
from baccara.coup import Result
from baccara.server.tables.players import PlayersRunner, PlayersTiming
from baccara.server.wire import protocol as P
from baccara.skill import records
from baccara.skill.actions import Action
from baccara.skill.advice import banker_advice, punter_advice
from baccara.skill.bots import chemin_bot_action
from baccara.skill.chemin import CheminError, CheminTable, Phase
from baccara.skill.chemin_events import PHASES

__all__ = ["CheminRunner", "PlayersTiming"]


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


class CheminRunner(PlayersRunner[CheminTable, Phase]):
    """One Chemin de Fer table of the server."""

    errors = (CheminError,)
    engine = CheminTable
    phases = PHASES

    def coups(self, table: CheminTable) -> Sequence[records.GameCoup]:
        return records.chemin_coups(table.log)

    def pot(self, table: CheminTable) -> int:
        return table.bank + table.covered

    def bot_action(self, table: CheminTable) -> Action | None:
        seat = table.actor
        if seat is None or table.names[seat] not in self.bots:
            return None
        return chemin_bot_action(table, self.rng)

    def hands(self) -> dict[str, BaseModel]:
        """What the punter and the banker see of their own hands while the coup is played
        (and, for whoever must choose, teaching mode's advice)."""
        table = self.table
        if table is None or (punter := table.observation().punter) is None:
            return {}  # no coup in play
        out: dict[str, BaseModel] = {}
        for seat in (punter, table.banker):
            seen = table.observation(seat)
            for key, cards in seen.hands.items():  # the punter's (P) or the banker's (B)
                asked = seat == seen.actor  # the legal acts, for him alone
                out[table.names[seat]] = P.CheminHand(
                    table=self.id,
                    side="punter" if key == "P" else "banker",
                    cards=_words(cards),
                    total=seen.totals[key],
                    advice=_advice(table) if asked else None,
                    choices=[legal.act.value for legal in seen.legal] if asked else None,
                    **self.due().named(),
                )
        return out

    def phase_now(self) -> Phase:
        return self.phase if self.table is None else self.table.phase

    def view(self) -> P.CheminState:
        """The table as everybody sees it (no card face down, no card of the shoe)."""
        table = self.table
        if table is None:
            return P.CheminState(
                **self.shown(),
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
            **self.shown(),
            banker=names[table.banker],
            bank=seen.bank,
            # the punter's draw and stand both, whatever his hidden total
            **self.labelled([act.value for act in seen.choices]),
            stakes={names[seat]: amount for seat, amount in seen.stakes},
            punter=None if seen.punter is None else names[seen.punter],
            # the first two cards of each hand lie face down until the coup is settled
            punter_cards=_words(seen.shown["P"]),
            banker_cards=_words(seen.shown["B"]),
            hidden=seen.hidden["P"],
            last=_last(table),
        )
