"""Bets: what each one pays on a coup, and its settlement in integer minor units.

Every bet's rule is one small function from a coup (and the variant's pay
table) to a `Payout`: the net win per unit staked (-1 loses, 0 pushes) and the
reason in plain words. `settle` turns it into money, rounding as it says.

>>> coup = Coup.parse("P:7h,Kd B:6s,Kc")
>>> settle(BetKind.BANKER, 1000, coup, PUNTO_BANCO).net
-1000
>>> settle(BetKind.PLAYER, 1000, coup, PUNTO_BANCO).net
1000
>>> s = settle(BetKind.BANKER, 1010, Coup.parse("P:6h,Kd B:7s,Kc"), PUNTO_BANCO)
>>> s.net, s.commission, s.returned
(960, 50, 1970)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import ceil, floor

from baccara.cards import Card
from baccara.coup import Coup, Result, Side
from baccara.variants import PUNTO_BANCO, Family, Variant, require_family

__all__ = [
    "DRAGON_BONUS_MARGIN_PAYS",
    "BetKind",
    "BetOutcome",
    "Payout",
    "Rounding",
    "Settlement",
    "bets_for",
    "describe_pays",
    "payout",
    "settle",
    "short_pays",
]

LOSE = Fraction(-1)
PUSH = Fraction(0)

DRAGON_BONUS_MARGIN_PAYS: dict[int, int] = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
"""Dragon Bonus: what a non-natural win pays by its margin (Wizard of Odds, Appendix 5)."""

LUCKY_6_PAYS = {2: 12, 3: 20}
"""Lucky 6: a Banker win with 6 pays 12:1 on two cards, 20:1 on three."""


class BetKind(StrEnum):
    """Every bet the table takes; the value is the JSON key."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    EITHER_PAIR = "either_pair"
    PERFECT_PAIR = "perfect_pair"
    DRAGON_BONUS_PLAYER = "dragon_bonus_player"
    DRAGON_BONUS_BANKER = "dragon_bonus_banker"
    DRAGON_7 = "dragon_7"
    PANDA_8 = "panda_8"
    BIG = "big"
    SMALL = "small"
    LUCKY_6 = "lucky_6"
    BANKER_NATURAL_9 = "banker_natural_9"
    BANKER_NATURAL_8 = "banker_natural_8"

    @property
    def label(self) -> str:
        """Human name: ``'Dragon Bonus Player'``."""
        return _TITLES.get(self, self.value.replace("_", " ").title())

    @property
    def is_main(self) -> bool:
        """Player, Banker and Tie are the main bets."""
        return self in (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)

    @classmethod
    def parse(cls, text: str) -> BetKind:
        """Parse a bet name (``'banker'``, ``'B'``, ``'dragon-7'``, ``'Lucky 6'``).

        >>> BetKind.parse("P"), BetKind.parse("dragon-bonus-banker")
        (<BetKind.PLAYER: 'player'>, <BetKind.DRAGON_BONUS_BANKER: 'dragon_bonus_banker'>)
        """
        token = text.strip().lower().replace("-", "_").replace(" ", "_")
        token = {"p": "player", "b": "banker", "t": "tie"}.get(token, token)
        try:
            return cls(token)
        except ValueError:
            names = ", ".join(kind.value for kind in cls)
            raise ValueError(f"unknown bet {text!r}: choose from {names}") from None


_TITLES = {
    BetKind.DRAGON_7: "Dragon 7",
    BetKind.PANDA_8: "Panda 8",
    BetKind.LUCKY_6: "Lucky 6",
    BetKind.BANKER_NATURAL_9: "Banker Natural 9",
    BetKind.BANKER_NATURAL_8: "Banker Natural 8",
}


class BetOutcome(StrEnum):
    """How a bet ended."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


@dataclass(frozen=True, slots=True, kw_only=True)
class Payout:
    """A bet's result on a coup: net win per unit staked, and why."""

    ratio: Fraction
    reason: str

    @property
    def outcome(self) -> BetOutcome:
        """Win, lose or push."""
        if self.ratio > 0:
            return BetOutcome.WIN
        return BetOutcome.LOSE if self.ratio < 0 else BetOutcome.PUSH

    @property
    def paid(self) -> str:
        """What a win paid (``'8:1'``, ``'0.95:1'``); empty for a loss or a push.

        >>> Payout(ratio=Fraction(19, 20), reason="").paid
        '0.95:1'
        """
        return _ratio(self.ratio) if self.ratio > 0 else ""


