"""Chemin de Fer: the house tableau and the table's rules, one clause at a time.

Source of the tableau: the classical French casino tableau (Ethier and Gámez 2013,
section 1; the printed "must be played according to the rules" card). Table rules:
docs/skill_variants.md.
"""

from __future__ import annotations

import random

import pytest

from baccara import rules
from baccara.cards import parse_cards
from baccara.coup import Result
from baccara.shoe import Shoe
from baccara.skill.bots import chemin_bot_action
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import (
    BancoCalled,
    BankerDecided,
    BankPassed,
    CheminError,
    CoupSettled,
    NaturalShown,
    Phase,
    PunterDecided,
)
from baccara.skill.tableaux import (
    FREE_CELLS,
    Cell,
    House,
    banker_cell,
    free_cells,
    house_banker_draws,
    house_punter_draws,
    punter_cell,
)
from baccara.tui.skill import TerminalSeats, play_chemin
from baccara.variants import find_variant

FILLER = "Kh Ks Kd Kc " * 12


def table_with(cards: str, *, seats: int = 3, bankroll: int = 10_000, **kw: object) -> CheminTable:
    shoe = Shoe.stacked(parse_cards(cards + " " + FILLER))
    names = tuple(f"P{i}" for i in range(seats))
    return CheminTable(names=names, bankrolls=(bankroll,) * seats, shoe=shoe, **kw)  # type: ignore[arg-type]


# -- the tableau -------------------------------------------------------------------


def test_the_banker_is_free_in_exactly_four_cells() -> None:
    assert FREE_CELLS == ((3, 9), (4, 1), (5, 4), (6, None))


@pytest.mark.parametrize("total", range(8))
@pytest.mark.parametrize("third", [*range(10), None])
def test_bound_cells_agree_with_punto_banco(total: int, third: int | None) -> None:
    cell = banker_cell(total, third)
    if (total, third) in FREE_CELLS:
        assert cell is Cell.FREE
    else:
        assert (cell is Cell.DRAW) is rules.banker_draws(total, third)
    assert house_banker_draws(total, third) is rules.banker_draws(total, third)


def test_the_scarne_tableau_is_free_only_at_3_9_and_5_4() -> None:
    # the Scarne-style rule card: 4 against an ace and 6 against a standing punter stand
    assert free_cells("scarne") == ((3, 9), (5, 4))
    assert banker_cell(4, 1, House.SCARNE) is Cell.STAND
    assert banker_cell(6, None, House.SCARNE) is Cell.STAND
    assert banker_cell(4, 1, House.FRENCH) is Cell.FREE
    with pytest.raises(ValueError, match="unknown house tableau 'vegas'"):
        banker_cell(4, 1, "vegas")


@pytest.mark.parametrize("house", list(House))
@pytest.mark.parametrize("total", range(8))
@pytest.mark.parametrize("third", [*range(10), None])
def test_every_tableau_binds_like_punto_banco(house: House, total: int, third: int | None) -> None:
    cell = banker_cell(total, third, house)
    if (total, third) in free_cells(house):
        assert cell is Cell.FREE
    else:
        assert (cell is Cell.DRAW) is rules.banker_draws(total, third)
    # "by the rule" the free cells go as in Punto Banco: the same for every tableau
    assert house_banker_draws(total, third, house) is rules.banker_draws(total, third)


def test_the_punter_draws_on_0_to_4_stands_on_6_7_and_chooses_on_5() -> None:
    assert [punter_cell(t) for t in range(8)] == [Cell.DRAW] * 5 + [
        Cell.FREE,
        Cell.STAND,
        Cell.STAND,
    ]
    assert house_punter_draws(5) and not house_punter_draws(6)
    with pytest.raises(ValueError, match="bad punter total 8"):
        punter_cell(8)
    with pytest.raises(ValueError, match="bad banker total 9"):
        banker_cell(9, None)


