"""Textual's own player-facing texts in the player's language.

Textual (8.2) writes a few things in English that a player meets: the command palette's
"No matches found", the theme list and its search box, the screenshot notices and the Keys
panel (its key descriptions come from Textual's widgets), and key names in the footer (``esc``).
The app uses this module's :class:`Palette` and :class:`ThemeProvider` instead of Textual's,
:func:`key_label` for key names, notifies screenshots itself and shows its own help screen
where Textual would open the Keys panel.
"""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.theme import ThemeProvider as TextualThemeProvider
from textual.widgets.option_list import Option

from ..i18n import _, pgettext

#: The last word of a theme's name that describes it, translated (the rest is a proper name).
THEME_VARIANTS = {
    "dark": lambda: pgettext("theme variant", "dark"),
    "light": lambda: pgettext("theme variant", "light"),
    "dawn": lambda: pgettext("theme variant", "dawn"),
    "moon": lambda: pgettext("theme variant", "moon"),
    "night": lambda: pgettext("theme variant", "night"),
}


#: Key names Textual shows in the footer (``esc``, ``space``...), said as the player's keyboard
#: says them; the same words in English.
KEY_NAMES = {
    "esc": lambda: pgettext("key", "esc"),
    "space": lambda: pgettext("key", "space"),
    "tab": lambda: pgettext("key", "tab"),
    "shift": lambda: pgettext("key", "shift"),
    "home": lambda: pgettext("key", "home"),
    "end": lambda: pgettext("key", "end"),
    "pgup": lambda: pgettext("key", "pgup"),
    "pgdn": lambda: pgettext("key", "pgdn"),
    "del": lambda: pgettext("key", "del"),
    "insert": lambda: pgettext("key", "insert"),
    # our own displays (Binding key_display)
    "Home/End": lambda: pgettext("key", "Home/End"),
    "PgUp/Dn": lambda: pgettext("key", "PgUp/Dn"),
}


def key_label(display: str) -> str:
    """Textual's display of a key (``esc``, ``shift+tab``, ``^p``) with its names translated."""
    return "+".join(KEY_NAMES[part]() if part in KEY_NAMES else part for part in display.split("+"))


def theme_label(name: str) -> str:
    """A theme's name as the player reads it: ``atom-one-dark`` in English, ``atom-one
    (sombre)`` in French. Proper names (``dracula``, ``nord``, ``catppuccin-latte``) stay."""
    base, _sep, last = name.rpartition("-")
    word = THEME_VARIANTS.get(last)
    if not base or word is None:
        return name
    return _("{theme}-{variant}").format(theme=base, variant=word())


class Palette(CommandPalette):
    """Textual's command palette, with "No matches found" in the player's language."""

    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(
                        Align.center(Text(_("No matches found"), style="not bold")),
                        disabled=True,
                        id=self._NO_MATCHES,
                    )
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


class ThemeProvider(TextualThemeProvider):
    """The theme list with each theme's name in the player's language (:func:`theme_label`)."""

    @property
    def commands(self):  # type: ignore[override]
        def choose(name: str) -> None:
            self.app.theme = name

        themes = sorted(self.app.available_themes)
        return [(theme_label(name), (lambda name=name: choose(name))) for name in themes]
