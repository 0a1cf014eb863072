"""The fair deal on screen (issue #32 item 1; docs/fair-deal.md): the seal on the score sheet
from the first deal, the seed only at the end with its check; a chosen seed says so."""

from __future__ import annotations

from support.pilot import game_app, play_until_screen_changes, settle
from support.tables import table
from textual.widgets import Static

from mexitrain.rules.seeds import seal, seed_text
from mexitrain.ui.screens import GameOverScreen, RoundOverScreen, ScoreScreen


def _text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def _to_game_over(app, pilot) -> None:
    await play_until_screen_changes(pilot)
    assert isinstance(app.screen, RoundOverScreen)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, GameOverScreen)


async def test_a_fresh_game_shows_its_seal_then_reveals_the_seed_that_matches_it():
    seed = 2**128 + 12345
    app = game_app(table(seed=seed))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen_text = "".join(str(w.render()) for w in app.screen.query(Static))
        assert seed_text(seed) not in screen_text and str(seed) not in screen_text
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ScoreScreen)
        line = _text(app, "#scores-seal")
        assert seal(seed)[:16] in line and "Sealed deal" in line
        assert seed_text(seed) not in line
        await pilot.press("escape")
        await pilot.pause()
        await _to_game_over(app, pilot)
        reveal = _text(app, "#seed-reveal")
        assert seed_text(seed) in reveal and "✓" in reveal and seal(seed)[:16] in reveal


async def test_a_seed_that_does_not_match_the_seal_seen_at_the_start_is_shown_as_such():
    seed = 2**128 + 777
    app = game_app(table(seed=seed))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await _to_game_over(app, pilot)
        view = app.screen.view
        app.pop_screen()
        other = GameOverScreen(view, ("A", "B"), seal=seal(seed + 1))
        await app.push_screen(other)
        await pilot.pause()
        reveal = _text(app, "#seed-reveal")
        assert "✗" in reveal and "✓" not in reveal


async def test_a_chosen_seed_says_so_while_playing_and_at_the_end():
    setup = table(seed=2**128 + 5).model_copy(update={"seed_chosen": True})
    app = game_app(setup)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        assert "Chosen seed" in _text(app, "#scores-seal")
        await pilot.press("escape")
        await pilot.pause()
        await _to_game_over(app, pilot)
        assert "chosen before the game" in _text(app, "#seed-reveal")


def test_a_guest_checks_the_revealed_seed_against_the_seal_of_its_first_update():
    """A host that changes the seal before the end cannot make its new seed look sealed: the
    guest keeps the seal it was shown first (ui.network_state.NetworkState.first_seal); only
    a game after one that ended (a rematch) has a seal of its own."""
    from mexitrain.net.protocol import Update
    from mexitrain.rules import RuleSet, new_game, view
    from mexitrain.ui.network_state import NetworkState as Table
    from mexitrain.ui.network_state import TableRequest

    seed = 2**128 + 42
    first = view(new_game(RuleSet(), players=2, seed=seed), 1)
    table = Table(TableRequest(address="127.0.0.1:8765", code="KXMPTR", name="Ann"))
    names, kinds = ("Sam", "Ann"), ("person", "person")
    table.take(Update(seq=0, view=first, names=names, kinds=kinds, away=()), 0.0)
    later = first.model_copy(update={"seal": seal(seed + 1)})
    table.take(Update(seq=1, view=later, names=names, kinds=kinds, away=()), 1.0)
    assert table.first_seal == seal(seed) != table.update.view.seal
