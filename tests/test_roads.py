"""The five roads: rules and worked example.

Source: tests/data/roads.toml (Wizard of Odds "Baccarat Score Boards"; OG Plus, sikwin
and gamicorp road-map help pages), documented in docs/roads.md.
"""

from __future__ import annotations

import json
from itertools import groupby, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.support.reference import ROADS

from baccara.coup import Coup, Result, Side
from baccara.roads.board import (
    DERIVED,
    Color,
    Roads,
    RoadsError,
    colors,
    derived_color,
    parse_results,
)

EXAMPLE = "worked_example"
WORKED = ROADS.text(EXAMPLE, "results")
WORKED_GRID = ROADS.text(EXAMPLE, "big_road")


def sequence(lengths: list[int], first: str = "B") -> str:
    """Alternating streaks of the given lengths, starting with ``first``."""
    sides = (first, "P" if first == "B" else "B")
    return "".join(sides[i % 2] * n for i, n in enumerate(lengths))


def positions(cells: object) -> list[tuple[int, int]]:
    return [(c.col, c.row) for c in cells]  # type: ignore[attr-defined]


# -- the worked example ----------------------------------------------------------------


def test_worked_example_big_road() -> None:
    roads = Roads.from_results(WORKED)
    assert roads.columns == ROADS.counts(EXAMPLE, "columns")
    assert roads.big_road_grid() == WORKED_GRID
    assert roads.leading_ties == 0
    # the one tie sits on the Player cell before it: column 7, row 1
    tied = [(c.col, c.row, c.side, c.ties) for c in roads.big_road if c.ties]
    assert tied == [(7, 1, Side.PLAYER, 1)]
    # the 8-long Banker streak: down column 4, then right along the bottom row
    dragon = [(c.col, c.row) for c in roads.big_road if c.column == 4]
    assert dragon == [(4, r) for r in range(6)] + [(5, 5), (6, 5)]


def test_worked_example_derived_roads() -> None:
    roads = Roads.from_results(WORKED)
    assert colors(roads.big_eye_boy) == ROADS.text(EXAMPLE, "big_eye_boy")
    assert colors(roads.small_road) == ROADS.text(EXAMPLE, "small_road")
    assert colors(roads.cockroach_pig) == ROADS.text(EXAMPLE, "cockroach_pig")


def test_worked_example_hand_check_of_big_eye_boy() -> None:
    # the reference's: (c1,r1) red, (c1,r2) blue, (c2,r0) blue, (c3,r0) blue, (c3,r1) blue,
    # (c4,r0) blue, (c4,r1) red, (c4,r2) blue, (c4,r3..r7) red
    roads = Roads()
    made = []
    for letter in WORKED:
        update = roads.add(Result(letter))
        if update.big_eye_boy is not None:
            assert update.big_road is not None
            made.append((update.big_road.column, update.big_road.depth, update.big_eye_boy.color))
    marks = ROADS.get(EXAMPLE, "hand_check", "big_eye_boy_first_marks")
    expected = [(column, row, Color(color)) for column, row, color in marks]
    assert len(expected) == 13
    assert made[: len(expected)] == expected


def test_worked_example_derived_layout() -> None:
    roads = Roads.from_results(WORKED)
    # Big Eye Boy: R, then five B (a dragon of 5 in column 1), R, B, five R down column 4...
    beb = roads.big_eye_boy
    assert positions(beb[:7]) == [(0, 0), (1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 0)]
    for road in (roads.big_eye_boy, roads.small_road, roads.cockroach_pig):
        # same colour goes down (or right on a tail), a change starts a new column at the top
        for before, after in pairwise(road):
            if before.color is after.color:
                assert (after.col, after.row) in {
                    (before.col, before.row + 1),
                    (before.col + 1, before.row),
                }
            else:
                assert after.row == 0