class Rounding(StrEnum):
    """How a fraction of a minor unit is rounded."""

    DOWN = "down"
    UP = "up"
    HALF_UP = "half-up"

    def apply(self, amount: Fraction) -> int:
        """Round a non-negative amount of minor units to an integer.

        >>> Rounding.DOWN.apply(Fraction(5, 2)), Rounding.UP.apply(Fraction(5, 2))
        (2, 3)
        >>> Rounding.HALF_UP.apply(Fraction(5, 2)), Rounding.HALF_UP.apply(Fraction(9, 4))
        (3, 2)
        """
        if self is Rounding.DOWN:
            return floor(amount)
        if self is Rounding.UP:
            return ceil(amount)
        return floor(amount + Fraction(1, 2))


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement:
    """A settled bet in minor units.

    ``net`` is what the bettor gains (negative: loses); ``returned`` is what goes
    back to the bettor's stack, stake included (0 for a lost bet); ``commission``
    is what the house kept from a win.
    """

    kind: BetKind
    stake: int
    outcome: BetOutcome
    net: int
    returned: int
    commission: int
    reason: str


# -- each bet's rule ------------------------------------------------------------------


def _main(side: Side) -> Callable[[Coup, Variant], Payout]:
    def rule(coup: Coup, variant: Variant) -> Payout:
        won = Result(side.value)
        if coup.winner is Result.TIE:
            return Payout(ratio=PUSH, reason=f"A tie: the {side.word.title()} bet pushes.")
        if coup.winner is not won:
            return Payout(ratio=LOSE, reason=f"{coup.winner.word.title()} wins: the bet loses.")
        if side is Side.PLAYER:
            return Payout(ratio=Fraction(1), reason="Player wins: pays 1:1.")
        total = coup.banker_total
        if variant.banker_three_card_seven_pushes and total == 7 and len(coup.banker) == 3:
            return Payout(ratio=PUSH, reason="Banker wins with a three-card 7: the bet pushes.")
        if variant.banker_six_pays is not None and total == 6:
            pays = variant.banker_six_pays
            return Payout(ratio=pays, reason=f"Banker wins with 6: pays {_ratio(pays)}.")
        pays = variant.banker_pays
        if pays == 1:
            return Payout(ratio=pays, reason="Banker wins: pays 1:1, no commission.")
        percent = _ratio(100 * (1 - pays)).split(":")[0]
        return Payout(ratio=pays, reason=f"Banker wins: pays 1:1 less {percent}% commission.")

    return rule


def _tie(coup: Coup, variant: Variant) -> Payout:
    if coup.winner is Result.TIE:
        return Payout(ratio=Fraction(variant.tie_pays), reason=f"A tie: pays {variant.tie_pays}:1.")
    return Payout(ratio=LOSE, reason="No tie: the bet loses.")


def _when(
    condition: Callable[[Coup], bool], pays: int | Fraction, what: str
) -> Callable[[Coup, Variant], Payout]:
    ratio = Fraction(pays)

    def rule(coup: Coup, variant: Variant) -> Payout:
        if condition(coup):
            return Payout(ratio=ratio, reason=f"{what}: pays {_ratio(ratio)}.")
        return Payout(ratio=LOSE, reason=f"No {what[0].lower()}{what[1:]}: the bet loses.")

    return rule


def _suited_pair(hand: tuple[Card, ...]) -> bool:
    return hand[0] == hand[1]


def _dragon_bonus(side: Side) -> Callable[[Coup, Variant], Payout]:
    def rule(coup: Coup, variant: Variant) -> Payout:
        mine, theirs = coup.total(side), coup.total(side.other)
        natural = coup.player_natural if side is Side.PLAYER else coup.banker_natural
        if mine > theirs and natural:
            return Payout(
                ratio=Fraction(1), reason=f"{side.word.title()} wins with a natural: pays 1:1."
            )
        if mine == theirs and coup.natural:
            return Payout(ratio=PUSH, reason="A natural tie: the bet pushes.")
        margin = mine - theirs
        pays = DRAGON_BONUS_MARGIN_PAYS.get(margin) if margin > 0 else None
        if pays is None:
            why = f"wins by only {margin}" if margin > 0 else "does not win"
            return Payout(ratio=LOSE, reason=f"{side.word.title()} {why}: the bet loses.")
        return Payout(
            ratio=Fraction(pays), reason=f"{side.word.title()} wins by {margin}: pays {pays}:1."
        )

    return rule


def _lucky_6(coup: Coup, variant: Variant) -> Payout:
    if coup.winner is Result.BANKER and coup.banker_total == 6:
        pays = LUCKY_6_PAYS[len(coup.banker)]
        return Payout(
            ratio=Fraction(pays),
            reason=f"Banker wins with a {len(coup.banker)}-card 6: pays {pays}:1.",
        )
    return Payout(ratio=LOSE, reason="Banker does not win with 6: the bet loses.")


