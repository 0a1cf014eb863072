"""A table on the network at this terminal: the Textual app in "remote" mode (issue 23).

:class:`TableApp` is the game's app (:class:`~mexitrain.ui.app.MexitrainApp`) that can also sit
at a table another process holds: ``mexitrain join`` and ``mexitrain host`` start it at a table
(:func:`run_table_app`), and "Host a table…" / "Join a table…" on the new-game screen and in
the command palette take a local app there, in the same process (a browser page of
``mexitrain serve`` keeps its one app).

At a table the server is the authority. A :class:`~mexitrain.net.client.TableClient` runs in a
Textual worker on the app's event loop (never a thread: the screen never freezes); each
message from the server becomes a Textual message to the app (:class:`ServerSaid`,
:class:`LinkChanged`). Attributes down: the app keeps the last :class:`~mexitrain.net.protocol.Update`
(a seat's view, never the full state) in :class:`Table` and hands the game screen the board
built from it, the lobby screen the last Lobby. Messages up: the game screen's ``Act`` becomes
an ``Intent``, the lobby's ``Start`` a ``StartGame``, the host's ``c`` a ``HandOver``. A
refusal is said as a local one; undo, save, load and replay are local-only and disabled here.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from ..i18n import N_, _, language
from ..net.protocol import (
    Error,
    HandOver,
    Intent,
    Lobby,
    Refused,
    StartGame,
    Update,
    Welcome,
    refusal,
)
from ..rules import Action, SeatView, view_legal_actions
from ..session import Notice
from ..text.basics import level_name
from ..text.net import away_text, error_text, join_line, link_text, refused_text
from .app import MexitrainApp
from .board import build
from .screens import (
    GameOverScreen,
    GameScreen,
    HelpScreen,
    NewGameScreen,
    QuitScreen,
    RoundOverScreen,
    ScoreScreen,
)
from .screens.join import HostScreen, HostSetupScreen, JoinRequest, JoinScreen
from .screens.lobby import LobbyScreen
from .widgets import StatusLine
from .widgets.net import NetBar

#: The key descriptions and tooltips of the table's game screen, for the catalog (:mod:`.lang`).
KEY_WORDS = (
    N_("Hand over"), N_("Hand the seat of a player who is away to a computer player"),
    N_("Host a table…"), N_("Join a table…"),
)


# -- messages from the client (posted on the app's own loop) -----------------------------------
class ServerSaid(Message):
    """A message from the table's server (Welcome, Lobby, Update, Refused, Error)."""

    def __init__(self, msg: Any) -> None:
        self.msg = msg
        super().__init__()


class LinkChanged(Message):
    """The link to the table changed (a :class:`~mexitrain.net.client.LinkStatus`)."""

    def __init__(self, status: Any) -> None:
        self.status = status
        super().__init__()


class ClientEnded(Message):
    """The client stopped: closed, or a fatal error from the server."""


# -- what this terminal knows of the table (no Textual below) ---------------------------------
@dataclass
class TableRequest:
    """A table to sit at: its address (HOST:PORT), code, this person's name; ``host_token``
    gives host rights (the host's own client); ``join_line`` is what the host's lobby shows
    others; ``server`` is a server this app runs in a thread (stopped when the app leaves)."""

    address: str
    code: str
    name: str
    host_token: str | None = None
    join_line: str | None = None
    server: Any = None


