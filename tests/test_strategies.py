"""Betting strategies: each system's stake after wins and losses, table limits, bankroll.

Progressions as commonly defined (e.g. Wizard of Odds, "Betting Systems"): Martingale
doubles after a loss; Paroli doubles after a win up to three wins; Fibonacci moves
one step up after a loss and two back after a win; 1-3-2-6; D'Alembert +1/-1 unit;
Labouchère bets the first plus the last number of its line.
"""

from __future__ import annotations

import pytest

from baccara.bets import BetKind, settle
from baccara.cards import parse_cards
from baccara.coup import Coup, Side, deal_shoe
from baccara.roads.board import Roads
from baccara.shoe import Shoe, ShoeSettings
from baccara.sim.strategies import STRATEGIES, Strategy, StrategyError, Wager, make_strategy
from baccara.variants import PUNTO_BANCO

PLAYER_WINS = Coup.parse("P:9h,Kd B:5s,Qc")
BANKER_WINS = Coup.parse("P:5h,Kd B:9s,Qc")
TIE = Coup.parse("P:7h,Kd B:7s,Qc")
BY_LETTER = {"P": PLAYER_WINS, "B": BANKER_WINS, "T": TIE}


def stakes(strategy: Strategy, results: str, bankroll: int = 1_000_000) -> list[int]:
    """The stake before each coup of ``results`` (0 for no bet), settling as the table does."""
    out = []
    history: list[Coup] = []
    for letter in results:
        coup = BY_LETTER[letter]
        wagers = strategy.wagers(bankroll, history)
        out.append(sum(w.amount for w in wagers))
        net = sum(settle(w.kind, w.amount, coup, PUNTO_BANCO).net for w in wagers)
        bankroll += net
        strategy.record(coup, net)
        history.append(coup)
    return out


@pytest.mark.parametrize(
    ("spec", "results", "expected"),
    [
        # Player bets: B is a loss, P a win, T a push
        ("martingale", "BBBPBP", [1, 2, 4, 8, 1, 2]),
        ("martingale", "BTBP", [1, 2, 2, 4]),
        ("paroli", "PPPPBP", [1, 2, 4, 1, 2, 1]),
        ("fibonacci", "BBBBPPP", [1, 1, 2, 3, 5, 2, 1]),
        ("1-3-2-6", "PPPPPB", [1, 3, 2, 6, 1, 3]),
        ("dalembert", "BBPPPB", [1, 2, 3, 2, 1, 1]),
        ("labouchere", "BPPB", [5, 6, 6, 3]),
        ("labouchere", "PPB", [5, 5, 5]),
    ],
)
def test_progressions_move_as_the_system_says(spec: str, results: str, expected: list[int]) -> None:
    assert stakes(make_strategy(spec, unit=100), results) == [100 * x for x in expected]


def test_a_progression_on_the_banker_side() -> None:
    strategy = make_strategy("martingale:banker", unit=100)
    assert strategy.wagers(1_000, [])[0].kind is BetKind.BANKER
    assert stakes(strategy, "PPB") == [100, 200, 400]


def test_table_maximum_and_bankroll_restart_the_progression() -> None:
    strategy = make_strategy("martingale", unit=100, table_max=500)
    assert stakes(strategy, "BBBBB") == [100, 200, 400, 100, 200]
    poor = make_strategy("martingale", unit=100)
    assert stakes(poor, "BB", bankroll=250) == [100, 100]  # 200 > the 150 left: back to 1 unit


def test_table_minimum_and_bankroll_limit_every_wager() -> None:
    flat = make_strategy("flat:player", unit=50, table_min=100, table_max=1_000)
    assert flat.wagers(10_000, []) == (Wager(kind=BetKind.PLAYER, amount=100),)
    assert flat.wagers(99, []) == ()
    big = make_strategy("flat:banker", unit=5_000, table_max=1_000)
    assert big.wagers(700, []) == (Wager(kind=BetKind.BANKER, amount=700),)


def test_flat_bets_on_any_bet() -> None:
    for kind in BetKind:
        strategy = make_strategy(f"flat:{kind.value}", unit=25)
        assert strategy.wagers(100, []) == (Wager(kind=kind, amount=25),)
        assert strategy.name == f"flat:{kind.value}"
    assert make_strategy("flat", unit=1).wagers(1, [])[0].kind is BetKind.BANKER
    assert make_strategy("flat:Dragon-7", unit=1).wagers(1, [])[0].kind is BetKind.DRAGON_7


