"""The game screen: status, station hub, move log, train rows and the hand tray."""

from __future__ import annotations

from dataclasses import replace

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen

from ...i18n import N_, _
from ...players.hint import hint as _hint  # the coach: hint(view) -> (action, one-line reason)
from ...rules import DRAW, MARK, PASS, SKIP, Action, SeatView
from ...text.events import VIEW_SEAT
from ..board import Board, build, canon, select_target, select_tile, train_index, with_target
from ..widgets import HandTray, StatusLine, TipPanel, TrainRows
from ..widgets.chat import ChatLines
from ..widgets.footer import FittingFooter
from ..widgets.layout import GAME_SIZE, SizeGuard, TrainBox, board_widgets
from ..widgets.net import NetBar

#: What a tip that is not a play adds: the key that does it (the game screen's bindings).
_TIP_KEYS = {
    "draw": N_(" — press d to draw"),
    "mark": N_(" — press m to place your marker"),
    "pass": N_(" — press m to pass"),
    "skip": N_(" — press g to skip the Mexican Train"),
}


class GameScreen(Screen):
    """Keys act on the selection held here; moves go up to the app as :class:`Act`, notices
    about the play as :class:`Notice`.

    ``hint_time``: seconds the coach (n, t) may think, None for its own time (tests give 0);
    ``saving``: why autosaves fail when the game starts (the status line says it), or None."""

    AUTO_FOCUS = None
    #: Below 20 rows the hub and the log give way to the trains and the hand (screens.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-normal")]

    BINDINGS = [
        Binding("left,h", "tile(-1)", "Tile", key_display="←→", tooltip="Select the previous tile (h)", id="tile-prev"),
        Binding("right,l", "tile(1)", "Next tile", show=False, id="tile-next"),
        Binding("up,k", "target(-1)", "Train", key_display="↑↓", tooltip="Select the previous train (k)", id="train-prev"),
        Binding("down,j", "target(1)", "Next train", show=False, id="train-next"),
        Binding("enter", "place", "Place", key_display="⏎", tooltip="Play the selected tile on the selected train", id="place"),
        Binding("d", "draw", "Draw", tooltip="Draw a tile (only when no tile fits)", id="draw"),
        Binding("m", "end_turn", "End turn", tooltip="Place your marker / pass: only when the rules allow it", id="end-turn"),
        Binding("g", "skip", "Skip Mex.", tooltip="Swan drive: go past the Mexican Train", id="skip"),
        Binding("f", "flip", "Flip", tooltip="Blanks wild: choose which half goes against the end", id="flip"),
        Binding("o", "sort", "Sort", tooltip="Planned train first, or a plain sort", id="sort"),
        Binding("n,t", "hint", "Tip", tooltip="Suggest a move (n or t)", id="hint"),
        Binding("u", "app.undo", "Undo", tooltip="Take back your last decision", id="undo"),
        Binding("ctrl+s", "app.save_as", "Save as", show=False, tooltip="Save this game under a name", id="save-as"),
        Binding("q", "app.request_quit", "Quit", tooltip="Quit (asks first)", id="quit"),
        # at a table on the network, for its host (the app hides it elsewhere)
        Binding("c", "app.hand_over", "Hand over", tooltip="Hand the seat of a player who is away to a computer player", id="hand-over"),
        # chat at a table on the network (the app hides them elsewhere; the help lists them)
        Binding("w", "app.chat_say", "Chat", tooltip="Say a line to the table", id="chat-say"),
        Binding("r", "app.chat_react", "React", show=False, tooltip="Send a quick reaction", id="chat-react"),
        Binding("v", "app.chat_mute", "Mute chat", show=False, tooltip="Hide or show the others' chat lines", id="chat-mute"),
        Binding("ctrl+x", "app.remove_player", "Remove", show=False, tooltip="Remove a person from the table", id="remove-player"),
        *[
            Binding(str(i + 1), f"train({i})", f"Seat {i + 1}'s train", show=False, id=f"train-{i + 1}")
            for i in range(9)
        ],
        Binding("0,x", "train(-1)", "Mexican Train", show=False, id="train-mexican"),
        # every move key answers: when d, m or g does nothing now, the same key (tried after
        # the binding above it, which is disabled then) asks the rules anyway, and the refused
        # move says why in one line, as a refused tile does (issue #34)
        Binding("d", "why('draw')", "Draw", show=False, id="draw-why"),
        Binding("m", "why('end_turn')", "End turn", show=False, id="end-turn-why"),
        Binding("g", "why('skip')", "Skip Mex.", show=False, id="skip-why"),
    ]

    # repaint=False: a screen-level repaint would redraw every widget; the bound widgets
    # repaint themselves, and only when their part changed
    board: reactive[Board | None] = reactive(None, repaint=False)
    plain: reactive[bool] = reactive(False, repaint=False)
    #: the halves shown as pips (the app's "tiles as pips" preference, set from above)
    pips: reactive[bool] = reactive(False, repaint=False, init=False)
    #: why autosaves fail (short), or None while they work: the status line says it (set by the app)
    saving: reactive[str | None] = reactive(None, repaint=False)
    #: at a table: the link's line and who is away (set by the network table every second)
    link_text: reactive[str] = reactive("", repaint=False)
    #: at a table: the chat lines shown under the move log, and the mute note (set by the table)
    chat_rows: reactive[tuple] = reactive((), repaint=False)
    chat_note: reactive[str] = reactive("", repaint=False)
    _keys_state: tuple = ()
    _tip_shown = False

    class Act(Message):
        """The player wants ``action`` applied."""

        def __init__(self, action: Action) -> None:
            self.action = action
            super().__init__()

    class Ready(Message):
        """The game screen is on top again (after a dialog): the app may go on."""

    class Notice(Message):
        """A passing notice about the play for the app to show (it replaces the last one)."""

        def __init__(self, text: str, *, title: str = "", severity: str = "information", timeout: float = 5) -> None:
            self.text = text
            self.title = title
            self.severity = severity
            self.timeout = timeout
            super().__init__()

    def __init__(
        self, *, hint_time: float | None = None, saving: str | None = None, pips: bool = False, link: bool = False,
        watching: bool = False,
    ) -> None:
        """``link``: one more line under the status line, the link to a table on the network
        and who is away (a :class:`~mexitrain.ui.widgets.net.NetBar`); ``watching``: the game
        is watched (an onlooker's view: the hand's place says so, no move key works)."""
        super().__init__()
        self.watching = watching
        self.hint_time = hint_time
        self.link = link
        self.set_reactive(GameScreen.pips, pips)
        self.set_reactive(GameScreen.saving, saving)

    _guard: SizeGuard | None = None

    def watch_pips(self) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        """The board again from its own view, with the screen's sort and tiles now."""
        b = self.board
        if b is not None:
            self.show(b.view, b.names, b.kinds, b.auto_events, you=b.you)

    def on_screen_resume(self) -> None:
        self.query_one(SizeGuard).check()  # the terminal may have changed size meanwhile
        self.post_message(self.Ready())

    def on_mount(self) -> None:
        self.query_one(SizeGuard).check()
        self.call_after_refresh(self._fit_corner)
        if self.link:  # at a table: the chat's last lines under the move log
            strip = ChatLines(id="chat-strip").data_bind(lines=GameScreen.chat_rows, note=GameScreen.chat_note)
            self.query_one("#corner").mount(strip)

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status").data_bind(GameScreen.board, GameScreen.saving)
        if self.link:
            yield NetBar(id="net-bar").data_bind(text=GameScreen.link_text)
        yield from board_widgets(GameScreen.board, tip=True)
        yield FittingFooter(id="footer", compact=True)
        self._guard = SizeGuard(*GAME_SIZE)  # kept: check_action asks it on every key
        yield self._guard

    # -- fed by the app ---------------------------------------------------------------------
    def show(
        self,
        view: SeatView,
        names: tuple[str, ...],
        kinds: tuple[str, ...],
        auto_events: frozenset[int] = frozenset(),
        *,
        you: int | None = VIEW_SEAT,
    ) -> None:
        """The board of ``view``; ``you`` the seat the texts call "you" (VIEW_SEAT: the
        view's seat when exactly one person plays here)."""
        self.board = build(
            view, names, kinds, previous=self.board, plain=self.plain, pips=self.pips, auto_events=auto_events, you=you,
            watching=self.watching,
        )

    _MOVES = frozenset({"tile", "target", "train", "place", "draw", "end_turn", "skip", "flip", "hint", "sort", "why"})
    _ACTIONS = (("tile", ()), ("target", ()), ("place", ()), ("draw", ()), ("end_turn", ()),
                ("skip", ()), ("flip", ()), ("hint", ()), ("sort", ()))

    def watch_board(self, board: Board | None) -> None:
        # the footer rebuilds itself on refresh_bindings: only when a key's state changed
        keys = tuple(self.check_action(a, p) for a, p in self._ACTIONS) + (
            board.view.players if board else 0,
        )
        if keys != self._keys_state:
            self._keys_state = keys
            self.refresh_bindings()
        if board is not None:
            self.call_after_refresh(self._scroll_to_target)
            tip = board.tip is not None
            if tip or tip != self._tip_shown:  # the tip came, went or may have changed height
                self.call_after_refresh(self._fit_corner)
                self._tip_shown = tip

    def on_resize(self) -> None:
        guard = self.query_one(SizeGuard)
        before = guard.shown
        if guard.check() != before:
            self._keys_state = ()
            self.refresh_bindings()  # no move keys while the board is not shown
        self.call_after_refresh(self._fit_corner)

    def _fit_corner(self) -> None:
        """Notices go in the corner's column, below the tip when one is shown: the same left
        edge as the tip and the log, never over the tip (docs/playing.md, "The corner")."""
        corners = self.query("#corner")
        racks = self.query("#textual-toastrack")
        if not corners or not racks:  # the screen is being torn down
            return
        corner = corners.first()
        tip = self.query_one(TipPanel)
        top = tip.region.bottom if tip.display and tip.region.height else corner.region.y
        rack = racks.first()
        margin = (top, 0, 0, corner.region.x)
        if tuple(rack.styles.margin) != margin:
            rack.styles.margin = margin
        if rack.styles.width is None or rack.styles.width.value != corner.region.width:
            rack.styles.width = corner.region.width

    def on_tip_panel_resized(self, message: TipPanel.Resized) -> None:
        self.call_after_refresh(self._fit_corner)  # once the whole corner is laid out

    def _scroll_to_target(self) -> None:
        board = self.board
        if board is None or board.target is None:
            return
        row = 0
        for ti, train in enumerate(board.view.trains):
            for li in range(len(train.lines)):
                if (ti, li) == board.target:
                    box = self.query_one(TrainBox)
                    if row < box.scroll_y or row >= box.scroll_y + box.size.height:
                        box.scroll_to(y=max(0, row - box.size.height + 1), animate=False)
                    return
                row += 1

    # -- what can be done now -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        board = self.board
        guard = self._guard
        if action in self._MOVES and guard is not None and guard.is_attached and guard.shown:
            return False  # the terminal is too small to show the board: no move made blind
        if action in ("tile", "sort"):
            return board is not None and bool(board.view.hand)
        if action in ("target", "train"):
            if board is None or not board.my_turn or not board.plays:
                return False
            if action == "train" and parameters:
                i = int(parameters[0])  # type: ignore[arg-type]
                return i == -1 or i < board.view.players
            return True
        if action == "place":
            return board is not None and board.my_turn and bool(board.plays)
        if action == "draw":
            return board is not None and board.my_turn and board.can("draw")
        if action == "end_turn":
            return board is not None and board.my_turn and (board.can("mark") or board.can("pass"))
        if action == "skip":
            return board is not None and board.my_turn and board.can("skip")
        if action == "why":  # hidden; only reached when the move key's own binding is disabled
            return board is not None and board.my_turn
        if action == "flip":
            return board is not None and board.my_turn and len(board.options()) > 1
        if action == "hint":
            return board is not None and board.my_turn and bool(board.legal)
        return True

    # -- selection ------------------------------------------------------------------------------
    def action_tile(self, step: int) -> None:
        if self.board is not None:
            self.board = select_tile(self.board, step)

    def action_target(self, step: int) -> None:
        if self.board is not None:
            self.board = select_target(self.board, step)

    def action_train(self, index: int) -> None:
        board = self.board
        if board is None:
            return
        ti = board.view.players if index == -1 else index
        if ti > board.view.players:
            return
        fits = sorted(li for (t, li) in board.fits(board.selected) if t == ti)
        if board.target is not None and board.target[0] == ti and len(fits) > 1:
            # pressing the same number again walks through that train's branches
            later = [li for li in fits if li > board.target[1]]
            line = later[0] if later else fits[0]
        else:
            line = fits[0] if fits else 0
        self.board = replace(board, target=(ti, line), flip=0)

    def action_flip(self) -> None:
        if self.board is not None:
            self.board = replace(self.board, flip=self.board.flip + 1)

    def action_sort(self) -> None:
        self.plain = not self.plain
        if self.board is not None:
            self._rebuild()
            self.post_message(
                self.Notice(_("Plain sort") if self.plain else _("Planned train first, then the extras"), timeout=2)
            )

    # -- moves ----------------------------------------------------------------------------------
    def action_place(self) -> None:
        board = self.board
        if board is None:
            return
        play = board.play()
        if play is None:
            self.post_message(self.Notice(_("Select a tile and a train first"), severity="warning"))
            return
        self.post_message(self.Act(play))

    def action_draw(self) -> None:
        self.post_message(self.Act(DRAW))

    def action_end_turn(self) -> None:
        board = self.board
        if board is None:
            return
        self.post_message(self.Act(MARK if board.can("mark") else PASS))

    def action_skip(self) -> None:
        self.post_message(self.Act(SKIP))

    def action_why(self, move: str) -> None:
        """A move key pressed when its move is not possible now: the move goes to the rules
        all the same, whose refusal (its reason code, worded by :mod:`mexitrain.text.refusals`)
        the app shows as a notice; nothing is decided here."""
        self.post_message(self.Act({"draw": DRAW, "skip": SKIP}.get(move, MARK)))

    def action_hint(self) -> None:
        board = self.board
        if board is None:
            return
        self.board = replace(board, tip=_("Thinking about a tip…"), tip_play=None)
        self._think(board.view, board.names)

    @work(thread=True, exclusive=True, group="hint")
    def _think(self, view: SeatView, names: tuple[str, ...]) -> None:
        """The coach may search for a second: never on the UI thread."""
        limit = self.hint_time
        thinking = {} if limit is None else {"time_limit": limit}  # None: the coach's own time
        try:
            action, reason = _hint(view, names=names, **thinking)
        except Exception as exc:  # the coach must never break the game
            self.log.error(f"no tip: {exc!r}")  # the details, for developers (Python's words)
            self.app.call_from_thread(self._no_hint, view)
            return
        self.app.call_from_thread(self._show_hint, view, action, reason)

    def _no_hint(self, view: SeatView) -> None:
        board = self.board
        if board is not None and board.view == view:
            self.board = replace(board, tip=None)
        self.post_message(self.Notice(_("No tip available this time"), title=_("Tip"), severity="warning"))

    def _show_hint(self, view: SeatView, action: Action, reason: str) -> None:
        board = self.board
        if board is None or board.view != view:
            return  # the game moved on meanwhile
        if action.type == "play":
            tile = canon(action.tile)
            target = (train_index(view, action.train), action.branch)
            opts = [
                p
                for p in board.plays
                if canon(p.tile) == tile and p.train == action.train and p.branch == action.branch
            ]
            flip = opts.index(action) if action in opts else 0
            board = replace(board, selected=tile, target=target, flip=flip, tip_play=action)
            # the panel says "press Enter to play it" while Enter plays it (widgets/tip.py)
        elif action.type in _TIP_KEYS:
            reason += _(_TIP_KEYS[action.type])
        self.board = replace(board, tip=reason)  # until the game moves on (board.build)

    # -- mouse intents ----------------------------------------------------------------------------
    def on_hand_tray_selected(self, message: HandTray.Selected) -> None:
        if self.board is not None:
            self.board = with_target(replace(self.board, selected=message.tile, flip=0))

    def on_train_rows_chosen(self, message: TrainRows.Chosen) -> None:
        board = self.board
        if board is None:
            return
        self.board = replace(board, target=(message.train, message.line), flip=0)
        if board.my_turn and board.plays:
            self.action_place()
