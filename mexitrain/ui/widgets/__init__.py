"""Widgets of the game screen. Each renders a :class:`~mexitrain.ui.board.Board` it is given
(``board`` reactive, bound from the screen) and posts intents; none changes the game."""

from .hand import HandTray, OpenHands
from .hub import StationHub
from .log import MoveLog
from .scores import ScoreSheet
from .status import StatusLine
from .tip import TipPanel
from .trains import TrainRows

__all__ = ["HandTray", "MoveLog", "OpenHands", "ScoreSheet", "StationHub", "StatusLine", "TipPanel", "TrainRows"]
