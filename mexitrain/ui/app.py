"""The Textual app: one app for every source of a game (issue #33).

The app shows a game that a *source* holds (:mod:`.source`): a local table (:mod:`.local`:
the session and its computer players, one person or several at the keyboard) or a seat at a
table on the network (:mod:`.network`: a host's or a guest's). It holds exactly one source at a
time (:attr:`MexitrainApp.source`) and owns no game state itself. Snapshots down, intents up:
when the game moves on, the source calls :meth:`MexitrainApp.source_moved`; the app reads the
source's facts (a seat's view, names, kinds, what comes next) and hands them to the screens;
screens post messages (:class:`GameScreen.Act`, :class:`RoundOverScreen.Seen`…) and never call
the app or the source, and the app passes them on to the source.

Over 500 lines: every screen's message handler and every app-wide command (save, load, replay,
statistics, theme, Textual's own texts) meets here, as Textual wants them on the App class.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import replace as dc_replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.notifications import Notification, SeverityLevel
from textual.screen import Screen

from ..game_setup import GameSetup
from ..i18n import _
from ..rules import GameState
from ..session import Notice, capitalised
from ..storage import (
    SavedGame,
    SaveError,
    data_dir,
    load_save,
    save_named,
    settings,
)
from ..storage.autosaver import Autosaver
from ..storage.autosaves import SERVED_AUTOSAVES
from ..storage.inplay import in_play
from ..storage.saves import SERVED_SAVES, SERVED_SAVES_BYTES
from ..storage.stats import load_stats
from ..text.basics import continued, quote
from ..text.errors import error_text
from ..text.files import in_play_line
from ..text.net import watching_seated_text
from ..text.stats import format_stats
from ..text.visible import UNSAFE, dropped
from . import typography
from .cells import printable
from .command_palette import Palette, ThemeProvider, key_label
from .fence import Fence
from .lang import translate_bindings
from .local import AiChose, LocalTable
from .network import NetworkTable
from .network_state import TableRequest
from .resources import stylesheet_path
from .resume import offer_resume
from .screens import (
    GameOverScreen,
    GameScreen,
    HandoffScreen,
    HelpScreen,
    NewGameScreen,
    RevealScreen,
    RoundOverScreen,
    ScoreScreen,
)
from .source import Source
from .table_link import (
    ClientEnded,
    ClientFactory,
    LinkChanged,
    ServerSaid,
    UpdateWaiting,
    real_client,
)
from .textual_compat import add_notice, guard_output, own_bindings, withdraw_notices
from .widgets import StatusLine

if TYPE_CHECKING:
    from ..net.served import ServedTables


class SaveProblem(Message):
    """The autosave thread's one-line problem or notice (posted thread-safely)."""

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__()


class SavingState(Message):
    """The autosave started failing (``reason``, short) or works again (None); posted from its thread."""

    def __init__(self, reason: str | None) -> None:
        self.reason = reason
        super().__init__()