def test_worked_example_predictions() -> None:
    roads = Roads.from_results(WORKED)
    ask = roads.predictions()
    # L = [2, 3, 1, 2, 8, 1, 2, 3, 2]; Banker next is column 8 row 2
    assert ask[Side.BANKER].to_json() == {
        "big_eye_boy": "red",  # L[7] = 3 > 2
        "small_road": "blue",  # L[6] = 2 = 2
        "cockroach_pig": "red",  # L[5] = 1 < 2, straight drop
    }
    # Player next starts column 9: L[8] = 2 against L[7] = 3, L[6] = 2, L[5] = 1
    assert ask[Side.PLAYER].to_json() == {
        "big_eye_boy": "blue",
        "small_road": "red",
        "cockroach_pig": "blue",
    }


# -- dragons ---------------------------------------------------------------------------


@pytest.mark.parametrize("length", [7, 8, 12, 30])
def test_long_dragon_turns_right_on_the_last_row(length: int) -> None:
    roads = Roads.from_results("P" * length)
    expected = [(0, r) for r in range(6)] + [(c, 5) for c in range(1, length - 5)]
    assert positions(roads.big_road) == expected
    assert roads.columns == (length,)
    # the next streak starts right of where the dragon STARTED, not right of its tail
    roads.add(Result.BANKER)
    assert positions(roads.big_road[-1:]) == [(1, 0)]


def test_dragon_blocked_by_an_earlier_tail() -> None:
    roads = Roads.from_results("B" * 8 + "P" * 7 + "B" * 6)
    assert roads.big_road_grid() == "\n".join(
        ["BPB..", "BPB..", "BPB..", "BPBBB", "BPPP.", "BBB.."]
    )
    players = [(c.col, c.row) for c in roads.big_road if c.side is Side.PLAYER]
    assert players == [(1, r) for r in range(5)] + [(2, 4), (3, 4)]
    assert roads.columns == (8, 7, 6)


def test_tail_never_drops_back() -> None:
    # the Banker tail covers row 5 of columns 0-1 only; the Player streak turns at
    # column 1 and stays on row 4 although row 5 is free from column 2 on
    roads = Roads.from_results("B" * 7 + "P" * 9)
    players = [(c.col, c.row) for c in roads.big_road if c.side is Side.PLAYER]
    assert players == [(1, r) for r in range(5)] + [(c, 4) for c in range(2, 6)]


def test_nested_tails_with_one_row() -> None:
    roads = Roads.from_results("BBPPB", rows=1)
    # every streak runs along row 0; the next one starts past the previous tail
    assert positions(roads.big_road) == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert roads.big_road_grid() == "BBPPB"


@pytest.mark.parametrize("rows", [3, 6, 8])
def test_rows_are_configurable(rows: int) -> None:
    roads = Roads.from_results("B" * 10, rows=rows)
    assert max(c.row for c in roads.big_road) == rows - 1
    assert roads.width("big_road") == 10 - rows + 1
    assert max(c.row for c in roads.bead_plate) == rows - 1


# -- ties ------------------------------------------------------------------------------


def test_leading_ties() -> None:
    roads = Roads.from_results("TTT")
    assert roads.leading_ties == 3
    assert roads.big_road == ()
    assert [c.result for c in roads.bead_plate] == [Result.TIE] * 3
    update = roads.add(Result.BANKER)
    assert update.new_cell
    assert update.big_road is not None
    assert (update.big_road.col, update.big_road.row, update.big_road.ties) == (0, 0, 0)
    assert roads.to_json()["leading_ties"] == 3
    assert roads.statistics().tie == 3


def test_several_ties_in_a_row() -> None:
    roads = Roads.from_results("TBTTTPTTB")
    assert roads.leading_ties == 1
    assert [(c.side.value, c.ties) for c in roads.big_road] == [("B", 3), ("P", 2), ("B", 0)]
    assert positions(roads.big_road) == [(0, 0), (1, 0), (2, 0)]
    # ties do not break a streak
    streak = Roads.from_results("BTBTTB")
    assert streak.columns == (3,)
    assert [c.ties for c in streak.big_road] == [1, 2, 0]


