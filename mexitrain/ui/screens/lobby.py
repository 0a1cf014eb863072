"""The lobby of a table on the network: who sits where, the line others type to join, and
for the host the level of the computer players that take the open seats, and Start.

Attributes down, messages up: the app hands the screen each :class:`~mexitrain.net.protocol.Lobby`
and :class:`~mexitrain.net.protocol.Welcome` it receives (:meth:`LobbyScreen.show`); the screen
posts :class:`LobbyScreen.Start` and never talks to the network.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Select, Static

from ...i18n import N_, _, ngettext
from ...net.protocol import Watching
from ...players import LEVELS
from ...text.basics import level_name, player_count, round_count
from ...text.guest import own_seat_retrying
from ...text.names import fit
from ...text.net import turn_time_text
from ...text.rules import rules_differences
from ..cells import markup, plain
from ..colours import seat_colour
from ..widgets.chat import ChatLines
from ..widgets.net import NetBar

#: The lobby's key descriptions and tooltips, for the catalog (:mod:`mexitrain.ui.lang`).
KEY_WORDS = (
    N_("Chat"), N_("Say a line to the table"), N_("React"), N_("Send a quick reaction"),
    N_("Mute chat"), N_("Hide or show the others' chat lines"), N_("Remove"),
    N_("Remove a person from the table"),
    N_("Start"), N_("Start the game: the open seats go to computer players"),
    N_("Level"), N_("The level of the computer players that take the open seats"),
    N_("Leave"), N_("Leave the table"),
)


def seat_state(seat, you: int | None, linked: bool = True) -> str:
    """What a lobby seat is, in words: a person connected or away, a computer, or open.
    ``linked`` False: this player's own link is down (retrying), whatever the last Lobby
    said of it. (Once the link has ended for good the seats are not shown.)"""
    if you is not None and seat.seat == you and seat.kind == "person" and not linked:
        words = own_seat_retrying()
    elif seat.kind == "open":
        words = _("open: waiting for a player")
    elif seat.kind == "computer":
        words = _("computer: {level}").format(level=level_name(seat.level or "planner"))
    elif seat.connected:
        words = _("person · connected")
    else:
        words = _("person · away")
    if seat.host:
        words = _("{state} · host").format(state=words)
    if you is not None and seat.seat == you:
        words = _("{state} · you").format(state=words)
    return words


def seats_content(seats, you: int | None, linked: bool = True) -> Content:
    """The seats, one a line: number, name (plain text, in its seat colour), state."""
    if not seats:
        return Content(_("Nobody has joined yet."))
    lines = []
    for seat in seats:
        name = seat.name if seat.kind != "open" else "—"
        label = _("Seat {n}").format(n=seat.seat + 1)
        lines.append(
            Content(f"{fit(label, 8)} ")
            + plain(fit(name, 20), f"b {seat_colour(seat.seat)}" if seat.kind != "open" else "dim")
            + Content("  ")
            + plain(seat_state(seat, you, linked), "dim" if seat.kind == "open" else "")
        )
    return Content("\n").join(lines)


class LobbyScreen(Screen[None]):
    """Who has joined; the host chooses the open seats' level and starts the game."""

    AUTO_FOCUS = "#lobby-level"

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", tooltip="Start the game: the open seats go to computer players", id="lobby-start"),
        Binding("l", "level", "Level", tooltip="The level of the computer players that take the open seats", id="lobby-level"),
        Binding("q,escape", "app.request_quit", "Leave", tooltip="Leave the table", id="lobby-leave"),
        Binding("w", "app.chat_say", "Chat", tooltip="Say a line to the table", id="lobby-chat-say"),
        # r and v leave the footer to ? Help at 80 columns: the help lists them
        Binding("r", "app.chat_react", "React", show=False, tooltip="Send a quick reaction", id="lobby-chat-react"),
        Binding("v", "app.chat_mute", "Mute chat", show=False, tooltip="Hide or show the others' chat lines", id="lobby-chat-mute"),
        Binding("ctrl+x", "app.remove_player", "Remove", tooltip="Remove a person from the table", id="lobby-remove"),
    ]

    class Start(Message):
        """The host starts the game; the open seats become computer players of ``level``;
        ``turn_time`` (seconds, 0: none) and ``absent`` (what a rematch does with a person
        who left: "computer" or "wait") as the lobby's settings say (None: the table's own)."""

        def __init__(self, level: str, turn_time: int | None = None, absent: str | None = None) -> None:
            self.level = level
            self.turn_time = turn_time
            self.absent = absent
            super().__init__()

    class LevelChosen(Message):
        """The host chose the open seats' level (kept for handing over a seat later)."""

        def __init__(self, level: str) -> None:
            self.level = level
            super().__init__()

    #: the link's line and who is away (set by the table every second while something counts)
    link_text: reactive[str] = reactive("", init=False)
    #: the chat lines and the mute note (set by the table)
    chat_rows: reactive[tuple] = reactive((), init=False)
    chat_note: reactive[str] = reactive("", init=False)

    def __init__(self, code: str, *, join_line: str | None = None, level: str = "planner") -> None:
        super().__init__()
        self.code = code
        self.join_line = join_line
        self.level = level if level in LEVELS else next(iter(LEVELS))
        self.lobby = None  # the last Lobby message
        self.welcome = None  # the Welcome message
        self.connected = False
        self.over = False  # the link ended for good: nothing to wait for
        #: the host's settings for the game (the table's own, from its first Lobby, until the
        #: host changes them): the turn timer in seconds (0: none) and who leaves before a rematch
        self.turn_time = 0
        self.absent = "computer"
        self._settings_taken = False

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lobby"):
            yield Label(markup("[b]" + _("Play together") + "[/] · " + _("table {code}").format(code="$code"), code=self.code), id="lobby-title")
            yield Static("", id="lobby-rules", markup=False)
            yield Static("", id="lobby-join", markup=False)
            yield Label("[b]" + _("Seats") + "[/]", classes="section", id="lobby-seats-title")
            yield Static("", id="lobby-seats")
            with Horizontal(id="lobby-host", classes="row"):
                yield Label(_("Open seats become"), classes="field-label")
                yield Select(
                    [(_("computer: {level}").format(level=level_name(lvl)), lvl) for lvl in LEVELS],
                    value=self.level, allow_blank=False, compact=True, id="lobby-level",
                )
                yield Button(_("Start ▶"), id="lobby-start", variant="success", compact=True, action="screen.start")
            with Horizontal(id="lobby-pace", classes="row"):
                yield Label(_("Turn timer"), classes="field-label")
                yield Select(self._timer_choices(), value=0, allow_blank=False, compact=True, id="lobby-timer")
            with Horizontal(id="lobby-absent-row", classes="row"):
                yield Label(_("Who leaves"), classes="field-label")
                yield Select(
                    [(_("a computer plays their seat in a rematch"), "computer"),
                     (_("a rematch waits for them"), "wait")],
                    value="computer", allow_blank=False, compact=True, id="lobby-absent",
                )
            yield Static("", id="lobby-wait", markup=False)
            title = Label("[b]" + _("Chat") + "[/]", classes="section", id="lobby-chat-title")
            title.display = False
            yield title
            yield ChatLines(rows=8, id="lobby-chat").data_bind(lines=LobbyScreen.chat_rows, note=LobbyScreen.chat_note)
        yield NetBar(id="lobby-net").data_bind(text=LobbyScreen.link_text)
        yield Footer()

    def on_mount(self) -> None:
        self._refresh()

    def watch_chat_rows(self) -> None:
        self._chat_title()

    def watch_chat_note(self) -> None:
        self._chat_title()

    def _chat_title(self) -> None:
        """The chat's heading only once there is something under it."""
        for title in self.query("#lobby-chat-title"):
            title.display = bool(self.chat_rows or self.chat_note)

    # -- fed by the app ---------------------------------------------------------------------
    def show(self, lobby=None, welcome=None, *, connected: bool | None = None, over: bool | None = None) -> None:
        """The table as it is now (a Lobby message, this client's Welcome, the link up or not,
        the link ended for good)."""
        if lobby is not None:
            self.lobby = lobby
        if welcome is not None:
            self.welcome = welcome
        if connected is not None:
            self.connected = connected
        if over is not None:
            self.over = over
        if self.is_attached and self.is_mounted:
            self._refresh()

    @property
    def is_host(self) -> bool:
        return self.welcome is not None and self.welcome.host

    def _you(self) -> int | None:
        return None if self.welcome is None else self.welcome.seat

    def _timer_choices(self, extra: int = 0) -> list[tuple[str, int]]:
        """The turn timer's choices: none, or a time (the table's own too, when it is another)."""
        times = sorted({30, 60, 120, 300} | ({extra} if extra else set()))
        return [(_("none"), 0)] + [(turn_time_text(t), t) for t in times]

    def _take_settings(self) -> None:
        """The table's own timer and rematch choice (``mexitrain host --turn-time``), once."""
        lobby = self.lobby
        if self._settings_taken or lobby is None or not self.is_host:
            return
        self._settings_taken = True
        self.turn_time = lobby.turn_time or 0
        self.absent = lobby.absent
        timer = self.query_one("#lobby-timer", Select)
        timer.set_options(self._timer_choices(self.turn_time))
        timer.value = self.turn_time
        self.query_one("#lobby-absent", Select).value = self.absent

    @on(Select.Changed, "#lobby-timer")
    def _timer_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.turn_time = event.value

    @on(Select.Changed, "#lobby-absent")
    def _absent_changed(self, event: Select.Changed) -> None:
        if event.value in ("computer", "wait"):
            self.absent = event.value

    def _refresh(self) -> None:
        lobby = self.lobby
        if self.is_attached and self.is_mounted:
            self._take_settings()
        seats = lobby.seats if lobby is not None else ()
        self.query_one("#lobby-seats", Static).update(seats_content(seats, self._you(), self.connected))
        rules = ""
        differences: list[str] = []
        if lobby is not None:
            r = lobby.rules
            n = len(seats)
            k = r.tiles_each(n)  # a guest takes no lobby whose rules cannot deal its seats (protocol)
            rules = _("{players} · double-{set} · {tiles} · {rounds}").format(
                players=player_count(n), set=r.set, tiles=ngettext("{n} tile each", "{n} tiles each", k).format(n=k),
                rounds=round_count(r.round_count),
            )
            differences = rules_differences(r)  # what a guest would not expect (? lists every rule)
        watchers = getattr(lobby, "watchers", 0) if lobby is not None else 0
        if watchers:  # how many watch the table (never who)
            rules += " · " + ngettext("{count} watching", "{count} watching", watchers).format(count=watchers)
        self.query_one("#lobby-rules", Static).update("\n".join([rules] + ["• " + d for d in differences]))
        join = self.join_line if self.is_host and self.join_line else ""
        self.query_one("#lobby-join", Static).update(join)
        self.query_one("#lobby-join").display = bool(join) and not self.over
        # once the link has ended for good the last seats are not the table's any more (a
        # person removed is not at it): neither they nor the host's settings are shown
        for seats_part in self.query("#lobby-seats-title, #lobby-seats"):
            seats_part.display = not self.over
        self.query_one("#lobby-host").display = self.is_host and not self.over
        started = lobby is not None and lobby.started
        self.query_one("#lobby-pace").display = self.is_host and not started and not self.over
        self.query_one("#lobby-absent-row").display = self.is_host and not started and not self.over
        if self.over:  # the line below says why (the net bar)
            wait = _("You are no longer at this table. q leaves it.")
        elif self.welcome is None:
            wait = ""
        elif self.is_host:
            open_seats = sum(1 for s in seats if s.kind == "open")
            wait = _("Start when everyone is here (Ctrl+S): the open seats go to computer players.") if open_seats else _("Every seat is taken: start the game (Ctrl+S).")
        elif isinstance(self.welcome, Watching):
            wait = _("Watching: the game shows here once the host starts it.")
        else:
            wait = _("Waiting for the host to start the game…")
        self.query_one("#lobby-wait", Static).update(wait)
        self.query_one("#lobby-start", Button).disabled = not self.check_action("start", ())
        self.refresh_bindings()

    # -- keys ----------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("start", "level"):
            if not self.is_host:
                return False  # only the host starts: the others never see the key
            started = self.lobby is not None and self.lobby.started
            return True if (self.connected and self.lobby is not None and not started) else None
        return True

    def action_start(self) -> None:
        if self.check_action("start", ()):
            if self._settings_taken:
                self.post_message(self.Start(self.level, self.turn_time, self.absent))
            else:  # the table's own settings (its lobby's, not read yet)
                self.post_message(self.Start(self.level, None, None))

    def action_level(self) -> None:
        """The next computer level for the open seats (the list does the same with the mouse)."""
        levels = list(LEVELS)
        i = levels.index(self.level) if self.level in levels else -1
        self.query_one("#lobby-level", Select).value = levels[(i + 1) % len(levels)]

    @on(Select.Changed, "#lobby-level")
    def _level_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.level:
            self.level = event.value
            self.post_message(self.LevelChosen(self.level))
