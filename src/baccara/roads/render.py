"""Drawing the roads: coloured terminal text (Rich) and SVG, both from `Roads`.

>>> roads = Roads.from_results("BBPT")
>>> print(render_plain(roads, width=40).splitlines()[1:5])
[' B', ' B', ' P', ' T']
>>> render_svg(roads).startswith("<svg")
True
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from html import escape

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from baccara.coup import Result, Side
from baccara.roads.board import DERIVED, BeadCell, BigRoadCell, Color, Prediction, Roads

__all__ = ["BLUE", "GREEN", "RED", "RoadsView", "render_plain", "render_svg", "render_text"]

#: Scoreboard colours (SVG); the terminal uses the nearest named colours.
RED, BLUE, GREEN, GOLD = "#d0021b", "#1d5bd8", "#10934a", "#e8a800"

_TITLES = {
    "big_eye_boy": "Big Eye Boy",
    "small_road": "Small Road",
    "cockroach_pig": "Cockroach Pig",
}
_GLYPHS = {"big_eye_boy": "○", "small_road": "●", "cockroach_pig": "╱"}
_TERM = {Color.RED: "red1", Color.BLUE: "dodger_blue1"}
_BEAD_STYLE = {
    Result.BANKER: "bold white on red3",
    Result.PLAYER: "bold white on blue3",
    Result.TIE: "bold white on green4",
}
_SIDE_STYLE = {Side.BANKER: "bold red1", Side.PLAYER: "bold dodger_blue1"}
_EMPTY = "·"

# -- terminal -----------------------------------------------------------------------


def _visible(width: int, fit: int) -> tuple[int, int]:
    """The first column shown and how many: the most recent ``fit`` columns."""
    shown = max(1, min(width, fit))
    return max(0, width - shown), shown


def _title(name: str, width: int, first: int, shown: int, *, short: bool = False) -> Text:
    title = Text(name, style="bold")
    if first > 0:
        title.append(
            f" …{shown}/{width}" if short else f"  (last {shown} of {width} columns)", style="dim"
        )
    return title


def _grid_lines(
    rows: int, first: int, shown: int, cell_width: int, cells: dict[tuple[int, int], Text]
) -> list[Text]:
    blank = Text(_EMPTY.center(cell_width), style="grey42")
    lines = []
    for row in range(rows):
        line = Text()
        for col in range(first, first + shown):
            line.append_text(cells.get((col, row), blank))
        lines.append(line)
    return lines


def _bead_text(cell: BeadCell) -> Text:
    text = Text("•" if cell.banker_pair else " ", style="bold red1")
    style = _BEAD_STYLE[cell.result] + (" underline" if cell.natural else "")
    text.append(cell.result.value, style=style)
    text.append("•" if cell.player_pair else " ", style="bold dodger_blue1")
    return text


def _big_text(cell: BigRoadCell, ties: int) -> Text:
    text = Text("•" if cell.banker_pair else " ", style="bold red1")
    text.append(cell.side.value, style=_SIDE_STYLE[cell.side])
    if ties:
        text.append(str(ties) if ties < 10 else "+", style="bold green")
    else:
        text.append("•" if cell.player_pair else " ", style="bold dodger_blue1")
    return text


def _mark_text(name: str, color: Color | None, plain: bool) -> Text:
    if color is None:
        return Text("-", style="dim")
    # without colour the glyph cannot tell red from blue: write R or B instead
    return Text(color.letter if plain else _GLYPHS[name], style=_TERM[color])


def _prediction_text(side: Side, prediction: Prediction, plain: bool) -> Text:
    text = Text(f"if {side.word.title()} ", style=_SIDE_STYLE[side])
    for name, _ in DERIVED:
        text.append_text(_mark_text(name, getattr(prediction, name), plain))
    return text


class RoadsView:
    """A Rich renderable of the roads; it fits ``width`` and the console, whichever is less.

    Without colour (``NO_COLOR``, a pipe) the derived roads' marks are written ``R``/``B``.
    """

    def __init__(self, roads: Roads, width: int = 80) -> None:
        self.roads = roads
        self.width = width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        plain = console.no_color or console.color_system is None
        yield _build(self.roads, min(self.width, options.max_width), plain, console)


def render_text(roads: Roads, width: int = 80) -> RoadsView:
    """The five roads, the ask road and the statistics, at most ``width`` columns wide.

    A road wider than the space shows its most recent columns and says so.
    """
    return RoadsView(roads, width)


def render_plain(roads: Roads, width: int = 80) -> str:
    """The text rendering without colour, as a string (trailing spaces removed).

    >>> print(render_plain(Roads.from_results("BBPT PBBB"), width=44))
    Bead Plate
     B  B
     B  B
     P  ·
     T  ·
     P  ·
     B  ·
    <BLANKLINE>
    Big Road
     B  P1 B
     B  P  B
     ·  ·  B
     ·  ·  ·
     ·  ·  ·
     ·  ·  ·
    <BLANKLINE>
    Big Eye Boy    Small Road     Cockroach Pig
    RB             RB             ·
    R·             ··             ·
    R·             ··             ·
    ··             ··             ·
    ··             ··             ·
    ··             ··             ·
    <BLANKLINE>
    Ask road: if Banker RR-   if Player BB-
    8 coups: Banker 5, Player 2, Tie 1   pairs:
    B 0, P 0   naturals: 0
    Streaks: longest Banker 3, Player 2; current
    Banker 3
    • pair (left B, right P)  digit: ties
    underline: natural  R/B: red/blue
    """
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(RoadsView(roads, width))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def _build(roads: Roads, width: int, plain: bool, console: Console) -> Group:
    width = max(width, 24)
    parts: list[Text] = []
    rows = roads.rows

    # Bead Plate and Big Road: three characters a cell (pair dot, letter, pair dot or ties),
    # side by side where the width allows (a 24-line screen holds everything), else stacked
    gap = 2
    beside = width >= 60
    bead_fit = min(roads.width("bead_plate"), width // 9) if beside else width // 3
    big_fit = (width - max(3 * bead_fit, 16) - gap) // 3 if beside else width // 3
    first, shown = _visible(roads.width("bead_plate"), bead_fit)
    cells = {(c.col, c.row): _bead_text(c) for c in roads.bead_plate if c.col >= first}
    bead = [
        _title("Bead Plate", roads.width("bead_plate"), first, shown, short=beside),
        *_grid_lines(rows, first, shown, 3, cells),
    ]

    big = roads.big_road
    first, shown = _visible(roads.width("big_road"), big_fit)
    title = _title("Big Road", roads.width("big_road"), first, shown, short=beside)
    if roads.leading_ties:
        title.append(f"  leading ties: {roads.leading_ties}", style="green")
    cells = {}
    for index, cell in enumerate(big):
        if cell.col >= first:
            ties = cell.ties + (roads.leading_ties if index == 0 else 0)
            cells[(cell.col, cell.row)] = _big_text(cell, ties)
    big_lines = [title, *_grid_lines(rows, first, shown, 3, cells)]
    if beside:
        wide = min(max(3 * bead_fit, bead[0].cell_len), width // 3)
        for line in bead:
            line.truncate(wide, overflow="ellipsis")
            line.pad_right(wide - line.cell_len)
        parts.extend(Text(" " * gap).join(pair) for pair in zip(bead, big_lines, strict=True))
    else:
        parts.extend([*bead, Text(), *big_lines])
    parts.append(Text())

    # The derived roads side by side, one character a cell, like the casino's small grids
    fit = (width - 2 * gap) // 3
    blocks: list[list[Text]] = []
    for name, _ in DERIVED:
        marks = roads.derived(name)
        first, shown = _visible(roads.width(name), fit)
        head = Text(_TITLES[name], style="bold")
        if first > 0:
            head.append(f" …{shown}/{roads.width(name)}", style="dim")
        head.truncate(fit, overflow="ellipsis")
        derived = {
            (m.col, m.row): _mark_text(name, m.color, plain) for m in marks if m.col >= first
        }
        block = [head, *_grid_lines(rows, first, shown, 1, derived)]
        for line in block:
            line.pad_right(fit - line.cell_len)
        blocks.append(block)
    for side_by_side in zip(*blocks, strict=True):
        parts.append(Text(" " * gap).join(side_by_side))
    parts.append(Text())

    predictions = roads.predictions()
    ask = Text()
    ask.append("Ask road: ", style="bold")
    ask.append_text(_prediction_text(Side.BANKER, predictions[Side.BANKER], plain))
    ask.append("   ")
    ask.append_text(_prediction_text(Side.PLAYER, predictions[Side.PLAYER], plain))
    for part in parts:  # grids never wrap: they are cut (the title says so)
        part.no_wrap = True
        part.truncate(width, overflow="ellipsis")
    lines: list[RenderableType] = [*parts]
    for note in (ask, *_statistics_text(roads, plain)):
        lines.extend(note.wrap(console, width))
    return Group(*lines)


def _coups(count: int) -> str:
    """``'1 coup'``, ``'8 coups'``."""
    return f"{count} coup{'' if count == 1 else 's'}"


def _statistics_text(roads: Roads, plain: bool) -> list[Text]:
    s = roads.statistics()
    line = Text()
    line.append(f"{_coups(s.coups)}: ", style="bold")
    line.append(f"Banker {s.banker}", style="red1")
    line.append(", ")
    line.append(f"Player {s.player}", style="dodger_blue1")
    line.append(", ")
    line.append(f"Tie {s.tie}", style="green")
    line.append(f"   pairs: B {s.banker_pairs}, P {s.player_pairs}   naturals: {s.naturals}")
    streaks = Text("Streaks: longest ")
    streaks.append(f"Banker {s.longest_banker}", style="red1")
    streaks.append(", ")
    streaks.append(f"Player {s.longest_player}", style="dodger_blue1")
    if s.current_side is not None:
        streaks.append("; current ")
        streaks.append(
            f"{s.current_side.word.title()} {s.current_length}", style=_SIDE_STYLE[s.current_side]
        )
    marks = "R/B: red/blue" if plain else "○●╱: BEB, SR, CP"
    legend = Text(
        f"• pair (left B, right P)  digit: ties  underline: natural  {marks}",
        style="dim",
    )
    return [line, streaks, legend]


# -- SVG ------------------------------------------------------------------------------


class _Svg:
    """A tiny SVG writer: every attribute is escaped."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: float | str) -> None:
        joined = " ".join(
            f'{key.rstrip("_").replace("_", "-")}="{escape(_fmt(value))}"'
            for key, value in attrs.items()
        )
        if text is None:
            self.parts.append(f"<{tag} {joined}/>")
        else:
            self.parts.append(f"<{tag} {joined}>{escape(text, quote=False)}</{tag}>")


