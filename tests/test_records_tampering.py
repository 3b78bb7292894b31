"""A players' game's record edited as an attacker would: each edit is found.

Issue 23, finding 10: `baccara verify` accepted a record whose last coups were dropped,
and one whose bank (both games) or Banque stake was changed, because a version 2 record
held only the free decisions. A version 3 record holds the seating (sealed into the
shuffle), every action and the chips at the end; the replay on the engine gives every
coup and amount, and the shoe must end where the record does. Each test edits a real
record (`tests.support.played`) one way: dropped coups, a bank, a stake, the seats'
names, their chips, the minimum, the client seeds' order, the seal, the rules'
commitment to the seal, the commission, the chips at the end, an action's amount, a
result, a seat; and the ends a record may have.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.played import SEATING, SEEDS, play_banque, play_chemin

from baccara.cli import main
from baccara.fair import FairError, FairShoe, rules_hash
from baccara.skill.actions import Act, Action
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin import CheminTable
from baccara.skill.game_rules import Seating, game_table
from baccara.skill.records import (
    action_from_json,
    game_record,
    new_game_shoe,
    table_coups,
    table_shoe,
)
from baccara.skill.replay import verify
from baccara.variants import find_variant


@pytest.fixture(scope="module")
def chemin_shoe() -> tuple[CheminTable, dict[str, Any]]:
    return play_chemin()


@pytest.fixture(scope="module")
def banque_shoe() -> tuple[BanqueTable, dict[str, Any]]:
    return play_banque()


def _tampered(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def _replayed(record: dict[str, Any], actions: int) -> CheminTable | BanqueTable:
    """The record's table after its first ``actions`` actions."""
    fair = FairShoe(server_seed=record["server_seed"], rules=record["rules"])
    table = game_table(record["rules"], SEATING, table_shoe(fair, SEEDS, SEATING))
    for data in record["actions"][:actions]:
        table.apply(action_from_json(data))
    return table


