"""The Textual app: screens, workers, notices and keys around one game session.

The game itself (snapshot, seats, turn order, hand-off, knock, forced moves, undo) is
:class:`mexitrain.session.Session`, plain Python; the app asks it what to do and does it with
Textual. Snapshots down, intents up: the app's ``snapshot`` is the session's, and the game
screen gets only ``view(state, seat)`` for the seat being shown; screens post messages
(:class:`GameScreen.Act`, :class:`GameScreen.Notice`, :class:`NewGameScreen.LanguageChosen`…)
and never call the app. Computer players choose in a worker thread.

Over 500 lines: every screen's message handler and every app-wide command (save, load, replay,
statistics, theme, Textual's own texts) meets here, as Textual wants them on the App class.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace as dc_replace
from pathlib import Path

from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.notifications import Notification, SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import get_current_worker

from ..i18n import _
from ..rules import Action, GameState
from ..session import Notice, Session, capitalised
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
from ..table import GameSetup, random_seed
from ..text.basics import quote
from ..text.errors import error_text
from ..text.files import in_play_line
from ..text.stats import format_stats
from ..text.visible import UNSAFE, dropped
from . import typography
from .cells import printable
from .command_palette import Palette, ThemeProvider, key_label
from .fence import Fence
from .lang import translate_bindings
from .resources import stylesheet_path
from .resume import offer_resume
from .screens import (
    GameOverScreen,
    GameScreen,
    HandoffScreen,
    HelpScreen,
    NewGameScreen,
    QuitScreen,
    RevealScreen,
    RoundOverScreen,
    ScoreScreen,
)
from .textual_compat import add_notice, guard_output, own_bindings, withdraw_notices
from .widgets import StatusLine


class AiChose(Message):
    """A computer player's move, chosen in a worker thread for ``state``."""

    def __init__(self, state: GameState, action: Action) -> None:
        self.state = state
        self.action = action
        super().__init__()


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
    """Mexican Train at the terminal."""

    CSS_PATH = str(stylesheet_path())
    TITLE = "Mexican Train"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = [
        Binding("f1,question_mark", "help", "Help", key_display="?", tooltip="Keys and rules", id="help"),
        Binding("s", "scores", "Scores", tooltip="The score sheet", id="scores"),
        Binding("ctrl+q", "request_quit", "Quit", show=False, priority=True, id="app-quit"),
        # reached only when the game screen's undo (u) is disabled: say why
        Binding("u", "undo_why", "Why no undo", show=False, id="undo-why"),
    ]

    snapshot: reactive[GameState | None] = reactive(None, init=False, repaint=False)

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
    ) -> None:
        """``setup`` None shows the new-game screen; ``seed`` fixes that screen's seed (tests);
        ``state`` starts ``setup``'s game from a prepared snapshot instead of a fresh deal.
        ``data_dir`` holds the autosave, saves and statistics (default: ``storage.data_dir``);
        ``load`` starts a loaded game; ``replay`` opens the replay viewer on a loaded game;
        ``served`` (``mexitrain serve``'s games) fences the file dialogs in the data folder for
        the app's whole life (:mod:`.fence`)."""
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
        #: the game being played: snapshot, seats, turn order, undo (no Textual: mexitrain.session)
        self.session = Session(setup)
        self.speed = speed
        self.form_seed = seed
        self.start_state = state
        self.game_screen: GameScreen | None = None
        self._ai_state: GameState | None = None
        self._play_notice: Notification | None = None
        self._wake = threading.Event()
        #: Seconds the coach (t) may think; None = its default. Tests set 0.
        self.hint_time: float | None = None
        self._undo_shown: tuple[bool, str] | None = None

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
        if self.replay_game is not None:
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
        elif self.session.setup is None:
            self.push_screen(NewGameScreen(seed=self.form_seed))
            self._offer_resume()
        else:
            self.call_later(self.start_game, self.session.setup, self.start_state)

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

    async def _goto(self, screen: Screen) -> None:
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(screen)

    async def start_game(self, setup: GameSetup, state: GameState | None = None) -> None:
        """Seat the table and deal round 1 (or take up ``state``)."""
        first, warnings = self.session.start(setup, state)
        for text in warnings:
            self.notify(text, severity="warning", markup=False)
        self._ai_state = None
        self.workers.cancel_group(self, "ai")
        self._undo_shown = None
        withdraw_notices(self, self.session.withdraw())  # the last game's
        self.game_screen = GameScreen(hint_time=self.hint_time, saving=self.saver.failing_reason, pips=self.pips)
        await self._goto(self.game_screen)
        self.snapshot = first

    async def on_new_game_screen_start(self, message: NewGameScreen.Start) -> None:
        await self.start_game(message.setup)

    # -- the snapshot flows down ---------------------------------------------------------------------
    def watch_snapshot(self, old: GameState | None, new: GameState | None) -> None:
        if new is None or self.game_screen is None:
            self.session.state = new
            return
        setup = self.session.setup
        if setup is not None and new is not old:
            self.saver.submit(new, setup, self.speed)
        moved = self.session.moved(new)
        withdraw_notices(self, moved.withdrawn)  # the last person's notices end with their turn
        for notice in moved.notices:
            self.show_notice(notice)
        self._show()
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
        old = self._play_notice
        if old is not None:
            withdraw_notices(self, [old], refresh=False)
            self.session.forget_private(old.identity)
        notice = Notification(text, title, severity, timeout, markup=False)
        self._play_notice = notice
        if seat is not None:
            self.session.note_private(notice.identity, notice, seat)
        add_notice(self, notice)

    def show_notice(self, notice: Notice) -> None:
        """A :class:`~mexitrain.session.Notice` of the session, as a play notice."""
        self.play_notice(notice.text, title=notice.title, severity=notice.severity, timeout=notice.timeout, seat=notice.seat)

    def on_game_screen_notice(self, message: GameScreen.Notice) -> None:
        self.play_notice(message.text, title=message.title, severity=message.severity, timeout=message.timeout)

    def _show(self) -> None:
        state = self.session.state
        if state is None or self.game_screen is None:
            return
        session = self.session
        self.game_screen.show(session.view(state), session.names, session.kinds, frozenset(session.auto_events))

    def on_game_screen_ready(self, message: GameScreen.Ready) -> None:
        self._advance()

    def _advance(self) -> None:
        """Whatever comes next: a screen to show, a forced move, or a computer's turn."""
        state, session = self.session.state, self.session
        if state is None or self.game_screen is None or not self.screen_stack:
            return  # (no screen at all: the app is closing)
        if self.screen is not self.game_screen:
            return
        step = session.next_step()
        if step is None:
            return
        if step.kind == "round_over":
            self.clear_notifications()  # the round's passing notices would cover its results
            self.push_screen(RoundOverScreen(session.view(state), session.names, state.over, session.you()))
        elif step.kind == "game_over":
            self.push_screen(GameOverScreen(session.view(state), session.names, session.you()), self._after_game)
        elif step.kind == "handoff":
            self.push_screen(HandoffScreen(session.names[step.seat], step.seat, step.text))
        elif step.kind == "forced":
            self.call_later(self._apply, step.action, True)
        elif self._ai_state is not state:
            self._ai_state = state
            self._ai_turn(state, step.seat)

    # -- intents flow up ------------------------------------------------------------------------------
    def on_game_screen_act(self, message: GameScreen.Act) -> None:
        if self.session.person_to_move():
            self._apply(message.action)

    def _apply(self, action: Action, auto: bool = False) -> bool:
        done = self.session.apply(action, auto)
        if done.notice is not None:
            self.show_notice(done.notice)
        if done.state is None:
            return False
        self.snapshot = done.state
        return True

    # -- computer turns --------------------------------------------------------------------------------
    @property
    def ai_pending(self) -> bool:
        """A computer player is to move and nothing else (a screen) is in the way."""
        return self.session.computer_to_move() and self.screen is self.game_screen

    @work(thread=True, exclusive=True, group="ai")
    def _ai_turn(self, state: GameState, seat: int) -> None:
        worker = get_current_worker()
        started = time.monotonic()
        player, name = self.session.players[seat], self.session.names[seat]
        try:
            action = player.choose(self.session.view(state, seat))  # type: ignore[attr-defined]
        except Exception as exc:  # a computer player's bug must not stop the game
            self.log.error(f"{name}'s computer player failed: {exc!r}")  # the details, for developers
            self.call_from_thread(
                self.notify,
                _("{name}'s computer player failed; it plays the first legal move instead").format(name=name),
                title=_("Computer player error"),
                severity="error",
            )
            action = self.session.view(state, seat).legal[0]
        rest = self.speed - (time.monotonic() - started)
        if rest > 0:
            self._wake.wait(rest)
        if not worker.is_cancelled:
            self.post_message(AiChose(state, action))

    def on_ai_chose(self, message: AiChose) -> None:
        if message.state is not self.snapshot:
            return  # stale: the game moved on (new game, or a replaced snapshot)
        if not self._apply(message.action):
            legal = self.session.view(message.state, message.state.turn).legal
            if legal:
                self._apply(legal[0])

    # -- app-wide keys and commands -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "undo_why"):
            # the footer asks often: the last answer shown (_refresh_undo computes the new one)
            ok = (self.session.undo_known or self._undo_shown or (False, ""))[0]
            if action == "undo":
                return True if ok else None
            return isinstance(self.screen, GameScreen) and not ok
        if action == "save_as":
            return isinstance(self.screen, GameScreen) and self.snapshot is not None
        if action == "scores":
            return self.snapshot is not None and not isinstance(self.screen, NewGameScreen | ScoreScreen | HandoffScreen)
        if action == "help":
            return not isinstance(self.screen, HelpScreen)
        return True

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        state = self.snapshot
        if state is not None:
            self.push_screen(HelpScreen(state.rules, state.players))
        else:
            self.push_screen(HelpScreen())

    def action_scores(self) -> None:
        state = self.snapshot
        if state is None or isinstance(self.screen, ScoreScreen):
            return
        self.push_screen(ScoreScreen(self.session.view(state), self.session.names))

    def action_request_quit(self) -> None:
        if isinstance(self.screen, QuitScreen):
            return
        state = self.snapshot
        if state is None or state.over:
            self.exit()
            return
        autosaved = self.saver.path is not None and self.saver.failing is None
        self.push_screen(QuitScreen(autosaved=autosaved), lambda yes: self._quit_running(autosaved) if yes else None)

    def _quit_running(self, autosaved: bool) -> None:
        """Quit a game in progress; ``quit_autosaved``: there is one to resume (the command says how)."""
        self.quit_autosaved = autosaved
        self.exit()

    def action_new_game(self) -> None:
        if isinstance(self.screen, NewGameScreen):
            return
        running = self.snapshot is not None and not self.snapshot.over
        self.push_screen(NewGameScreen(self.session.setup, can_go_back=running))

    def _after_game(self, choice: str | None) -> None:
        setup = self.session.setup
        if choice == "again" and setup is not None:
            self.call_later(self.start_game, setup.model_copy(update={"seed": random_seed(), "seed_chosen": False}))
        elif choice == "new":
            self.snapshot = None
            self.game_screen = None
            self.call_later(self._goto, NewGameScreen(setup))
        else:
            self.exit()

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
        yield SystemCommand(_("New game"), _("Set up a new table"), self.action_new_game)
        yield self.tiles_command()
        if self.snapshot is not None:
            yield SystemCommand(_("Score sheet"), _("Scores of every round so far"), self.action_scores)
        if self.snapshot is not None and self.game_screen is not None:
            yield SystemCommand(_("Save game as…"), _("Save this game under a name (Ctrl+S)"), self.action_save_as)
        yield SystemCommand(_("Load a saved game…"), _("Continue a game saved under a name"), self.action_load_game)
        yield SystemCommand(
            _("Open replay…"), _("Step through a saved game or record move by move"), self.action_open_replay
        )
        yield SystemCommand(_("Statistics"), _("Games played and won, totals, rounds gone out"), self.action_stats)
        yield SystemCommand(_("Rules and keys"), _("Help: the keys and the rules in force"), self.action_help)
        for command in super().get_system_commands(screen):
            if command.title == "Keys":  # Textual's Keys panel: our "Rules and keys" above
                continue
            yield SystemCommand(_(command.title), _(command.help), command.callback, command.discover)

    def on_unmount(self) -> None:
        self._wake.set()
        self.saver.close()  # the last action reaches the disk before the app ends

    # -- never lose a game: autosave problems, undo, save, load, replay, statistics ----------
    def on_save_problem(self, message: SaveProblem) -> None:
        self.notify(printable(message.text), title=_("Saving"), severity="error", timeout=15, markup=False)

    def on_saving_state(self, message: SavingState) -> None:
        """While autosaves fail, the game's status line keeps saying so."""
        if self.game_screen is not None:
            reason = self.saver.failing_reason  # the latest, whatever the message order
            if reason is not None and self._fence is not None:
                reason = self._fence.shown(reason)
            for status in self.game_screen.query(StatusLine):
                status.saving = reason

    def undo_state(self) -> tuple[bool, str]:
        """``(possible, what it takes back / why not)`` for the seat shown (cached per snapshot)."""
        return self.session.undo_state()

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
        done = self.session.undo()
        if done.state is not None:
            self.workers.cancel_group(self, "ai")
            self._ai_state = None
            self.snapshot = done.state
        if done.notice is not None:
            self.show_notice(done.notice)

    def action_undo_why(self) -> None:
        """``u`` while the footer's Undo is dimmed: why not (or undo, if the footer was late)."""
        self.action_undo()

    def action_save_as(self, name: str = "", problem: str = "", overwrite: bool = False) -> None:
        from .screens.saves import SaveAsScreen

        if self.snapshot is None or self.session.setup is None:
            return

        def named(chosen: str | None) -> None:
            if chosen is None:
                return
            state, setup = self.snapshot, self.session.setup
            if state is None or setup is None:
                return
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
) -> int:
    """Play: ``setup`` None shows the new-game screen first (and offers an unfinished autosave);
    ``speed`` = seconds between computer moves; ``data_dir`` overrides the data directory;
    ``load`` starts a loaded game, ``replay`` opens one in the replay viewer; ``served``: a
    game ``mexitrain serve`` started, its files fenced in the data folder; ``tables`` False
    (``serve --no-tables``): no Host a table… nor Join a table…; ``then`` is called with the
    app once it has ended (the terminal is back). Returns the
    exit status; a crash raises mexitrain.ui.crash.AppCrashed (Textual's report kept for the log)."""
    from .crash import run_app
    from .remote import TableApp  # the game's app, whose Host/Join lead to a table on the network

    app = TableApp(setup, speed, data_dir=data_dir, load=load, replay=replay, served=served, tables=tables)
    status = run_app(app)
    if then is not None:
        then(app)
    return status


if __name__ == "__main__":  # pragma: no cover
    run(None, 0.6)
