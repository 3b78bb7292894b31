"""Batch files of `baccara odds --batch`: compositions in, odds out, as ``.npy`` or CSV.

``.npy`` is exact and fastest. CSV is for people and spreadsheets: a composition a
row (10 counts, tens first, an optional header), and odds written with 15 significant
digits by a compiled formatter, so that reading and writing cost about what the odds
do (Python's ``csv`` module took 26 of every 28 µs a shoe).

>>> import io, numpy as np
>>> write_csv(io.StringIO(), ("p", "q"), np.array([[0.5, -1.25e-7], [1 / 3, 0.0]])).getvalue()
'p,q\\n0.5,-1.25e-07\\n0.333333333333333,0\\n'
>>> read_csv(io.StringIO("c0,c1\\n1,2\\n\\n3,4\\n"), columns=2).tolist()
[[1.0, 2.0], [3.0, 4.0]]
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import IO, Any

import numpy as np
from numba import njit

__all__ = ["BatchFileError", "read_batch", "read_csv", "write_batch", "write_csv"]

DIGITS = 15
"""Significant digits of a number in a CSV file (the ``.npy`` file keeps every bit)."""


class BatchFileError(ValueError):
    """A batch file that cannot be read or written; the message says why."""


def read_batch(path: Path) -> np.ndarray:
    """K compositions from a ``.npy`` (K x 10) or ``.csv`` (10 columns, optional header)."""
    suffix = path.suffix.lower()
    if suffix not in (".npy", ".csv"):
        raise BatchFileError(f"bad batch file {str(path)!r}: expected a .npy or .csv file")
    if not path.is_file():
        raise BatchFileError(f"bad batch file {str(path)!r}: no such file")
    try:
        if suffix == ".npy":
            return np.asarray(np.load(path, allow_pickle=False))
        with path.open(encoding="utf-8") as stream:
            return read_csv(stream, columns=10)
    except BatchFileError as error:
        raise BatchFileError(f"bad batch file {str(path)!r}: {error}") from None
    except (OSError, ValueError, UnicodeDecodeError) as error:
        raise BatchFileError(f"bad batch file {str(path)!r}: {error}") from None


def read_csv(stream: IO[str], *, columns: int) -> np.ndarray:
    """The numbers of a CSV stream (a first line of names is skipped), ``columns`` a row."""
    first = ""
    while not first.strip():  # blank lines before the first row
        first = stream.readline()
        if not first:
            raise BatchFileError("no rows")
    header = not _numeric(first.split(","))
    body = stream.read() if header else first + stream.read()
    if not body.strip():
        raise BatchFileError("no rows")
    try:
        rows = np.loadtxt(body.splitlines(), delimiter=",", dtype=np.float64, ndmin=2)
    except ValueError as error:
        if "number of columns changed" in str(error):
            raise BatchFileError(f"every row needs {columns} counts") from None
        cell = str(error).split(" at row")[0].replace("string ", "").replace(" to float64", "")
        raise BatchFileError(f"{cell}: every cell is a count") from None
    if rows.shape[0] == 0:
        raise BatchFileError("no rows")
    if rows.shape[1] != columns:
        raise BatchFileError(f"every row needs {columns} counts")
    return rows


def _numeric(cells: list[str]) -> bool:
    try:
        [float(cell) for cell in cells]
    except ValueError:
        return False
    return True


def write_batch(columns: tuple[str, ...], values: np.ndarray, path: Path) -> None:
    """Write rows of odds as ``.npy`` or ``.csv`` (with a header of ``columns``)."""
    suffix = path.suffix.lower()
    if suffix == ".npy":
        np.save(path, values)
    elif suffix == ".csv":
        with path.open("w", encoding="utf-8", newline="") as stream:
            write_csv(stream, columns, values)
    else:
        raise BatchFileError(f"bad output file {str(path)!r}: expected a .npy or .csv file")


def write_csv(stream: IO[str], columns: tuple[str, ...], values: np.ndarray) -> IO[str]:
    """Write a header and the rows of ``values``, each number with `DIGITS` digits."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    stream.write(",".join(columns) + "\n")
    block = 65_536  # rows formatted at a time: the text of a block is a few MB
    for start in range(0, values.shape[0], block):
        stream.write(_format_rows(values[start : start + block]).tobytes().decode("ascii"))
    return stream


