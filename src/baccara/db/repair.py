"""``baccara db repair TABLE``: a house table whose start-up recovery fails, put right.

A server's start-up recovery (`baccara.server.tables.house.HouseRunner.recover`) deals the
table's shoe in play again through its stored coups, in order, and stops when one does
not match: the table then stays closed at every start. Two servers dealing one table
(two processes on one SQLite file, which `baccara.db.serve_lock` now refuses) leave
exactly that: the second one's start-up voided the first one's open round, whose coup
the first one dealt anyway, so the shoe's next settled coup sits one place further on
than the replay looks for it.

`repair_table`, with no server running the table:

1. voids every unfinished round of the table and refunds each of its bets, once
   (`Ledger.void_round`: one refund transaction per round, guarded by the round's
   unique settlement row, so a second run refunds nothing);
2. retires each shoe in play, in one transaction: the coup dealt for a round voided
   after its deal (a place in the shoe with no settled round, before the last settled
   one) is stored on that voided round, so the shoe's record keeps every coup the shoe
   dealt, in order; the shoe is marked finished, which reveals its seed as the normal
   end of a shoe does (its record at ``GET /api/tables/{id}/shoes``, for
   ``baccara verify``; the repair checks it).

The next start finds nothing unfinished and deals a new shoe; a second run finds
nothing to do. The ledger's invariants hold after it (`Ledger.check_invariants`).

>>> ledger = Ledger.connect("sqlite://")
>>> repair_table(ledger, "t1")
Traceback (most recent call last):
...
baccara.db.repair.RepairError: unknown table 't1': this database has no round or shoe of it (its tables: none)
>>> _ = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
>>> print("\\n".join(repair_table(ledger, "t1").lines()))
table t1: round 1 voided, 0 bets refunded (0.00)
table t1: repaired: the next start deals a new shoe
>>> repair_table(ledger, "t1").lines()
['table t1: nothing to repair (no unfinished round, no shoe in play)']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.coup import deal_shoe
from baccara.db.database import writing
from baccara.db.ledger import Ledger
from baccara.db.schema import RoundPhase, online_shoes, rounds
from baccara.db.shoes import dealt_coups, stored_shoe
from baccara.fair import verify
from baccara.money import format_money
from baccara.variants import find_variant

__all__ = ["RETIRED", "Repair", "RepairError", "RetiredShoe", "VoidedRound", "repair_table"]

RETIRED = "the house retired it with `baccara db repair` after a failed recovery"
"""What a retired shoe's record says of why it stopped before its end."""


class RepairError(ValueError):
    """A table `repair_table` does not repair: unknown here, or a players' game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class VoidedRound:
    """A round the repair voided: its number, its bets, what went back to the players."""

    number: int
    bets: int
    refunded: int

    def to_json(self) -> dict[str, int]:
        """The round as JSON."""
        return {"round": self.number, "bets": self.bets, "refunded": self.refunded}


@dataclass(frozen=True, slots=True, kw_only=True)
class RetiredShoe:
    """A shoe the repair finished: its record (None if nothing was dealt from it)."""

    id: int
    dealt_in_voided_rounds: tuple[int, ...]
    """The rounds (numbers) voided after their coup was dealt: their coups kept."""
    record: dict[str, Any] | None
    problems: tuple[str, ...]
    """What `baccara.fair.verify` finds wrong in the record (nothing, normally)."""

    @property
    def coups(self) -> int:
        """How many coups the record holds."""
        return 0 if self.record is None else len(self.record["coups"])

    def to_json(self) -> dict[str, Any]:
        """The shoe as JSON."""
        return {
            "shoe": self.id,
            "coups": self.coups,
            "dealt_in_voided_rounds": list(self.dealt_in_voided_rounds),
            "verified": None if self.record is None else not self.problems,
            "problems": list(self.problems),
            "record": self.record,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Repair:
    """What `repair_table` did."""

    table: str
    voided: tuple[VoidedRound, ...]
    shoes: tuple[RetiredShoe, ...]

    @property
    def changed(self) -> bool:
        """Whether there was anything to repair."""
        return bool(self.voided or self.shoes)

    def lines(self) -> list[str]:
        """What was done, a line each, for people."""
        name = f"table {self.table}"
        if not self.changed:
            return [f"{name}: nothing to repair (no unfinished round, no shoe in play)"]
        out = [
            f"{name}: round {r.number} voided, {r.bets} bet{'' if r.bets == 1 else 's'} "
            f"refunded ({format_money(r.refunded)})"
            for r in self.voided
        ]
        for shoe in self.shoes:
            if shoe.record is None:
                out.append(f"{name}: shoe {shoe.id} retired before its first coup")
                continue
            line = f"{name}: shoe {shoe.id} retired after {shoe.coups} coups, its seed revealed"
            kept = shoe.dealt_in_voided_rounds
            if len(kept) == 1:
                line += (
                    f" (round {kept[0]}, voided after its coup was dealt, keeps it in the record)"
                )
            elif kept:
                numbers = ", ".join(str(n) for n in kept)
                line += f" (rounds {numbers}, voided after their coups were dealt, keep them)"
            verdict = "its record verifies" if not shoe.problems else "its record does NOT verify"
            out.append(f"{line}; {verdict} (GET /api/tables/{self.table}/shoes)")
            out.extend(f"{name}:   {problem}" for problem in shoe.problems)
        out.append(f"{name}: repaired: the next start deals a new shoe")
        return out

    def to_json(self) -> dict[str, Any]:
        """The repair as JSON."""
        return {
            "table": self.table,
            "changed": self.changed,
            "voided": [r.to_json() for r in self.voided],
            "shoes": [s.to_json() for s in self.shoes],
        }


def repair_table(ledger: Ledger, table: str) -> Repair:
    """Void and refund ``table``'s unfinished rounds and retire its shoes in play (see
    the module); raise `RepairError` for a table this database does not have, or a
    players' game. Run it with no server running the table."""
    _check_table(ledger.database, table)
    voided = []
    for row in ledger.unfinished_rounds(table):
        why = f"round {row['number']}: voided by baccara db repair, bets refunded"
        if ledger.void_round(row["id"], why):
            refunded = [b for b in ledger.round_bets(row["id"]) if b["status"] == "refunded"]
            voided.append(
                VoidedRound(
                    number=int(row["number"]),
                    bets=len(refunded),
                    refunded=sum(b["returned"] or 0 for b in refunded),
                )
            )
    with writing(ledger.database) as conn:
        in_play = conn.execute(
            sa.select(online_shoes)
            .where(online_shoes.c.table_id == table, online_shoes.c.finished.is_(False))
            .order_by(online_shoes.c.id)
        ).mappings()
        shoes = tuple(_retire(conn, row) for row in in_play.all())
    return Repair(table=table, voided=tuple(voided), shoes=shoes)


