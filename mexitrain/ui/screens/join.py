"""The forms that lead to a table on the network: Join a table… (address, code, name) and
Host a table… (the port, then the same setup as a local game).

Each form checks what is typed and says what is wrong in one line; it dismisses with the
values (never connects: the app does, :mod:`mexitrain.ui.remote`).
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from ...game_setup import GameSetup
from ...i18n import N_, _
from ...net.protocol import normalise_code
from ...text.names import NAME_MAX, codepoint, first_unprintable, name_fault
from ..address import split_link, table_address
from ..cells import plain
from .new_game import NewGameScreen

#: Key descriptions and tooltips of these forms, for the catalog (:mod:`mexitrain.ui.lang`).
KEY_WORDS = (N_("Join"), N_("Join the table"), N_("Next"), N_("Set up the table"), N_("Cancel"), N_("Back"))

#: The port a table listens on unless told otherwise.
DEFAULT_TABLE_PORT = 8765


def default_name() -> str:
    """A name for this person at a table: the system's user name, if it is a fit name."""
    try:
        name = getpass.getuser()
    except Exception:  # no user name at all (a container): the person types one
        return ""
    name = name.strip()[:NAME_MAX]
    return name[:1].upper() + name[1:] if name_fault(name) is None else ""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a seat's name at a table, or None."""
    if not name.strip():
        return _("Type your name.")
    if len(name) > NAME_MAX:
        return _("A name is at most {n} characters.").format(n=NAME_MAX)
    bad = first_unprintable(name)
    if bad is not None:
        return _("A name cannot hold the control character {char}.").format(char=codepoint(bad))
    if name_fault(name.strip()) is not None:
        return _("A name needs a visible character.")
    return None


#: What :class:`SeatScreen` gives back for its Watch button (a name is a ``str``).
WATCH = "\x00watch"  # never a name: a name has no control character (name_problem)


