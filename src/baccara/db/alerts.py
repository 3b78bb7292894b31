"""Markers of harm (issue 34, point 7), computed from what the database already holds and
stored by a scan, so that compliance can acknowledge each one.

A scan (`scan`) walks a period day by day (UTC) and raises, for each player or table
and day, the markers its data passes (`Marker`), each with its evidence (the rows
that raised it) and a one-line summary. An alert is stored once per marker, subject
(a player's name, a table's id) and day (a unique key): a rescan of the same period
raises nothing twice, and an acknowledgement (`acknowledge`, audited) stays with it.
The thresholds are data (`Thresholds`, with documented defaults).

The markers, over house tables' bets (their time is their transaction's):

- ``losses_chased``: in a day, at least ``chase_count`` rounds whose stake is at least
  ``chase_raise_percent`` % of the round before, which the player lost;
- ``long_session``: play (bets no more than ``session_gap_minutes`` apart) lasting at
  least ``long_session_minutes``;
- ``night_play``: at least ``night_bets`` bets from ``night_start_hour`` to
  ``night_end_hour`` (UTC) of a day;
- ``limits_raised``: at least ``limit_raises`` raises (or removals) of a loss or deposit
  limit asked within ``limit_raise_days`` days (``limit_changes``);
- ``deposit_after_loss_limit``: a deposit booked when the day's loss (staked less what
  came back, a bet in play counted as lost) had reached the daily loss limit in force;
- ``money_moved``: deposits and withdrawals of a day past ``daily_money_moved``;
- ``table_hold``: a table whose day's hold is past ``hold_sigmas`` standard deviations
  from its theory: the z-score comes from a `HoldScores` function (the hold report's),
  given to `scan`; none given, the marker is not computed.

>>> from baccara.db.database import database_at
>>> from baccara.db.migrate import upgrade
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> scan(database, start=0.0, end=86_400.0, now=86_400.0)
[]
>>> Thresholds().daily_money_moved
200000
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from baccara.db import audit
from baccara.db.books import wallet_account
from baccara.db.database import writing
from baccara.db.protections import PeriodLimit, period_limit
from baccara.db.schema import (
    accounts,
    alerts,
    bets,
    cashier_moves,
    limit_changes,
    play_limits,
    transactions,
    users,
)
from baccara.money import format_money

__all__ = [
    "DAY",
    "MAX_DAYS",
    "MAX_LIST",
    "Alert",
    "AlertError",
    "HoldScores",
    "Marker",
    "TableScore",
    "Thresholds",
    "acknowledge",
    "alerts_in",
    "day_of",
    "period",
    "report_scores",
    "scan",
]

DAY = 86_400.0
MAX_DAYS = 184
"""The longest period one scan walks (six months)."""
MAX_LIST = 500
"""The most alerts one list gives."""
_WALLET = wallet_account("")
_LAST_MOMENT = 253_402_300_799.0  # 9999-12-31 23:59:59 UTC


class Marker(StrEnum):
    """A marker of harm; the value is the word stored and shown."""

    LOSSES_CHASED = "losses_chased"
    LONG_SESSION = "long_session"
    NIGHT_PLAY = "night_play"
    LIMITS_RAISED = "limits_raised"
    DEPOSIT_AFTER_LOSS_LIMIT = "deposit_after_loss_limit"
    MONEY_MOVED = "money_moved"
    TABLE_HOLD = "table_hold"


@dataclass(frozen=True, slots=True, kw_only=True)
class Thresholds:
    """Where each marker starts (see the module); the defaults are the house's unless
    the server's configuration says otherwise.

    >>> Thresholds(night_bets=5).night_bets
    5
    >>> Thresholds(night_start_hour=7, night_end_hour=6)
    Traceback (most recent call last):
    ...
    ValueError: bad thresholds: night_start_hour must be before night_end_hour (0 to 24)
    """

    chase_count: int = 3  # rounds raised after a loss, in a day
    chase_raise_percent: int = 200  # the stake against the lost round's, at least
    long_session_minutes: int = 240
    session_gap_minutes: int = 30  # a longer pause between bets ends a session
    night_start_hour: int = 0  # UTC, included
    night_end_hour: int = 6  # UTC, excluded
    night_bets: int = 10
    limit_raises: int = 3
    limit_raise_days: int = 30
    daily_money_moved: int = 200_000  # minor units: 2,000.00; past it
    hold_sigmas: float = 4.0  # past it, either way

    def __post_init__(self) -> None:
        if not 0 <= self.night_start_hour < self.night_end_hour <= 24:
            raise ValueError(
                "bad thresholds: night_start_hour must be before night_end_hour (0 to 24)"
            )
        for name in ("chase_count", "chase_raise_percent", "long_session_minutes",
                     "session_gap_minutes", "night_bets", "limit_raises", "limit_raise_days",
                     "daily_money_moved"):  # fmt: skip
            if getattr(self, name) < 1:
                raise ValueError(f"bad thresholds: {name} must be 1 or more")
        if not self.hold_sigmas > 0:
            raise ValueError("bad thresholds: hold_sigmas must be more than 0")

    @classmethod
    def from_json(cls, document: object) -> Thresholds:
        """Thresholds from a JSON object of some of the fields (the others: their
        defaults); a `ValueError` naming what is wrong.

        >>> Thresholds.from_json({"night_bets": 20, "hold_sigmas": 3.5}).night_bets
        20
        >>> Thresholds.from_json({"night_bets": "20"})
        Traceback (most recent call last):
        ...
        ValueError: bad thresholds: night_bets must be a whole number
        >>> Thresholds.from_json({"nights": 1})
        Traceback (most recent call last):
        ...
        ValueError: bad thresholds: no threshold named 'nights'
        """
        if not isinstance(document, dict):
            raise ValueError("bad thresholds: a JSON object of thresholds")
        known = {name: getattr(cls(), name) for name in cls.__dataclass_fields__}
        for name, value in document.items():
            if name not in known:
                raise ValueError(f"bad thresholds: no threshold named {name!r}")
            whole = isinstance(known[name], int)
            if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"bad thresholds: {name} must be {kind}")
        given: dict[str, Any] = {
            name: float(v) if name == "hold_sigmas" else v for name, v in document.items()
        }
        return cls(**given)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableScore:
    """A table's hold over a period against its theory: how many standard deviations
    (``z``) its house win is from the theoretical win, with what it was measured on."""

    table: str
    z: float
    rounds: int = 0
    handle: int = 0
    house_win: int = 0
    theoretical_win: float = 0.0


HoldScores = Callable[[Engine, float, float], Sequence[TableScore]]
"""The hold report's z-score of every table from ``start`` to ``end`` (epoch seconds)."""


