"""The hand tray (the shown seat's tiles) and, with open hands, everyone else's."""

from __future__ import annotations

from textual.content import Content
from textual.message import Message

from ...i18n import _, ngettext
from ...text.basics import tile_count
from ...text.names import shorten
from ..board import Board, canon
from ..cells import fit, markup, plain
from ..colours import seat_colour
from . import domino
from .base import BoardWidget

CELL = domino.FACE_WIDTH + 1


def tray_items(board: Board) -> list[tuple[int, int] | None]:
    """The tiles in tray order, with ``None`` where the planned train ends and the extras begin."""
    items: list[tuple[int, int] | None] = list(board.tray)
    if not board.plain and 0 < board.plan_len < len(items):
        items.insert(board.plan_len, None)
    return items


def layout(items: list, width: int) -> list[list[tuple[int, object]]]:
    """Rows of (x, item) for a tray ``width`` cells wide."""
    rows: list[list[tuple[int, object]]] = [[]]
    x = 0
    for item in items:
        w = 2 if item is None else CELL
        if x + w > width and rows[-1]:
            rows.append([])
            x = 0
        if item is None and x == 0:
            continue  # no separator at the start of a row
        rows[-1].append((x, item))
        x += w
    return rows


class HandTray(BoardWidget):
    """The human's tiles as domino faces. Click a tile to select it."""

    class Selected(Message):
        """The player clicked tile ``tile``."""

        def __init__(self, tile: tuple[int, int]) -> None:
            self.tile = tile
            super().__init__()


    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._hits: list[tuple[int, int, int, tuple[int, int]]] = []  # (line, x0, x1, tile)

    def tile_at(self, tile: tuple[int, int]) -> tuple[int, int] | None:
        """Where ``tile``'s face is drawn, ``(content line, column)``; None if it is not shown
        (what a click there selects)."""
        for line, x0, _x1, t in self._hits:
            if t == tile:
                return line, x0
        return None

    def on_click(self, event) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, x0, x1, tile in self._hits:
            if line <= offset.y < line + self.row_height() and x0 <= offset.x < x1:
                self.post_message(self.Selected(tile))
                return

    def render_key(self, board: Board) -> object:
        flip_view = board.laid_view(board.selected) if board.selected else None
        return (board.view.hand, board.view.drawn, board.tray, board.plan_len, board.plain, board.pips,
                board.selected, board.legal, board.my_turn, flip_view, len(board.options()))

    def _width(self) -> int:
        return max(CELL, self.size.width or 78)

    def get_content_height(self, container, viewport, width: int) -> int:
        if self.board is None:
            return 2
        rows = layout(tray_items(self.board), max(CELL, width))
        header = -(-self.header_content().cell_length // max(1, width))  # it wraps when narrow
        return header + self.row_height() * max(1, len(rows))

    def row_height(self) -> int:
        return 4 if domino.tall(self.app.size.height) else 2

    def header(self) -> str:
        """The header line as plain text."""
        return self.header_content().plain

    def header_content(self) -> Content:
        """Whose hand, how many tiles and the order; the name as plain text (never markup)."""
        board = self.board
        assert board is not None
        v = board.view
        if board.watching:  # an onlooker's view: no hand to show, no move to make
            return markup("[b]$what[/] · $line", what=_("Watching"), line=_("no hand is shown to someone who watches"))
        count = len(v.hand)
        if board.kinds[v.seat] == "human" and board.viewer == v.seat:
            whose = _("Your hand")
        else:
            whose = _("{name}'s hand").format(name=board.names[v.seat])
        text = f"[b]$whose[/] · {tile_count(count)}"
        if board.plain:
            text += " · " + _("plain sort [dim](o: plan first)[/]")
        else:
            own = v.trains[v.seat]
            if board.plan_len:
                text += " · " + ngettext(
                    "[b]plan[/] ▸{end}: {count} tile in a row, then extras",
                    "[b]plan[/] ▸{end}: {count} tiles in a row, then extras",
                    board.plan_len,
                ).format(end=own.end(0), count=board.plan_len)
            else:
                text += " · " + _("no plan from ▸{end} yet: all extras").format(end=own.end(0))
        if board.my_turn and v.rules.blanks_wild and len(board.options()) > 1:
            text += " · " + _("[b $warning]f[/] flips it")
        return markup(text, whose=whose)

    def _joined(self, lines: list[str]) -> Content:
        """The header (plain-text name) then the tray's markup lines."""
        return Content("\n").join([self.header_content(), *(domino.line_content(line) for line in lines[1:])])

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        width = self._width()
        my_turn = board.my_turn
        playable = board.playable if my_turn else frozenset()
        lines = [""]  # the header, as Content (see _joined)
        if board.watching:
            return self._joined(lines)
        if not board.tray:
            lines.append("[dim](empty)[/]")
            return self._joined(lines)
        self._hits = []
        big = self.row_height() == 4
        for row in layout(tray_items(board), width):
            top = len(lines)
            faces = []
            rims_top: list[str] = []
            rims_bottom: list[str] = []
            marks = []
            for x, item in row:
                if item is None:
                    faces.append("[dim]┊[/] ")
                    rims_top.append("[dim]┊[/] ")
                    rims_bottom.append("[dim]┊[/] ")
                    marks.append("  ")
                    continue
                t = canon(item)  # type: ignore[arg-type]
                shown = board.laid_view(item) if t == board.selected and my_turn else item
                dim = my_turn and bool(board.legal) and t not in playable
                a, b = shown  # type: ignore[misc]
                faces.append(f"{domino.face(a, b, dim=dim, pips=board.pips)} ")
                if big:
                    up, _mid, down = domino.big_face(a, b, dim=dim, pips=board.pips)
                    rims_top.append(up + " ")
                    rims_bottom.append(down + " ")
                self._hits.append((top, x, x + domino.FACE_WIDTH, t))
                sel = t == board.selected
                fit = t in playable
                if sel and fit:
                    marks.append("[b $accent]━━━[/][b $success]▲[/][b $accent]━━━[/] ")
                elif sel:
                    marks.append("[b $accent]━━━━━━━[/] ")
                elif fit:
                    marks.append("[$success]   ▲   [/] ")
                elif t == board.view.drawn:
                    marks.append("[dim] drawn [/] ")
                else:
                    marks.append(" " * CELL)
            if big:
                lines.append("".join(rims_top).rstrip())
            lines.append("".join(faces).rstrip())
            if big:
                lines.append("".join(rims_bottom).rstrip())
            lines.append("".join(marks).rstrip())
        return self._joined(lines)


class OpenHands(BoardWidget):
    """With open hands (§8) every other hand, face up."""

    def render_key(self, board: Board) -> object:
        return board.view.hands


    @staticmethod
    def _shown(board: Board | None) -> int:
        """How many hands it shows: the others' hands the view holds (open hands, a replay)."""
        if board is None:
            return 0
        return sum(1 for i, h in enumerate(board.view.hands) if h is not None and i != board.seat)

    def watch_board(self, board: Board | None) -> None:
        super().watch_board(board)
        self.display = self._shown(board) > 0  # no empty panel: its rule would waste a row

    def get_content_height(self, container, viewport, width: int) -> int:
        return self._shown(self.board)

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        width = max(20, self.size.width or 78)
        rows = []
        for seat, hand in enumerate(board.view.hands):
            if hand is None or seat == board.seat:
                continue
            name = fit(shorten(board.names[seat], 8), 8)
            parts, used = [], 10
            for t in sorted(hand, key=lambda t: (-max(t), -min(t))):
                w = domino.laid_width(*t) + 1
                if used + w > width - 2:
                    parts.append("…")
                    break
                parts.append(domino.laid(max(t), min(t)))
                used += w
            rows.append(plain(name, f"b {seat_colour(seat)}") + domino.line_content("  " + " ".join(parts)))
        return Content("\n").join(rows)
