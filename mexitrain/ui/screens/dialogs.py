"""Small screens: quit confirmation, the hand-off between two people, the score sheet."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Label, Static

from ...i18n import _
from ...rules import SeatView
from ...text.seeds import seal_line
from ..cells import markup
from ..colours import seat_colour
from ..widgets import ScoreSheet


class QuitScreen(ModalScreen[bool]):
    """Asks before ending a game that is still running."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes, quit", id="quit-yes"),
        Binding("n,escape", "answer(False)", "No, keep playing", id="quit-no"),
    ]

    def __init__(self, question: str | None = None, *, autosaved: bool = False) -> None:
        """``autosaved``: the game's autosave works, so the dialog says how to resume it."""
        super().__init__()
        self.question = _("Quit this game?") if question is None else question
        self.autosaved = autosaved

    def compose(self) -> ComposeResult:
        with Vertical(id="quit-box", classes="dialog"):
            yield Label(self.question, id="quit-question")
            if self.autosaved:
                yield Label(_("The game is autosaved: you can resume it later."), id="quit-autosaved")
            yield Label("[dim]" + _("y quits now, n (or Esc) goes back to the game.") + "[/]")
            with Horizontal(classes="buttons"):
                yield Button(_("Quit (y)"), id="quit-yes", variant="error", compact=True)
                yield Button(_("Keep playing (n)"), id="quit-no", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#quit-no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "quit-yes")


class RevealScreen(ModalScreen[bool]):
    """Asks before the replay viewer opens an unfinished game: it shows every hand face up,
    the tiles still hidden in the game included."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes, open it", id="reveal-yes"),
        Binding("n,escape", "answer(False)", "No", id="reveal-no"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="reveal-box", classes="dialog"):
            yield Label(_("This game is not finished."), id="reveal-question")
            yield Label(
                _("The replay viewer shows every hand face up, the tiles still hidden in the game included. Open it anyway?")
            )
            yield Label("[dim]" + _("y opens it, n (or Esc) does not.") + "[/]")
            with Horizontal(classes="buttons"):
                yield Button(_("Open it (y)"), id="reveal-yes", variant="warning", compact=True)
                yield Button(_("Do not open it (n)"), id="reveal-no", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#reveal-no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "reveal-yes")


class HandoffScreen(Screen[None]):
    """Hides the previous person's hand until the next one is at the keyboard."""

    BINDINGS = [Binding("enter,space", "go", "I am ready", id="handoff-go")]

    def __init__(self, name: str, seat: int, round_text: str = "") -> None:
        super().__init__()
        self.person = name
        self.seat = seat
        self.round_text = round_text

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            yield Static(
                markup(  # the name as plain text (a $variable), never markup
                    "[b]"
                    + _("Pass the keyboard to {name}").format(name=f"[{seat_colour(self.seat)}]$person[/]")
                    + "[/]\n\n$round\n\n"
                    + _("{name}: press [b]Enter[/] when nobody else can see the screen.").format(name="$person"),
                    person=self.person,
                    round=self.round_text,
                ),
                id="handoff-text",
            )
        yield Footer()

    def action_go(self) -> None:
        self.dismiss(None)


class ScoreScreen(ModalScreen[None]):
    """The score sheet, any time (s)."""

    BINDINGS = [Binding("escape,s,enter,q", "close", "Close", id="scores-close")]

    def __init__(self, view: SeatView, names: tuple[str, ...]) -> None:
        super().__init__()
        self.view = view
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="scores-box", classes="dialog"):
            yield Label(
                "[b]" + _("Score sheet") + "[/] · "
                + _("round {number} of {total} · lowest total wins").format(
                    number=self.view.round, total=self.view.rules.round_count
                )
            )
            sealed = seal_line(self.view.seal, self.view.seed_chosen)
            if sealed:  # above the sheet: on screen whatever the sheet's length
                yield Static(Content(sealed), id="scores-seal")
            with VerticalScroll(id="scores-scroll"):
                # the box's border and padding (4) and a scroll bar (2)
                yield ScoreSheet(self.view, self.names, chrome=6, id="score-sheet")
            yield Label(
                "[dim]"
                + _("★ a round at 0 · (n) running total · ties: most rounds\nat 0, then the lowest non-zero round · Esc closes")
                + "[/]",
                id="scores-note",
            )

        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