def report_scores(database: Engine, start: float, end: float) -> list[TableScore]:
    """The hold report's z-score of every table over the UTC days from ``start``'s to
    the one before ``end`` (a `HoldScores`, what `scan` takes for ``table_hold``); a
    table whose win does not vary (no bet) has none.

    >>> from baccara.db.database import database_at
    >>> from baccara.db.migrate import upgrade
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> report_scores(database, 0.0, 86_400.0)
    []
    """
    from baccara.db.reports import By, hold

    first = datetime.fromtimestamp(start, UTC).date()
    last = datetime.fromtimestamp(max(start, end - 1), UTC).date()
    return [
        TableScore(table=row.key, z=row.z, rounds=row.rounds, handle=row.handle,
                   house_win=row.win, theoretical_win=row.theo)
        for row in hold(database, By.TABLE, first=first, last=last)
        if row.z is not None
    ]  # fmt: skip


class AlertError(ValueError):
    """A refused scan or acknowledgement; ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True, kw_only=True)
class Alert:
    """An alert as stored: its marker, subject, UTC day, what it says, its evidence, and
    its acknowledgement (None: not yet)."""

    id: int
    marker: Marker
    subject: str
    day: str
    raised_at: float
    summary: str
    evidence: list[dict[str, Any]]
    acknowledged_at: float | None = None
    acknowledged_by: str | None = None


@dataclass(slots=True)
class _Raised:
    marker: Marker
    subject: str
    day: str
    summary: str
    evidence: list[dict[str, Any]] = field(default_factory=list)


def day_of(moment: float) -> str:
    """The UTC day of ``moment`` (epoch seconds).

    >>> day_of(1_795_866_742.0)
    '2026-11-28'
    """
    return datetime.fromtimestamp(moment, UTC).date().isoformat()


def _when(moment: datetime) -> float:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds")


# -- reading the period -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Bet:
    id: int
    player: str
    round: int
    kind: str
    amount: int
    returned: int | None
    at: float


def _bets(conn: Connection, start: float, end: float) -> list[_Bet]:
    """The house bets placed from ``start`` to ``end``, by their transactions' time (its
    index), in time order."""
    query = (
        sa.select(
            bets.c.id, accounts.c.name, bets.c.round_id, bets.c.kind, bets.c.amount,
            bets.c.returned, transactions.c.created_at,
        )
        .select_from(
            bets.join(transactions, transactions.c.id == bets.c.txn_id).join(
                accounts, accounts.c.id == bets.c.account_id
            )
        )
        .where(
            transactions.c.created_at >= datetime.fromtimestamp(start, UTC),
            transactions.c.created_at < datetime.fromtimestamp(end, UTC),
        )
        .order_by(transactions.c.created_at, bets.c.id)
    )  # fmt: skip
    return [
        _Bet(
            id=int(row.id), player=str(row.name).removeprefix(_WALLET), round=int(row.round_id),
            kind=str(row.kind), amount=int(row.amount),
            returned=None if row.returned is None else int(row.returned),
            at=_when(row.created_at),
        )
        for row in conn.execute(query)
        if str(row.name).startswith(_WALLET)
    ]  # fmt: skip


def _bet_row(bet: _Bet) -> dict[str, Any]:
    return {"bet": bet.id, "round": bet.round, "kind": bet.kind, "amount": bet.amount,
            "returned": bet.returned, "at": _iso(bet.at)}  # fmt: skip


def _by_player_day(found: Iterable[_Bet]) -> dict[tuple[str, str], list[_Bet]]:
    grouped: dict[tuple[str, str], list[_Bet]] = defaultdict(list)
    for bet in found:
        grouped[bet.player, day_of(bet.at)].append(bet)
    return grouped


# -- the markers --------------------------------------------------------------------------


def _chased(placed: list[_Bet], limits: Thresholds, player: str, day: str) -> _Raised | None:
    stakes: dict[int, list[_Bet]] = {}
    for bet in placed:
        stakes.setdefault(bet.round, []).append(bet)
    chases, before = [], None
    for round_id, its in stakes.items():  # in the order the rounds were first bet on
        staked = sum(b.amount for b in its)
        settled = all(b.returned is not None for b in its)
        net = sum(b.returned or 0 for b in its) - staked
        if (
            before is not None
            and before[2] < 0
            and staked * 100 >= before[1] * limits.chase_raise_percent
        ):
            chases.append({"after_round": before[0], "lost": -before[2], "staked_before": before[1],
                           "round": round_id, "staked": staked, "at": _iso(its[0].at)})  # fmt: skip
        before = (round_id, staked, net) if settled else None
    if len(chases) < limits.chase_count:
        return None
    summary = f"{player} raised the stake after a loss {len(chases)} times"
    return _Raised(Marker.LOSSES_CHASED, player, day, summary, chases)


def _sessions(placed: list[_Bet], limits: Thresholds) -> list[list[_Bet]]:
    runs: list[list[_Bet]] = []
    for bet in placed:
        if runs and bet.at - runs[-1][-1].at <= limits.session_gap_minutes * 60:
            runs[-1].append(bet)
        else:
            runs.append([bet])
    return runs


def _long(placed: list[_Bet], limits: Thresholds) -> list[_Raised]:
    """Each player's sessions as long as the threshold (their day: where they began)."""
    raised = []
    for run in _sessions(placed, limits):
        minutes = (run[-1].at - run[0].at) / 60
        if minutes >= limits.long_session_minutes:
            player, day = run[0].player, day_of(run[0].at)
            summary = f"{player} played {minutes / 60:.1f} hours with no pause over {limits.session_gap_minutes} minutes"
            evidence = [{"from": _iso(run[0].at), "to": _iso(run[-1].at), "bets": len(run),
                         "first_bet": run[0].id, "last_bet": run[-1].id,
                         "staked": sum(b.amount for b in run)}]  # fmt: skip
            raised.append(_Raised(Marker.LONG_SESSION, player, day, summary, evidence))
    return raised


