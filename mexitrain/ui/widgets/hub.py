"""The station hub: the engine double in the centre, one slot per train around it."""

from __future__ import annotations

from textual.content import Content

from ...i18n import pgettext
from ...rules.tiles import tile
from ...text.basics import short_names, train_label
from ...text.names import shorten
from ..board import Board
from ..cells import cells, cut, fit, plain
from ..colours import seat_colour
from ..recent import recent_plays, turn_seat
from . import domino
from .base import BoardWidget

INNER = 9  # the station box's inner width


class _Line:
    """A slot's pieces with its visible width in cells, so slots can be aligned. Text (a
    name) is added as plain text, never as markup."""

    def __init__(self) -> None:
        self.parts: list[Content] = []
        self.width = 0

    def add(self, text: str, style: str = "") -> _Line:
        piece = plain(text, style)
        self.parts.append(piece)
        self.width += piece.cell_length
        return self

    def raw(self, markup: str, width: int) -> _Line:
        self.parts.append(domino.line_content(markup))
        self.width += width
        return self

    def content(self) -> Content:
        return Content("").join(self.parts)


class StationHub(BoardWidget):
    """Engine in the middle; seats' trains left and right; the Mexican Train below."""


    _cut: list[str] = []  # the seats' labels cut to the slots' width, told apart

    def render_key(self, board: Board) -> object:
        return (board.view, board.names, board.pips)  # the view carries the turn and the events marked

    def _rows(self) -> int:
        if self.board is None:
            return 2
        return max(2, (self.board.view.players + 1) // 2)

    def get_content_height(self, container, viewport, width: int) -> int:
        return self._rows() + 4

    def _geometry(self, width: int) -> tuple[int, bool]:
        """(name width, whether hand sizes fit) for a hub ``width`` cells wide."""
        board = self.board
        longest = max((cells(n) for n in board.names), default=7) if board else 7
        longest = max(7, cells(train_label((), 0, "mexican")), longest)
        for sizes in (True, False):
            fixed = 10 + (3 if sizes else 0)
            name_w = min(10, longest, (width - INNER - 6) // 2 - fixed)
            if name_w >= min(7, longest):
                return name_w, sizes
        return max(3, (width - INNER - 6) // 2 - 10), False

    def get_content_width(self, container, viewport) -> int:
        """As wide as the names need, up to about half the screen; up to five eighths of it
        when the seats' names would be cut shorter than they are (the move log gives way)."""
        room = max(30, container.width // 2 + 4)
        board = self.board
        names = board.names if board else ()
        longest = max(7, cells(train_label((), 0, "mexican")), max((cells(n) for n in names), default=7))
        want = 2 * (min(10, longest) + 13 + 2) + INNER + 2
        seats = max((cells(n) for n in names), default=0)
        cut_to = self._geometry(room)[0] if board else seats
        if seats > cut_to:
            room = max(room, min(container.width * 5 // 8, room + 2 * (min(seats, 7) - cut_to)))
        return min(room, want)

    def _slot(self, ti: int, name_w: int, sizes: bool, right: bool) -> _Line:
        board = self.board
        assert board is not None
        v = board.view
        train = v.trains[ti]
        mex = ti == v.players
        name = train_label(board.names, v.players, ti)
        if mex and cells(name) > name_w:
            name = shorten(name, name_w)
        elif not mex:
            name = self._cut[ti]
        key = "0" if mex else (str(ti + 1) if ti < 9 else "·")
        style = f"b {seat_colour(None if mex else ti)}"
        now = turn_seat(v) == ti and not mex  # whose turn: reversed, with an arrow at the name
        if now:
            style += " reverse"
        end = train.end(0)
        # the open end underlined when its tile was played in its seat's last turn
        ends = train.lines[0] if train.lines else ()
        fresh = bool(ends) and tile(*ends[-1]) in recent_plays(v)
        shown_end = f"[u]{domino.value(end, board.pips)}[/u]" if fresh else domino.value(end, board.pips)
        opened = bool(train.open_double_lines())
        flags = ("⚑" if train.marker and not mex else " ") + ("‼" if opened else " ")
        line = _Line()
        if not right:
            line.add(f"{key}", "dim").add("→" if now else " ", "b").add(fit(name, name_w), style)
            if sizes and not mex:
                line.add(f" {v.hand_sizes[ti]:>2}", "dim")
            line.add(" ").add(flags[0], "b $warning").add(flags[1], "b $error")
            line.add(" " * (3 - len(str(end)))).raw(f"[b]▸[/]{shown_end}", 1 + len(str(end)))
        else:
            line.raw(f"[b]▸[/]{shown_end}", 1 + len(str(end))).add(" " * (3 - len(str(end))))
            line.add(flags[1], "b $error").add(flags[0], "b $warning").add(" ")
            # seat, name, tiles in hand: the left side's order ("3 Cal 13", not "Cal 13 3")
            line.add(f"{key}", "dim").add("→" if now else " ", "b")
            line.add(fit(name, name_w) if sizes else cut(name, name_w), style)
            if sizes:
                line.add(f" {v.hand_sizes[ti]:>2}", "dim")
        return line

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        v = board.view
        width = max(24, self.size.width or 44)
        n = v.players
        rows = self._rows()
        split = (n + 1) // 2
        left = list(range(0, split))
        right = list(range(split, n))
        inner = INNER
        name_w, sizes = self._geometry(width)
        slot_w = name_w + 10 + (3 if sizes else 0)
        self._cut = short_names([train_label(board.names, n, i) for i in range(n)], name_w)
        engine_row = (rows - 1) // 2
        # Short of height (many players on a small screen) the box loses its top and bottom
        # borders, so that every train's slot and the Mexican Train's still show.
        compact = (self.size.height or rows + 4) < rows + 4
        line = domino.line_content
        lines: list[Content] = []
        if not compact:
            lines.append(line(" " * (slot_w + 1) + "[dim]┏" + "━" * inner + "┓[/]"))
        for r in range(rows):
            lslot = self._slot(left[r], name_w, sizes, False) if r < len(left) else None
            rslot = self._slot(right[r], name_w, sizes, True) if r < len(right) else None
            lpad = " " * (slot_w - (lslot.width if lslot else 0))
            lmark = lslot.content() if lslot else Content("")
            lconn = "━┫" if lslot else " ┃"
            rconn = "┣━" if rslot else "┃"
            if r == engine_row:
                face_w = 3 + 2 * len(str(v.engine))
                left_pad = (inner - face_w) // 2
                mid = " " * left_pad + domino.engine_face(v.engine) + " " * (inner - face_w - left_pad)
            else:
                mid = " " * inner
            if r == engine_row + 1:  # the word "station" (a translation) as plain text
                label = cut(pgettext("hub", "station"), INNER)
                label = label.center(INNER - cells(label) + len(label))  # centred in cells
                middle = line(f"[dim]{lconn}[/]") + plain(label, "dim") + line(f"[dim]{rconn}[/]")
            else:
                middle = line(f"[dim]{lconn}[/]{mid}[dim]{rconn}[/]")
            lines.append(Content(lpad) + lmark + middle + (rslot.content() if rslot else Content("")))
        half = inner // 2
        if not compact:
            lines.append(line(" " * (slot_w + 1) + "[dim]┗" + "━" * half + "┳" + "━" * (inner - half - 1) + "┛[/]"))
        pad = max(0, slot_w + 2 + half - 2)
        # below the station the Mexican Train's label has the hub's width to itself
        mex_w = max(3, min(cells(train_label(board.names, n, n)), width - pad - 10))
        mslot = self._slot(n, mex_w, False, False)
        if not compact:
            lines.append(line(" " * (slot_w + 2 + half) + "[dim]┃[/]"))
        lines.append(Content(" " * pad) + mslot.content())
        return Content("\n").join(lines)
