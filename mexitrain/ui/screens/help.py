"""Help (? or F1): the keys and the rules in a player's words, with the options in force."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Markdown

from ...rules import RuleSet
from .. import words

KEYS = """\
## Keys

| key | what it does |
|---|---|
| ← → or h l | select a tile in your hand (or click it) |
| ↑ ↓ or k j | select a train (trains the tile fits are marked ◀) |
| 1 – 9 | select that seat's train (press again for its next branch) |
| 0 or x | select the Mexican Train |
| Enter | play the selected tile on the selected train (or click the train) |
| d | draw a tile — only when nothing fits |
| m | end your turn: place your marker, or pass, when the rules allow it |
| n | swan drive: skip the Mexican Train |
| f | blanks wild: flip which half goes against the open end |
| o | sort your hand: planned train first, or a plain sort |
| t | a tip: the move a good player would make |
| s | the score sheet |
| ? or F1 | this help |
| Ctrl+P | commands: new game, score sheet, rules, theme |
| q | quit (asks first) |

Keys that cannot do anything right now are hidden from the bar at the bottom.
When the rules leave you a single move with no choice (after drawing a tile that does not fit,
your marker goes down), it is made for you and the move log says so.
"""

RULES = """\
## The game in a nutshell

- Every train starts at the **station**, from the **engine** double in the middle. Round 1
  uses the highest double of the set, each later round the next one down.
- On your turn you **must** play one tile if one fits: on **your own train**, on the
  **Mexican Train** (anyone may start it and play on it), or on any train with a
  **marker** ⚑. A tile fits when one of its halves matches the open end ▸.
- If nothing fits, **draw** one tile. If it fits, play it; if not, your **marker** goes on
  your train: it is public until you play on it again.
- After a **double** you play again, a non-double. A double left unsatisfied at the end
  of a turn is an **open double**: the next players must satisfy it before anything else.
- When someone is down to **one tile** everyone is told: the **knock**.
- The round ends when someone plays their last tile (**domino**), or when someone must draw
  from an empty boneyard. Everyone scores the pips left in their hand.
- **Lowest total wins.** Ties go to the most rounds scored 0, then the lowest non-zero round.
"""


def help_markdown(rules: RuleSet | None, players: int | None) -> str:
    text = KEYS + "\n" + RULES
    if rules is not None and players is not None:
        text += "\n## This game's rules\n\n" + "\n".join(
            f"- {line}" for line in words.rules_summary(rules, players)
        )
    return text + "\n"


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close help", id="help-close")]

    def __init__(self, rules: RuleSet | None = None, players: int | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.players = players

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Label("[b]Mexican Train — help[/]  [dim](Esc closes, ↑↓ scroll)[/]")
            with VerticalScroll(id="help-scroll"):
                yield Markdown(help_markdown(self.rules, self.players), id="help-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
