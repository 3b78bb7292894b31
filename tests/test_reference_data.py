"""The tests' reference data: every file of tests/data names its source, and the figures
the tests compare against live in the repository, not in a path outside it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from tests.support.reference import DATA, NUMBERS, ROADS, Printed, uncited

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for p in DATA.rglob("*") if p.is_file())


def test_there_is_reference_data() -> None:
    names = {p.name for p in FILES}
    assert {"numbers.toml", "roads.toml"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_data_file_names_its_source(path: Path) -> None:
    if path.suffix == ".toml":
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert str(data.get("source", "")).strip(), f"{path.name}: no top-level source"
        assert uncited(data) == [], f"{path.name}: tables without a source"
    elif path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict) and str(data.get("source", "")).strip(), path.name
    else:  # a text file: a "Source:" line in its header
        head = path.read_text(encoding="utf-8").splitlines()[:10]
        assert any("Source:" in line for line in head), path.name


def test_a_table_without_a_source_is_found() -> None:
    data = {"source": "a book", "a": {"source": "p. 1", "x": "1"}, "b": {"c": {"y": "2"}}}
    assert uncited(data) == ["b.c"]
    assert uncited({"source": "a book", "b": {"c": {"source": "p. 2", "y": "2"}}}) == []


def test_printed_figures_keep_their_decimals() -> None:
    tie_9 = NUMBERS.row("main", "8")["tie_9"]
    assert (tie_9.text, tie_9.digits, tie_9.percent, tie_9.fraction) == (
        "4.8440%",
        4,
        True,
        0.04844,
    )
    assert tie_9.matches(0.0484404999) and not tie_9.matches(0.048441)
    assert Printed("-0.0000435175").digits == 10
    with pytest.raises(ArithmeticError):
        Printed("about 1%")
    assert ROADS.counts("worked_example", "columns") == (2, 3, 1, 2, 8, 1, 2, 3, 2)


def test_no_file_reads_figures_from_outside_the_repository() -> None:
    outside = "/work/" + "shared"
    named = [
        str(path.relative_to(ROOT))
        for folder in ("src", "tests", "bench", "docs")
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".md", ".toml", ".json", ".js", ".txt"}
        and outside in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert named == []
