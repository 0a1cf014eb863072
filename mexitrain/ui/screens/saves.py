"""Never lose a game: the resume prompt, save as, the load list and the statistics."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, DirectoryTree, Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ...i18n import N_, _, ngettext
from ...storage import SavedGame, SaveInfo, Unfinished, list_saves
from ...storage.inplay import in_play
from ...text.files import in_play_line, nul_path_line
from ...text.visible import visible_lines
from ..cells import markup, plain, printable
from ..fence import Fence, Refused
from ..lang import translate_bindings


def when(moment: datetime | None) -> str:
    """A save's date in local time, short."""
    if moment is None:
        return _("unknown time")
    local = moment.astimezone()
    if local.date() == datetime.now().astimezone().date():
        return _("today {time}").format(time=f"{local:%H:%M}")
    return f"{local:%Y-%m-%d %H:%M}"


def resume_text(game: SavedGame) -> str:
    state = game.state
    return _("Resume your game (round {number} of {total}, saved {when})").format(
        number=state.round, total=state.rules.round_count, when=when(game.saved_at)
    )


def _players(game: SavedGame) -> str:
    return ", ".join(s.name for s in game.setup.seats)


Choice = tuple[str, Unfinished]  # ("resume" or "aside", the autosave)


class ResumeScreen(ModalScreen[Choice | bool | None]):
    """Unfinished games were found (one autosave per game, newest first): resume one,
    move aside one whose last resume crashed, or start a new game (None).

    Given a single :class:`SavedGame` (as before), it answers True (resume) or False."""

    BINDINGS = [
        Binding("r,enter", "answer(True)", "Resume", id="resume-yes"),
        Binding("n,escape", "answer(False)", "New game", id="resume-no"),
    ]

    def __init__(self, games: SavedGame | list[Unfinished], busy: int = 0) -> None:
        super().__init__()
        self.single = isinstance(games, SavedGame)
        if isinstance(games, SavedGame):
            games = [Unfinished(games.path or Path("autosave.json"), game=games)]
        self.entries = [u for u in games if u.game is not None and not u.busy]
        self.busy = busy + sum(1 for u in games if u.busy)
        self.game = self.entries[0].game if self.entries else None

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-box", classes="save-box"):
            title = _("An unfinished game was found") if len(self.entries) <= 1 else _("Unfinished games were found")
            yield Label("[b]" + title + "[/]")
            with Vertical(classes="buttons"):
                for i, u in enumerate(self.entries):
                    game = u.game
                    assert game is not None
                    yield Label(plain(_("Players: {names}").format(names=_players(game))), classes="note")
                    label = resume_text(game)
                    if u.crashed:
                        label = _("{resume} (it crashed when last resumed)").format(resume=label)
                    bid = "resume-yes" if i == 0 else f"resume-{i}"
                    yield Button(plain(label), id=bid, variant="warning" if u.crashed else "success", compact=True)
                    if u.crashed:
                        yield Button(_("Move it aside (kept as a .bad file)"), id=f"aside-{i}", compact=True)
                yield Button(_("New game"), id="resume-no", compact=True)
            if self.busy:
                yield Label(
                    ngettext(
                        "{count} unfinished game is open in another window",
                        "{count} unfinished games are open in another window",
                        self.busy,
                    ).format(count=self.busy),
                    id="resume-busy", classes="note",
                )
            yield Label(_("Enter or r resumes, n starts a new game"), classes="note")
        yield Footer()

    def on_mount(self) -> None:
        first = self.query_one("#aside-0" if self.entries and self.entries[0].crashed else "#resume-yes", Button)
        first.focus()

    def _answer(self, kind: str | None, index: int = 0) -> None:
        if self.single:
            self.dismiss(kind == "resume")
        elif kind is None or not self.entries:
            self.dismiss(None)
        else:
            self.dismiss((kind, self.entries[index]))

    def action_answer(self, value: bool) -> None:
        focused = self.focused
        if value and isinstance(focused, Button) and focused.id:
            self._pressed(focused.id)
            return
        self._answer("resume" if value else None)

    def _pressed(self, bid: str) -> None:
        if bid == "resume-no":
            self._answer(None)
        elif bid == "resume-yes":
            self._answer("resume", 0)
        elif bid.startswith("resume-"):
            self._answer("resume", int(bid.removeprefix("resume-")))
        elif bid.startswith("aside-"):
            self._answer("aside", int(bid.removeprefix("aside-")))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._pressed(event.button.id or "")


