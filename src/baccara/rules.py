"""The Punto Banco tableau: when the Player and the Banker draw a third card.

The rules are small tables, and every decision comes with the sentence a croupier
or a teacher would say. Sources: the standard tableau as printed in the project's
seed documents (``000``, ``002`` and ``004``), matching every casino rule card.

* A two-card total of 8 or 9 is a natural: nobody draws.
* The Player draws on 0-5 and stands on 6-7.
* If the Player stood, the Banker draws on 0-5 and stands on 6-7.
* If the Player drew, the Banker's draw depends on its total and the Player's
  third card (`BANKER_DRAWS`).

>>> banker_draws(4, 6)
True
>>> banker_decision(4, 6).reason
"Banker has 4 and the Player's third card is a 6: Banker draws on 0-6 against a 6 or a 7."
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BANKER_DRAWS",
    "BANKER_DRAW_LIMIT",
    "NO_CARD",
    "PLAYER_DRAWS",
    "VALUE_NAMES",
    "Decision",
    "banker_decision",
    "banker_draw_table",
    "banker_draws",
    "card_group",
    "is_natural",
    "natural_decision",
    "player_decision",
    "player_draws",
]

NO_CARD = 10
"""Column index used for "the Player did not draw" in `BANKER_DRAWS`."""

PLAYER_DRAWS: tuple[bool, ...] = tuple(total <= 5 for total in range(10))
"""``PLAYER_DRAWS[total]``: the Player draws on 0-5 (totals 8-9 are naturals)."""

# The Banker draws while its total is at most this limit, by the Player's third
# card's point value 0-9; index 10 (NO_CARD) is "the Player stood".
BANKER_DRAW_LIMIT: tuple[int, ...] = (3, 3, 4, 4, 5, 5, 6, 6, 2, 3, 5)
"""``BANKER_DRAW_LIMIT[third]``: highest Banker total that draws against that card."""

BANKER_DRAWS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(total <= 7 and total <= limit for limit in BANKER_DRAW_LIMIT) for total in range(10)
)
"""``BANKER_DRAWS[banker_total][third]``: whether the Banker draws (third 0-9 or NO_CARD)."""


def card_group(third: int) -> str:
    """Name the Player third cards that share ``third``'s column.

    >>> card_group(4), card_group(0)
    ('a 4 or a 5', 'a ten or face, an ace or a 9')
    """
    limit = BANKER_DRAW_LIMIT[third]
    values = [c for c in range(10) if BANKER_DRAW_LIMIT[c] == limit]
    names = [VALUE_NAMES[c] for c in values]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


VALUE_NAMES = ("a ten or face", "an ace", "a 2", "a 3", "a 4", "a 5", "a 6", "a 7", "an 8", "a 9")
"""How the rules name a card of each point value 0-9, with its article."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """A draw-or-stand decision and the plain-language reason for it."""

    draws: bool
    reason: str


def is_natural(total: int) -> bool:
    """A two-card total of 8 or 9 is a natural.

    >>> is_natural(8), is_natural(7)
    (True, False)
    """
    return total >= 8


def player_draws(total: int) -> bool:
    """Whether the Player draws a third card on a two-card ``total`` (no natural on either side).

    >>> [player_draws(t) for t in range(8)]
    [True, True, True, True, True, True, False, False]
    """
    _check_total(total)
    return PLAYER_DRAWS[total]


def banker_draws(total: int, player_third: int | None) -> bool:
    """Whether the Banker draws on ``total`` given the Player's third card's points (or None).

    >>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(6, None), banker_draws(5, None)
    (False, True, False, True)
    """
    _check_total(total)
    column = NO_CARD if player_third is None else player_third
    if not 0 <= column <= NO_CARD:
        raise ValueError(f"bad Player third card value {player_third!r}: expected 0-9 or None")
    return BANKER_DRAWS[total][column]


def banker_draw_table() -> tuple[tuple[bool, ...], ...]:
    """The whole Banker table, 10 totals by 11 columns (third card 0-9, then none).

    The simulator and the exact engine build their lookup arrays from this.
    """
    return BANKER_DRAWS


def natural_decision(player_total: int, banker_total: int) -> Decision | None:
    """If either side has a natural, the decision that nobody draws; otherwise None.

    >>> natural_decision(8, 3).reason
    'Player has a natural 8: no more cards are drawn.'
    >>> natural_decision(9, 9).reason
    'Both have a natural 9: no more cards are drawn.'
    """
    _check_total(player_total)
    _check_total(banker_total)
    p, b = is_natural(player_total), is_natural(banker_total)
    if p and b:
        if player_total == banker_total:
            who = f"Both have a natural {player_total}"
        else:
            who = f"Player has a natural {player_total} and Banker a natural {banker_total}"
    elif p:
        who = f"Player has a natural {player_total}"
    elif b:
        who = f"Banker has a natural {banker_total}"
    else:
        return None
    return Decision(draws=False, reason=f"{who}: no more cards are drawn.")


def player_decision(total: int) -> Decision:
    """The Player's decision on a two-card ``total`` when there is no natural.

    >>> player_decision(5).reason
    'Player has 5: Player draws on 0-5.'
    >>> player_decision(6).reason
    'Player has 6: Player stands on 6 or 7.'
    """
    if player_draws(total):
        return Decision(draws=True, reason=f"Player has {total}: Player draws on 0-5.")
    return Decision(draws=False, reason=f"Player has {total}: Player stands on 6 or 7.")


def banker_decision(total: int, player_third: int | None) -> Decision:
    """The Banker's decision on ``total``, given the Player's third card (points) or None.

    >>> banker_decision(6, None).reason
    'Player stood and Banker has 6: Banker stands on 6 or 7, as the Player does.'
    >>> banker_decision(3, 8).reason
    "Banker has 3 and the Player's third card is an 8: Banker stands on 3-7 against an 8."
    >>> banker_decision(7, 2).reason
    "Banker has 7 and the Player's third card is a 2: Banker always stands on 7."
    """
    draws = banker_draws(total, player_third)
    if player_third is None:
        verb = "draws on 0-5" if draws else "stands on 6 or 7"
        return Decision(
            draws=draws,
            reason=f"Player stood and Banker has {total}: Banker {verb}, as the Player does.",
        )
    head = f"Banker has {total} and the Player's third card is {VALUE_NAMES[player_third]}"
    limit = BANKER_DRAW_LIMIT[player_third]
    group = card_group(player_third)
    if total == 7:
        rule = "Banker always stands on 7"
    elif total <= 2 and draws:
        rule = "Banker always draws on 0-2"
    elif draws:
        rule = f"Banker draws on 0-{limit} against {group}"
    else:
        rule = f"Banker stands on {limit + 1}-7 against {group}"
    return Decision(draws=draws, reason=f"{head}: {rule}.")


def _check_total(total: int) -> None:
    if not 0 <= total <= 9:
        raise ValueError(f"bad hand total {total!r}: expected 0-9")