def _fmt(value: float | str) -> str:
    if isinstance(value, str):
        return value
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _grid(svg: _Svg, x: float, y: float, cols: int, rows: int, size: float) -> None:
    svg.add("rect", x=x, y=y, width=cols * size, height=rows * size, fill="#ffffff")
    path = [f"M{_fmt(x + c * size)} {_fmt(y)}v{_fmt(rows * size)}" for c in range(cols + 1)]
    path += [f"M{_fmt(x)} {_fmt(y + r * size)}h{_fmt(cols * size)}" for r in range(rows + 1)]
    svg.add("path", d="".join(path), stroke="#d6d6d6", stroke_width=1, fill="none")


def _pairs(svg: _Svg, cx: float, cy: float, size: float, banker: bool, player: bool) -> None:
    for flag, dx, color in ((banker, -1, RED), (player, 1, BLUE)):
        if flag:
            svg.add(
                "circle",
                cx=cx + dx * 0.33 * size,
                cy=cy + dx * 0.33 * size,
                r=0.13 * size,
                fill=color,
                stroke="#ffffff",
                stroke_width=1.5,
            )


def _bead_svg(svg: _Svg, x: float, y: float, size: float, cells: Iterable[BeadCell]) -> None:
    fill = {Result.BANKER: RED, Result.PLAYER: BLUE, Result.TIE: GREEN}
    for cell in cells:
        cx, cy = x + (cell.col + 0.5) * size, y + (cell.row + 0.5) * size
        if cell.natural:
            svg.add("circle", cx=cx, cy=cy, r=0.46 * size, fill=GOLD)
        svg.add("circle", cx=cx, cy=cy, r=0.4 * size, fill=fill[cell.result])
        svg.add(
            "text",
            cell.result.value,
            x=cx,
            y=cy + 0.17 * size,
            fill="#ffffff",
            font_size=0.46 * size,
            font_weight="bold",
            text_anchor="middle",
        )
        _pairs(svg, cx, cy, size, cell.banker_pair, cell.player_pair)


