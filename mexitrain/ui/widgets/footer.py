"""The footer of the game and replay screens: the keys first, the palette's key if room is left."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

from ..textual_compat import FooterKey


def _cells(keys) -> int:
    """Columns of compact keys, "key description" one column apart (the palette's key
    has a border: the same count)."""
    return sum(len(w.key_display) + (1 + len(w.description) if w.description else 0) + 1 for w in keys)


class FittingFooter(Footer):
    """A compact footer that gives up the command palette's key (Ctrl+P, listed in the
    help panel) when the screen's keys and it do not fit on one line together, and then, if
    they still do not fit, the keys that are dimmed (not possible now; the help panel lists
    them with their reasons), and last the keys at the right end but the help's, so that no
    key is cut off and ? always shows (the French footer at 80 columns at a table, with the
    chat's key)."""

    _width = 0

    def compose(self):
        widgets = list(super().compose())
        palette = [w for w in widgets if w.has_class("-command-palette")]
        if not palette or not self.compact:
            yield from widgets
            return
        keys = [w for w in widgets if w not in palette]
        if any(not isinstance(w, FooterKey) for w in keys):
            yield from widgets  # grouped keys: no estimate, keep the default
            return
        width = self.size.width or self.app.size.width
        if _cells(keys) + _cells(palette) <= width:
            yield from widgets
        elif _cells(keys) <= width:
            yield from keys
        else:
            working = [w for w in keys if not w.has_class("-disabled")]
            # if they are still too wide once laid out (:meth:`_check_fit`), keys give way from
            # the right, never the help's (?), which lists every key: a key is whole or not
            # there, never cut
            helps = [w for w in working if w.key_display == "?"]
            rest = [w for w in working if w not in helps]
            shown = (width, tuple((w.key_display, str(w.description)) for w in working))
            if shown != self._drop_for:
                self._drop_for, self._drop = shown, 0
            rest = rest[: max(0, len(rest) - self._drop)]
            self._droppable = len(rest)
            self.call_after_refresh(self._check_fit)
            yield from (w for w in working if w in rest or w in helps)

    _drop = 0  # keys left out at the right end, once laid out too wide
    _drop_for: tuple = ()  # the width and keys that count is for
    _droppable = 0

    def _check_fit(self) -> None:
        """One more key gives way while the keys run past the footer's right edge."""
        if not self.is_attached or not self._droppable:
            return
        right = self.content_region.right
        if any(k.region.right > right for k in self.query(FooterKey)):
            self._drop += 1
            self.refresh(recompose=True)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.refresh(recompose=True)