def test_a_tie_adds_no_derived_mark() -> None:
    roads = Roads.from_results("BBPP")
    update = roads.add(Result.TIE)
    assert update.marks == {"big_eye_boy": None, "small_road": None, "cockroach_pig": None}
    assert not update.new_cell
    assert update.big_road is not None
    assert update.big_road.ties == 1


# -- the derived roads' cases, for each road ---------------------------------------------

CASES = {
    # name: (lengths built from k, the colour of the last entry's mark)
    "red by length": (lambda k: [2] + [1] * (k - 1) + [2], Color.RED),
    "blue one row above": (lambda k: [1] + [1] * (k - 1) + [2], Color.BLUE),
    "red by straight drop": (lambda k: [1] + [1] * (k - 1) + [3], Color.RED),
    "new column equal": (lambda k: [2] + [1] * (k - 1) + [2, 1], Color.RED),
    "new column unequal": (lambda k: [3] + [1] * (k - 1) + [2, 1], Color.BLUE),
}


@pytest.mark.parametrize(("name", "k"), [(n, k) for n, k in DERIVED])
@pytest.mark.parametrize("case", sorted(CASES))
def test_derived_cases(case: str, name: str, k: int) -> None:
    build, expected = CASES[case]
    letters = sequence(build(k))
    roads = Roads.from_results(letters[:-1])
    update = roads.add(Result(letters[-1]))
    mark = update.marks[name]
    assert mark is not None
    assert mark.color is expected
    assert roads.derived(name)[-1] == mark


@pytest.mark.parametrize(("name", "k"), [(n, k) for n, k in DERIVED])
def test_where_each_derived_road_starts(name: str, k: int) -> None:
    # first mark at (column k, row 1) ...
    roads = Roads.from_results(sequence([1] * k + [2]))
    assert len(roads.derived(name)) == 1
    # ... or at (column k + 1, row 0) when column k has one cell
    roads = Roads.from_results(sequence([1] * (k + 1)))
    assert len(roads.derived(name)) == 0
    roads.add(Result.BANKER if len(roads.columns) % 2 == 0 else Result.PLAYER)
    assert len(roads.derived(name)) == 1
    assert derived_color([5] * k, k, 0, k) is None


def test_derived_road_dragon_tail() -> None:
    # Big Eye Boy of a long alternation: all red, a dragon down and then to the right
    roads = Roads.from_results("BP" * 10)
    assert colors(roads.big_eye_boy) == "R" * 18  # columns 2 to 19
    assert positions(roads.big_eye_boy) == [(0, r) for r in range(6)] + [
        (c, 5) for c in range(1, 13)
    ]


# -- coups: pairs and naturals -----------------------------------------------------------


def test_coups_show_pairs_and_naturals() -> None:
    coups = [
        Coup.parse("P:9h,9d B:5s,Qc"),  # Player pair, natural 9: Player wins
        Coup.parse("P:2h,3d,Kc B:3s,3c"),  # Banker pair: Banker wins 6 to 5
        Coup.parse("P:3h,3d B:3s,3c"),  # tie 6 to 6, both pairs
    ]
    roads = Roads.from_coups(coups)
    bead = roads.bead_plate
    assert [(c.result, c.player_pair, c.banker_pair, c.natural) for c in bead] == [
        (Result.PLAYER, True, False, True),
        (Result.BANKER, False, True, False),
        (Result.TIE, True, True, False),
    ]
    big = roads.big_road
    assert [(c.side, c.player_pair, c.banker_pair, c.ties) for c in big] == [
        (Side.PLAYER, True, False, 0),
        (Side.BANKER, False, True, 1),
    ]
    stats = roads.statistics()
    assert (stats.player_pairs, stats.banker_pairs, stats.naturals) == (2, 2, 1)
    data = roads.to_json()
    assert data["bead_plate"][0] == {
        "col": 0,
        "row": 0,
        "result": "P",
        "banker_pair": False,
        "player_pair": True,
        "natural": True,
    }


