"""The exact odds engine against published figures and independent enumerations.

Reference figures: tests/data/numbers.toml, sections 1 to 4 (each table names its
source: Wizard of Odds, multiplayerbaccarat.com, ExcelPunks, iplwin, vegasfreedom.com,
baccarat.guru, Thorp & Walden 1966). A printed figure is matched to its printed decimals.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import perm

import numpy as np
import pytest
from tests.support.reference import NUMBERS, by_decks

from baccara.bets import BetKind, payout
from baccara.cards import RANKS, SUITS, Card
from baccara.cli import main
from baccara.coup import Result, deal_coup
from baccara.exact import _kernels as ek
from baccara.exact import odds as exact
from baccara.exact.odds import (
    BETS,
    CompositionError,
    batch_odds,
    full_shoe,
    odds,
    outcome_counts,
    remove_cards,
)
from baccara.exact.outcomes import VALUE_BETS, Outcome, outcomes
from baccara.exact.removal import effects_of_removal
from baccara.shoe import Shoe
from baccara.variants import PUNTO_BANCO, Family, find_variant, variants_of


def close(value: object, *keys: str) -> bool:
    """``value`` equals the figure at ``keys`` of numbers.toml to its printed decimals
    (a printed percentage against 100 times ``value``)."""
    return NUMBERS.figure(*keys).matches(value)


def prob_of(o: exact.Odds, keep: object) -> float:
    return float(sum(p for c, p in o.outcome_probabilities.items() if keep(c)))  # type: ignore[operator]


# -- section 1: main bets ------------------------------------------------------------

# Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (exact values): decks: player, banker,
# tie, total ordered deals
COUNTS = by_decks({d: NUMBERS.counts("counts", "decks", d) for d in NUMBERS.get("counts", "decks")})


@pytest.mark.parametrize("decks", sorted(COUNTS))
def test_published_counts_of_ordered_deals(decks: int) -> None:
    counts = odds(full_shoe(decks), exact=True).counts
    assert counts is not None
    player, banker, tie, total = COUNTS[decks]
    assert counts == {"player": player, "banker": banker, "tie": tie, "total": total}
    assert counts["player"] + counts["banker"] + counts["tie"] == counts["total"]


# Wizard of Odds 1-12 decks; multiplayerbaccarat.com (4% commission, tie 9:1).
# decks (0: infinite): P(Player), P(Banker), P(Tie), Banker 5%, Banker 4%, Player, Tie 8:1,
# Tie 9:1, as printed
MAIN = by_decks({d: NUMBERS.printed("main", "decks", d) for d in NUMBERS.get("main", "decks")})


@pytest.mark.parametrize("decks", sorted(MAIN), ids=lambda d: f"{d or 'infinite'}-decks")
def test_published_main_bet_table(decks: int) -> None:
    shoe, replacement = (full_shoe(1), True) if decks == 0 else (full_shoe(decks), False)
    p, b, t, b5, b4, pl, t8, t9 = MAIN[decks]
    base = odds(shoe, exact=True, replacement=replacement)
    four = odds(shoe, find_variant("commission-4"), exact=True, replacement=replacement)
    nine = odds(shoe, find_variant("tie-9"), exact=True, replacement=replacement)
    assert p.matches(base.probabilities["player"])
    assert b.matches(base.probabilities["banker"])
    assert t.matches(base.probabilities["tie"])
    assert b5.matches(base.edges["banker"])
    assert b4.matches(four.edges["banker"])
    assert pl.matches(base.edges["player"])
    assert t8.matches(base.edges["tie"])
    assert t9.matches(nine.edges["tie"])


# -- section 2: variants -------------------------------------------------------------


def test_super_6() -> None:
    # Source: ExcelPunks, "Why does a Banker win on 6 pay half?"
    super6 = find_variant("super6")
    eight = odds(full_shoe(8), super6)
    assert close(eight.edges["banker"], "variants", "super6", "edge")
    assert close(odds(full_shoe(6), super6).edges["banker"], "variants", "super6", "edge_6")
    six_wins = prob_of(eight, lambda o: o.winner is Result.BANKER and o.banker_total == 6)
    assert close(six_wins, "variants", "super6", "p_banker_wins_with_6")


def test_ez_baccarat() -> None:
    # Source: Wizard of Odds, "EZ Baccarat".
    ez = find_variant("ez")
    eight, six = odds(full_shoe(8), ez), odds(full_shoe(6), ez)
    assert close(eight.edges["banker"], "variants", "ez", "edge")
    assert close(six.edges["banker"], "variants", "ez", "edge_6")
    push = prob_of(
        eight, lambda o: o.winner is Result.BANKER and o.banker_total == 7 and o.banker_cards == 3
    )
    assert close(push, "variants", "ez", "p_push")
    for bet in ("dragon_7", "panda_8"):
        assert close(eight.edges[bet], "variants", "ez", bet, "edge")
        assert close(six.edges[bet], "variants", "ez", bet, "edge_6")


# -- section 3: side bets ------------------------------------------------------------


def test_pairs() -> None:
    # Sources: Wizard of Odds; baccarat.guru; iplwin; Wizard of Odds "Perfect Pairs".
    eight = odds(full_shoe(8), exact=True)
    player_pair = (1 - eight.edges["player_pair"]) / 12  # return = 12 p - 1
    assert player_pair == NUMBERS.ratio("side_bets", "pair", "p_win")
    assert close(player_pair, "side_bets", "pair", "p_win_printed")
    assert close(eight.edges["player_pair"], "side_bets", "pair", "edge")
    assert eight.edges["banker_pair"] == eight.edges["player_pair"]
    assert close(odds(full_shoe(6)).edges["player_pair"], "side_bets", "pair", "edge_6")
    assert close(odds(full_shoe(1)).edges["banker_pair"], "side_bets", "pair", "edge_1")
    assert close((1 - eight.edges["either_pair"]) / 6, "side_bets", "either_pair", "p_win")
    assert close(eight.edges["either_pair"], "side_bets", "either_pair", "edge")
    assert close((1 - eight.edges["perfect_pair"]) / 26, "side_bets", "perfect_pair", "p_win")
    assert close(eight.edges["perfect_pair"], "side_bets", "perfect_pair", "edge")


def test_dragon_bonus_counts() -> None:
    # Source: Wizard of Odds, Baccarat Appendix 5 (8 decks).
    bonus = ("side_bets", "dragon_bonus")
    table = {side: NUMBERS.counts(*bonus, side, "by_margin") for side in ("player", "banker")}
    assert NUMBERS.counts(*bonus, "margins") == (9, 8, 7, 6, 5, 4)
    counts = outcome_counts(full_shoe(8))
    for side, expected in table.items():
        sign = 1 if side == "player" else -1

        def margin(o: Outcome, s: int = sign) -> int:
            return s * (o.player_total - o.banker_total)

        by_margin = [
            sum(n for o, n in counts.items() if not o.natural and margin(o) == m)
            for m in (9, 8, 7, 6, 5, 4)
        ]
        assert tuple(by_margin) == expected
        mine = "player_natural" if side == "player" else "banker_natural"
        natural_win = sum(n for o, n in counts.items() if getattr(o.coup, mine) and margin(o) > 0)
        assert natural_win == NUMBERS.count(*bonus, "natural_win")
    natural_tie = sum(n for o, n in counts.items() if o.natural and o.winner is Result.TIE)
    assert natural_tie == NUMBERS.count(*bonus, "natural_tie")
    eight, six = odds(full_shoe(8)), odds(full_shoe(6))
    for side in ("player", "banker"):
        assert close(eight.edges[f"dragon_bonus_{side}"], *bonus, side, "edge")
        assert close(six.edges[f"dragon_bonus_{side}"], *bonus, side, "edge_6")


def test_big_small_lucky_6_and_naturals() -> None:
    # Sources: vegasfreedom.com; Wizard of Odds ("Lucky 6", 4-5-6 table); Thorp & Walden.
    eight = odds(full_shoe(8))
    assert close((eight.returns["big"] + 1) / 1.54, "side_bets", "big", "p_win")
    assert close(eight.edges["big"], "side_bets", "big", "edge")
    assert close((eight.returns["small"] + 1) / 2.5, "side_bets", "small", "p_win")
    assert close(eight.edges["small"], "side_bets", "small", "edge")
    two = prob_of(
        eight, lambda o: o.winner is Result.BANKER and o.banker_total == 6 and o.banker_cards == 2
    )
    three = prob_of(
        eight, lambda o: o.winner is Result.BANKER and o.banker_total == 6 and o.banker_cards == 3
    )
    lucky = ("side_bets", "lucky_6")
    assert close(two, *lucky, "p_win_two_cards")
    assert close(three, *lucky, "p_win_three_cards")
    assert close(eight.edges["lucky_6"], *lucky, "edge")
    two_pays = float(NUMBERS.ratio(*lucky, "liberal", "pays_two_cards"))
    three_pays = float(NUMBERS.ratio(*lucky, "liberal", "pays_three_cards"))
    liberal = -(two_pays * two + three_pays * three - (1 - two - three))  # 12:1 / 23:1
    assert close(liberal, *lucky, "liberal", "edge")
    for n in (9, 8):
        assert close(eight.naturals[f"banker_{n}"], "side_bets", f"banker_natural_{n}", "p_win")
        assert close(eight.edges[f"banker_natural_{n}"], "side_bets", f"banker_natural_{n}", "edge")


# -- section 4: shape of the game ----------------------------------------------------


def test_shape_of_the_game() -> None:
    # Source: Wizard of Odds (4-5-6 table; "Side Total Side Bets"; winning side and total).
    eight = odds(full_shoe(8))
    cards = eight.cards_dealt
    assert [close(cards[n], "shape", "cards_dealt", str(n)) for n in (4, 5, 6)] == [True] * 3
    naturals = eight.naturals
    for key in ("player_8", "player_9", "tie"):
        assert close(naturals[key], "shape", "naturals", key)
    player = NUMBERS.printed("shape", "player_totals", "from_9_to_0")
    totals = eight.final_totals["player"]
    assert len(player) == 10 and all(p.matches(totals[9 - i]) for i, p in enumerate(player))
    ties = NUMBERS.printed("shape", "ties", "from_9_to_0")
    assert len(ties) == 10
    for i, p in enumerate(ties):
        t = 9 - i
        assert p.matches(
            prob_of(eight, lambda o, t=t: o.winner is Result.TIE and o.player_total == t)
        )
    p9 = prob_of(eight, lambda o: o.winner is Result.PLAYER and o.player_total == 9)
    b9 = prob_of(eight, lambda o: o.winner is Result.BANKER and o.banker_total == 9)
    assert close(p9, "shape", "wins_with_9", "player")
    assert close(b9, "shape", "wins_with_9", "banker")
    assert abs(sum(eight.final_totals["banker"]) - 1) < 1e-12
    assert abs(sum(cards.values()) - 1) < 1e-12


def test_effects_of_removal() -> None:
    # Source: ExcelPunks, "Baccarat - Effects of Card Removal" (change in P(Player)).
    effects = effects_of_removal(8)
    player = effects.probabilities["player"]
    removed = NUMBERS.counts("shape", "effects_of_removal", "values")
    printed = NUMBERS.printed("shape", "effects_of_removal", "player")
    assert removed == (4, 0, 1, 3)
    for value, figure in zip(removed, printed, strict=True):
        assert figure.matches(player[value])
    # Removing one card of each value, weighted by the deck, changes nothing on average.
    weights = np.array(full_shoe(1), dtype=float)
    for key in ("banker", "player", "tie"):
        assert abs(weights @ np.array(effects.probabilities[key])) < 2e-7
    count = effects.balanced_count("banker", levels=3)
    assert sum(t * n for t, n in zip(count.tags, full_shoe(1), strict=True)) == 0
    assert count.correlation > 0.95
    # Small cards removed help the Banker: the 4 has the largest tag, the 6 a negative one.
    assert count.tags[4] == max(count.tags) > 0 > count.tags[6]


# -- independent checks --------------------------------------------------------------


def _banker_draws(total: int, third: int | None) -> bool:
    """The tableau as printed on the rule card, typed here independently of `rules`."""
    if third is None:
        return total <= 5
    if total <= 2:
        return True
    if total == 3:
        return third != 8
    if total == 4:
        return 2 <= third <= 7
    if total == 5:
        return 4 <= third <= 7
    return total == 6 and 6 <= third <= 7


def enumerate_by_value(counts: tuple[int, ...]) -> Counter[tuple[int, int, int, int]]:
    """Plain recursive enumeration: ordered 6-card deals per (totals, cards) class."""
    c = list(counts)
    n = sum(c)
    tally: Counter[tuple[int, int, int, int]] = Counter()

    def deal(cards: list[int], ways: int) -> None:
        k = len(cards)
        done = None
        if k >= 4:
            pt, bt = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
            if pt >= 8 or bt >= 8:
                done = (pt, bt, 2, 2)
            elif pt <= 5:  # the Player drew
                if k >= 5:
                    p3 = cards[4]
                    if not _banker_draws(bt, p3):
                        done = ((pt + p3) % 10, bt, 3, 2)
                    elif k == 6:
                        done = ((pt + p3) % 10, (bt + cards[5]) % 10, 3, 3)
            elif not _banker_draws(bt, None):
                done = (pt, bt, 2, 2)
            elif k == 5:
                done = (pt, (bt + cards[4]) % 10, 2, 3)
        if done is not None:
            tally[done] += ways * perm(n - k, 6 - k)  # unused cards complete the 6
            return
        for v in range(10):
            if c[v]:
                w = c[v]
                c[v] -= 1
                deal([*cards, v], ways * w)
                c[v] += 1

    deal([], 1)
    return tally


def _depleted(rng: np.random.Generator, decks: int, remove: int) -> tuple[int, ...]:
    cards = np.repeat(np.arange(10), full_shoe(decks))
    kept = rng.permutation(cards)[remove:]
    return tuple(int(x) for x in np.bincount(kept, minlength=10))


@pytest.mark.parametrize("seed", [1, 2])
def test_exact_matches_plain_recursive_enumeration(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shoe = _depleted(rng, 1, int(rng.integers(5, 30)))
    brute = enumerate_by_value(shoe)
    counts = outcome_counts(shoe)
    classes = {
        (o.player_total, o.banker_total, o.player_cards, o.banker_cards): n
        for o, n in counts.items()
    }
    assert {k: v for k, v in classes.items() if v} == dict(brute)
    o = odds(shoe, exact=True)
    assert o.counts is not None
    assert o.counts["player"] == sum(n for (p, b, *_), n in brute.items() if p > b)
    assert o.counts["banker"] == sum(n for (p, b, *_), n in brute.items() if b > p)
    assert sum(brute.values()) == o.counts["total"] == perm(sum(shoe), 6)


def test_tiny_shoe_card_by_card_with_real_coups() -> None:
    """Every bet's exact edge equals dealing every ordered deal and settling real coups."""
    cards = [Card.parse(t) for t in ("As", "Ah", "As", "4d", "4d", "5c", "Kh")]
    by_card = [0] * 52
    for card in cards:
        by_card[card.index] += 1
    deals = Counter(tuple(cards[i] for i in order) for order in permutations(range(len(cards)), 6))
    coups = [(deal_coup(Shoe.stacked(dealt)), ways) for dealt, ways in deals.items()]
    for variant in (PUNTO_BANCO, find_variant("ez"), find_variant("super6")):
        result = odds(by_card, variant, exact=True)
        assert result.counts is not None and sum(deals.values()) == result.counts["total"]
        for kind in BETS:
            won = sum(payout(kind, coup, variant).ratio * ways for coup, ways in coups)
            assert result.edges[kind.value] == -Fraction(won) / result.counts["total"], kind