def _big_svg(
    svg: _Svg, x: float, y: float, size: float, cells: Sequence[BigRoadCell], leading: int
) -> None:
    for index, cell in enumerate(cells):
        cx, cy = x + (cell.col + 0.5) * size, y + (cell.row + 0.5) * size
        color = RED if cell.side is Side.BANKER else BLUE
        _ring(svg, cx, cy, size, color, 0.34, 0.11)
        ties = cell.ties + (leading if index == 0 else 0)
        if ties:
            _slash(svg, cx, cy, size, GREEN, 0.1)
            if ties > 1:
                svg.add(
                    "text",
                    str(ties),
                    x=cx,
                    y=cy + 0.15 * size,
                    fill=GREEN,
                    font_size=0.42 * size,
                    font_weight="bold",
                    text_anchor="middle",
                )
        _pairs(svg, cx, cy, size, cell.banker_pair, cell.player_pair)


def _ring(
    svg: _Svg, cx: float, cy: float, size: float, paint: str, radius: float, width: float
) -> None:
    """A hollow ring in a cell: a Big Road entry, a Big Eye Boy mark."""
    svg.add(
        "circle",
        cx=cx,
        cy=cy,
        r=radius * size,
        fill="none",
        stroke=paint,
        stroke_width=width * size,
    )


