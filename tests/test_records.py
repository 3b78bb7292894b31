"""Records with decisions (version 2): whole players' shoes recorded, verified and tampered with.

A seeded Chemin de Fer shoe with three seats (a banco, decisions on 5, the banker's
free cells, the bank passed) and a Banque shoe with an auction are played through the
table engines with the seats' client seeds, recorded from the tables' events, and
checked by `baccara verify`; then one decision, one card, the seed, a decision in a
bound cell and a missing decision each make it fail with a clear problem.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from baccara.cli import main
from baccara.fair import FairError, fair_cards
from baccara.skill.actions import Act, Action
from baccara.skill.banque import BanqueTable, Tableau
from baccara.skill.banque import Phase as BanquePhase
from baccara.skill.chemin import BancoCalled, BankPassed, CheminTable, Phase
from baccara.skill.records import (
    BanqueCoup,
    CheminCoup,
    banque_coups,
    chemin_coups,
    game_record,
    game_rules_document,
    new_game_shoe,
    table_shoe,
)
from baccara.skill.replay import verify
from baccara.variants import find_variant

SEEDS = ["ann: lucky 7", "bob", "cy-2026"]


def play_chemin(seed: int = 14) -> tuple[CheminTable, dict[str, Any]]:
    """A whole shoe, three seats; scripted choices, some left to the clock's default."""
    fair = new_game_shoe(find_variant("chemin-de-fer"), source=lambda n: bytes([seed]) * n)
    table = CheminTable(
        names=("Ann", "Bob", "Cy"), bankrolls=(500_000,) * 3, shoe=table_shoe(fair, SEEDS)
    )
    rng = random.Random(seed)
    while table.phase is not Phase.OVER:
        seat = table.actor
        assert seat is not None
        if rng.random() < 0.15:  # the player's clock ran out
            action = table.default_action()
            assert action is not None
            table.apply(action)
        elif table.phase is Phase.BANK:
            table.apply(Action(act=Act.OPEN_BANK, seat=seat, amount=1_000 * rng.randint(1, 5)))
        elif table.phase is Phase.AFTER:
            act = Act.PASS_BANK if rng.random() < 0.4 else Act.KEEP_BANK
            table.apply(Action(act=act, seat=seat))
        elif table.phase is Phase.STAKES:
            if rng.random() < 0.3 and table.can_banco(seat):
                table.apply(Action(act=Act.BANCO, seat=seat))
            else:
                amount = min(table.bank - table.covered, 100 * rng.randint(0, 20))
                table.apply(Action(act=Act.STAKE, seat=seat, amount=amount))
        elif table.phase is Phase.PUNTER:
            table.apply(Action(act=rng.choice([Act.DRAW, Act.STAND]), seat=seat))
        else:
            table.apply(Action(act=rng.choice([Act.BANKER_DRAW, Act.BANKER_STAND]), seat=seat))
    return table, game_record(fair, chemin_coups(table.log))


def play_banque(seed: int = 15) -> tuple[BanqueTable, dict[str, Any]]:
    """A whole Banque shoe, three seats, the bank auctioned (and again if the banker retires)."""
    fair = new_game_shoe(find_variant("banque"), source=lambda n: bytes([seed]) * n)
    table = BanqueTable(
        names=("Ann", "Bob", "Cy"), bankrolls=(500_000,) * 3, shoe=table_shoe(fair, SEEDS)
    )
    rng = random.Random(seed)
    while table.phase is not BanquePhase.OVER:
        if table.phase is BanquePhase.AUCTION:
            for bidder in rng.sample(range(3), 3):
                best = max(table.bids.values(), default=0)
                table.apply(Action(act=Act.BID, seat=bidder, amount=best + 10_000))
            table.apply(Action(act=Act.CLOSE_AUCTION, seat=None))
            continue
        seat = table.actor
        assert seat is not None
        if table.phase is BanquePhase.STAKES and table.can_retire() and rng.random() < 0.05:
            table.apply(Action(act=Act.RETIRE, seat=table.banker))
        elif table.phase is BanquePhase.STAKES:
            amount = min(table.bank - table.covered, 100 * rng.randint(1, 30))
            tableau = rng.choice(["L", "R"])
            table.apply(Action(act=Act.STAKE, seat=seat, amount=amount, tableau=tableau))
        elif rng.random() < 0.15:
            action = table.default_action()
            assert action is not None
            table.apply(action)
        elif table.phase is BanquePhase.PUNTER:
            table.apply(Action(act=rng.choice([Act.DRAW, Act.STAND]), seat=seat))
        else:
            table.apply(Action(act=rng.choice([Act.BANKER_DRAW, Act.BANKER_STAND]), seat=seat))
    return table, game_record(fair, banque_coups(table.log))


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


