"""The Learn section: the dictionary, the tableau in words and tried, the book's
figures (from the engines, checked against published values), and its HTTP side (bad
input answered with a clear message)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import httpx
import pytest
from tests.test_hardening_http import in_process

from baccara import rules
from baccara.learn import glossary
from baccara.learn.book import learn_book
from baccara.learn.lessons import TableauError, decide, tableau_lines
from baccara.server.app import ServerConfig, create_app

# The Banker's rule as the seed documents print it (004: "If the Player's third card
# is 2 or 3, the Banker draws when he has a 0-4, and stays with a 5-7", ...).
SEED_BANKER = {2: 4, 3: 4, 4: 5, 5: 5, 6: 6, 7: 6, 8: 2, 9: 3, 1: 3, 0: 3}


def test_every_term_the_issue_names_is_in_the_dictionary() -> None:
    for name in (
        "natural", "la grande", "la petite", "coup", "shoe", "burn", "cut card", "banco",
        "banco suivi", "cagnotte", "squeeze", "roads", "big road", "bead plate",
        "commission", "tableau", "Punto Banco", "chemin de fer", "baccarat banque",
    ):  # fmt: skip
        assert glossary.lookup(name).text
    names = {term.name for term in glossary.TERMS}
    assert len(names) == len(glossary.TERMS)  # each once
    for term in glossary.TERMS:  # every cross-reference leads somewhere
        assert set(term.see) <= names, term.name


def test_an_unknown_term_says_so_and_suggests() -> None:
    assert glossary.lookup("  BANCO   Suivi ").name == "banco suivi"
    assert glossary.lookup("chemmy").name == "chemin de fer"
    with pytest.raises(glossary.UnknownTerm, match="did you mean banco suivi"):
        glossary.lookup("banco suvi")
    with pytest.raises(glossary.UnknownTerm, match="see the dictionary's list"):
        glossary.lookup("zzzz")


def test_the_tableau_in_words_says_what_the_seeds_print() -> None:
    lines = tableau_lines()
    assert "Player: draws on 0-5, stands on 6-7." in lines
    for third, limit in SEED_BANKER.items():
        said = [line for line in lines if rules.card_group(third) in line]
        assert len(said) == 1 and f"draws on 0-{limit} " in said[0], (third, said)


@pytest.mark.parametrize("third", range(10))
def test_the_tableau_tried_follows_the_seeds_for_every_total(third: int) -> None:
    ranks = "TA23456789"
    card = ranks[third] + "c"
    for banker in range(8):
        found = decide("2h 3d", f"{ranks[banker]}s Th", card)  # the Player has 5: draws
        assert found.player.draws and found.banker is not None
        assert found.banker.draws == (banker <= SEED_BANKER[third] and banker < 7), banker
        assert f"Banker has {banker}" in found.banker.reason


def test_the_tableau_tried_refuses_what_cannot_happen() -> None:
    assert decide("9h Kd", "5s Qc").banker is not None  # a natural: nobody draws
    assert decide("2h 3d", "5s Qc").banker is None  # the Player draws: which card?
    assert not decide("3h 3d", "6s Qc").banker.draws  # type: ignore[union-attr]
    for player, banker, third, message in (
        ("9h Kd", "5s Qc", "4c", "natural 9: no more cards are drawn, so there is no third"),
        ("3h 3d", "5s Qc", "4c", "Player stands on 6 or 7, so there is no third card"),
        ("2h", "5s Qc", "", "the Player needs two cards"),
        ("2h 3d", "5s Qc", "4c 5c", "one third card"),
        ("2x 3d", "5s Qc", "", "bad card"),
    ):
        with pytest.raises(TableauError, match=message):
            decide(player, banker, third or None)


def test_the_books_figures_are_the_published_ones() -> None:
    """Every figure comes from the engines; these are numbers.md's (independent) values."""
    book = learn_book()
    pages = {page["name"]: page for page in book["variants"]}
    edge = {n: {b["kind"]: b["edge"] for b in p.get("bets", [])} for n, p in pages.items()}
    assert edge["punto-banco"] == {**edge["punto-banco"], "banker": "1.06%", "player": "1.24%"}
    assert edge["punto-banco"]["tie"] == "14.36%" and edge["tie-9"]["tie"] == "4.84%"
    assert edge["commission-4"]["banker"] == "0.60%"  # 0.5993%
    assert edge["super6"]["banker"] == "1.46%" and edge["ez"]["banker"] == "1.02%"
    assert edge["ez"]["dragon_7"] == "7.61%" and edge["ez"]["panda_8"] == "10.19%"
    assert "0.8182" in pages["chemin-de-fer"]["solver"]  # Kemeny-Snell: 9/11 on 5
    assert "1.280%" in pages["chemin-de-fer"]["solver"]  # about 1.28% to the Banker
    tips = " ".join(book["tips"])
    assert "1.06% of it" in tips and "1.24% of a Player bet" in tips and "4.84%" in tips
    assert len(book["history"]) >= 3 and "Charles VIII" in book["history"][0]


def test_the_learn_api_and_its_refusals(tmp_path: Path) -> None:
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'l.db'}", tables=())

    async def scenario(client: httpx.AsyncClient) -> None:
        page = await client.get("/learn")
        assert page.status_code == 200 and "learn.js" in page.text
        assert "content-security-policy" in page.headers
        raw = await client.get("/api/learn", headers={"Accept-Encoding": "gzip"})
        assert raw.json()["variants"][0]["bets"][1]["edge"] == "1.06%"  # httpx inflates
        book = await client.get("/api/learn", headers={"Accept-Encoding": "identity"})
        assert len(gzip.compress(book.content)) < len(book.content) / 2
        assert (await client.get("/api/learn/terms/La%20Grande")).json()["name"] == "la grande"
        unknown = await client.get("/api/learn/terms/cagnote")
        assert unknown.status_code == 404
        assert unknown.json() == {
            "error": "unknown_term",
            "message": "no term 'cagnote' in the dictionary: did you mean cagnotte?",
        }
        tried = await client.get(
            "/api/learn/tableau", params={"player": "2h 3d", "banker": "5s Qc", "third": "4c"}
        )
        assert tried.json()["banker"]["draws"] is True
        for params in (
            {"player": "9h Kd", "banker": "5s Qc", "third": "4c"},
            {"player": "2h 3d 4c 5c 6c 7c 8c 9c", "banker": "5s Qc"},
            {"player": "<script>", "banker": "5s Qc"},
            {},
        ):
            refused = await client.get("/api/learn/tableau", params=params)
            assert refused.status_code == 400, params
            body = refused.json()
            assert body["error"] == "bad_cards" and body["message"], body
            assert "Traceback" not in json.dumps(body)

    in_process(create_app(config), scenario)