def _night(placed: list[_Bet], limits: Thresholds, player: str, day: str) -> _Raised | None:
    late = [
        bet
        for bet in placed
        if limits.night_start_hour
        <= datetime.fromtimestamp(bet.at, UTC).hour
        < limits.night_end_hour
    ]
    if len(late) < limits.night_bets:
        return None
    hours = f"{limits.night_start_hour:02d}:00-{limits.night_end_hour:02d}:00 UTC"
    summary = f"{player} placed {len(late)} bets {hours}"
    return _Raised(Marker.NIGHT_PLAY, player, day, summary, [_bet_row(b) for b in late])


def _raises(conn: Connection, start: float, end: float, limits: Thresholds) -> list[_Raised]:
    window = limits.limit_raise_days * DAY
    query = (
        sa.select(limit_changes, users.c.name)
        .join(users, users.c.id == limit_changes.c.user_id)
        .where(
            limit_changes.c.raised.is_(True),
            limit_changes.c.kind.in_(["loss", "deposit"]),
            limit_changes.c.at >= start - window,
            limit_changes.c.at < end,
        )
        .order_by(limit_changes.c.at, limit_changes.c.id)
    )
    per_player: dict[str, list[Any]] = defaultdict(list)
    for row in conn.execute(query):
        per_player[str(row.name)].append(row)
    raised: dict[tuple[str, str], _Raised] = {}
    for player, changes in per_player.items():
        for change in changes:
            if change.at < start:
                continue
            recent = [c for c in changes if change.at - window < c.at <= change.at]
            if len(recent) < limits.limit_raises:
                continue
            day = day_of(change.at)
            summary = (
                f"{player} asked {len(recent)} raises of a limit in {limits.limit_raise_days} days"
            )
            raised[player, day] = _Raised(Marker.LIMITS_RAISED, player, day, summary, [
                {"change": c.id, "at": _iso(c.at), "kind": c.kind, "days": c.days,
                 "amount": c.amount, "next_amount": c.next_amount, "by": c.actor}
                for c in recent
            ])  # fmt: skip
    return list(raised.values())


