"""``baccara roads``: the five roads of a sequence of results or of coups."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import click
from rich.console import Console

from baccara.cli.common import echo_json, fail
from baccara.coup import Coup, CoupError
from baccara.roads.board import Roads, parse_results
from baccara.roads.render import render_svg, render_text

__all__ = ["COMMANDS", "read_coups"]


def read_coups(stream: TextIO, name: str) -> list[Coup]:
    """One coup a line in the compact notation; blank lines and ``#`` comments skipped."""
    coups = []
    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            coups.append(Coup.parse(text))
        except CoupError as error:
            fail(f"{name}, line {number}: {error}")
    return coups


@click.command(name="roads")
@click.argument("sequence", nargs=-1)
@click.option(
    "--from",
    "source",
    type=click.File("r", encoding="utf-8"),
    default=None,
    metavar="FILE",
    help="Read one coup a line in the compact notation ('-' for stdin); pairs then show.",
)
@click.option(
    "--rows", type=click.IntRange(1, 50), default=6, show_default=True, help="Rows in each road."
)
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    metavar="FILE",
    help="Also write the roads as an SVG picture.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the roads as JSON.")
def roads_command(
    sequence: tuple[str, ...],
    source: TextIO | None,
    rows: int,
    svg_path: Path | None,
    as_json: bool,
) -> None:
    """Draw the Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig.

    SEQUENCE is a string of B, P and T (case and spaces ignored); or give --from
    FILE with one coup a line, such as 'P:9h,9d B:5s,Qc'.

    \b
    Examples: baccara roads BBPPPBPPBBBBBBBBPBBPPTPBB
              baccara roads --from shoe.txt --svg roads.svg
    """
    if source is not None and sequence:
        fail("give either a SEQUENCE or --from FILE, not both")
    if source is not None:
        roads = Roads.from_coups(read_coups(source, source.name), rows=rows)
    else:
        roads = Roads.from_results(parse_results(" ".join(sequence)), rows=rows)
    if svg_path is not None:
        try:
            svg_path.write_text(render_svg(roads), encoding="utf-8")
        except OSError as error:
            fail(f"cannot write {str(svg_path)!r}: {error.strerror}")
    if as_json:
        echo_json(roads.to_json())
        return
    console = Console(highlight=False)
    console.print(render_text(roads, width=console.width))
    if svg_path is not None:
        console.print(f"SVG written to {svg_path}", style="dim")


COMMANDS = (roads_command,)
