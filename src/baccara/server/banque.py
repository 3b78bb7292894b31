"""One online Baccarat Banque table: the bank auctioned, two tableaux, one banker's hand.

The engine is the terminal's, `baccara.skill.banque.BanqueTable`; `PlayersRunner`
(`baccara.server.players`) adds the seats, the fair shoe, the clock, the ledger and the
broadcast. At each shoe (and when a banker retires or is broke) the bank is auctioned
in the open: every seated player sees the best bid and may raise it; each bid starts
the clock again, and when it runs out the best bid takes the bank (nobody bidding ends
the shoe). The banker may retire between coups, before any stake; a banker who is gone
retires at the next coup. Punters stake in turn from the banker's right on the left or
the right tableau; each tableau is played by its largest stake. The first two cards of
each hand lie face down: whoever plays a tableau sees it, the banker sees his own
(``banque_hand``); a natural is shown at once, the third cards face up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from baccara.cards import Card, hand_total
from baccara.server import protocol as P
from baccara.server.players import PlayersRunner
from baccara.shoe import Shoe
from baccara.skill import records
from baccara.skill.actions import Act, Action
from baccara.skill.advice import banque_banker_advice, banque_punter_advice
from baccara.skill.banque import (
    BankerDecided,
    BanqueError,
    BanqueEvent,
    BanqueTable,
    Phase,
    Tableau,
    TableauDecided,
    TableauxDealt,
)
from baccara.skill.bots import banque_bot_action, banque_bot_bid, banque_bot_budget
from baccara.skill.game_rules import Seating, game_table

__all__ = ["BanqueRunner", "banque_pot"]

_CHOICES: dict[Phase, list[str]] = {
    Phase.AUCTION: ["bid"],
    Phase.STAKES: ["stake"],
    Phase.PUNTER: ["draw", "stand"],
    Phase.BANKER: ["banker_draw", "banker_stand"],
}
_PLAYING = (Phase.PUNTER, Phase.BANKER)


def _legal(table: BanqueTable) -> list[str]:
    """What the punter or banker to act may really do (the state shows the punter's draw
    and stand both, whatever his hidden total)."""
    if table.phase is not Phase.PUNTER:
        return list(_CHOICES.get(table.phase, []))
    return [act for act, can in (("draw", table.can_draw()), ("stand", table.can_stand())) if can]


def _public(event: BanqueEvent) -> str:
    """An event in words for the whole table: nothing of a face-down hand."""
    if isinstance(event, TableauxDealt):
        return "Two cards to the left tableau, to the right, and to the banker."
    if isinstance(event, TableauDecided):
        name = f"The {event.tableau.word} punter"
        return f"{name} stands." if event.card is None else f"{name} draws: {event.card}."
    if isinstance(event, BankerDecided):
        return "The banker stands." if event.card is None else f"The banker draws: {event.card}."
    return event.text


def _shown(table: BanqueTable) -> dict[str, list[Card]]:
    """The cards everybody sees during a coup: a settled hand whole (a natural shows),
    the banker's once a tableau was settled against it, and every third card."""
    hands: dict[str, list[Card]] = {t.value: table.hands[t] for t in Tableau}
    hands["B"] = table.banker_cards
    return {
        key: cards if key in table.settled or (key == "B" and table.settled) else cards[2:]
        for key, cards in hands.items()
    }