def test_variants_are_registered_with_aliases() -> None:
    chemin = find_variant("chemmy")
    assert chemin is find_variant("chemin") is find_variant("Chemin de Fer")
    assert chemin.decks == 6 and chemin.commission == pytest.approx(0.05)
    banque = find_variant("baccara-banque")
    assert banque is find_variant("baccarat-banque") is find_variant("banque")
    assert banque.decks == 3 and banque.commission == 0


# -- the bank ---------------------------------------------------------------------


def test_the_banker_sets_the_bank_within_his_bankroll() -> None:
    table = table_with("")
    assert not table.can_open_bank(20_000) and not table.can_open_bank(50)
    with pytest.raises(CheminError, match=r"bad bank 200\.00"):
        table.open_bank(20_000)
    table.open_bank(1_000)
    assert table.bankrolls[0] == 9_000 and table.phase is Phase.STAKES and table.to_act == 1


def test_when_the_banker_loses_the_bank_passes_to_the_next_seat() -> None:
    table = table_with("9h 5s Kd Qc")  # punter natural 9 against 5
    table.open_bank(1_000)
    events = table.stake(1, 600) + table.stake(2, 400)
    settled = next(e for e in events if isinstance(e, CoupSettled))
    assert settled.result is Result.PLAYER and dict(settled.payouts) == {1: 1_200, 2: 800}
    natural = next(e for e in events if isinstance(e, NaturalShown))
    assert natural.text == "Punter has a natural 9: no more cards are drawn."
    passed = next(e for e in events if isinstance(e, BankPassed))
    assert (passed.seat, passed.to_seat, passed.reason, passed.returned) == (0, 1, "lost", 0)
    assert table.banker == 1 and table.phase is Phase.BANK
    assert table.bankrolls == [9_000, 10_600, 10_400]


def test_when_the_banker_wins_the_bank_stays_less_commission_and_he_may_pass() -> None:
    table = table_with("5s 9h Qc Kd " * 2)  # banker natural 9 against 5, twice
    table.open_bank(1_000)
    table.stake(1, 700)
    table.stake(2, 300)
    assert table.phase is Phase.AFTER and table.bank == 1_950 and table.house == 50
    assert table.can_keep_bank() and table.can_pass_bank()
    table.keep_bank()
    table.stake(1, 333)
    table.stake(2, 0)
    assert table.bank == 1_950 + 333 - 16  # the commission rounds down
    events = table.pass_bank()
    assert isinstance(events[0], BankPassed) and events[0].reason == "passed"
    assert table.bankrolls[0] == 9_000 + 1_950 + 317 and table.banker == 1


def test_uncovered_bank_passes() -> None:
    table = table_with("")
    table.open_bank(1_000)
    table.stake(1, 0)
    events = table.stake(2, 0)
    assert isinstance(events[-1], BankPassed) and events[-1].reason == "uncovered"
    assert table.bankrolls[0] == 10_000


# -- stakes and banco ----------------------------------------------------------


def test_the_largest_stake_plays_the_hand() -> None:
    table = table_with("9h 5s Kd Qc")
    table.open_bank(1_000)
    table.stake(1, 300)
    events = table.stake(2, 500)
    assert table.player_seat == 2
    assert any(e.text.startswith("P2 plays the hand") for e in events)


def test_banco_plays_for_the_whole_bank_and_withdraws_other_stakes() -> None:
    table = table_with("5s 9h Qc Kd " * 3, seats=4)
    table.open_bank(1_000)
    table.stake(1, 300)
    events = table.banco(2)
    assert isinstance(events[0], BancoCalled) and not events[0].suivi
    assert "withdrawn" in events[0].text
    assert table.bankrolls[1] == 10_000  # seat 1's stake came back
    assert table.bankrolls[2] == 9_000 and table.bank == 1_950  # banco lost to a natural 9


def test_banco_suivi_gives_the_loser_the_first_call() -> None:
    table = table_with("5s 9h Qc Kd " * 3, seats=4)
    table.open_bank(1_000)
    table.stake(1, 0)
    table.banco(2)  # seat 2 loses his banco
    table.keep_bank()
    assert table.to_act == 2  # banco suivi: he speaks first
    events = table.banco(2)
    assert isinstance(events[0], BancoCalled) and events[0].suivi
    assert events[0].amount == 1_950