def test_chemin_a_record_missing_its_last_coups_fails(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    short = _tampered(record)
    del short["coups"][-3:]
    result = verify(short)
    assert not result.ok and result.seed_hash_ok and result.rules_hash_ok
    assert result.problems == (
        f"the record holds {len(short['coups'])} coups, the replay "
        f"gives {len(record['coups'])} coups",
    )

    # the actions dropped too, and the chips at the end made to match: the shoe is not over
    kept = next(
        n
        for n in range(len(record["actions"]))
        if len(table_coups(_replayed(record, n))) == len(short["coups"])
    )
    table = _replayed(record, kept)
    short["actions"] = record["actions"][:kept]
    short["end"] = {"chips": table.bankrolls, "commission": table.house}
    result = verify(short)
    assert not result.ok
    assert result.problems == (
        f"the record stops before the shoe's end: the table waits for "
        f"{SEATING.names[table.actor or 0]} ({table.phase.value} phase)",
    )


def test_chemin_a_changed_bank_fails(chemin_shoe: tuple[CheminTable, dict[str, Any]]) -> None:
    _, record = chemin_shoe
    index = next(i for i, c in enumerate(record["coups"]) if not c["banco"])
    bank = _tampered(record)
    bank["coups"][index]["bank"] += 10_000
    result = verify(bank)
    assert not result.ok
    given, real = bank["coups"][index]["bank"], record["coups"][index]["bank"]
    assert result.coup_problems == (
        (index + 1, f"recorded bank {given / 100:,.2f}, the replay gives {real / 100:,.2f}"),
    )


def test_banque_a_changed_bank_or_stake_fails(
    banque_shoe: tuple[BanqueTable, dict[str, Any]],
) -> None:
    _, record = banque_shoe
    bank = _tampered(record)
    bank["coups"][2]["bank"] += 10_000
    result = verify(bank)
    assert not result.ok
    assert [n for n, _ in result.coup_problems] == [3]
    assert result.coup_problems[0][1].startswith("recorded bank ")

    stake = _tampered(record)
    index, coup = next(
        (i, c)
        for i, c in enumerate(stake["coups"])
        if c["stakes"]["L"] and sum(a for t in "LR" for _, a in c["stakes"][t]) + 100 <= c["bank"]
    )
    largest = max(coup["stakes"]["L"], key=lambda pair: pair[1])
    largest[1] += 100  # still the largest, still covered by the bank
    result = verify(stake)
    assert not result.ok
    assert [n for n, _ in result.coup_problems] == [index + 1]
    assert result.coup_problems[0][1].startswith("recorded stakes {'L': [[")


SEAL_BROKEN = (
    "the seats, their chips at the start or the minimum are not the ones the shoe was "
    "shuffled with (the last client seed seals them)"
)


@pytest.mark.parametrize(
    "edit",
    [
        lambda r: r["seats"][0].update(name="Eve"),
        lambda r: r["seats"].reverse(),
        lambda r: r["seats"][1].update(chips=r["seats"][1]["chips"] + 1_000),
        lambda r: r.update(minimum=r["minimum"] + 100),
    ],
    ids=["a name", "the seat order", "chips at the start", "the minimum"],
)
def test_the_seating_is_sealed_in_the_shuffle(
    chemin_shoe: tuple[CheminTable, dict[str, Any]], edit: Any
) -> None:
    _, record = chemin_shoe
    changed = _tampered(record)
    edit(changed)
    result = verify(changed)
    assert not result.ok and result.seed_hash_ok and result.rules_hash_ok
    assert SEAL_BROKEN in result.problems
    # sealing the edited seating instead deals another shoe: the coups (or turns) differ
    changed["client_seeds"][-1] = Seating.from_json(changed).seal()
    result = verify(changed)
    assert not result.ok and SEAL_BROKEN not in result.problems


def test_the_client_seeds_their_order_and_the_seal(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    swapped = _tampered(record)
    seeds = swapped["client_seeds"]
    seeds[0], seeds[1] = seeds[1], seeds[0]
    result = verify(swapped)
    assert not result.ok and "the replay deals" in result.coup_problems[0][1]

    unsealed = _tampered(record)
    unsealed["client_seeds"].pop()
    result = verify(unsealed)
    assert "3 client seeds for 3 seats: one a seat, then the seal" in result.problems

    # the rules' commitment to the seal dropped (the rules hash made again to match)
    downgraded = _tampered(record)
    del downgraded["rules"]["record"]
    downgraded["rules_hash"] = rules_hash(downgraded["rules"])
    result = verify(downgraded)
    assert not result.ok and "4 client seeds for 3 seats" in result.problems
    assert downgraded["rules_hash"] != record["rules_hash"]  # the one published before


def test_an_older_shoe_without_the_seal_verifies_with_a_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, record = play_chemin(sealed=False)
    assert "record" not in record["rules"] and record["client_seeds"] == SEEDS
    result = verify(record)
    assert result.ok, result.problems
    assert result.notes == (
        "the seats and their chips at the start are not sealed in this older shoe's "
        "shuffle: compare them with the table's",
    )
    path = tmp_path / "older.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.endswith(f"  note: {result.notes[0]}\n")


def test_the_commission_the_chips_at_the_end_and_the_results(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    table, record = chemin_shoe
    commission = _tampered(record)  # the rules say 10%, the hash made again to match
    commission["rules"]["variant"]["commission"] = "1/10"
    commission["rules_hash"] = rules_hash(commission["rules"])
    result = verify(commission)
    assert not result.ok and result.rules_hash_ok
    assert any(p.startswith("recorded commission ") for p in result.problems)

    chips = _tampered(record)
    chips["end"]["chips"][0] += 100
    chips["end"]["chips"][1] -= 100  # the total still adds up
    result = verify(chips)
    ann, bob = table.bankrolls[0], table.bankrolls[1]
    assert result.problems == (
        f"recorded Ann's chips at the end {(ann + 100) / 100:,.2f}, "
        f"the replay gives {ann / 100:,.2f}",
        f"recorded Bob's chips at the end {(bob - 100) / 100:,.2f}, "
        f"the replay gives {bob / 100:,.2f}",
    )
    taken = _tampered(record)
    taken["end"]["commission"] -= 1
    assert not verify(taken).ok

    result_changed = _tampered(record)
    coup = result_changed["coups"][5]
    coup["result"] = "P" if coup["result"] != "P" else "B"
    assert verify(result_changed).coup_problems == (
        (
            6,
            f"recorded result {coup['result']!r}, the replay gives {record['coups'][5]['result']!r}",
        ),
    )
    seat = _tampered(record)
    seat["coups"][5]["banker"] = (seat["coups"][5]["banker"] + 1) % 3
    assert verify(seat).coup_problems[0][1].startswith("recorded banker ")


def test_an_action_s_amount_changed(chemin_shoe: tuple[CheminTable, dict[str, Any]]) -> None:
    _, record = chemin_shoe
    changed = _tampered(record)
    at = next(i for i, a in enumerate(changed["actions"]) if a["act"] == "open_bank")
    changed["actions"][at]["amount"] += 1_000
    result = verify(changed)
    assert not result.ok
    assert result.coup_problems[0][1].startswith("recorded bank ")


def test_a_banque_shoe_may_end_at_an_auction_nobody_bid_at() -> None:
    """The one early end: after a banker retires nobody bids, and the shoe ends there
    (the server's rule). A record cannot prove nobody bid, so verify says so; a record
    that stops with bids on the table is not whole."""
    fair = new_game_shoe(find_variant("banque"), source=lambda n: bytes([7]) * n)
    table = game_table(fair.rules, SEATING, table_shoe(fair, SEEDS, SEATING))
    assert isinstance(table, BanqueTable)
    table.apply(Action(act=Act.BID, seat=0, amount=10_000))
    table.apply(Action(act=Act.CLOSE_AUCTION, seat=None))
    table.apply(Action(act=Act.STAKE, seat=1, amount=1_000, tableau="L"))
    table.apply(Action(act=Act.STAKE, seat=2, amount=1_000, tableau="R"))
    while table.phase is not BanquePhase.STAKES:
        action = table.default_action()
        assert action is not None
        table.apply(action)
    table.apply(Action(act=Act.RETIRE, seat=0))
    assert table.phase is BanquePhase.AUCTION and not table.bids
    result = verify(game_record(fair, table))
    assert result.ok, result.problems
    assert result.notes == ("the shoe ended at an auction nobody bid at",)
    table.apply(Action(act=Act.BID, seat=1, amount=5_000))
    result = verify(game_record(fair, table))
    assert result.problems == (
        "the record stops before the shoe's end: the table waits for the auction to close "
        "(auction phase)",
    )


def test_a_version_2_record_and_a_players_shoe_as_version_1_are_refused(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    with pytest.raises(FairError, match="version 2 holds only the free decisions"):
        verify(dict(record, version=2))
    coups = [c["cards"] for c in record["coups"]]
    with pytest.raises(FairError, match="a chemin-de-fer shoe is recorded with its actions"):
        verify(dict(record, version=1, coups=coups))
