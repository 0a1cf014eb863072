"""Screens: new game, game, hand-off, score sheet, round over, game over, help, quit."""

from .dialogs import HandoffScreen, QuitScreen, RevealScreen, ScoreScreen
from .game import GameScreen
from .help import HelpScreen
from .new_game import NewGameScreen
from .results import GameOverScreen, RoundOverScreen

__all__ = [
    "GameOverScreen",
    "GameScreen",
    "HandoffScreen",
    "HelpScreen",
    "NewGameScreen",
    "QuitScreen",
    "RevealScreen",
    "RoundOverScreen",
    "ScoreScreen",
]
