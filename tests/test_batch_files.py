"""Batch files of `baccara odds --batch`: the compiled CSV writer and the reader."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from baccara.exact.batch_files import BatchFileError, read_batch, read_csv, write_csv


def _written(values: np.ndarray) -> list[str]:
    text = write_csv(io.StringIO(), ("x",), values.reshape(-1, 1)).getvalue()
    return text.splitlines()[1:]


def test_numbers_are_written_as_python_writes_15_significant_digits() -> None:
    rng = np.random.default_rng(16)
    values = np.concatenate(
        [
            rng.random(50_000) - 0.5,  # probabilities and edges
            10.0 ** rng.uniform(-8, 15, 50_000) * rng.choice([-1.0, 1.0], 50_000),
            rng.integers(-(10**14), 10**14, 5_000) / 8,  # exact halves: ties go to even
            [0.0, 1.0, 0.1, 1e-4, 9.999999999999999e-5, 1e-5, 123456789012345.0],
            [99999.99999999999, 0.04761904761904762, -0.010579],
        ]
    )
    expected = ["%.15g" % value for value in values]  # noqa: UP031 - the reference
    assert _written(values) == expected


def test_far_magnitudes_keep_15_digits() -> None:
    rng = np.random.default_rng(17)
    values = 10.0 ** rng.uniform(-300, 300, 20_000)
    values = np.concatenate([values, [5e-324, 1.5e308, np.nan, -np.inf]])
    got = _written(values)
    assert got[-2:] == ["nan", "-inf"]
    back = np.array([float(text) for text in got[:-2]])
    assert np.allclose(back, values[:-2], rtol=1e-14, atol=0)


def test_csv_reads_with_or_without_a_header_and_skips_blank_lines() -> None:
    assert read_csv(io.StringIO("\n1,2\n3,4\n"), columns=2).tolist() == [[1, 2], [3, 4]]
    assert read_csv(io.StringIO("a,b\n1,2\n\n3,4\n"), columns=2).tolist() == [[1, 2], [3, 4]]
    for text, message in (
        ("", "no rows"),
        ("a,b\n", "no rows"),
        ("1,2,3\n", "every row needs 2 counts"),
        ("1,2\n3\n", "every row needs 2 counts"),
        ("1,2\nx,y\n", "could not convert 'x': every cell is a count"),
    ):
        with pytest.raises(BatchFileError, match=message):
            read_csv(io.StringIO(text), columns=2)


def test_a_batch_read_from_csv_equals_the_same_batch_from_npy(tmp_path: Path) -> None:
    shoes = np.random.default_rng(3).integers(0, 33, (50, 10))
    np.save(tmp_path / "in.npy", shoes)
    (tmp_path / "in.csv").write_text(
        "c0,c1,c2,c3,c4,c5,c6,c7,c8,c9\n" + "\n".join(",".join(map(str, r)) for r in shoes)
    )
    assert (read_batch(tmp_path / "in.csv") == read_batch(tmp_path / "in.npy")).all()
