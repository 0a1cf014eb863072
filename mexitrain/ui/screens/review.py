"""The game review (docs/review.md): each of the people's decisions valued by the expert's
search, in a worker with a progress bar (Esc cancels); then one line per round and the three
costliest decisions explained, each with its position (1, 2, 3).

The review itself is :mod:`mexitrain.players.review` (pure); its words :mod:`mexitrain.text.review`.
Names come from the game and are shown as plain text, never as markup.
"""

from __future__ import annotations

from dataclasses import replace

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import get_current_worker

from ...i18n import N_, _
from ...players.review import DEFAULT_BUDGET, Cancelled, Review, person_seats, review_game
from ...rules import GameState
from ...text.review import decision_place, highlight_lines, review_lines, review_viewer
from ..board import Board, build
from ..textual_compat import own_bindings
from ..widgets.footer import FittingFooter
from ..widgets.layout import GAME_SIZE, SizeGuard, board_widgets

#: The key descriptions and tooltips of the review's keys and its hooks, for the catalogue
#: (:mod:`mexitrain.ui.lang` translates every screen's keys from their English ids).
KEY_WORDS = (
    N_("Review"), N_("Value your decisions with the expert's search"),
    N_("Value the people's decisions with the expert's search"), N_("Stop the review"),
    N_("Position"), N_("The position of a costly decision"),
)


def _plain(lines: list[str]) -> Content:
    """Lines of text as Content, never parsed as markup (names come from files)."""
    return Content("\n").join([Content(line) for line in lines])


