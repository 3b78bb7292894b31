"""The exact odds engine against published figures and independent enumerations.

Reference figures: /work/shared/reference/numbers.md, sections 1 to 4 (sources named
by each table below: Wizard of Odds, multiplayerbaccarat.com, ExcelPunks, iplwin,
vegasfreedom.com, baccarat.guru, Thorp & Walden 1966).
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


def close(value: object, printed: float, digits: int) -> bool:
    """``value`` equals ``printed`` to the printed number of decimals."""
    return abs(float(value) - printed) <= 0.5 * 10.0**-digits + 1e-15  # type: ignore[arg-type]


def pct(value: object, printed: float, digits: int) -> bool:
    """A fraction against a printed percentage with ``digits`` decimals."""
    return close(100 * float(value), printed, digits)  # type: ignore[arg-type]


def prob_of(o: exact.Odds, keep: object) -> float:
    return float(sum(p for c, p in o.outcome_probabilities.items() if keep(c)))  # type: ignore[operator]


# -- section 1: main bets ------------------------------------------------------------

# Source: Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (exact values, numbers.md).
COUNTS = {
    1: (6_548_674_432, 6_737_232_640, 1_372_227_328, 14_658_134_400),
    2: (487_816_735_232, 501_543_728_128, 103_154_274_240, 1_092_514_737_600),
    3: (5_837_305_562_496, 6_000_349_195_008, 1_238_768_922_816, 13_076_423_680_320),
    4: (33_608_344_225_792, 34_543_624_867_840, 7_145_601_996_928, 75_297_571_090_560),
    5: (130_087_780_016_000, 133_700_037_548_800, 27_690_387_926_400, 291_478_205_491_200),
    6: (392_220_492_728_832, 403_095_751_234_560, 83_552_962_932_288, 878_869_206_895_680),
    7: (995_884_732_700_032, 1_023_469_376_328_448, 212_268_385_833_280, 2_231_622_494_861_760),
    8: (
        2_230_518_282_592_256,
        2_292_252_566_437_888,
        475_627_426_473_216,
        4_998_398_275_503_360,
    ),
}


@pytest.mark.parametrize("decks", sorted(COUNTS))
def test_published_counts_of_ordered_deals(decks: int) -> None:
    counts = odds(full_shoe(decks), exact=True).counts
    assert counts is not None
    player, banker, tie, total = COUNTS[decks]
    assert counts == {"player": player, "banker": banker, "tie": tie, "total": total}
    assert counts["player"] + counts["banker"] + counts["tie"] == counts["total"]


# Source: Wizard of Odds 1-12 decks; multiplayerbaccarat.com (4% commission, tie 9:1).
# decks: P(Player), P(Banker), P(Tie), Banker 5%, Banker 4%, Player, Tie 8:1, Tie 9:1
MAIN = {
    1: (0.446760430, 0.459624155, 0.093615415, 1.0117, 0.5521, 1.2864, 15.7461, 6.3846),
    2: (0.446508151, 0.459072735, 0.094419115, 1.0389, 0.5798, 1.2565, 15.0228, 5.5809),
    4: (0.446340350, 0.458761476, 0.094898174, 1.0517, 0.5929, 1.2421, 14.5916, 5.1018),
    6: (0.446278570, 0.458652719, 0.095068711, 1.0558, 0.5972, 1.2374, 14.4382, 4.9313),
    8: (0.446246609, 0.458597423, 0.095155968, 1.0579, 0.5993, 1.2351, 14.3596, 4.8440),
    0: (0.446146512, 0.458427918, 0.095425570, 1.0640, 0.6056, 1.2281, 14.1170, 4.5744),
}


@pytest.mark.parametrize("decks", sorted(MAIN), ids=lambda d: f"{d or 'infinite'}-decks")
def test_published_main_bet_table(decks: int) -> None:
    shoe, replacement = (full_shoe(1), True) if decks == 0 else (full_shoe(decks), False)
    p, b, t, b5, b4, pl, t8, t9 = MAIN[decks]
    base = odds(shoe, exact=True, replacement=replacement)
    four = odds(shoe, find_variant("commission-4"), exact=True, replacement=replacement)
    nine = odds(shoe, find_variant("tie-9"), exact=True, replacement=replacement)
    assert close(base.probabilities["player"], p, 9)
    assert close(base.probabilities["banker"], b, 9)
    assert close(base.probabilities["tie"], t, 9)
    assert pct(base.edges["banker"], b5, 4)
    assert pct(four.edges["banker"], b4, 4)
    assert pct(base.edges["player"], pl, 4)
    assert pct(base.edges["tie"], t8, 4)
    assert pct(nine.edges["tie"], t9, 4)


# -- section 2: variants -------------------------------------------------------------


def test_super_6() -> None:
    # Source: ExcelPunks, "Why does a Banker win on 6 pay half?"
    super6 = find_variant("super6")
    eight = odds(full_shoe(8), super6)
    assert pct(eight.edges["banker"], 1.4581, 4)
    assert pct(odds(full_shoe(6), super6).edges["banker"], 1.4548, 4)
    six_wins = prob_of(eight, lambda o: o.winner is Result.BANKER and o.banker_total == 6)
    assert close(six_wins, 0.053864, 6)


def test_ez_baccarat() -> None:
    # Source: Wizard of Odds, "EZ Baccarat".
    ez = find_variant("ez")
    eight, six = odds(full_shoe(8), ez), odds(full_shoe(6), ez)
    assert pct(eight.edges["banker"], 1.0183, 4)
    assert pct(six.edges["banker"], 1.0161, 4)
    push = prob_of(
        eight, lambda o: o.winner is Result.BANKER and o.banker_total == 7 and o.banker_cards == 3
    )
    assert close(push, 0.022534, 6)
    assert pct(eight.edges["dragon_7"], 7.6113, 4)
    assert pct(six.edges["dragon_7"], 7.6062, 4)
    assert pct(eight.edges["panda_8"], 10.1876, 4)
    assert pct(six.edges["panda_8"], 10.2074, 4)


# -- section 3: side bets ------------------------------------------------------------


def test_pairs() -> None:
    # Sources: Wizard of Odds; baccarat.guru; iplwin; Wizard of Odds "Perfect Pairs".
    eight = odds(full_shoe(8), exact=True)
    player_pair = (1 - eight.edges["player_pair"]) / 12  # return = 12 p - 1
    assert player_pair == Fraction(31, 415)
    assert close(player_pair, 0.0746988, 7)
    assert pct(eight.edges["player_pair"], 10.3614, 4)
    assert eight.edges["banker_pair"] == eight.edges["player_pair"]
    assert pct(odds(full_shoe(6)).edges["player_pair"], 11.2540, 4)
    assert pct(odds(full_shoe(1)).edges["banker_pair"], 29.41, 2)
    assert close((1 - eight.edges["either_pair"]) / 6, 0.1438169, 7)
    assert pct(eight.edges["either_pair"], 13.7099, 4)
    assert close((1 - eight.edges["perfect_pair"]) / 26, 0.033450, 6)
    assert pct(eight.edges["perfect_pair"], 13.03, 2)


def test_dragon_bonus_counts() -> None:
    # Source: Wizard of Odds, Baccarat Appendix 5 (8 decks).
    table = {
        "player": [
            18_409_431_764_992,
            34_097_645_543_424,
            89_590_261_473_280,
            141_238_897_317_888,
            166_169_165_987_840,
            186_780_352_174_080,
        ],
        "banker": [
            15_390_342_909_952,
            28_305_092_784_128,
            79_517_099_278_336,
            119_200_072_366_080,
            157_275_882_332_160,
            201_147_167_287_296,
        ],
    }
    counts = outcome_counts(full_shoe(8))
    for side, expected in table.items():
        sign = 1 if side == "player" else -1

        def margin(o: Outcome, s: int = sign) -> int:
            return s * (o.player_total - o.banker_total)

        by_margin = [
            sum(n for o, n in counts.items() if not o.natural and margin(o) == m)
            for m in (9, 8, 7, 6, 5, 4)
        ]
        assert by_margin == expected
        mine = "player_natural" if side == "player" else "banker_natural"
        natural_win = sum(n for o, n in counts.items() if getattr(o.coup, mine) and margin(o) > 0)
        assert natural_win == 812_685_054_124_032
    natural_tie = sum(n for o, n in counts.items() if o.natural and o.winner is Result.TIE)
    assert natural_tie == 89_325_908_267_520
    eight, six = odds(full_shoe(8)), odds(full_shoe(6))
    assert pct(eight.edges["dragon_bonus_player"], 2.6517, 4)
    assert pct(eight.edges["dragon_bonus_banker"], 9.3731, 4)
    assert pct(six.edges["dragon_bonus_player"], 2.67, 2)
    assert pct(six.edges["dragon_bonus_banker"], 9.39, 2)


def test_big_small_lucky_6_and_naturals() -> None:
    # Sources: vegasfreedom.com; Wizard of Odds ("Lucky 6", 4-5-6 table); Thorp & Walden.
    eight = odds(full_shoe(8))
    assert close((eight.returns["big"] + 1) / 1.54, 0.621132, 6)
    assert pct(eight.edges["big"], 4.3457, 4)
    assert close((eight.returns["small"] + 1) / 2.5, 0.378868, 6)
    assert pct(eight.edges["small"], 5.2829, 4)
    two = prob_of(
        eight, lambda o: o.winner is Result.BANKER and o.banker_total == 6 and o.banker_cards == 2
    )
    three = prob_of(
        eight, lambda o: o.winner is Result.BANKER and o.banker_total == 6 and o.banker_cards == 3
    )
    assert close(two, 0.037247, 6)
    assert close(three, 0.016617, 6)
    assert pct(eight.edges["lucky_6"], 16.68, 2)
    liberal = -(12 * two + 23 * three - (1 - two - three))  # pays 12:1 / 23:1
    assert pct(liberal, 11.70, 2)
    assert close(eight.naturals["banker_9"], 0.094903, 6)
    assert close(eight.naturals["banker_8"], 0.094532, 6)
    assert pct(eight.edges["banker_natural_9"], 5.097, 3)
    assert pct(eight.edges["banker_natural_8"], 5.468, 3)


# -- section 4: shape of the game ----------------------------------------------------


def test_shape_of_the_game() -> None:
    # Source: Wizard of Odds (4-5-6 table; "Side Total Side Bets"; winning side and total).
    eight = odds(full_shoe(8))
    cards = eight.cards_dealt
    assert [close(cards[n], p, 6) for n, p in ((4, 0.378868), (5, 0.303444), (6, 0.317687))] == [
        True
    ] * 3
    naturals = eight.naturals
    assert close(naturals["player_8"], 0.094532, 6)
    assert close(naturals["player_9"], 0.094903, 6)
    assert close(naturals["tie"], 0.017871, 6)
    player = [0.133687, 0.133239, 0.133666, 0.133227, 0.074511]
    player += [0.074309, 0.074527, 0.074317, 0.074527, 0.093989]
    totals = eight.final_totals["player"]
    assert all(close(totals[9 - i], p, 6) for i, p in enumerate(player))
    ties = [0.011033, 0.010979, 0.020350, 0.019240, 0.007939]
    ties += [0.007261, 0.004452, 0.004003, 0.004101, 0.005798]
    for i, p in enumerate(ties):
        t = 9 - i
        assert close(
            prob_of(eight, lambda o, t=t: o.winner is Result.TIE and o.player_total == t), p, 6
        )
    p9 = prob_of(eight, lambda o: o.winner is Result.PLAYER and o.player_total == 9)
    b9 = prob_of(eight, lambda o: o.winner is Result.BANKER and o.banker_total == 9)
    assert close(p9, 0.122654, 6)
    assert close(b9, 0.117408, 6)
    assert abs(sum(eight.final_totals["banker"]) - 1) < 1e-12
    assert abs(sum(cards.values()) - 1) < 1e-12


def test_effects_of_removal() -> None:
    # Source: ExcelPunks, "Baccarat - Effects of Card Removal" (change in P(Player)).
    effects = effects_of_removal(8)
    player = effects.probabilities["player"]
    for value, printed in ((4, -0.0000435175), (0, -0.0000373810), (1, -0.0000295798)):
        assert close(player[value], printed, 10)
    assert close(player[3], -0.0000217068, 10)
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


def test_batch_equals_single() -> None:
    rng = np.random.default_rng(3)
    shoes = np.array([_depleted(rng, 8, int(rng.integers(0, 350))) for _ in range(300)])
    for variant in (PUNTO_BANCO, find_variant("ez"), find_variant("super6")):
        full = batch_odds(shoes, variant)
        main_only = batch_odds(shoes, variant, side_bets=False)
        assert full.columns[:3] == ("p_banker", "p_player", "p_tie")
        assert len(full.columns) == 3 + len(BETS) and len(main_only.columns) == 6
        for i in (0, 1, 150, 299):
            single = odds(tuple(int(x) for x in shoes[i]), variant)
            for key, value in single.probabilities.items():
                assert abs(full[f"p_{key}"][i] - value) < 1e-12
                assert abs(main_only[f"p_{key}"][i] - value) < 1e-12
            for key, value in single.edges.items():
                assert abs(full[f"edge_{key}"][i] - value) < 1e-12, key
            for key in ("banker", "player", "tie"):
                assert abs(main_only[f"edge_{key}"][i] - single.edges[key]) < 1e-12
    assert len(full) == 300


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
    assert round(data["edges"]["banker"], 6) == 0.010579
    assert round(data["probabilities"]["tie"], 9) == 0.095155968
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
    assert "878,869,206,895,680" in out and "Dragon Bonus Player" in out
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
    assert close(data["probabilities"]["player"][4], -0.0000435175, 10)
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
