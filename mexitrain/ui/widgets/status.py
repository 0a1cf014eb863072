"""The status line: whose turn, what the turn still owes, boneyard, tiles left, the knock.

Two lines, always whole: on one line, at 80 columns a long prompt would wrap and push the
counts off the widget, and the knock would squeeze them down to "bone 0 y4 B1". The first line is
cut by cells with an ellipsis when it is wider than the screen (the whole sentence is the
widget's tooltip, for a mouse, and ``whole``, which the help panel shows first, for the
keyboard); on the second, the counts keep the room they need and the knock takes what is
left (at least its first word: the counts show who, in reverse).

While autosaves cannot be written (a read-only data folder, a full disk), the second line ends
with "not saving: <reason>" in the warning colour: the problem is notified once, and then
said here on every move until a write works again. ``saving`` is that reason, given by
the game screen when the game starts and set by the app from
:class:`~mexitrain.storage.autosaver.Autosaver` when it changes.

Names are text, never markup: they go in through ``$variables`` of ``Content.from_markup``,
and through :func:`~mexitrain.text.visible.visible` first: a name from a table's host with
an escape sequence in it is shown, never obeyed (issue 37).
"""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive

from ...i18n import _, pgettext
from ...text.basics import short_names
from ...text.status import knock_line, turn_line
from ..board import Board
from ..cells import printable, visible
from ..colours import seat_colour
from .base import BoardWidget


class StatusLine(BoardWidget):
    #: why autosaves are failing (short), or None while they work
    saving: reactive[str | None] = reactive(None, repaint=False)
    #: the whole turn line while the first line is cut, else None
    whole: str | None = None

    def render_key(self, board: Board) -> object:
        return (board.view, board.names, board.legal, self.size.width, self.saving)

    def watch_saving(self) -> None:
        self.refresh()

    def get_content_height(self, container, viewport, width: int) -> int:
        return 2

    def render(self) -> Content:
        board = self.board
        if board is None:
            return Content("")
        width = max(1, self.content_size.width or 78)
        first, full = self._first_line(board, width)
        self.whole = full
        mark = _("not saving: {reason}").format(reason=printable(self.saving)) if self.saving else None
        tips = [t for t in (full, mark) if t]
        self.tooltip = "\n".join(tips) if tips else None
        return Content("\n").join([first, self._second_line(board, width, mark)])

    def _first_line(self, board: Board, width: int) -> tuple[Content, str | None]:
        """The round and the turn, cut to ``width`` cells; and the whole turn when cut."""
        v = board.view
        types = frozenset(a.type for a in board.legal)
        trains = {p.train for p in board.plays}
        nxt = next(iter(trains)) if len(trains) == 1 else None
        several = board.viewer is None and list(board.kinds).count("human") > 1  # at a table: "you"
        person = board.names[v.seat] if several and v.seat < len(board.names) else None
        turn = visible(turn_line(v, board.names, board.kinds, types, bool(board.plays), nxt, person=person))
        head = pgettext("short round", "R{number}/{total}").format(number=v.round, total=v.rules.round_count)
        style = "b $text-accent" if board.my_turn else ""
        line = Content.from_markup(f"[b]$head[/] [{style}]$turn[/]" if style else "[b]$head[/] $turn", head=head, turn=turn)
        if line.cell_length <= width:
            return line, None
        return line.truncate(width, ellipsis=True), turn

    def _second_line(self, board: Board, width: int, mark: str | None = None) -> Content:
        v = board.view
        knock = visible(knock_line(v, board.names, board.viewer))
        word = knock.split(" ", 1)[0]  # "KNOCK!": what the knock keeps when room is short
        # "not saving" at least (the reason when there is room), two cells from the counts
        mark_word = _("not saving: {reason}").split("{reason}")[0].rstrip(" :\u00a0")
        kept = Content(mark_word).cell_length + 2 if mark else 0
        whole = width - kept - (len(knock) + 3 if knock else 0)  # room beside the whole knock
        room = width - kept - (len(word) + 3 if knock else 0)  # beside its first word
        # "you" only for the one person at the table; several people at one keyboard are named
        shown = [pgettext("status line", "you") if s == board.viewer else visible(board.names[s]) for s in range(v.players)]
        levels = ((8, " · ", whole), (3, " ", whole), (8, " · ", room), (3, " ", room), (1, " ", room))
        for name_w, sep, space in levels:  # shorter names when many players, never "bone 0 y4 B1" for a knock
            pile = _("boneyard") if name_w > 1 else pgettext("short boneyard", "bone")
            parts = [Content.from_markup("$pile [b]$n[/]", pile=pile, n=str(v.boneyard_size))]
            cut = short_names(shown, name_w)
            for s, k in enumerate(v.hand_sizes):
                style = "b $error reverse" if k == 1 else f"b {seat_colour(s)}"
                if name_w > 1:
                    parts.append(Content.from_markup(f"[{style}]$name[/] $k", name=cut[s], k=str(k)))
                else:
                    parts.append(Content.from_markup(f"[{style}]$name$k[/]", name=cut[s], k=str(k)))
            counts = Content(sep).join(parts)
            if counts.cell_length <= space:
                break
        line = counts
        if knock:
            left = width - kept - counts.cell_length - 3  # the knock's padding and the space after it
            text = knock if len(knock) <= left else Content(knock).truncate(max(left, len(word)), ellipsis=True).plain
            line = Content.assemble(Content.from_markup("[b $error reverse] $k [/] ", k=text), counts)
        if mark:
            left = max(kept - 2, width - line.cell_length - 2)
            shown = Content(mark) if Content(mark).cell_length <= left else Content(mark).truncate(left, ellipsis=True)
            line = Content.assemble(line, "  ", Content.from_markup("[b $text-warning]$m[/]", m=shown.plain))
        return line
