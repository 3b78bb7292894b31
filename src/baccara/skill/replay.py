"""Verify a players' game's record (version 3): play the shoe again with its actions.

The shoe is rebuilt from the revealed seed and the client seeds (`baccara.fair`): one
per seat in seat order, then the seating's seal when the rules commit to it
(`baccara.skill.game_rules.Seating.seal`), so the seats, their chips and the minimum
are those the shoe was shuffled with. It is burned as its shoe settings say and played
on the engine its rules describe (`game_rules.game_table`) with every recorded action,
in order; an action the engine refuses is a fault and stops the replay. Then each coup
the replay gives must be the recorded one, field by field (the cards, the banker and
the punter, the bank, the stakes, banco, the free decisions, the result); the chips at
the end and the commission must be the engine's; and the shoe must be over where the
record ends: at its last coup (or when nobody is left to play), or at a Banque auction
nobody bid at, the one end a record cannot prove (noted).

`verify` reads every version: a version 1 record goes to `baccara.fair.verify`; a
version 2 record, which held only the free decisions, is refused in one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baccara.fair import (
    DECISIONS_VERSION,
    RECORD_VERSION,
    FairError,
    VerifyResult,
    check_commitment,
    fair_shoe,
    record_version,
    shoe_settings_of,
)
from baccara.fair import verify as verify_v1
from baccara.money import format_money
from baccara.shoe import ShoeError
from baccara.skill.actions import Action
from baccara.skill.game_rules import GameRules, Seating, game_table, whole_number
from baccara.skill.games import GameCoup, GameEngine, players_game
from baccara.skill.records import action_from_json, table_coups

__all__ = ["verify"]

_KEYS = ("server_seed", "server_seed_hash", "rules", "rules_hash", "coups")
_MORE_KEYS = ("seats", "minimum", "actions", "end")
_MONEY = ("bank",)


def verify(record: Mapping[str, Any]) -> VerifyResult:
    """Check a record of any version; `FairError` for a record that cannot be read.

    >>> verify({"version": 3, "coups": []})
    Traceback (most recent call last):
    ...
    baccara.fair.FairError: bad record: missing server_seed, server_seed_hash, rules, rules_hash
    """
    version = record_version(record)
    if version == RECORD_VERSION:
        return verify_v1(record)
    if version == DECISIONS_VERSION:
        raise FairError(
            "bad record: version 2 holds only the free decisions, so it cannot show the "
            "shoe whole nor its money; download the shoe's record again (version 3)"
        )
    rec = _Record.read(record)
    seed_ok, rules_ok, problems = check_commitment(
        rec.server_seed, str(record["server_seed_hash"]), rec.rules, str(record["rules_hash"])
    )
    notes: list[str] = []
    problems.extend(_seal_problems(rec, notes))
    try:
        shoe = fair_shoe(rec.server_seed, rec.client_seeds, shoe_settings_of(rec.rules))
        first = tuple(str(card) for card in shoe.cards[:8])
        shoe.burn()
    except ShoeError as error:
        raise FairError(f"bad record: {error}") from None
    table = game_table(rec.rules, rec.seating, shoe)
    applied, stopped = 0, None
    for number, action in enumerate(rec.actions, start=1):
        try:
            table.apply(action)
        except ValueError as error:  # the engine's refusal, or the shoe ran out
            stopped = f"action {number} ({_said(action, table.names)}): {error}"
            break
        applied += 1
    replayed = table_coups(table)
    by_coup = _compare(rec.coups, replayed)
    problems.extend(f"coup {number}: {text}" for number, text in by_coup)
    if stopped is not None:
        problems.extend([stopped, "the replay stops here"])
    else:
        problems.extend(_end_problems(rec, table, replayed, notes))
    return VerifyResult(
        seed_hash_ok=seed_ok,
        rules_hash_ok=rules_ok,
        coups_checked=len(rec.coups),
        coups_in_shoe=len(replayed),
        problems=tuple(problems),
        first_cards=first,
        coup_problems=tuple(by_coup),
        decisions_checked=applied,
        family=rec.game.variant.family.value,
        notes=tuple(notes),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class _Record:
    """A version 3 record, read."""

    server_seed: str
    rules: Mapping[str, Any]
    game: GameRules
    client_seeds: list[str]
    seating: Seating
    actions: list[Action]
    coups: list[GameCoup]
    chips: list[int]
    commission: int

    @classmethod
    def read(cls, record: Mapping[str, Any]) -> _Record:
        missing = [key for key in _KEYS if key not in record]
        if not missing:
            missing = [key for key in _MORE_KEYS if key not in record]
        if missing:
            raise FairError(f"bad record: missing {', '.join(missing)}")
        seeds, coups, rules = record.get("client_seeds", []), record["coups"], record["rules"]
        if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
            raise FairError("bad record: client_seeds must be a list of strings")
        if not isinstance(coups, list) or not coups:
            raise FairError("bad record: the record holds no coups")
        if not isinstance(rules, Mapping):
            raise FairError("bad record: rules must be an object")
        game = GameRules.read(rules)
        read = players_game(game.variant).read_coup
        actions, end = record["actions"], record["end"]
        if not isinstance(actions, list):
            raise FairError("bad record: actions must be a list")
        chips = end.get("chips") if isinstance(end, Mapping) else None
        commission = end.get("commission") if isinstance(end, Mapping) else None
        if not isinstance(chips, list) or not all(whole_number(c) for c in chips):
            raise FairError("bad record: end must hold the chips of every seat at the end")
        if not whole_number(commission):
            raise FairError("bad record: end must hold the house's commission")
        return cls(
            server_seed=str(record["server_seed"]),
            rules=rules,
            game=game,
            client_seeds=seeds,
            seating=Seating.from_json(record),
            actions=[action_from_json(a) for a in actions],
            coups=[read(c) for c in coups],
            chips=chips,
            commission=commission,
        )


def _seal_problems(rec: _Record, notes: list[str]) -> list[str]:
    """Whether the client seeds are one per seat and then the seating's seal."""
    seats, seeds = len(rec.seating.names), rec.client_seeds
    if not rec.game.sealed:  # a shoe committed before the seating was sealed
        notes.append(
            "the seats and their chips at the start are not sealed in this older shoe's "
            "shuffle: compare them with the table's"
        )
        return [] if len(seeds) == seats else [f"{len(seeds)} client seeds for {seats} seats"]
    if len(seeds) != seats + 1:
        return [f"{len(seeds)} client seeds for {seats} seats: one a seat, then the seal"]
    if seeds[-1] != rec.seating.seal():
        return [
            "the seats, their chips at the start or the minimum are not the ones the shoe "
            "was shuffled with (the last client seed seals them)"
        ]
    return []