def test_statistics() -> None:
    stats = Roads.from_results("TBBTBPPBBBBBT").statistics()
    assert (stats.coups, stats.banker, stats.player, stats.tie) == (13, 8, 2, 3)
    assert (stats.longest_banker, stats.longest_player) == (5, 2)
    assert (stats.current_side, stats.current_length) == (Side.BANKER, 5)
    assert Roads().statistics().current_side is None


def test_copy_is_independent() -> None:
    roads = Roads.from_coups([Coup.parse("P:9h,9d B:5s,Qc")])
    other = roads.copy()
    other.add(Result.BANKER)
    assert len(roads) == 1
    assert len(other) == 2
    assert other.bead_plate[0].player_pair


# -- parsing ---------------------------------------------------------------------------


def test_parse_results() -> None:
    assert parse_results(" b P\tt ") == [Result.BANKER, Result.PLAYER, Result.TIE]
    assert parse_results("") == []
    with pytest.raises(RoadsError, match=r"bad result 'x' at position 2"):
        parse_results("Bx")
    with pytest.raises(RoadsError, match="rows"):
        Roads(rows=0)
    with pytest.raises(RoadsError, match="unknown road"):
        Roads().derived("big_road")


def test_json_shape() -> None:
    data = Roads.from_results("TBBPT").to_json()
    assert set(data) >= {
        "bead_plate",
        "big_road",
        "leading_ties",
        "big_eye_boy",
        "small_road",
        "cockroach_pig",
        "predictions",
    }
    assert data["bead_plate"][1]["col"] == 0
    assert data["bead_plate"][1]["row"] == 1
    assert data["bead_plate"][1]["result"] == "B"
    assert [(c["col"], c["row"], c["side"], c["ties"]) for c in data["big_road"]] == [
        (0, 0, "B", 0),
        (0, 1, "B", 0),
        (1, 0, "P", 1),
    ]
    assert data["leading_ties"] == 1
    assert data["big_eye_boy"] == []  # Player at column 1, row 0: too early
    # Banker next starts column 2: L[1] = 1 != L[0] = 2; Player next: L[0] = 2 > 1
    assert data["predictions"]["banker"] == {
        "big_eye_boy": "blue",
        "small_road": None,
        "cockroach_pig": None,
    }
    assert data["predictions"]["player"] == {
        "big_eye_boy": "red",
        "small_road": None,
        "cockroach_pig": None,
    }
    json.dumps(data)


# -- properties ------------------------------------------------------------------------

# random letters, and runs of up to 12 (dragons, nested tails, runs of ties)
results_text = st.one_of(
    st.text(alphabet="BPT", max_size=120),
    st.lists(st.tuples(st.sampled_from("BPPBT"), st.integers(1, 12)), max_size=16).map(
        lambda runs: "".join(letter * n for letter, n in runs)
    ),
)
row_counts = st.integers(min_value=1, max_value=7)


def reference_roads(letters: str, rows: int) -> dict[str, list[tuple[int, int, str]]]:
    """An independent batch build: streaks first, then each road laid out on a 2D grid."""
    streaks = [len(list(g)) for _, g in groupby(c for c in letters if c != "T")]
    sides = [k for k, _ in groupby(c for c in letters if c != "T")]

    def lay_out(keys: list[str]) -> list[tuple[int, int, str]]:
        grid: dict[tuple[int, int], str] = {}
        out: list[tuple[int, int, str]] = []
        start, col, row, turned = -1, 0, 0, False
        for i, key in enumerate(keys):
            if i == 0 or key != keys[i - 1]:
                col = start + 1
                while (col, 0) in grid:  # skip a tail along the top row
                    col += 1
                start, row, turned = col, 0, False
            elif not turned and row + 1 < rows and (col, row + 1) not in grid:
                row += 1
            else:
                col, turned = col + 1, True
            assert (col, row) not in grid
            grid[(col, row)] = key
            out.append((col, row, key))
        return out

    big_keys = [side for side, n in zip(sides, streaks, strict=True) for _ in range(n)]
    result = {"big_road": lay_out(big_keys)}
    for name, k in DERIVED:
        marks = []
        for c, length in enumerate(streaks):
            for r in range(length):
                if r == 0:
                    if c - 1 - k >= 0:
                        same = streaks[c - 1] == streaks[c - 1 - k]
                        marks.append("red" if same else "blue")
                elif c - k >= 0:
                    # the compared column: a cell in row r -> red; ends at row r-1 -> blue;
                    # ended before -> red (straight drop)
                    has_r = streaks[c - k] >= r + 1
                    has_above = streaks[c - k] >= r
                    marks.append("red" if has_r or not has_above else "blue")
        result[name] = lay_out(marks)
    return result


