"""What a players' shoe starts from: its rules document and its seating, and the engine
they make.

The rules document (`game_rules_document`) is committed before the shoe (its hash is
published); the seating (`Seating`: who sits, in seat order, with the chips each
brought, and the table's minimum) is known when the seeds close, and sealed into the
shuffle as its last client seed (`Seating.seal`, `baccara.skill.records.table_shoe`),
so that the seed hash covers it too. `game_table` builds the engine from both: the
server plays on it and ``baccara verify`` plays a record again on it.

>>> from baccara.shoe import Shoe
>>> from baccara.variants import find_variant
>>> rules = game_rules_document(find_variant("chemin-de-fer"))
>>> seating = Seating(names=("ann", "bob"), chips=(5_000, 5_000), minimum=100)
>>> table = game_table(rules, seating, Shoe.shuffled(default_shoe_settings(find_variant("chemin-de-fer")), seed=1))
>>> type(table).__name__, table.names, table.minimum
('CheminTable', ('ann', 'bob'), 100)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeGuard

from baccara.fair import ACTIONS_VERSION, FairError
from baccara.fair import rules_hash as hash_rules
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import tableaux
from baccara.skill.games import GameEngine, RecordedTable, game_names, players_game
from baccara.variants import Variant, find_variant

__all__ = [
    "GameEngine",
    "GameRules",
    "RecordedTable",
    "Seating",
    "default_shoe_settings",
    "game_rules_document",
    "game_table",
    "whole_number",
]

_USER = "a record with decisions"


def whole_number(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (not a boolean).

    >>> whole_number(3), whole_number(True), whole_number(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def default_shoe_settings(variant: Variant) -> ShoeSettings:
    """How the game's tables make their shoe (`PlayersGame.burn`: Chemin de Fer burns,
    Banque does not)."""
    return ShoeSettings(decks=variant.decks, burn=players_game(variant, user=_USER).burn)


def game_rules_document(
    variant: Variant,
    shoe_settings: ShoeSettings | None = None,
    *,
    house: tableaux.House | str = tableaux.House.FRENCH,
    free_banker: bool = False,
    punter_speaks: bool = False,
) -> dict[str, Any]:
    """A players' game's rules as a JSON-ready document (what ``rules_hash`` hashes).

    ``punter_speaks``: the punter is asked in every coup without a natural (the engines'
    option). ``record`` commits to the record's form: version 3, the seating sealed in
    the shuffle.

    >>> from baccara.variants import find_variant
    >>> doc = game_rules_document(find_variant("chemmy"))
    >>> doc["variant"], doc["record"]
    ({'name': 'chemin-de-fer', 'family': 'chemin-de-fer', 'decks': 6, 'commission': '1/20', 'house': 'french', 'free_banker': False, 'punter_speaks': False}, 3)
    """
    chemin = players_game(variant, user=_USER).house_tableau  # its options: Chemin de Fer's
    settings = shoe_settings or default_shoe_settings(variant)
    shoe_keys = ("decks", "cut_card", "burn", "ten_burns", "ace_burns")
    return {
        "variant": {
            "name": variant.name,
            "family": variant.family.value,
            "decks": settings.decks,
            "commission": str(variant.commission),
            "house": tableaux.House.parse(house).value if chemin else None,
            "free_banker": free_banker if chemin else True,
            "punter_speaks": punter_speaks,
        },
        "shoe": {key: getattr(settings, key) for key in shoe_keys},
        "record": ACTIONS_VERSION,
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRules:
    """What a players' game's rules document says the engine is.

    ``sealed``: the document commits to a version 3 record whose seating is the
    shuffle's last client seed (a shoe committed before that has no ``record`` key);
    ``punter_speaks`` is false in a document from before the option.
    """

    variant: Variant
    house: tableaux.House
    free_banker: bool
    punter_speaks: bool
    sealed: bool

    @classmethod
    def read(cls, document: Mapping[str, Any]) -> GameRules:
        """Read a rules document; `FairError` naming what is wrong.

        >>> from baccara.variants import find_variant
        >>> GameRules.read(game_rules_document(find_variant("banque"))).variant.name
        'banque'
        """
        data = document.get("variant")
        if not isinstance(data, Mapping):
            raise FairError("bad rules: no 'variant' object")
        family, games = data.get("family"), game_names()
        if family not in games:
            raise FairError(
                "bad record: a record with decisions is a players' game's "
                f"(family {' or '.join(games)}), not {family!r}"
            )
        try:
            variant = find_variant(str(data.get("name")))
            house = tableaux.House.parse(str(data.get("house") or "french"))
            commission = Fraction(str(data.get("commission", variant.commission)))
        except (ValueError, ZeroDivisionError) as error:
            raise FairError(f"bad rules: {error}") from None
        if variant.family.value != family:
            raise FairError(f"bad rules: {variant.name} is not a game of the {family} family")
        if not 0 <= commission < 1:
            raise FairError(f"bad rules: a commission of {commission} (0 to 1, as 1/20)")
        if commission != variant.commission:  # the house's own, as committed
            variant = variant.with_changes(banker_pays=1 - commission)
        return cls(
            variant=variant,
            house=house,
            free_banker=bool(data.get("free_banker", False)),
            punter_speaks=bool(data.get("punter_speaks", False)),
            sealed=document.get("record") == ACTIONS_VERSION,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Seating:
    """Who plays a players' shoe, in seat order, with the chips each brought, and the
    table's minimum (bank and bid): what the engine starts from.

    `seal` is the shuffle's last client seed, so the seed hash covers the seating too.

    >>> seating = Seating(names=("ann", "bob"), chips=(20_000, 30_000), minimum=1_000)
    >>> seating.to_json()["seats"][1], seating.seal()[:16]
    ({'name': 'bob', 'chips': 30000}, 'aaacecc272f52492')
    """

    names: tuple[str, ...]
    chips: tuple[int, ...]
    minimum: int

    def to_json(self) -> dict[str, Any]:
        """The seating as the record holds it (``minimum`` and ``seats``)."""
        seats = [{"name": n, "chips": c} for n, c in zip(self.names, self.chips, strict=True)]
        return {"minimum": self.minimum, "seats": seats}

    def seal(self) -> str:
        """SHA-256 of the seating's canonical JSON, in hex (as `fair.rules_hash` hashes)."""
        return hash_rules(self.to_json())

    @classmethod
    def of(cls, table: RecordedTable) -> Seating:
        """The seating a table started from."""
        return cls(
            names=tuple(table.names), chips=tuple(table.chips_at_start), minimum=table.minimum
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seating:
        """Read a record's ``minimum`` and ``seats``; `FairError` naming what is wrong."""
        seats, minimum = data.get("seats"), data.get("minimum")
        if not whole_number(minimum) or minimum < 1:
            raise FairError(f"bad record: minimum must be a positive amount, not {minimum!r}")
        if not isinstance(seats, list) or len(seats) < 2:
            raise FairError("bad record: seats must list two seats or more")
        names, chips = [], []
        for seat in seats:
            name = seat.get("name") if isinstance(seat, Mapping) else None
            amount = seat.get("chips") if isinstance(seat, Mapping) else None
            if not isinstance(name, str) or not name or not whole_number(amount) or amount < 0:
                raise FairError(f"bad seat {seat!r}: expected {{'name': ..., 'chips': ...}}")
            names.append(name)
            chips.append(amount)
        if len(set(names)) != len(names):
            raise FairError(f"bad record: a name sits twice in {names}")
        return cls(names=tuple(names), chips=tuple(chips), minimum=minimum)


def game_table(rules: Mapping[str, Any], seating: Seating, shoe: Shoe) -> GameEngine:
    """The engine a players' shoe is played on: the game, tableau and commission of its
    ``rules`` document, the ``seating``, the shoe (shuffled and burned, `table_shoe`).

    The server plays on it and `baccara.skill.replay.verify` plays the record again on it.
    """
    game = GameRules.read(rules)
    return players_game(game.variant, user=_USER).table(game, seating, shoe)