@dataclass
class Table:
    """The table as this terminal knows it: the last Welcome, Lobby and Update, the link,
    and what is due on screen (a round's results, the final standings). Plain Python."""

    request: TableRequest
    welcome: Welcome | None = None
    lobby: Lobby | None = None
    update: Update | None = None
    link: Any = None
    link_at: float = 0.0
    update_at: float = 0.0
    fatal: str | None = None  # the fatal error that ended the link, in words
    level: str = "planner"  # the computer level the host chose in the lobby
    seq: int = 0  # intents sent
    auto_events: set[int] = field(default_factory=set)
    forced_sent: int | None = None  # the update seq a forced move was sent for
    round_over_pending: bool = False
    game_over_shown: bool = False

    @property
    def seat(self) -> int | None:
        return None if self.welcome is None else self.welcome.seat

    @property
    def host(self) -> bool:
        return self.welcome is not None and self.welcome.host

    @property
    def connected(self) -> bool:
        return self.link is not None and self.link.state == "connected" and self.fatal is None

    def names(self) -> tuple[str, ...]:
        return () if self.update is None else self.update.names

    def kinds(self) -> tuple[str, ...]:
        """Each seat as the board knows seats: "human" for a person, else its computer level
        (the lobby says which; "planner" until it does)."""
        if self.update is None:
            return ()
        levels: dict[int, str] = {}
        if self.lobby is not None:
            levels = {s.seat: s.level for s in self.lobby.seats if s.level}
        return tuple("human" if k == "person" else levels.get(i, "planner") for i, k in enumerate(self.update.kinds))

    def take(self, update: Update, now: float) -> list[Notice]:
        """Take a new Update: the knocks to tell (a seat down to one tile), and the round's
        results or the final standings become due."""
        old = self.update.view if self.update is not None else None
        new = update.view
        self.update, self.update_at = update, now
        if old is None or new.round != old.round or len(new.results) != len(old.results):
            self.auto_events = set()
        if old is not None and len(new.results) > len(old.results):
            self.round_over_pending = True
        notices = []
        if old is not None and old.round == new.round and new.phase != "game_over":
            for seat, (a, b) in enumerate(zip(old.hand_sizes, new.hand_sizes, strict=False)):
                if b == 1 and a > 1:
                    if seat == new.seat:
                        notices.append(Notice(_("Knock! You have one tile left"), _("Knock"), "warning", 4))
                    else:
                        name = update.names[seat] if seat < len(update.names) else str(seat + 1)
                        notices.append(Notice(_("Knock! {name} has one tile left").format(name=name), _("Knock"), "warning", 4))
        return notices

    def forced(self) -> Action | None:
        """The only move left to this seat when it is a marker or a pass (made for the
        person, as in a local game), once per update."""
        update = self.update
        if update is None or self.seat is None or self.forced_sent == update.seq:
            return None
        view = update.view
        if not view.my_turn or self.kinds()[view.seat] != "human":
            return None
        legal = view_legal_actions(view)
        if len(legal) == 1 and legal[0].type in ("mark", "pass"):
            self.forced_sent = update.seq
            return legal[0]
        return None

    def bar_text(self, now: float) -> str:
        """The game screen's and lobby's line: the link while it is not up, else who is away
        (the clocks counting from the last update), else nothing."""
        if self.fatal is not None:
            return self.fatal
        link = self.link
        if link is not None and link.state != "connected":
            retry = link.retry_in
            if link.state == "retrying" and retry is not None:
                retry = max(0.0, retry - (now - self.link_at))
            text = link_text(SimpleNamespace(state=link.state, attempt=link.attempt, retry_in=retry, error=link.error))
            if link.state == "connecting":
                text = f"{text} ({self.request.address})"
            return text
        if self.update is None or not self.update.away:
            return ""
        gone = now - self.update_at
        lines = [away_text(SimpleNamespace(name=a.name, seconds=a.seconds + gone)) for a in self.update.away]
        if self.host:
            lines.append(_("c hands the seat to a computer"))
        return " · ".join(lines)


def forced_notice(view: SeatView, action: Action) -> Notice:
    """What a forced move made for the person says (the words of a local game)."""
    if view.drawn:
        tile = f"{view.drawn[0]}-{view.drawn[1]}"
        if action.type == "mark":
            text = _("You drew {tile}, which cannot be played: your turn ends with a marker.")
        else:
            text = _("You drew {tile}, which cannot be played: your turn ends (pass).")
        text = text.format(tile=tile)
    elif action.type == "mark":
        text = _("Nothing can be played and the boneyard is empty: your turn ends with a marker.")
    else:
        text = _("Nothing can be played and the boneyard is empty: your turn ends (pass).")
    return Notice(text, _("No move left"), timeout=5)


# -- screens of a table ---------------------------------------------------------------------------
class TableScreen(GameScreen):
    """The game screen at a table on the network: the same board, fed by the server's views;
    one more line (the link, who is away) and, for the host, ``c`` to hand an away seat to a
    computer player."""

    BINDINGS = [
        Binding("c", "app.hand_over", "Hand over", tooltip="Hand the seat of a player who is away to a computer player", id="hand-over"),
    ]

    def compose(self):
        for widget in super().compose():
            yield widget
            if isinstance(widget, StatusLine):
                yield NetBar(id="net-bar")

    def show(self, view, names, kinds, auto_events=frozenset()) -> None:  # type: ignore[override]
        # one person at this terminal: the texts call this seat "you", whoever else plays
        self.board = build(view, names, kinds, previous=self.board, plain=self.plain, auto_events=auto_events, you=view.seat)

    def action_sort(self) -> None:
        super().action_sort()
        board = self.board
        if board is not None and board.you != board.view.seat:
            self.board = build(board.view, board.names, board.kinds, previous=board, plain=self.plain,
                               auto_events=board.auto_events, you=board.view.seat)


