"""The solver's information models (what each side knows when it decides), by name.

Kept apart from the models' arrays (`baccara.skill.solver.models`), so that naming a
model loads no numerical code.

>>> Model.parse("Totals"), [m.value for m in Model][:2]
(<Model.TOTALS: 'totals'>, ['kemeny-snell', 'totals'])
"""

from __future__ import annotations

from enum import StrEnum

from baccara.skill.named import parse_named

__all__ = ["Model", "SolverError"]


class SolverError(ValueError):
    """A bad model name, deck count or commission."""


class Model(StrEnum):
    """The information model; the value is the ``--model`` name."""

    KEMENY_SNELL = "kemeny-snell"
    TOTALS = "totals"
    DOWNTON_LOCKWOOD = "downton-lockwood"
    COMPOSITIONS = "compositions"

    @property
    def banker_sees_cards(self) -> bool:
        """Whether the banker knows his two cards (B2, B3), not only his total.

        >>> Model.DOWNTON_LOCKWOOD.banker_sees_cards, Model.TOTALS.banker_sees_cards
        (True, False)
        """
        return self in (Model.DOWNTON_LOCKWOOD, Model.COMPOSITIONS)

    @classmethod
    def parse(cls, text: str) -> Model:
        """Parse a model name.

        >>> Model.parse("Compositions")
        <Model.COMPOSITIONS: 'compositions'>
        """
        return parse_named(cls, text, what="model", error=SolverError)