_WIDTH = DIGITS + 10  # sign, point, digits, e-XXX and the separator


@njit(cache=True)
def _format_rows(values: Any) -> Any:  # pragma: no cover - compiled
    rows, cols = values.shape
    out = np.empty(rows * cols * _WIDTH + rows, dtype=np.uint8)
    at = 0
    digits = np.empty(DIGITS, dtype=np.uint8)
    for r in range(rows):
        for c in range(cols):
            if c:
                out[at] = 44  # ,
                at += 1
            at = _format_number(values[r, c], out, at, digits)
        out[at] = 10  # newline
        at += 1
    return out[:at]


@njit(cache=True)
def _format_number(x: float, out: Any, at: int, digits: Any) -> int:  # pragma: no cover
    """Write ``x`` at ``out[at:]`` like ``'%.15g'`` (trailing zeros dropped); the end."""
    if x != x:
        for ch in (110, 97, 110):  # nan
            out[at] = ch
            at += 1
        return at
    if x < 0:
        out[at] = 45  # -
        at += 1
        x = -x
    if x == math.inf:
        for ch in (105, 110, 102):  # inf
            out[at] = ch
            at += 1
        return at
    if x == 0.0:
        out[at] = 48
        return at + 1
    exponent = math.floor(math.log10(x))
    mantissa = _rounded(x, DIGITS - 1 - exponent)
    if mantissa >= 10**DIGITS:  # log10 rounded up to the next power of ten
        exponent += 1
        mantissa = _rounded(x, DIGITS - 1 - exponent)
    elif mantissa < 10 ** (DIGITS - 1):
        exponent -= 1
        mantissa = _rounded(x, DIGITS - 1 - exponent)
        if mantissa >= 10**DIGITS:
            exponent += 1
            mantissa //= 10
    for i in range(DIGITS - 1, -1, -1):
        digits[i] = 48 + mantissa % 10
        mantissa //= 10
    last = DIGITS - 1
    while last > 0 and digits[last] == 48:
        last -= 1
    if -4 <= exponent < DIGITS:  # positional, as %g
        if exponent < 0:
            out[at] = 48
            out[at + 1] = 46
            at += 2
            for _ in range(-exponent - 1):
                out[at] = 48
                at += 1
            for i in range(last + 1):
                out[at] = digits[i]
                at += 1
            return at
        for i in range(max(last, exponent) + 1):
            if i == exponent + 1:
                out[at] = 46
                at += 1
            out[at] = digits[i] if i <= last else 48
            at += 1
        return at
    out[at] = digits[0]
    at += 1
    if last > 0:
        out[at] = 46
        at += 1
        for i in range(1, last + 1):
            out[at] = digits[i]
            at += 1
    out[at] = 101  # e
    at += 1
    out[at] = 45 if exponent < 0 else 43
    at += 1
    shown = -exponent if exponent < 0 else exponent
    if shown >= 100:
        out[at] = 48 + shown // 100
        at += 1
    out[at] = 48 + (shown // 10) % 10
    out[at + 1] = 48 + shown % 10
    return at + 2


@njit(cache=True)
def _rounded(x: float, power: int) -> int:  # pragma: no cover - compiled
    """``x * 10**power`` rounded to the nearest integer, the product's rounding error
    kept (Dekker's exact product) so that the half-way decisions are those of ``%g``."""
    while power > 22:  # below 1e-8: two roundings, a last digit may differ from %g
        x *= 1e22
        power -= 22
    while power < 0:
        x /= 10.0 ** min(-power, 22)
        power += min(-power, 22)
    scale = 10.0**power  # exact up to 1e22
    product = x * scale
    error = _product_error(x, scale, product)
    whole = math.floor(product)
    part = (product - whole) + error
    up = part > 0.5 or (part == 0.5 and whole % 2 == 1)  # ties to even, as %g
    return int(whole) + (1 if up else 0)


@njit(cache=True)
def _product_error(a: float, b: float, product: float) -> float:  # pragma: no cover
    """``a * b - product`` exactly, for ``product = a * b`` rounded (Dekker, Veltkamp)."""
    a_split = 134217729.0 * a
    a_hi = a_split - (a_split - a)
    a_lo = a - a_hi
    b_split = 134217729.0 * b
    b_hi = b_split - (b_split - b)
    b_lo = b - b_hi
    return ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