def test_actions_out_of_turn_are_refused() -> None:
    table = table_with("")
    with pytest.raises(CheminError, match=r"not P1's turn"):
        table.stake(1, 10)
    table.open_bank(1_000)
    assert not table.can_stake(2, 100) and not table.can_banco(2)
    with pytest.raises(CheminError, match="not P2's turn"):
        table.banco(2)
    with pytest.raises(CheminError, match=r"only 10\.00 of the bank is open"):
        table.stake(1, 1_500)
    poor = table_with("", bankroll=500)
    poor.bankrolls[0] = 10_000
    poor.open_bank(1_000)
    with pytest.raises(CheminError, match=r"cannot cover a bank of 10\.00"):
        poor.banco(1)


# -- the punter's option and the banker's cells -------------------------------


def test_the_punter_chooses_on_5() -> None:
    table = table_with("2h Ac 3d 2s 9c 5h")  # punter 5, banker 3
    table.open_bank(1_000)
    table.banco(1)
    assert table.phase is Phase.PUNTER and table.can_draw() and table.can_stand()
    events = table.draw()
    assert isinstance(events[0], PunterDecided) and events[0].free and events[0].card is not None
    # banker 3 against a 9: a free cell, the table waits for him
    assert table.phase is Phase.BANKER and table.banker_free()


def test_the_punter_may_stand_on_5() -> None:
    table = table_with("2h Ac 3d 5s 9c")  # punter 5, banker 6
    table.open_bank(1_000)
    table.banco(1)
    table.stand()
    # banker 6 when the punter stood: free
    assert table.phase is Phase.BANKER and table.can_banker_draw() and table.can_banker_stand()
    events = table.banker_stand()
    assert isinstance(events[-1], CoupSettled) and events[-1].result is Result.BANKER


def test_the_scarne_table_binds_6_when_the_punter_stood() -> None:
    table = table_with("2h Ac 3d 5s 9c", tableau="scarne")  # punter 5, banker 6
    assert table.tableau is House.SCARNE
    table.open_bank(1_000)
    table.banco(1)
    events = table.stand()
    assert not table.banker_free()
    decided = [e for e in events if isinstance(e, BankerDecided)]
    assert decided and not decided[0].draws and not decided[0].free
    assert isinstance(events[-1], CoupSettled) and events[-1].result is Result.BANKER
    with pytest.raises(CheminError, match="unknown house tableau"):
        table_with("2h", tableau="vegas")


def test_the_punter_is_bound_on_0_to_4_and_6_7() -> None:
    table = table_with("2h Ac 2d 4s 9c")  # punter 4 draws 9: 3; banker 5 against a 9 stands
    table.open_bank(1_000)
    events = table.banco(1)
    decided = [e for e in events if isinstance(e, PunterDecided)]
    assert decided and decided[0].draws and not decided[0].free
    assert not table.can_draw()
    with pytest.raises(CheminError, match="chooses only on 5"):
        table.draw()
    settled = events[-1]
    assert isinstance(settled, CoupSettled) and (settled.punter_total, settled.banker_total) == (
        3,
        5,
    )


