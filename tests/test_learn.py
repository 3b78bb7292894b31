"""The Learn section: the dictionary, the tableau in words and tried, the book's
figures (from the engines, checked against published values), and its HTTP side (bad
input answered with a clear message)."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import httpx
import pytest
from tests.support.reference import NUMBERS
from tests.test_hardening_http import in_process

from baccara import rules
from baccara.bets import BetKind
from baccara.coup import Coup
from baccara.learn import drills, glossary
from baccara.learn.book import learn_book
from baccara.learn.lessons import TableauError, decide, tableau_lines
from baccara.server.app import ServerConfig, create_app
from baccara.server.tables.audience import Listener
from baccara.table.engine import Table

# The published figures (tests/data/numbers.toml) the book shows, 8 decks, to 2 decimals
MAIN_8 = NUMBERS.row("main", "8")
SHOWN = {
    key: MAIN_8[key].rounded(2) for key in ("banker_5", "banker_4", "player", "tie_8", "tie_9")
}

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
    """Every figure comes from the engines; these are the published (independent) values
    of tests/data/numbers.toml."""
    book = learn_book()
    pages = {page["name"]: page for page in book["variants"]}
    edge = {n: {b["kind"]: b["edge"] for b in p.get("bets", [])} for n, p in pages.items()}
    banker, player = SHOWN["banker_5"], SHOWN["player"]  # 1.06%, 1.24%
    assert edge["punto-banco"] == {**edge["punto-banco"], "banker": banker, "player": player}
    assert edge["punto-banco"]["tie"] == SHOWN["tie_8"] and edge["tie-9"]["tie"] == SHOWN["tie_9"]
    assert edge["commission-4"]["banker"] == SHOWN["banker_4"]  # 0.5993%: 0.60%
    variants = (("super6", "banker"), ("ez", "banker"), ("ez", "dragon_7"), ("ez", "panda_8"))
    for name, bet in variants:  # a variant's Banker edge, or its own bet's
        keys = ("variants", name) if bet == "banker" else ("variants", name, bet)
        assert edge[name][bet] == NUMBERS.figure(*keys, "edge").rounded(2), (name, bet)
    kemeny_snell = ("chemin", "kemeny_snell")
    draw_on_5 = float(NUMBERS.ratio(*kemeny_snell, "player_draws_on_5"))  # 9/11 on 5: 0.8182
    assert f"{draw_on_5:.4f}" in pages["chemin-de-fer"]["solver"]
    about = NUMBERS.figure(*kemeny_snell, "banker_value").rounded(3)  # about 1.28%: 1.280%
    assert about in pages["chemin-de-fer"]["solver"]
    tips = " ".join(book["tips"])
    assert f"{banker} of it" in tips and f"{player} of a Player bet" in tips
    assert SHOWN["tie_9"] in tips
    assert len(book["history"]) >= 3 and "Charles VIII" in book["history"][0]


def test_what_learn_says_of_a_tie_is_what_the_table_does() -> None:
    """The FAQ said a Player or Banker bet "stays" on a tie; the table returns it (issue
    25): the FAQ and the dictionary say the stake comes back."""
    table = Table()  # the house settings every table of the server has
    table.change_shoe(manual=True)
    table.seat(player="ann", stack=10_000)
    table.place_bet(1, BetKind.PLAYER, 1_000)
    table.deal(Coup.parse("P:7h,Kd B:7s,Kc").deal_order())  # a tie
    (settled,) = table.settle().results
    assert (settled.returned, settled.stays) == (1_000, 0)
    book = learn_book()
    (answer,) = [faq["a"] for faq in book["faqs"] if "on a tie" in faq["q"]]
    assert "stake comes back" in answer and "stays" not in answer
    for term in ("tie", "push"):
        assert "stake comes back" in glossary.lookup(term).text


def test_the_learn_api_and_its_refusals(tmp_path: Path) -> None:
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'l.db'}", tables=())

    async def scenario(client: httpx.AsyncClient) -> None:
        page = await client.get("/learn")
        assert page.status_code == 200 and "learn.js" in page.text
        assert "content-security-policy" in page.headers
        raw = await client.get("/api/learn", headers={"Accept-Encoding": "gzip"})
        assert raw.json()["variants"][0]["bets"][1]["edge"] == SHOWN["banker_5"]  # inflated
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


# -- drills ---------------------------------------------------------------------------


def test_the_tableau_drill_asks_of_the_player_as_of_the_banker() -> None:
    """The drill asked 12 of 12 questions about the Banker (88 of its 96 cells are the
    Banker's): each rule, the Player's, the Banker's when the Player stood and the
    Banker's against a third card, now comes a third of the time."""
    rng = random.Random(7)
    groups: Counter[str] = Counter()
    for _ in range(3_000):
        cell = drills.pick_cell(drills.TABLEAU_CELLS, {}, rng)
        rule = "player" if cell.startswith("P") else "stood" if cell.endswith("none") else "third"
        groups[rule] += 1
    assert len(groups) == 3 and all(900 < n < 1_100 for n in groups.values()), groups
    assert drills.cell_words("B:5:none") == "Banker on 5, the Player stood"


def test_a_missed_cell_comes_back_more_often_until_it_is_learned() -> None:
    from baccara.learn.drills import TABLEAU_CELLS, pick_cell

    # B:3:8 is one of the 80 cells of the Banker against a third card (a third of the
    # questions): 40 in 9,600 when fresh; missed 4 times, it weighs 13 of 92: about 450.
    rng = random.Random(3)
    fresh = [pick_cell(TABLEAU_CELLS, {}, rng) for _ in range(9_600)]
    missed = {"B:3:8": (4, 4)}  # asked 4 times, missed 4
    weighted = [pick_cell(TABLEAU_CELLS, missed, rng) for _ in range(9_600)]
    assert fresh.count("B:3:8") < 80 < 300 < weighted.count("B:3:8")
    learned = {"B:3:8": (17, 4)}  # then answered right 13 times
    assert [pick_cell(TABLEAU_CELLS, learned, rng) for _ in range(9_600)].count("B:3:8") < 80


def test_every_tableau_question_is_dealt_as_its_cell_says() -> None:
    from baccara.cards import hand_total, parse_cards
    from baccara.learn.drills import TABLEAU_CELLS, grade_tableau, tableau_question

    for n, cell in enumerate(TABLEAU_CELLS):
        q = tableau_question(cell, n)
        p, b = (
            hand_total(parse_cards(" ".join(q.player))),
            hand_total(parse_cards(" ".join(q.banker))),
        )
        found = decide(" ".join(q.player), " ".join(q.banker), q.third)
        side = found.player if q.side == "player" else found.banker
        assert side is not None and p < 8 and b < 8, cell
        right = "draw" if side.draws else "stand"
        assert grade_tableau(cell, right) == (True, side.reason)
        assert grade_tableau(cell, {"draw": "stand", "stand": "draw"}[right])[0] is False


def test_the_payout_trainer_grades_by_the_pay_table() -> None:
    from baccara.bets import BetKind, settle
    from baccara.coup import Coup
    from baccara.learn.drills import PAYOUT_CELLS, grade_payout, payout_question
    from baccara.variants import find_variant

    assert "super6:banker" in PAYOUT_CELLS and "ez:dragon_7" in PAYOUT_CELLS
    wins = 0
    for n, cell in enumerate(PAYOUT_CELLS * 2):
        q = payout_question(cell, n)
        back = settle(BetKind(q.kind), q.stake, Coup.parse(q.coup), find_variant(q.variant))
        assert grade_payout(cell, n, back.returned)[:2] == (True, back.returned)
        assert grade_payout(cell, n, back.returned + 1)[0] is False
        wins += back.net > 0
    assert wins > len(PAYOUT_CELLS) / 2  # the wins come up: the question is how much
    # Super 6: a Banker win with 6 pays half (tests/data/numbers.toml, the no-commission rule)
    six = Coup.parse("P:4h,Kd,Ac B:6s,Kc")
    half = NUMBERS.ratio("variants", "super6", "banker_wins_with_6_pays")
    assert settle(BetKind.BANKER, 1_000, six, find_variant("super6")).returned == 1_000 * (1 + half)


def test_the_payout_trainer_never_runs_out_of_cards() -> None:
    """About one payout question in 300 was an HTTP 500: looking for a coup the bet wins
    (or loses), the drill dealt its shoe to the cut card and asked it for one more coup
    (``ShoeError: the shoe is finished``; ``ez:dragon_7`` with seed 7, a pair with seed
    4). Now the next shoe of the seed's series comes in, and the same cell and seed are
    still the same question, graded as asked."""
    from baccara.bets import BetKind, settle
    from baccara.coup import Coup
    from baccara.learn.drills import PAYOUT_CELLS, grade_payout, payout_question
    from baccara.variants import find_variant

    for cell, seed in (("ez:dragon_7", 7), ("punto-banco:player_pair", 4), ("ez:perfect_pair", 8)):
        asked = payout_question(cell, seed)
        assert asked == payout_question(cell, seed)
        coup = Coup.parse(asked.coup)
        back = settle(BetKind(asked.kind), asked.stake, coup, find_variant(asked.variant))
        assert grade_payout(cell, seed, back.returned)[:2] == (True, back.returned)
    for seed in range(60):  # each cell 60 times: the 1 in 300 came up 18 times here
        for cell in PAYOUT_CELLS:
            assert payout_question(cell, seed).coup


def test_the_shoe_trainer_shows_the_exact_edges_of_the_cards_left() -> None:
    from baccara.exact.odds import full_shoe, odds
    from baccara.learn.drills import DrillError, shoe_steps

    found = shoe_steps(seed=5, upto=3)
    assert found["start"]["banker"] == pytest.approx(MAIN_8["banker_5"].fraction, abs=1e-6)
    left = list(full_shoe(8))
    for step in found["steps"]:
        for card in step["coup"].replace("P:", "").replace("B:", "").replace(" ", ",").split(","):
            left["TA23456789".index(card[0]) if card[0] in "TA23456789" else 0] -= 1
        banker = float(odds(tuple(left)).edges["banker"])
        assert step["edges"]["banker"] == pytest.approx(banker, abs=1e-6)
        assert step["left"] == sum(left)
    for seed, upto, message in ((-1, 0, "bad seed"), (5, 999, "this shoe deals 0 to")):
        with pytest.raises(DrillError, match=message):
            shoe_steps(seed, upto)


def test_drills_over_http_keep_a_record_and_refuse_answers_out_of_turn(tmp_path: Path) -> None:
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'd.db'}", tables=())

    async def post(client: httpx.AsyncClient, path: str, body: object) -> httpx.Response:
        return await client.post(
            path, content=json.dumps(body), headers={"Content-Type": "application/json"}
        )

    async def scenario(client: httpx.AsyncClient) -> None:
        assert (await client.get("/api/learn/drills/tableau")).status_code == 401
        assert (
            await post(client, "/api/learn/drills/tableau", {"answer": "draw"})
        ).status_code == 401
        await post(client, "/api/register", {"name": "learner", "password": "learner pw"})
        early = await post(client, "/api/learn/drills/tableau", {"answer": "draw"})
        assert early.status_code == 409 and early.json()["error"] == "out_of_turn"
        q = (await client.get("/api/learn/drills/tableau")).json()
        bad = await post(client, "/api/learn/drills/tableau", {"answer": "maybe"})
        assert bad.status_code == 400 and "draw or stand" in bad.json()["message"]
        found = decide(" ".join(q["player"]), " ".join(q["banker"]), q["third"])
        side = found.player if q["side"] == "player" else found.banker
        assert side is not None
        right = "draw" if side.draws else "stand"
        graded = (await post(client, "/api/learn/drills/tableau", {"answer": right})).json()
        assert graded["correct"] and graded["why"] == side.reason
        assert graded["record"]["asked"] == 1 and graded["record"]["missed"] == 0
        again = await post(client, "/api/learn/drills/tableau", {"answer": right})
        assert again.status_code == 409  # answered once
        p = (await client.get("/api/learn/drills/payout")).json()
        typed = await post(client, "/api/learn/drills/payout", {"answer": "ten"})
        assert typed.status_code == 400 and typed.json()["error"] == "bad_answer"
        wrong = (await post(client, "/api/learn/drills/payout", {"answer": "-1"})).json()
        assert wrong["correct"] is False and wrong["expected"] in wrong["why"], p
        mine = (await client.get("/api/learn/progress")).json()
        assert mine["tableau"]["asked"] == 1 and mine["payout"]["missed"] == 1
        assert mine["payout"]["most_missed"] == [drills.cell_words(p["cell"])]  # in words
        assert mine["payout"]["most_missed"][0] != p["cell"]  # not the code
        shoe = await client.get("/api/learn/drills/shoe", params={"seed": "5", "upto": "2"})
        assert len(shoe.json()["steps"]) == 2
        for params in ({"seed": "x"}, {"seed": "5", "upto": "999"}, {"seed": "-3"}):
            refused = await client.get("/api/learn/drills/shoe", params=params)
            assert refused.status_code == 400 and refused.json()["message"], params
        other_site = await client.post(
            "/api/learn/drills/tableau", content="answer=draw",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )  # fmt: skip
        assert other_site.status_code == 415

    in_process(create_app(config), scenario)


