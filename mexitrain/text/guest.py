"""A guest at a table in words (issue 37): why its link to the table ended or waits, the
errors its host sent, the lobby's line about its own seat while the link is down.

The codes are the client's (:mod:`mexitrain.net.client`: ``no_answer``,
``bad_server_message``, ``error_flood``) and the protocol's (:func:`mexitrain.text.net.error_text`
words those). Values from the host are shown through :func:`~mexitrain.text.visible.visible`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import _, ngettext
from .basics import continued
from .net import error_text
from .visible import visible


def problem_text(code: str, values: Mapping[str, Any] | None = None, server_version: int | None = None) -> str:
    """A problem with the table (a code of the client or of the protocol), as one line."""
    v = dict(values or {})
    if code == "no_answer":
        return _("The table did not answer: it never welcomed this player.")
    if code == "bad_server_message":
        reason = visible(str(v.get("reason") or "?"))[:200]
        return _("The table sent something this version cannot read: {reason}").format(reason=reason)
    if code == "error_flood":
        return _("The table sent too many errors: this player left it.")
    return error_text(code, v, server_version)


def disconnected_text(reason: str | None) -> str:
    """The line of a link that ended: "Disconnected: <reason>" (or alone, without one). The
    reason is a line of :func:`problem_text`, which starts with a word of ours (or a field's
    name), never with a name: it goes on after the colon as the language writes it
    (« Déconnecté : l'hôte a fermé la table »)."""
    if not reason:
        return _("Disconnected.")
    return _("Disconnected: {reason}").format(reason=continued(reason))


def more_errors_text(n: int) -> str:
    """The count of the errors that came while another one was shown."""
    return ngettext("{n} more error from the table", "{n} more errors from the table", n).format(n=n)


def own_seat_retrying() -> str:
    """The lobby's state of this player's own seat while its link is down."""
    return _("person · retrying…")


__all__ = ["disconnected_text", "more_errors_text", "own_seat_retrying", "problem_text"]