@pytest.mark.parametrize(
    ("cards", "total", "may", "refused"),
    [("2h Ac 2d 4s 9c", 4, "draw", "stand"), ("2h Ac 5d 4s 9c", 7, "stand", "draw")],
)
def test_a_punter_who_speaks_is_asked_on_any_total_and_held_to_the_tableau(
    cards: str, total: int, may: str, refused: str
) -> None:
    """``punter_speaks`` (the online tables; issue 23, finding 7): the punter says
    "carte" or "non" in every coup without a natural, so being asked tells nobody his
    total; in a bound cell only the tableau's answer is his, and it is the clock's."""
    table = table_with(cards, punter_speaks=True)
    table.open_bank(1_000)
    table.banco(1)
    assert table.phase is Phase.PUNTER and table.actor == 1 and table.punter_total == total
    assert (table.can_draw(), table.can_stand()) == (may == "draw", may == "stand")
    rule = "draw on 0-4" if may == "draw" else "stand on 6 or 7"
    with pytest.raises(CheminError, match=f"the punter has {total}: the tableau has him {rule}"):
        getattr(table, refused)()
    default = table.default_action()
    assert default is not None and default.act.value == may
    assert default.reason == f"the punter {default.act.word} on {total} (the tableau)"
    events = table.apply(default)
    decided = [e for e in events if isinstance(e, PunterDecided)]
    assert decided and not decided[0].free  # bound: not a free decision of the record
    assert bot_answer(total, cards) == may


def bot_answer(total: int, cards: str) -> str:
    """What a bot says as that punter: the tableau's rule."""
    table = table_with(cards, punter_speaks=True)
    table.open_bank(1_000)
    table.banco(1)
    assert table.punter_total == total
    return chemin_bot_action(table, random.Random(1)).act.value


def test_a_punter_who_speaks_on_5_chooses_as_before() -> None:
    table = table_with("2h Ac 3d 2s 9c 5h", punter_speaks=True)  # punter 5, banker 3
    table.open_bank(1_000)
    table.banco(1)
    assert table.can_draw() and table.can_stand()
    default = table.default_action()
    assert default is not None and default.reason == "the punter draws on 5 (house default)"
    stood = table.stand()[0]
    assert isinstance(stood, PunterDecided) and stood.free and not stood.draws


def test_the_banker_is_bound_outside_the_free_cells() -> None:
    table = table_with("2h Ac 3d 3s 8c 5h")  # punter 5 draws 8: 3; banker 4 against an 8 stands
    table.open_bank(1_000)
    table.banco(1)
    events = table.draw()
    assert not table.banker_free()
    with pytest.raises(CheminError, match="free cell"):
        table.banker_draw()
    assert isinstance(events[-1], CoupSettled) and events[-1].banker_total == 4


def test_the_free_banker_option_frees_every_cell() -> None:
    table = table_with("2h Ac 3d 3s 8c 5h", free_banker=True)
    table.open_bank(1_000)
    table.banco(1)
    table.draw()
    assert table.banker_free()
    events = table.banker_draw()
    assert isinstance(events[-1], CoupSettled) and events[-1].banker_total == 9


# -- whole shoes --------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_bots_play_a_whole_shoe_and_money_is_conserved(seed: int) -> None:
    lines: list[str] = []
    result = play_chemin(TerminalSeats(bots=5, seed=seed, say=lines.append, teach=True))
    assert result.coups > 50
    assert sum(result.bankrolls) + result.house == result.start_total
    assert any("equilibrium" in line for line in lines)
    # teaching mode says what each choice is worth, and where the equilibrium is indifferent
    assert any("drawing" in line and "per 1.00 staked" in line for line in lines)
    mixed = [line for line in lines if "draws with probability" in line]
    assert all("he is indifferent, so the equilibrium mixes" in line for line in mixed)
    assert any(line.startswith("The bank passes") for line in lines)


def test_a_human_plays_through_the_prompts() -> None:
    answers = iter(["10", "k", *(["s", "3", "d", "k", "b"] * 200)])
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return next(answers)

    seats = TerminalSeats(humans=("Me",), bots=2, seed=3, coups=6, ask=ask, say=lambda _: None)
    result = play_chemin(seats)
    assert result.coups == 6 and asked[0].startswith("Me, the shoe is yours")
    assert sum(result.bankrolls) + result.house == result.start_total


def test_baccara_play_runs_chemin_de_fer_with_a_human() -> None:
    from click.testing import CliRunner

    from baccara.cli import cli

    args = ["play", "--variant", "chemmy", "--seats", "1", "--bots", "2", "--seed", "4", "--teach"]
    result = CliRunner().invoke(cli, args, input="50\nd\nq\n")
    assert result.exit_code == 0, result.output
    assert "Player 1 holds the bank for 50.00." in result.output
    assert "Goodbye." in result.output


