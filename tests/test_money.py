"""Money for people: one format (10.00) and one parser, used by every front end."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from baccara.bets import BetKind
from baccara.exact.odds import full_shoe, odds
from baccara.money import MoneyError, format_money, parse_money
from baccara.table.engine import Table
from baccara.table.events import StackError
from baccara.tui.teach import TableEdges, chips
from baccara.variants import PUNTO_BANCO, find_variant


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "0.00"),
        (1, "0.01"),
        (1000, "10.00"),
        (1050, "10.50"),
        (-1000, "-10.00"),
        (-5, "-0.05"),
        (100_000, "1,000.00"),
        (123_456_789, "1,234,567.89"),
    ],
)
def test_format_and_parse_round_trip(cents: int, text: str) -> None:
    assert format_money(cents) == text
    assert parse_money(text) == cents


@pytest.mark.parametrize(
    ("text", "cents"),
    [("10", 1000), ("10.5", 1050), ("10.50", 1050), (" 25 ", 2500), (".5", 50), ("1000", 100_000)],
)
def test_what_people_type(text: str, cents: int) -> None:
    assert parse_money(text) == cents


@pytest.mark.parametrize("text", ["", "ten", "10.505", "1,00", "1e3", "nan", "10.5.0", "--1", "."])
def test_bad_input_names_the_input(text: str) -> None:
    with pytest.raises(MoneyError, match=f"bad amount {text!r}") as caught:
        parse_money(text)
    assert isinstance(caught.value, ValueError)


def test_positive() -> None:
    assert parse_money("0.01", positive=True) == 1
    with pytest.raises(MoneyError, match=r"must be more than 0\.00"):
        parse_money("-3", positive=True)


def test_chips_are_written_as_their_faces() -> None:
    assert chips(112_650) == "1,000x1 100x1 25x1 1x1 0.25x2"


def test_table_errors_speak_money() -> None:
    table = Table(seed=1)
    table.change_shoe()
    table.seat(1, player="ann", stack=100_000)
    with pytest.raises(StackError, match=r"bad bet -10\.00: an amount above 0\.00"):
        table.place_bet(1, BetKind.PLAYER, -1000)
    with pytest.raises(ValueError, match=r"5\.00 on Player is below the table minimum 10\.00"):
        table.place_bet(1, BetKind.PLAYER, 500)


@pytest.mark.parametrize("decks", [1, 6, 8])
@pytest.mark.parametrize("name", ["punto-banco", "commission-4", "super6", "ez", "tie-9"])
def test_the_terminal_edges_come_from_the_exact_engine(name: str, decks: int) -> None:
    variant = find_variant(name)
    edges = TableEdges.of(variant, decks=decks)
    exact = odds(full_shoe(decks), variant).edges
    for kind in (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE):
        assert edges.edges[kind.value] == pytest.approx(float(exact[kind.value]))
        assert f"({decks} decks)" in edges.note(kind)


def test_a_three_percent_table_is_not_told_one_point_oh_six() -> None:
    three = PUNTO_BANCO.with_changes(banker_pays=Fraction(97, 100))
    note = TableEdges.of(three, decks=8).note(BetKind.BANKER)
    assert "House edge 0.141% (8 decks)" in note and "1.06%" not in note


def test_the_terminal_says_bad_bets_in_money(tmp_path: Path) -> None:
    from tests.test_play import play

    out = play(tmp_path / "g.db", "b -10\nb 10.505\nq\n", "--seed", "1", "--bots", "0").stdout
    assert "bad bet -10.00: an amount above 0.00" in out
    assert "bad amount '10.505'" in out
    assert "-1000" not in out