@given(results_text, row_counts)
def test_no_two_cells_share_a_position(letters: str, rows: int) -> None:
    roads = Roads.from_results(letters, rows=rows)
    for cells in (
        roads.bead_plate,
        roads.big_road,
        roads.big_eye_boy,
        roads.small_road,
        roads.cockroach_pig,
    ):
        places = positions(cells)
        assert len(places) == len(set(places))
        assert all(0 <= row < rows and col >= 0 for col, row in places)


@given(results_text, row_counts)
def test_every_result_lands_in_exactly_one_cell(letters: str, rows: int) -> None:
    roads = Roads.from_results(letters, rows=rows)
    assert "".join(c.result.value for c in roads.bead_plate) == letters
    # rebuild the sequence from the Big Road: leading ties, then each cell and its ties
    rebuilt = "T" * roads.leading_ties + "".join(
        c.side.value + "T" * c.ties for c in roads.big_road
    )
    assert rebuilt == letters
    assert sum(roads.columns) == len(roads.big_road)


@given(results_text, row_counts)
def test_batch_build_matches_an_independent_reference(letters: str, rows: int) -> None:
    roads = Roads.from_results(letters, rows=rows)
    expected = reference_roads(letters, rows)
    assert [(c.col, c.row, c.side.value) for c in roads.big_road] == expected["big_road"]
    for name, _ in DERIVED:
        got = [(m.col, m.row, m.color.value) for m in roads.derived(name)]
        assert got == expected[name]


@given(results_text, row_counts)
def test_incremental_build_equals_batch_build(letters: str, rows: int) -> None:
    # replay the updates alone, as a live view would, and compare with the batch build
    live = Roads(rows)
    view: dict[str, dict[tuple[int, int], object]] = {
        name: {} for name in ("bead_plate", "big_road", *dict(DERIVED))
    }
    leading = 0
    for letter in letters:
        update = live.add(Result(letter))
        view["bead_plate"][(update.bead.col, update.bead.row)] = update.bead.result.value
        if update.big_road is None:
            leading += 1
        else:
            cell = update.big_road
            view["big_road"][(cell.col, cell.row)] = (cell.side.value, cell.ties)
        for name, mark in update.marks.items():
            if mark is not None:
                view[name][(mark.col, mark.row)] = mark.color.value
    batch = Roads.from_results(letters, rows=rows)
    assert live.to_json() == batch.to_json()
    assert leading == batch.leading_ties
    assert view["bead_plate"] == {(c.col, c.row): c.result.value for c in batch.bead_plate}
    assert view["big_road"] == {(c.col, c.row): (c.side.value, c.ties) for c in batch.big_road}
    for name, _ in DERIVED:
        assert view[name] == {(m.col, m.row): m.color.value for m in batch.derived(name)}


@given(results_text, row_counts)
def test_predictions_equal_the_marks_added(letters: str, rows: int) -> None:
    roads = Roads(rows)
    for letter in [*letters, "B"]:
        ask = roads.predictions()
        for side in (Side.BANKER, Side.PLAYER):
            trial = roads.copy().add(Result(side.value))
            expected = {
                name: None if mark is None else mark.color.value
                for name, mark in trial.marks.items()
            }
            assert ask[side].to_json() == expected
        roads.add(Result(letter))
