"""Chat at a network table: the one-line input (w), the quick reactions (r), and for the host
the choice of a person to remove (Ctrl+X) with its confirmation (docs/play-together.md#chat).

Attributes down, messages up: each dialog is given what it shows and dismisses with the
person's choice (the line typed, a reaction's code, a seat, yes or no); the network table
(:mod:`mexitrain.ui.network`) sends it. Names are shown as plain text.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from ...i18n import N_, _
from ...text.chat import CHAT_MAX, REACTIONS, chat_separator, reaction_text
from ...text.names import shorten
from ..cells import plain
from ..colours import seat_colour

#: The dialogs' key descriptions, for the catalog (:mod:`mexitrain.ui.lang`).
KEY_WORDS = (N_("Cancel"), N_("Remove"), N_("Keep"), N_("Reaction"), N_("Seat"), N_("Close"),
             N_("Chat"), N_("The chat said at the table"))


class ChatInputScreen(ModalScreen[str | None]):
    """One line to say at the table: Enter sends it, Esc cancels (at most :data:`CHAT_MAX`
    characters; the table refuses an empty one and says so)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="chat-cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box", classes="dialog"):
            yield Label(_("Say to the table (Enter sends, Esc cancels):"))
            yield Input(max_length=CHAT_MAX, id="chat-input", compact=True,
                        placeholder=_("at most {limit} characters").format(limit=CHAT_MAX))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReactionScreen(ModalScreen[str | None]):
    """The quick reactions, each on a number key (each reader sees it in their own language)."""

    BINDINGS = [
        *[
            Binding(str(i + 1), f"pick({i})", "Reaction", show=False, id=f"react-{i + 1}")
            for i in range(len(REACTIONS))
        ],
        Binding("escape", "cancel", "Cancel", id="react-cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="react-box", classes="dialog"):
            yield Label(_("A quick reaction (1 … {n}, Esc cancels):").format(n=len(REACTIONS)))
            with Horizontal(classes="buttons"):
                for i, code in enumerate(REACTIONS):
                    yield Button(f"{i + 1} {reaction_text(code)}", id=f"react-{code}", compact=True)
        yield Footer()

    def action_pick(self, index: int) -> None:
        codes = list(REACTIONS)
        if 0 <= index < len(codes):
            self.dismiss(codes[index])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        code = (event.button.id or "").removeprefix("react-")
        if code in REACTIONS:
            self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RemoveScreen(ModalScreen[int | None]):
    """The host chooses whom to remove: the other people's seats, each on its number key."""

    BINDINGS = [
        *[Binding(str(i + 1), f"pick({i})", "Seat", show=False, id=f"remove-{i + 1}") for i in range(9)],
        Binding("escape", "cancel", "Cancel", id="remove-cancel"),
    ]

    def __init__(self, seats: list[tuple[int, str]]) -> None:
        """``seats``: (seat, name) of each person who may be removed."""
        super().__init__()
        self.seats = seats[:9]

    def compose(self) -> ComposeResult:
        with Vertical(id="remove-box", classes="dialog"):
            yield Label(_("Remove whom from the table? (a number, Esc cancels)"))
            for i, (seat, name) in enumerate(self.seats):
                label = Content(f"{i + 1} ") + plain(shorten(name, 24)) + Content(" · ") + Content(
                    _("Seat {n}").format(n=seat + 1)
                )
                yield Button(label, id=f"remove-seat-{seat}", compact=True)
        yield Footer()

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.seats):
            self.dismiss(self.seats[index][0])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        seat = (event.button.id or "").removeprefix("remove-seat-")
        if seat.isdigit():
            self.dismiss(int(seat))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmRemoveScreen(ModalScreen[bool]):
    """Removing a person is for good: asked once more."""

    BINDINGS = [
        Binding("y", "answer(True)", "Remove", id="remove-yes"),
        Binding("n,escape", "answer(False)", "Keep", id="remove-no"),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person = name

    def compose(self) -> ComposeResult:
        with Vertical(id="remove-confirm", classes="dialog"):
            yield Label(
                plain(
                    _("Remove {name} from the table? A computer player takes the seat, and {name} "
                      "cannot come back to it.").format(name=shorten(self.person, 24))
                )
            )
            yield Label("[dim]" + _("y removes, n (or Esc) keeps them.") + "[/]")
            with Horizontal(classes="buttons"):
                yield Button(_("Remove (y)"), id="remove-yes", variant="error", compact=True)
                yield Button(_("Keep (n)"), id="remove-no", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#remove-no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "remove-yes")


class ChatLogScreen(ModalScreen[None]):
    """Every chat line kept with a finished table's game (the replay viewer's c): one a row,
    the speaker's name in their seat's colour, all plain text."""

    BINDINGS = [Binding("escape,q,c", "close", "Close", id="chat-log-close")]

    def __init__(self, rows: list[tuple[int, str, str, bool]], title: str = "") -> None:
        super().__init__()
        self.rows = rows
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-log-box", classes="dialog"):
            yield Label(Content.from_markup("[b]$chat[/] ", chat=_("Chat")) + plain(self.title_text))
            lines = [
                plain(name, f"b {seat_colour(seat)}") + plain(chat_separator(reaction) + words)
                for seat, name, words, reaction in self.rows
            ]
            with VerticalScroll(id="chat-log-scroll"):
                yield Static(Content("\n").join(lines), id="chat-log")
            yield Label("[dim]" + _("Esc closes") + "[/]")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
