"""The game in French: the move log, an illegal move's reason, the keys, no English word on
screen, the language chosen on the new-game form, and snapshots at 80x24."""

from __future__ import annotations

import re

import pytest
from support.pilot import board, game_app, human_move, play_until_screen_changes, settle, wait_for
from support.tables import table
from textual.app import App
from textual.widgets import Select

from mexitrain.i18n import language, set_language
from mexitrain.rules import RuleSet
from mexitrain.storage import settings
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.board import canon
from mexitrain.ui.screens import GameScreen, NewGameScreen, RoundOverScreen, ScoreScreen
from mexitrain.ui.textual_compat import notices, own_bindings
from mexitrain.ui.widgets.hand import HandTray
from mexitrain.ui.widgets.log import log_lines

from .test_snapshots import _settle, _until, quiet

#: English words that must not appear on a French game screen (whole words, any case).
ENGLISH = (
    "your turn", "you", "your", "boneyard", "bone", "place", "draw", "drew", "played", "tile",
    "tiles", "hand", "round", "engine", "quit", "help", "scores", "undo", "sort", "tip", "skip",
    "end turn", "marker", "passed", "pick", "then", "fits", "open", "branch", "not started",
    "mexican", "knock", "the", "and", "flips", "extras", "stats",
)


#: Player names that are not English words ("You" would be).
NAMES = ("Zoé", "Bea", "Cal", "Dot")


def screen_text(app) -> str:
    """Every character on screen (the SVG's text), player names included."""
    svg = app.export_screenshot()
    text = re.sub(r"<[^>]+>", " ", svg.split("</style>", 1)[-1])
    return re.sub(r"&#160;|&nbsp;", " ", text).replace("&#x27;", "'")


def english_words(text: str, names=("Zoé", "Bea", "Cal", "Dot", "Ann")) -> list[str]:
    for name in names:
        text = text.replace(name, " ")
    text = text.replace("Train Mexicain", " ")  # French, though it holds "Train"
    return [w for w in ENGLISH if re.search(rf"(?<![\w'’-]){re.escape(w)}(?![\w'’-])", text, re.I)]


def test_the_word_finder_sees_english():
    assert english_words("Your turn: pick a tile · boneyard 12") == ["your turn", "your", "boneyard", "tile", "pick"]
    assert english_words("À vous : choisissez un domino · pioche 12 · Train Mexicain") == []


async def test_french_moves_log_and_keys():
    set_language("fr")
    app = game_app(table(RuleSet(set=6, rounds=1), seed=3, kinds=("human", "random", "random")))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(3):
            if not isinstance(app.screen, GameScreen):
                break
            await human_move(pilot)
        lines = "\n".join(log_lines(board(app)))
        assert "Manche 1 sur 1" in lines
        assert re.search(r"(a posé|avez posé|a pioché|avez pioché)", lines), lines
        assert " played " not in lines and " drew " not in lines
        # the keys at the bottom are French
        descriptions = {ab.binding.description for ab in app.screen.active_bindings.values() if ab.binding.show}
        assert "Quitter" in descriptions and "Quit" not in descriptions
        hidden = {b.description for bs in own_bindings(app.screen).values() for b in bs}
        assert "Train de la place 2" in hidden and "Train Mexicain" in hidden
        assert app.title == "Train Mexicain"


async def test_french_illegal_move_reason():
    set_language("fr")
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        b = board(app)
        bad = next(canon(t) for t in b.tray if canon(t) not in b.playable)
        while board(app).selected != bad:
            await pilot.press("right")
        before = app.snapshot
        await pilot.press("1", "enter")
        await pilot.pause()
        assert app.snapshot is before
        notes = [n for n in notices(app) if n.severity == "warning"]
        assert notes and notes[-1].title == "Interdit"
        message = notes[-1].message
        assert "does not fit" not in message
        assert re.search(r"\bne\b.*\bpas\b", message), message


