"""Every bet's settlement in minor units, pushes and commission rounding included.

Pay tables: seed 000 (Player 1:1, Banker 0.95:1, Tie 8:1, Player and Banker push on
a tie); the variants' and side bets' pays from tests/data/numbers.toml sections 2 and 3.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from tests.support.reference import NUMBERS

from baccara.bets import BetKind, BetOutcome, Rounding, bets_for, describe_pays, payout, settle
from baccara.coup import Coup
from baccara.variants import PUNTO_BANCO, Variant, find_variant

PLAYER_NATURAL_9 = Coup.parse("P:9h,Kd B:5s,Qc")  # Player 9, Banker 5
BANKER_7_VS_6 = Coup.parse("P:6h,Kd B:7s,Kc")
TIE_7 = Coup.parse("P:7h,Kd B:7s,Kc")
NATURAL_TIE = Coup.parse("P:9h,Kd B:9s,Kc")
BANKER_SIX_TWO_CARDS = Coup.parse("P:4h,Kd,Jc B:6s,Kc")  # P draws: 4 -> 4; banker 6 stands
BANKER_SIX_THREE_CARDS = Coup.parse("P:2h,Kd,Jc B:3s,Kc,3d")
BANKER_THREE_CARD_7 = Coup.parse("P:Ah,Kd,Jc B:3s,Kc,4d")  # P 1, B 7 with three cards
PLAYER_THREE_CARD_8 = Coup.parse("P:Ah,2d,5c B:3s,Kc,Ad")
PAIRS = Coup.parse("P:4h,4h B:5s,5d")  # suited Player pair, Banker pair: P 8 natural
PLAYER_BY_5 = Coup.parse("P:2h,3d,4c B:5s,Qc,9d")  # P 9, B 4, no natural: by 5


def pays(*bet: str) -> Fraction:
    """A bet's published pay (what one unit wins), from numbers.toml sections 2 and 3."""
    return NUMBERS.ratio(*bet, "pays")


DRAGON_BONUS = ("side_bets", "dragon_bonus", "pays")


def net(kind: BetKind, stake: int, coup: Coup, variant: Variant = PUNTO_BANCO) -> int:
    return settle(kind, stake, coup, variant).net


@pytest.mark.parametrize(
    ("coup", "player", "banker", "tie"),
    [
        (PLAYER_NATURAL_9, 1000, -1000, -1000),
        (BANKER_7_VS_6, -1000, 950, -1000),
        (TIE_7, 0, 0, 8000),
    ],
)
def test_main_bets(coup: Coup, player: int, banker: int, tie: int) -> None:
    assert net(BetKind.PLAYER, 1000, coup) == player
    assert net(BetKind.BANKER, 1000, coup) == banker
    assert net(BetKind.TIE, 1000, coup) == tie


def test_pushes_return_the_stake() -> None:
    s = settle(BetKind.BANKER, 500, TIE_7)
    assert (s.outcome, s.net, s.returned, s.commission) == (BetOutcome.PUSH, 0, 500, 0)
    assert s.reason == "A tie: the Banker bet pushes."


def test_lost_bets_return_nothing() -> None:
    s = settle(BetKind.PLAYER, 500, BANKER_7_VS_6)
    assert (s.outcome, s.net, s.returned) == (BetOutcome.LOSE, -500, 0)


@pytest.mark.parametrize(
    ("stake", "rounding", "commission"),
    [
        (1000, Rounding.DOWN, 50),
        (1010, Rounding.DOWN, 50),  # 50.5 rounds down: the bettor keeps the half
        (1010, Rounding.UP, 51),
        (1010, Rounding.HALF_UP, 51),
        (1005, Rounding.HALF_UP, 50),  # 50.25
        (19, Rounding.DOWN, 0),
        (19, Rounding.UP, 1),
    ],
)
def test_commission_rounding(stake: int, rounding: Rounding, commission: int) -> None:
    s = settle(BetKind.BANKER, stake, BANKER_7_VS_6, commission_rounding=rounding)
    assert s.commission == commission
    assert s.net == stake - commission
    assert s.returned == 2 * stake - commission


def test_four_percent_commission() -> None:
    assert net(BetKind.BANKER, 1000, BANKER_7_VS_6, find_variant("commission-4")) == 960


def test_tie_nine_to_one() -> None:
    assert net(BetKind.TIE, 100, TIE_7, find_variant("tie-9")) == 900


def test_super6_banker_six_pays_half() -> None:
    super6 = find_variant("super6")
    half = NUMBERS.ratio("variants", "super6", "banker_wins_with_6_pays")
    assert net(BetKind.BANKER, 1000, BANKER_SIX_TWO_CARDS, super6) == 1000 * half
    assert net(BetKind.BANKER, 1001, BANKER_SIX_TWO_CARDS, super6) == 500  # rounds down
    assert net(BetKind.BANKER, 1000, BANKER_7_VS_6, super6) == 1000
    assert settle(BetKind.BANKER, 1000, BANKER_7_VS_6, super6).commission == 0


def test_ez_three_card_seven_pushes_and_dragon_panda() -> None:
    ez = find_variant("ez")
    assert settle(BetKind.BANKER, 1000, BANKER_THREE_CARD_7, ez).outcome is BetOutcome.PUSH
    assert net(BetKind.BANKER, 1000, BANKER_7_VS_6, ez) == 1000  # a two-card 7 pays 1:1
    assert net(BetKind.DRAGON_7, 100, BANKER_THREE_CARD_7, ez) == 100 * pays(
        "variants", "ez", "dragon_7"
    )
    assert net(BetKind.DRAGON_7, 100, BANKER_7_VS_6, ez) == -100
    assert net(BetKind.PANDA_8, 100, PLAYER_THREE_CARD_8, ez) == 100 * pays(
        "variants", "ez", "panda_8"
    )
    assert net(BetKind.PANDA_8, 100, PLAYER_NATURAL_9, ez) == -100


