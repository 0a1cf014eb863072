"""Names and strings from files on screen: always plain text, measured in terminal cells.

A name or anything read from a file is never markup: Textual's ``escape()`` misses a tag
that starts with a space (``[ @click=app.quit]Bo`` would quit) or a plain word (``[AFK]``),
so widgets build :class:`~textual.content.Content` from plain pieces (:func:`plain`) or
substitute them into a markup template as variables (:func:`markup`), which Textual inserts
as text. Either way the text first goes through :func:`mexitrain.text.visible.visible`: a
character a terminal could take as an order (ESC, C1, bidi controls...) is shown as a visible
one in one cell (ESC as ``␛``), so a hostile name never reaches the terminal and keeps its
row's width (issue 37). Widths are cells (:func:`mexitrain.text.names.fit` pads and cuts
names; an emoji or a CJK character takes two).
"""

from __future__ import annotations

from textual.content import Content

from ..text.names import cells, cut, fit
from ..text.visible import visible

#: What the screens show a string from outside as (one character, one cell).
printable = visible

__all__ = ["cells", "cut", "fit", "markup", "plain", "printable", "visible"]


def plain(text: str, style: str = "") -> Content:
    """``text`` as plain text (control characters shown as visible ones), in ``style`` if given."""
    text = visible(text)
    return Content.styled(text, style) if style else Content(text)


def markup(template: str, **values: object) -> Content:
    """Our own markup ``template`` (never a name) with ``$key`` variables replaced by the
    ``values`` as plain text: ``markup("[b]$name[/] · $count", name=name, count=3)``."""
    return Content.from_markup(template, **{k: visible(str(v)) for k, v in values.items()})