class TableOverScreen(GameOverScreen, inherit_bindings=False):
    """The final standings at a table: no "Play again" (the table's game is over); New game
    leaves the table for the new-game screen, Quit ends the app."""

    BINDINGS = [b for b in GameOverScreen.BINDINGS if b.id != "over-again"]

    def on_mount(self) -> None:
        self.query_one("#again").remove()


class TableHelpScreen(HelpScreen):
    """The help at a table: the keys, the rules in force, and what a table on the network
    does not do (undo, save, load, replay are local-only)."""

    def on_mount(self) -> None:
        from textual.widgets import Static

        scroll = self.query_one("#help-scroll")
        scroll.mount(
            Static(_(NETWORK_NOTE), classes="help-note", markup=False),
            before=0,
        )


NETWORK_NOTE = N_(
    "At a table on the network the host's server holds the game and saves it after every move: "
    "undo, save, load and replay are not available here (they work in a local game). "
    "c (the host): hand the seat of a player who is away to a computer player."
)


# -- the app ----------------------------------------------------------------------------------------
ClientFactory = Callable[[TableRequest, Path], Any]


def _real_client(request: TableRequest, root: Path) -> Any:
    from ..net.client import TableClient

    return TableClient(request.address, request.code, request.name, data_dir=root, lang=language(),
                       token=request.host_token)


