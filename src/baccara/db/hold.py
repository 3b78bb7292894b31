"""Hold against theory, as stored: each settled coup's spots summed inside the
settlement's transaction, and how each interrupted round ended
(``round_resolutions``). The reports read them (`baccara.db.reports`).

A row of ``hold_rollup`` sums, for one table, game (the variant's name), bet kind,
stake band (`band`: a spot's stake, its floor in minor units) and UTC day, the spots
settled: bets, handle, the house's win, its exact theoretical win and variance
(`baccara.exact.theory`); a row of ``hold_shoes`` the same for a table, game, shoe and
day, whatever the kind or band (a report by table, game, shoe or day reads these few
rows). A report that merges rows must not add the variances of spots of one coup as
if they were independent, nor count a round once per row, so each coup adds, once
each, ``kind_rounds`` and ``var_kind`` (the coup's spots on the kind) to the kind's
first row, ``band_rounds`` and ``var_band`` (the coup's spots in the band) to the
band's first; ``hold_shoes`` has the whole coup's (``rounds``, ``var_round``).

>>> band(1), band(499), band(500), band(10**9)
(1, 1, 500, 250000)
>>> day_of(86_400 * 365.5).isoformat()
'1971-01-01'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from baccara.bets import BetKind
from baccara.db.books import on_postgres
from baccara.db.schema import hold_rollup, hold_shoes, round_resolutions

if TYPE_CHECKING:  # the exact engine loads when a table first prices a coup
    from baccara.exact.theory import Price

__all__ = [
    "BANDS",
    "Resolution",
    "Rollup",
    "SettledSpot",
    "add_up",
    "band",
    "day_of",
    "record_resolution",
    "record_settlement",
    "rollup_rows",
]

BANDS = (1, 500, 2_500, 10_000, 50_000, 250_000)
"""The stake bands' floors in minor units: 0.01, 5.00, 25.00, 100.00, 500.00, 2,500.00."""


class Resolution:
    """How an interrupted round ended (plain strings, as stored)."""

    VOIDED = "voided"  # voided with no bet on it
    REFUNDED = "refunded"  # voided, every bet given back
    SETTLED_AFTER_RESTART = "settled_after_restart"  # dealt from its stored shoe and settled


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledSpot:
    """One player's stake on one bet kind in a coup, settled as one."""

    kind: str
    stake: int
    returned: int
    bets: int


def band(stake: int) -> int:
    """The floor of the stake band of ``stake`` (minor units)."""
    found = BANDS[0]
    for floor in BANDS:
        if stake >= floor:
            found = floor
    return found


def day_of(now: float) -> date:
    """The UTC day of ``now`` (epoch seconds)."""
    return datetime.fromtimestamp(now, UTC).date()


_KEYS = {
    "hold_rollup": ("table_id", "variant", "kind", "band", "day"),
    "hold_shoes": ("table_id", "variant", "shoe_id", "day"),
}
_SUMS = {
    "hold_rollup": (
        "kind_rounds", "band_rounds", "bets", "handle", "win", "theo", "variance", "var_kind",
        "var_band",
    ),
    "hold_shoes": ("rounds", "bets", "handle", "win", "theo", "var_round"),
}  # fmt: skip


def _upsert(table: sa.Table, postgres: bool) -> Any:
    insert = (pg_insert if postgres else sqlite_insert)(table)
    return insert.on_conflict_do_update(
        index_elements=list(_KEYS[table.name]),
        set_={name: table.c[name] + insert.excluded[name] for name in _SUMS[table.name]},
    )