class MexitrainApp(App[None]):
    """Mexican Train at the terminal: one app for a local game, a hot-seat game, a host's seat
    and a guest's seat (see the module docstring)."""

    CSS_PATH = str(stylesheet_path())
    TITLE = "Mexican Train"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", key_display="?", tooltip="Keys and rules", id="help"),
        Binding("s", "scores", "Scores", tooltip="The score sheet", id="scores"),
        Binding("ctrl+q", "request_quit", "Quit", show=False, priority=True, id="app-quit"),
        # reached only when the game screen's undo (u) is disabled: say why
        Binding("u", "undo_why", "Why no undo", show=False, id="undo-why"),
        Binding("ctrl+n", "host_table", "Host", show=False, id="app-host"),
        Binding("ctrl+g", "join_table", "Join", show=False, id="app-join"),
    ]

    def __init__(
        self,
        setup: GameSetup | None = None,
        speed: float = 0.6,
        *,
        seed: int | None = None,
        state: GameState | None = None,
        data_dir: str | Path | None = None,
        load: SavedGame | None = None,
        replay: SavedGame | None = None,
        served: bool = False,
        table: TableRequest | None = None,
        client_factory: ClientFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
        tables: bool = True,
        served_tables: ServedTables | None = None,
    ) -> None:
        """``setup`` None shows the new-game screen; ``seed`` fixes that screen's seed (tests);
        ``state`` starts ``setup``'s game from a prepared snapshot instead of a fresh deal.
        ``data_dir`` holds the autosave, saves and statistics (default: ``storage.data_dir``);
        ``load`` starts a loaded game; ``replay`` opens the replay viewer on a loaded game;
        ``served`` (``mexitrain serve``'s games) fences the file dialogs in the data folder for
        the app's whole life (:mod:`.fence`). ``table``: start at that table on the network
        (``mexitrain join``/``host``); ``client_factory`` makes its client (tests give a fake
        with the same interface); ``clock`` is the away clocks' and the link countdown's time
        (tests stop it); ``tables`` False (``serve --no-tables``): no Host a table… nor Join a
        table… at all (neither their keys, nor the palette's commands, nor the form's row).
        ``served_tables`` (``mexitrain serve``'s games, :mod:`mexitrain.net.served`): New
        table… opens a table on the serve process instead of Host a table… / Join a
        table…, and a ``/t/CODE`` page's game goes to that table's seat form first."""
        super().__init__()
        typography.install()  # no wrapped line starts with the ':' of a French ' :'
        guard_output(UNSAFE, dropped)  # no text, whatever its source, reaches the terminal as an order
        translate_bindings(self)
        self.title = _("Mexican Train")
        self.root = _data_dir(data_dir)
        self._fence = Fence(self.root) if served else None
        #: a game in progress was quit with its autosave working: ``mexitrain`` resumes it
        self.quit_autosaved = False
        self.saver = Autosaver(
            self.root,
            lambda text, _error: self.post_message(SaveProblem(text)),
            status=lambda reason: self.post_message(SavingState(reason)),
            bound=None if self._fence is None else SERVED_AUTOSAVES,
        )
        if load is not None and load.state.over:  # a finished game: nothing to continue, replay it
            load, replay = None, load
        self.replay_game = replay
        if load is not None:
            setup, state = load.setup, load.state
        self._setup = setup
        self._tables = tables
        self._served_tables = served_tables if tables and served else None
        self._request = table
        self._client_factory = client_factory or real_client
        #: the away clocks' and the retry countdown's time (tests stop it, for the pictures)
        self.clock = clock
        #: where the game comes from: the one owner of the game's state (:mod:`.source`)
        self.source: Source = LocalTable(self, setup)
        self.speed = speed
        self.form_seed = seed
        self.start_state = state
        self.game_screen: GameScreen | None = None
        self._play_notice: Notification | None = None
        #: Seconds the coach (t) may think; None = its default. Tests set 0.
        self.hint_time: float | None = None
        self._undo_shown: tuple[bool, str] | None = None

    @property
    def tables(self) -> bool:
        """Whether Host a table… and Join a table… exist in this app (set when it is made:
        ``serve --no-tables`` leaves them out of its visitors' games, where a visitor could
        open a port on the server's machine or make it connect anywhere)."""
        return self._tables

    @property
    def served_tables(self) -> ServedTables | None:
        """``mexitrain serve``'s tables (None: a terminal's app, or ``--no-tables``): New
        table… replaces Host a table… and Join a table…, which would open a port on the
        server's machine or make it connect anywhere."""
        return self._served_tables

    @property
    def local(self) -> LocalTable | None:
        """The local table when the game is held here (None at a table on the network)."""
        return self.source if isinstance(self.source, LocalTable) else None

    @property
    def session(self):
        """The local table's session (None at a table on the network), for reading."""
        local = self.local
        return None if local is None else local.session

    @property
    def snapshot(self) -> GameState | None:
        """The full snapshot of a game held here (None at a table on the network, whose
        server holds it); owned by the local table's session."""
        local = self.local
        return None if local is None else local.state

    @property
    def fence(self) -> Fence | None:
        """The served mode's fence on the data folder (None at a terminal); set when the app
        is made, never changed (no key, screen or preference switches it off)."""
        return self._fence

    def notify(self, message: str, *args, **kwargs) -> None:  # type: ignore[override]
        """A served game tells paths from its data folder, never the server's folders."""
        if self._fence is not None:
            message = self._fence.shown(str(message))
        super().notify(message, *args, **kwargs)

    def push_screen(self, screen, *args, **kwargs):  # type: ignore[override]
        """Every screen's keys are described in the player's language (:mod:`.lang`)."""
        if isinstance(screen, Screen):
            translate_bindings(screen)
        return super().push_screen(screen, *args, **kwargs)

    def action_command_palette(self) -> None:
        """Textual's command palette, its search box in the player's language."""
        if self.use_command_palette and not Palette.is_open(self):
            self.push_screen(Palette(id="--command-palette", placeholder=_("Search for commands…")))

    def get_key_display(self, binding: Binding) -> str:
        """Key names as the player's keyboard says them (« Échap » for esc)."""
        return key_label(binding.key_display or super().get_key_display(binding))

    def search_themes(self) -> None:
        """The theme list (palette's Theme command), in the player's language."""
        self.push_screen(Palette(providers=[ThemeProvider], placeholder=_("Search for themes…")))

    def action_show_help_panel(self) -> None:
        """Our help screen in the player's language instead of Textual's Keys panel (whose
        descriptions come from Textual's widgets, in English)."""
        self.action_help()

    def action_help_quit(self) -> None:
        """Ctrl+C does not quit: say which key does (Textual says it in English)."""
        self.notify(
            _("Press [b]{key}[/b] to quit").format(key="Ctrl+Q"), title=_("Do you want to quit?")
        )

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        """The palette's Screenshot: said in the player's language (instead of Textual's)."""
        if event.name == "screenshot":
            event.prevent_default()
            if event.path is None or self._fence is not None:  # a served game's goes to the browser
                self.notify(_("Screenshot saved"), title=_("Screenshot"))
            else:
                self.notify(
                    printable(_("Screenshot saved to {path}").format(path=str(event.path))),
                    title=_("Screenshot"),
                    markup=False,
                )

    @on(events.DeliveryFailed)
    def _screenshot_failed(self, event: events.DeliveryFailed) -> None:
        if event.name == "screenshot":
            event.prevent_default()
            self.notify(_("The screenshot could not be saved"), title=_("Screenshot"), severity="error")

    def on_new_game_screen_language_chosen(self, message: NewGameScreen.LanguageChosen) -> None:
        """Another language on the form: kept as the preference; the app's own keys in it."""
        try:
            settings.save(self.root, language=message.language)
        except (OSError, ValueError) as exc:
            self.notify(error_text(exc), title=_("The language could not be saved"), severity="warning")
        translate_bindings(self)
        self.title = _("Mexican Train")
        self.refresh_bindings()

    # -- start ----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self._restore_theme()
        if self._request is not None:
            self.call_later(self.sit_at, self._request)
        elif self.replay_game is not None:
            from .screens.replay import ReplayScreen

            game = self.replay_game
            if game.state.over:
                self.push_screen(ReplayScreen(game), lambda _: self.exit())
            else:  # an unfinished game: its hidden tiles would show; ask first (no: exit)

                def answer(yes: bool | None) -> None:
                    if yes:
                        self.push_screen(ReplayScreen(game), lambda _: self.exit())
                    else:
                        self.exit()

                self.push_screen(RevealScreen(), answer)
        elif self._setup is None:
            self.push_screen(NewGameScreen(seed=self.form_seed))
            served = self._served_tables
            if served is not None and served.table is not None:  # a /t/CODE page: its table first
                self._ask_seat(served.table)
            else:
                self._offer_resume()
        else:
            self.call_later(self.start_game, self._setup, self.start_state)

    # -- the theme, kept in the preferences ----------------------------------------------------
    _theme_restored = False

    def _restore_theme(self) -> None:
        """The theme chosen last time (the palette's Theme command), if this Textual has it."""
        saved = settings.load(self.root).get("theme")
        if saved in self.available_themes and saved != self.theme:
            self.theme = saved
        self._theme_restored = True

    def watch_theme(self, theme: str) -> None:
        if not self._theme_restored or settings.load(self.root).get("theme") == theme:
            return  # the start-up theme, or the one already saved
        try:
            settings.save(self.root, theme=theme)
        except (OSError, ValueError) as exc:
            self.notify(printable(error_text(exc)), title=_("The theme could not be saved"), severity="warning", markup=False)

    def _offer_resume(self) -> None:
        """Unfinished autosaves: offer them; bad ones: say so and go on (:func:`.resume.offer_resume`)."""
        offer_resume(self)

    async def goto(self, screen: Screen) -> None:
        """``screen`` alone above the app's default screen."""
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(screen)

    async def use(self, source: Source) -> None:
        """Take ``source`` as the game's source (the last one is stopped) and start it."""
        old, self.source = self.source, source
        await old.stop()
        self.game_screen = None
        self._undo_shown = None
        await source.start()

    async def start_game(self, setup: GameSetup, state: GameState | None = None) -> None:
        """Seat a local table and deal round 1 (or take up ``state``)."""
        local = self.local
        if local is None:
            local = LocalTable(self)
            await self.use(local)
        withdraw_notices(self, local.session.withdraw())  # the last game's
        await local.begin(setup, state)

    async def sit_at(self, request: TableRequest) -> None:
        """Go to ``request``'s table on the network: its lobby at once, the client connecting
        in a worker (a local game in progress stays in its autosave)."""
        await self.use(NetworkTable(self, request, self._client_factory))

    async def leave(self, stay: bool) -> None:
        """Leave the source's game: then end the app, or (``stay``) go to the new-game screen."""
        await self.use(LocalTable(self))
        if stay:
            await self.goto(NewGameScreen(seed=self.form_seed))
        else:
            self.exit()

    async def open_game(self) -> None:
        """The game screen of the source's game, fresh."""
        self._undo_shown = None
        self.game_screen = GameScreen(
            hint_time=self.hint_time, saving=self.saver.failing_reason, pips=self.pips, link=self.source.link,
            watching=self.source.watching,
        )
        await self.goto(self.game_screen)
        self.call_after_refresh(self._refresh_undo)

    async def on_new_game_screen_start(self, message: NewGameScreen.Start) -> None:
        await self.start_game(message.setup)

    # -- the snapshot flows down ---------------------------------------------------------------------
    def source_moved(self, said: list[Notice], withdrawn: list[object]) -> None:
        """The source's game moved on: the notices it withdrew and those it says, the game
        screen redrawn from its facts, then whatever comes next."""
        if self.game_screen is None:
            return
        withdraw_notices(self, withdrawn)  # the last person's notices end with their turn
        for notice in said:
            self.show_notice(notice)
        self.show_game()
        self.call_after_refresh(self._refresh_undo)  # a few ms: after the new position is drawn
        self._advance()

    def play_notice(
        self,
        text: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float = 5,
        seat: int | None = None,
    ) -> None:
        """A notice about the play (a knock, a turn that ended by itself, a refused move, an
        undo). It takes the place of the one before if that is still shown: late in a round
        several came at once and piled up over the board, while the status line and the log
        keep them all anyway. Other notices (saving, loading, errors) are left alone.

        ``seat``: the notice speaks to that seat about its own hand ("You drew 4-7…"): it is
        withdrawn as soon as another seat is on screen (:meth:`Session.withdraw
        <mexitrain.session.Session.withdraw>`), so that with several people at the terminal
        the next one never sees it.

        The notice is added at once (not posted), so that a withdrawal that follows in the
        same turn of the event loop finds it (:func:`.textual_compat.add_notice`)."""
        session = self.session
        old = self._play_notice
        if old is not None:
            withdraw_notices(self, [old], refresh=False)
            if session is not None:
                session.forget_private(old.identity)
        notice = Notification(text, title, severity, timeout, markup=False)
        self._play_notice = notice
        if seat is not None and session is not None:
            session.note_private(notice.identity, notice, seat)
        add_notice(self, notice)

    def show_notice(self, notice: Notice) -> None:
        """A :class:`~mexitrain.session.Notice` of the session, as a play notice."""
        self.play_notice(notice.text, title=notice.title, severity=notice.severity, timeout=notice.timeout, seat=notice.seat)

    def on_game_screen_notice(self, message: GameScreen.Notice) -> None:
        self.play_notice(message.text, title=message.title, severity=message.severity, timeout=message.timeout)

    def show_game(self) -> None:
        """The game screen shows the source's view of the seat on screen."""
        source, screen = self.source, self.game_screen
        view = source.view()
        if view is None or screen is None:
            return
        screen.show(view, source.names, source.kinds, source.auto_events(), you=source.board_you())

    def on_game_screen_ready(self, message: GameScreen.Ready) -> None:
        self._advance()

    def _advance(self) -> None:
        """Whatever comes next: a screen to show, or a forced move (the source runs its
        computer players' turns itself)."""
        if self.game_screen is None or not self.screen_stack:
            return  # (no screen at all: the app is closing)
        if self.screen is not self.game_screen:
            return
        source = self.source
        step = source.next_step()
        view = source.view()
        if step is None or view is None:
            return
        if step.kind == "round_over":
            self.clear_notifications()  # the round's passing notices would cover its results
            last = view.phase == "game_over"
            self.push_screen(RoundOverScreen(view, source.names, last, source.you(), waiting_for=source.waiting_for()))
        elif step.kind == "game_over":
            self.push_screen(
                GameOverScreen(
                    view, source.names, source.you(), seal=source.seal(),
                    again=source.can_play_again(), finished=source.finished_game(), rematch=source.rematch_line(),
                ),
                self._after_game,
            )
        elif step.kind == "handoff":
            self.push_screen(HandoffScreen(source.names[step.seat], step.seat, step.text))
        elif step.kind == "forced" and step.action is not None:
            self.call_later(source.act, step.action, True)

    # -- intents flow up ------------------------------------------------------------------------------
    async def on_game_screen_act(self, message: GameScreen.Act) -> None:
        await self.source.act(message.action)

    async def on_round_over_screen_seen(self, message: RoundOverScreen.Seen) -> None:
        """Enter on a round's results: the source is told (a table waits for everyone)."""
        await self.source.seen(message.number)

    # the source's own messages: its workers' (computer players, the table's client) and the lobby's
    async def on_ai_chose(self, message: AiChose) -> None:
        await self.source.receive(message)

    async def on_server_said(self, message: ServerSaid) -> None:
        await self.source.receive(message)

    async def on_update_waiting(self, message: UpdateWaiting) -> None:
        await self.source.receive(message)

    async def on_link_changed(self, message: LinkChanged) -> None:
        await self.source.receive(message)

    async def on_client_ended(self, message: ClientEnded) -> None:
        await self.source.receive(message)

    async def on_lobby_screen_start(self, message) -> None:
        await self.source.receive(message)

    async def on_lobby_screen_level_chosen(self, message) -> None:
        await self.source.receive(message)

    @property
    def ai_pending(self) -> bool:
        """A computer player is to move and nothing else (a screen) is in the way."""
        local = self.local
        return local is not None and local.ai_pending

    # -- app-wide keys and commands -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "undo_why"):
            if self.source.check(action, self.screen) is False:
                return False  # the source has no undo at all (someone who watches): not in the bar
            # the footer asks often: the last answer shown (_refresh_undo computes the new one)
            ok = (self.source.undo_known or self._undo_shown or (False, ""))[0]
            if action == "undo":
                return True if ok else None
            return isinstance(self.screen, GameScreen) and not ok
        if action == "help":
            return not isinstance(self.screen, HelpScreen)
        return self.source.check(action, self.screen)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        rules = self.source.rules_in_force()
        note = self.source.help_note
        # a status line cut at the screen's width, whole (its tooltip only reaches a mouse)
        whole = next((w.whole for w in self.screen.query(StatusLine) if w.whole), None)
        if whole:
            now = _("Now: {line}").format(line=continued(whole))
            note = f"{now}\n\n{note}" if note else now
        if rules is not None:
            self.push_screen(HelpScreen(*rules, note=note))
        else:
            self.push_screen(HelpScreen(note=note))

    def action_scores(self) -> None:
        view = self.source.view()
        if view is None or isinstance(self.screen, ScoreScreen):
            return
        self.push_screen(ScoreScreen(view, self.source.names))

    def action_request_quit(self) -> None:
        self.source.request_quit()

    def action_new_game(self) -> None:
        if isinstance(self.screen, NewGameScreen) or self.local is None:
            return
        local = self.local
        self.push_screen(NewGameScreen(local.session.setup, can_go_back=local.running))

    def _after_game(self, choice: str | None) -> None:
        if choice == "again":
            self.source.again()
        elif choice == "new" and self.local is not None:
            self.game_screen = None
            self.call_later(self.goto, NewGameScreen(self.local.session.setup))
        else:
            self.call_later(self.leave, choice == "new")

    async def action_hand_over(self) -> None:
        """The host hands the seat of a person who is away to a computer player."""
        if isinstance(self.source, NetworkTable):
            await self.source.hand_over()

    # -- chat at a network table (issue #35 item 4): the keys exist only there -------------------
    def action_chat_say(self) -> None:
        if isinstance(self.source, NetworkTable) and self.source.check("chat_say", self.screen):
            self.source.say()

    def action_chat_react(self) -> None:
        if isinstance(self.source, NetworkTable) and self.source.check("chat_react", self.screen):
            self.source.react()

    def action_chat_mute(self) -> None:
        if isinstance(self.source, NetworkTable):
            self.source.mute()

    def action_remove_player(self) -> None:
        if isinstance(self.source, NetworkTable) and self.source.check("remove_player", self.screen):
            self.source.remove_player()

    @property
    def pips(self) -> bool:
        """The player's preference: tiles shown as pips where they have a face (docs/playing.md)."""
        return settings.load(self.root).get("tiles") == "pips"

    def tiles_command(self) -> SystemCommand:
        """The palette's switch between tiles as numbers and as pips."""
        if self.pips:
            return SystemCommand(_("Tiles as numbers"), _("Show every tile's halves as numbers"), self.action_toggle_pips)
        return SystemCommand(
            _("Tiles as pips"), _("Show halves 0 to 6 as pips (○ ⚀ ⚁ ⚂ ⚃ ⚄ ⚅), higher ones as numbers"), self.action_toggle_pips
        )

    def action_toggle_pips(self) -> None:
        """Tiles as pips or as numbers: kept in the preferences, the board redrawn."""
        pips = not self.pips
        try:
            settings.save(self.root, tiles="pips" if pips else "numbers")
        except (OSError, ValueError) as exc:
            self.notify(printable(error_text(exc)), title=_("The preference could not be saved"), severity="warning", markup=False)
        if self.game_screen is not None:
            self.game_screen.pips = pips

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from self.source.commands(screen)
        yield self.tiles_command()
        yield SystemCommand(_("Rules and keys"), _("Help: the keys and the rules in force"), self.action_help)
        for command in super().get_system_commands(screen):
            if command.title == "Keys":  # Textual's Keys panel: our "Rules and keys" above
                continue
            yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)

    async def on_unmount(self) -> None:
        await self.source.stop()
        self.saver.close()  # the last action reaches the disk before the app ends

    # -- Host a table… / Join a table… (from a local game or the new-game screen) ----------------
    def action_join_table(self) -> None:
        if not self.check_action("join_table", ()):  # also when called from elsewhere than a key
            return
        from .screens.join import JoinRequest, JoinScreen

        def chosen(request: JoinRequest | None) -> None:
            if request is not None:
                self.call_later(self.sit_at, TableRequest(request.address, request.code, request.name, watch=request.watch))

        self.push_screen(JoinScreen(), chosen)

    def action_host_table(self) -> None:
        if not self.check_action("host_table", ()):  # also when called from elsewhere than a key
            return
        if self._served_tables is not None:  # a served game: New table… on the server's tables
            self._new_served_table()
            return
        from .screens.join import HostScreen, HostSetupScreen

        setup = self.session.setup if self.session is not None else None

        def port_chosen(port: int | None) -> None:
            if port is not None:
                self.push_screen(HostSetupScreen(setup, seed=self.form_seed), lambda chosen: self._open_table(chosen, port))

        self.push_screen(HostScreen(), port_chosen)

    def _open_table(self, setup: GameSetup | None, port: int) -> None:
        """Start a server for ``setup`` in a thread on ``port`` and sit at it as its host."""
        if setup is None:
            return
        from ..net.server import TableServer, run_in_thread
        from ..text.net import join_line
        from .address import address_text, lan_address

        humans = setup.humans
        host_seat = humans[0] if humans else None
        try:
            server = TableServer(setup, data_dir=self.root, open_seats=tuple(humans[1:]), host_seat=host_seat, pace=self.speed)
            thread = run_in_thread(server, "0.0.0.0", port)
        except Exception as exc:  # the port is taken, or the system refuses: one line
            self.notify(error_text(exc), title=_("Cannot open the table"), severity="error", timeout=10, markup=False)
            return
        name = setup.seats[host_seat].name if host_seat is not None else _("Host")
        request = TableRequest(
            f"127.0.0.1:{thread.port}", server.code, name, host_token=server.host_token,
            join_line=join_line(address_text(lan_address(), thread.port), server.code), server=thread,
        )
        self.call_later(self.sit_at, request)

    # -- mexitrain serve's tables: New table…, a /t/CODE page (mexitrain.net.served) ----------
    def _new_served_table(self) -> None:
        from ..game_setup import default_seats, random_seed
        from ..rules import RuleSet
        from .screens.join import HostSetupScreen

        last = self.session.setup if self.session is not None else None
        rules = last.rules if last is not None else RuleSet()
        players = last.players if last is not None else 4
        # every seat a person's to begin with: the first is the creator's, the others wait for
        # friends; those still open at Start become computer players (the lobby's level)
        setup = GameSetup(rules=rules, seed=random_seed(), seats=default_seats(players, players))

        def chosen(setup: GameSetup | None) -> None:
            if setup is not None:
                self.run_worker(self._open_served_table(setup), group="served", exclusive=True)

        self.push_screen(HostSetupScreen(setup, seed=self.form_seed, served=True), chosen)

    async def _open_served_table(self, setup: GameSetup) -> None:
        """Open ``setup``'s table on the serve process and sit at it as its host (its lobby
        shows the link to give friends); a refusal (a bound reached) is one line."""
        from ..net.served import ServedRefusal, new_table
        from ..text.net import served_join_line

        served = self._served_tables
        assert served is not None
        humans = setup.humans
        try:
            code, token = await new_table(served, setup)
        except ServedRefusal as refusal:
            self.notify(refusal.text, title=_("Cannot open the table"), severity="error", timeout=15, markup=False)
            return
        name = setup.seats[humans[0]].name if humans else _("Host")
        # kept as a guest's token is: the creator's page may close, and the same link, in
        # the same browser and name, takes the seat (and the host's rights) back
        from ..storage import tokens
        from ..storage.savefile import SaveError

        with contextlib.suppress(SaveError, OSError):
            tokens.save_token(self.root, served.address, code, name, token)
        request = TableRequest(
            served.address, code, name, host_token=token, served=True,
            join_line=served_join_line(served.table_link(code), served.link, code),
        )
        self.call_later(self.sit_at, request)

    def _ask_seat(self, code: str) -> None:
        """A ``/t/CODE`` page: this browser's claim on the table first (a second tab of a
        browser that sits there watches it), then the name, or Watch."""
        self.run_worker(self._claim_then_ask(code), group="served", exclusive=True)

    async def _claim_then_ask(self, code: str) -> None:
        from ..net.served import SEATED, ServedRefusal, claim
        from .screens.join import WATCH, SeatScreen

        served = self._served_tables
        assert served is not None
        try:
            await claim(served, code)
        except ServedRefusal as refusal:
            if refusal.status == SEATED:  # one browser, one seat: this tab watches
                self.notify(watching_seated_text(), title=_("Watching"), timeout=15, markup=False)
                self._watch_served(code)
            else:
                self.notify(refusal.text, title=_("Cannot sit at the table"), severity="error", timeout=30, markup=False)
            return

        def named(name: str | None) -> None:
            if name == WATCH:
                self._watch_served(code)
            elif name is not None:
                self.run_worker(self._sit_at_served(code, name), group="served", exclusive=True)

        # no default name: the system's user name would be the server's, not the visitor's
        self.push_screen(SeatScreen(code, name=""), named)

    def _watch_served(self, code: str) -> None:
        from .network import watch_request

        served = self._served_tables
        assert served is not None
        request = watch_request(served.address, code)
        request.served = True
        self.call_later(self.sit_at, request)

    async def _sit_at_served(self, code: str, name: str) -> None:
        """Take a seat at the served table ``code`` as ``name`` (its lobby at once). The claim
        is asked again: the table may have closed, or been reaped, while the name was typed;
        refused, it is one line in the service's words (not the link's "wrong code")."""
        from ..net.served import ServedRefusal, claim
        from ..text.net import served_join_line

        served = self._served_tables
        assert served is not None
        try:
            await claim(served, code)
        except ServedRefusal as refusal:
            self.notify(refusal.text, title=_("Cannot sit at the table"), severity="error", timeout=30, markup=False)
            return
        request = TableRequest(
            served.address, code, name, served=True,
            join_line=served_join_line(served.table_link(code), served.link, code),
        )
        self.call_later(self.sit_at, request)

    # -- never lose a game: autosave problems, undo, save, load, replay, statistics ----------
    def on_save_problem(self, message: SaveProblem) -> None:
        self.notify(printable(message.text), title=_("Saving"), severity="error", timeout=15, markup=False)

    def on_saving_state(self, message: SavingState) -> None:
        """While autosaves fail, the game's status line keeps saying so."""
        if self.game_screen is not None:
            reason = self.saver.failing_reason  # the latest, whatever the message order
            if reason is not None and self._fence is not None:
                reason = self._fence.shown(reason)
            self.game_screen.saving = reason

    def undo_state(self) -> tuple[bool, str]:
        """``(possible, what it takes back / why not)`` for the seat shown (cached per position)."""
        return self.source.undo_state()

    def _refresh_undo(self) -> None:
        """The footer's Undo is dimmed when undo is not possible, its tooltip saying why."""
        screen = self.game_screen
        if screen is None:
            return
        ok, text = self.undo_state()
        if (ok, text) == self._undo_shown:
            return
        self._undo_shown = (ok, text)
        tip = capitalised(text)
        keys = own_bindings(screen)
        for key, bindings in keys.items():
            keys[key] = [dc_replace(b, tooltip=tip) if b.action == "app.undo" else b for b in bindings]
        screen.refresh_bindings()

    def action_undo(self) -> None:
        """Take back the last decision of the seat shown, or say why not."""
        notice = self.source.undo()
        if notice is not None:
            self.show_notice(notice)

    def action_undo_why(self) -> None:
        """``u`` while the footer's Undo is dimmed: why not (or undo, if the footer was late)."""
        self.action_undo()

    def action_save_as(self, name: str = "", problem: str = "", overwrite: bool = False) -> None:
        from .screens.saves import SaveAsScreen

        if self.source.game_to_keep() is None:
            return

        def named(chosen: str | None) -> None:
            game = None if chosen is None else self.source.game_to_keep()
            if chosen is None or game is None:
                return
            state, setup = game
            try:
                path = save_named(
                    self.root, chosen, state, setup, speed=self.speed, overwrite=overwrite and chosen == name,
                    bound=None if self._fence is None else (SERVED_SAVES, SERVED_SAVES_BYTES),
                )
            except SaveError as exc:
                if exc.code == "name_taken":
                    self.action_save_as(
                        chosen, _("A saved game named {name} exists: Enter again replaces it.").format(name=quote(chosen)), True
                    )
                else:
                    self.notify(printable(error_text(exc)), title=_("Not saved"), severity="error", timeout=10, markup=False)
                return
            self.notify(printable(_("Saved as {name} ({path})").format(name=quote(chosen), path=path)), title=_("Saved"), timeout=5, markup=False)

        self.push_screen(SaveAsScreen(name, problem), named)

    def action_load_game(self) -> None:
        from .screens.saves import LoadScreen

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.load_file(path)

        self.push_screen(LoadScreen(root=self.root, fence=self._fence), chosen)  # it lists them in a worker thread

    def load_file(self, path: Path) -> bool:
        """Start the game saved in ``path``; a bad file: its one-line message, nothing else."""
        if self._refused(path):
            return False
        try:
            game = load_save(path)
        except SaveError as exc:
            self.notify(printable(error_text(exc)), title=_("Cannot load"), severity="error", timeout=15, markup=False)
            return False
        if game.state.over:
            self.notify(_("That game is over: opening it in the replay viewer"), timeout=5)
            self.open_replay(game)
            return True
        self.call_later(self.start_game, game.setup, game.state)
        return True

    @property
    def game_running(self) -> bool:
        """A game is in progress (on any screen: hand-off, dialogs, the new-game form over it)."""
        return self.snapshot is not None and not self.snapshot.over

    def _refuse_replay(self) -> None:
        self.notify(
            _("A game is in progress: the replay viewer would show its hidden tiles. Finish or quit it first."),
            title=_("Cannot open"),
            severity="warning",
            timeout=8,
        )

    def action_open_replay(self) -> None:
        """The replay viewer shows every hand face up: while a game is in progress only
        finished games open in it (never the autosave, nor a named save that is a copy of the
        game, chosen or typed as a path); out of a game, an unfinished game opens only once
        the person said yes to seeing its hidden tiles."""
        from .screens.saves import FileScreen

        def chosen(path: Path | None) -> None:
            if path is None or self._refused(path):
                return
            try:
                game = load_save(path)
            except SaveError as exc:
                self.notify(printable(error_text(exc)), title=_("Cannot open"), severity="error", timeout=15, markup=False)
                return
            self.open_replay(game)

        if self._fence is not None:  # a served game: paths are typed from the data folder
            self.push_screen(FileScreen(_("Open replay…"), "saves/", fence=self._fence), chosen)
        else:
            self.push_screen(FileScreen(_("Open replay…"), str(self.root / "saves") + "/"), chosen)

    def _refused(self, path: Path) -> bool:
        """A served game opens no file outside its data folder, and no game opens the file of
        a game in progress elsewhere (:func:`~mexitrain.storage.inplay.in_play`): True (and
        one line) for one."""
        if self._fence is not None and not self._fence.inside(path):
            line = self._fence.refusal(path.name)
        elif in_play(path):
            line = in_play_line(path.name)
        else:
            return False
        self.notify(line, title=_("Cannot open"), severity="error", timeout=10, markup=False)
        return True

    def open_replay(self, game: SavedGame) -> None:
        from .screens.replay import ReplayScreen

        if game.state.over:
            self.push_screen(ReplayScreen(game))
        elif self.game_running:
            self._refuse_replay()
        else:
            self.push_screen(RevealScreen(), lambda yes: self.push_screen(ReplayScreen(game)) if yes else None)

    def action_stats(self) -> None:
        from .screens.saves import StatsScreen

        self.saver.flush()  # a game just finished is counted
        try:
            text, problem = format_stats(load_stats(self.root)), None
        except SaveError as exc:
            text, problem = "", error_text(exc)
            if self._fence is not None:
                problem = self._fence.shown(problem)
        self.push_screen(StatsScreen(text, problem))


