"""A named choice read from text: an option's value as one member of a `StrEnum`.

>>> from baccara.skill.tableaux import House
>>> parse_named(House, " Scarne", what="house tableau")
<House.SCARNE: 'scarne'>
>>> parse_named(House, "vegas", what="house tableau")
Traceback (most recent call last):
...
ValueError: unknown house tableau 'vegas': choose from french, scarne
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

__all__ = ["parse_named"]

Named = TypeVar("Named", bound=StrEnum)


def parse_named(
    choices: type[Named], text: str, *, what: str, error: type[ValueError] = ValueError
) -> Named:
    """The member of ``choices`` whose value is ``text`` (any case, spaces around
    ignored); else ``error`` naming ``what`` and every choice."""
    try:
        return choices(text.strip().lower())
    except ValueError:
        names = ", ".join(choice.value for choice in choices)
        raise error(f"unknown {what} {text!r}: choose from {names}") from None
