"""The train rows: every train's chain of tiles with its open end (newest end always shown)."""

from __future__ import annotations

from textual.content import Content
from textual.message import Message

from ...i18n import _
from ...text.basics import train_label
from ...text.names import shorten
from ..board import Board, canon
from ..cells import cells, plain
from ..cells import fit as fit_cells
from ..colours import seat_colour
from ..recent import recent_plays, turn_seat
from . import domino
from .base import BoardWidget


def train_key(view_players: int, index: int) -> str:
    """The key that selects train ``index``: 1-9 for seats' trains, 0 for the Mexican Train."""
    if index == view_players:
        return "0"
    return str(index + 1) if index < 9 else " "


def elide(tiles: list[tuple[int, int]], room: int, big: bool = False) -> tuple[list[tuple[int, int]], int]:
    """Which tiles to show in ``room`` cells: all, or the first one, "…" and the newest ones.

    Returns (tiles shown, index in that list where "…" goes, or -1)."""
    pad = 3 if big else 1
    widths = [domino.laid_width(*t) + pad for t in tiles]
    if sum(widths) <= room:
        return tiles, -1
    keep_first = 1 if widths and widths[0] + 2 + widths[-1] <= room else 0
    room -= 2 + (widths[0] if keep_first else 0)  # "… "
    tail: list[tuple[int, int]] = []
    for t, w in zip(reversed(tiles[keep_first:]), reversed(widths[keep_first:]), strict=True):
        if w > room and tail:
            break
        tail.insert(0, t)
        room -= w
    return tiles[:keep_first] + tail, keep_first


class TrainRows(BoardWidget):
    """One row per train (and per branch); click a row to play the selected tile there."""

    class Chosen(Message):
        """The player clicked a train line: play the selected tile there."""

        def __init__(self, train: int, line: int) -> None:
            self.train = train
            self.line = line
            super().__init__()


    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._rows: list[tuple[int, int]] = []

    def row_of(self, train: int, line: int = 0) -> int:
        """The content row showing ``train``'s ``line`` (what a click there chooses)."""
        return self._rows.index((train, line))

    def on_click(self, event) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and 0 <= offset.y < len(self._rows):
            train, line = self._rows[offset.y]
            self.post_message(self.Chosen(train, line))

    def render_key(self, board: Board) -> object:
        fits = board.fits(board.selected) if board.my_turn else frozenset()
        return (board.view, board.names, board.target if board.my_turn else None, fits, board.my_turn, board.pips)

    def big(self) -> bool:
        """Three-row tiles when the screen is tall enough for every train line."""
        if self.board is None:
            return False
        height = self.app.size.height
        lines = sum(len(t.lines) for t in self.board.view.trains)
        return domino.tall(height) and 3 * lines <= int(height * 0.45) - 1

    def get_content_height(self, container, viewport, width: int) -> int:
        if self.board is None:
            return 1
        lines = sum(len(t.lines) for t in self.board.view.trains)
        return 3 * lines if self.big() else lines

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        v = board.view
        big = self.big()
        width = max(20, self.size.width or 80)
        fits = board.fits(board.selected) if board.my_turn else frozenset()
        name_w = max(4, min(12, width // 8))
        doubles = {(ti, li) for ti, t in enumerate(v.trains) for li in t.open_double_lines()}
        owed = v.double_line
        recent = recent_plays(v)  # each seat's last plays, marked till its turn comes round
        turn = turn_seat(v)
        rows: list[Content] = []
        parse = domino.line_content
        self._rows = []
        for ti, train in enumerate(v.trains):
            mex = ti == v.players
            name = train_label(board.names, v.players, ti)
            colour = seat_colour(None if mex else ti)
            for li, line in enumerate(train.lines):
                selected = board.target == (ti, li) and board.my_turn
                fit = (ti, li) in fits
                cursor = "[b $accent]▶[/]" if selected else " "
                if li == 0:  # the name as plain text, padded and cut in cells
                    key = train_key(v.players, ti)
                    flag = "[b $warning]⚑[/]" if train.marker and not mex else " "
                    # whose turn it is: an arrow at the name and the name reversed (both read
                    # without colour), as on the station
                    now = ti == turn and not mex
                    head = (
                        parse(f"{cursor}[dim]{key}[/]" + ("[b]→[/]" if now else " "))
                        + plain(fit_cells(shorten(name, name_w), name_w), f"b {colour}" + (" reverse" if now else ""))
                        + parse(f" {flag} ")
                    )
                else:
                    branch = "└ " + _("branch {n}").format(n=li)
                    head = parse(f"{cursor}  ") + plain(branch + " " * (name_w - cells(branch)), "dim") + parse("   ")
                prefix_w = 1 + 1 + 1 + name_w + 3
                tiles = list(line)
                end = train.end(li)
                is_open = (ti, li) in doubles
                tail_w = 2 + len(str(end)) + (8 if is_open else 0) + 8
                room = max(6, width - prefix_w - tail_w)
                shown, gap = elide(tiles, room, big)
                tops, mids, bots = [], [], []

                def text(markup: str, w: int, tops=tops, mids=mids, bots=bots) -> None:
                    tops.append(" " * w)
                    mids.append(markup)
                    bots.append(" " * w)

                if li == 0 and not tiles:
                    text("[dim]" + _("not started") + "[/]", len(_("not started")))
                for i, t in enumerate(shown):
                    if i == gap:
                        text("[dim]…[/]", 1)
                    new = canon(t) in recent  # played in its seat's last turn: underlined
                    if big:
                        top, mid, bot = domino.big_laid(*t, recent=new, pips=board.pips)
                        tops.append(top)
                        mids.append(mid)
                        bots.append(bot)
                    else:
                        text(domino.laid(*t, recent=new, pips=board.pips), domino.laid_width(*t, board.pips))
                end_style = "b $success" if fit else "b"
                tail = f" [{end_style}]▸[/]{domino.value(end, board.pips)}"
                if is_open:
                    tail += " [b $error]" + _("open!") + "[/]" if owed != (ti, li) else " [b $warning]" + _("double") + "[/]"
                if fit:
                    tail += " [b $success]◀ " + _("fits") + "[/]" if selected else " [$success]◀[/]"
                style = "on $accent 25%" if selected else ("on $success 12%" if fit else "")
                blank_head = Content(" " * prefix_w)
                out = [
                    blank_head + parse(" ".join(tops)),
                    head + parse(" ".join(mids) + tail),
                    blank_head + parse(" ".join(bots)),
                ]
                if not big:
                    out = [out[1]]
                for row in out:
                    if style:  # the highlight runs the full width of the row
                        row = row.pad_right(max(0, width - row.cell_length)).stylize_before(style)
                    rows.append(row)
                    self._rows.append((ti, li))
        return Content("\n").join(rows)
