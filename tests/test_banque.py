"""Baccarat Banque: the auction, the two tableaux, and the banker's one hand.

Rules: Hoyle's Games Modernized, "Baccarat Banque" (the seed documents 000 and
002 quote it), as summarised in docs/skill_variants.md.
"""

from __future__ import annotations

import pytest

from baccara.cards import parse_cards
from baccara.coup import Result
from baccara.shoe import Shoe
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import (
    BankAuctioned,
    BankerLeft,
    BanqueError,
    Half,
    HalfDecided,
    HalfSettled,
    Phase,
)
from baccara.tui.skill import TerminalSeats, play_banque

FILLER = "Kh Ks Kd Kc " * 12


def table_with(
    cards: str, *, bankrolls: tuple[int, ...] = (50_000, 10_000, 10_000), minimum: int = 100
) -> BanqueTable:
    shoe = Shoe.stacked(parse_cards(cards + " " + FILLER))
    names = tuple(f"P{i}" for i in range(len(bankrolls)))
    return BanqueTable(names=names, bankrolls=bankrolls, shoe=shoe, minimum=minimum)


def banked(cards: str, bank: int = 20_000, **kw: object) -> BanqueTable:
    table = table_with(cards, **kw)  # type: ignore[arg-type]
    table.bid(0, bank)
    table.close_auction()
    return table


def test_the_bank_goes_to_the_highest_bidder() -> None:
    table = table_with("")
    assert table.phase is Phase.AUCTION and not table.can_close_auction()
    table.bid(1, 5_000)
    assert not table.can_bid(2, 5_000) and not table.can_bid(2, 20_000)
    with pytest.raises(BanqueError, match=r"bad bid 40\.00: it must beat 50\.00"):
        table.bid(0, 4_000)
    table.bid(0, 30_000)
    events = table.close_auction()
    assert isinstance(events[0], BankAuctioned) and events[0].seat == 0
    assert table.banker == 0 and table.bank == 30_000 and table.bankrolls[0] == 20_000
    assert table.to_act == 1


def test_stakes_are_limited_by_the_bank() -> None:
    table = banked("", bank=1_000)
    assert not table.can_stake(1, Half.LEFT, 1_500)
    table.stake(1, Half.LEFT, 800)
    with pytest.raises(BanqueError, match=r"covers only 2\.00 more"):
        table.stake(2, Half.RIGHT, 300)


def test_the_two_tableaux_settle_independently() -> None:
    # left 2h 4d = 6 stands; right 3s Ac = 4 draws Kc = 4; banker 5c Qd = 5
    table = banked("2h 3s 5c 4d Ac Qd Kc")
    table.stake(1, Half.LEFT, 1_000)
    table.stake(2, Half.RIGHT, 2_000)
    assert table.phase is Phase.BANKER  # both punters were bound; the banker decides
    assert table.column(Half.LEFT) == 10 and table.column(Half.RIGHT) == 0
    events = table.banker_stand()
    settled = {e.half: e for e in events if isinstance(e, HalfSettled)}
    assert settled[Half.LEFT].result is Result.PLAYER and settled[Half.LEFT].payouts == (
        (1, 2_000),
    )
    assert settled[Half.RIGHT].result is Result.BANKER and settled[Half.RIGHT].payouts == ()
    assert table.bank == 20_000 - 1_000 + 2_000
    assert table.bankrolls[1:] == [11_000, 8_000]


def test_a_punters_natural_settles_at_once_and_the_other_plays_on() -> None:
    # left 9d Kc natural; right 2h 3d = 5; banker 5s Qc = 5
    table = banked("9d 2h 5s Kc 3d Qc 4c")
    table.stake(1, Half.LEFT, 1_000)
    events = table.stake(2, Half.RIGHT, 1_000)
    assert any(isinstance(e, HalfSettled) and e.half is Half.LEFT for e in events)
    assert table.column(Half.LEFT) == 11
    assert table.phase is Phase.PUNTER and table.live_half is Half.RIGHT


def test_the_punter_chooses_on_5_then_the_banker_knowing_both() -> None:
    # left 2h 3d = 5; right Kc 6s = 6; banker 5s Qc = 5
    table = banked("2h Kc 5s 3d 6s Qc 4c 9h")
    table.stake(1, Half.LEFT, 1_000)
    table.stake(2, Half.RIGHT, 1_000)
    assert table.live_half is Half.LEFT and table.can_draw() and table.can_stand()
    assert not table.can_banker_draw()
    with pytest.raises(BanqueError, match="decides once both"):
        table.banker_draw()
    events = table.draw()
    assert isinstance(events[0], HalfDecided) and events[0].free and events[0].card is not None
    assert table.phase is Phase.BANKER and table.column(Half.LEFT) == 4
    events = table.banker_draw()  # 9h: the banker goes from 5 to 4
    results = {e.half: e.result for e in events if isinstance(e, HalfSettled)}
    assert results == {Half.LEFT: Result.PLAYER, Half.RIGHT: Result.PLAYER}


