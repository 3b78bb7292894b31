"""The roads drawn: the terminal's text (80 columns, 24 lines, with or without colour),
the SVG, and the ``baccara roads`` command. Source: tests/data/roads.toml, as
tests/test_roads.py (whose worked example is shared here)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console
from tests.support.reference import ROADS
from tests.test_roads import EXAMPLE, WORKED

from baccara.cli import main
from baccara.coup import Result, deal_shoe
from baccara.roads.board import (
    Roads,
)
from baccara.roads.render import BLUE, GREEN, RED, render_plain, render_svg, render_text
from baccara.shoe import Shoe, ShoeSettings

# -- rendering -------------------------------------------------------------------------


def long_shoe() -> Roads:
    return Roads.from_coups(deal_shoe(Shoe.shuffled(ShoeSettings(decks=8), seed=3)))


def test_terminal_rendering_fits_80_columns_and_shows_the_latest_columns() -> None:
    roads = Roads.from_results("BP" * 40 + "B" * 9)  # Big Road 80 + 4 columns wide
    console = Console(width=200, record=True, color_system="truecolor")
    console.print(render_text(roads, width=80))
    lines = console.export_text().splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    # beside the Bead Plate, the Big Road shows its 18 latest columns and says so
    top = next(n for n, ln in enumerate(lines) if "Big Road …18/84" in ln)
    # the most recent column is shown: the 9-long Banker dragon's tail on the last row
    assert lines[top + 6].rstrip().endswith("B  B  B  B")
    # and on a 24-line screen everything shows (29 lines before, the roads stacked)
    assert len(lines) <= 24, len(lines)


def test_a_narrow_terminal_stacks_the_bead_plate_and_the_big_road() -> None:
    roads = Roads.from_results("BP" * 40 + "B" * 9)
    text = render_plain(roads, width=50)
    assert "Big Road  (last 16 of 84 columns)" in text
    assert max(len(line) for line in text.splitlines()) <= 50


def test_terminal_rendering_without_colour_writes_r_and_b() -> None:
    text = render_plain(Roads.from_results(WORKED), width=80)
    lines = text.splitlines()
    top = lines.index(next(ln for ln in lines if ln.startswith("Big Eye Boy")))
    beb = [line[:9] for line in lines[top + 1 : top + 7]]
    # Big Eye Boy RBBBBBRBRRRRRBBBBRBBR laid out: R | BBBBB | R | B | RRRRR | BBBB | R | BB | R
    assert beb == ["RBRBRBRBR", "·B··RB·B·", "·B··RB···", "·B··RB···", "·B··R····", "·········"]
    assert "Ask road: if Banker RBR   if Player BRB" in text
    assert "25 coups: Banker 15, Player 9, Tie 1" in text
    assert max(len(line) for line in render_plain(long_shoe(), 80).splitlines()) <= 80
    assert max(len(line) for line in render_plain(long_shoe(), 40).splitlines()) <= 40


def test_empty_roads_render() -> None:
    text = render_plain(Roads(), width=80)
    assert "0 coups" in text
    ET.fromstring(render_svg(Roads()))


def test_svg_is_well_formed_and_draws_every_mark() -> None:
    roads = long_shoe()
    root = ET.fromstring(render_svg(roads))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    circles = root.iter(f"{ns}circle")
    beads = [c for c in circles if c.get("r") == "10.4"]  # 0.4 of a 26-pixel cell
    assert len(beads) == len(roads.bead_plate)
    fills = {RED: Result.BANKER, BLUE: Result.PLAYER, GREEN: Result.TIE}
    assert [fills[b.get("fill", "")] for b in beads] == [c.result for c in roads.bead_plate]
    hollow = [c for c in root.iter(f"{ns}circle") if c.get("r") == "8.84"]  # Big Road
    assert len(hollow) == len(roads.big_road)
    slashes = [ln for ln in root.iter(f"{ns}line") if ln.get("stroke") == GREEN]
    assert len(slashes) == sum(1 for c in roads.big_road if c.ties) + (
        1 if roads.leading_ties and not roads.big_road[0].ties else 0
    )


# -- command line ----------------------------------------------------------------------


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    spaced = f"{WORKED[:5]} {WORKED[5:]}".lower()  # case and spaces are ignored
    assert main(["roads", spaced, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == Roads.from_results(WORKED).to_json()
    cockroach_pig = "".join(m["color"][0].upper() for m in data["cockroach_pig"])
    assert cockroach_pig == ROADS.text(EXAMPLE, "cockroach_pig")


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roads", WORKED]) == 0
    out = capsys.readouterr().out
    assert "Big Road" in out
    assert "Cockroach Pig" in out


@pytest.mark.parametrize("args", [["BPX"], ["B P 1"], ["--rows", "0", "B"]])
def test_cli_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roads", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("baccara: error:")


def test_cli_empty_sequence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roads", "", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bead_plate"] == data["big_road"] == []
    assert data["predictions"]["banker"]["big_eye_boy"] is None


def test_cli_from_file_svg_and_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shoe = tmp_path / "shoe.txt"
    shoe.write_text("# one shoe\nP:9h,9d B:5s,Qc\n\nP:2h,3d,Kc B:3s,3c\n", encoding="utf-8")
    picture = tmp_path / "roads.svg"
    assert main(["roads", "--from", str(shoe), "--rows", "3", "--svg", str(picture), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == 3
    assert data["big_road"][0]["player_pair"] is True
    assert data["statistics"]["naturals"] == 1
    ET.parse(picture)


def test_cli_from_file_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shoe = tmp_path / "shoe.txt"
    shoe.write_text("P:9h,9d B:5s,Qc\nP:2h,3d B:Ks,7c\n", encoding="utf-8")
    assert main(["roads", "--from", str(shoe)]) == 2
    assert "line 2" in capsys.readouterr().err
    assert main(["roads", "--from", str(shoe), "BP"]) == 2
    assert "not both" in capsys.readouterr().err


def test_one_coup_is_one_coup_in_words() -> None:
    """Found: the lobby's roads said '1 coups'."""
    one = Roads.from_results("B")
    assert "1 coup ·" in render_svg(one) and "1 coups" not in render_svg(one)
    assert "1 coup:" in render_plain(one) and "2 coups:" in render_plain(Roads.from_results("BP"))
