"""A table on the network at this terminal: the Textual app in "remote" mode (issue 23).

:class:`TableApp` is the game's app (:class:`~mexitrain.ui.app.MexitrainApp`) that can also sit
at a table another process holds: ``mexitrain join`` and ``mexitrain host`` start it at a table
(:func:`run_table_app`), and "Host a table…" / "Join a table…" on the new-game screen and in
the command palette take a local app there, in the same process (a browser page of
``mexitrain serve`` keeps its one app).

At a table the server is the authority. A :class:`~mexitrain.net.client.TableClient` runs in a
Textual worker on the app's event loop, and what it reports comes as Textual messages
(:mod:`.table_link`). Attributes down: the app keeps the last
:class:`~mexitrain.net.protocol.Update` (a seat's view, never the full state) in a
:class:`~.table_state.Table` (plain Python) and hands the game screen (:mod:`.screens.table`)
the board built from it, the lobby screen the last Lobby. Messages up: the game screen's
``Act`` becomes an ``Intent``, the lobby's ``Start`` a ``StartGame``, the host's ``c`` a
``HandOver``. A refusal is said as a local one; undo, save, load and replay are local-only and
disabled here.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.notifications import Notification
from textual.screen import Screen

from ..i18n import N_, _
from ..net.protocol import (
    Error,
    HandOver,
    Intent,
    Lobby,
    Refused,
    Seen,
    StartGame,
    Update,
    Welcome,
    refusal,
)
from ..rules import Action
from ..session import Notice
from ..text.basics import level_name
from ..text.guest import disconnected_text, more_errors_text, problem_text
from ..text.net import join_line, refused_text
from ..text.visible import visible
from .app import MexitrainApp
from .guest import details, scrub, unreadable
from .screens import GameScreen, HelpScreen, NewGameScreen, QuitScreen, ScoreScreen
from .screens.join import HostScreen, HostSetupScreen, JoinRequest, JoinScreen
from .screens.lobby import LobbyScreen
from .screens.table import TableHelpScreen, TableOverScreen, TableRoundOverScreen, TableScreen
from .table_link import ClientEnded, ClientFactory, LinkChanged, ServerSaid, real_client, relay
from .table_state import Table, TableRequest, forced_notice
from .textual_compat import add_notice, notices, withdraw_notices
from .widgets.net import NetBar

#: The palette's words of the local app's way to a table, for the catalog (:mod:`.lang`).
KEY_WORDS = (N_("Host a table…"), N_("Join a table…"))


class TableApp(MexitrainApp):
    """The game's app, able to sit at a table on the network (see the module docstring).

    ``table``: start at that table (``mexitrain join``/``host``); without it, the local app
    (new-game screen...) whose Host/Join commands lead to a table. ``client_factory`` makes
    the client (tests give a fake with the same interface). ``tables`` False (``mexitrain
    serve --no-tables``): no Host a table… nor Join a table… at all: neither their keys, nor
    the palette's commands, nor the new-game screen's row."""

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
        tables: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._tables = tables
        #: the away clocks' and the retry countdown's time (tests stop it, for the pictures)
        self.clock = clock
        self.table: Table | None = None
        self.lobby_screen: LobbyScreen | None = None
        self.client: Any = None
        self._request = table
        self._client_factory = client_factory or real_client
        self._servers: list[Any] = []  # servers this app started (Host a table…), stopped at the end
        self._clock: Any = None  # the one-second timer of the away clocks and the link's countdown
        self._error_notice: Notification | None = None  # the table's error pop-up shown last
        self._errors_meanwhile = 0  # the errors that came while it was up

    @property
    def tables(self) -> bool:
        """Whether Host a table… and Join a table… exist in this app (set when it is made:
        ``serve --no-tables`` leaves them out of its visitors' games, where a visitor could
        open a port on the server's machine or make it connect anywhere)."""
        return self._tables

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
        self.run_worker(relay(self.client, self.post_message), group="net", exclusive=True, exit_on_error=False)
        if self._clock is None:
            self._clock = self.set_interval(1.0, self._tick, name="table-clock")


    # -- from the server ----------------------------------------------------------------------
    async def on_server_said(self, message: ServerSaid) -> None:
        """A message of the table's server. Whatever it holds, it never reaches the terminal
        as an order (:func:`.guest.scrub`), a game before the welcome is not taken, and one
        that cannot be shown ends the link with one line rather than the app (issue 37)."""
        table = self.table
        if table is None or table.fatal is not None:
            return  # the link is over: what was still on its way is dropped
        msg = scrub(message.msg)
        if isinstance(msg, Lobby | Update | Refused) and table.welcome is None:
            return  # not this player's table before it welcomed them
        problem = unreadable(msg, table.welcome)
        if problem is None:
            try:
                await self._take_message(table, msg)
            except Exception as exc:  # noqa: BLE001 - a shape no check foresaw: leave, never crash
                problem = f"{type(exc).__name__} ({type(msg).__name__})"
        if problem is not None:
            await self._leave_link(problem_text("bad_server_message", {"reason": problem}))

    async def _take_message(self, table: Table, msg: Any) -> None:
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
            self.show_notice(Notice(visible(text), _("Not allowed"), "warning"))
        elif isinstance(msg, Error):
            text = problem_text(msg.code, msg.values, msg.server_version)
            fatal = bool(msg.fatal) or msg.code == "table_closed"  # the client stops at either
            if fatal:
                table.fatal = disconnected_text(text)
                self._tick()
                self._show_lobby()
            self._error_popup(text, fatal=fatal)

    async def _leave_link(self, reason: str) -> None:
        """End the link to the table because of ``reason`` (one line, shown on the net bar and
        in the error pop-up); the app stays, q leaves it."""
        table = self.table
        if table is None:
            return
        table.fatal = disconnected_text(reason)
        client = self.client
        if client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2)
        self._error_popup(reason, fatal=True)
        self._show_lobby()
        self._tick()

    def _error_popup(self, text: str, *, fatal: bool = False) -> None:
        """The table's error as a pop-up, cut to a few lines: one at a time, a new one in the
        place of the one shown, with the count of those that came while it was up."""
        old = self._error_notice
        if old is not None and old in notices(self):
            withdraw_notices(self, [old], refresh=False)
            self._errors_meanwhile += 1
        else:
            self._errors_meanwhile = 0
        shown = details(text)
        if self._errors_meanwhile:
            shown = f"{shown}\n{more_errors_text(self._errors_meanwhile)}"
        notice = Notification(shown, _("The table"), "error" if fatal else "warning", 10, markup=False)
        self._error_notice = notice
        add_notice(self, notice)

    def on_link_changed(self, message: LinkChanged) -> None:
        table = self.table
        if table is None:
            return
        table.link, table.link_at = message.status, self.clock()
        self._show_lobby()
        self._tick()

    def on_client_ended(self, message: ClientEnded) -> None:
        if self.table is not None:
            self.table.link_closed()
        self._show_lobby()
        self._tick()

    def _show_lobby(self) -> None:
        table, screen = self.table, self.lobby_screen
        if table is not None and screen is not None:
            screen.show(table.lobby, table.welcome, connected=table.connected, over=table.fatal is not None)

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
        if isinstance(self.screen, TableRoundOverScreen):
            self.screen.waiting_for = table.waiting_results()
        if self.game_screen is None:
            self.game_screen = TableScreen(hint_time=self.hint_time, pips=self.pips)
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
            self.push_screen(
                TableRoundOverScreen(
                    view, table.names(), view.phase == "game_over", view.seat, waiting_for=table.waiting_results()
                )
            )
        elif view.phase == "game_over" and not table.game_over_shown:
            table.game_over_shown = True
            self.push_screen(
                TableOverScreen(view, table.names(), view.seat, seal=table.first_seal), self._after_table
            )

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

    async def on_table_round_over_screen_seen(self, message: TableRoundOverScreen.Seen) -> None:
        """Enter on a round's results: the table is told; the screen waits for the others."""
        if self.table is not None:  # (whom it waits for: kept current by each update)
            await self._send(Seen(round=message.number))

    def on_lobby_screen_level_chosen(self, message: LobbyScreen.LevelChosen) -> None:
        if self.table is not None:
            self.table.level = message.level

    async def action_hand_over(self) -> None:
        """The host hands the seat of a person who is away to a computer player (the one
        whose turn it is first), at the level chosen in the lobby."""
        table = self.table
        if table is None or table.update is None or not table.host:
            return
        away = table.waiting()
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
            # a local game in progress stays in its autosave; not again from a form already
            # on the way to a table; never without tables (serve --no-tables)
            return table is None and self._tables and not _on_the_way(self.screen)
        if table is None:
            if action in _LOCAL_ONLY and _on_the_way(self.screen):
                return False  # the host's setup: Load… ^O, Stats ^T... lead away from the table
            return super().check_action(action, parameters)
        if action in ("undo", "save_as", "load_game", "open_replay", "new_game"):
            return None if action == "undo" else False  # undo dimmed with its reason, the others gone
        if action == "undo_why":
            return isinstance(self.screen, GameScreen)
        if action == "hand_over":
            if not table.host or table.update is None:
                return False
            return True if table.waiting() and table.connected else None
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
        if table.fatal is not None or (view is not None and view.phase == "game_over"):
            # the link is over for good (the table closed, a wrong code...): nothing to keep
            self.call_later(self.leave_table, False)
            return
        if table.request.runs_server:  # Host a table… or mexitrain host: the server ends with us
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
            on_the_way = _on_the_way(screen)
            local_only = {getattr(self, f"action_{name}") for name in _LOCAL_ONLY}
            for command in super().get_system_commands(screen):
                if not (on_the_way and command.callback in local_only):
                    yield command
            if self._tables and not on_the_way:
                yield SystemCommand(_("Host a table…"), _("Open a table on this computer for players on the network (Ctrl+N)"), self.action_host_table)
                yield SystemCommand(_("Join a table…"), _("Sit at a table on the network: its address and code (Ctrl+G)"), self.action_join_table)
            return
        if table.update is not None:
            yield SystemCommand(_("Score sheet"), _("Scores of every round so far"), self.action_scores)
        if table.host and table.waiting():
            yield SystemCommand(_("Hand over"), _("Hand the seat of a player who is away to a computer player"), self.action_hand_over)
        yield SystemCommand(_("Rules and keys"), _("Help: the keys and the rules in force"), self.action_help)
        yield self.tiles_command()
        leave = _("Leave the table (it closes for everyone)") if table.request.runs_server else _("Leave the table (your seat waits for you)")
        yield SystemCommand(_("Leave the table"), leave, self.action_request_quit)
        yield from _textual_commands(self, screen)

    # -- Host a table… / Join a table… (from the local app) ----------------------------------------
    def action_join_table(self) -> None:
        if not self.check_action("join_table", ()):  # also when called from elsewhere than a key
            return

        def chosen(request: JoinRequest | None) -> None:
            if request is not None:
                self.call_later(self.sit_at, TableRequest(request.address, request.code, request.name))

        self.push_screen(JoinScreen(), chosen)

    def action_host_table(self) -> None:
        if not self.check_action("host_table", ()):  # also when called from elsewhere than a key
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


#: The local app's commands that lead away from a table being set up (to a local game, a
#: file, the statistics): not on the forms on the way to a table (:func:`_on_the_way`).
_LOCAL_ONLY = ("load_game", "open_replay", "stats", "new_game", "save_as")


def _on_the_way(screen: Screen) -> bool:
    """``screen`` is one of the forms that lead to a table: Host a table… (its port, then
    its setup) or Join a table…."""
    return isinstance(screen, HostScreen | HostSetupScreen | JoinScreen)


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


__all__ = ["TableApp", "TableRequest", "run_table_app"]
