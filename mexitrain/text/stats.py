"""The statistics of finished games in words: the plain-text table of ``mexitrain stats``
and of the Stats screen (the data are :mod:`mexitrain.storage.stats`'s).

:data:`PEOPLE_ONLY` and :data:`CUSTOM` are the keys of the rows that are not a computer level
or a rule preset; the statistics file uses them, and they are defined here, below storage, so
that this module needs nothing from it.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _
from .basics import decimal, level_name
from .names import printable

#: The ``by_level`` key of the games played against people only.
PEOPLE_ONLY = "people"
#: The ``by_preset`` key of rules that are no preset.
CUSTOM = "custom"

_HEAD = ("", N_("games"), N_("wins"), N_("win %"), N_("avg total"), N_("best"), N_("rounds out"))


#: Each preset's row label (the preset names are identifiers, not words of every language).
_PRESET_RULES = {
    "standard": N_("standard rules"),
    "fast": N_("fast rules"),
    "common": N_("common rules"),
    CUSTOM: N_("custom rules"),
}


def _preset_rules(preset: str) -> str:
    if preset in _PRESET_RULES:
        return _(_PRESET_RULES[preset])
    return _("{preset} rules").format(preset=preset)


def _row(label: str, t: Any) -> tuple[str, ...]:
    pct = f"{100 * t.wins / t.games:.0f}%" if t.games else "-"
    avg = decimal(t.average) if t.average is not None else "-"
    best = "-" if t.best_total is None else str(t.best_total)
    out = _("{out} of {rounds}").format(out=t.rounds_out, rounds=t.rounds)
    return (label, str(t.games), str(t.wins), pct, avg, best, out)


def format_stats(stats: Any) -> str:
    """The statistics (a :class:`~mexitrain.storage.stats.Stats`) as a plain-text table, one
    block per person."""
    if not stats.players:
        return _("No finished games yet.")
    blocks = []
    for name in sorted(stats.players, key=lambda n: (n != "You", n.casefold())):
        p = stats.players[name]
        head = tuple(_(h) if h else h for h in _HEAD)
        rows = [head, _row(_("all games"), p.overall)]
        rows += [
            _row(_("vs {level}").format(level=level_name(level)) if level != PEOPLE_ONLY else _("people only"), t)
            for level, t in sorted(p.by_level.items())
        ]
        rows += [_row(_preset_rules(preset), t) for preset, t in sorted(p.by_preset.items())]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        lines = [printable(name)]  # a name read from the file: control characters shown escaped
        for r in rows:
            cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
            lines.append("  " + "  ".join(cells).rstrip())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
