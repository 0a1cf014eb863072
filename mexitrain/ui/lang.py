"""Key descriptions in the player's language.

Textual evaluates ``Binding(..., "Place")`` when a class is created, before the language may be
chosen, so the descriptions and tooltips stay English message ids in ``BINDINGS`` and each node's
own copy is translated when the node is shown (:func:`translate_bindings`, called by the app for
every screen it pushes and for itself). The ids are listed here for the catalog.
"""

from __future__ import annotations

import re
from dataclasses import replace

from textual.dom import DOMNode

from ..i18n import N_, _
from .textual_compat import class_bindings, own_bindings

#: Every key description and tooltip of the screens (``mexitrain/locale/*.po`` translates them).
KEY_WORDS = (
    # app
    N_("Help"), N_("Keys and rules"), N_("Scores"), N_("The score sheet"), N_("Quit"),
    N_("Why no undo"),
    # game screen
    N_("Tile"), N_("Select the previous tile (h)"), N_("Next tile"), N_("Train"),
    N_("Select the previous train (k)"), N_("Next train"), N_("Place"),
    N_("Play the selected tile on the selected train"), N_("Draw"),
    N_("Draw a tile (only when no tile fits)"), N_("End turn"),
    N_("Place your marker / pass: only when the rules allow it"), N_("Skip Mex."),
    N_("Swan drive: go past the Mexican Train"), N_("Flip"),
    N_("Blanks wild: choose which half goes against the end"), N_("Sort"),
    N_("Planned train first, or a plain sort"), N_("Tip"), N_("Suggest a move"), N_("Undo"),
    N_("Take back your last decision"), N_("Save as"), N_("Save this game under a name"),
    N_("Quit (asks first)"), N_("Mexican Train"),
    # new-game form
    N_("Start"), N_("Start the game with these settings"), N_("New seed"),
    N_("Empty the seed: a fresh one, sealed"), N_("Back to game"), N_("Return to the game in progress"),
    N_("Load"), N_("Load a saved game"), N_("Statistics"), N_("Statistics of finished games"),
    # results, help, dialogs
    N_("Continue"), N_("Play again"), N_("New game"), N_("Close help"), N_("Yes, quit"),
    N_("No, keep playing"), N_("I am ready"), N_("Close"),
    # saves and replay
    N_("Resume"), N_("Cancel"), N_("Back"), N_("Step"), N_("One move back (→ forward)"), N_("Forward"),
    N_("First"), N_("The first deal / the last move"), N_("Last"), N_("Round"),
    N_("The previous / next round"), N_("Next round"), N_("The score sheet at this step"),
    N_("Up a folder"),
    # Textual's own commands in the command palette
    N_("Bell"), N_("Ring the bell"), N_("Theme"), N_("Change the current theme"),
    N_("Quit the application as soon as possible"), N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"), N_("Minimize"),
    N_("Minimize the widget and restore to normal size"), N_("Maximize"),
    N_("Maximize the focused widget"), N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"), N_("palette"), N_("Open command palette"),
    N_("Search for commands…"),
)


def translate_bindings(node: DOMNode) -> None:
    """Give ``node``'s keys their descriptions and tooltips in the current language (again
    after a language change: the class's English ids are the source)."""
    originals = {(key, b.action): b for key, bs in class_bindings(node).items() for b in bs}
    keys = own_bindings(node)
    for key, bindings in keys.items():
        out = []
        for b in bindings:
            src = originals.get((key, b.action), b)
            desc = _(src.description) if src.description else b.description
            seat = re.fullmatch(r"Seat (\d+)'s train", src.description or "")
            if seat:
                desc = _("Seat {n}'s train").format(n=seat.group(1))
            tip = _(src.tooltip) if src.tooltip else b.tooltip
            out.append(replace(b, description=desc, tooltip=tip))
        keys[key] = out
