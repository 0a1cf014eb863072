"""A seat at a table on the network: the network table, one source of the app (issues 23, #33).

``mexitrain join`` and ``mexitrain host`` start the app at a table (:func:`run_table_app`);
"Host a table…" and "Join a table…" on the new-game screen and in the command palette take a
local app there, in the same process (a browser page of ``mexitrain serve`` keeps its one app).

At a table the server is the authority. :class:`NetworkTable` runs a
:class:`~mexitrain.net.client.TableClient` in a Textual worker on the app's event loop; what
it reports comes as Textual messages (:mod:`.table_link`) that the app hands to
:meth:`NetworkTable.receive`. It owns what this terminal knows of the table (a
:class:`~.network_state.NetworkState`: the last Welcome, Lobby and Update, a seat's view, never
the full state), the lobby screen while the game has not started, the link and the server it
runs (Host a table…). The game screen's moves become ``Intent``\\ s, the lobby's Start a
``StartGame``, the host's ``c`` a ``HandOver``, a round's results read a ``Seen``; the chat's
``w`` and ``r`` a ``Say``, the host's ``Ctrl+X`` a ``Remove``, and the table's ``Chat`` lines
show on the lobby and the game screen (``v`` hides the others' here). A refusal is
said as a local one; undo, load and replay are local-only and disabled here, and Save as
only once the game is over (the table's checked record: :meth:`NetworkTable.finished_game`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.notifications import Notification
from textual.screen import Screen

from ..i18n import N_, _
from ..net.protocol import (
    Chat,
    Error,
    GameRecord,
    HandOver,
    Intent,
    Lobby,
    Onlooker,
    Refused,
    Rematch,
    Remove,
    Say,
    Seen,
    StartGame,
    Update,
    Watching,
    Welcome,
    refusal,
)
from ..rules import Action, RuleSet, SeatView
from ..session import Notice, Step
from ..text.basics import level_name
from ..text.guest import disconnected_text, more_errors_text, problem_text
from ..text.net import refused_text
from ..text.visible import visible
from .guest import details, scrub, unreadable
from .network_state import NetworkState, TableRequest, board_update, forced_notice
from .screens import GameOverScreen, QuitScreen, RoundOverScreen, ScoreScreen
from .screens.lobby import LobbyScreen
from .source import Source
from .table_link import ClientEnded, ClientFactory, LinkChanged, Relay, ServerSaid, UpdateWaiting
from .textual_compat import add_notice, notices, withdraw_notices

if TYPE_CHECKING:
    from .app import MexitrainApp

#: The words of the table's keys and the local app's way to a table, for the catalog (:mod:`.lang`).
KEY_WORDS = (
    N_("Host a table…"), N_("Join a table…"),
    N_("Hand over"), N_("Hand the seat of a player who is away to a computer player"),
)

WATCH_NOTE = N_(
    "You are watching this table: you see the trains, the station, how many tiles each player "
    "holds, the scores and the move log, never a hand nor the boneyard, and you make no move. "
    "q stops watching."
)

NETWORK_NOTE = N_(
    "At a table on the network the host's server holds the game and saves it after every move: "
    "undo, load and replay are not available here (they work in a local game), and save only "
    "once the game is over (Ctrl+S on the final standings). "
    "c Hand over, for the host while a player is away (dimmed in the bar otherwise): that "
    "player's seat goes to a computer player until they come back."
)


CHAT_NOTE = N_(
    "Chat at the table: w writes a line to everyone (Enter sends it, Esc cancels; at most 200 "
    "characters, 5 lines in 10 seconds), r sends a quick reaction (each person reads it in their "
    "own language), v mutes the others' lines on this screen (v again shows them). The last lines "
    "show under the move log, and in the lobby. Ctrl+X, for the host: remove a person from the "
    "table (a computer player takes the seat; they cannot come back to it)."
)

#: The actions of the chat's keys and the host's remove (hidden in a local game).
CHAT_ACTIONS = frozenset({"chat_say", "chat_react", "chat_mute", "remove_player"})


class NetworkTable(Source):
    """This terminal's seat at a table on the network (see the module docstring). Owns
    :attr:`state` (what this terminal knows of the table), the client and the lobby screen."""

    link = True

    def __init__(self, app: MexitrainApp, request: TableRequest, client_factory: ClientFactory) -> None:
        super().__init__(app)
        self.request = request
        #: what this terminal knows of the table: the last Welcome, Lobby and Update, the link
        self.state = NetworkState(request)
        self.lobby_screen: LobbyScreen | None = None
        self.client: Any = None
        self._client_factory = client_factory
        self._relay: Relay | None = None  # runs the client; the one update waiting for us
        self._clock: Any = None  # the one-second timer of the away clocks and the link's countdown
        self._error_notice: Notification | None = None  # the table's error pop-up shown last
        self._errors_meanwhile = 0  # the errors that came while it was up

    @property
    def help_note(self) -> str:  # type: ignore[override]
        return _(WATCH_NOTE) if self.watching else _(NETWORK_NOTE) + "\n\n" + _(CHAT_NOTE)

    @property
    def watching(self) -> bool:  # type: ignore[override]
        """This terminal watches the table: an onlooker's view, no hand, no move (issue #35)."""
        return self.request.watch

    # -- facts -------------------------------------------------------------------------------------
    def view(self) -> SeatView | None:
        update = self.state.update
        return None if update is None else update.view

    @property
    def names(self) -> tuple[str, ...]:
        return self.state.names()

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.state.kinds()

    def auto_events(self) -> frozenset[int]:
        return frozenset(self.state.auto_events)

    def you(self) -> int | None:
        return self.state.seat  # one person at this terminal, whoever else plays

    def board_you(self) -> int | None:
        return self.state.seat

    def rules_in_force(self) -> tuple[RuleSet, int] | None:
        lobby = self.state.lobby
        if self.state.update is None and lobby is not None:
            return lobby.rules, len(lobby.seats)
        return super().rules_in_force()

    def seal(self) -> str | None:
        return self.state.first_seal

    def waiting_for(self) -> tuple[str, ...]:
        return self.state.waiting_results()

    def finished_game(self) -> tuple[Any, tuple[str, ...]] | None:
        return self.state.finished_game()

    def _finished_here(self, screen: Screen) -> bool:
        """The final standings are shown and the table's checked record came: Save as can keep it."""
        return isinstance(screen, GameOverScreen) and self.finished_game() is not None

    def can_play_again(self) -> bool:
        if self.watching:
            return False  # a watcher has no seat to play again in
        return True  # a rematch: the same seats and rules, when every person accepts

    def rematch_line(self) -> str:
        update = self.state.update
        return self.state.rematch_line() if update is not None and update.rematch else ""

    def again(self) -> None:
        """Play again at the table: this person accepts a rematch (the bar says whom it waits for)."""
        if self.watching:
            return  # a watcher has no seat to play again in
        self.app.call_later(self._send, Rematch())

    def next_step(self) -> Step | None:
        state = self.state
        view = self.view()
        if view is None:
            return None
        if state.round_over_pending:
            state.round_over_pending = False
            return Step("round_over")
        if view.phase == "game_over":
            if state.game_over_shown:
                return None
            state.game_over_shown = True
            return Step("game_over")
        action = state.forced()
        if action is not None:
            return Step("forced", view.seat, action)
        return None

    # -- start and stop ------------------------------------------------------------------------------
    async def start(self) -> None:
        """The table's lobby at once, the client connecting in a worker."""
        app = self.app
        self.lobby_screen = LobbyScreen(self.request.code, join_line=self.request.join_line, level=self.state.level)
        await app.goto(self.lobby_screen)
        self.client = self._client_factory(self.request, app.root)
        self._relay = Relay(self.client, app.post_message)
        app.run_worker(self._relay.run(), group="net", exclusive=True, exit_on_error=False)
        self._clock = app.set_interval(1.0, self._tick, name="table-clock")

    async def stop(self) -> None:
        """Say goodbye to the table (its seat stays ours) and stop a server this app runs."""
        client, self.client = self.client, None
        if client is not None:  # it says Bye: the seat stays ours, to come back to
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 2)
        self.app.workers.cancel_group(self.app, "net")
        if self._clock is not None:
            self._clock.stop()
            self._clock = None
        self.stop_server()
        self.lobby_screen = None

    def stop_server(self) -> None:
        """Stop the server this app started (Host a table…), if any."""
        server, self.request.server = self.request.server, None
        if server is not None:
            with contextlib.suppress(Exception):
                server.stop()

    # -- from the server ----------------------------------------------------------------------
    async def receive(self, message: Any) -> None:
        if isinstance(message, ServerSaid):
            await self._server_said(message)
        elif isinstance(message, UpdateWaiting):  # the latest update, if a newer one came meanwhile
            update = self._relay.take() if self._relay is not None else None
            if update is not None:
                await self._server_said(ServerSaid(update))
        elif isinstance(message, LinkChanged):
            self.state.link, self.state.link_at = message.status, self.app.clock()
            self._show_lobby()
            self._tick()
        elif isinstance(message, ClientEnded):
            self.state.link_closed()
            self._show_lobby()
            self._tick()
        elif isinstance(message, LobbyScreen.Start):
            if self.state.host:
                self.state.level = message.level
                await self._send(StartGame(level=message.level, turn_time=message.turn_time, absent=message.absent))
        elif isinstance(message, LobbyScreen.LevelChosen):
            self.state.level = message.level

    async def _server_said(self, message: ServerSaid) -> None:
        """A message of the table's server. Whatever it holds, it never reaches the terminal
        as an order (:func:`.guest.scrub`), a game before the welcome is not taken, and one
        that cannot be shown ends the link with one line rather than the app (issue 37)."""
        state = self.state
        if state.fatal is not None:
            return  # the link is over: what was still on its way is dropped
        msg = message.msg
        if not isinstance(msg, GameRecord):  # a record is never shown: replayed, it is checked whole
            msg = scrub(msg)
        if isinstance(msg, Lobby | Update | Refused | Onlooker | GameRecord) and state.welcome is None:
            return  # not this player's table before it welcomed them
        problem = unreadable(msg, state.welcome)
        if problem is None:
            try:
                await self._take_message(msg)
            except Exception as exc:  # noqa: BLE001 - a shape no check foresaw: leave, never crash
                problem = f"{type(exc).__name__} ({type(msg).__name__})"
        if problem is not None:
            await self._leave_link(problem_text("bad_server_message", {"reason": problem}))

    async def _take_message(self, msg: Any) -> None:
        state = self.state
        if isinstance(msg, Welcome | Watching):
            state.welcome = msg
            self._show_lobby()
        elif isinstance(msg, Onlooker):  # a watcher's view, kept as the screens read a seat's
            await self._take_update(board_update(msg))
        elif isinstance(msg, Lobby):
            state.lobby = msg
            self._show_lobby()
            if state.update is not None and self.app.game_screen is not None:
                self.app.show_game()  # a seat handed over: its kind changed
        elif isinstance(msg, Update):
            await self._take_update(msg)
        elif isinstance(msg, Chat):
            self._take_chat(msg)
        elif isinstance(msg, GameRecord):
            state.record = msg.record  # taken when the game-over screen asks (finished_game)
        elif isinstance(msg, Refused):
            text = refused_text(refusal(msg), state.names(), state.seat)
            self.app.show_notice(Notice(visible(text), _("Not allowed"), "warning"))
        elif isinstance(msg, Error):
            text = problem_text(msg.code, msg.values, msg.server_version)
            fatal = bool(msg.fatal) or msg.code == "table_closed"  # the client stops at either
            if fatal:
                state.fatal = disconnected_text(text)
                self._tick()
                self._show_lobby()
            self._error_popup(text, fatal=fatal)

    async def _take_update(self, update: Update) -> None:
        app = self.app
        state = self.state
        said = state.take(update, app.clock())
        screen = app.screen
        if isinstance(screen, RoundOverScreen) and app.game_screen is not None:
            screen.waiting_for = state.waiting_results()  # a round's results, read by others
        if isinstance(screen, GameOverScreen):
            screen.rematch = state.rematch_line() if update.rematch else ""
        if state.new_game and app.game_screen is not None:  # a rematch began: back to the board
            state.new_game = False
            while app.screen is not app.game_screen and len(app.screen_stack) > 2:
                await app.pop_screen()
        if app.game_screen is None:
            await app.open_game()
            self.lobby_screen = None  # the game has started: the lobby's seats are on the board
        self._tick()
        self._show_chat()  # the game screen may be new: it shows the chat too
        app.source_moved(said, [])

    async def _leave_link(self, reason: str) -> None:
        """End the link to the table because of ``reason`` (one line, shown on the net bar and
        in the error pop-up); the app stays, q leaves it."""
        self.state.fatal = disconnected_text(reason)
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
        app = self.app
        old = self._error_notice
        if old is not None and old in notices(app):
            withdraw_notices(app, [old], refresh=False)
            self._errors_meanwhile += 1
        else:
            self._errors_meanwhile = 0
        shown = details(text)
        if self._errors_meanwhile:
            shown = f"{shown}\n{more_errors_text(self._errors_meanwhile)}"
        notice = Notification(shown, _("The table"), "error" if fatal else "warning", 10, markup=False)
        self._error_notice = notice
        add_notice(app, notice)

    def _show_lobby(self) -> None:
        state, screen = self.state, self.lobby_screen
        if screen is not None:
            screen.show(state.lobby, state.welcome, connected=state.connected, over=state.fatal is not None)

    def _tick(self) -> None:
        """Every second: the link's and the away seats' line, on the lobby and the game screen."""
        text = self.state.bar_text(self.app.clock())
        for screen in (self.lobby_screen, self.app.game_screen):
            if screen is not None:
                screen.link_text = text

    # -- to the server --------------------------------------------------------------------------
    async def act(self, action: Action, auto: bool = False) -> None:
        view = self.view()
        if auto and view is not None:
            self.state.auto_events.add(len(view.events))
            self.app.show_notice(forced_notice(view, action))
        elif view is None or not view.my_turn:
            return
        self.state.seq += 1
        await self._send(Intent(seq=self.state.seq, action=action))

    async def seen(self, number: int) -> None:
        if self.watching:
            return  # nothing waits for a watcher
        await self._send(Seen(round=number))

    async def _send(self, msg: Any) -> bool:
        """Send ``msg``; while the link is down, say that nothing was sent (the table's state
        comes back with the link: the move can be made again)."""
        not_sent = Notice(
            _("Not connected to the table: nothing was sent. Try again once the link is back."), _("Not sent"), "warning"
        )
        if self.client is None or not self.state.connected:
            self.app.show_notice(not_sent)
            return False
        try:
            sent = await self.client.send(msg)
        except Exception:  # the link fell meanwhile: the client reports it and retries
            sent = False
        if sent is False:
            self.app.show_notice(not_sent)
            return False
        return True

    async def hand_over(self) -> None:
        """The host hands the seat of a person who is away to a computer player (the one
        whose turn it is first), at the level chosen in the lobby."""
        state = self.state
        if state.update is None or not state.host:
            return
        away = state.waiting()
        if not away:
            self.app.notify(_("Nobody is away: every seat's player is here."), title=_("Hand over"), timeout=4)
            return
        turn = state.update.view.turn
        seat = next((a for a in away if a.seat == turn), away[0])
        if await self._send(HandOver(seat=seat.seat, level=state.level)):
            self.app.notify(
                _("{name}'s seat goes to a computer player ({level}) until they come back.").format(
                    name=seat.name, level=level_name(state.level)
                ),
                title=_("Hand over"), timeout=5, markup=False,
            )

    # -- chat and removing a person (issue #35 item 4) ----------------------------------------
    def _take_chat(self, msg: Chat) -> None:
        """The table's chat lines: kept, and shown on the lobby and the game screen."""
        if self.state.welcome is None:
            return
        self.state.take_chat(msg)
        self._show_chat()

    def _show_chat(self) -> None:
        rows = self.state.chat_rows()
        note = _("chat muted (v shows it)") if self.state.muted else ""
        for screen in (self.lobby_screen, self.app.game_screen):
            if screen is not None:
                screen.chat_rows = rows
                screen.chat_note = note

    def say(self) -> None:
        """w: a line to say, typed in a one-line dialog; sent on Enter."""
        from .screens.chat import ChatInputScreen

        def said(text: str | None) -> None:
            if text:
                self.state.seq += 1
                self.app.call_later(self._send, Say(seq=self.state.seq, text=text))

        self.app.push_screen(ChatInputScreen(), said)

    def react(self) -> None:
        """r: a quick reaction, chosen in a small menu."""
        from .screens.chat import ReactionScreen

        def chosen(code: str | None) -> None:
            if code:
                self.state.seq += 1
                self.app.call_later(self._send, Say(seq=self.state.seq, reaction=code))

        self.app.push_screen(ReactionScreen(), chosen)

    def mute(self) -> None:
        """v: hide the others' chat lines on this screen (said once), or show them again."""
        from ..text.chat import muted_text, unmuted_text

        self.state.muted = not self.state.muted
        self._show_chat()
        self.app.notify(muted_text() if self.state.muted else unmuted_text(), title=_("Chat"), timeout=4, markup=False)

    def remove_player(self) -> None:
        """Ctrl+X, the host's: choose a person, confirm, and the table removes them."""
        from ..text.chat import removed_notice_text
        from .screens.chat import ConfirmRemoveScreen, RemoveScreen

        people = self.state.people_to_remove()
        if not people:
            self.app.notify(_("There is nobody else to remove."), title=_("Remove"), timeout=4)
            return
        names = dict(people)

        def confirmed(seat: int, yes: bool | None) -> None:
            if not yes:
                return

            async def send() -> None:
                if await self._send(Remove(seat=seat, level=self.state.level)):
                    self.app.notify(removed_notice_text(names[seat], level_name(self.state.level)),
                                    title=_("Remove"), timeout=5, markup=False)

            self.app.call_later(send)

        def chosen(seat: int | None) -> None:
            if seat is not None and seat in names:
                self.app.push_screen(ConfirmRemoveScreen(names[seat]), lambda yes: confirmed(seat, yes))

        self.app.push_screen(RemoveScreen(people), chosen)

    def _check_chat(self, action: str) -> bool | None:
        state = self.state
        if state.welcome is None:
            return False
        if action == "remove_player":
            if not state.host:
                return False
            return True if state.people_to_remove() and state.connected else None
        if action in ("chat_say", "chat_react"):
            if state.seat is None:
                return False  # a host without a seat reads the chat, and says nothing
            return True if state.connected else None
        return True  # mute: any time

    # -- keys and commands at a table ----------------------------------------------------------------
    def check(self, action: str, screen: Screen) -> bool | None:
        state = self.state
        if action in CHAT_ACTIONS:
            return self._check_chat(action)
        if action == "save_as":  # the finished game, once its record came and was checked
            if not isinstance(screen, GameOverScreen):
                return False
            return True if self._finished_here(screen) else None
        if action in ("host_table", "join_table", "load_game", "open_replay", "new_game", "stats"):
            return False
        if self.watching and action in ("undo", "undo_why", "hand_over"):
            return False  # a watcher changes nothing at the table
        if action == "hand_over":
            if not state.host or state.update is None:
                return False
            return True if state.waiting() and state.connected else None
        if action == "scores":
            return state.update is not None and not isinstance(screen, ScoreScreen | LobbyScreen)
        return True

    def undo_state(self) -> tuple[bool, str]:
        return False, _("undo is not available at a table on the network")

    @property
    def undo_known(self) -> tuple[bool, str] | None:
        return self.undo_state()

    def undo(self) -> Notice | None:
        return Notice(
            _("Undo is not available at a table on the network: the host's server holds the game."), _("Cannot undo"), "warning"
        )

    def commands(self, screen: Screen) -> Iterable[SystemCommand]:
        app, state = self.app, self.state
        if state.update is not None:
            yield SystemCommand(_("Score sheet"), _("Scores of every round so far"), app.action_scores)
        if self._finished_here(screen):
            yield SystemCommand(_("Save game as…"), _("Save this game under a name (Ctrl+S)"), app.action_save_as)
        if state.host and state.waiting():
            yield SystemCommand(_("Hand over"), _("Hand the seat of a player who is away to a computer player"), app.action_hand_over)
        if self.watching:
            yield SystemCommand(_("Stop watching"), _("Stop watching the table"), app.action_request_quit)
            return
        if state.seat is not None and state.connected:
            yield SystemCommand(_("Chat"), _("Say a line to the table (w)"), app.action_chat_say)
            yield SystemCommand(_("React"), _("Send a quick reaction (r)"), app.action_chat_react)
        yield SystemCommand(_("Mute chat"), _("Hide or show the others' chat lines (v)"), app.action_chat_mute)
        if state.host and state.people_to_remove():
            yield SystemCommand(_("Remove a person"), _("Remove a person from the table (Ctrl+X)"), app.action_remove_player)
        if self.request.runs_server:
            leave = _("Leave the table (it closes for everyone)")
        else:
            leave = _("Leave the table (your seat waits for you)")
        yield SystemCommand(_("Leave the table"), leave, app.action_request_quit)

    def request_quit(self) -> None:
        app = self.app
        if isinstance(app.screen, QuitScreen):
            return
        view = self.view()
        if self.watching or self.state.fatal is not None or (view is not None and view.phase == "game_over"):
            # the link is over for good (the table closed, a wrong code...): nothing to keep
            app.call_later(app.leave, False)
            return
        if self.request.runs_server:  # Host a table… or mexitrain host: the server ends with us
            question = _("Leave the table? It closes for everyone (the game is autosaved).")
        else:
            question = _("Leave the table? Your seat waits for you: join again to come back.")
        app.push_screen(QuitScreen(question), lambda yes: app.call_later(app.leave, False) if yes else None)


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
    watch: bool = False,
) -> int:
    """Sit at the table ``code`` at ``address`` as ``name`` in the full-screen game; returns
    the exit status. ``host_token`` gives host rights (``mexitrain host``), ``join_line`` is
    what the host's lobby shows the others; ``on_exit`` runs when the app has ended.
    ``watch``: watch the table rather than sit at it (no seat, no token; ``mexitrain join
    --watch``; a served page can call :func:`watch_table_app`)."""
    from ..i18n import set_language
    from .app import MexitrainApp
    from .crash import run_app

    if lang:
        set_language(lang)
    request = TableRequest(address, code, name, host_token=host_token, join_line=join_line, watch=watch)
    try:
        return run_app(MexitrainApp(None, 0.6, data_dir=data_dir, table=request))
    finally:
        if on_exit is not None:
            on_exit()


def watch_table_app(address: str, code: str, *, data_dir: str | Path | None = None, lang: str | None = None,
                    name: str = "") -> int:
    """Watch the table ``code`` at ``address`` in the full-screen game (an onlooker's view:
    trains, station, counts, scores, the move log; never a hand); returns the exit status."""
    return run_table_app(address, code, name, data_dir=data_dir, lang=lang, watch=True)


def watch_request(address: str, code: str, name: str = "") -> TableRequest:
    """The request that makes an app watch a table (``MexitrainApp(..., table=watch_request(...))``):
    what a page of ``mexitrain serve`` gives its app to show a table to a watcher."""
    return TableRequest(address, code, name, watch=True)


__all__ = [
    "CHAT_ACTIONS", "CHAT_NOTE", "NETWORK_NOTE", "WATCH_NOTE", "NetworkTable", "TableRequest", "run_table_app", "watch_request",
    "watch_table_app",
]