def test_a_table_says_the_exact_edges_of_its_cards_left(tmp_path: Path) -> None:
    import asyncio

    from baccara.exact.odds import full_shoe, odds

    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'e.db'}",
        tables=("t1=punto-banco",),
        bet_seconds=0.3,
        card_seconds=0.01,
        result_seconds=0.05,
    )

    app = create_app(config)

    async def scenario(client: httpx.AsyncClient) -> None:
        app.state.baccara.hall.audience("t1").add(Listener(None))  # somebody watches: it deals
        assert (await client.get("/api/tables/nope/edges")).status_code == 404
        first = (await client.get("/api/tables/t1/edges")).json()
        while (found := (await client.get("/api/tables/t1/edges")).json())["coups"] < 2:
            await asyncio.sleep(0.05)
        assert first["coups"] == 0 and first["left"] == 416  # the burn is unseen
        assert first["edges"]["banker"] == pytest.approx(0.0105791, abs=1e-7)
        coups = (await client.get("/api/tables/t1")).json()["history"]
        left = list(full_shoe(8))
        for coup in coups[::-1][: found["coups"]]:
            for hand in coup["coup"].split():
                for card in hand[2:].split(","):
                    left["TA23456789".index(card[0]) if card[0] in "TA23456789" else 0] -= 1
        assert found["left"] == sum(left)
        assert found["edges"]["tie"] == pytest.approx(float(odds(tuple(left)).edges["tie"]))

    in_process(app, scenario)


def test_the_shoe_trainer_deals_a_bounded_number_of_shoes_at_once(tmp_path: Path) -> None:
    """Anyone may ask for a shoe (no login): thirty at once get two shoes dealt and
    503 with Retry-After for the others, never a queue of CPU work."""
    import asyncio

    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 's.db'}", tables=())

    async def scenario(client: httpx.AsyncClient) -> None:
        await client.get("/api/learn/drills/shoe", params={"seed": "1", "upto": "1"})  # load
        asked = [
            client.get("/api/learn/drills/shoe", params={"seed": str(n), "upto": "60"})
            for n in range(30)
        ]
        replies = await asyncio.gather(*asked)
        codes = [reply.status_code for reply in replies]
        assert set(codes) == {200, 503} and codes.count(200) >= 2, codes
        busy = next(reply for reply in replies if reply.status_code == 503)
        assert busy.headers["retry-after"] == "1" and busy.json()["error"] == "busy"
        long = await client.get("/api/learn/drills/shoe", params={"seed": "9" * 30})
        assert long.status_code == 400

    in_process(create_app(config), scenario)
