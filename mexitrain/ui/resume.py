"""Unfinished games at start: offer to resume them (the app's side of the resume dialog)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..storage import SaveError, Unfinished, begin_resume, end_resume, find_autosaves, set_aside
from ..storage.autosaves import claim_autosave
from ..text.errors import error_text
from .cells import printable
from .screens.saves import Choice, ResumeScreen

if TYPE_CHECKING:
    from .app import MexitrainApp


def offer_resume(app: MexitrainApp, again: bool = False) -> None:
    """At start: offer every unfinished autosave not open in another window; say
    once what is wrong with the others. Resuming one writes a "resume in progress" marker, removed
    once the game is on screen: if that start crashes, the next one offers to move it aside.

    The game chosen is claimed before it is resumed (:func:`~mexitrain.storage.autosaves.claim_autosave`:
    its lock, then the file read again): when another window took it or it is gone since it was
    listed, one line says so and the offer comes back (``again``: without repeating the notices
    about files already reported), or the new-game form when nothing is left."""
    found = find_autosaves(app.root)
    for u in found:
        if u.error is not None and not (again and u.error.moved_to is None):
            title = _("An autosave is left as it is") if u.error.moved_to is None else _("The autosave could not be loaded")
            app.notify(printable(error_text(u.error)), title=title, severity="error", timeout=30, markup=False)
    offered = [u for u in found if u.game is not None and not u.busy]
    busy = sum(1 for u in found if u.busy)
    if not offered:
        if busy and not again:  # again: the one line about the game chosen said it
            app.notify(
                ngettext(
                    "{count} unfinished game is open in another window",
                    "{count} unfinished games are open in another window",
                    busy,
                ).format(count=busy),
                timeout=10,
            )
        return

    async def resume(u: Unfinished) -> None:
        try:
            game = claim_autosave(u.path)  # the lock first, then the file as it is now
        except SaveError as exc:
            if exc.code == "busy":
                text = _("That game is open in another window")
            elif exc.code == "gone":
                text = _("That game is no longer there: another window resumed or finished it")
            else:
                text = printable(error_text(exc))
            app.notify(text, severity="warning", timeout=10, markup=False)
            offer_resume(app, again=True)
            return
        if not app.saver.adopt(u.path, game.setup):  # pragma: no cover - the lock is held here already
            app.notify(_("That game is open in another window"), severity="warning", timeout=10)
            return
        begin_resume(u.path)
        await app.start_game(game.setup, game.state)
        app.call_after_refresh(end_resume, u.path)

    def answer(choice: Choice | bool | None) -> None:
        if not isinstance(choice, tuple):
            return
        kind, u = choice
        if kind == "aside":
            try:
                dest = set_aside(u.path)
            except SaveError as exc:
                app.notify(printable(error_text(exc)), severity="error", timeout=15, markup=False)
                return
            app.notify(printable(_("The game was moved to {path}").format(path=dest)), timeout=10, markup=False)
            return
        app.call_later(resume, u)

    app.push_screen(ResumeScreen(offered, busy), answer)
