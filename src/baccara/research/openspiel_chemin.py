"""Chemin de Fer as an OpenSpiel game: the punter (player 0) against the banker (1).

``pyspiel.load_game("baccara_chemin_de_fer", {...})`` once this module is imported
(`register`). Parameters, as ``baccara solve chemin-de-fer`` takes them:

- ``model``: ``kemeny-snell`` (cards with replacement, both see totals), ``totals``,
  ``downton-lockwood`` (the banker sees his two cards) or ``compositions`` (both do);
- ``decks`` (1 to 12), or ``counts``: the cards left by point value, tens first
  (``"10,3,0,4,2,6,1,4,3,2"``), for any shoe;
- ``commission``: the banker's 5% on his wins (the game is then general-sum);
- ``banker``: ``free`` (he chooses everywhere, as in the papers) or ``tableau`` (only
  in the house tableau's free cells; elsewhere it draws for him).

Chance deals each side's two cards as one outcome (their point values, unordered:
cards are exchangeable, so this is the dealer's chance of them in any deal order),
then each third card, drawn from the cards left (or with replacement). The punter
chooses only where the tableau leaves him free (on 5); bound cells are played for him.
A natural ends the coup. Rewards are in units staked: the punter wins 1 or loses 1; the
banker's wins are net of the commission; a tie is 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
from baccara.skill.solver.information import Model

if TYPE_CHECKING:
    from baccara.skill.solver.chemin import CheminSolution

__all__ = [
    "DRAW",
    "GAME_NAME",
    "PAIRS",
    "STAND",
    "ChemindeFerGame",
    "ChemindeFerState",
    "SolverPolicy",
    "register",
]

GAME_NAME = "baccara_chemin_de_fer"
STAND, DRAW = 0, 1
PUNTER, BANKER = 0, 1

_DEFAULTS: dict[str, Any] = {
    "model": Model.KEMENY_SNELL.value,
    "decks": 6,
    "counts": "",
    "commission": False,
    "banker": "free",
}


def _game_type(zero_sum: bool) -> Any:
    return game_type(GAME_NAME, "Chemin de Fer (baccara)", 2, zero_sum, _DEFAULTS)


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's parameters, checked."""

    model: Model
    counts: tuple[int, ...] | None  # None: with replacement
    commission: float
    banker_free: bool

    @classmethod
    def of(cls, params: dict[str, Any]) -> Rules:
        model = Model.parse(str(params.get("model", _DEFAULTS["model"])))
        banker = banker_param(params)
        counts = None if model is Model.KEMENY_SNELL else counts_param(params, _DEFAULTS["decks"])
        commission = 0.05 if bool(params.get("commission", False)) else 0.0
        return cls(model, counts, commission, banker == "free")