def _check_table(database: Engine, table: str) -> None:
    with database.connect() as conn:
        known = sorted(
            set(conn.execute(sa.select(rounds.c.table_id).distinct()).scalars())
            | set(conn.execute(sa.select(online_shoes.c.table_id).distinct()).scalars())
        )
        rules = conn.execute(
            sa.select(online_shoes.c.rules)
            .where(online_shoes.c.table_id == table)
            .order_by(online_shoes.c.id.desc())
            .limit(1)
        ).scalar()
    if table not in known:
        listed = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "") or "none"
        raise RepairError(
            f"unknown table {table!r}: this database has no round or shoe of it "
            f"(its tables: {listed})"
        )
    name = (rules or {}).get("variant", {}).get("name")
    if name is not None and not (variant := find_variant(name)).house_banked:
        raise RepairError(
            f"table {table!r} plays {variant.family.label}, a players' game, which resumes "
            "its shoe from its stored decisions: `baccara db repair` repairs the house tables"
        )


def _retire(conn: Connection, row: Any) -> RetiredShoe:
    """Keep the coups the shoe dealt for voided rounds, mark it finished, check its record."""
    shoe_id, fair = int(row["id"]), stored_shoe(row)
    kept: list[int] = []
    if fair.sealed:
        dealt = [coup.notation() for coup in deal_shoe(fair.shoe())]
        placed = conn.execute(
            sa.select(rounds.c.id, rounds.c.number, rounds.c.coup_index, rounds.c.phase)
            .where(rounds.c.shoe_id == shoe_id)
            .order_by(rounds.c.id)
        ).all()
        settled = {r.coup_index for r in placed if r.phase == RoundPhase.SETTLED}
        for index in range(1, min(max(settled, default=0), len(dealt)) + 1):
            gap = [r for r in placed if r.coup_index == index and r.phase == RoundPhase.VOIDED]
            if index not in settled and gap:  # dealt for the last round voided there
                conn.execute(
                    rounds.update()
                    .where(rounds.c.id == gap[-1].id, rounds.c.coup.is_(None))
                    .values(coup=dealt[index - 1])
                )
                kept.append(int(gap[-1].number))
    conn.execute(
        online_shoes.update()
        .where(online_shoes.c.id == shoe_id)
        .values(finished=True, retired=RETIRED)
    )
    coups = dealt_coups(conn, shoe_id)
    record = fair.record(coups, RETIRED).to_json() if coups else None
    problems = () if record is None else verify(record).problems
    return RetiredShoe(
        id=shoe_id, dealt_in_voided_rounds=tuple(kept), record=record, problems=problems
    )
