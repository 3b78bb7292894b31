"""Provably fair shoes: the test vector of docs/fair.md, verify, and a chi-square test."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chi2

from baccara.cards import RANKS, full_deck
from baccara.cli import main
from baccara.coup import deal_shoe
from baccara.fair import (
    FairError,
    FairShoe,
    HmacStream,
    ShoeRecord,
    client_seed_bytes,
    fair_cards,
    fair_shoe,
    rules_document,
    rules_hash,
    seed_hash,
    verify,
)
from baccara.shoe import ShoeSettings
from baccara.variants import PUNTO_BANCO, find_variant

SEED = bytes(range(32)).hex()
DOCS = Path(__file__).resolve().parent.parent / "docs" / "fair.md"


def test_vector_matches_docs() -> None:
    """Every value of the test vector table in docs/fair.md is what the code gives."""
    text = DOCS.read_text()
    key = bytes(range(32))
    client = client_seed_bytes(["alice", "bob"])
    assert client == b"alice\nbob"
    block0 = hmac.new(key, client + bytes(8), hashlib.sha256).hexdigest()
    stream = HmacStream(key, client)
    assert stream.block(0).hex() == block0
    assert f"`{block0}`" in text
    assert [stream.randbelow(n) for n in (416, 415, 414, 413)] == [199, 266, 186, 62]
    assert "| 199, 266, 186, 62 |" in text
    hashed = seed_hash(SEED)
    assert hashed == hashlib.sha256(key).hexdigest()
    assert f"`{hashed}`" in text
    first = " ".join(str(c) for c in fair_cards(SEED, ["alice", "bob"], 8)[:12])
    assert f"`{first}`" in text
    doc = rules_document(PUNTO_BANCO, ShoeSettings())
    assert f"`{rules_hash(doc)}`" in text
    coups = list(deal_shoe(fair_shoe(SEED, ["alice", "bob"], ShoeSettings())))
    assert f"| {len(coups)}, the first `{coups[0]}`" in text


def test_shuffle_is_a_permutation_and_depends_on_every_seed() -> None:
    cards = fair_cards(SEED, ["x"], 8)
    assert Counter(cards) == Counter(full_deck() * 8)
    assert fair_cards(SEED, ["x"], 8) == cards
    assert fair_cards(SEED, ["y"], 8) != cards
    assert fair_cards(SEED, ["x", "y"], 8) != cards
    assert fair_cards("ff" + SEED[2:], ["x"], 8) != cards


def test_randbelow_rejects_the_biased_tail() -> None:
    """Words at or above 2**32 - 2**32 % m are rejected, never folded by modulo."""
    stream = HmacStream(b"k" * 32, b"c")
    words = [int.from_bytes(stream.block(0)[i : i + 4], "big") for i in range(0, 32, 4)]
    bound = 3 << 30  # limit = 3 * 2**30: about one word in four is rejected
    limit = (1 << 32) - (1 << 32) % bound
    expected = [w % bound for w in words if w < limit]
    fresh = HmacStream(b"k" * 32, b"c")
    got = [fresh.randbelow(bound) for _ in expected]
    assert got == expected
    last = max(i for i, w in enumerate(words) if w < limit)
    assert fresh.rejected == sum(1 for w in words[:last] if w >= limit)
    assert fresh.rejected > 0


@pytest.mark.parametrize(
    ("seeds", "message"),
    [
        (["ok", ""], "1 to 64 characters"),
        (["x" * 65], "1 to 64 characters"),
        (["tab\there"], "printable ASCII"),
        (["é"], "printable ASCII"),
    ],
)
def test_bad_client_seeds(seeds: list[str], message: str) -> None:
    with pytest.raises(FairError, match=message):
        client_seed_bytes(seeds)


@pytest.mark.parametrize("seed", ["", "zz" * 32, "00" * 31, "00" * 33])
def test_bad_server_seed(seed: str) -> None:
    with pytest.raises(FairError, match="64 hex digits"):
        seed_hash(seed)


def _record(variant: str = "ez", seeds: tuple[str, ...] = ("p1", "p2")) -> ShoeRecord:
    fs = FairShoe.new(find_variant(variant), ShoeSettings(decks=8), source=lambda n: b"\x07" * n)
    for seed in seeds:
        fs.add_client_seed(seed)
    coups = [c.notation() for c in deal_shoe(fs.shoe())]
    return fs.record(coups)


def test_verify_accepts_the_real_record() -> None:
    record = _record()
    result = verify(record)
    assert result.ok, result.problems
    assert result.coups_checked == result.coups_in_shoe == len(record.coups)


def test_a_record_missing_its_last_coups_fails() -> None:
    """A house shoe ends at the cut card and the last-hand rule only: a record that stops
    before is not the whole shoe (issue 23, finding 10: it was accepted)."""
    doc = _record().to_json()
    dealt = len(doc["coups"])
    for kept in (dealt - 1, 10):
        partial = verify(dict(doc, coups=doc["coups"][:kept]))
        assert not partial.ok and partial.seed_hash_ok and partial.rules_hash_ok
        assert (partial.coups_checked, partial.coups_in_shoe) == (kept, dealt)
        assert partial.problems == (
            f"the record stops after coup {kept}: the shoe deals {dealt} coups, "
            "to the cut card and the last hand",
        )


def test_verify_finds_every_kind_of_tampering() -> None:
    doc = _record().to_json()
    swapped = dict(doc, coups=[doc["coups"][1], doc["coups"][0], *doc["coups"][2:]])
    result = verify(swapped)
    assert not result.ok
    assert result.problems[0].startswith("coup 1: recorded ")
    other_seed = dict(doc, server_seed="08" * 32)
    result = verify(other_seed)
    assert not result.seed_hash_ok and not result.ok
    changed_rules = json.loads(json.dumps(doc))
    changed_rules["rules"]["variant"]["tie_pays"] = 9
    result = verify(changed_rules)
    assert result.seed_hash_ok and not result.rules_hash_ok and not result.ok
    extra_seed = dict(doc, client_seeds=[*doc["client_seeds"], "p3"])
    assert not verify(extra_seed).ok
    too_many = dict(doc, coups=[*doc["coups"], doc["coups"][0]])
    assert "the shoe deals only" in verify(too_many).problems[-1]


def test_client_seeds_seal_when_the_shoe_is_shuffled() -> None:
    fs = FairShoe.new(PUNTO_BANCO, ShoeSettings(decks=1), source=lambda n: bytes(n))
    fs.add_client_seed("early")
    fs.shoe()
    with pytest.raises(FairError, match="already shuffled"):
        fs.add_client_seed("late")
    commitment = fs.commitment()
    assert commitment["server_seed_hash"] == seed_hash("00" * 32)
    assert commitment["rules_hash"] == rules_hash(commitment["rules"])
    assert "server_seed" not in commitment


def test_cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _record("punto-banco").to_json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc))
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.startswith(f"OK: seed hash, rules hash and {len(doc['coups'])}")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(doc, coups=list(reversed(doc["coups"])))))
    assert main(["verify", str(bad), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False
    assert out["seed_hash_ok"] is True
    assert out["problems"]
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["verify", str(broken)]) == 2
    assert "not JSON" in capsys.readouterr().err
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps({"coups": []}))
    assert main(["verify", str(missing)]) == 2
    assert "missing server_seed" in capsys.readouterr().err


def _chi_square(shoes: int, decks: int) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom of position x rank over many shoes."""
    size = 52 * decks
    counts = [[0] * 13 for _ in range(size)]
    for number in range(shoes):
        seed = hashlib.sha256(f"chi-square shoe {number}".encode()).hexdigest()
        for position, card in enumerate(fair_cards(seed, [], decks)):
            counts[position][card.rank.order] += 1
    expected = shoes / 13  # every rank is 1/13 of any shoe
    stat = sum((c - expected) ** 2 / expected for row in counts for c in row)
    return stat, size * (len(RANKS) - 1)


