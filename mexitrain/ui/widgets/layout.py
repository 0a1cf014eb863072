"""The board as the game and replay screens both lay it out: hub and log, trains, hands."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll

from .hand import HandTray, OpenHands
from .hub import StationHub
from .log import MoveLog
from .trains import TrainRows


class TrainBox(VerticalScroll, can_focus=False):
    """Scrolls the train rows when there are more trains than room."""


def board_widgets(board) -> ComposeResult:
    """The station hub and move log side by side, the train rows, the open hands and the
    hand tray, each bound to the screen's ``board`` reactive (call inside ``compose``)."""
    with Horizontal(id="top"):
        yield StationHub(id="hub").data_bind(board)
        yield MoveLog(id="log").data_bind(board)
    with TrainBox(id="trains-box"):
        yield TrainRows(id="trains").data_bind(board)
    yield OpenHands(id="open-hands").data_bind(board)
    yield HandTray(id="tray").data_bind(board)
