"""Money for people: amounts are integer minor units (cents) inside, ``10.00`` outside.

Every amount a person reads goes through `format_money`, and every amount a
person types through `parse_money`; nothing else divides by 100. Amounts are
shown with two decimals and a comma between thousands, as on a casino's
cage slip:

>>> format_money(1000), format_money(-5), format_money(125_050)
('10.00', '-0.05', '1,250.50')
>>> parse_money("10"), parse_money("10.5"), parse_money("1,250.50")
(1000, 1050, 125050)
>>> parse_money("10.005")
Traceback (most recent call last):
...
baccara.money.MoneyError: bad amount '10.005': write it like 25 or 12.50 (at most 2 decimals)
"""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["MINOR", "MoneyError", "format_money", "parse_money"]

MINOR = 100
"""Minor units per major unit (cents per unit)."""

# Digits with optional thousands commas (1,250) or none (1250), then up to 2 decimals.
_AMOUNT = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?")


class MoneyError(ValueError):
    """An amount a person typed that is not one; the message names the input."""


def format_money(amount: int, *, trim: bool = False) -> str:
    """Minor units as a person reads them: ``1000`` is ``'10.00'``.

    With ``trim`` a whole amount drops its decimals, as a chip's face does.

    >>> format_money(0), format_money(1), format_money(-123_456_789)
    ('0.00', '0.01', '-1,234,567.89')
    >>> format_money(100_000, trim=True), format_money(25, trim=True)
    ('1,000', '0.25')
    """
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(int(amount)), MINOR)
    if trim and not minor:
        return f"{sign}{major:,}"
    return f"{sign}{major:,}.{minor:02d}"


def parse_money(text: str, *, positive: bool = False) -> int:
    """What a person typed (``"10"``, ``"10.5"``, ``"10.50"``, ``"1,000"``) in minor units.

    With ``positive`` the amount must be above zero.

    >>> parse_money(" 25 "), parse_money("-3.2"), parse_money(".5")
    (2500, -320, 50)
    >>> parse_money("0", positive=True)
    Traceback (most recent call last):
    ...
    baccara.money.MoneyError: bad amount '0': it must be more than 0.00
    >>> parse_money("ten")
    Traceback (most recent call last):
    ...
    baccara.money.MoneyError: bad amount 'ten': write it like 25 or 12.50
    """
    match = _AMOUNT.fullmatch(text.strip().replace("_", ""))
    if match is None or not (match.group(2) or match.group(3)):
        raise MoneyError(f"bad amount {text!r}: write it like 25 or 12.50")
    sign, whole, decimals = match.group(1), match.group(2) or "0", match.group(3) or ""
    if len(decimals) > 2:
        raise MoneyError(f"bad amount {text!r}: write it like 25 or 12.50 (at most 2 decimals)")
    value = Decimal(whole.replace(",", "") + "." + (decimals or "0")) * MINOR
    amount = int(value) * (-1 if sign == "-" else 1)
    if positive and amount <= 0:
        raise MoneyError(f"bad amount {text!r}: it must be more than {format_money(0)}")
    return amount