def test_pair_bets() -> None:
    assert net(BetKind.PLAYER_PAIR, 100, PAIRS) == 100 * pays("side_bets", "pair")
    assert net(BetKind.BANKER_PAIR, 100, PAIRS) == 100 * pays("side_bets", "pair")
    assert net(BetKind.EITHER_PAIR, 100, PAIRS) == 100 * pays("side_bets", "either_pair")
    assert net(BetKind.PERFECT_PAIR, 100, PAIRS) == 100 * pays("side_bets", "perfect_pair")
    assert net(BetKind.PERFECT_PAIR, 100, Coup.parse("P:4h,4d B:5s,5d")) == -100  # unsuited
    for kind in (BetKind.PLAYER_PAIR, BetKind.BANKER_PAIR, BetKind.EITHER_PAIR):
        assert net(kind, 100, PLAYER_NATURAL_9) == -100


@pytest.mark.parametrize(
    ("coup", "player", "banker"),
    [
        (PLAYER_NATURAL_9, 100 * NUMBERS.ratio(*DRAGON_BONUS, "natural_win"), -100),  # 1:1
        (NATURAL_TIE, 100 * NUMBERS.ratio(*DRAGON_BONUS, "natural_tie"), 0),  # pushes
        (TIE_7, -100, -100),  # a non-natural tie loses
        (PLAYER_BY_5, 100 * NUMBERS.ratio(*DRAGON_BONUS, "by_5"), -100),  # by 5 pays 2:1
        (BANKER_7_VS_6, -100, -100),  # by 1 loses
        (Coup.parse("P:Ah,Kd,9c B:Ks,Jc,Qh"), -100, -100),  # P 0 vs B 0: tie
        # 9 to 0 without a natural: 30:1
        (Coup.parse("P:Kh,Kd,9c B:Ks,Jc,Qh"), 100 * NUMBERS.ratio(*DRAGON_BONUS, "by_9"), -100),
    ],
)
def test_dragon_bonus(coup: Coup, player: int, banker: int) -> None:
    assert net(BetKind.DRAGON_BONUS_PLAYER, 100, coup) == player
    assert net(BetKind.DRAGON_BONUS_BANKER, 100, coup) == banker


def test_big_small() -> None:
    assert net(BetKind.BIG, 100, PLAYER_BY_5) == 100 * pays("side_bets", "big")
    assert net(BetKind.BIG, 100, PLAYER_NATURAL_9) == -100
    assert net(BetKind.SMALL, 100, PLAYER_NATURAL_9) == 100 * pays("side_bets", "small")
    assert net(BetKind.SMALL, 101, PLAYER_NATURAL_9) == 151  # 151.5 rounds down
    assert settle(BetKind.SMALL, 101, PLAYER_NATURAL_9, payout_rounding=Rounding.UP).net == 152


def test_lucky_6() -> None:
    lucky = ("side_bets", "lucky_6")
    assert net(BetKind.LUCKY_6, 100, BANKER_SIX_TWO_CARDS) == 100 * NUMBERS.ratio(
        *lucky, "pays_two_cards"
    )
    assert net(BetKind.LUCKY_6, 100, BANKER_SIX_THREE_CARDS) == 100 * NUMBERS.ratio(
        *lucky, "pays_three_cards"
    )
    assert net(BetKind.LUCKY_6, 100, BANKER_7_VS_6) == -100


def test_banker_naturals() -> None:
    nine = Coup.parse("P:5h,Kd B:9s,Kc")
    eight = Coup.parse("P:5h,Kd B:8s,Kc")
    assert net(BetKind.BANKER_NATURAL_9, 100, nine) == 100 * pays("side_bets", "banker_natural_9")
    assert net(BetKind.BANKER_NATURAL_9, 100, eight) == -100
    assert net(BetKind.BANKER_NATURAL_8, 100, eight) == 100 * pays("side_bets", "banker_natural_8")


@pytest.mark.parametrize("stake", [0, -5, True])
def test_bad_stakes(stake: int) -> None:
    with pytest.raises(ValueError, match="bad stake"):
        settle(BetKind.PLAYER, stake, TIE_7)


def test_payout_ratios_and_reasons() -> None:
    assert payout(BetKind.BANKER, BANKER_7_VS_6).ratio == Fraction(19, 20)
    assert (
        payout(BetKind.BANKER, BANKER_7_VS_6).reason == "Banker wins: pays 1:1 less 5% commission."
    )
    assert payout(BetKind.PLAYER, BANKER_7_VS_6).reason == "Banker wins: the bet loses."


def test_bets_for_variants_and_names() -> None:
    assert bets_for(PUNTO_BANCO)[:3] == (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)
    assert BetKind.PANDA_8 in bets_for(find_variant("ez"))
    assert BetKind.parse("Dragon Bonus Player") is BetKind.DRAGON_BONUS_PLAYER
    with pytest.raises(ValueError, match="unknown bet 'hedge'"):
        BetKind.parse("hedge")
    assert describe_pays(BetKind.BANKER, find_variant("commission-4")) == "1:1 less 4% commission"
    assert describe_pays(BetKind.TIE, find_variant("tie-9")) == "9:1"