def _daily_limit_at(conn: Connection, user: int, moment: float) -> int | None:
    """The daily loss limit in force at ``moment``: the last change kept before it
    (`baccara.db.protections.record_change`), or, with none kept, the one stored now."""
    last = conn.execute(
        sa.select(limit_changes.c.amount, limit_changes.c.next_amount, limit_changes.c.next_from)
        .where(
            limit_changes.c.user_id == user,
            limit_changes.c.kind == "loss",
            limit_changes.c.days == 1,
            limit_changes.c.at <= moment,
        )
        .order_by(limit_changes.c.at.desc(), limit_changes.c.id.desc())
        .limit(1)
    ).mappings().first()  # fmt: skip
    if last is None:
        row = conn.execute(
            sa.select(play_limits.c.loss_limit, play_limits.c.next_loss_limit, play_limits.c.next_from)
            .where(play_limits.c.user_id == user)
        ).first()  # fmt: skip
        if row is None:
            return None
        return PeriodLimit(row[0], row[1], row[2]).at(moment).amount
    return period_limit(last).at(moment).amount


def _deposits_after_limit(conn: Connection, start: float, end: float) -> list[_Raised]:
    deposits = conn.execute(
        sa.select(cashier_moves, users.c.name)
        .join(users, users.c.id == cashier_moves.c.user_id)
        .where(cashier_moves.c.kind == "deposit", cashier_moves.c.at >= start, cashier_moves.c.at < end)
        .order_by(cashier_moves.c.at, cashier_moves.c.id)
    ).all()  # fmt: skip
    raised: dict[tuple[str, str], _Raised] = {}
    for move in deposits:
        limit = _daily_limit_at(conn, int(move.user_id), float(move.at))
        if limit is None:
            continue
        day = day_of(move.at)
        midnight = datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()
        lost = _lost(conn, int(move.account_id), midnight, float(move.at))
        if lost < limit:
            continue
        player = str(move.name)
        found = raised.setdefault((player, day), _Raised(
            Marker.DEPOSIT_AFTER_LOSS_LIMIT, player, day,
            f"{player} deposited after losing {format_money(lost)} against a daily loss limit of {format_money(limit)}",
        ))  # fmt: skip
        found.evidence.append({"deposit": move.id, "reference": move.reference, "amount": int(move.amount),
                               "at": _iso(move.at), "lost_before": lost, "loss_limit": limit})  # fmt: skip
    return list(raised.values())