class TableApp(MexitrainApp):
    """The game's app, able to sit at a table on the network (see the module docstring).

    ``table``: start at that table (``mexitrain join``/``host``); without it, the local app
    (new-game screen...) whose Host/Join commands lead to a table. ``client_factory`` makes
    the client (tests give a fake with the same interface)."""

    BINDINGS = [
        Binding("ctrl+n", "host_table", "Host", show=False, id="app-host"),
        Binding("ctrl+g", "join_table", "Join", show=False, id="app-join"),
    ]

    def __init__(
        self,
        *args: Any,
        table: TableRequest | None = None,
        client_factory: ClientFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        #: the away clocks' and the retry countdown's time (tests stop it, for the pictures)
        self.clock = clock
        self.table: Table | None = None
        self.lobby_screen: LobbyScreen | None = None
        self.client: Any = None
        self._request = table
        self._client_factory = client_factory or _real_client
        self._servers: list[Any] = []  # servers this app started (Host a table…), stopped at the end
        self._clock: Any = None  # the one-second timer of the away clocks and the link's countdown

    # -- start -------------------------------------------------------------------------------
    def on_mount(self, event) -> None:
        if self._request is None:
            return  # the local app's start (MexitrainApp.on_mount)
        event.prevent_default()
        self._restore_theme()
        self.call_later(self.sit_at, self._request)

    async def sit_at(self, request: TableRequest) -> None:
        """Go to ``request``'s table: its lobby at once, the client connecting in a worker."""
        self.workers.cancel_group(self, "ai")  # a local game in progress stays in its autosave
        self.table = Table(request)
        self.snapshot = None
        self.game_screen = None
        self.lobby_screen = LobbyScreen(request.code, join_line=request.join_line, level=self.table.level)
        await self._goto(self.lobby_screen)
        self.client = self._client_factory(request, self.root)
        self.run_worker(self._run_client(self.client), group="net", exclusive=True, exit_on_error=False)
        if self._clock is None:
            self._clock = self.set_interval(1.0, self._tick, name="table-clock")

    async def _run_client(self, client: Any) -> None:
        try:
            await client.run(lambda msg: self.post_message(ServerSaid(msg)),
                             lambda status: self.post_message(LinkChanged(status)))
        finally:
            self.post_message(ClientEnded())

    # -- from the server ----------------------------------------------------------------------
    async def on_server_said(self, message: ServerSaid) -> None:
        table, msg = self.table, message.msg
        if table is None:
            return
        if isinstance(msg, Welcome):
            table.welcome = msg
            self._show_lobby()
        elif isinstance(msg, Lobby):
            table.lobby = msg
            self._show_lobby()
            if table.update is not None and self.game_screen is not None:
                self._show_game()  # a seat handed over: its kind changed
        elif isinstance(msg, Update):
            await self._take_update(msg)
        elif isinstance(msg, Refused):
            text = refused_text(refusal(msg), table.names(), table.seat)
            self.show_notice(Notice(text, _("Not allowed"), "warning"))
        elif isinstance(msg, Error):
            text = error_text(msg.code, msg.values, msg.server_version)
            if msg.fatal:
                table.fatal = text
                self._tick()
            self.notify(text, title=_("The table"), severity="error" if msg.fatal else "warning", timeout=10, markup=False)

    def on_link_changed(self, message: LinkChanged) -> None:
        table = self.table
        if table is None:
            return
        table.link, table.link_at = message.status, self.clock()
        self._show_lobby()
        self._tick()

    def on_client_ended(self, message: ClientEnded) -> None:
        table = self.table
        if table is not None and table.fatal is None and (table.link is None or table.link.state != "closed"):
            table.link = SimpleNamespace(state="closed", attempt=0, retry_in=None, error=None)
        self._show_lobby()
        self._tick()

    def _show_lobby(self) -> None:
        table, screen = self.table, self.lobby_screen
        if table is not None and screen is not None:
            screen.show(table.lobby, table.welcome, connected=table.connected)

    def _tick(self) -> None:
        """Every second: the link's and the away seats' line, on the lobby and the game screen."""
        table = self.table
        if table is None:
            return
        text = table.bar_text(self.clock())
        for screen in (self.lobby_screen, self.game_screen):
            if screen is not None and screen.is_attached:
                for bar in screen.query(NetBar):
                    bar.text = text

    async def _take_update(self, update: Update) -> None:
        table = self.table
        assert table is not None
        notices = table.take(update, self.clock())
        if self.game_screen is None:
            self.game_screen = TableScreen(hint_time=self.hint_time)
            await self._goto(self.game_screen)
            self.lobby_screen = None  # the game has started: the lobby's seats are on the board
            self.call_after_refresh(self._refresh_undo)
        self._show_game()
        for notice in notices:
            self.show_notice(notice)
        self._tick()
        self._advance()
        action = table.forced()
        if action is not None:
            table.auto_events.add(len(update.view.events))
            self.show_notice(forced_notice(update.view, action))
            await self._send_intent(action)

    def _show_game(self) -> None:
        table, screen = self.table, self.game_screen
        if table is None or screen is None or table.update is None:
            return
        screen.show(table.update.view, table.names(), table.kinds(), frozenset(table.auto_events))

    def _advance(self) -> None:
        table = self.table
        if table is None:
            super()._advance()
            return
        if table.update is None or self.game_screen is None or self.screen is not self.game_screen:
            return
        view = table.update.view
        if table.round_over_pending:
            table.round_over_pending = False
            self.clear_notifications()
            self.push_screen(RoundOverScreen(view, table.names(), view.phase == "game_over", view.seat))
        elif view.phase == "game_over" and not table.game_over_shown:
            table.game_over_shown = True
            self.push_screen(TableOverScreen(view, table.names(), view.seat), self._after_table)

    def on_game_screen_ready(self, message: GameScreen.Ready) -> None:
        if self.table is not None:
            message.prevent_default()
            self._advance()

    # -- to the server --------------------------------------------------------------------------
    async def on_game_screen_act(self, message: GameScreen.Act) -> None:
        table = self.table
        if table is None:
            return  # a local game (MexitrainApp)
        message.prevent_default()
        board = self.game_screen.board if self.game_screen is not None else None
        if board is None or not board.my_turn:
            return
        await self._send_intent(message.action)

    async def _send_intent(self, action: Action) -> None:
        table = self.table
        assert table is not None
        table.seq += 1
        await self._send(Intent(seq=table.seq, action=action))

    async def _send(self, msg: Any) -> bool:
        """Send ``msg``; while the link is down, say that nothing was sent (the table's state
        comes back with the link: the move can be made again)."""
        table = self.table
        if table is None or self.client is None or not table.connected:
            self.show_notice(Notice(_("Not connected to the table: nothing was sent. Try again once the link is back."), _("Not sent"), "warning"))
            return False
        try:
            sent = await self.client.send(msg)
        except Exception:  # the link fell meanwhile: the client reports it and retries
            sent = False
        if sent is False:
            self.show_notice(Notice(_("Not connected to the table: nothing was sent. Try again once the link is back."), _("Not sent"), "warning"))
            return False
        return True

    async def on_lobby_screen_start(self, message: LobbyScreen.Start) -> None:
        if self.table is not None and self.table.host:
            self.table.level = message.level
            await self._send(StartGame(level=message.level))

    def on_lobby_screen_level_chosen(self, message: LobbyScreen.LevelChosen) -> None:
        if self.table is not None:
            self.table.level = message.level

    async def action_hand_over(self) -> None:
        """The host hands the seat of a person who is away to a computer player (the one
        whose turn it is first), at the level chosen in the lobby."""
        table = self.table
        if table is None or table.update is None or not table.host:
            return
        away = table.update.away
        if not away:
            self.notify(_("Nobody is away: every seat's player is here."), title=_("Hand over"), timeout=4)
            return
        turn = table.update.view.turn
        seat = next((a for a in away if a.seat == turn), away[0])
        if await self._send(HandOver(seat=seat.seat, level=table.level)):
            self.notify(
                _("{name}'s seat goes to a computer player ({level}) until they come back.").format(
                    name=seat.name, level=level_name(table.level)
                ),
                title=_("Hand over"), timeout=5, markup=False,
            )

    # -- keys and commands at a table ----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        table = self.table
        if action in ("host_table", "join_table"):
            return table is None  # a local game in progress stays in its autosave
        if table is None:
            return super().check_action(action, parameters)
        if action in ("undo", "save_as", "load_game", "open_replay", "new_game"):
            return None if action == "undo" else False  # undo dimmed with its reason, the others gone
        if action == "undo_why":
            return isinstance(self.screen, GameScreen)
        if action == "hand_over":
            if not table.host or table.update is None:
                return False
            return True if table.update.away and table.connected else None
        if action == "scores":
            return table.update is not None and not isinstance(self.screen, ScoreScreen | LobbyScreen)
        if action == "help":
            return not isinstance(self.screen, HelpScreen)
        return True

    def undo_state(self) -> tuple[bool, str]:
        if self.table is None:
            return super().undo_state()
        return False, _("undo is not available at a table on the network")

    def action_undo(self) -> None:
        if self.table is None:
            super().action_undo()
            return
        self.show_notice(Notice(_("Undo is not available at a table on the network: the host's server holds the game."), _("Cannot undo"), "warning"))

    def action_save_as(self, *args: Any, **kwargs: Any) -> None:
        if self.table is None:
            super().action_save_as(*args, **kwargs)

    def action_help(self) -> None:
        table = self.table
        if table is None:
            super().action_help()
            return
        if isinstance(self.screen, HelpScreen):
            return
        if table.update is not None:
            self.push_screen(TableHelpScreen(table.update.view.rules, table.update.view.players))
        elif table.lobby is not None:
            self.push_screen(TableHelpScreen(table.lobby.rules, len(table.lobby.seats)))
        else:
            self.push_screen(TableHelpScreen())

    def action_scores(self) -> None:
        table = self.table
        if table is None:
            super().action_scores()
            return
        if table.update is None or isinstance(self.screen, ScoreScreen):
            return
        self.push_screen(ScoreScreen(table.update.view, table.names()))

    def action_request_quit(self) -> None:
        table = self.table
        if table is None:
            super().action_request_quit()
            return
        if isinstance(self.screen, QuitScreen):
            return
        view = table.update.view if table.update is not None else None
        if view is not None and view.phase == "game_over":
            self.call_later(self.leave_table, False)
            return
        if table.request.server is not None:
            question = _("Leave the table? It closes for everyone (the game is autosaved).")
        else:
            question = _("Leave the table? Your seat waits for you: join again to come back.")
        self.push_screen(QuitScreen(question), lambda yes: self.call_later(self.leave_table, False) if yes else None)

    async def leave_table(self, stay: bool) -> None:
        """Say goodbye to the table (its seat stays ours), stop a server we run; then end the
        app, or (``stay``) go to the new-game screen."""
        client, self.client = self.client, None
        if client is not None:  # it says Bye: the seat stays ours, to come back to
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2)
        self.workers.cancel_group(self, "net")
        self._stop_servers()
        self.table = None
        self.lobby_screen = None
        self.game_screen = None
        if stay:
            await self._goto(NewGameScreen(seed=self.form_seed))
        else:
            self.exit()

    def _after_table(self, choice: str | None) -> None:
        self.call_later(self.leave_table, choice == "new")

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        table = self.table
        if table is None:
            yield from super().get_system_commands(screen)
            yield SystemCommand(_("Host a table…"), _("Open a table on this computer for players on the network (Ctrl+N)"), self.action_host_table)
            yield SystemCommand(_("Join a table…"), _("Sit at a table on the network: its address and code (Ctrl+G)"), self.action_join_table)
            return
        if table.update is not None:
            yield SystemCommand(_("Score sheet"), _("Scores of every round so far"), self.action_scores)
        if table.host and table.update is not None and table.update.away:
            yield SystemCommand(_("Hand over"), _("Hand the seat of a player who is away to a computer player"), self.action_hand_over)
        yield SystemCommand(_("Rules and keys"), _("Help: the keys and the rules in force"), self.action_help)
        yield SystemCommand(_("Leave the table"), _("Leave the table (your seat waits for you)"), self.action_request_quit)
        yield from _textual_commands(self, screen)

    # -- Host a table… / Join a table… (from the local app) ----------------------------------------
    def action_join_table(self) -> None:
        if self.table is not None:
            return

        def chosen(request: JoinRequest | None) -> None:
            if request is not None:
                self.call_later(self.sit_at, TableRequest(request.address, request.code, request.name))

        self.push_screen(JoinScreen(), chosen)

    def action_host_table(self) -> None:
        if self.table is not None:
            return

        def port_chosen(port: int | None) -> None:
            if port is not None:
                self.push_screen(HostSetupScreen(self.session.setup, seed=self.form_seed), lambda setup: self._open_table(setup, port))

        self.push_screen(HostScreen(), port_chosen)

    def _open_table(self, setup: Any, port: int) -> None:
        """Start a server for ``setup`` in a thread on ``port`` and sit at it as its host."""
        if setup is None:
            return
        from ..net.server import TableServer, run_in_thread
        from .address import address_text, lan_address

        humans = setup.humans
        host_seat = humans[0] if humans else None
        try:
            server = TableServer(setup, data_dir=self.root, open_seats=tuple(humans[1:]), host_seat=host_seat, pace=self.speed)
            thread = run_in_thread(server, "0.0.0.0", port)
        except Exception as exc:  # the port is taken, or the system refuses: one line
            from ..text.errors import error_text as os_error_text

            self.notify(os_error_text(exc), title=_("Cannot open the table"), severity="error", timeout=10, markup=False)
            return
        self._servers.append(thread)
        name = setup.seats[host_seat].name if host_seat is not None else _("Host")
        request = TableRequest(
            f"127.0.0.1:{thread.port}", server.code, name, host_token=server.host_token,
            join_line=join_line(address_text(lan_address(), thread.port), server.code), server=thread,
        )
        self.call_later(self.sit_at, request)

    def _stop_servers(self) -> None:
        servers, self._servers = self._servers, []
        for thread in servers:
            try:
                thread.stop()
            except Exception:
                pass

    def on_unmount(self) -> None:
        self._stop_servers()


def _textual_commands(app: TableApp, screen: Screen) -> Iterable[SystemCommand]:
    """Textual's own commands (theme, screenshot...), in the player's language."""
    from textual.app import App

    for command in App.get_system_commands(app, screen):
        if command.title == "Keys":
            continue
        yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)


def run_table_app(
    address: str,
    code: str,
    name: str,
    *,
    data_dir: str | Path | None = None,
    lang: str | None = None,
    host_token: str | None = None,
    join_line: str | None = None,
    on_exit: Callable[[], None] | None = None,
) -> int:
    """Sit at the table ``code`` at ``address`` as ``name`` in the full-screen game; returns
    the exit status. ``host_token`` gives host rights (``mexitrain host``), ``join_line`` is
    what the host's lobby shows the others; ``on_exit`` runs when the app has ended."""
    from ..i18n import set_language
    from .crash import run_app

    if lang:
        set_language(lang)
    request = TableRequest(address, code, name, host_token=host_token, join_line=join_line)
    try:
        return run_app(TableApp(None, 0.6, data_dir=data_dir, table=request))
    finally:
        if on_exit is not None:
            on_exit()


__all__ = ["Table", "TableApp", "TableRequest", "TableScreen", "run_table_app"]