@pytest.mark.slow
def test_chi_square_position_against_rank(full_size: bool) -> None:
    """No position of the shoe favours a rank (p > 0.001; full size with --slow)."""
    shoes, decks = (20_000, 8) if full_size else (1_500, 1)
    stat, dof = _chi_square(shoes, decks)
    p_value = float(chi2.sf(stat, dof))
    assert p_value > 0.001, (stat, dof, p_value)


def test_chi_square_detects_a_biased_shuffle() -> None:
    """The same statistic flags the classic biased shuffle (j drawn from the whole deck)."""
    shoes, size = 3_000, 12
    deck = list(range(size))
    counts = [[0] * size for _ in range(size)]
    for number in range(shoes):
        stream = HmacStream(hashlib.sha256(str(number).encode()).digest(), b"bias")
        cards = deck[:]
        for i in range(size - 1, 0, -1):
            j = stream.randbelow(size)  # wrong: should be randbelow(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        for position, card in enumerate(cards):
            counts[position][card] += 1
    expected = shoes / size
    stat = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert float(chi2.sf(stat, (size - 1) ** 2)) < 1e-6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 99}, "unknown record version 99"),
        ({"version": "1"}, "unknown record version '1'"),
        ({"coups": []}, "the record holds no coups"),
    ],
)
def test_verify_refuses_an_unknown_version_and_an_empty_record(
    change: dict[str, object], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both were accepted (exit 0) before record version 2; now one line and exit 2."""
    doc = dict(_record("punto-banco").to_json(), **change)
    with pytest.raises(FairError, match=message):
        verify(doc)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_record_without_a_version_is_version_1() -> None:
    doc = _record().to_json()
    del doc["version"]
    assert verify(doc).ok


def test_a_players_game_shuffles_with_every_seat_seed_in_seat_order() -> None:
    """Same seats' seeds, same shoe; another order or another seed, another shoe."""
    chemin = find_variant("chemin-de-fer")

    def shoe_of(seeds: list[str], added: tuple[str, ...] = ()) -> tuple[str, ...]:
        fs = FairShoe.new(chemin, ShoeSettings(decks=6), source=lambda n: b"\x2a" * n)
        for seed in added:
            fs.add_client_seed(seed)
        return tuple(str(c) for c in fs.seat_shoe(seeds).cards)

    first = shoe_of(["ann-7", "bob", "cy"])
    assert shoe_of(["ann-7", "bob", "cy"]) == first
    assert shoe_of(["ann-7", "bob", "cy"], added=("early",)) == first  # seat order wins
    assert shoe_of(["bob", "ann-7", "cy"]) != first
    assert shoe_of(["ann-7", "bob", "cy2"]) != first
    assert first == tuple(str(c) for c in fair_cards("2a" * 32, ["ann-7", "bob", "cy"], 6))
    fs = FairShoe.new(chemin, ShoeSettings(decks=6), source=bytes)
    fs.seat_shoe(["a", "b"])
    with pytest.raises(FairError, match="already shuffled"):
        fs.seat_shoe(["a", "b"])
    with pytest.raises(FairError, match="printable ASCII"):
        FairShoe.new(chemin, ShoeSettings(decks=6)).seat_shoe(["a", "\t"])
