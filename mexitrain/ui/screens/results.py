"""End of a round (everyone's leftover tiles, then the score sheet) and end of the game."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static

from ...i18n import _, ngettext
from ...rules import SeatView, decided_by, standings
from ...text.basics import ordinal, side_name
from ...text.events import end_words, event_line, winners_text
from ...text.names import shorten
from ...text.net import waiting_results_text
from ...text.rules import decided_text
from ...text.seeds import reveal_lines
from ..board import finished_round_view
from ..cells import cells, fit, markup, plain
from ..colours import seat_colour
from ..widgets import ScoreSheet, domino
from ..widgets.footer import FittingFooter


def last_move(view: SeatView, names: tuple[str, ...], viewer: int | None = None) -> str:
    """The round just finished's final move in words, told as the round's title says who
    went out: to ``viewer`` ("you"), else by the players' names ("Bea played 4-6 on the
    Mexican Train"); worded to follow "Last move:" (French: « Dernier coup : vous avez posé… »)."""
    before = finished_round_view(view)
    if before is None:
        return ""
    return event_line(before, names, len(before.events) - 1, viewer=viewer, after_colon=True)


def leftovers_content(view: SeatView, names: tuple[str, ...], width: int = 78) -> Content:
    """Every seat's leftover tiles and points; the names as plain text, padded in cells."""
    res = view.results[-1]
    lines = []
    name_w = max(4, min(12, max(cells(n) for n in names)))
    for seat, hand in enumerate(res.leftovers):
        pts = sum(a + b for a, b in hand)
        score = res.scores[seat]
        head = plain(fit(shorten(names[seat], name_w), name_w), f"b {seat_colour(seat)}")
        if seat == res.out_seat:
            body = "[b $success]" + _("went out — domino!") + "[/]"
        elif not hand:
            body = "[dim]" + _("no tiles") + "[/]"
        else:
            parts, used = [], name_w + 12
            for t in sorted(hand, key=lambda t: (-(t[0] + t[1]), t)):
                w = domino.laid_width(*t) + 1
                if used + w > width:
                    parts.append(f"[dim]+{len(hand) - len(parts)}[/]")
                    break
                parts.append(domino.laid(max(t), min(t)))
                used += w
            body = " ".join(parts)
        note = _("{points} pts").format(points=f"{pts:>3}") if score == pts else f"{pts:>3} → {score}"
        lines.append(head + domino.line_content(f" [b]{note}[/]  {body}"))
    return Content("\n").join(lines)


class RoundOverScreen(Screen[None]):
    """Shown when a round ends, before the next one starts. Enter says the results were
    read (:class:`Seen`, which the app passes to the game's source); at a table on the network
    the screen then stays, saying whom the next round still waits for, until everyone has
    (``waiting_for``, kept current by the app); with nobody to wait for it closes at once."""

    BINDINGS = [Binding("enter,space,escape", "go_on", "Continue", id="round-continue")]

    class Seen(Message):
        """This person has seen the results of round ``number``."""

        def __init__(self, number: int) -> None:
            self.number = number
            super().__init__()

    #: the names of the other people the next round still waits for
    waiting_for: reactive[tuple[str, ...]] = reactive((), init=False)
    seen: reactive[bool] = reactive(False, init=False)

    def __init__(
        self,
        view: SeatView,
        names: tuple[str, ...],
        last: bool,
        viewer: int | None = None,
        *,
        waiting_for: tuple[str, ...] = (),
    ) -> None:
        super().__init__()
        self.view = view
        self.names = names
        self.last = last
        self.viewer = viewer  # the one person at the table, who is "you" (None: names only)
        self.set_reactive(RoundOverScreen.waiting_for, waiting_for)

    def compose(self) -> ComposeResult:
        res = self.view.results[-1]
        how = end_words(res.end, res.out_seat, self.names, self.viewer)
        last = last_move(self.view, self.names, self.viewer)
        with VerticalScroll(id="round-over"):
            yield Label(
                markup(
                    "[b]" + _("Round {number} over").format(number=res.number) + "[/] · "
                    + _("engine {engine}").format(engine=f"{res.engine}-{res.engine}") + " · $how",
                    how=how,
                ),
                id="round-title",
                classes="-with-last" if last else "",
            )
            if last:
                yield Label(plain(_("Last move: {move}").format(move=last), "dim"), id="round-last")
            yield Static(leftovers_content(self.view, self.names), id="leftovers")
            yield Label("[b]" + _("Score sheet") + "[/]", classes="section")
            yield ScoreSheet(self.view, self.names, chrome=4, id="score-sheet")  # padding, scroll bar
            yield Label(
                "[dim]" + (_("Press Enter for the final standings") if self.last else _("Press Enter to deal the next round")) + "[/]",
                id="round-next",
            )
        yield Footer()

    def action_go_on(self) -> None:
        if self.last:
            self.dismiss(None)
        elif not self.seen:
            self.seen = True
            self.post_message(self.Seen(len(self.view.results)))

    def watch_seen(self) -> None:
        self._show_waiting()

    def watch_waiting_for(self) -> None:
        self._show_waiting()

    def _show_waiting(self) -> None:
        if not self.seen:
            return
        if not self.waiting_for:
            self.dismiss(None)
            return
        self.query_one("#round-next", Label).update(plain(waiting_results_text(self.waiting_for) + "…", "dim"))


