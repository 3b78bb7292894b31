"""The layout's rules that a linter does not check: no module of the package over 600
lines (docs/architecture.md); the import contract itself runs in ``make lint``."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "baccara"


def test_no_module_is_over_600_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text().splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 60
    assert {name: n for name, n in sizes.items() if n > 600} == {}