class SaveAsScreen(ModalScreen[str | None]):
    """Asks for a name; the app saves (and may ask again to replace an existing save)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="save-cancel")]

    def __init__(self, name: str = "", problem: str = "") -> None:
        super().__init__()
        self.initial = name
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box", classes="save-box"):
            yield Label("[b]" + _("Save game as…") + "[/]")
            yield Input(value=self.initial, placeholder=_("a name, e.g. Sunday game"), max_length=60, id="save-name")
            yield Label(plain(self.problem), id="save-problem", classes="problem")
            yield Label(_("Enter saves, Esc cancels. Load it from the new-game screen (Load…)."), classes="note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#save-problem").display = bool(self.problem)
        self.query_one("#save-name", Input).focus()

    @on(Input.Submitted, "#save-name")
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = event.value.strip()
        if not name:
            problem = self.query_one("#save-problem", Label)
            problem.update(_("Type a name first"))
            problem.display = True
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LoadScreen(ModalScreen[Path | None]):
    """The saved games, newest first; a file that cannot be read is listed with its problem.

    Given ``root`` (the data folder), the dialog opens at once saying "Reading saved games…" and
    lists them from a worker thread (:func:`~mexitrain.storage.list_saves` reads only each
    file's head); given ``saves``, it shows those. A file of a game in progress elsewhere
    (:func:`~mexitrain.storage.inplay.in_play`: a link in ``saves/`` to a running table's
    game) is not listed. Given a ``fence`` (a game served to a web
    page, :mod:`mexitrain.ui.fence`), a save whose file leads outside the data folder (a link
    in ``saves/``) is not listed, and the problems listed tell paths from the data folder."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="load-cancel")]

    def __init__(
        self,
        saves: list[SaveInfo] | None = None,
        title: str = N_("Load a saved game"),
        *,
        root: Path | None = None,
        fence: Fence | None = None,
    ) -> None:
        super().__init__()
        self.saves = saves
        self.root = root
        self.fence = fence
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="load-box", classes="save-box"):
            yield Label(plain(_(self.title_text), "b"))
            yield Label(_("Reading saved games…"), id="load-reading", classes="note")
            yield Label(_("No saved games yet: save one with Ctrl+S during a game."), id="load-empty", classes="note")
            yield OptionList(id="load-list")
            yield Label(_("↑↓ choose, Enter loads, Esc cancels"), classes="note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#load-empty").display = False
        self.query_one("#load-list").display = False
        if self.saves is not None:
            self.show_saves(self.saves)
        elif self.root is not None:
            self._read_saves(self.root)
        else:
            self.show_saves([])

    @property
    def reading(self) -> bool:
        """The listing is not done yet."""
        return self.query_one("#load-reading").display

    @work(thread=True, exclusive=True, group="load-list")
    def _read_saves(self, root: Path) -> None:
        infos = [info for info in list_saves(root) if not in_play(info.path)]
        if not get_current_worker().is_cancelled:
            with contextlib.suppress(RuntimeError):  # the app is closing
                self.app.call_from_thread(self.show_saves, infos)

    def show_saves(self, saves: list[SaveInfo]) -> None:
        if not self.is_mounted:
            return
        if self.fence is not None:
            saves = [s for s in saves if self.fence.inside(s.path)]
        self.saves = saves
        self.query_one("#load-reading").display = False
        if not saves:
            self.query_one("#load-empty").display = True
            return
        options = []
        for i, info in enumerate(saves):
            if info.error:
                error = info.error if self.fence is None else self.fence.shown(info.error)
                text = markup("[b]$name[/]\n  [red]$error[/]", name=info.path.name, error=error)
                options.append(Option(text, id=f"save-{i}", disabled=True))
                continue
            state = _("finished") if info.over else _("round {number} of {total}").format(number=info.round, total=info.rounds)
            players = ", ".join(info.players or ())
            text = markup(
                "[b]$title[/] · $state · $when\n  [dim]$players[/]",
                title=info.title, state=state, when=when(info.saved_at), players=players,
            )
            options.append(Option(text, id=f"save-{i}"))
        listing = self.query_one("#load-list", OptionList)
        listing.clear_options()
        listing.add_options(options)
        listing.action_first()  # Enter alone loads the newest that can be loaded
        listing.display = True
        listing.focus()

    @on(OptionList.OptionSelected, "#load-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = int(str(event.option.id).removeprefix("save-"))
        assert self.saves is not None
        self.dismiss(self.saves[index].path)

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "load-list")
        self.dismiss(None)


class JsonTree(DirectoryTree):
    """The folders and the ``.json`` files under a folder (saved games and game records).
    Backspace shows the folder above. The files and folders of a game in progress elsewhere
    (:func:`~mexitrain.storage.inplay.in_play`: a running table's folder, another window's
    autosave) are not listed. With a ``fence`` (a served game) only what resolves
    into the data folder is listed, and Backspace stops at the data folder."""

    BINDINGS = [Binding("backspace", "parent", "Up a folder", id="file-parent")]

    def __init__(self, path: str | Path, *, fence: Fence | None = None, **kwargs) -> None:
        self.fence = fence  # before DirectoryTree lists anything
        super().__init__(path, **kwargs)

    def on_mount(self) -> None:
        translate_bindings(self)

    def process_label(self, label):
        """A file's name is plain text, never markup (a file may be named "[b]x.json")."""
        return Text(printable(label)) if isinstance(label, str) else label

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [
            p
            for p in paths
            if not p.name.startswith(".")
            and (self.fence is None or self.fence.inside(p))
            and (p.is_dir() or p.suffix.lower() == ".json")
            and not in_play(p)
        ]

    def _folder_above(self) -> Path | None:
        here = Path(self.path).resolve()
        if self.fence is not None and (self.fence.is_top(here) or not self.fence.inside(here)):
            return None  # the data folder is the top
        return None if here.parent == here else here.parent

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "parent" and self._folder_above() is None:
            return None  # at the top of the file system: shown, dimmed
        return True

    def action_parent(self) -> None:
        parent = self._folder_above()
        if parent is not None:
            self.path = parent
            self.refresh_bindings()


