"""Baccarat Banque as an OpenSpiel game: the left punter (player 0), the right punter
(1) and the banker (2), one unit staked on each tableau.

``pyspiel.load_game("baccara_banque", {...})`` once this module is imported
(`register`). Parameters:

- ``model``: ``replacement`` (cards with replacement, only totals dealt: the stated
  model of `baccara.skill.solver.banque`) or ``shoe`` (cards drawn from the cards left);
- ``decks`` (1 to 12; Banque's three by default), or ``counts``: the cards left by
  point value, tens first (``"10,3,0,4,2,6,1,4,3,2"``, at least 9 cards), for ``shoe``;
- ``banker``: ``free`` only. He chooses in every cell, as the rules have it
  (`baccara.variants.Drawing.BANKER_FREE`); the project has no Banque banker tableau.

Chance deals the left tableau's two cards, the right's, then the banker's, each pair
as one outcome (`openspiel_shared.PAIRS`), then each third card. A banker's natural
settles both tableaux; a punter's natural is settled against the banker's first two
cards. Each punter sees only his own total and chooses only where the tableau leaves
him free (on 5); bound cells are played for him. The banker, without a natural, sees
his total and what each tableau showed (its third card, ``stood`` or ``natural``) and
draws or stands once for both. Every side sees totals, in both models (the stated
model's information). Rewards are in units staked: each punter wins 1, loses 1 or ties
against the banker; the banker gets minus their sum.

>>> game = pyspiel.load_game(GAME_NAME, {"model": "shoe", "counts": "4,2,0,2,0,3,0,2,1,1"})
>>> state = game.new_initial_state()
>>> for pair in ((0, 5), (0, 3), (1, 7)):  # left 5, right 3, banker 8: a natural
...     state.apply_action(PAIRS.index(pair))
>>> state.is_terminal(), state.returns()
(True, [-1.0, -1.0, 2.0])
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pyspiel
from open_spiel.python import policy

from baccara import deal
from baccara.cards import hand_total
from baccara.deal import Side
from baccara.research.openspiel_shared import (
    PAIRS,
    StringObserver,
    banker_param,
    counts_param,
    game_type,
    less,
    pair_chances,
    value_chances,
)
from baccara.rules import is_natural
from baccara.skill import tableaux
from baccara.skill.named import parse_named
from baccara.skill.solver.banque import NATURAL, STOOD
from baccara.skill.solver.information import SolverError
from baccara.variants import find_variant

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "BANKER",
    "DRAW",
    "GAME_NAME",
    "LEFT",
    "RIGHT",
    "STAND",
    "BanqueGame",
    "BanqueModel",
    "BanqueState",
    "BanqueStrategy",
    "Coup",
    "SolverPolicy",
    "register",
]

GAME_NAME = "baccara_banque"
STAND, DRAW = 0, 1
LEFT, RIGHT, BANKER = 0, 1, 2
"""Player ids, and the index of each hand in a `Coup`."""
NAMES = ("left", "right", "banker")
_COLUMN_NAMES = (*(str(c) for c in range(10)), "stood", "natural")
_MOST_CARDS = 9  # three hands of three cards


class BanqueModel(StrEnum):
    """How the cards are dealt; the value is the ``model`` parameter."""

    REPLACEMENT = "replacement"
    SHOE = "shoe"

    @classmethod
    def parse(cls, text: str) -> BanqueModel:
        """Parse a model name.

        >>> BanqueModel.parse("Shoe")
        <BanqueModel.SHOE: 'shoe'>
        """
        return parse_named(cls, text, what="model", error=SolverError)


_DEFAULTS: dict[str, Any] = {
    "model": BanqueModel.REPLACEMENT.value,
    "decks": find_variant("banque").decks,
    "counts": "",
    "banker": "free",
}


@lru_cache(maxsize=4096)
def _total(hand: tuple[int, ...]) -> int:
    return hand_total(hand)


_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_FIRST = deal.HalvesState.of(2)
_PUNTERS = tableaux.chance_tableau()  # the punter's row: free on 5 (no banker's column)


@dataclass(frozen=True, slots=True)
class Coup:
    """A coup under way: the dealer's model of two tableaux (`baccara.deal.HalvesState`),
    the cards left (None: with replacement), and what comes next: a hand's two cards
    (``pair``, the hand's index) or the model's step. Immutable, so that OpenSpiel's
    clones share it.

    >>> coup = Coup.of(deal.HalvesState(punters=((0, 5), (4, 4)), banker=(2, 1), punter_choices=(True, None)), None)
    >>> coup.natural(RIGHT), coup.column(RIGHT), coup.next, coup.player == _CHANCE
    (True, 11, Deal(side=<Side.PLAYER: 'P'>), True)
    >>> Coup.of(deal.HalvesState(punters=((0, 3), (4, 4)), banker=(2, 1), punter_choices=(None, None)), None).drew(LEFT)  # bound on 3
    True
    """

    state: deal.HalvesState = _FIRST
    left: tuple[int, ...] | None = None
    next: deal.Step | None = None
    pair: int | None = LEFT
    player: int = _CHANCE
    """Who acts next: a player, chance, or nobody (`pyspiel.PlayerId`)."""

    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    """Each hand's point values: left, right, banker."""

    @classmethod
    def of(cls, state: deal.HalvesState, left: tuple[int, ...] | None) -> Coup:
        """The coup ``state`` with the cards ``left``, and what comes next."""
        (left_hand, right_hand), banker = state.punters, state.banker
        return cls(state, left, *_next(state), (left_hand, right_hand, banker))

    def __deepcopy__(self, memo: dict[int, Any]) -> Coup:
        return self

    @property
    def due(self) -> int:
        """The hand whose cards or choice come next (`LEFT`, `RIGHT`, `BANKER`); -1 at the end."""
        if self.pair is not None:
            return self.pair
        return -1 if isinstance(self.next, deal.Over) or self.next is None else _hand(self.next)

    def two(self, who: int) -> int:
        """The total of a hand's first two cards."""
        return _total(self.hands[who][:2])

    def natural(self, who: int) -> bool:
        """Whether a hand's first two cards are a natural."""
        hand = self.hands[who]
        return len(hand) >= 2 and is_natural(self.two(who))

    def column(self, half: int) -> int:
        """What a tableau showed the banker: its third card, `STOOD` or `NATURAL`."""
        hand = self.hands[half]
        if self.natural(half):
            return NATURAL
        return hand[2] if len(hand) == 3 else STOOD

    def result(self, half: int) -> int:
        """The tableau's punter's result against the banker: 1, -1 or 0 (a tie)."""
        banker = self.hands[BANKER]
        if self.natural(BANKER) or self.natural(half):
            banker = banker[:2]  # a natural is settled against the first two cards
        punter, bank = _total(self.hands[half]), _total(banker)
        return (punter > bank) - (bank > punter)

    def drew(self, who: int) -> bool | None:
        """Whether ``who`` drew (or must: a bound draw, its card to come) or stood; None
        before the coup reaches its choice, after a natural, or while it chooses."""
        if len(self.hands[who]) == 3:
            return True
        if who == BANKER:
            return self.state.banker_choice
        if self.pair is not None or self.natural(BANKER) or self.natural(who):
            return None
        due = self.due
        if due == who:
            return True if isinstance(self.next, deal.Deal) else None
        passed = due == -1 or due > who
        return False if passed else None

    def decided(self, draws: bool) -> Coup:
        """This coup once the hand to choose draws or stands."""
        assert isinstance(self.next, deal.Choose)
        return Coup.of(self.state.chose(self.next, draws), self.left)

    def dealt(self, *values: int) -> Coup:
        """This coup once ``values`` are dealt: a hand's two cards, or the card due."""
        state = self.state
        if self.pair is not None:
            side = Side.BANKER if self.pair == BANKER else Side.PLAYER
            to = deal.Deal(side, 0 if self.pair == BANKER else self.pair)
            for value in values:
                state = state.given(to, value)
        else:
            assert isinstance(self.next, deal.Deal)
            state = state.given(self.next, *values)
        return Coup.of(state, less(self.left, *values))

    def seen_by(self, player: int) -> str:
        """What ``player`` knows: a punter his total and what he did; the banker his total,
        then what each tableau showed, then what he did."""
        hand, name = self.hands[player], NAMES[player]
        if len(hand) < 2:
            return name
        seen = f"{name} {self.two(player)}"
        if player == BANKER and self._halves_played():
            shown = " ".join(_COLUMN_NAMES[self.column(t)] for t in (LEFT, RIGHT))
            seen += f" against {shown}"
        drew = self.drew(player)
        if drew is not None:
            seen += " drew" if drew else " stood"
        return seen

    def _halves_played(self) -> bool:
        """Whether both tableaux are settled or played out, the banker to choose."""
        return self.pair is None and not self.natural(BANKER) and self.due in (BANKER, -1)


@lru_cache(maxsize=1 << 16)
def _next(state: deal.HalvesState) -> tuple[deal.Step | None, int | None, int]:
    """What comes next: the model's step (None: a hand's two cards), the hand due its two
    cards, and who acts (`pyspiel.PlayerId`)."""
    hands = (*state.punters, state.banker)
    pair = next((who for who, hand in enumerate(hands) if len(hand) < 2), None)
    if pair is not None:
        return None, pair, _CHANCE
    now = deal.step_halves(state, _PUNTERS)
    if isinstance(now, deal.Over):
        return now, None, _TERMINAL
    return now, None, _hand(now) if isinstance(now, deal.Choose) else _CHANCE


def _hand(step: deal.Deal | deal.Choose) -> int:
    """The hand a step is for: a tableau's index, or `BANKER`."""
    return BANKER if step.side is Side.BANKER else step.half


class BanqueGame(pyspiel.Game):  # type: ignore[misc]
    """Baccarat Banque for OpenSpiel (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        self.model = BanqueModel.parse(str(given["model"]))
        banker_param(given, ("free",))
        self.counts: tuple[int, ...] | None = None
        if self.model is BanqueModel.SHOE:
            self.counts = counts_param(given, _DEFAULTS["decks"], least=_MOST_CARDS)
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=len(PAIRS),
            num_players=3,
            min_utility=-2.0,
            max_utility=2.0,
            utility_sum=0.0,
            max_game_length=9,
        )
        super().__init__(_game_type(), info, given)
        self.first = Coup.of(_FIRST, self.counts)

    def new_initial_state(self) -> BanqueState:
        return BanqueState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer()


class BanqueState(pyspiel.State):  # type: ignore[misc]
    """A coup of Baccarat Banque under way (its `Coup`, and what comes next)."""

    def __init__(self, game: BanqueGame) -> None:
        super().__init__(game)
        self.coup = game.first

    def current_player(self) -> int:
        return self.coup.player

    def _legal_actions(self, player: int) -> list[int]:
        return [STAND, DRAW]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.coup.pair is not None:
            return list(pair_chances(self.coup.left))
        return [(v, p) for v, p in enumerate(value_chances(self.coup.left)) if p > 0]

    def _apply_action(self, action: int) -> None:
        coup = self.coup
        if coup.pair is not None:
            self.coup = coup.dealt(*PAIRS[action])
        elif isinstance(coup.next, deal.Deal):
            self.coup = coup.dealt(action)
        else:
            self.coup = coup.decided(action == DRAW)

    def _action_to_string(self, player: int, action: int) -> str:
        coup = self.coup
        if coup.pair is not None:
            return f"{NAMES[coup.pair]} dealt {'-'.join(map(str, PAIRS[action]))}"
        if isinstance(coup.next, deal.Deal):
            return f"{NAMES[coup.due]} draws {action}"
        return "draw" if action == DRAW else "stand"

    def is_terminal(self) -> bool:
        return self.coup.player == _TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0, 0.0]
        left, right = self.coup.result(LEFT), self.coup.result(RIGHT)
        return [float(left), float(right), float(-left - right)]

    def information_state_string(self, player: int | None = None) -> str:
        return self.coup.seen_by(self.current_player() if player is None else player)

    def __str__(self) -> str:
        coup = self.coup
        hands = " ".join(f"{n[0].upper()}{h}" for n, h in zip(NAMES, coup.hands, strict=True))
        return f"{hands} draws={tuple(coup.drew(who) for who in (LEFT, RIGHT, BANKER))}"


def _game_type() -> Any:
    return game_type(GAME_NAME, "Baccarat Banque (baccara)", 3, True, _DEFAULTS)


class Observer(StringObserver):
    """What each side knows (`Coup.seen_by`)."""

    def string_from(self, state: BanqueState, player: int) -> str:
        return state.coup.seen_by(player)


def register() -> None:
    """Make ``pyspiel.load_game("baccara_banque", ...)`` load this game."""
    pyspiel.register_game(_game_type(), BanqueGame)


register()


class BanqueStrategy(Protocol):
    """What `SolverPolicy` reads of a Banque solution (`solve_banque`'s, or any other):
    both punters' chance of drawing on 5, and the banker's of drawing in each cell
    [his total 0-7, left column, right column] (columns 0-9 a third card, 10 stood,
    11 a natural)."""

    @property
    def player_draw_on_5(self) -> float: ...

    @property
    def banker_draw(self) -> npt.NDArray[np.float64]: ...


class SolverPolicy(policy.Policy):  # type: ignore[misc]
    """A Banque solution (`BanqueStrategy`, e.g. `baccara.skill.solver.banque.solve_banque`'s)
    as an OpenSpiel policy of ``game``: each side's drawing probability where it chooses.

    >>> from baccara.skill.solver.banque import solve_banque
    >>> solution = solve_banque()
    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = game.new_initial_state()
    >>> for pair in ((0, 5), (0, 6), (0, 3)):  # left 5, right 6, banker 3
    ...     state.apply_action(PAIRS.index(pair))
    >>> equilibrium = SolverPolicy(game, solution)
    >>> equilibrium.action_probabilities(state)[DRAW] == solution.player_draw_on_5
    True
    >>> state.apply_action(STAND)  # both stood: the banker chooses
    >>> state.information_state_string(), equilibrium.action_probabilities(state)[DRAW]
    ('banker 3 against stood stood', 1.0)
    """

    def __init__(self, game: BanqueGame, solution: BanqueStrategy) -> None:
        super().__init__(game, [LEFT, RIGHT, BANKER])
        self.draw_on_5 = float(solution.player_draw_on_5)
        self.banker_draw = np.asarray(solution.banker_draw, dtype=np.float64)

    def action_probabilities(
        self, state: BanqueState, player_id: int | None = None
    ) -> dict[int, float]:
        coup = state.coup
        if state.current_player() == BANKER:
            cell = (coup.two(BANKER), coup.column(LEFT), coup.column(RIGHT))
            p = float(self.banker_draw[cell])
        else:
            p = self.draw_on_5  # a punter chooses on 5 only
        return {STAND: 1.0 - p, DRAW: p}