def _lost(conn: Connection, wallet: int, start: float, end: float) -> int:
    """What a wallet lost (or had in play) on house bets from ``start`` to ``end``."""
    staked, returned = conn.execute(
        sa.select(sa.func.coalesce(sa.func.sum(bets.c.amount), 0),
                  sa.func.coalesce(sa.func.sum(bets.c.returned), 0))
        .select_from(bets.join(transactions, transactions.c.id == bets.c.txn_id))
        .where(bets.c.account_id == wallet,
               transactions.c.created_at >= datetime.fromtimestamp(start, UTC),
               transactions.c.created_at < datetime.fromtimestamp(end, UTC))
    ).one()  # fmt: skip
    return max(0, int(staked) - int(returned))


def _money_moved(conn: Connection, start: float, end: float, limits: Thresholds) -> list[_Raised]:
    moves = conn.execute(
        sa.select(cashier_moves, users.c.name)
        .join(users, users.c.id == cashier_moves.c.user_id)
        .where(cashier_moves.c.at >= start, cashier_moves.c.at < end)
        .order_by(cashier_moves.c.at, cashier_moves.c.id)
    ).all()
    per_day: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for move in moves:
        per_day[str(move.name), day_of(move.at)].append(move)
    raised = []
    for (player, day), its in per_day.items():
        total = sum(int(m.amount) for m in its)
        if total > limits.daily_money_moved:
            summary = f"{player} moved {format_money(total)} in a day, past {format_money(limits.daily_money_moved)}"
            raised.append(_Raised(Marker.MONEY_MOVED, player, day, summary, [
                {"move": m.id, "kind": m.kind, "amount": int(m.amount), "reference": m.reference,
                 "at": _iso(m.at), "by": m.actor}
                for m in its
            ]))  # fmt: skip
    return raised


def _holds(
    database: Engine, start: float, end: float, limits: Thresholds, hold: HoldScores
) -> list[_Raised]:
    raised = []
    day = start
    while day < end:
        for score in hold(database, day, min(day + DAY, end)):
            if abs(score.z) > limits.hold_sigmas:
                summary = f"table {score.table}'s hold is {score.z:+.2f} standard deviations from its theory"
                raised.append(
                    _Raised(Marker.TABLE_HOLD, score.table, day_of(day), summary, [asdict(score)])
                )
        day += DAY
    return raised


# -- the scan, the list, the acknowledgement ----------------------------------------------


def period(start: float, end: float) -> tuple[float, float]:
    """The whole UTC days from ``start``'s to the one ``end`` falls in (excluded if
    ``end`` is a midnight), or `AlertError` if that is not 1 to `MAX_DAYS` days of the
    years 1970 to 9999.

    >>> period(90_000.0, 2 * DAY)
    (86400.0, 172800.0)
    """
    if not (0 <= start < end <= _LAST_MOMENT):
        raise AlertError("bad_request", f"a scan's period is 1 to {MAX_DAYS} days, from before to")
    first = math.floor(start / DAY) * DAY
    last = max(math.ceil(end / DAY) * DAY, first + DAY)  # end > start: one day at least
    if last - first > MAX_DAYS * DAY:
        raise AlertError("bad_request", f"a scan's period is 1 to {MAX_DAYS} days, from before to")
    return float(first), float(last)


def scan(
    database: Engine,
    *,
    start: float,
    end: float,
    now: float,
    thresholds: Thresholds | None = None,
    hold: HoldScores | None = None,
    actor: str | None = None,
    role: str | None = None,
) -> list[Alert]:
    """Raise the markers of the whole UTC days from ``start`` to ``end`` (at most
    `MAX_DAYS`), at ``now``; the alerts newly stored (one already stored for its
    marker, subject and day is left as it is). ``hold``: the tables' z-scores (the
    ``table_hold`` marker is computed only with it). With an ``actor`` (a staff member
    in ``role``, or ``cli``) the scan is audited with the alerts it stored."""
    limits = thresholds or Thresholds()
    first, last = period(start, end)
    # a session or a night may begin before the period: read from the day before
    with database.connect() as conn:
        placed = _bets(conn, first - DAY, last)
        inside = [bet for bet in placed if bet.at >= first]
        found: list[_Raised] = []
        for (player, day), its in _by_player_day(inside).items():
            found += [
                r
                for r in (_chased(its, limits, player, day), _night(its, limits, player, day))
                if r
            ]
        per_player: dict[str, list[_Bet]] = defaultdict(list)
        for bet in placed:
            per_player[bet.player].append(bet)
        found += [
            r for its in per_player.values() for r in _long(its, limits) if r.day >= day_of(first)
        ]
        found += _raises(conn, first, last, limits)
        found += _deposits_after_limit(conn, first, last)
        found += _money_moved(conn, first, last, limits)
    if hold is not None:
        found += _holds(database, first, last, limits, hold)
    return _store(database, found, now, (first, last), actor, role)