def _slash(svg: _Svg, cx: float, cy: float, size: float, paint: str, width: float) -> None:
    """A slash through a cell: a tie on the Big Road, a Cockroach Pig mark."""
    d = 0.34 * size
    svg.add(
        "line",
        x1=cx - d,
        y1=cy + d,
        x2=cx + d,
        y2=cy - d,
        stroke=paint,
        stroke_width=width * size,
        stroke_linecap="round",
    )


def _mark_svg(svg: _Svg, name: str, cx: float, cy: float, size: float, color: Color) -> None:
    paint = RED if color is Color.RED else BLUE
    if name == "big_eye_boy":
        _ring(svg, cx, cy, size, paint, 0.33, 0.14)
    elif name == "small_road":
        svg.add("circle", cx=cx, cy=cy, r=0.38 * size, fill=paint)
    else:
        _slash(svg, cx, cy, size, paint, 0.16)


def _label(svg: _Svg, x: float, y: float, text: str) -> None:
    svg.add("text", text, x=x, y=y, fill="#333333", font_size=12, font_weight="bold")


def render_svg(roads: Roads, *, cell: float = 26, min_columns: int = 20) -> str:
    """The roads as a standalone SVG document, laid out like a casino scoreboard.

    Bead Plate and Big Road on top; below, on half-size cells, Big Eye Boy (hollow
    circles) across the whole width, then Small Road (dots), Cockroach Pig (slashes)
    and the ask road. The grids stretch to a common width; a road never gets fewer
    than ``min_columns`` columns (Big Road scale).
    """
    rows, half = roads.rows, cell / 2
    svg = _Svg()
    # widths in half-cells; one half-cell between neighbouring grids
    bead = 2 * max(roads.width("bead_plate"), 6)
    big = 2 * max(roads.width("big_road"), min_columns)
    beb = max(roads.width("big_eye_boy"), 2 * min_columns)
    small = max(roads.width("small_road"), min_columns)
    pig = max(roads.width("cockroach_pig"), min_columns)
    ask = 8
    total = max(bead + 1 + big, beb, small + 1 + pig + 1 + ask)
    big = (total - bead - 1) // 2 * 2
    total = bead + 1 + big
    beb = total
    spare = total - (small + 1 + pig + 1 + ask)
    small, pig = small + spare // 2, pig + spare - spare // 2

    label = 18.0
    x0 = half
    top_y = 30 + label
    beb_y = top_y + rows * cell + label + 6
    low_y = beb_y + rows * half + label + 6
    width = total * half + 2 * x0
    height = low_y + rows * half + half

    stats = roads.statistics()
    summary = (
        f"{_coups(stats.coups)} · Banker {stats.banker} · Player {stats.player} · Tie {stats.tie}"
        f" · pairs B {stats.banker_pairs} P {stats.player_pairs} · naturals {stats.naturals}"
    )
    svg.add("rect", x=0, y=0, width=width, height=height, fill="#f4f1ea")
    svg.add("text", summary, x=x0, y=22, fill="#222222", font_size=13)
    leading = f" (leading ties: {roads.leading_ties})" if roads.leading_ties else ""
    big_x = x0 + (bead + 1) * half
    _label(svg, x0, top_y - 6, "Bead Plate")
    _label(svg, big_x, top_y - 6, "Big Road" + leading)
    _grid(svg, x0, top_y, bead // 2, rows, cell)
    _grid(svg, big_x, top_y, big // 2, rows, cell)
    _bead_svg(svg, x0, top_y, cell, roads.bead_plate)
    _big_svg(svg, big_x, top_y, cell, roads.big_road, roads.leading_ties)

    places = (
        ("big_eye_boy", x0, beb_y, beb),
        ("small_road", x0, low_y, small),
        ("cockroach_pig", x0 + (small + 1) * half, low_y, pig),
    )
    for name, x, y, cols in places:
        _label(svg, x, y - 6, _TITLES[name])
        _grid(svg, x, y, cols, rows, half)
        for mark in roads.derived(name):
            cx, cy = x + (mark.col + 0.5) * half, y + (mark.row + 0.5) * half
            _mark_svg(svg, name, cx, cy, half, mark.color)

    ask_x = x0 + (small + 1 + pig + 1) * half
    _label(svg, ask_x, low_y - 6, "Ask road")
    predictions = roads.predictions()
    for line, side in enumerate((Side.BANKER, Side.PLAYER)):
        y = low_y + line * 2 * half
        color = RED if side is Side.BANKER else BLUE
        svg.add("rect", x=ask_x, y=y, width=ask * half, height=1.6 * half, rx=4, fill=color)
        svg.add(
            "text",
            f"{side.value}?",
            x=ask_x + 0.9 * half,
            y=y + 1.15 * half,
            fill="#ffffff",
            font_size=0.9 * half,
            font_weight="bold",
            text_anchor="middle",
        )
        svg.add(
            "rect",
            x=ask_x + 2 * half,
            y=y + 0.2 * half,
            width=5.6 * half,
            height=1.2 * half,
            rx=3,
            fill="#ffffff",
        )
        for index, (name, _) in enumerate(DERIVED):
            color_of: Color | None = getattr(predictions[side], name)
            if color_of is not None:
                cx = ask_x + (2.8 + 1.9 * index) * half
                _mark_svg(svg, name, cx, y + 0.8 * half, half, color_of)

    body = "\n".join(svg.parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}"'
        f' viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="Helvetica, Arial, sans-serif"'
        f' role="img">\n<title>Baccarat roads</title>\n{body}\n</svg>\n'
    )