def test_outcome_table_agrees_with_real_coups_and_payouts() -> None:
    """A sample of the 10**6 value sequences, dealt as real coups by `deal_coup`."""
    rng = np.random.default_rng(7)
    classes = outcomes()
    by_key = {(o.player_total, o.banker_total, o.player_cards, o.banker_cards): o for o in classes}
    for seq in rng.integers(0, 10, size=(300, 6)).tolist():
        dealt = [
            Card(rank=RANKS[v - 1] if v else RANKS[9 + i % 4], suit=SUITS[i % 4])
            for i, v in enumerate(seq)
        ]
        coup = deal_coup(Shoe.stacked(dealt))
        key = (coup.player_total, coup.banker_total, len(coup.player), len(coup.banker))
        outcome = by_key[key]
        for variant in variants_of([Family.PUNTO_BANCO]):
            for kind in VALUE_BETS:
                assert (
                    payout(kind, coup, variant).ratio == payout(kind, outcome.coup, variant).ratio
                )


def test_float_agrees_with_exact_on_depleted_shoes() -> None:
    rng = np.random.default_rng(11)
    for decks, remove in ((8, 0), (8, 300), (6, 150), (1, 30), (2, 90)):
        shoe = _depleted(rng, decks, remove)
        for variant in (PUNTO_BANCO, find_variant("ez"), find_variant("super6")):
            fast, slow = odds(shoe, variant), odds(shoe, variant, exact=True)
            for key, value in slow.probabilities.items():
                assert abs(fast.probabilities[key] - float(value)) < 1e-12
            for key, value in slow.edges.items():
                assert abs(fast.edges[key] - float(value)) < 1e-12, key
            assert sum(slow.probabilities.values()) == 1
            assert abs(sum(fast.probabilities.values()) - 1) < 1e-12
            assert slow.counts is not None
            assert sum(v for k, v in slow.counts.items() if k != "total") == slow.counts["total"]
            classes = slow.outcome_probabilities
            assert sum(classes.values()) == 1


