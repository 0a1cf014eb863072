"""Every use of a Textual private, in one place.

Textual is pinned exactly (``pyproject.toml``: 8.2.8). Each function here relies on a private
name of that release, says which, and is held by a test (``tests/ui/test_textual_compat.py``
and the tests named below), so that a Textual upgrade that moves it fails there, not on screen.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

import rich._wrap
import textual._wrap
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.notifications import Notification
from textual.strip import Strip
from textual.widgets import Select
from textual.widgets._footer import FooterKey

__all__ = [
    "FooterKey",
    "add_notice",
    "class_bindings",
    "drawn_texts",
    "exiting",
    "guard_output",
    "notices",
    "own_bindings",
    "select_options",
    "set_wrap_patterns",
    "withdraw_notices",
    "wrap_offsets",
    "wrap_patterns",
]


def notices(app: App) -> list[Notification]:
    """The notices on screen now (``App._notifications``; Textual has no public reader).
    Tests read notices through this."""
    return list(app._notifications)


def add_notice(app: App, notice: Notification) -> None:
    """Show ``notice`` at once, not through a posted message as ``App.notify`` does, so that a
    withdrawal in the same turn of the event loop finds it (``App._notifications``,
    ``App._refresh_notifications``)."""
    app._notifications.add(notice)
    app._refresh_notifications()


def withdraw_notices(app: App, gone: Iterable[Notification], refresh: bool = True) -> None:
    """Take ``gone`` off the screen (those still shown): Textual has no public call to withdraw
    one notice (``App._unnotify``, ``App._notifications``, ``App._refresh_notifications``).
    ``refresh`` False: the caller refreshes (it adds another notice at once)."""
    gone = list(gone)
    for notice in gone:
        if notice in app._notifications:
            app._unnotify(notice, refresh=False)
        _drop_holder(app, notice)
    if refresh and gone:
        app._refresh_notifications()


def _drop_holder(app: App, notice: Notification) -> None:
    """Take a withdrawn notice's holder off the screen's toast rack: Textual's
    ``ToastRack.show`` removes the toast of a notice no longer there but leaves its
    ``ToastHolder`` (id ``--textual-toast-`` and the notice's identity), empty and one row
    high, which pushed the next notices down, away from the tip (the corner, issue #34).
    Held by tests/ui/test_corner.py (a notice right below the tip)."""
    holder_id = f"--textual-toast-{notice.identity}"
    for screen in app.screen_stack:
        for rack in screen.query("#textual-toastrack"):
            for holder in list(rack.children):
                if holder.id == holder_id:
                    holder.remove()


def own_bindings(node: DOMNode) -> dict[str, list[Binding]]:
    """``node``'s own key bindings by key, to change in place (``DOMNode._bindings``): the
    footer shows them once ``node.refresh_bindings()`` is called."""
    return node._bindings.key_to_bindings


def class_bindings(node: DOMNode) -> dict[str, list[Binding]]:
    """The bindings ``node``'s classes declare, as Textual merged them before any change to
    :func:`own_bindings` (``DOMNode._merged_bindings``)."""
    merged = node._merged_bindings
    return {} if merged is None else merged.key_to_bindings


def set_wrap_patterns(rich_word: re.Pattern[str], textual_chunk: re.Pattern[str]) -> None:
    """Where lines may break: Rich's word pattern (``rich._wrap.re_word``, used by Textual's
    ``Content``) and Textual's chunk pattern (``textual._wrap.re_chunk``).
    ``tests/ui/test_typography.py`` holds both."""
    rich._wrap.re_word = rich_word
    textual._wrap.re_chunk = textual_chunk


def wrap_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns :func:`set_wrap_patterns` sets, as Rich and Textual hold them now (a test
    hook: ``tests/ui/test_typography.py`` checks the app installed its own)."""
    return rich._wrap.re_word, textual._wrap.re_chunk


def wrap_offsets(text: str, width: int, tab_size: int = 4) -> list[int]:
    """Where Textual's own wrapping breaks ``text`` at ``width`` cells
    (``textual._wrap.compute_wrap_offsets``; a test hook for the typography tests)."""
    return list(textual._wrap.compute_wrap_offsets(text, width, tab_size))


def exiting(app: App) -> bool:
    """Whether ``app.exit()`` was called (``App._exit``; Textual has no public reader). A test
    hook: a test waits for it, or checks that nothing asked the app to quit."""
    return app._exit


def select_options(select: Select) -> list[tuple[object, object]]:
    """``select``'s options as ``(prompt, value)``, the blank one included when the select
    allows it (``Select._options``; Textual keeps no public list). A test hook."""
    return list(select._options)


def guard_output(unsafe: re.Pattern[str], clean: Callable[[str], str]) -> None:
    """The last guard between text and the terminal (issue 37): every strip Textual writes
    has the text of its segments (never its style codes) passed through ``clean`` when
    ``unsafe`` finds something in it, whatever widget drew it. Idempotent.

    Relies on ``Strip.render`` (every screen update writes through it: ``ChopsUpdate``,
    ``LayoutUpdate``, ``InlineUpdate`` in ``textual._compositor``), ``Strip._segments``,
    ``Strip._cell_length`` and ``Strip._render_cache``; held by
    ``tests/ui/test_textual_compat.py`` and the raw-bytes test ``tests/net/test_guest_terminal.py``."""
    if getattr(Strip.render, "_mexitrain_guard", False):
        return
    original = Strip.render

    @functools.wraps(original)
    def render(self: Strip, console) -> str:
        if self._render_cache is None:
            segments = self._segments
            if any(control is None and unsafe.search(text) for text, _style, control in segments):
                cleaned = Strip(
                    [seg if seg.control is not None else seg._replace(text=clean(seg.text)) for seg in segments],
                    self._cell_length,
                )
                self._render_cache = original(cleaned, console)
        return original(self, console)

    render._mexitrain_guard = True  # type: ignore[attr-defined]
    Strip.render = render  # type: ignore[method-assign]


def drawn_texts(app: App) -> list[str]:
    """The text of every piece the screen on top would draw now, line by line (each strip's
    segments, without their styles and before :func:`guard_output`): what the widgets gave
    the terminal to print (``Screen._compositor.render_strips``, ``Strip._segments``). A test
    hook for issue 37's checks."""
    return [
        "".join(seg.text for seg in strip._segments if seg.control is None)
        for strip in app.screen._compositor.render_strips()
    ]