class GameOverScreen(Screen[str]):
    """Final standings, with the tie-break that decided them; play again or quit. At a table
    on the network Play again asks for a rematch; ``rematch`` says who has accepted so far."""

    #: at a table: who accepted a new game and whom it waits for (set by the app), else ""
    rematch: reactive[str] = reactive("", init=False)

    BINDINGS = [
        Binding("a", "choose('again')", "Play again", id="over-again"),
        Binding("n", "choose('new')", "New game", id="over-new"),
        Binding("r", "review", "Review", tooltip="Value your decisions with the expert's search", id="over-review"),
        # the app's Save as: the finished game, kept to replay or review later (Load… opens it)
        Binding("ctrl+s", "app.save_as", "Save as", tooltip="Save this game under a name", id="over-save"),
        Binding("q,escape", "choose('quit')", "Quit", id="over-quit"),
    ]

    def __init__(
        self,
        view: SeatView,
        names: tuple[str, ...],
        viewer: int | None = None,
        seal: str | None = None,
        *,
        again: bool = True,
        finished: tuple[object, tuple[str, ...]] | None = None,
        rematch: str = "",
    ) -> None:
        """``again``: "Play again" is offered (not at a table on the network, whose game is
        over: New game leaves it); ``finished``: (the full final snapshot, kinds) when this
        app holds every hand of the game, for its review (never a network seat's)."""
        super().__init__()
        self.view = view
        self.names = names
        self.again = again
        self.finished = finished
        self.set_reactive(GameOverScreen.rematch, rematch)
        self.viewer = viewer  # the one person at the table, who is "you"
        #: the seal this table showed from its first deal (the view's own by default)
        self.seal = view.seal if seal is None else seal

    def compose(self) -> ComposeResult:
        view = self.view
        table = standings(view)
        decided = decided_by(view)
        top = [st for st in table if st.place == 1]
        winners = winners_text(self.names, [st.seats for st in top], self.viewer)
        heading = _("Place  Player               Total  at 0  low≠0")
        # The last heading may be words wider than the numbers: they end where it ends.
        low_w = max(5, cells(heading) - 41)
        lines = []
        for st in table:
            name = side_name(self.names, st.seats)
            low = "—" if st.lowest_nonzero is None else str(st.lowest_nonzero)
            style = "b $success" if st.place == 1 else ""
            row = (
                Content(f"{ordinal(st.place):>4}  ")
                + plain(fit(shorten(name, 20), 20), f"{style or 'b'} {seat_colour(st.seats[0])}")
                + Content(f" {st.total:>5}   {st.zero_rounds:>3}   {low:>{low_w}}")
            )
            lines.append(row)
        with Vertical(id="game-over"):
            yield Label("[b]" + _("Game over") + "[/] · " + ngettext("{n} round played", "{n} rounds played", len(view.results)).format(n=len(view.results)))
            yield Label(markup("[b $success]$winners[/] $decided", winners=winners, decided=decided_text(decided)), id="winner")
            yield Static(
                Content("\n").join([plain(heading, "b"), *lines]),
                id="standings",
            )
            with Horizontal(classes="buttons"):
                if self.again:
                    yield Button(_("Play again (a)"), id="again", variant="primary", compact=True)
                yield Button(_("New game… (n)"), id="new", compact=True)
                yield Button(_("Quit (q)"), id="quit", variant="error", compact=True)
            yield Label("", id="rematch")
            with VerticalScroll(id="final-sheet"):
                yield ScoreSheet(view, self.names, chrome=4, id="score-sheet")  # padding, scroll bar
                reveal = reveal_lines(view.revealed_seed, self.seal, view.seed_chosen)
                if reveal:
                    yield Static(Content("\n").join([Content(line) for line in reveal]), id="seed-reveal")
        yield FittingFooter(id="footer", compact=True)  # its keys, the palette's key if room is left

    def watch_rematch(self, text: str) -> None:
        for label in self.query("#rematch"):
            label.update(plain(text, "dim"))
            label.display = bool(text)

    def on_mount(self) -> None:
        self.watch_rematch(self.rematch)
        # the score sheet first, to read and scroll: Enter (the one that played the last tile,
        # or one press too many) must not throw the final sheet away; `a`, or Tab to the
        # button and Enter, plays again
        self.query_one("#final-sheet", VerticalScroll).focus()

    def action_choose(self, choice: str) -> None:
        if choice == "again" and not self.again:
            return
        self.dismiss(choice)

    def _finished_game(self):
        """(the full final snapshot, kinds) of this game when this app holds it, else None:
        the review needs every hand."""
        finished = self.finished
        if finished is None:
            return None
        state, kinds = finished
        if not getattr(state, "over", False) or state.seed != self.view.revealed_seed:
            return None
        return state, tuple(kinds) or ("human",) * state.players

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review":
            return self._finished_game() is not None or None
        if action == "choose" and parameters == ("again",):
            return self.again
        return True

    def action_review(self) -> None:
        from .review import ReviewScreen

        game = self._finished_game()
        if game is not None:
            self.app.push_screen(ReviewScreen(game[0], self.names, game[1]))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")