@pytest.mark.slow
def test_batch_equals_single(full_size: bool) -> None:
    """The batch engine gives each shoe of a batch the single shoe's odds and edges, in
    every variant (sized down: 60 shoes; ``--slow``: 300)."""
    rng = np.random.default_rng(3)
    count = 300 if full_size else 60
    shoes = np.array([_depleted(rng, 8, int(rng.integers(0, 350))) for _ in range(count)])
    for variant in (PUNTO_BANCO, find_variant("ez"), find_variant("super6")):
        full = batch_odds(shoes, variant)
        main_only = batch_odds(shoes, variant, side_bets=False)
        assert full.columns[:3] == ("p_banker", "p_player", "p_tie")
        assert len(full.columns) == 3 + len(BETS) and len(main_only.columns) == 6
        for i in (0, 1, count // 2, count - 1):
            single = odds(tuple(int(x) for x in shoes[i]), variant)
            for key, value in single.probabilities.items():
                assert abs(full[f"p_{key}"][i] - value) < 1e-12
                assert abs(main_only[f"p_{key}"][i] - value) < 1e-12
            for key, value in single.edges.items():
                assert abs(full[f"edge_{key}"][i] - value) < 1e-12, key
            for key in ("banker", "player", "tie"):
                assert abs(main_only[f"edge_{key}"][i] - single.edges[key]) < 1e-12
    assert len(full) == count


def test_compositions_by_rank_and_card() -> None:
    by_value = odds(full_shoe(8), exact=True)
    assert odds([32] * 13, exact=True) == by_value
    assert odds([8] * 52, exact=True).edges == by_value.edges
    less = remove_cards([8] * 52, "Ah Ah 9s")
    assert sum(less) == 413 and less[Card.parse("Ah").index] == 6
    assert remove_cards(full_shoe(8), "Ah Kd") == (127, 31, *(32,) * 8)
    assert remove_cards([4] * 13, "Ah Kd")[0] == 3


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ((1, 2, 3), "give 10"),
        ((-1, *(4,) * 9), "negative"),
        ((1, 1, 1, 1, 1, 0, 0, 0, 0, 0), "cannot deal a coup"),
        ((1.5, *(4,) * 9), "whole numbers"),
    ],
)
def test_bad_compositions(counts: tuple[object, ...], message: str) -> None:
    with pytest.raises(CompositionError, match=message):
        odds(counts)  # type: ignore[arg-type]