def test_a_whole_chemin_shoe_with_three_seats_is_verified(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table, record = chemin_shoe
    assert record["version"] == 2 and record["client_seeds"] == SEEDS
    assert record["rules"]["variant"]["family"] == "chemin-de-fer"
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
    assert result.decisions_checked == sum(len(c["decisions"]) for c in coups)
    path = tmp_path / "chemin.json"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK: seed hash, rules hash and {len(coups)} chemin-de-fer coups match")
    # The record reads back into the same coups.
    assert [CheminCoup.from_json(c).to_json() for c in coups] == coups


def test_the_chemin_shoe_is_the_seats_seeds_shoe(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    table, record = chemin_shoe
    cards = fair_cards(record["server_seed"], SEEDS, 6)
    assert table.shoe.cards == cards
    assert cards != fair_cards(record["server_seed"], list(reversed(SEEDS)), 6)


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
    assert result.coup_problems[0][0] == index + 1
    assert "the shoe deals" in result.coup_problems[0][1]
    assert "with these decisions" in result.problems[0]
    if len(result.coup_problems) > 1:  # a card more or less: the rest is not compared
        assert result.coup_problems[1] == (
            index + 1,
            "the shoe is out of step from here: later coups not checked",
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


def test_chemin_a_decision_in_a_bound_cell_is_a_fault(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    bound = _tampered(record)
    index, coup = next(
        (i, c)
        for i, c in enumerate(bound["coups"])
        if c["cards"].startswith("P:") and not c["decisions"] and len(c["cards"].split()[0]) > 9
    )  # the punter drew, bound (0-4): no decision was his
    total = sum(CheminCoup.from_json(coup).punter_cards[i].points for i in range(2)) % 10
    coup["decisions"] = [{"seat": coup["punter"], "hand": "P", "total": total, "draws": True}]
    result = verify(bound)
    assert not result.ok
    assert result.coup_problems == (
        (
            index + 1,
            f"seat {coup['punter']} (P) draws on {total}: a decision in a bound cell of the "
            "french tableau (it says draw), or one the dealer never asked for",
        ),
    )


def test_chemin_a_missing_decision_stops_the_replay(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    index = _decisions(record, "P", 5)[0]
    missing = _tampered(record)
    missing["coups"][index]["decisions"] = []
    result = verify(missing)
    assert not result.ok
    assert result.coup_problems[0] == (
        index + 1,
        "the punter must choose on 5: no decision recorded",
    )
    assert result.coup_problems[-1] == (index + 1, "the replay stops here")


def test_chemin_other_seats_and_money_are_checked(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    _, record = chemin_shoe
    index = _decisions(record, "B")[0]
    wrong = _tampered(record)
    decision = next(d for d in wrong["coups"][index]["decisions"] if d["hand"] == "B")
    decision["seat"] = (decision["seat"] + 1) % 3
    assert "the banker's seat is" in verify(wrong).coup_problems[0][1]
    bank = _tampered(record)
    bank["coups"][0]["stakes"] = [[1, bank["coups"][0]["bank"] + 1]]
    assert "the stakes cover more than the bank" in [p for _, p in verify(bank).coup_problems]


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
    assert any("a decision in a bound cell of the rule" in p for p in problems), problems


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"coups": []}, "the record holds no coups"),
        ({"version": 3}, "unknown record version 3"),
        ({"coups": [{"cards": "P:As"}]}, "expected the hands P B in order"),
        ({"coups": [{"cards": "P:As,Zz B:2d,3d"}]}, "bad cards"),
        (
            {"coups": [{"cards": "P:As,2d B:3d,4d", "decisions": [{"hand": "PB"}]}]},
            "bad decision",  # read before the other fields
        ),
    ],
)
def test_bad_version_2_records_are_refused_in_one_line(
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


def test_a_version_2_record_names_a_players_game() -> None:
    rules = game_rules_document(find_variant("chemin-de-fer"))
    rules["variant"]["family"] = "punto-banco"
    doc = {
        "version": 2,
        "server_seed": "00" * 32,
        "server_seed_hash": "",
        "rules": rules,
        "rules_hash": "",
        "coups": [{"cards": "P:As,2d B:3d,4d"}],
    }
    with pytest.raises(FairError, match="records a players' game"):
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
    assert Tableau("L").word == "left"


def test_the_example_of_docs_fair_md_is_this_shoe(
    chemin_shoe: tuple[CheminTable, dict[str, Any]],
) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "fair.md").read_text()
    _, record = chemin_shoe
    result = verify(record)
    line = (
        f"OK: seed hash, rules hash and {result.coups_checked} chemin-de-fer coups match, "
        f"with their {result.decisions_checked} decisions"
    )
    assert line in text
    assert record["server_seed_hash"][:8] in text and record["rules_hash"][:8] in text
    for coup in record["coups"][:1]:
        assert f'{{"cards": "{coup["cards"]}", "banker": {coup["banker"]}' in text