def banque_pot(table: BanqueTable) -> int:
    """The money on a Banque table's felt: the bank and the stakes still at risk (a
    tableau settled on a natural has been paid already).

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
        cards={k: [str(c) for c in v] for k, v in cards.items()},  # type: ignore[misc]
        totals={k: hand_total(v) for k, v in cards.items()},  # type: ignore[misc]
        result=coup.result,  # type: ignore[arg-type]
    )


class BanqueRunner(PlayersRunner[BanqueTable]):
    """One Baccarat Banque table of the server."""

    errors = (BanqueError,)
    _budgets: dict[int, int] | None = None  # the bots' budgets at the auction under way

    def new_engine(
        self, names: list[str], chips: list[int], shoe: Shoe, rules: Mapping[str, Any]
    ) -> BanqueTable:
        self._budgets = None
        seating = Seating(names=tuple(names), chips=tuple(chips), minimum=self.minimum)
        table = game_table(rules, seating, shoe)
        assert isinstance(table, BanqueTable)
        return table

    def coups(self, table: BanqueTable) -> Sequence[records.GameCoup]:
        return records.banque_coups(table.log)

    def pot(self, table: BanqueTable) -> int:
        return banque_pot(table)

    def public(self, event: BanqueEvent, table: BanqueTable) -> str:
        return _public(event)

    def refusal(self, action: Action, table: BanqueTable) -> str:
        if action.act in (Act.BID, Act.RETIRE):
            return "not_allowed"
        return super().refusal(action, table)

    def bot_action(self, table: BanqueTable) -> Action | None:
        if table.phase is not Phase.AUCTION:
            self._budgets = None
            seat = table.actor
            if seat is None or table.names[seat] not in self.bots:
                return None
            return banque_bot_action(table, self.rng)
        if self._budgets is None:  # a new auction: each bot's budget for it
            self._budgets = {
                seat: banque_bot_budget(table, seat, self.rng)
                for seat, name in enumerate(table.names)
                if name in self.bots
            }
        for seat, budget in self._budgets.items():
            amount = banque_bot_bid(table, seat, budget)
            if amount:
                return Action(act=Act.BID, seat=seat, amount=amount)
        return None

    def house_action(self, table: BanqueTable) -> Action | None:
        """A banker who is gone retires before the next coup's stakes."""
        banker = table.banker
        if banker is None or not table.can_retire() or table.names[banker] in self.bots:
            return None
        if self.present(table.names[banker]):
            return None
        return Action(act=Act.RETIRE, seat=banker, reason="the banker has left the table")

    def hands(self) -> dict[str, BaseModel]:
        """Each hand in play to whoever holds it: a tableau to its largest stake, the
        banker's to the banker; teaching mode's advice to whoever must choose."""
        table = self.table
        if table is None or table.phase not in _PLAYING or table.banker is None:
            return {}
        owners: dict[str, list[str]] = {}
        for tableau in Tableau:
            seat = table.player_of(tableau)
            if seat is not None:
                owners.setdefault(table.names[seat], []).append(tableau.value)
        owners.setdefault(table.names[table.banker], []).append("B")
        actor = table.actor
        out: dict[str, BaseModel] = {}
        for name, keys in owners.items():
            cards = {
                key: table.banker_cards if key == "B" else table.hands[Tableau(key)] for key in keys
            }
            advice, choices = None, None
            if actor is not None and table.names[actor] == name:
                punter = table.phase is Phase.PUNTER
                found = banque_punter_advice(table) if punter else banque_banker_advice(table)
                advice, choices = found.text, _legal(table)
            out[name] = P.BanqueHand(
                table=self.id,
                cards={k: [str(c) for c in v] for k, v in cards.items()},  # type: ignore[misc]
                totals={k: hand_total(v) for k, v in cards.items()},  # type: ignore[misc]
                advice=advice,
                choices=choices,
                **self.due().named(),
            )
        return out

    def view(self) -> P.BanqueState:
        """The table as everybody sees it (no card face down, no card of the shoe)."""
        table = self.table
        empty: dict[str, list[str]] = {"L": [], "R": [], "B": []}
        if table is None:
            return P.BanqueState(
                **self.shown(),
                banker=None,
                bank=0,
                choices=[],
                bids={},
                next_bid=None,
                can_retire=False,
                stakes={"L": {}, "R": {}},
                playing={"L": None, "R": None},
                live=None,
                cards=empty,  # type: ignore[arg-type]
                hidden={"L": 0, "R": 0, "B": 0},
            )
        names = table.names
        playing = table.phase in _PLAYING
        shown = _shown(table) if playing else empty
        best = max(table.bids.values(), default=None)
        live = table.live_tableau
        return P.BanqueState(
            **self.shown(),
            banker=None if table.banker is None else names[table.banker],
            bank=table.bank,
            **self.labelled(list(_CHOICES.get(table.phase, [])), "retire"),
            bids={names[seat]: amount for seat, amount in table.bids.items()},
            next_bid=None
            if table.phase is not Phase.AUCTION
            else (table.minimum if best is None else best + 1),
            can_retire=table.can_retire(),
            stakes={t.value: {names[s]: a for s, a in table.stakes[t].items()} for t in Tableau},
            playing={
                t.value: None if (s := table.player_of(t)) is None else names[s] for t in Tableau
            },
            live=None if live is None else live.value,
            cards={k: [str(c) for c in v] for k, v in shown.items()},  # type: ignore[misc]
            hidden={
                k: (len(h) - len(shown[k])) if playing else 0  # type: ignore[misc]
                for k, h in (
                    *((t.value, table.hands[t]) for t in Tableau),
                    ("B", table.banker_cards),
                )
            },
            last=_last(table),
        )