class ReviewScreen(Screen[None]):
    """Runs a review of ``state``'s game and shows it (see the module docstring)."""

    DEFAULT_CSS = """
    ReviewScreen #review-title { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    ReviewScreen #review-status { height: 1; padding: 0 1; }
    ReviewScreen #review-progress { height: 1; padding: 0 1; }
    ReviewScreen #review-body { padding: 0 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", tooltip="Stop the review", id="review-cancel"),
        Binding("1", "position(0)", "Position", key_display="1 2 3",
                tooltip="The position of a costly decision", id="review-position-1"),
        Binding("2", "position(1)", "Position", show=False, id="review-position-2"),
        Binding("3", "position(2)", "Position", show=False, id="review-position-3"),
        Binding("q,escape", "close", "Close", id="review-close"),
    ]

    running: reactive[bool] = reactive(False, bindings=True)
    review: reactive[Review | None] = reactive(None, bindings=True, init=False)

    class Progress(Message):
        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    class Finished(Message):
        """The review is done (``review``) or was cancelled (None) after ``done`` decisions."""

        def __init__(self, review: Review | None, done: int) -> None:
            super().__init__()
            self.review, self.done = review, done

    class Failed(Message):
        def __init__(self, error: str) -> None:
            super().__init__()
            self.error = error

    def __init__(
        self,
        state: GameState,
        names: tuple[str, ...],
        kinds: tuple[str, ...],
        title: str = "",
        budget: int = DEFAULT_BUDGET,
        seats: tuple[int, ...] | None = None,
        review: Review | None = None,
    ) -> None:
        super().__init__()
        self.state = state
        self.names = names
        self.kinds = kinds
        self.title_text = title
        self.budget = budget
        self.seats = person_seats(kinds) if seats is None else seats
        self.given = review  # already worked out (tests, a second look): no worker
        self.done = 0
        self.total = 0

    def compose(self) -> ComposeResult:
        head = _("Game review")
        if self.title_text:
            head += " · " + self.title_text
        yield Static(Content(head), id="review-title")
        yield Static("", id="review-status", markup=False)
        yield ProgressBar(total=None, show_eta=False, id="review-progress")
        with VerticalScroll(id="review-body"):
            yield Static("", id="review-text")
        yield Footer()

    def on_mount(self) -> None:
        if self.given is not None:
            self._show(self.given)
        else:
            self.running = True
            self.query_one("#review-status", Static).update(_("Valuing the decisions…"))
            self.run_review()

    # -- the worker -----------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="review")
    def run_review(self) -> None:
        worker = get_current_worker()
        done = 0

        def progress(d: int, total: int) -> None:
            nonlocal done
            done = d
            self.post_message(self.Progress(d, total))

        try:
            review = review_game(
                self.state, self.seats, self.budget, progress=progress, cancelled=lambda: worker.is_cancelled
            )
        except Cancelled:
            self.post_message(self.Finished(None, done))
            return
        except Exception as exc:  # a bug: say it in one line rather than end the game's app
            self.post_message(self.Failed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Finished(review, done))

    def on_review_screen_progress(self, message: Progress) -> None:
        self.done, self.total = message.done, message.total
        if not self.running:
            return
        self.query_one("#review-progress", ProgressBar).update(total=max(1, message.total), progress=message.done)
        self.query_one("#review-status", Static).update(
            _("Valuing decision {done} of {total}… (Esc cancels)").format(done=message.done, total=message.total)
        )

    def on_review_screen_finished(self, message: Finished) -> None:
        if message.review is None:
            self._stopped(message.done)
            return
        self.running = False
        self._show(message.review)

    def on_review_screen_failed(self, message: Failed) -> None:
        self.running = False
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review-status", Static).update(
            Content(_("The review failed: {error}").format(error=message.error))
        )

    def _stopped(self, done: int) -> None:
        self.running = False
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review-status", Static).update(
            _("Review cancelled after {done} of {total} decisions.").format(done=done, total=self.total)
        )

    def _show(self, review: Review) -> None:
        self.review = review
        self.query_one("#review-progress", ProgressBar).display = False
        numbers = [str(i) for i in range(1, len(review.highlights) + 1)]
        self.query_one("#review-status", Static).update(
            _("{keys}: the position of a costly decision · q closes").format(keys=", ".join(numbers))
            if numbers else ""
        )
        # the footer's "1 2 3" names the positions there are
        keys = own_bindings(self)
        keys["1"] = [replace(b, key_display=" ".join(numbers) or "1") for b in keys.get("1", [])]
        self.refresh_bindings()
        self.query_one("#review-text", Static).update(_plain(review_lines(review, self.names, self.state.players)))
        self.query_one("#review-body", VerticalScroll).focus()  # ↑ ↓ PageUp PageDown scroll it

    # -- keys -----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.running  # shown (and Esc cancels) only while the review runs; then Esc closes
        if action == "position":
            review = self.review
            if review is None:
                return None if parameters and parameters[0] == 0 else False
            index = parameters[0] if parameters else 0
            if not review.highlights:
                return False  # no costly decision: no position, now or later
            return isinstance(index, int) and index < len(review.highlights) or None
        return True

    def action_cancel(self) -> None:
        if self.running:
            self.workers.cancel_group(self, "review")
            self._stopped(self.done)
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        if self.running:
            self.workers.cancel_group(self, "review")
        self.dismiss(None)

    def action_position(self, index: int) -> None:
        review = self.review
        if review is None or index >= len(review.highlights):
            return
        self.app.push_screen(PositionScreen(review, index, self.names, self.kinds, self.state.players))


class PositionScreen(Screen[None]):
    """One of the costliest decisions: the table as the seat saw it, and why another move was better."""

    AUTO_FOCUS = None

    DEFAULT_CSS = """
    PositionScreen { layers: default tip guard; }
    PositionScreen #position-why { height: auto; max-height: 5; padding: 0 1; background: $boost; }
    """

    BINDINGS = [Binding("q,escape", "close", "Back", id="position-close")]

    board: reactive[Board | None] = reactive(None, repaint=False)

    def __init__(self, review: Review, index: int, names: tuple[str, ...], kinds: tuple[str, ...], players: int) -> None:
        super().__init__()
        self.highlight = review.highlights[index]
        self.rank = index + 1
        self.names = names
        self.kinds = kinds
        self.players = players
        self.viewer = review_viewer(review.seats)

    def compose(self) -> ComposeResult:
        h = self.highlight
        lines = highlight_lines(self.rank, h, self.names, self.viewer, self.players)
        yield Static(_plain(lines[:3]), id="position-why")  # the first fact; the review lists them all
        yield from board_widgets(PositionScreen.board)
        yield FittingFooter(id="footer", compact=True)
        yield SizeGuard(*GAME_SIZE)

    def on_mount(self) -> None:
        h = self.highlight
        # the seat's own view at the decision; nothing else is shown face up
        self.board = build(h.position, self.names, self.kinds, you=self.viewer)
        self.query_one(SizeGuard).check()

    def on_resize(self) -> None:
        self.query_one(SizeGuard).check()

    def action_close(self) -> None:
        self.dismiss(None)

    @property
    def place(self) -> str:
        return decision_place(self.highlight.decision)
