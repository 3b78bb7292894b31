"""baccara: baccarat in full, from the tableau to the table, exact odds and simulation.

>>> from baccara import Coup, explain
>>> Coup.parse("P:9h,Kd B:5s,Qc").winner.word
'player'
"""

from typing import Any

from baccara.bets import BetKind, BetOutcome, Payout, Rounding, Settlement, bets_for, payout, settle
from baccara.cards import Card, CardError, Rank, Suit, format_cards, hand_total, parse_cards
from baccara.coup import Coup, CoupError, Result, Side, deal_coup, deal_shoe, explain
from baccara.shoe import Shoe, ShoeError, ShoeSettings
from baccara.variants import VARIANTS, Variant, VariantError, find_variant


def __getattr__(name: str) -> Any:
    """``__version__``, read from the installed package's metadata when first asked."""
    if name != "__version__":
        raise AttributeError(f"module 'baccara' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("baccara")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


__all__ = [
    "VARIANTS",
    "BetKind",
    "BetOutcome",
    "Card",
    "CardError",
    "Coup",
    "CoupError",
    "Payout",
    "Rank",
    "Result",
    "Rounding",
    "Settlement",
    "Shoe",
    "ShoeError",
    "ShoeSettings",
    "Side",
    "Suit",
    "Variant",
    "VariantError",
    "__version__",
    "bets_for",
    "deal_coup",
    "deal_shoe",
    "explain",
    "find_variant",
    "format_cards",
    "hand_total",
    "parse_cards",
    "payout",
    "settle",
]