def _said(action: Action, names: Sequence[str]) -> str:
    """An action in words: ``Bob stakes 5.00 on the left tableau``."""
    seat = action.seat
    who = "the table" if seat is None else names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    text = f"{who} {action.act.word}"
    if action.amount:
        text += f" {format_money(action.amount)}"
    if action.tableau is not None:
        text += f" on the {'left' if action.tableau == 'L' else 'right'} tableau"
    return text


def _shown(key: str, value: object) -> str:
    return format_money(value) if key in _MONEY and whole_number(value) else repr(value)


def _compare(recorded: Sequence[GameCoup], replayed: Sequence[GameCoup]) -> list[tuple[int, str]]:
    """Each recorded coup against the replay's, field by field."""
    found: list[tuple[int, str]] = []
    for number, (given, got) in enumerate(zip(recorded, replayed, strict=False), start=1):
        mine, theirs = given.to_json(), got.to_json()
        for key, value in mine.items():
            if value == theirs[key]:
                continue
            if key == "cards":
                found.append((number, f"recorded {value}, the replay deals {theirs[key]}"))
            else:
                text = f"recorded {key} {_shown(key, value)}, "
                found.append((number, text + f"the replay gives {_shown(key, theirs[key])}"))
        if given.dealt != got.dealt and number < len(recorded):
            found.append((number, "the shoe is out of step from here: later coups not compared"))
            break
    return found


def _end_problems(
    rec: _Record, table: GameEngine, replayed: Sequence[GameCoup], notes: list[str]
) -> list[str]:
    """Whether the record ends where the shoe does, with the engine's chips and commission."""
    problems = []
    if len(rec.coups) != len(replayed):
        problems.append(
            f"the record holds {len(rec.coups)} coups, the replay gives {len(replayed)} coups"
        )
    if not table.over:
        if (note := players_game(table.variant).end_note(table)) is not None:
            notes.append(note)
        else:
            seat = table.actor
            who = "the auction to close" if seat is None else table.names[seat]
            problems.append(
                f"the record stops before the shoe's end: the table waits for {who} "
                f"({table.phase.value} phase)"
            )
    names = table.names
    if len(rec.chips) != len(names):
        problems.append(f"the record's end holds {len(rec.chips)} stacks for {len(names)} seats")
    for name, given, got in zip(names, rec.chips, table.bankrolls, strict=False):
        if given != got:
            problems.append(
                f"recorded {name}'s chips at the end {format_money(given)}, "
                f"the replay gives {format_money(got)}"
            )
    if rec.commission != table.house:
        problems.append(
            f"recorded commission {format_money(rec.commission)}, "
            f"the replay gives {format_money(table.house)}"
        )
    return problems
