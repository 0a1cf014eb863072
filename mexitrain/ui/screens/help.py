"""Help (? or F1): the keys and the rules in a player's words, with the options in force."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from ...i18n import N_, _
from ...rules import RuleSet
from ...text.rules import rules_choices, rules_summary

KEYS: tuple[tuple[str, str], ...] = (
    (N_("← → or h l"), N_("select a tile in your hand (or click it)")),
    (N_("↑ ↓ or k j"), N_("select a train; the trains the tile fits are marked ◀")),
    ("1 … 9", N_("select that seat's train (again: its next branch)")),
    (N_("0 or x"), N_("select the Mexican Train")),
    (N_("Enter"), N_("play the selected tile there (or click the train)")),
    ("d", N_("draw a tile: only when nothing fits")),
    ("m", N_("end your turn: marker or pass, when the rules allow")),
    ("g", N_("swan drive: skip the Mexican Train")),
    ("f", N_("blanks wild: flip which half goes against the end")),
    ("o", N_("sort your hand: planned train first, or plain")),
    (N_("n or t"), N_("a tip: the move a good player would make")),
    ("s", N_("the score sheet")),
    ("u", N_("undo your last decision (never past a tile you drew)")),
    ("Ctrl+S", N_("save the game under a name")),
    (N_("? or F1"), N_("this help")),
    ("Ctrl+P", N_("commands: new game, scores, save, load, replay, statistics, rules, theme")),
    ("q", N_("quit (asks first)")),
)

KEYS_NOTE = N_(
    "Keys that cannot do anything right now are hidden from the bar at the bottom. "
    "When the rules leave you a single move with no choice (your drawn tile does not fit, "
    "so your marker goes down), it is made for you and the move log says so."
)

RULES: tuple[str, ...] = (
    N_(
        "Every train starts at the [b]station[/], from the [b]engine[/] double. Round 1 uses "
        "the set's highest double, each later round the next one down."
    ),
    N_(
        "On your turn you [b]must[/] play one tile if one fits: on [b]your own train[/], on the "
        "[b]Mexican Train[/] (anyone may start it and play on it), or on any train with a "
        "[b]marker[/] ⚑. A tile fits when one half matches the open end ▸."
    ),
    N_(
        "If nothing fits, [b]draw[/] one tile. If it fits, play it; if not, your [b]marker[/] "
        "goes on your train: it is public until you play on it again."
    ),
    N_(
        "After a [b]double[/] you play again, a non-double. A double left unsatisfied is an "
        "[b]open double[/]: the next players must satisfy it before anything else."
    ),
    N_(
        "When someone is down to [b]one tile[/], everyone is told: the [b]knock[/]."
    ),
    N_(
        "The round ends when someone plays their last tile ([b]domino[/]), or must draw from an "
        "empty boneyard. Everyone scores the pips left in their hand."
    ),
    N_(
        "[b]Lowest total wins.[/] Ties go to the most rounds scored 0, then the lowest non-zero round."
    ),
)


def help_rows(rules: RuleSet | None, players: int | None) -> list[tuple[str, str, str]]:
    """The help, row by row: ``(kind, left, markup)`` with kind ``heading``, ``key`` (left:
    the key), ``note`` or ``bullet``."""
    rows = [("heading", "", _("Keys"))]
    rows += [("key", _(k), escape(_(text))) for k, text in KEYS]
    rows += [("note", "", escape(_(KEYS_NOTE))), ("heading", "", _("The game in a nutshell"))]
    rows += [("bullet", "", _(text)) for text in RULES]
    if rules is not None and players is not None:
        rows += [("heading", "", _("This game's rules"))]
        rows += [("bullet", "", escape(line)) for line in rules_summary(rules, players)]
        rows += [("heading", "", _("Where the rules are silent"))]
        rows += [("bullet", "", escape(line)) for line in rules_choices(rules, players)]
    return rows


def help_widgets(rules: RuleSet | None, players: int | None) -> ComposeResult:
    """Each key and each point on a row of its own, its text wrapping under itself (a
    hanging indent), not back under the key or the bullet."""
    rows = help_rows(rules, players)
    width = max(len(left) for kind, left, _text in rows if kind == "key") + 4  # 2 before, 2 after
    for kind, left, text in rows:
        if kind in ("heading", "note"):
            yield Static(Content.from_markup(text), classes=f"help-{kind}")
            continue
        with Horizontal(classes="help-row"):
            side = Static(left if kind == "key" else "•", classes=f"help-{kind}")
            side.styles.width = width if kind == "key" else 4
            yield side
            yield Static(Content.from_markup(text), classes="help-para")


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close help", id="help-close")]

    def __init__(self, rules: RuleSet | None = None, players: int | None = None, *, note: str | None = None) -> None:
        """The keys and the rules in force; ``note`` first (what this kind of game does not
        do: a table on the network), as plain text."""
        super().__init__()
        self.rules = rules
        self.players = players
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Label("[b]" + _("Mexican Train — help") + "[/]  [dim]" + _("(Esc closes, ↑↓ scroll)") + "[/]")
            with VerticalScroll(id="help-scroll"):
                if self.note:
                    yield Static(self.note, classes="help-note", markup=False)
                yield from help_widgets(self.rules, self.players)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
