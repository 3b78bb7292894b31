"""The cashier's messages (``/api/admin/cashier/...``, ``/api/admin/players/{name}/movements``)
and the player's deposit limits (``/api/me/deposit-limits``), as pydantic models:
``/openapi.json`` documents them. Amounts in answers are integer minor units (cents);
an amount asked is money text (``"10.00"``) or a whole number of cents, as the player's
limits and the table's bets take money. Times are seconds since the epoch.

>>> CashierRequest.model_validate_json('{"player": "ann", "amount": "10.00", "reference": "s1"}').amount
'10.00'
>>> CashierRequest.model_validate_json('{"player": "ann", "amount": 1000, "reference": "s1"}').amount
1000
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from baccara.server.wire.http import Movement, PeriodLimitAnswer

__all__ = [
    "AmountAsked",
    "CashierMove",
    "CashierRequest",
    "DepositLimits",
    "DepositLimitsRequest",
    "Statement",
]

AmountAsked = StrictInt | Annotated[StrictStr, Field(max_length=30)]
"""Money asked: text a person types (``"10.00"``, ``"1,250"``) or whole cents."""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CashierRequest(BaseModel):
    """A deposit or a withdrawal an operator records: the player's name (any case), the
    amount, and the reference that books it once (the slip's or the payment's)."""

    model_config = ConfigDict(extra="forbid")
    player: Annotated[StrictStr, Field(min_length=1, max_length=24)]
    amount: AmountAsked
    reference: Annotated[StrictStr, Field(min_length=1, max_length=64)]


class CashierMove(_Answer):
    """A movement booked (``duplicate``: booked before under this reference, nothing
    more booked now), and the player's wallet now."""

    id: int
    kind: Literal["deposit", "withdrawal"]
    player: str
    amount: int
    reference: str
    actor: str
    at: float
    balance: int
    duplicate: bool


class Statement(_Answer):
    """A player's wallet movements from ``start`` (included) to ``end`` (excluded),
    oldest first; ``net`` their sum; ``complete`` false when the period holds more than
    were listed (ask a shorter one)."""

    player: str
    start: float
    end: float
    movements: list[Movement]
    net: int
    complete: bool


class DepositLimits(_Answer):
    """``/api/me/deposit-limits``: the player's deposit limits over 24 hours, 7 and 30
    days (the lowest a deposit would pass refuses it), and how long a raise waits."""

    day: PeriodLimitAnswer
    week: PeriodLimitAnswer
    month: PeriodLimitAnswer
    raise_after_hours: float


class DepositLimitsRequest(BaseModel):
    """The deposit limits the player asks for (null: none); a period left out is left
    as it is. A cut applies at once, a raise or a removal a day later."""

    model_config = ConfigDict(extra="forbid")
    day: AmountAsked | None = None
    week: AmountAsked | None = None
    month: AmountAsked | None = None
