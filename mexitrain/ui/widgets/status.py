"""The status line: whose turn, what the turn still owes, boneyard, tiles left, the knock."""

from __future__ import annotations

from textual.content import Content
from textual.markup import escape

from ...i18n import _, pgettext
from ...messages import short_names
from .. import words
from ..board import Board
from ..palette import seat_colour
from .base import BoardWidget


class StatusLine(BoardWidget):
    def render_key(self, board: Board) -> object:
        return (board.view, board.names, board.legal)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 2

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        v = board.view
        types = frozenset(a.type for a in board.legal)
        trains = {p.train for p in board.plays}
        nxt = next(iter(trains)) if len(trains) == 1 else None
        turn = words.turn_line(v, board.names, board.kinds, types, bool(board.plays), nxt)
        head = "[b]" + pgettext("short round", "R{number}/{total}").format(number=v.round, total=v.rules.round_count) + "[/] "
        mine = board.my_turn
        turn_style = "b $text-accent" if mine else ""
        first = head + (f"[{turn_style}]{escape(turn)}[/]" if turn_style else escape(turn))
        knock = words.knock_line(v, board.names)
        width = (self.size.width or 80) - (len(knock) + 3 if knock else 0)
        for name_w, sep in ((8, " · "), (3, " "), (1, " ")):  # shorter names when many players
            pile = _("boneyard") if name_w > 1 else pgettext("short boneyard", "bone")
            parts = [f"{pile} [b]{v.boneyard_size}[/]"]
            plain = len(parts[0]) - 7
            shown = [pgettext("status line", "you") if s == v.seat else board.names[s] for s in range(v.players)]
            cut = short_names(shown, name_w)
            for s, k in enumerate(v.hand_sizes):
                name = cut[s]
                style = f"b {seat_colour(s)}"
                if k == 1:
                    style = "b $error reverse"
                parts.append(f"[{style}]{escape(name)}[/] {k}" if name_w > 1 else f"[{style}]{escape(name)}{k}[/]")
                plain += len(sep) + len(name) + len(str(k)) + (1 if name_w > 1 else 0)
            if plain <= width:
                break
        second = sep.join(parts)
        if knock:
            second = f"[b $error reverse] {escape(knock)} [/] " + second
        return Content.from_markup(first + "\n" + second)
