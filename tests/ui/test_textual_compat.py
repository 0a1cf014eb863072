"""The Textual privates mexitrain relies on (mexitrain.ui.textual_compat), held for the pinned release."""

from __future__ import annotations

import re
from dataclasses import replace

from textual.app import App
from textual.binding import Binding
from textual.notifications import Notification

from mexitrain.ui.textual_compat import (
    add_notice,
    class_bindings,
    exiting,
    notices,
    own_bindings,
    select_options,
    set_wrap_patterns,
    withdraw_notices,
    wrap_offsets,
    wrap_patterns,
)


class _App(App[None]):
    BINDINGS = [Binding("x", "bell", "Ring", tooltip="the bell")]


async def test_a_notice_is_added_at_once_and_withdrawn_alone():
    app = _App()
    async with app.run_test() as pilot:
        app.notify("kept")
        await pilot.pause()
        one, two = Notification("one", "", "information", 5), Notification("two", "", "warning", 5)
        add_notice(app, one)
        add_notice(app, two)
        assert [n.message for n in notices(app)] == ["kept", "one", "two"]  # no pause needed
        withdraw_notices(app, [one])
        assert [n.message for n in notices(app)] == ["kept", "two"]
        withdraw_notices(app, [one, two])  # one is gone already: no error
        assert [n.message for n in notices(app)] == ["kept"]


async def test_own_bindings_change_in_place_and_the_class_keeps_the_originals():
    app = _App()
    async with app.run_test() as pilot:
        keys = own_bindings(app)
        keys["x"] = [replace(b, tooltip="changed") for b in keys["x"]]
        app.refresh_bindings()
        await pilot.pause()
        assert [b.tooltip for b in own_bindings(app)["x"]] == ["changed"]
        assert [b.tooltip for b in class_bindings(app)["x"]] == ["the bell"]


async def test_exiting_says_whether_exit_was_called():
    app = _App()
    async with app.run_test() as pilot:
        assert not exiting(app)
        app.exit()
        await pilot.pause()
        assert exiting(app)


async def test_select_options_lists_prompts_and_values():
    from textual.widgets import Select

    class _Form(App[None]):
        def compose(self):
            yield Select([("two", 2), ("three", 3)], allow_blank=False)

    app = _Form()
    async with app.run_test():
        assert [v for _, v in select_options(app.query_one(Select))] == [2, 3]


def test_wrap_patterns_reads_what_set_wrap_patterns_set():
    before = wrap_patterns()
    word, chunk = re.compile(r"\S+\s*"), re.compile(r"\S+\s*|\s+")
    try:
        set_wrap_patterns(word, chunk)
        assert wrap_patterns() == (word, chunk)
        assert wrap_offsets("one two three", 8) == [8]
    finally:
        set_wrap_patterns(*before)


def test_the_output_guard_drops_what_a_terminal_would_obey_and_keeps_the_styles():
    """guard_output (issue 37): Strip.render, Strip._segments, _cell_length, _render_cache."""
    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from mexitrain.text.visible import UNSAFE, dropped
    from mexitrain.ui.textual_compat import guard_output

    guard_output(UNSAFE, dropped)
    guard_output(UNSAFE, dropped)  # idempotent: wrapped once
    assert getattr(Strip.render, "_mexitrain_guard", False)
    strip = Strip([Segment("Q1\x1b]52;c;eA==\x07\u202e", Style(bold=True)), Segment("\x9b2J ok")])
    out = strip.render(Console(color_system="truecolor"))
    assert out == "\x1b[1mQ1]52;c;eA==\x1b[0m2J ok"  # the bold's codes kept, the host's gone
    plain = Strip([Segment("fine 東京")])
    assert plain.render(Console()) == "fine 東京"


async def test_drawn_texts_are_the_screen_lines_before_the_guard():
    from textual.widgets import Static

    from mexitrain.ui.textual_compat import drawn_texts

    class _Shows(App[None]):
        def compose(self):
            yield Static("a\x1bb", markup=False)

    app = _Shows()
    async with app.run_test(size=(20, 3)) as pilot:
        await pilot.pause()
        lines = drawn_texts(app)
        assert len(lines) == 3 and lines[0].startswith("a\x1bb")
