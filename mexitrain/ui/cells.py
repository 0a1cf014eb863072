"""Names and strings from files on screen: always plain text, measured in terminal cells.

A name or anything read from a file is never markup: Textual's ``escape()`` misses a tag
that starts with a space (``[ @click=app.quit]Bo`` would quit) or a plain word (``[AFK]``),
so widgets build :class:`~textual.content.Content` from plain pieces (:func:`plain`) or
substitute them into a markup template as variables (:func:`markup`), which Textual inserts
as text. Either way the text first goes through :func:`mexitrain.text.names.printable`. Widths are
cells (:func:`mexitrain.text.names.fit` pads and cuts names; an emoji or a CJK character takes two).
"""

from __future__ import annotations

from textual.content import Content

from ..text.names import cells, cut, fit, printable

__all__ = ["cells", "cut", "fit", "markup", "plain", "printable"]


def plain(text: str, style: str = "") -> Content:
    """``text`` as plain text (control characters shown escaped), in ``style`` if given."""
    text = printable(text)
    return Content.styled(text, style) if style else Content(text)


def markup(template: str, **values: object) -> Content:
    """Our own markup ``template`` (never a name) with ``$key`` variables replaced by the
    ``values`` as plain text: ``markup("[b]$name[/] · $count", name=name, count=3)``."""
    return Content.from_markup(template, **{k: printable(str(v)) for k, v in values.items()})