def _data_dir(arg: str | Path | None) -> Path:
    return Path(data_dir(None if arg is None else str(arg)))


def run(
    setup: GameSetup | None,
    speed: float,
    data_dir: str | Path | None = None,
    load: SavedGame | None = None,
    replay: SavedGame | None = None,
    served: bool = False,
    tables: bool = True,
    then: Callable[[MexitrainApp], None] | None = None,
    served_tables: ServedTables | None = None,
) -> int:
    """Play: ``setup`` None shows the new-game screen first (and offers an unfinished autosave);
    ``speed`` = seconds between computer moves; ``data_dir`` overrides the data directory;
    ``load`` starts a loaded game, ``replay`` opens one in the replay viewer; ``served``: a
    game ``mexitrain serve`` started, its files fenced in the data folder; ``tables`` False
    (``serve --no-tables``): no Host a table… nor Join a table…; ``then`` is called with the
    app once it has ended (the terminal is back). Returns the
    exit status; a crash raises mexitrain.ui.crash.AppCrashed (Textual's report kept for the log)."""
    from .crash import run_app

    app = MexitrainApp(
        setup, speed, data_dir=data_dir, load=load, replay=replay, served=served, tables=tables,
        served_tables=served_tables,
    )
    status = run_app(app)
    if then is not None:
        then(app)
    return status


if __name__ == "__main__":  # pragma: no cover
    run(None, 0.6)
