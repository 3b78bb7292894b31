"""Records of the players' games (version 3): whole shoes recorded and verified.

A seeded Chemin de Fer shoe with three seats (a banco, decisions on 5, the banker's
free cells, the bank passed) and a Banque shoe with an auction are played through the
table engines with the seats' client seeds and their seating's seal
(`tests.support.played`), recorded with every action, and checked by `baccara
verify`; then one decision, one card, the seed, an action the table never asked for
and a missing action each make it fail with a clear problem. What an attacker could
edit besides is in `tests/test_records_tampering.py`.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.played import SEATING, SEEDS, play_banque, play_chemin

from baccara.cli import main
from baccara.fair import FairError, FairShoe, fair_cards, rules_hash
from baccara.shoe import Shoe
from baccara.skill.actions import Act
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import BancoCalled, BankPassed, Phase
from baccara.skill.game_rules import game_table
from baccara.skill.records import (
    BanqueCoup,
    CheminCoup,
    action_from_json,
    game_rules_document,
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


def _decisions(record: dict[str, Any], hand: str, total: int | None = None) -> list[int]:
    """Indexes of the coups holding a decision of ``hand`` (at ``total``)."""
    return [
        i
        for i, coup in enumerate(record["coups"])
        if any(d["hand"] == hand and total in (None, d["total"]) for d in coup["decisions"])
    ]


def _first_action_at(record: dict[str, Any], phase: str) -> int:
    """The index of the first recorded action taken at ``phase`` (replayed on a fresh table)."""
    shoe = table_shoe_of(record)
    table = game_table(record["rules"], SEATING, shoe)
    for index, data in enumerate(record["actions"]):
        if table.phase.value == phase:
            return index
        table.apply(action_from_json(data))
    raise AssertionError(f"no action at {phase}")


def table_shoe_of(record: dict[str, Any]) -> Shoe:
    """The record's shoe, shuffled and burned as the table's was."""
    fair = FairShoe(server_seed=record["server_seed"], rules=record["rules"])
    return table_shoe(fair, SEEDS, SEATING)


def test_a_whole_chemin_shoe_with_three_seats_is_verified(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table, record = chemin_shoe
    assert record["version"] == 3 and record["client_seeds"] == [*SEEDS, SEATING.seal()]
    assert record["rules"]["variant"]["family"] == "chemin-de-fer"
    assert record["seats"] == [{"name": n, "chips": 500_000} for n in ("Ann", "Bob", "Cy")]
    assert record["end"] == {"chips": table.bankrolls, "commission": table.house}
    assert sum(record["end"]["chips"]) + table.house == 1_500_000
    coups = record["coups"]
    assert len(coups) > 50 and table.shoe.finished  # the whole shoe
    assert any(isinstance(e, BancoCalled) for e in table.log)
    assert any(c["banco"] for c in coups)
    assert any(isinstance(e, BankPassed) and e.reason == "passed" for e in table.log)
    assert len({c["banker"] for c in coups}) == 3  # the bank went round the table
    assert _decisions(record, "P", 5) and _decisions(record, "B")
    result = verify(record)
    assert result.ok, result.problems
    assert result.coups_checked == len(coups) == result.coups_in_shoe
    assert result.decisions_checked == len(record["actions"]) == len(table.actions)
    assert result.notes == ()
    path = tmp_path / "chemin.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == (
        f"OK: seed hash, rules hash and {len(coups)} chemin-de-fer coups match, with their "
        f"{len(table.actions)} decisions, to the shoe's end\n"
    )
    # The record reads back into the same coups.
    assert [CheminCoup.from_json(c).to_json() for c in coups] == coups


def test_the_chemin_shoe_is_the_seats_seeds_shoe_sealed_with_their_seating(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    table, record = chemin_shoe
    cards = fair_cards(record["server_seed"], [*SEEDS, SEATING.seal()], 6)
    assert table.shoe.cards == cards
    assert cards != fair_cards(record["server_seed"], list(reversed(SEEDS)), 6)
    assert cards != fair_cards(record["server_seed"], SEEDS, 6)


def _tampered(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def test_chemin_tampering_with_a_decision_a_card_or_the_seed_fails(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, record = chemin_shoe
    index = _decisions(record, "P", 5)[0]
    flipped = _tampered(record)
    decision = next(d for d in flipped["coups"][index]["decisions"] if d["hand"] == "P")
    decision["draws"] = not decision["draws"]
    result = verify(flipped)
    assert not result.ok and result.seed_hash_ok and result.rules_hash_ok
    assert [n for n, _ in result.coup_problems] == [index + 1]
    assert result.coup_problems[0][1].startswith("recorded decisions [{'seat'")

    action = _tampered(record)  # the punter's action itself: the replay deals another coup
    at = _first_action_at(record, "punter")
    said = action["actions"][at]
    said["act"] = "stand" if said["act"] == "draw" else "draw"
    result = verify(action)
    assert not result.ok and result.coup_problems
    assert "the replay deals" in result.coup_problems[0][1]
    number = result.coup_problems[0][0]
    assert result.coup_problems[-1] == (
        number,
        "the shoe is out of step from here: later coups not compared",
    )

    card = _tampered(record)
    text = card["coups"][3]["cards"]
    card["coups"][3]["cards"] = text.replace(text[2:4], "Kh" if text[2:4] != "Kh" else "Qh", 1)
    result = verify(card)
    assert not result.ok and [n for n, _ in result.coup_problems] == [4]
    assert result.coup_problems[0][1].startswith(f"recorded {card['coups'][3]['cards']}")

    seed = dict(record, server_seed="ab" * 32)
    result = verify(seed)
    assert not result.ok and not result.seed_hash_ok
    assert result.problems[0] == "the server seed does not hash to the published server_seed_hash"

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(flipped))
    assert main(["verify", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["family"] == "chemin-de-fer"
    assert out["coup_problems"][0]["coup"] == index + 1


def test_chemin_an_action_the_table_never_asked_for_is_a_fault(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    """A "decision" where the tableau binds: the engine never asks, so it refuses it."""
    _, record = chemin_shoe
    bound = _tampered(record)
    at = _first_action_at(record, "after")  # a coup is over: nobody draws now
    banker = bound["actions"][at]["seat"]
    bound["actions"].insert(at, {"act": "banker_draw", "seat": banker})
    result = verify(bound)
    assert not result.ok
    assert result.problems[-2:] == (
        f"action {at + 1} ({SEATING.names[banker]} draws): the banker chooses only in a "
        "free cell of the tableau, when it is his turn",
        "the replay stops here",
    )


def test_chemin_a_missing_decision_stops_the_replay(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    at = _first_action_at(record, "punter")
    missing = _tampered(record)
    del missing["actions"][at]  # the punter's choice on 5: the next action comes too soon
    after = record["actions"][at + 1]
    name = SEATING.names[after["seat"]]
    result = verify(missing)
    assert not result.ok
    assert result.problems[-2:] == (
        f"action {at + 1} ({name} keeps the bank): it is not {name}'s turn to act",
        "the replay stops here",
    )
    assert after["act"] == "keep_bank"


def test_chemin_other_seats_and_money_are_checked(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    index = _decisions(record, "B")[0]
    wrong = _tampered(record)
    decision = next(d for d in wrong["coups"][index]["decisions"] if d["hand"] == "B")
    decision["seat"] = (decision["seat"] + 1) % 3
    assert verify(wrong).coup_problems[0][1].startswith("recorded decisions")
    bank = _tampered(record)
    bank["coups"][0]["stakes"] = [[1, bank["coups"][0]["bank"] + 1]]
    assert verify(bank).coup_problems[0][1].startswith("recorded stakes [[1, ")


def test_a_whole_banque_shoe_with_an_auction_is_verified_and_tampering_fails(
    banque_shoe: tuple[BanqueTable, dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table, record = banque_shoe
    coups = record["coups"]
    assert record["rules"]["variant"]["family"] == "banque" and len(coups) >= 15
    assert table.shoe_done
    assert _decisions(record, "L", 5) and _decisions(record, "R", 5) and _decisions(record, "B")
    result = verify(record)
    assert result.ok, result.problems
    assert [BanqueCoup.from_json(c).to_json() for c in coups] == coups
    path = tmp_path / "banque.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    assert "banque coups match" in capsys.readouterr().out

    index = _decisions(record, "B")[0]
    flipped = _tampered(record)
    decision = next(d for d in flipped["coups"][index]["decisions"] if d["hand"] == "B")
    decision["draws"] = not decision["draws"]
    result = verify(flipped)
    assert not result.ok and result.coup_problems[0][0] == index + 1
    seed = dict(record, server_seed="cd" * 32)
    assert not verify(seed).seed_hash_ok
    card = _tampered(record)
    card["coups"][0]["cards"] = card["coups"][0]["cards"].replace("L:", "L:As,", 1)
    assert verify(card).coup_problems[0][0] == 1


def test_banque_a_decision_on_an_unstaked_tableau_is_a_fault(
    banque_shoe: tuple[BanqueTable, dict[str, Any]],
) -> None:
    _, record = banque_shoe
    bound = _tampered(record)
    index, coup = next(
        (i, c) for i, c in enumerate(bound["coups"]) if c["decisions"] and not c["stakes"]["R"]
    )
    right = BanqueCoup.from_json(coup).right_cards
    total = (right[0].points + right[1].points) % 10
    coup["decisions"].insert(0, {"seat": 1, "hand": "R", "total": total, "draws": True})
    problems = [p for n, p in verify(bound).coup_problems if n == index + 1]
    assert problems and problems[0].startswith("recorded decisions"), problems


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"coups": []}, "the record holds no coups"),
        ({"version": 4}, "unknown record version 4"),
        ({"version": 2}, "version 2 holds only the free decisions"),
        ({"actions": [{"act": "fly"}]}, "unknown act"),
        ({"seats": [{"name": "Ann", "chips": 1}]}, "two seats or more"),
        ({"end": {"chips": [1, 2, 3]}}, "the house's commission"),
        ({"coups": [{"cards": "P:As"}]}, "expected the hands P B in order"),
        ({"coups": [{"cards": "P:As,Zz B:2d,3d"}]}, "bad cards"),
        (
            {"coups": [{"cards": "P:As,2d B:3d,4d", "decisions": [{"hand": "PB"}]}]},
            "bad decision",  # read before the other fields
        ),
    ],
)
def test_bad_records_are_refused_in_one_line(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
    change: dict[str, Any],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = dict(chemin_shoe[1], **change)
    with pytest.raises(FairError, match=message):
        verify(doc)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_a_players_record_names_a_players_game() -> None:
    rules = game_rules_document(find_variant("chemin-de-fer"))
    rules["variant"]["family"] = "punto-banco"
    doc = {
        "version": 3,
        "server_seed": "00" * 32,
        "server_seed_hash": "",
        "rules": rules,
        "rules_hash": "",
        "coups": [{"cards": "P:As,2d B:3d,4d"}],
        **SEATING.to_json(),
        "actions": [],
        "end": {"chips": [0, 0, 0], "commission": 0},
    }
    with pytest.raises(FairError, match="is a players' game's"):
        verify(doc)
    with pytest.raises(ValueError, match="a record with decisions"):
        game_rules_document(find_variant("punto-banco"))


def test_records_of_the_unplayed_tableau_and_the_house_rules() -> None:
    """The document commits to the house tableau, the banker's freedom and the shoe."""
    doc = game_rules_document(find_variant("banque"))
    assert doc["variant"]["house"] is None and doc["variant"]["free_banker"] is True
    assert doc["shoe"]["burn"] is False and doc["shoe"]["decks"] == 3
    scarne = game_rules_document(find_variant("chemin-de-fer"), house="scarne")
    assert scarne["variant"]["house"] == "scarne" and scarne["shoe"]["burn"] is True
    assert Half("L").word == "left"