def test_baccara_play_takes_the_house_tableau() -> None:
    from click.testing import CliRunner

    from baccara.cli import cli

    args = ["play", "--variant", "chemin-de-fer", "--seats", "1", "--bots", "1", "--seed", "4"]
    result = CliRunner().invoke(cli, [*args, "--house", "scarne"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "House tableau: scarne." in result.output


@pytest.mark.slow
def test_the_equilibrium_banker_at_the_table_wins_what_the_solver_says(full_size: bool) -> None:
    """The table engine itself, with the free banker playing the compositions equilibrium
    and the punter playing by the rule; no commission. Shoes are dealt to the cut card,
    so the card removal between coups adds a little noise the model does not have."""
    import random

    import numpy as np

    from baccara.skill.solver.chemin import house_strategy, solve_chemin
    from baccara.skill.solver.models import build_game

    sol = solve_chemin("compositions", decks=6)
    game = build_game("compositions", 6, 0.0)
    hx, _ = house_strategy(game)
    expected = game.banker_payoff(hx, sol.y)
    target = 150_000 if full_size else 1_500
    rng = random.Random(9)
    variant = find_variant("chemin-de-fer").with_changes(banker_pays=1)
    gains: list[int] = []
    seed = 0
    while len(gains) < target:
        table = CheminTable(
            names=("A", "B"), bankrolls=(10**9, 10**9), variant=variant, seed=seed, free_banker=True
        )
        seed += 1
        while table.phase is not Phase.OVER and len(gains) < target:
            if table.phase is Phase.BANK:
                table.open_bank(100)
            elif table.phase is Phase.AFTER:
                table.pass_bank()
            elif table.phase is Phase.STAKES:
                seat = table.to_act
                assert seat is not None
                events = table.stake(seat, 100)
                settled = [e for e in events if isinstance(e, CoupSettled)]
                gains.extend(_gain(e) for e in settled)
            elif table.phase is Phase.PUNTER:
                events = table.draw()  # by the rule: draw on 5
                gains.extend(_gain(e) for e in events if isinstance(e, CoupSettled))
            else:
                info = "-".join(str(v) for v in sorted(c.points for c in table.banker_cards[:2]))
                p = sol.banker_draw[(info, table.punter_third)]
                events = table.banker_draw() if rng.random() < p else table.banker_stand()
                gains.extend(_gain(e) for e in events if isinstance(e, CoupSettled))
    sample = np.array(gains, dtype=np.float64)
    stderr = sample.std(ddof=1) / np.sqrt(len(sample))
    assert abs(sample.mean() - expected) < 4 * stderr + 0.001


def _gain(event: CoupSettled) -> int:
    return {Result.BANKER: 1, Result.PLAYER: -1, Result.TIE: 0}[event.result]


def test_the_game_ends_when_nobody_can_punt() -> None:
    table = CheminTable(names=("A", "B"), bankrolls=(5_000, 0), seed=1)
    table.open_bank(1_000)
    assert table.phase is Phase.OVER and table.bankrolls == [5_000, 0]


def test_equal_stakes_the_first_to_speak_plays_even_with_banco_suivi() -> None:
    """The largest stake plays the hand, the first in turn on a tie: banco suivi speaks first."""
    shoe = Shoe.stacked(parse_cards("Kh 9h Qh Kd " + "2h 5s 3d Qc 9c 4d " * 8))
    table = CheminTable(names=("Ann", "Bob", "Cy"), bankrolls=(10_000,) * 3, shoe=shoe)
    table.open_bank(1_000)
    table.stake(1, 0)
    table.banco(2)  # the banker's natural: Cy loses his banco
    table.keep_bank()
    assert table.suivi == 2 and table.to_act == 2
    table.stake(2, 500)
    table.stake(1, 500)
    assert table.player_seat == 2
