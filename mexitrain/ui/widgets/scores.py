"""The score sheet: a row per round, a column per player or team, totals and tie-breaks."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from ...i18n import pgettext
from ...rules import SeatView, sides, standings
from ...text.basics import ordinal, side_name
from ...text.names import shorten
from ..cells import cells as cell_width
from ..cells import markup
from ..colours import seat_colour


def _layout(
    cols: list[str], label: int, now_word: str, width: int | None
) -> tuple[bool, list[int], str]:
    """``(running totals shown, each column's width, the current round's tail)``: the widest
    layout whose lines fit ``width`` columns (None: no limit).

    In order: running totals beside each score with names up to 14 letters, then with
    narrower columns (down to "123 (456)"), then scores alone, narrower and narrower, and at
    last a bare ◀ instead of the tail's word. Without a limit: running totals up to 6 sides."""
    n = len(cols)
    tail = "  " + now_word

    def fits(widths: list[int], tail: str) -> bool:
        return width is None or label + sum(w + 1 for w in widths) + len(tail) <= width

    named = [[max(base, min(14, cell_width(c))) for c in cols] for base in (11, 5)]
    tries: list[tuple[bool, list[int]]] = []
    if n <= 6 or width is not None:
        tries.append((True, named[0]))
    if width is not None:
        tries += [(True, [w] * n) for w in (11, 10, 9)]
    tries += [(False, named[1])] + [(False, [w] * n) for w in (8, 7, 6, 5)]
    for running, widths in tries:
        if fits(widths, tail):
            return running, widths, tail
    return False, [5] * n, "  ◀"


def sheet_markup(view: SeatView, names: tuple[str, ...], width: int | None = None) -> str:
    """The score sheet as markup lines (a plain grid, so it reads the same in every theme),
    as wide as ``width`` columns at most if it can be (None: no limit; see :func:`_layout`).
    The names are variables ``$name0``, ``$name1``…: :func:`sheet_content` fills them in."""
    return _sheet(view, names, width)[0]


def sheet_content(view: SeatView, names: tuple[str, ...], width: int | None = None) -> Content:
    """The score sheet with the names as plain text (never markup)."""
    template, values = _sheet(view, names, width)
    return markup(template, **values)


def _sheet(view: SeatView, names: tuple[str, ...], width: int | None) -> tuple[str, dict[str, str]]:
    groups = sides(view)  # duck-typed: players, rules, results are all the sheet needs
    table = standings(view)
    place = {st.seats: st for st in table}
    played = len(view.results)
    leaders = {st.seats for st in table if st.place == 1} if played else set()
    cols = [side_name(names, side) for side in groups]
    totals = [0] * len(groups)
    round_word = pgettext("score sheet column", "Round")
    engine_word = pgettext("score sheet column", "Engine")
    rw, ew = max(6, len(round_word) + 1), max(7, len(engine_word) + 1)
    running, widths, tail = _layout(cols, rw + ew, pgettext("score sheet", "◀ now"), width)
    head = f"{round_word:<{rw}}{engine_word:<{ew}}" + "".join(" " * (w + 1) for w in widths)
    lines = []
    values: dict[str, str] = {}
    header_parts = [f"[b]{round_word:<{rw}}{engine_word:<{ew}}[/]"]
    for side, c, w in zip(groups, cols, widths, strict=True):
        style = f"b {seat_colour(side[0])}"
        if side in leaders:
            style += " underline"
        label = shorten(c, w)  # in cells, "…" where cut, as plain text
        values[f"name{len(values)}"] = label
        header_parts.append(" " + " " * (w - cell_width(label)) + f"[{style}]$name{len(values) - 1}[/]")
    lines.append("".join(header_parts))
    lines.append("[dim]" + "─" * len(head) + "[/]")
    total_rounds = view.rules.round_count
    for r in range(total_rounds):
        if r < played:
            res = view.results[r]
            row = f"{res.number:<{rw}}{f'{res.engine}-{res.engine}':<{ew}}"
            cells = []
            for i, (side, w) in enumerate(zip(groups, widths, strict=True)):
                score = sum(res.scores[s] for s in side)
                totals[i] += score
                sw = w - 6 if running else w
                cell = f"[b $success]{'0 ★':>{sw}}[/]" if score == 0 else f"{score:>{sw}}"
                if running:
                    cell += f" [dim]{'(' + str(totals[i]) + ')':>5}[/]"
                cells.append(" " + cell)
            lines.append(row + "".join(cells))
        else:
            now = r == played and view.phase != "game_over"
            if view.rules.engine == "descending":
                eng = view.rules.set - r
                engine = f"{eng}-{eng}"
            else:
                engine = "?"
            label = f"{r + 1:<{rw}}{engine:<{ew}}"
            cells = "".join(f" {'·':>{w}}" for w in widths)
            lines.append(f"[b $accent]{label}{cells}{tail}[/]" if now else f"[dim]{label}{cells}[/]")
    lines.append("[dim]" + "─" * len(head) + "[/]")

    def summary(title: str, values: list[str], bold: bool = False) -> str:
        cells = []
        for side, val, w in zip(groups, values, widths, strict=True):
            text = f"{val:>{w}}"
            if bold and side in leaders:
                pad = len(text) - len(text.lstrip())
                cells.append(" " + " " * pad + f"[b underline $text-success]{text.lstrip()}[/]")
            elif bold:
                cells.append(f" [b]{text}[/]")
            else:
                cells.append(f" {text}")
        return f"[b]{title:<{rw + ew}}[/]" + "".join(cells)

    lines.append(summary(pgettext("score sheet", "Total"), [str(place[s].total) for s in groups], bold=True))
    lines.append(summary(pgettext("score sheet", "Rounds at 0"), [str(place[s].zero_rounds) for s in groups]))
    lines.append(
        summary(
            pgettext("score sheet", "Lowest ≠ 0"),
            ["—" if place[s].lowest_nonzero is None else str(place[s].lowest_nonzero) for s in groups],
        )
    )
    lines.append(summary(pgettext("score sheet", "Place"), [ordinal(place[s].place) for s in groups]))
    return "\n".join(lines), values


class ScoreSheet(Widget):
    """Renders :func:`sheet_markup` for the view it is given.

    ``chrome`` is how many columns of the terminal its surroundings take (borders, padding, a
    scroll bar): the sheet then fits the rest of the terminal's width (narrower columns, see
    :func:`_layout`), again after every resize. None: no limit."""

    view: reactive[SeatView | None] = reactive(None)

    def __init__(
        self, view: SeatView | None = None, names: tuple[str, ...] = (), *, chrome: int | None = None, **kwargs
    ) -> None:
        super().__init__(**kwargs)
        self.names = names
        self.chrome = chrome
        self.set_reactive(ScoreSheet.view, view)

    def fit_width(self) -> int | None:
        if self.chrome is None:
            return None
        return max(20, self.app.size.width - self.chrome)

    def render(self) -> Content:
        if self.view is None:
            return Content("")
        return self.render_content()

    def get_content_height(self, container, viewport, width: int) -> int:
        if self.view is None:
            return 1
        return self.view.rules.round_count + 7

    def get_content_width(self, container, viewport) -> int:
        if self.view is None:
            return 10
        return max(line.cell_length for line in self.render_content().split("\n"))

    def render_content(self) -> Content:
        assert self.view is not None
        return sheet_content(self.view, self.names, self.fit_width())
