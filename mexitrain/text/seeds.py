"""The fair deal in words: the seal shown while a game runs, the seed revealed at its end
(docs/fair-deal.md). Words only: the facts (the seal, whether the seed was chosen, the seed
once revealed) come in the seat's view, and :func:`mexitrain.rules.seeds.check_seal` checks."""

from __future__ import annotations

from ..i18n import _
from ..rules.seeds import check_seal, keyed, seed_text


def seal_short(seal: str) -> str:
    """The first 16 hex digits of a seal: enough to compare by eye."""
    return seal[:16] + "…"


def seal_line(seal: str, chosen: bool) -> str:
    """While the game runs: what its deal's seal says ("" for an older game without one)."""
    if chosen:
        return _("Chosen seed: this deal was known before the game.")
    if not seal:
        return ""
    return _("Sealed deal {seal}: the seed is shown at the end.").format(
        seal=seal_short(seal)
    )


def reveal_lines(seed: int | None, seal: str, chosen: bool) -> list[str]:
    """At the end: the seed, and whether it is the one sealed at the start (``seal``: the
    seal this screen was shown from the first deal)."""
    if seed is None:
        return []
    text = seed_text(seed)
    if chosen:
        return [_("Seed {seed}, chosen before the game: its deal was known in advance.").format(seed=text)]
    if not keyed(seed) or not seal:
        return [_("Seed {seed} (an older game: its deal was not sealed).").format(seed=text)]
    if check_seal(seed, seal):
        return [
            _("Seed {seed}").format(seed=text),
            _("✓ matches the seal shown at the start ({seal}): the deal was fixed before the first tile.").format(
                seal=seal_short(seal)
            ),
        ]
    return [
        _("Seed {seed}").format(seed=text),
        _("✗ does not match the seal shown at the start ({seal}): this is not the deal that was sealed.").format(
            seal=seal_short(seal)
        ),
    ]