_PAYOUTS: dict[BetKind, Callable[[Coup, Variant], Payout]] = {
    BetKind.PLAYER: _main(Side.PLAYER),
    BetKind.BANKER: _main(Side.BANKER),
    BetKind.TIE: _tie,
    BetKind.PLAYER_PAIR: _when(lambda c: c.player_pair, 11, "Player pair"),
    BetKind.BANKER_PAIR: _when(lambda c: c.banker_pair, 11, "Banker pair"),
    BetKind.EITHER_PAIR: _when(
        lambda c: c.player_pair or c.banker_pair, 5, "A pair in either hand"
    ),
    BetKind.PERFECT_PAIR: _when(
        lambda c: _suited_pair(c.player) or _suited_pair(c.banker), 25, "A suited pair"
    ),
    BetKind.DRAGON_BONUS_PLAYER: _dragon_bonus(Side.PLAYER),
    BetKind.DRAGON_BONUS_BANKER: _dragon_bonus(Side.BANKER),
    BetKind.DRAGON_7: _when(
        lambda c: c.winner is Result.BANKER and c.banker_total == 7 and len(c.banker) == 3,
        40,
        "Banker wins with a three-card 7",
    ),
    BetKind.PANDA_8: _when(
        lambda c: c.winner is Result.PLAYER and c.player_total == 8 and len(c.player) == 3,
        25,
        "Player wins with a three-card 8",
    ),
    BetKind.BIG: _when(lambda c: c.cards >= 5, Fraction(27, 50), "Five or six cards dealt"),
    BetKind.SMALL: _when(lambda c: c.cards == 4, Fraction(3, 2), "Only four cards dealt"),
    BetKind.LUCKY_6: _lucky_6,
    BetKind.BANKER_NATURAL_9: _when(
        lambda c: c.banker_natural and c.banker_total == 9, 9, "Banker natural 9"
    ),
    BetKind.BANKER_NATURAL_8: _when(
        lambda c: c.banker_natural and c.banker_total == 8, 9, "Banker natural 8"
    ),
}


def payout(kind: BetKind, coup: Coup, variant: Variant = PUNTO_BANCO) -> Payout:
    """The net win per unit of a ``kind`` bet on ``coup`` under ``variant``, with the reason.

    >>> payout(BetKind.TIE, Coup.parse("P:7h,Kd B:7s,Kc")).ratio
    Fraction(8, 1)
    >>> payout(BetKind.DRAGON_BONUS_PLAYER, Coup.parse("P:2h,3d,4c B:5s,Qc,9d")).reason
    'Player wins by 5: pays 2:1.'
    """
    if variant.family is not Family.PUNTO_BANCO:
        require_family(variant, Family.PUNTO_BANCO, user="the pay table")
    return _PAYOUTS[kind](coup, variant)


def settle(
    kind: BetKind,
    stake: int,
    coup: Coup,
    variant: Variant = PUNTO_BANCO,
    *,
    commission_rounding: Rounding = Rounding.DOWN,
    payout_rounding: Rounding = Rounding.DOWN,
) -> Settlement:
    """Settle a ``stake`` (minor units) on a ``kind`` bet.

    The Banker commission is ``stake x commission`` rounded by ``commission_rounding``
    (down by default: the bettor keeps the fraction); any other fractional win
    (Big 0.54:1, Small 1.5:1, Super 6's 1:2) is rounded by ``payout_rounding``
    (down by default: the house keeps the fraction).

    >>> settle(BetKind.BANKER, 15, Coup.parse("P:6h,Kd B:7s,Kc"), PUNTO_BANCO).net
    15
    >>> settle(BetKind.BIG, 101, Coup.parse("P:2h,3d,4c B:5s,Qc,9d")).net
    54
    """
    if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
        raise ValueError(f"bad stake {stake!r}: a stake is a positive whole number of minor units")
    result = payout(kind, coup, variant)
    commission = 0
    if result.ratio < 0:
        net = -stake
    elif kind is BetKind.BANKER and result.ratio == variant.banker_pays and variant.commission > 0:
        commission = commission_rounding.apply(stake * variant.commission)
        net = stake - commission
    else:
        net = payout_rounding.apply(stake * result.ratio)
    return Settlement(
        kind=kind,
        stake=stake,
        outcome=result.outcome,
        net=net,
        returned=stake + net,
        commission=commission,
        reason=result.reason,
    )


