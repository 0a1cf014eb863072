"""French typography on screen: a wrapped line never starts with ':' or ends with '«'.

The French texts put a space before ``: ; ! ? »`` and after ``«``; the UI's wrap never breaks
a line there, nor at a no-break space (mexitrain/ui/typography.py).
"""

from __future__ import annotations

import html
import re

import pytest
import rich
from rich.text import Text
from support.pilot import settle
from support.tables import table
from textual.content import Content

from mexitrain.i18n import set_language
from mexitrain.ui import typography
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.textual_compat import set_wrap_patterns, wrap_offsets, wrap_patterns

SENTENCE = "Le train de Bea est ouvert : jouez-y donc ! « vite » ; le\u00a012 ? oui"


@pytest.fixture
def installed():
    typography.install()
    yield


def test_the_app_installs_the_wrap():
    set_wrap_patterns(re.compile(r"\s*\S+\s*"), re.compile(r"\S+\s*|\s+"))
    MexitrainApp(table(), speed=0)
    assert wrap_patterns() == (typography.RICH_WORD, typography.TEXTUAL_CHUNK)
    rich_word, textual_chunk = wrap_patterns()
    assert rich_word is typography.RICH_WORD and textual_chunk is typography.TEXTUAL_CHUNK


SIGNS = (":", ";", "!", "?", "»")


def _check(lines: list[str], width: int) -> None:
    assert "".join(lines).replace(" ", "") == SENTENCE.replace(" ", "")  # nothing lost
    for line in lines:
        assert not line.lstrip().startswith(SIGNS), (width, lines)  # no sign opens a line
        assert not line.rstrip().endswith("«"), (width, lines)  # and « closes none
        assert not line.startswith("12"), (width, lines)  # nor does a no-break space break


@pytest.mark.parametrize("width", range(10, len(SENTENCE) + 1))
def test_content_never_breaks_before_a_sign_or_after_a_guillemet(installed, width):
    _check([line.plain for line in Content(SENTENCE).wrap(width)], width)


@pytest.mark.parametrize("width", range(10, len(SENTENCE) + 1))
def test_rich_text_and_textual_wrap_keep_it_too(installed, width):
    _check([line.plain for line in Text(SENTENCE).wrap(rich.get_console(), width)], width)
    offsets = wrap_offsets(SENTENCE, width, 4)
    _check([SENTENCE[a:b] for a, b in zip([0, *offsets], [*offsets, len(SENTENCE)], strict=True)], width)


def test_breaking_still_happens_at_ordinary_spaces(installed):
    lines = [line.plain.rstrip() for line in Content("un deux trois quatre").wrap(10)]
    assert lines == ["un deux", "trois", "quatre"]
    english = "Last move: Ann played 4-6 on the Mexican Train"  # no space before the colon
    assert [line.plain.rstrip() for line in Content(english).wrap(12)] == [
        "Last move:", "Ann played", "4-6 on the", "Mexican", "Train",
    ]


def test_without_it_a_line_could_start_with_the_sign():
    # what install() mends: Rich's own pattern makes ": " a word of its own, a place to break
    plain = re.compile(r"\s*\S+\s*")
    assert [m.group(0) for m in plain.finditer("ouvert : « vite »")] == ["ouvert ", ": ", "« ", "vite ", "»"]
    assert [m.group(0) for m in typography.RICH_WORD.finditer("ouvert : « vite »")] == ["ouvert : ", "« vite »"]


def screen_lines(app) -> list[str]:
    """The screen's rows as text (from the SVG screenshot: each row's pieces by column)."""
    rows: dict[int, list[tuple[float, str]]] = {}
    piece = re.compile(r'<text [^>]*x="([0-9.]+)"[^>]*clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>')
    for x, row, text in piece.findall(app.export_screenshot()):
        rows.setdefault(int(row), []).append((float(x), html.unescape(text)))
    return ["".join(t for _, t in sorted(rows[r])) for r in sorted(rows)]


BORDERS = " \u00a0│┃▏▕▌▐║"


#: Sizes where, with ordinary spaces, the French help had lines starting with ":" or ";"
#: (80 columns: "; sinon, votre marqueur…" and ": sur votre train personnel…").
@pytest.mark.parametrize("size", [(80, 60), (62, 60), (100, 60)])
async def test_french_help_starts_no_line_with_a_colon(size):
    from mexitrain.ui.screens import HelpScreen

    set_language("fr")
    try:
        app = MexitrainApp(table(kinds=("human", "random", "random")), speed=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("question_mark")  # the help: long French paragraphs
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            lines = screen_lines(app)
            assert sum(":" in line for line in lines) >= 3, lines  # French text with colons shows
            # "?" is left out: it is a key, at the start of its row in the key table
            bad = [line for line in lines if line.strip(BORDERS)[:1] in (":", ";", "!", "»")]
            assert not bad, bad
    finally:
        set_language("en")
