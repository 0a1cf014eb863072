"""The board as the game and replay screens both lay it out: hub and log, trains, hands."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from ...i18n import _
from .hand import HandTray, OpenHands
from .hub import StationHub
from .log import MoveLog
from .tip import TipPanel
from .trains import TrainRows


class TrainBox(VerticalScroll, can_focus=False):
    """Scrolls the train rows when there are more trains than room."""


def board_widgets(board, tip: bool = False) -> ComposeResult:
    """The station hub and the corner beside it, the train rows, the open hands and the
    hand tray, each bound to the screen's ``board`` reactive (call inside ``compose``).

    The corner is one column: the tip panel at its top when ``tip`` (shown only while there
    is a tip; the log gives way below it), then the move log. Notices are laid over the same
    column, below the tip (the game screen places them: screens/game.py)."""
    with Horizontal(id="top"):
        yield StationHub(id="hub").data_bind(board)
        with Vertical(id="corner"):
            if tip:
                yield TipPanel(id="tip").data_bind(board)
            yield MoveLog(id="log").data_bind(board)
    with TrainBox(id="trains-box"):
        yield TrainRows(id="trains").data_bind(board)
    yield OpenHands(id="open-hands").data_bind(board)
    yield HandTray(id="tray").data_bind(board)


#: The smallest terminal (columns, rows) each screen is laid out for (measured: at 80x20 the
#: station, the trains and the hand all show; the form's widest row takes 72 columns).
GAME_SIZE = (80, 20)
FORM_SIZE = (72, 16)


class SizeGuard(Static, can_focus=True):
    """Covers its screen with one clear sentence while the terminal is smaller than the screen
    needs: below it the form would print "Ready:" one letter a line (at 40x12) and the game
    would hide most of the hand without a word; in a browser (``mexitrain serve``: the app's
    ``is_web``) it also says to zoom out, which gives the page's terminal more cells. It takes
    the keyboard focus while shown, so that keys typed blind do nothing, and gives it back when
    the terminal is large enough again.

    The screen composes it and calls :meth:`check` on mount, on resize and on resume (the
    terminal may have changed size under another screen); screens.tcss lays it over the
    screen on its own ``guard`` layer."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__("", id="size-guard", markup=False)
        self.need = (width, height)
        self._back = None

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

    def check(self) -> bool:
        """Shown (True) or hidden for the app's size now."""
        width, height = self.app.size
        need_w, need_h = self.need
        small = width < need_w or height < need_h
        if small:
            if self.app.is_web:  # in a browser (mexitrain serve): zooming out gives more cells
                text = _("The window is {width}x{height}; mexitrain needs at least {need_w}x{need_h} — zoom out with Ctrl − (⌘ − on a Mac), or make the browser window larger.")
            else:
                text = _("The window is {width}x{height}; mexitrain needs at least {need_w}x{need_h} — make it larger (Ctrl+Q quits).")
            self.update(text.format(width=width, height=height, need_w=need_w, need_h=need_h))
        if small == self.shown:
            return small
        self.set_class(small, "-shown")
        screen = self.screen
        if small:
            self._back = screen.focused
            self.focus()
        else:
            back, self._back = self._back, None
            if back is not None and back.is_attached and back.focusable:
                back.focus()
            else:
                screen.set_focus(None)
        return small