def _store(
    database: Engine,
    found: list[_Raised],
    now: float,
    days: tuple[float, float],
    actor: str | None,
    role: str | None,
) -> list[Alert]:
    stored: list[Alert] = []
    with writing(database) as conn:
        make = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        for one in found:
            evidence = json.dumps(one.evidence, sort_keys=True, separators=(",", ":"))
            done = conn.execute(
                make(alerts)
                .values(marker=one.marker.value, subject=one.subject[:64], day=one.day,
                        raised_at=now, summary=one.summary[:200], evidence=evidence)
                .on_conflict_do_nothing(index_elements=["marker", "subject", "day"])
                .returning(alerts.c.id)
            ).scalar()  # fmt: skip
            if done is not None:
                stored.append(Alert(id=int(done), marker=one.marker, subject=one.subject[:64],
                                    day=one.day, raised_at=now, summary=one.summary[:200],
                                    evidence=json.loads(evidence)))  # fmt: skip
        if actor is not None:
            audit.append(
                conn, actor=actor, role=role, action="alerts.scan",
                target=f"{day_of(days[0])} to {day_of(days[1] - DAY)}",
                after={"raised": [one.id for one in stored]}, now=now,
            )  # fmt: skip
    return stored


def _alert(row: Any) -> Alert:
    return Alert(
        id=int(row.id), marker=Marker(row.marker), subject=str(row.subject), day=str(row.day),
        raised_at=float(row.raised_at), summary=str(row.summary),
        evidence=json.loads(row.evidence), acknowledged_at=row.acknowledged_at,
        acknowledged_by=row.acknowledged_by,
    )  # fmt: skip


def alerts_in(
    database: Engine,
    *,
    first_day: str,
    last_day: str,
    open_only: bool = False,
    marker: Marker | None = None,
    limit: int = 100,
) -> list[Alert]:
    """The alerts stored for the days ``first_day`` to ``last_day`` (included,
    ``YYYY-MM-DD``), newest day first, at most ``limit`` (1 to `MAX_LIST`); only those
    not acknowledged with ``open_only``, of one ``marker`` if given."""
    if not 1 <= limit <= MAX_LIST:
        raise AlertError("bad_request", f"limit: 1 to {MAX_LIST} alerts")
    query = sa.select(alerts).where(alerts.c.day >= first_day, alerts.c.day <= last_day)
    if open_only:
        query = query.where(alerts.c.acknowledged_at.is_(None))
    if marker is not None:
        query = query.where(alerts.c.marker == marker.value)
    query = query.order_by(alerts.c.day.desc(), alerts.c.id.desc()).limit(limit)
    with database.connect() as conn:
        return [_alert(row) for row in conn.execute(query)]


def acknowledge(
    database: Engine, alert_id: int, *, actor: str, role: str | None, now: float
) -> Alert:
    """Acknowledge alert ``alert_id`` by ``actor`` at ``now``, audited in the same
    transaction; `AlertError` ``no_such_alert`` or ``acknowledged`` (once only)."""
    with writing(database) as conn:
        audit.lock(conn)  # two acknowledgements at once: one is told it was done
        row = conn.execute(sa.select(alerts).where(alerts.c.id == alert_id)).first()
        if row is None:
            raise AlertError("no_such_alert", f"no alert {alert_id}")
        if row.acknowledged_at is not None:
            raise AlertError(
                "acknowledged",
                f"alert {alert_id} was acknowledged by {row.acknowledged_by} at {_iso(row.acknowledged_at)}",
            )
        conn.execute(
            alerts.update().where(alerts.c.id == alert_id)
            .values(acknowledged_at=now, acknowledged_by=actor)
        )  # fmt: skip
        audit.append(
            conn, actor=actor, role=role, action="alert.acknowledge",
            target=f"alert {alert_id}: {row.marker} {row.subject} {row.day}",
            before={"acknowledged_by": None}, after={"acknowledged_by": actor, "at": now},
            now=now,
        )  # fmt: skip
        found = conn.execute(sa.select(alerts).where(alerts.c.id == alert_id)).one()
    return _alert(found)