def test_each_played_tableau_s_punter_speaks_on_any_total() -> None:
    """``punter_speaks`` (issue 23, finding 7): a played tableau's punter is asked on any
    total (held to the rule where it binds), an unplayed one is played by the house at
    once, as everybody may see."""
    # left 2h 2d = 4 (Ann plays it); right Kc 7s = 7 (nobody); banker 5s Qc = 5
    table = table_with("2h Kc 5s 2d 7s Qc 4c 9h")
    table.punter_speaks = True
    table.bid(0, 20_000)
    table.close_auction()
    table.stake(1, Half.LEFT, 1_000)
    events = table.stake(2, Half.LEFT, 500)
    assert not any(isinstance(e, HalfDecided) for e in events)
    assert table.phase is Phase.PUNTER and table.live_half is Half.LEFT and table.actor == 1
    assert table.can_draw() and not table.can_stand()
    with pytest.raises(BanqueError, match="the punter has 4: the tableau has him draw on 0-4"):
        table.stand()
    default = table.default_action()
    assert default is not None and default.reason == "the punter draws on 4 (the rule)"
    events = table.apply(default)
    decided = [e for e in events if isinstance(e, HalfDecided)]
    assert [(e.half, e.free, e.seat) for e in decided] == [
        (Half.LEFT, False, 1),  # bound: his answer, not a free decision
        (Half.RIGHT, False, None),  # unplayed: the house, at once
    ]
    assert table.phase is Phase.BANKER


def test_the_banker_may_retire_between_coups() -> None:
    table = banked("")
    assert table.can_retire()
    table.stake(1, Half.LEFT, 100)
    assert not table.can_retire()
    with pytest.raises(BanqueError, match="retires only between coups"):
        table.retire()


def test_a_broke_banker_leaves_and_the_bank_is_auctioned_again() -> None:
    table = banked("2h 3s 5c 4d Ac Qd Kc", bank=1_000)
    table.stake(1, Half.LEFT, 1_000)
    events = table.banker_stand() if table.phase is Phase.BANKER else ()
    left = [e for e in events if isinstance(e, BankerLeft)]
    assert left and left[0].reason == "broke"
    assert table.phase is Phase.AUCTION and table.banker is None


def test_retiring_returns_the_bank() -> None:
    table = banked("")
    events = table.retire()
    assert isinstance(events[0], BankerLeft) and events[0].returned == 20_000
    assert table.bankrolls[0] == 50_000 and table.phase is Phase.AUCTION


@pytest.mark.parametrize("seed", [1, 4])
def test_bots_play_a_whole_shoe_and_money_is_conserved(seed: int) -> None:
    lines: list[str] = []
    result = play_banque(TerminalSeats(bots=4, seed=seed, say=lines.append, teach=True))
    assert result.coups > 10
    assert sum(result.bankrolls) + result.house == result.start_total
    assert any("takes the bank" in line for line in lines)
    assert any("Given his 5, on average drawing" in line for line in lines)  # teaching
    assert any("Given what he sees, on average drawing" in line for line in lines)
    assert any("(shoe)" in line or "(broke)" in line for line in lines)


def test_baccara_play_runs_banque_with_bots() -> None:
    from click.testing import CliRunner

    from baccara.cli import cli

    result = CliRunner().invoke(
        cli, ["play", "--variant", "baccara-banque", "--seats", "0", "--bots", "3", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "takes the bank" in result.output and "Bankrolls:" in result.output


def test_the_game_ends_when_nobody_can_punt() -> None:
    table = table_with("", bankrolls=(5_000, 0))
    table.bid(0, 1_000)
    table.close_auction()
    assert table.phase is Phase.OVER and table.bankrolls == [5_000, 0] and table.banker is None


def test_the_first_bid_is_measured_against_the_minimum_not_a_made_up_best() -> None:
    table = table_with("")
    with pytest.raises(BanqueError, match=r"^bad bid 0\.50: the smallest bid is 1\.00$"):
        table.bid(1, 50)
    assert table.bids == {}