async def test_no_tuile_on_the_french_game_screen():
    """The French leaflet's pieces are *dominos*: the game screen (hand header, status, keys,
    log) never says *tuile*, before and after a few moves."""
    set_language("fr")
    setup = table(RuleSet(set=9, rounds=3), seed=11, kinds=("human", "random", "random", "random"), names=NAMES)
    app = MexitrainApp(setup, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "tuile" not in screen_text(app).lower()
        for _ in range(3):
            if not isinstance(app.screen, GameScreen):
                break
            await human_move(pilot)
        quiet(pilot)
        await pilot.pause()
        text = screen_text(app)
        assert "domino" in text.lower() and "tuile" not in text.lower()
        tray = app.screen.query_one(HandTray)
        assert tray.header_content().cell_length <= tray.size.width, tray.header()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_french_hand_header_fits_one_line_at_80_columns(lang):
    """Your hand, 15 dominos, the plan (or none, or the plain sort) and the blanks-wild flip
    key: at most 78 cells, the tray's width at 80 columns. The plan says what its number
    counts (issue #34: "plan from ▸1: 10, then extras")."""
    from mexitrain.i18n import _, ngettext
    from mexitrain.text.basics import tile_count
    from mexitrain.ui.cells import markup

    set_language(lang)
    start = f"[b]{_('Your hand')}[/] · {tile_count(15)} · "
    flip = " · " + _("[b $warning]f[/] flips it")
    plan = ngettext(
        "[b]plan[/] ▸{end}: {count} tile in a row, then extras",
        "[b]plan[/] ▸{end}: {count} tiles in a row, then extras",
        14,
    ).format(end=12, count=14)
    assert ("14 tiles in a row" if lang == "en" else "14 dominos") in plan
    for middle in (
        plan,
        _("no plan from ▸{end} yet: all extras").format(end=12),
        _("plain sort [dim](o: plan first)[/]"),
    ):
        line = markup(start + middle + flip)
        assert line.cell_length <= 78, line.plain


async def test_no_english_on_the_french_game_screen():
    set_language("fr")
    setup = table(RuleSet(set=9, rounds=3), seed=11, kinds=("human", "random", "random", "random"), names=NAMES)
    app = MexitrainApp(setup, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(4):
            if not isinstance(app.screen, GameScreen):
                break
            await human_move(pilot)
        quiet(pilot)
        await pilot.pause()
        text = screen_text(app)
        assert "Domino" in text or "domino" in text
        assert english_words(text) == []
        await pilot.press("s")
        await _until(pilot, ScoreScreen)
        text = screen_text(app)
        assert "Feuille de marque" in text
        assert english_words(text) == []


async def test_language_select_switches_and_saves(tmp_path):
    app = MexitrainApp(None, speed=0, seed=1, data_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#players", Select).value = 3
        await pilot.pause()
        screen.query_one("#language", Select).value = "fr"
        await wait_for(
            pilot,
            lambda: settings.saved_language(tmp_path) == "fr" and "Nouvelle partie" in screen_text(app),
            "the form in French and the choice saved",
        )
        assert language() == "fr"
        assert settings.saved_language(tmp_path) == "fr"
        text = screen_text(app)
        assert "Nouvelle partie" in text and "Langue" in text
        assert "New game" not in text
        assert screen.query_one("#players", Select).value == 3
        assert screen.query_one("#name-0").value == "Vous"  # the default name follows the language
        assert screen.setup is not None and len(screen.setup.seats) == 3
        assert "Prêt" in screen.query_one("#verdict").render().plain
        screen.query_one("#language", Select).value = "en"
        await wait_for(
            pilot,
            lambda: settings.saved_language(tmp_path) == "en" and "New game" in screen_text(app),
            "the form in English and the choice saved",
        )
        assert language() == "en"
        assert "New game" in screen_text(app)
        assert settings.saved_language(tmp_path) == "en"


def _french_game_app() -> MexitrainApp:
    set_language("fr")
    setup = table(RuleSet(set=9, rounds=3), seed=11, kinds=("human", "random", "random", "random"), names=NAMES)
    return MexitrainApp(setup, speed=0)


async def _french_few_moves(pilot) -> None:
    await _settle(pilot)
    for _ in range(3):
        b = pilot.app.game_screen.board
        await pilot.press("enter" if b.plays else ("d" if b.can("draw") else "m"))
        await _settle(pilot)
    await pilot.press("right")
    await pilot.pause()
    quiet(pilot)


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24")])
def test_french_game_screen(snap_compare, size):
    assert snap_compare(_french_game_app(), terminal_size=size, run_before=_french_few_moves)


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24")])
def test_french_score_sheet(snap_compare, size):
    set_language("fr")
    setup = table(
        RuleSet(set=6, rounds=2), seed=5, kinds=("random", "random", "random"), names=("Ann", "Bea", "Cal")
    )

    async def run_before(pilot):
        await _until(pilot, RoundOverScreen)
        await pilot.press("s")
        await _until(pilot, ScoreScreen)

    assert snap_compare(MexitrainApp(setup, speed=0), terminal_size=size, run_before=run_before)


def test_undo_words_follow_the_rules_and_are_french():
    from mexitrain.rules import apply, legal_actions, new_game
    from mexitrain.rules.undo import UndoRefused, undo_answer, undo_plan
    from mexitrain.text.refusals import undo_text

    def possible(state, seat, humans):
        try:
            undo_plan(state, seat, humans)
        except UndoRefused:
            return False
        return True

    state = new_game(RuleSet(set=6, rounds=1), players=2, seed=3)
    assert undo_text(undo_answer(state, 0, humans=(0,))) == (False, "nothing to undo yet")
    for _ in range(12):
        if state.over:
            break
        state = apply(state, legal_actions(state)[0])
        for seat in (0, 1):
            ok, text = undo_text(undo_answer(state, seat, humans=(0, 1)))
            assert ok == possible(state, seat, (0, 1)) and text.startswith("undo your ") == ok
    set_language("fr")
    for seat in (0, 1):
        text = undo_text(undo_answer(state, seat, humans=(0, 1)))[1]
        assert not re.search(r"\b(undo|your|nothing|since|moved)\b", text), text


async def test_french_command_palette():
    set_language("fr")
    app = game_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Nouvelle partie", "Feuille de marque", "Quitter", "Thème"} <= titles
        assert not titles & {"New game", "Score sheet", "Quit", "Keys", "Theme"}
        await pilot.press("ctrl+p")
        from textual.command import CommandInput, CommandPalette

        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette opens")
        assert app.screen.query_one(CommandInput).placeholder == "Chercher une commande…"


async def _palette_text(pilot, app, needle: str = "") -> str:
    """The screen's text once ``needle`` shows (the palette fills in after a short delay)."""
    await wait_for(pilot, lambda: needle in screen_text(app), f"{needle!r} shows")
    return screen_text(app)


async def test_french_palette_has_no_textual_english():
    """Textual's own texts in the palette: its commands, "No matches found", the theme list and
    its search box; Keys opens our help (Textual's Keys panel lists its widgets' keys in English)."""
    from textual.widgets import HelpPanel

    from mexitrain.ui.screens import HelpScreen

    set_language("fr")
    app = game_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        helps = {c.help for c in app.get_system_commands(app.screen)}
        textual_english = {"Theme", "Quit", "Keys", "Screenshot", "Maximize", "Minimize"}
        assert not titles & textual_english
        assert not any(re.search(r"\b(the|current|focused|widget|keys|save|change)\b", h, re.I) for h in helps), helps
        await pilot.press("ctrl+p")
        text = await _palette_text(pilot, app, "hercher une commande")
        assert "hercher une commande" in text and "Search" not in text  # (C: the cursor)
        await pilot.press(*"zzzqqq")
        text = await _palette_text(pilot, app, "Aucun résultat")
        assert "Aucun résultat" in text and "No matches" not in text
        await pilot.press("escape")
        app.search_themes()
        text = await _palette_text(pilot, app, "atom-one (sombre)")
        assert "hercher un thème" in text and "Search for themes" not in text
        assert "atom-one (sombre)" in text and "ansi (clair)" in text
        assert not re.search(r"-(dark|light)\b", text), text
        # choosing a translated label sets the real theme
        await pilot.press(*"solarized (clair)", "enter")
        await wait_for(pilot, lambda: app.theme == "solarized-light", "the theme is chosen")
        # Textual's Keys panel is replaced by our help screen
        app.action_show_help_panel()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert not app.screen.query(HelpPanel)


def test_theme_labels_keep_english_names():
    from mexitrain.ui.command_palette import theme_label

    assert theme_label("atom-one-dark") == "atom-one-dark"
    assert theme_label("dracula") == "dracula"
    set_language("fr")
    assert theme_label("rose-pine-dawn") == "rose-pine (aube)"
    assert theme_label("tokyo-night") == "tokyo (nuit)"
    assert theme_label("catppuccin-latte") == "catppuccin-latte"


async def test_french_screenshot_and_ctrl_c_notices():
    from textual import events

    set_language("fr")
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.post_message(events.DeliveryComplete(key="k", path=None, name="screenshot"))
        app.post_message(events.DeliveryFailed(key="k", exception=OSError("disk"), name="screenshot"))
        app.action_help_quit()
        await wait_for(pilot, lambda: len(notices(app)) >= 3, "three notices")
        said = [(n.title, n.message) for n in notices(app)]
        assert ("Capture d'écran", "Capture d'écran enregistrée") in said
        assert ("Capture d'écran", "La capture d'écran n'a pas pu être enregistrée") in said
        assert ("Vous voulez quitter ?", "Appuyez sur [b]Ctrl+Q[/b] pour quitter") in said
        assert not any(re.search(r"screenshot|quit\b", f"{t} {m}", re.I) for t, m in said), said


def test_statistics_table_in_french():
    from mexitrain.storage.stats import PlayerStats, Stats, Tally
    from mexitrain.text.stats import format_stats

    set_language("fr")
    assert format_stats(Stats()) == "Aucune partie terminée pour le moment."
    t = Tally(games=2, wins=1, total_sum=45, best_total=20, rounds=6, rounds_out=2)
    stats = Stats(players={"Zoé": PlayerStats(overall=t, by_level={"random": t}, by_preset={"custom": t})})
    text = format_stats(stats)
    assert "parties" in text and "toutes parties" in text and "contre hasard" in text
    assert "règles maison" in text and "custom" not in text  # the preset's name is not a French word
    big = Tally(games=120, wins=50, total_sum=4550, best_total=120, rounds=600, rounds_out=120)
    levels = {lv: big for lv in ("random", "greedy", "planner", "expert", "people")}
    presets = {p: big for p in ("standard", "fast", "common", "custom")}
    wide = format_stats(Stats(players={"Zoé": PlayerStats(overall=big, by_level=levels, by_preset=presets)}))
    assert max(len(line) for line in wide.split("\n")) <= 74, wide  # the statistics box at 80 columns
    assert "22,5" in text and "2 sur 6" in text
    assert not re.search(r"\b(games|wins|rounds|all|vs|of)\b", text), text


def test_tips_in_french():
    from mexitrain.players.hint import hint
    from mexitrain.rules import apply, legal_actions, new_game, view

    set_language("fr")
    state = new_game(RuleSet(set=9, rounds=1), players=3, seed=4)
    seen = 0
    for _ in range(40):
        if state.over:
            break
        _action, why = hint(view(state, state.turn), time_limit=0)
        assert not re.search(r"\b(plays|sheds|your|nothing|keeps|starts|draw)\b", why), why
        seen += 1
        state = apply(state, legal_actions(state)[0])
    assert seen > 5


async def test_new_game_form_says_a_pydantic_refusal_in_french(monkeypatch):
    """A value the rules' model refuses without a RuleSetError (rare on the form): the verdict
    says it from the error's type, in French, never in pydantic's English."""
    from textual.widgets import Button, Static

    from mexitrain.ui.screens import new_game

    set_language("fr")
    app = MexitrainApp(None, speed=0, seed=4242)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)

        def refusing(**values):
            if "first_seat" in values:  # the form's full rule set, not its probes
                values = {**values, "hand_size": 0}
            return RuleSet(**values)

        monkeypatch.setattr(new_game, "RuleSet", refusing)
        screen.validate()
        await pilot.pause()
        text = screen.query_one("#verdict", Static).render().plain
        assert "Impossible de commencer" in text, text
        assert "l'option hand_size doit valoir au moins 1, pas 0" in text, text
        assert "greater than" not in text and "Input should" not in text
        assert screen.query_one("#start", Button).disabled


class _SheetApp(App):
    """Just the score-sheet popup over an empty screen, with the game's stylesheet."""

    CSS_PATH = MexitrainApp.CSS_PATH

    def __init__(self, seat_view, names) -> None:
        super().__init__()
        self.seat_view, self.names = seat_view, names

    def on_mount(self) -> None:
        self.push_screen(ScoreScreen(self.seat_view, self.names))


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_score_sheet_popup_fits_80x24_with_2_to_8_players(lang):
    """The popup's rows are whole at 80 columns, the current round's tail included, in both
    languages: columns narrow as players are added (running totals go last)."""
    import random

    from mexitrain.rules import apply, legal_actions, new_game, view

    set_language(lang)
    tail = {"en": "◀ now", "fr": "◀ en cours"}[lang]
    names = ("Zoé", "Bernadette", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal")
    for n in range(2, 9):
        state = new_game(RuleSet(), players=n, seed=n)
        rng = random.Random(n)
        while len(state.results) < 2:
            state = apply(state, rng.choice(legal_actions(state)))
        app = _SheetApp(view(state, 0), names[:n])
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            scroll = app.screen.query_one("#scores-scroll")
            assert scroll.max_scroll_x == 0, (n, lang)  # nothing hidden to the right
            text = screen_text(app)
            row = next(line for line in text.split("\n") if tail.split()[-1] in line)
            assert tail in " ".join(row.split()), (n, lang, row)
            header = next(line for line in text.split("\n") if "Zoé" in line)
            for name in names[:n]:  # whole, or cut with "…" (at the narrowest, 4 letters)
                assert name in header or re.search(rf"{name[:4]}\w*…", header), (n, lang, header)
            if n <= 4 or (lang == "en" and n == 5):
                assert "(" in text  # room for the running totals


def test_key_names_in_the_footer_follow_the_language():
    from textual.binding import Binding

    from mexitrain.ui.command_palette import key_label

    app = MexitrainApp(None, speed=0)
    assert app.get_key_display(Binding("escape", "x")) == "esc"
    assert app.get_key_display(Binding("home", "x", key_display="Home/End")) == "Home/End"
    set_language("fr")
    assert app.get_key_display(Binding("escape", "x")) == "Échap"
    assert app.get_key_display(Binding("space", "x")) == "Espace"
    assert app.get_key_display(Binding("home", "x", key_display="Home/End")) == "Début/Fin"
    assert app.get_key_display(Binding("pageup", "x", key_display="PgUp/Dn")) == "PgPréc/Suiv"
    assert app.get_key_display(Binding("ctrl+p", "x")) == "^p"
    assert key_label("shift+tab") == "Maj+Tab"


async def test_save_load_and_resume_dialogs_in_french(tmp_path):
    """The typed-in boxes' hints and the resume prompt's keys are French."""
    from textual.widgets import Input

    from mexitrain.ui.screens.saves import FileScreen, SaveAsScreen

    set_language("fr")
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(SaveAsScreen())
        await pilot.pause()
        assert app.screen.query_one("#save-name", Input).placeholder == "un nom, par exemple partie du dimanche"
        note = screen_text(app)
        assert "nouvelle partie (Charger…)" in " ".join(note.split())  # the note wraps, whole
        app.pop_screen()
        await app.push_screen(FileScreen("Ouvrir un rejeu…"))
        await pilot.pause()
        placeholder = app.screen.query_one("#file-path", Input).placeholder
        assert placeholder.startswith("chemin d'une partie enregistrée")
        assert not english_words(screen_text(app), names=("You", "Bea"))  # the table's names


async def test_language_that_cannot_be_saved_is_said_in_the_new_language(tmp_path, monkeypatch):
    def refuse(root, **changes):
        raise PermissionError(13, "Permission denied", str(tmp_path / "settings.json"))

    monkeypatch.setattr(settings, "save", refuse)
    app = MexitrainApp(None, speed=0, seed=1, data_dir=tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#language", Select).value = "fr"
        await wait_for(
            pilot,
            lambda: notices(app) and "Nouvelle partie" in screen_text(app),
            "the notice, and the form rebuilt in French",
        )
        assert language() == "fr"  # switched for now, though not saved
        said = [(n.title, n.message) for n in notices(app)]
        assert ("La langue n'a pas pu être enregistrée", f"{tmp_path / 'settings.json'} : permission refusée") in said


async def test_a_failing_computer_player_is_reported_in_french(monkeypatch):
    from mexitrain import session

    class Broken:
        def choose(self, seat_view):
            raise RuntimeError("boom in English")

    monkeypatch.setattr(session, "make_player", lambda *a, **k: Broken())
    set_language("fr")
    app = game_app(table(RuleSet(set=6, rounds=1), seed=3, kinds=("human", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(6):  # until the computer player has had a turn
            if notices(app):
                break
            await human_move(pilot)
            await settle(pilot)
        said = [(n.title, n.message) for n in notices(app)]
        assert said, "no notice"
        title, message = said[0]
        assert title == "Erreur du joueur de l'ordinateur"
        assert message.endswith("a échoué ; il joue à la place le premier coup permis"), message
        assert "boom" not in message


async def test_a_tip_that_fails_is_said_in_french(monkeypatch):
    from mexitrain.ui.screens import game as game_module

    def broken(*args, **kwargs):
        raise RuntimeError("search blew up")

    monkeypatch.setattr(game_module, "_hint", broken)
    set_language("fr")
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_for(
            pilot, lambda: any(n.severity == "warning" for n in notices(app)), "a warning"
        )
        said = [(n.title, n.message) for n in notices(app) if n.severity == "warning"]
        assert said == [("Idée", "Pas d'idée cette fois")], said


async def test_the_hub_names_the_mexican_train_in_full_at_80_columns():
    # docs/rules.md §4: the Mexican Train; below the station its label has the hub's width
    from mexitrain.ui.widgets import StationHub

    set_language("fr")
    app = game_app(table(RuleSet(), seed=5, kinds=("human", "random", "random", "random"), names=NAMES))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        hub = str(app.screen.query_one(StationHub).render())
        assert "0 Mexicain" in hub and "Mexica." not in hub, hub


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_every_game_key_fits_the_footer_at_80_columns(lang):
    # the palette's key (in the help panel too) gives way when the game's keys need the room
    from mexitrain.ui.widgets.footer import FittingFooter

    set_language(lang)
    app = game_app(table(RuleSet(), seed=5, kinds=("human", "random", "random", "random"), names=NAMES))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause()
        footer = app.screen.query_one(FittingFooter)
        assert footer.max_scroll_x == 0  # nothing cut off
        bottom = screen_text(app).splitlines()
        text = re.sub(r"\s+", " ", " ".join(line for line in bottom if "Scores" in line or "Marque" in line))
        assert ("s Marque" if lang == "fr" else "s Scores") in text, text
        palette = "palette" in text
        assert palette == (lang == "en")  # English has room for it at 80 columns, French not
    app = game_app(table(RuleSet(), seed=5, kinds=("human", "random", "random", "random"), names=NAMES))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.pause()
        assert app.screen.query_one(FittingFooter).query(".-command-palette")  # room for all


async def test_round_over_addresses_the_one_person_at_the_table():
    """With one person at the table, the round's end says what *they* did in the second person
    ("Vous avez fait domino", not "Vous a fait domino" as of a seat named "Vous"), §7."""
    set_language("fr")
    app = game_app(table(RuleSet(set=6, rounds=2), seed=1, kinds=("human", "random"), names=("Vous", "Bea")))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_screen_changes(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        result = app.snapshot.results[0]
        title = str(app.screen.query_one("#round-title").render())
        last = str(app.screen.query_one("#round-last").render())
        assert "Vous a " not in title + last
        assert result.out_seat == 0 and result.events[-1].seat == 0  # the person went out
        assert "Vous avez fait domino" in title
        assert last.startswith("Dernier coup : vous avez posé")  # lower case after the colon
