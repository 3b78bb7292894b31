"""Provably fair records of the players' games: the seats, every action, each coup.

In Chemin de Fer and Baccarat Banque the cards dealt depend on the players' choices
(the punter on 5, the banker in a free cell), and the money on what each said (the
bank, the stakes, banco), so a shoe's record (`baccara.fair`, version 3,
`fair.ACTIONS_VERSION`) holds who sat with how many chips (`Seating`, sealed into the
shuffle as its last client seed), every action the table took in order, each coup
(the hands, the money on the table, the free decisions, the result) and the chips at
the end. `baccara.skill.replay.verify` plays the shoe again on the engine the rules
describe (`game_table`) with those actions and checks that it gives every coup and
every amount recorded, and that the shoe ends where the record does.

The server's calls, in order: `new_game_shoe` (commit), `table_shoe` (shuffle with each
seated player's seed, in seat order, and the seating's seal, and burn), `game_table`
(the engine), and `game_record` at the end.

>>> from baccara.cards import parse_cards
>>> from baccara.shoe import Shoe
>>> from baccara.skill.chemin import CheminTable
>>> shoe = Shoe.stacked(parse_cards("2h Kc 3h Qd 9c 6s") * 9)
>>> table = CheminTable(names=("Ann", "Bob"), bankrolls=(10_000,) * 2, shoe=shoe)
>>> _ = table.open_bank(1_000); _ = table.banco(1); _ = table.stand()
>>> coup = chemin_coups(table.log)[0]
>>> coup.notation, [str(d) for d in coup.decisions], coup.result
('P:2h,3h B:Kc,Qd,9c', ['seat 1 (P) stands on 5'], 'B')
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from baccara.cards import Card, CardError, format_cards, hand_total, parse_cards
from baccara.fair import ACTIONS_VERSION, FairError, FairShoe, new_server_seed, seed_hash
from baccara.fair import rules_hash as hash_rules
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import banque_events as bq
from baccara.skill import chemin_events as ch
from baccara.skill import tableaux
from baccara.skill.actions import Action, ActionError
from baccara.skill.game_rules import (
    GameRules,
    Seating,
    default_shoe_settings,
    game_rules_document,
    game_table,
    whole_number,
)
from baccara.skill.games import GameCoup, GameEngine, RecordedTable, players_game
from baccara.variants import Variant

__all__ = [
    "BanqueCoup",
    "CheminCoup",
    "Decision",
    "GameCoup",
    "action_from_json",
    "action_json",
    "banque_coups",
    "chemin_coups",
    "default_shoe_settings",
    "game_record",
    "game_rules_document",
    "new_game_shoe",
    "table_coups",
    "table_shoe",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """``seat`` chose to draw (``draws``) or stand with ``hand`` at ``total``.

    ``hand`` is ``P`` or ``B`` (Chemin de Fer), ``L``, ``R`` or ``B`` (Banque);
    ``third`` is, for the Chemin de Fer banker, the punter's third card (None: he stood).

    >>> str(Decision(seat=0, hand="B", total=6, draws=False, third=6))
    'seat 0 (B) stands on 6 against a 6'
    """

    seat: int
    hand: str
    total: int
    draws: bool
    third: int | None = None

    def __str__(self) -> str:
        against = ""
        if self.hand == "B" and self.third is not None:
            against = f" against a {self.third}"
        word = "draws" if self.draws else "stands"
        return f"seat {self.seat} ({self.hand}) {word} on {self.total}{against}"

    def to_json(self, *, with_third: bool = False) -> dict[str, Any]:
        """The decision as a JSON-ready document (``third`` for a Chemin de Fer banker)."""
        doc: dict[str, Any] = {"seat": self.seat, "hand": self.hand, "total": self.total}
        if with_third:
            doc["third"] = self.third
        doc["draws"] = self.draws
        return doc

    @classmethod
    def from_json(cls, data: Any, hands: str) -> Decision:
        """Read a decision of one of ``hands``; `FairError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise FairError(f"bad decision {data!r}: expected an object")
        seat, hand, total, draws = (data.get(k) for k in ("seat", "hand", "total", "draws"))
        third = data.get("third")
        if not whole_number(seat) or not whole_number(total) or not isinstance(draws, bool):
            raise FairError(f"bad decision {dict(data)!r}: seat, total (numbers) and draws (bool)")
        if not isinstance(hand, str) or len(hand) != 1 or hand not in hands:
            raise FairError(f"bad decision {dict(data)!r}: hand is one of {', '.join(hands)}")
        if third is not None and not whole_number(third):
            raise FairError(f"bad decision {dict(data)!r}: third is a card's points or null")
        return cls(seat=seat, hand=hand, total=total, draws=draws, third=third)


def _hands_notation(hands: Mapping[str, Sequence[Card]]) -> str:
    return " ".join(f"{name}:{format_cards(cards)}" for name, cards in hands.items())


def parse_hands(text: object, names: str) -> dict[str, tuple[Card, ...]]:
    """Read ``P:2h,3h B:Kc,Qd`` (hands ``names`` in order); `FairError` if malformed.

    >>> parse_hands("L:2h,3h R:4d,4s B:Kc,9d", "LRB")["R"]
    (Card.parse('4d'), Card.parse('4s'))
    """
    if not isinstance(text, str):
        raise FairError(f"bad cards {text!r}: expected a string such as 'P:2h,3h B:Kc,Qd'")
    parts = text.split()
    labels = [part.partition(":")[0] for part in parts]
    if labels != list(names):
        raise FairError(f"bad cards {text!r}: expected the hands {' '.join(names)} in order")
    try:
        return {part[0]: parse_cards(part.partition(":")[2]) for part in parts}
    except CardError as error:
        raise FairError(f"bad cards {text!r}: {error}") from None


def _stakes_json(stakes: Sequence[tuple[int, int]]) -> list[list[int]]:
    return [[seat, amount] for seat, amount in stakes]


def _stakes(data: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(data, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(whole_number(x) for x in p) for p in data
    ):
        raise FairError(f"bad stakes {data!r}: expected [[seat, amount], ...]")
    return tuple((int(seat), int(amount)) for seat, amount in data)


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not whole_number(value):
        raise FairError(f"bad coup: {key} must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class CheminCoup:
    """One Chemin de Fer coup: the hands, the money, the free decisions, the result."""

    punter_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    banker: int
    punter: int
    bank: int
    stakes: tuple[tuple[int, int], ...]
    banco: bool
    decisions: tuple[Decision, ...]
    result: str

    @property
    def notation(self) -> str:
        """The hands as ``P:… B:…``."""
        return _hands_notation({"P": self.punter_cards, "B": self.banker_cards})

    @property
    def dealt(self) -> int:
        """How many cards the coup took from the shoe."""
        return len(self.punter_cards) + len(self.banker_cards)

    def to_json(self) -> dict[str, Any]:
        """The coup as a JSON-ready document."""
        return {
            "cards": self.notation,
            "banker": self.banker,
            "punter": self.punter,
            "bank": self.bank,
            "stakes": _stakes_json(self.stakes),
            "banco": self.banco,
            "decisions": [d.to_json(with_third=d.hand == "B") for d in self.decisions],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Any) -> CheminCoup:
        """Read a coup document; `FairError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise FairError(f"bad coup {data!r}: expected an object")
        hands = parse_hands(data.get("cards"), "PB")
        decisions = data.get("decisions", [])
        if not isinstance(decisions, list) or not isinstance(data.get("banco", False), bool):
            raise FairError("bad coup: decisions must be a list and banco true or false")
        read = tuple(Decision.from_json(d, "PB") for d in decisions)
        return cls(
            punter_cards=hands["P"],
            banker_cards=hands["B"],
            banker=_int(data, "banker"),
            punter=_int(data, "punter"),
            bank=_int(data, "bank"),
            stakes=_stakes(data.get("stakes", [])),
            banco=bool(data.get("banco", False)),
            decisions=read,
            result=str(data.get("result", "")),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueCoup:
    """One Banque coup: the left, right and banker's hands, the money, the decisions."""

    left_cards: tuple[Card, ...]
    right_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    banker: int
    bank: int
    left_stakes: tuple[tuple[int, int], ...]
    right_stakes: tuple[tuple[int, int], ...]
    decisions: tuple[Decision, ...]
    result: Mapping[str, str] = field(default_factory=dict)

    @property
    def notation(self) -> str:
        """The hands as ``L:… R:… B:…``."""
        return _hands_notation(
            {"L": self.left_cards, "R": self.right_cards, "B": self.banker_cards}
        )

    @property
    def dealt(self) -> int:
        """How many cards the coup took from the shoe."""
        return len(self.left_cards) + len(self.right_cards) + len(self.banker_cards)

    def to_json(self) -> dict[str, Any]:
        """The coup as a JSON-ready document."""
        return {
            "cards": self.notation,
            "banker": self.banker,
            "bank": self.bank,
            "stakes": {
                "L": _stakes_json(self.left_stakes),
                "R": _stakes_json(self.right_stakes),
            },
            "decisions": [d.to_json() for d in self.decisions],
            "result": dict(self.result),
        }

    @classmethod
    def from_json(cls, data: Any) -> BanqueCoup:
        """Read a coup document; `FairError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise FairError(f"bad coup {data!r}: expected an object")
        hands = parse_hands(data.get("cards"), "LRB")
        stakes, decisions = data.get("stakes", {}), data.get("decisions", [])
        result = data.get("result", {})
        if not isinstance(stakes, Mapping) or not isinstance(decisions, list):
            raise FairError("bad coup: stakes must be {'L': [...], 'R': [...]}, decisions a list")
        if not isinstance(result, Mapping):
            raise FairError(f"bad coup: result must be {{'L': ..., 'R': ...}}, not {result!r}")
        return cls(
            left_cards=hands["L"],
            right_cards=hands["R"],
            banker_cards=hands["B"],
            banker=_int(data, "banker"),
            bank=_int(data, "bank"),
            left_stakes=_stakes(stakes.get("L", [])),
            right_stakes=_stakes(stakes.get("R", [])),
            decisions=tuple(Decision.from_json(d, "LRB") for d in decisions),
            result={str(k): str(v) for k, v in result.items()},
        )


def chemin_coups(events: Iterable[ch.CheminEvent]) -> list[CheminCoup]:
    """The finished coups in a Chemin de Fer table's events (`CheminTable.log`), in order.

    Pass the whole log, or each coup's events (from its ``Dealt`` to its ``CoupSettled``).
    """
    coups: list[CheminCoup] = []
    dealt: ch.Dealt | None = None
    hands: dict[str, list[Card]] = {}
    decisions: list[Decision] = []
    for event in events:
        if isinstance(event, ch.Dealt):
            dealt, decisions = event, []
            hands = {"P": list(event.punter), "B": list(event.banker)}
        elif dealt is None:
            continue
        elif isinstance(event, ch.PunterDecided | ch.BankerDecided):
            hand = "P" if isinstance(event, ch.PunterDecided) else "B"
            if event.free:
                third = hands["P"][2].points if hand == "B" and len(hands["P"]) == 3 else None
                total = hand_total(hands[hand])
                decisions.append(
                    Decision(
                        seat=event.seat, hand=hand, total=total, draws=event.draws, third=third
                    )
                )
            if event.card is not None:
                hands[hand].append(event.card)
        elif isinstance(event, ch.CoupSettled):
            coups.append(
                CheminCoup(
                    punter_cards=tuple(hands["P"]),
                    banker_cards=tuple(hands["B"]),
                    banker=dealt.banker_seat,
                    punter=dealt.seat,
                    bank=dealt.bank,
                    stakes=dealt.stakes,
                    banco=dealt.banco,
                    decisions=tuple(decisions),
                    result=event.result.value,
                )
            )
            dealt = None
    return coups


def banque_coups(events: Iterable[bq.BanqueEvent]) -> list[BanqueCoup]:
    """The finished coups in a Banque table's events (`BanqueTable.log`), in order."""
    coups: list[BanqueCoup] = []
    dealt: bq.HalvesDealt | None = None
    hands: dict[str, list[Card]] = {}
    decisions: list[Decision] = []
    result: dict[str, str] = {}
    for event in events:
        if isinstance(event, bq.HalvesDealt):
            dealt, decisions, result = event, [], {}
            hands = {"L": list(event.left), "R": list(event.right), "B": list(event.banker)}
        elif dealt is None:
            continue
        elif isinstance(event, bq.HalfDecided | bq.BankerDecided):
            hand = event.half.value if isinstance(event, bq.HalfDecided) else "B"
            free = event.free if isinstance(event, bq.HalfDecided) else True
            if event.seat is not None and free:
                total = hand_total(hands[hand])
                decisions.append(
                    Decision(seat=event.seat, hand=hand, total=total, draws=event.draws)
                )
            if event.card is not None:
                hands[hand].append(event.card)
        elif isinstance(event, bq.HalfSettled):
            result[event.half.value] = event.result.value
            if len(result) == 2:
                coups.append(
                    BanqueCoup(
                        left_cards=tuple(hands["L"]),
                        right_cards=tuple(hands["R"]),
                        banker_cards=tuple(hands["B"]),
                        banker=dealt.banker_seat,
                        bank=dealt.bank,
                        left_stakes=dealt.left_stakes,
                        right_stakes=dealt.right_stakes,
                        decisions=tuple(decisions),
                        result={"L": result["L"], "R": result["R"]},
                    )
                )
                dealt = None
    return coups


def table_coups(table: RecordedTable) -> list[GameCoup]:
    """The finished coups of a table's shoe, as its game reads its log
    (`PlayersGame.coups`: `chemin_coups`, `banque_coups`)."""
    return list(players_game(table.variant).coups(table.log))


def action_json(action: Action) -> dict[str, Any]:
    """An action as a record holds it: the act and the seat, an amount and a tableau if any.

    >>> from baccara.skill.actions import Act
    >>> action_json(Action(act=Act.STAKE, seat=2, amount=500, tableau="L"))
    {'act': 'stake', 'seat': 2, 'amount': 500, 'tableau': 'L'}
    """
    doc: dict[str, Any] = {"act": action.act.value, "seat": action.seat}
    if action.amount:
        doc["amount"] = action.amount
    if action.tableau is not None:
        doc["tableau"] = action.tableau
    return doc


def action_from_json(data: object) -> Action:
    """Read `action_json`'s document; `FairError` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise FairError(f"bad action {data!r}: expected an object")
    try:
        return Action.parse(data)
    except ActionError as error:
        raise FairError(str(error)) from None


def new_game_shoe(
    variant: Variant,
    shoe_settings: ShoeSettings | None = None,
    *,
    house: tableaux.House | str = tableaux.House.FRENCH,
    free_banker: bool = False,
    punter_speaks: bool = False,
    source: Callable[[int], bytes] = secrets.token_bytes,
) -> FairShoe:
    """A players' game's next shoe: a fresh secret seed and the rules it commits to.

    Publish ``commitment()``; shuffle with `table_shoe`; publish `game_record` at the end.
    """
    document = game_rules_document(
        variant, shoe_settings, house=house, free_banker=free_banker, punter_speaks=punter_speaks
    )
    return FairShoe(server_seed=new_server_seed(source), rules=document)


def table_shoe(fair: FairShoe, seat_seeds: Sequence[str], seating: Seating) -> Shoe:
    """The shoe a table deals: shuffled with every seated player's seed, in seat order,
    and the seating's seal (`Seating.seal`, when the rules commit to it), then burned.

    Pass it to `game_table`.
    """
    if len(seat_seeds) != len(seating.names):
        raise FairError(f"{len(seat_seeds)} seeds for {len(seating.names)} seats")
    sealed = GameRules.read(fair.rules).sealed
    shoe = fair.seat_shoe([*seat_seeds, seating.seal()] if sealed else seat_seeds)
    shoe.burn()
    return shoe


def replayed(fair: FairShoe, seating: Seating, actions: Iterable[Action]) -> GameEngine:
    """A players' shoe dealt again: its sealed seeds' shuffle (burned as its settings
    say), the ``seating`` it was sealed with, and every decision in order (`apply`):
    what a restart resumes and a record or a replay shows."""
    shoe = fair.shoe()
    shoe.burn()
    table = game_table(fair.rules, seating, shoe)
    for action in actions:
        table.apply(action)
    return table


def game_record(fair: FairShoe, table: RecordedTable) -> dict[str, Any]:
    """The version 3 record to publish at the shoe's end (the seed revealed): the
    seating, every action ``table`` took (`apply`), its coups and the chips at the end."""
    coups = table_coups(table)
    if not coups:
        raise FairError("a record holds at least one coup")
    if table.log and not table.actions:
        raise FairError("a record replays the table's actions: play it with apply()")
    return {
        "version": ACTIONS_VERSION,
        "server_seed": fair.server_seed,
        "server_seed_hash": seed_hash(fair.server_seed),
        "rules": fair.rules,
        "rules_hash": hash_rules(fair.rules),
        "client_seeds": list(fair.client_seeds),
        **Seating.of(table).to_json(),
        "actions": [action_json(action) for action in table.actions],
        "coups": [coup.to_json() for coup in coups],
        "end": {"chips": list(table.bankrolls), "commission": table.house},
    }