def bets_for(variant: Variant) -> tuple[BetKind, ...]:
    """The bets a table of ``variant`` takes: the main bets, then its side bets.

    >>> from baccara.variants import find_variant
    >>> BetKind.DRAGON_7 in bets_for(find_variant("ez")), BetKind.DRAGON_7 in bets_for(PUNTO_BANCO)
    (True, False)
    >>> bets_for(find_variant("banque"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    baccara.variants.FamilyError: banque is a players' game (Baccarat Banque); the pay table covers the house-banked games: ...
    """
    require_family(variant, Family.PUNTO_BANCO, user="the pay table")
    return (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE, *(BetKind(b) for b in variant.side_bets))


def describe_pays(kind: BetKind, variant: Variant = PUNTO_BANCO) -> str:
    """What a bet pays, in one line, for the pay table.

    >>> from baccara.variants import find_variant
    >>> describe_pays(BetKind.BANKER, find_variant("super6"))
    '1:1, but a win with 6 pays 1:2'
    """
    if kind is BetKind.PLAYER:
        return "1:1"
    if kind is BetKind.BANKER:
        text = _ratio(variant.banker_pays)
        if variant.commission:
            text = f"1:1 less {_ratio(100 * variant.commission).split(':')[0]}% commission"
        if variant.banker_six_pays is not None:
            text += f", but a win with 6 pays {_ratio(variant.banker_six_pays)}"
        if variant.banker_three_card_seven_pushes:
            text += ", but a win with a three-card 7 pushes"
        return text
    if kind is BetKind.TIE:
        return f"{variant.tie_pays}:1"
    return _SIDE_PAYS[kind]


_SIDE_PAYS = {
    BetKind.PLAYER_PAIR: "11:1 when the Player's first two cards are a pair",
    BetKind.BANKER_PAIR: "11:1 when the Banker's first two cards are a pair",
    BetKind.EITHER_PAIR: "5:1 when either hand's first two cards are a pair",
    BetKind.PERFECT_PAIR: "25:1 when either hand's first two cards are a suited pair",
    BetKind.DRAGON_BONUS_PLAYER: "Player natural win 1:1, natural tie push; "
    "non-natural win by 9/8/7/6/5/4: 30/10/6/4/2/1 to 1",
    BetKind.DRAGON_BONUS_BANKER: "Banker natural win 1:1, natural tie push; "
    "non-natural win by 9/8/7/6/5/4: 30/10/6/4/2/1 to 1",
    BetKind.DRAGON_7: "40:1 when the Banker wins with a three-card 7",
    BetKind.PANDA_8: "25:1 when the Player wins with a three-card 8",
    BetKind.BIG: "0.54:1 when five or six cards are dealt",
    BetKind.SMALL: "1.5:1 when only four cards are dealt",
    BetKind.LUCKY_6: "Banker wins with 6: 12:1 on two cards, 20:1 on three",
    BetKind.BANKER_NATURAL_9: "9:1 when the Banker has a natural 9",
    BetKind.BANKER_NATURAL_8: "9:1 when the Banker has a natural 8",
}


def short_pays(kind: BetKind, variant: Variant = PUNTO_BANCO) -> str:
    """What a bet pays, in a few characters, as printed on the layout's spot.

    >>> from baccara.variants import find_variant
    >>> [short_pays(k, find_variant("super6")) for k in (BetKind.BANKER, BetKind.LUCKY_6)]
    ['1:1 (6 pays 1:2)', '12:1 or 20:1']
    >>> short_pays(BetKind.BANKER), short_pays(BetKind.DRAGON_BONUS_PLAYER)
    ('0.95:1', 'up to 30:1')
    """
    if kind is BetKind.BANKER:
        text = _ratio(variant.banker_pays)
        if variant.banker_six_pays is not None:
            text += f" (6 pays {_ratio(variant.banker_six_pays)})"
        if variant.banker_three_card_seven_pushes:
            text += " (3-card 7 pushes)"
        return text
    if kind in (BetKind.DRAGON_BONUS_PLAYER, BetKind.DRAGON_BONUS_BANKER):
        return f"up to {max(DRAGON_BONUS_MARGIN_PAYS.values())}:1"
    if kind is BetKind.LUCKY_6:
        return " or ".join(f"{pays}:1" for pays in LUCKY_6_PAYS.values())
    if kind in (BetKind.PLAYER, BetKind.TIE):
        return describe_pays(kind, variant)
    return _SIDE_PAYS[kind].split(" ")[0]  # the ratio that opens each side bet's line


def _ratio(value: Fraction | int) -> str:
    """``Fraction(1, 2)`` -> ``'1:2'``, ``Fraction(19, 20)`` -> ``'0.95:1'``, ``8`` -> ``'8:1'``."""
    value = Fraction(value)
    if value.denominator == 1:
        return f"{value.numerator}:1"
    if value.numerator == 1:
        return f"1:{value.denominator}"
    return f"{float(value):g}:1"