def test_bad_batches() -> None:
    with pytest.raises(CompositionError, match="shape"):
        batch_odds(np.ones((3, 9)))
    with pytest.raises(CompositionError, match="negative"):
        batch_odds(np.array([[-1, *(4,) * 9]]))
    with pytest.raises(CompositionError, match="fewer than 6"):
        batch_odds(np.array([[1, 1, 1, 0, 0, 0, 0, 0, 0, 0]]))
    with pytest.raises(CompositionError, match="whole numbers"):
        batch_odds(np.full((2, 10), 4.5))


def test_kernel_tree_and_table() -> None:
    tree = ek.monomial_tree()
    table = ek.outcome_table()
    assert len(tree.leaf_value) == 5005
    assert len(tree.prefix_depth) + len(tree.leaf_value) == 8007
    assert int(tree.leaf_orderings.sum()) == 10**6
    assert (table.counts.sum(axis=1) == tree.leaf_orderings).all()


# -- command line --------------------------------------------------------------------


def test_cli_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--decks", "8", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["counts"] == dict(zip(("player", "banker", "tie", "total"), COUNTS[8], strict=True))
    assert set(data["edges"]) == {k.value for k in BetKind}
    assert round(data["edges"]["banker"], 6) == MAIN[8][3].fraction
    assert round(data["probabilities"]["tie"], 9) == MAIN[8][2].fraction
    assert main(["odds", "--remove", "Kh,9s,9d", "--variant", "ez", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["composition"] == [127, *(32,) * 8, 30] and "counts" not in data
    assert data["edges"]["banker"] == pytest.approx(
        odds(remove_cards([8] * 52, "Kh 9s 9d"), find_variant("ez")).edges["banker"], abs=1e-15
    )
    assert main(["odds", "--ranks", ",".join(["4"] * 13), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == 52


def test_cli_odds_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--decks", "6", "--exact"]) == 0
    out = capsys.readouterr().out
    assert f"{COUNTS[6][3]:,}" in out and "Dragon Bonus Player" in out
    assert main(["eor", "--decks", "8"]) == 0
    assert "Balanced counts" in capsys.readouterr().out


def test_cli_eor_fits_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found: the table was 120 columns wide, and wrapped on an 80-column terminal."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["eor", "--decks", "8"]) == 0
    out = capsys.readouterr().out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    flat = " ".join(out.split())
    for kind in BetKind:  # every bet is a column (its name may wrap), with its numbers
        assert all(word in flat for word in kind.label.split()), kind
    assert "+1159.5" in out  # the tie's effect of a 6 (the --json test checks the values)


def test_cli_eor_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eor", "--decks", "8", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert NUMBERS.printed("shape", "effects_of_removal", "player")[0].matches(
        data["probabilities"]["player"][4]
    )
    assert set(data["counts"]) == {k.value for k in BetKind}


def test_cli_batch_round_trip(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    rng = np.random.default_rng(5)
    shoes = np.array([_depleted(rng, 8, int(rng.integers(0, 300))) for _ in range(20)])
    np.save(folder / "in.npy", shoes)
    assert main(["odds", "--batch", str(folder / "in.npy"), "--out", str(folder / "out.npy")]) == 0
    got = np.load(folder / "out.npy")
    assert np.allclose(got, batch_odds(shoes).values, rtol=0, atol=1e-15)
    with (folder / "in.csv").open("w") as f:
        csv.writer(f).writerows(shoes.tolist())
    assert main(["odds", "--batch", str(folder / "in.csv"), "--out", str(folder / "out.csv")]) == 0
    rows = list(csv.reader((folder / "out.csv").read_text().splitlines()))
    assert rows[0][:4] == ["p_banker", "p_player", "p_tie", "edge_player"]
    assert np.allclose(np.array(rows[1:], dtype=float), got, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["odds", "--counts", "-1,4,4,4,4,4,4,4,4,4"], "negative"),
        (["odds", "--counts", "1,1,1,1,1,0,0,0,0,0"], "cannot deal a coup"),
        (["odds", "--counts", "1,2"], "expected 10"),
        (["odds", "--decks", "1", "--remove", "As As"], "cannot remove As"),
        (["odds", "--remove", "Zz"], "bad card"),
        (["odds", "--variant", "nope"], "unknown variant"),
        (["odds", "--counts", ",".join(["4"] * 10), "--ranks", ",".join(["4"] * 13)], "combined"),
        (["eor", "--decks", "0"], "0"),
    ],
)
def test_cli_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_bad_batch_files(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "bad.csv").write_text("1,2,3\n")
    (folder / "words.csv").write_text("a,b,c,d,e,f,g,h,i,j\nx,1,1,1,1,1,1,1,1,1\n")
    (folder / "bad.npy").write_bytes(b"not numpy")
    np.save(folder / "neg.npy", np.array([[-1, *(4,) * 9]]))
    for name, message in (
        ("bad.csv", "10 counts"),
        ("words.csv", "bad batch file"),
        ("bad.npy", "bad batch file"),
        ("neg.npy", "negative"),
        ("missing.npy", "no such file"),
        ("shoes.txt", ".npy or .csv"),
    ):
        assert main(["odds", "--batch", str(folder / name)]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (name, err)
