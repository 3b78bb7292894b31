"""The players' games in a registry (as python-chess's ``VARIANTS``): for each game
family, its engine and the parts made from it that every face shares.

A `PlayersGame` says how its engine is built from a shoe's committed rules and seating
(`baccara.skill.game_rules.game_table`), how its shoe is dealt, which options its rules
document carries, how the finished coups are read out of the engine's log and out of a
record (`baccara.skill.records`, `baccara.skill.replay`), and what its replay may note
at the shoe's end. Each game registers itself in its own module
(`baccara.skill.chemin`, `baccara.skill.banque`); the faces keep their own parts keyed
by the same `baccara.variants.Family` (the server's runners in
`baccara.server.tables.make`, the terminal's games in `baccara.tui.games`). A family
that is not registered here is refused in one line:

>>> from baccara.skill.game_rules import default_shoe_settings, game_rules_document
>>> from baccara.variants import find_variant
>>> default_shoe_settings(find_variant("chemmy")).burn, default_shoe_settings(find_variant("banque")).burn
(True, False)
>>> game_rules_document(find_variant("mini"))
Traceback (most recent call last):
...
baccara.variants.FamilyError: mini is a house-banked game (Punto Banco); a record with decisions covers Chemin de Fer and Baccarat Banque: chemin-de-fer, banque
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from baccara.variants import Family, Variant, require_family

if TYPE_CHECKING:
    from baccara.shoe import Shoe
    from baccara.skill.actions import Action
    from baccara.skill.game_rules import GameRules, Seating

__all__ = [
    "GAMES",
    "GameCoup",
    "GameEngine",
    "PlayersGame",
    "RecordedTable",
    "players_game",
    "register_game",
]


class RecordedTable(Protocol):
    """What a shoe's record is made from: a players' game engine (`GameEngine`)."""

    @property
    def variant(self) -> Variant: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def chips_at_start(self) -> Sequence[int]: ...
    @property
    def minimum(self) -> int: ...
    @property
    def bankrolls(self) -> Sequence[int]: ...
    @property
    def house(self) -> int: ...
    @property
    def log(self) -> Sequence[Any]: ...
    @property
    def actions(self) -> Sequence[Action]: ...


class GameEngine(RecordedTable, Protocol):
    """A players' game's engine as the record, the replay and the tables play it: its
    phase (``over`` at the shoe's end), the seat to act, and actions as values."""

    @property
    def phase(self) -> StrEnum: ...
    @property
    def over(self) -> bool: ...
    @property
    def actor(self) -> int | None: ...
    def apply(self, action: Action) -> tuple[Any, ...]: ...


class GameCoup(Protocol):
    """A finished coup as a record holds it (`baccara.skill.records`)."""

    @property
    def notation(self) -> str:
        """The hands, as ``P:2h,3h B:Kc,Qd``."""
        ...

    @property
    def dealt(self) -> int:
        """How many cards the coup took from the shoe."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The coup as a JSON-ready document."""
        ...


def _no_note(table: Any) -> str | None:
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayersGame:
    """One players' game's parts (see the module).

    ``table`` builds the engine from the rules document read (`GameRules`), the
    seating and the shoe; ``burn``: whether its tables burn the shoe's first card;
    ``house_tableau``: whether its rules document names a house tableau and a free
    banker (Chemin de Fer's options); ``coups`` reads the finished coups out of the
    engine's log, ``read_coup`` one out of a record's document; ``end_note`` is what a
    replay notes of a shoe that stopped where a record cannot prove its end (None: it
    did not).
    """

    family: Family
    engine: type[GameEngine]
    table: Callable[[GameRules, Seating, Shoe], GameEngine]
    burn: bool
    house_tableau: bool
    coups: Callable[[Sequence[Any]], Sequence[GameCoup]]
    read_coup: Callable[[object], GameCoup]
    end_note: Callable[[Any], str | None] = _no_note


GAMES: dict[Family, PlayersGame] = {}
"""Every players' game, by family, in registration order."""


def register_game(game: PlayersGame) -> PlayersGame:
    """Add ``game`` to `GAMES` under its family."""
    GAMES[game.family] = game
    return game


def players_game(variant: Variant, *, user: str = "the players' games") -> PlayersGame:
    """The registered game of ``variant``'s family; `baccara.variants.FamilyError` in
    one line, naming what ``user`` covers, for a family not registered."""
    require_family(variant, GAMES, user=user)
    return GAMES[variant.family]


def game_names() -> Mapping[str, PlayersGame]:
    """The registered games by their family's name."""
    return {family.value: game for family, game in GAMES.items()}