def test_follow_last_and_ping_pong() -> None:
    follow = make_strategy("follow-last", unit=10)
    pong = make_strategy("ping-pong", unit=10)
    assert follow.wagers(100, []) == () and pong.wagers(100, []) == ()
    history = [PLAYER_WINS, BANKER_WINS, TIE]  # ties are skipped: the last winner is Banker
    assert follow.wagers(100, history)[0].kind is BetKind.BANKER
    assert pong.wagers(100, history)[0].kind is BetKind.PLAYER


@pytest.mark.parametrize(
    ("spec", "road"),
    [
        ("big-eye-follow", "big_eye_boy"),
        ("small-road-follow", "small_road"),
        ("cockroach-follow", "cockroach_pig"),
    ],
)
def test_road_followers_bet_the_side_that_keeps_the_colour(spec: str, road: str) -> None:
    strategy = make_strategy(spec, unit=10)
    history: list[Coup] = []
    bets = 0
    for letter in "BBPPPBPPBBBBBBBBPBBPPTPBBPBPPB":
        wagers = strategy.wagers(1_000, history)
        roads = Roads.from_coups(history)
        marks = roads.derived(road)
        if wagers:
            bets += 1
            side = Side.BANKER if wagers[0].kind is BetKind.BANKER else Side.PLAYER
            assert getattr(roads.predictions()[side], road) is marks[-1].color
            assert getattr(roads.predictions()[side.other], road) is not marks[-1].color
        else:
            assert not marks or len({getattr(p, road) for p in roads.predictions().values()}) < 2
        coup = BY_LETTER[letter]
        strategy.record(coup, 0)
        history.append(coup)
    assert bets > 5
    assert strategy.wagers(1_000, []) == ()  # a new shoe: new roads, nothing to follow


def test_counting_bets_only_when_the_exact_edge_favours_the_player() -> None:
    strategy = make_strategy("count:player_pair", unit=10, decks=1)
    assert strategy.wagers(1_000, []) == ()  # a full deck: the house has 29% on the pair
    # a one-deck shoe dealt down to aces and kings: pairs are likely, the bet is good
    rest = list(parse_cards(" ".join(f"{r}{s}" for r in "23456789TJQ" for s in "shdc")))
    shoe = Shoe.stacked([*rest, *parse_cards("As Ah Ad Ac Ks Kh Kd Kc")])
    history: list[Coup] = []
    for coup in deal_shoe(shoe):
        if sum(c.cards for c in history) + coup.cards > 44:
            break
        history.append(coup)
    assert sum(c.cards for c in history) >= 38
    wagers = strategy.wagers(1_000, history)
    assert wagers == (Wager(kind=BetKind.PLAYER_PAIR, amount=10),)
    assert strategy.edge is not None and strategy.edge < -1  # pays 11:1, hits over 1/6


def test_every_listed_strategy_can_be_built() -> None:
    for name in STRATEGIES:
        strategy = make_strategy(name, unit=100, table_min=100, table_max=10_000)
        assert strategy.name.startswith(name)
        assert all(w.amount <= 500 for w in strategy.wagers(500, [PLAYER_WINS]))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("double-up", "unknown strategy 'double-up'"),
        ("martingale:tie", "bad side 'tie'"),
        ("flat:jackpot", "unknown bet 'jackpot'"),
        ("ping-pong:banker", "takes no argument"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(StrategyError, match=message):
        make_strategy(spec, unit=100)


def test_bad_amounts() -> None:
    with pytest.raises(StrategyError, match="bad unit 0"):
        make_strategy("flat", unit=0)
    with pytest.raises(StrategyError, match="bad table maximum"):
        make_strategy("flat", unit=10, table_min=100, table_max=50)
    with pytest.raises(StrategyError, match="bad wager amount -5"):
        Wager(kind=BetKind.TIE, amount=-5)


def test_a_strategy_plays_a_real_shoe_within_its_bankroll() -> None:
    coups = list(deal_shoe(Shoe.shuffled(ShoeSettings(decks=8), seed=4)))
    strategy = make_strategy("labouchere:banker", unit=100, table_max=2_000)
    bankroll = 1_500
    for i, coup in enumerate(coups):
        wagers = strategy.wagers(bankroll, coups[:i])
        assert sum(w.amount for w in wagers) <= min(bankroll, 2_000)
        net = sum(settle(w.kind, w.amount, coup).net for w in wagers)
        bankroll += net
        strategy.record(coup, net)
    assert bankroll >= 0