class SeatScreen(ModalScreen[str | None]):
    """A table of ``mexitrain serve`` opened from its link (``/t/CODE``): your name, then
    the seat (the table's address and code come with the link); or Watch (:data:`WATCH`),
    which watches the table without a seat or a name."""

    BINDINGS = [
        Binding("ctrl+s", "join", "Join", tooltip="Join the table", id="seat-go"),
        Binding("escape", "cancel", "Cancel", id="seat-cancel"),
    ]

    def __init__(self, code: str, name: str | None = None) -> None:
        super().__init__()
        self.code = code
        self.initial = default_name() if name is None else name

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box", classes="save-box"):
            yield Label("[b]" + _("Join a table") + "[/] " + self.code)
            yield Label(_("Type your name and take a seat at the table."), classes="note")
            with Horizontal(classes="row"):
                yield Label(_("Your name"), classes="field-label")
                yield Input(value=self.initial, max_length=NAME_MAX, compact=True, id="seat-name")
            yield Static("", id="seat-problem", classes="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(_("Join ▶"), id="seat-go", variant="success", compact=True, action="screen.join")
                yield Button(
                    _("Watch"), id="seat-watch", compact=True, action="screen.watch",
                    tooltip=_("Watch the table: no seat, never a hand, no move"),
                )
                yield Button(_("Cancel"), id="seat-cancel", compact=True, action="screen.cancel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#seat-name", Input).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_join()

    @on(Input.Changed)
    def _changed(self) -> None:
        self.query_one("#seat-problem", Static).update("")

    def action_join(self) -> None:
        name = self.query_one("#seat-name", Input).value.strip()
        problem = name_problem(name)
        if problem is not None:
            self.query_one("#seat-problem", Static).update(plain(problem))
            return
        self.dismiss(name)

    def action_watch(self) -> None:
        self.dismiss(WATCH)

    def action_cancel(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class JoinRequest:
    """What the Join form asks: the table's address (HOST:PORT), its code and a name."""

    address: str
    code: str
    name: str
    #: watch the table rather than sit at it (the form's Watch button)
    watch: bool = False


class JoinScreen(ModalScreen[JoinRequest | None]):
    """Join a table: its address and code (the host's lobby shows them) and your name."""

    BINDINGS = [
        Binding("ctrl+s", "join", "Join", tooltip="Join the table", id="join-go"),
        Binding("escape", "cancel", "Cancel", id="join-cancel"),
    ]

    def __init__(self, address: str = "", code: str = "", name: str | None = None) -> None:
        super().__init__()
        self.initial = (address, code, default_name() if name is None else name)

    def compose(self) -> ComposeResult:
        address, code, name = self.initial
        with Vertical(id="join-box", classes="save-box"):
            yield Label("[b]" + _("Join a table") + "[/]")
            yield Label(_("The host's screen shows the line to type: mexitrain join HOST:PORT CODE. A table's link pasted in Address fills in both."), classes="note")
            with Horizontal(classes="row"):
                yield Label(_("Address"), classes="field-label")
                yield Input(value=address, placeholder=_("host:port"), max_length=260, compact=True, id="join-address")
            with Horizontal(classes="row"):
                yield Label(_("Table code"), classes="field-label")
                yield Input(value=code, placeholder=_("6 letters"), max_length=32, compact=True, id="join-code")
            with Horizontal(classes="row"):
                yield Label(_("Your name"), classes="field-label")
                yield Input(value=name, max_length=NAME_MAX, compact=True, id="join-name")
            yield Static("", id="join-problem", classes="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(_("Join ▶"), id="join-go", variant="success", compact=True, action="screen.join")
                yield Button(_("Watch"), id="join-watch", compact=True, action="screen.watch",
                             tooltip=_("Watch the table: no seat, never a hand, no move"))
                yield Button(_("Cancel"), id="join-cancel", compact=True, action="screen.cancel")
        yield Footer()

    def on_mount(self) -> None:
        first_empty = next((i for i in ("address", "code", "name") if not self.query_one(f"#join-{i}", Input).value), "address")
        self.query_one(f"#join-{first_empty}", Input).focus()

    def check(self) -> tuple[JoinRequest | None, str]:
        """The request the form describes, or None and what is wrong."""
        address = self.query_one("#join-address", Input).value.strip()
        code_text = self.query_one("#join-code", Input).value
        name = self.query_one("#join-name", Input).value.strip()
        if table_address(address) is None:
            return None, _("The address is HOST:PORT, for example 192.168.1.20:8765.")
        code = normalise_code(code_text)
        if code is None:
            return None, _("The table code is 6 letters, for example KXMPTR.")
        problem = name_problem(name)
        if problem is not None:
            return None, problem
        return JoinRequest(address, code, name), ""

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "join-name":
            self.action_join()
        else:
            self.focus_next()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self.query_one("#join-problem", Static).update("")
        link = split_link(event.value) if event.input.id == "join-address" else None
        if link is not None:  # a table's link pasted: its address here, its code below
            event.input.value = link[0]
            self.query_one("#join-code", Input).value = link[1]

    def action_join(self) -> None:
        request, problem = self.check()
        if request is None:
            self.query_one("#join-problem", Static).update(plain(problem))
            return
        self.dismiss(request)

    def action_watch(self) -> None:
        """Watch the table (the Watch button): the address and code as for joining; a name is
        not needed (one that is typed must be one a seat could have)."""
        request, problem = self.check()
        name = self.query_one("#join-name", Input).value.strip()
        if request is None and not name and table_address(self.query_one("#join-address", Input).value.strip()):
            code = normalise_code(self.query_one("#join-code", Input).value)
            if code is not None:
                request, problem = JoinRequest(self.query_one("#join-address", Input).value.strip(), code, ""), ""
        if request is None:
            self.query_one("#join-problem", Static).update(plain(problem))
            return
        self.dismiss(JoinRequest(request.address, request.code, request.name, watch=True))

    def action_cancel(self) -> None:
        self.dismiss(None)


class HostScreen(ModalScreen[int | None]):
    """Host a table, first step: the port others connect to (then the table's setup)."""

    BINDINGS = [
        Binding("ctrl+s", "next", "Next", tooltip="Set up the table", id="host-next"),
        Binding("escape", "cancel", "Cancel", id="host-cancel"),
    ]

    def __init__(self, port: int = DEFAULT_TABLE_PORT) -> None:
        super().__init__()
        self.port = port

    def compose(self) -> ComposeResult:
        with Vertical(id="host-box", classes="save-box"):
            yield Label("[b]" + _("Host a table") + "[/]")
            yield Label(
                _("Others join this computer's table on this port; then you set up the table as for a local game. "
                  "Each person seat is for one player: the first is yours, the others wait for those who join."),
                classes="note",
            )
            with Horizontal(classes="row"):
                yield Label(_("Port"), classes="field-label")
                yield Input(value=str(self.port), type="integer", max_length=5, compact=True, id="host-port")
            yield Static("", id="host-problem", classes="problem", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(_("Next ▶"), id="host-next", variant="success", compact=True, action="screen.next")
                yield Button(_("Cancel"), id="host-cancel", compact=True, action="screen.cancel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#host-port", Input).focus()

    def check(self) -> tuple[int | None, str]:
        text = self.query_one("#host-port", Input).value.strip()
        if not text.isdigit() or not 0 <= int(text) <= 65535:
            return None, _("The port is a number from 1024 to 65535 (0: any free port).")
        port = int(text)
        if 0 < port < 1024:
            return None, _("The port is a number from 1024 to 65535 (0: any free port).")
        return port, ""

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_next()

    def action_next(self) -> None:
        port, problem = self.check()
        if port is None:
            self.query_one("#host-problem", Static).update(plain(problem))
            return
        self.dismiss(port)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HostSetupScreen(NewGameScreen):
    """Host a table, second step: the new-game form; Start opens the table instead of
    starting a local game (it dismisses with the setup). The person seats are the places
    of people: the first is the host's, the others are open for those who join. No "Play
    together" row (already on the way to a table), no "allow undo" box (a table has no undo),
    no Load… ^O nor Stats ^T (they lead away from the table; the app disables their keys
    here, :func:`mexitrain.ui.local.on_the_way`); the title wraps (it is long)."""

    NETWORK_ROW = False
    FILE_BUTTONS = False

    def __init__(self, setup: GameSetup | None = None, seed: int | None = None, served: bool = False) -> None:
        super().__init__(setup, seed=seed, can_go_back=True)
        #: New table… in a served game (the serve process holds the table), not Host a table…
        self.served = served
        if served and self.seat_values:
            self.seat_values[0] = ("", self.seat_values[0][1])

    def on_mount(self) -> None:
        title = _("New table") if self.served else _("Host a table")
        self.query_one("#form-title", Label).update(
            "[b]" + title + "[/] · [dim]" + _("person seats: the first is yours, the others are for those who join") + "[/]"
        )
        self.query_one("#start", Button).label = _("Open ▶")
        self.query_one("#undo_with_several").display = False  # no undo at a table on the network
        if self.served:
            self.call_after_refresh(self._ask_name)

    def _ask_name(self) -> None:
        """A visitor's name is theirs to type (never "Player 1", nor the server's user name):
        the form waits for it in the first seat, which has the keyboard."""
        for first in self.query("#name-0").results(Input):
            first.placeholder = _("your name")
            first.focus()

    def on_new_game_screen_start(self, message: NewGameScreen.Start) -> None:
        message.stop()  # not a local game: the table's setup goes back to the app
        self.dismiss(message.setup)

    def action_back(self) -> None:
        self.dismiss(None)
