"""The train rows: every train's chain of tiles with its open end (newest end always shown)."""

from __future__ import annotations

from textual.content import Content
from textual.markup import escape
from textual.message import Message

from ..palette import seat_colour
from . import domino
from .base import BoardWidget


def train_key(view_players: int, index: int) -> str:
    """The key that selects train ``index``: 1-9 for seats' trains, 0 for the Mexican Train."""
    if index == view_players:
        return "0"
    return str(index + 1) if index < 9 else " "


def elide(tiles: list[tuple[int, int]], room: int) -> tuple[list[tuple[int, int]], int]:
    """Which tiles to show in ``room`` cells: all, or the first one, "…" and the newest ones.

    Returns (tiles shown, index in that list where "…" goes, or -1)."""
    widths = [domino.laid_width(*t) + 1 for t in tiles]
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

    def on_click(self, event) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and 0 <= offset.y < len(self._rows):
            train, line = self._rows[offset.y]
            self.post_message(self.Chosen(train, line))

    def get_content_height(self, container, viewport, width: int) -> int:
        if self.board is None:
            return 1
        return sum(len(t.lines) for t in self.board.view.trains)

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        v = board.view
        width = max(20, self.size.width or 80)
        fits = board.fits(board.selected) if board.my_turn else frozenset()
        name_w = max(4, min(12, width // 8))
        doubles = {(ti, li) for ti, t in enumerate(v.trains) for li in t.open_double_lines()}
        owed = v.double_line
        rows: list[str] = []
        self._rows = []
        for ti, train in enumerate(v.trains):
            mex = ti == v.players
            name = "Mexican" if mex else board.names[ti]
            colour = seat_colour(None if mex else ti)
            for li, line in enumerate(train.lines):
                selected = board.target == (ti, li) and board.my_turn
                fit = (ti, li) in fits
                cursor = "[b $accent]▶[/]" if selected else " "
                if li == 0:
                    key = train_key(v.players, ti)
                    label = escape(name[:name_w].ljust(name_w))
                    head = f"{cursor}[dim]{key}[/] [b {colour}]{label}[/]"
                    if mex:
                        flag = " "
                    elif train.marker:
                        flag = "[b $warning]⚑[/]"
                    else:
                        flag = " "
                    head += f" {flag} "
                else:
                    head = f"{cursor}  [dim]{'└ branch ' + str(li):<{name_w}}[/]   "
                prefix_w = 1 + 1 + 1 + name_w + 3
                tiles = list(line)
                end = train.end(li)
                end_text = f"▸{end}"
                is_open = (ti, li) in doubles
                tail_w = len(end_text) + (8 if is_open else 0) + 2
                room = max(6, width - prefix_w - tail_w)
                shown, gap = elide(tiles, room)
                parts: list[str] = []
                if li == 0 and not tiles:
                    parts.append("[dim]not started[/]")
                for i, t in enumerate(shown):
                    if i == gap:
                        parts.append("[dim]…[/]")
                    parts.append(domino.laid(*t))
                body = " ".join(parts)
                end_style = "b $success" if fit else "b"
                tail = f" [{end_style}]▸[/]{domino.value(end)}"
                if is_open:
                    tail += " [b $error]open![/]" if owed != (ti, li) else " [b $warning]double[/]"
                if fit:
                    tail += " [b $success]◀ fits[/]" if selected else " [$success]◀[/]"
                row = f"{head}{body}{tail}"
                style = "on $accent 25%" if selected else ("on $success 12%" if fit else "")
                rows.append(f"[{style}]{row}[/]" if style else row)
                self._rows.append((ti, li))
        return domino.lines_content(rows)