def test_the_example_of_docs_fair_md_is_this_shoe(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "fair.md").read_text()
    _, record = chemin_shoe
    result = verify(record)
    line = (
        f"OK: seed hash, rules hash and {result.coups_checked} chemin-de-fer coups match, "
        f"with their {result.decisions_checked} decisions, to the shoe's end"
    )
    assert line in text
    assert record["server_seed_hash"][:8] in text and record["rules_hash"][:8] in text
    for coup in record["coups"][:1]:
        assert f'{{"cards": "{coup["cards"]}", "banker": {coup["banker"]}' in text


@pytest.mark.parametrize("game", [play_chemin, play_banque], ids=["chemin", "banque"])
def test_a_shoe_where_the_punter_always_speaks_is_verified(game: Any) -> None:
    """The online tables' option (issue 23, finding 7): the punter answers in every coup,
    his bound answers are actions (not free decisions), and the rules say so, so the
    replay asks him too; the rules without it (a record made to look older) fail."""
    table, record = game(punter_speaks=True)
    assert record["rules"]["variant"]["punter_speaks"] is True and table.punter_speaks
    result = verify(record)
    assert result.ok, result.problems
    punters = [a for a in record["actions"] if a["act"] in ("draw", "stand")]
    free = [d for c in record["coups"] for d in c["decisions"] if d["hand"] != "B"]
    assert len(punters) > 2 * len(free) > 0  # most of his answers were bound
    quiet = _tampered(record)
    quiet["rules"]["variant"]["punter_speaks"] = False
    quiet["rules_hash"] = rules_hash(quiet["rules"])
    result = verify(quiet)
    assert not result.ok and result.problems[-1] == "the replay stops here"


def test_a_bound_punter_answering_against_the_tableau_is_a_fault() -> None:
    _, record = play_chemin(punter_speaks=True)
    wrong = _tampered(record)
    table = game_table(record["rules"], SEATING, table_shoe_of(record))
    at = 0
    while not (table.phase is Phase.PUNTER and table.punter_total != 5):
        table.apply(action_from_json(record["actions"][at]))
        at += 1
    total, said = table.punter_total, wrong["actions"][at]
    said["act"] = "stand" if said["act"] == "draw" else "draw"
    name = SEATING.names[said["seat"]]
    rule = "draw on 0-4" if total < 5 else "stand on 6 or 7"
    assert verify(wrong).problems[-2:] == (
        f"action {at + 1} ({name} {Act(said['act']).word}): the punter has {total}: the "
        f"tableau has him {rule} (he is free only on 5)",
        "the replay stops here",
    )