_UPSERT = {(t.name, pg): _upsert(t, pg) for t in (hold_rollup, hold_shoes) for pg in (False, True)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Rollup:
    """What a settled coup adds: ``lines`` to ``hold_rollup`` (one per bet kind and stake
    band), ``shoe`` to ``hold_shoes``."""

    lines: list[dict[str, Any]]
    shoe: dict[str, Any]


def rollup_rows(
    *,
    table: str,
    variant: str,
    shoe_id: int | None,
    now: float,
    spots: Sequence[SettledSpot],
    price: Price,
) -> Rollup:
    """A settled coup's rows, priced by ``price`` (the cards left before the coup): what
    `record_settlement` adds."""
    day = day_of(now)
    groups: dict[tuple[str, int], list[SettledSpot]] = {}
    for spot in spots:
        groups.setdefault((spot.kind, band(spot.stake)), []).append(spot)
    wins = {id(s): price.win(BetKind(s.kind), s.stake) for s in spots}

    def variance(chosen: Sequence[SettledSpot]) -> float:
        return price.combine(wins[id(s)] for s in chosen).variance

    lines = []
    kinds_seen: set[str] = set()
    bands_seen: set[int] = set()
    for (kind, floor), chosen in sorted(groups.items()):
        moments = price.combine(wins[id(s)] for s in chosen)
        first_kind, first_band = kind not in kinds_seen, floor not in bands_seen
        kinds_seen.add(kind)
        bands_seen.add(floor)
        lines.append(
            {
                "table_id": table,
                "variant": variant,
                "kind": kind,
                "band": floor,
                "day": day,
                "kind_rounds": int(first_kind),
                "band_rounds": int(first_band),
                "bets": sum(s.bets for s in chosen),
                "handle": sum(s.stake for s in chosen),
                "win": sum(s.stake - s.returned for s in chosen),
                "theo": moments.theo,
                "variance": moments.variance,
                "var_kind": variance([s for s in spots if s.kind == kind]) if first_kind else 0.0,
                "var_band": (
                    variance([s for s in spots if band(s.stake) == floor]) if first_band else 0.0
                ),
            }
        )
    whole = price.combine(wins.values())
    shoe = {
        "table_id": table,
        "variant": variant,
        "shoe_id": shoe_id or 0,
        "day": day,
        "rounds": 1,
        "bets": sum(s.bets for s in spots),
        "handle": sum(s.stake for s in spots),
        "win": sum(s.stake - s.returned for s in spots),
        "theo": whole.theo,
        "var_round": whole.variance,
    }
    return Rollup(lines=lines, shoe=shoe)


def record_settlement(
    conn: Connection,
    *,
    table: str,
    variant: str,
    shoe_id: int | None,
    now: float,
    spots: Sequence[SettledSpot],
    price: Price,
) -> None:
    """Add a settled coup's ``spots`` to the rollups inside ``conn``'s transaction (the
    settlement's), priced by ``price`` (the cards left before the coup)."""
    if not spots:
        return
    found = rollup_rows(
        table=table, variant=variant, shoe_id=shoe_id, now=now, spots=spots, price=price
    )
    pg = on_postgres(conn)
    for row in found.lines:  # one key each: an upsert of many rows may not name a key twice
        conn.execute(_UPSERT["hold_rollup", pg], row)
    conn.execute(_UPSERT["hold_shoes", pg], found.shoe)


def add_up(table: sa.Table, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of ``table`` (``hold_rollup``, ``hold_shoes``) with the same key summed into
    one (a bulk load's).

    >>> key = {"table_id": "t1", "variant": "v", "shoe_id": 1, "day": 0}
    >>> sums = dict.fromkeys(_SUMS["hold_shoes"], 1)
    >>> [row["handle"] for row in add_up(hold_shoes, [{**key, **sums}, {**key, **sums}])]
    [2]
    """
    keys, sums = _KEYS[table.name], _SUMS[table.name]
    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        key = tuple(row[name] for name in keys)
        if key in found:
            into = found[key]
            for name in sums:
                into[name] += row[name]
        else:
            found[key] = dict(row)
    return list(found.values())


def record_resolution(
    conn: Connection,
    *,
    round_id: int,
    table: str,
    now: float | None,
    resolution: str,
    reason: str,
    bets: int,
    handle: int,
) -> None:
    """Store how interrupted round ``round_id`` ended, inside ``conn``'s transaction."""
    conn.execute(
        sa.insert(round_resolutions).values(
            round_id=round_id,
            table_id=table,
            day=None if now is None else day_of(now),
            at=now,
            resolution=resolution,
            reason=reason[:200],
            bets=bets,
            handle=handle,
        )
    )