class FileScreen(ModalScreen[Path | None]):
    """Open replay…: pick a saved game or a game record in a folder tree, or type its path
    (a folder typed shows that folder's files).

    With a ``fence`` (a game served to a web page, :mod:`mexitrain.ui.fence`) the tree starts
    in the data folder and never goes above it, and a typed path is read from the data folder
    (``value`` too): one outside it is refused with one line under the path box. So are a
    path with a NUL character, and the file of a game in progress elsewhere
    (:func:`~mexitrain.storage.inplay.in_play`), fenced or not."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="file-cancel")]

    def __init__(self, title: str, value: str = "", *, fence: Fence | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.fence = fence

    def _folder(self) -> Path:
        if self.fence is not None:
            return self._fenced_folder(self.fence)
        path = Path(self.value).expanduser()
        while not path.is_dir() and path != path.parent:
            path = path.parent
        return path if path.is_dir() else Path.home()

    def _fenced_folder(self, fence: Fence) -> Path:
        """The folder of ``value`` if it is in the data folder, else the data folder (made
        if it is not there yet: the tree never shows another)."""
        try:
            path = fence.typed(self.value)
        except Refused:
            path = fence.root
        while not path.is_dir() and path != fence.root:
            path = path.parent
        if path == fence.root:
            with contextlib.suppress(OSError):
                path.mkdir(parents=True, exist_ok=True)
        return path

    def compose(self) -> ComposeResult:
        with Vertical(id="file-box", classes="save-box"):
            yield Label(plain(self.title_text, "b"))
            yield Input(value=self.value, placeholder=_("path of a saved game or game record (.json)"), id="file-path")
            yield Label("", id="file-problem", classes="problem")
            yield JsonTree(self._folder(), fence=self.fence, id="file-tree")
            yield Label(
                _("Enter opens the file typed or chosen; a folder typed shows its files; Backspace in the list goes up a folder; Tab moves between the path and the list; Esc cancels."),
                classes="note",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#file-problem").display = False
        self.query_one("#file-path", Input).focus()

    def refuse(self, line: str) -> None:
        """Say under the path box why a path is not opened (the dialog stays)."""
        problem = self.query_one("#file-problem", Label)
        problem.update(plain(line))
        problem.display = True

    @property
    def problem(self) -> str:
        """The refusal shown under the path box ("" when none)."""
        label = self.query_one("#file-problem", Label)
        return str(label.render()) if label.display else ""

    @on(Input.Submitted, "#file-path")
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            return
        if "\0" in text:  # no file is named so (and the system would refuse the path)
            self.refuse(nul_path_line(text))
            return
        if self.fence is not None:
            try:
                path = self.fence.typed(text)
            except Refused as refused:
                self.refuse(str(refused))
                return
        else:
            path = Path(text).expanduser()
        if in_play(path):
            self.refuse(in_play_line(text))
            return
        self.query_one("#file-problem").display = False
        if path.is_dir():  # show that folder's files
            tree = self.query_one("#file-tree", JsonTree)
            tree.path = path
            tree.focus()
            return
        self.dismiss(path)

    @on(DirectoryTree.FileSelected, "#file-tree")
    def picked(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        if self.fence is not None and not self.fence.inside(event.path):
            self.refuse(self.fence.refusal(Path(event.path).name))
            return
        if in_play(event.path):  # its game started since the folder was listed
            self.refuse(in_play_line(Path(event.path).name))
            return
        self.dismiss(event.path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class StatsScreen(ModalScreen[None]):
    """``format_stats(load_stats(root))``, or the problem with the statistics file."""

    BINDINGS = [Binding("escape,q,enter", "close", "Close", id="stats-close")]

    def __init__(self, text: str, problem: str | None = None) -> None:
        super().__init__()
        self.text = text
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box", classes="save-box"):
            yield Label("[b]" + _("Statistics") + "[/] · " + _("finished games, lowest total wins"))
            if self.problem:
                yield Label(plain(self.problem), id="stats-problem", classes="problem")
            with VerticalScroll(id="stats-scroll"):
                yield Static(Content(visible_lines(self.text)), id="stats-text")  # plain(): a ␊ each
            yield Label(_("Esc closes"), classes="note")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