class ChemindeFerGame(pyspiel.Game):  # type: ignore[misc]
    """Chemin de Fer for OpenSpiel (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        self.rules = Rules.of(given)
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=len(PAIRS),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.rules.commission == 0.0 else None,
            max_game_length=6,
        )
        super().__init__(_game_type(self.rules.commission == 0.0), info, given)

    def new_initial_state(self) -> ChemindeFerState:
        return ChemindeFerState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer()


_TABLEAUX = {free: tableaux.chance_tableau(banker_free=free) for free in (False, True)}


class ChemindeFerState(pyspiel.State):  # type: ignore[misc]
    """A coup of Chemin de Fer under way: the dealer's chance model (`baccara.deal`) on
    the game's tableau says who acts next; this state adds the cards left and the
    information."""

    def __init__(self, game: ChemindeFerGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.left = self.rules.counts
        self.coup = deal.DealState()
        self.next: deal.Step = deal.Deal(Side.PLAYER)

    # -- what the coup is ---------------------------------------------------------------

    @property
    def punter(self) -> tuple[int, ...]:
        """The punter's point values, in the order dealt."""
        return self.coup.player

    @property
    def banker(self) -> tuple[int, ...]:
        """The banker's point values, in the order dealt."""
        return self.coup.banker

    @property
    def punter_total(self) -> int:
        return hand_total(self.punter)

    @property
    def banker_total(self) -> int:
        return hand_total(self.banker)

    @property
    def punter_draws(self) -> bool | None:
        """What the punter did or must do (a bound cell as soon as it is reached); None
        before his hand, after a natural, or while he chooses."""
        return self._draws(Side.PLAYER)

    @property
    def banker_draws(self) -> bool | None:
        """What the banker did or must do, as `punter_draws`."""
        return self._draws(Side.BANKER)

    def _draws(self, side: Side) -> bool | None:
        hand = self.punter if side is Side.PLAYER else self.banker
        if len(hand) == 3:
            return True
        now = self.next
        if isinstance(now, deal.Over):
            return None if self._natural() else False  # a natural, or it stood
        if len(self.banker) < 2:
            return None
        if now.side is side:  # it chooses, or its third card is due
            return None if isinstance(now, deal.Choose) else True
        return False if side is Side.PLAYER else None  # the punter stood; the banker waits

    def _natural(self) -> bool:
        return is_natural(hand_total(self.punter[:2])) or is_natural(hand_total(self.banker[:2]))

    def punter_info(self) -> str:
        """What the punter knows of his hand: its total, or its two cards."""
        if self.rules.model is Model.COMPOSITIONS:
            return "-".join(map(str, sorted(self.punter[:2])))
        return str(hand_total(self.punter[:2]))

    def banker_info(self) -> str:
        """What the banker knows of his hand: its total, or its two cards."""
        if self.rules.model.banker_sees_cards:
            return "-".join(map(str, sorted(self.banker[:2])))
        return str(hand_total(self.banker[:2]))

    def third(self) -> int | None:
        """The punter's third card, or None when he stood."""
        return self.punter[2] if len(self.punter) == 3 else None

    # -- the OpenSpiel API ----------------------------------------------------------------

    def current_player(self) -> int:
        if isinstance(self.next, deal.Over):
            return int(pyspiel.PlayerId.TERMINAL)
        if isinstance(self.next, deal.Choose):
            return PUNTER if self.next.side is Side.PLAYER else BANKER
        return int(pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        return [STAND, DRAW]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.banker) < 2:
            return list(pair_chances(self.left))
        return [(v, p) for v, p in enumerate(value_chances(self.left)) if p > 0]

    def _apply_action(self, action: int) -> None:
        now = self.next
        assert not isinstance(now, deal.Over)
        if isinstance(now, deal.Choose):
            self.coup = self.coup.chose(now.side, action == DRAW)
        elif len(self.banker) < 2:  # each side's two cards as one outcome
            pair = PAIRS[action]
            self.coup = self.coup.given(now.side, pair[0]).given(now.side, pair[1])
            self.left = less(self.left, *pair)
        else:
            self.coup = self.coup.given(now.side, action)
            self.left = less(self.left, action)
        self.next = self._step()

    def _step(self) -> deal.Step:
        if len(self.punter) < 2:
            return deal.Deal(Side.PLAYER)
        if len(self.banker) < 2:
            return deal.Deal(Side.BANKER)
        return deal.step(self.coup, _TABLEAUX[self.rules.banker_free])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            dealt = len(self.punter) < 2 or len(self.banker) < 2
            return f"deal {PAIRS[action]}" if dealt else f"deal {action}"
        return "draw" if action == DRAW else "stand"

    def is_terminal(self) -> bool:
        return isinstance(self.next, deal.Over)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        banker, punter = self.banker_total, self.punter_total
        if banker > punter:
            return [-1.0, 1.0 - self.rules.commission]
        if punter > banker:
            return [1.0, -1.0]
        return [0.0, 0.0]

    def information_state_string(self, player: int | None = None) -> str:
        who = self.current_player() if player is None else player
        return Observer().string_from(self, who)

    def __str__(self) -> str:
        return f"P{self.punter} B{self.banker} punter_draws={self.punter_draws} banker_draws={self.banker_draws}"


class Observer(StringObserver):
    """What each side knows: the punter his hand (and what he did and drew); the banker
    his hand and the punter's third card, or that he stood."""

    def string_from(self, state: ChemindeFerState, player: int) -> str:
        if player == PUNTER:
            if len(state.punter) < 2:
                return "punter"
            seen = f"punter {state.punter_info()}"
            if state.punter_draws is not None:
                seen += " drew" if state.punter_draws else " stood"
            return seen
        if len(state.banker) < 2 or state.punter_draws is None:
            return "banker" if len(state.banker) < 2 else f"banker {state.banker_info()}"
        if state.punter_draws and len(state.punter) < 3:
            return f"banker {state.banker_info()}"
        third = state.third()
        return f"banker {state.banker_info()} against {'stood' if third is None else third}"


def register() -> None:
    """Make ``pyspiel.load_game("baccara_chemin_de_fer", ...)`` load this game."""
    pyspiel.register_game(_game_type(True), ChemindeFerGame)


register()


class SolverPolicy(policy.Policy):  # type: ignore[misc]
    """baccara's equilibrium (`baccara.skill.solver.chemin.solve_chemin`) as an OpenSpiel
    policy of ``game``: each side's drawing probability where it chooses.

    >>> from baccara.skill.solver.chemin import solve_chemin
    >>> game = pyspiel.load_game(GAME_NAME, {"model": "kemeny-snell"})
    >>> state = game.new_initial_state()
    >>> for action in (PAIRS.index((0, 5)), PAIRS.index((0, 3))):  # the punter has 5
    ...     state.apply_action(action)
    >>> equilibrium = SolverPolicy(game, solve_chemin("kemeny-snell"))
    >>> round(equilibrium.action_probabilities(state)[DRAW], 6)  # 9/11
    0.818182
    """

    def __init__(self, game: ChemindeFerGame, solution: CheminSolution) -> None:
        super().__init__(game, [PUNTER, BANKER])
        self.solution = solution

    def action_probabilities(
        self, state: ChemindeFerState, player_id: int | None = None
    ) -> dict[int, float]:
        if state.current_player() == PUNTER:
            p = self.solution.player_draw[state.punter_info()]
        else:
            p = self.solution.banker_draw[(state.banker_info(), state.third())]
        return {STAND: 1.0 - p, DRAW: p}
