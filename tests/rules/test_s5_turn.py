"""docs/rules.md §5: a turn (forced play, draw-then-play, draw-then-mark, one tile a turn)."""

from __future__ import annotations

import json

import pytest
from support.positions import kinds, plays, position, run

from mexitrain.rules import (
    MEXICAN,
    Draw,
    Event,
    GameState,
    IllegalAction,
    Mark,
    Pass,
    Play,
    RuleSet,
    apply,
    legal_actions,
    new_game,
)
from mexitrain.rules.record import dump_record, replay, to_record

RULES = RuleSet()


def test_forced_play_no_voluntary_draw_or_pass() -> None:
    """docs/rules.md §5.1: holding a tile that fits, you must play: no voluntary draw or pass."""
    s = position(RULES, hands=[[(12, 3), (4, 5)], [(1, 1)]], boneyard=[(2, 2)])
    assert kinds(s) == {"play"}
    for action in (Draw(), Mark(), Pass()):
        with pytest.raises(IllegalAction) as err:
            apply(s, action)
        # the same reason for each: a tile fits (which, where), so the turn is a play; a
        # pass is not told to draw first, since a draw is refused too (issue #34)
        assert err.value.code == "must_play"
        assert err.value.values == {"example": ((12, 3), 0), "action": action.type}


def test_may_play_on_mexican_or_marked_even_if_own_is_possible() -> None:
    """docs/rules.md §5.1: own train, the Mexican Train or any marked train, whether or not own fits."""
    s = position(RULES, hands=[[(5, 1), (3, 8), (9, 2)], [(4, 4)], [(0, 0)]],
                 trains={0: [(12, 5)], 1: [(12, 9)], MEXICAN: [(12, 3)]}, markers={1},
                 boneyard=[(6, 6)])
    assert plays(s) == {((5, 1), 0), ((3, 8), MEXICAN), ((9, 2), 1)}


def test_no_play_only_draw() -> None:
    """docs/rules.md §5.2: with nothing to play, the only action is to draw one tile."""
    s = position(RULES, hands=[[(1, 2)], [(3, 4)]], boneyard=[(6, 7), (12, 0)])
    assert kinds(s) == {"draw"}
    for action in (Mark(), Pass()):
        with pytest.raises(IllegalAction) as err:
            apply(s, action)
        assert err.value.values["why"] == "draw_first"


def test_draw_then_play_the_drawn_tile() -> None:
    """docs/rules.md §5.2: the drawn tile is the boneyard's top; if it fits, it must be played."""
    s = position(RULES, hands=[[(1, 2)], [(3, 4)]], boneyard=[(0, 12), (6, 7)])
    s = run(s, Draw())
    assert s.phase == "drawn" and s.drawn == (0, 12)
    assert s.hands[0] == ((1, 2), (0, 12)) and s.boneyard == ((6, 7),)
    assert s.events[-1] == Event(seat=0, type="draw", tile=(0, 12))
    assert kinds(s) == {"play"}
    assert plays(s) == {((12, 0), 0), ((12, 0), MEXICAN)}
    with pytest.raises(IllegalAction) as err:
        apply(s, Mark())
    assert err.value.code == "must_play"
    with pytest.raises(IllegalAction) as err:
        apply(s, Draw())
    assert err.value.code == "must_play"
    s = run(s, Play(tile=(12, 0), train=MEXICAN))
    assert s.turn == 1 and s.phase == "turn" and s.hands[0] == ((1, 2),)


def test_after_drawing_only_the_drawn_tile_may_be_played() -> None:
    """docs/rules.md §5.2: after a draw only the drawn tile may be played."""
    s = position(RULES, hands=[[(1, 2), (3, 3)], [(3, 4)]], boneyard=[(2, 12), (6, 7)],
                 trains={MEXICAN: [(12, 11)]})
    s = run(s, Draw())
    # the drawn 2-12 fits seat 1's own train only; 1-2 would then fit on it, but not this turn
    assert plays(s) == {((12, 2), 0)}
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(1, 2), train=0))
    assert err.value.code == "must_play_drawn"
    assert err.value.values == {"drawn": (2, 12)}


def test_draw_then_mark() -> None:
    """docs/rules.md §5.2: a drawn tile that does not fit: the marker goes on your own train."""
    s = position(RULES, hands=[[(1, 2)], [(3, 4)]], boneyard=[(6, 7), (5, 5)],
                 trains={0: [(12, 9)]})
    s = run(s, Draw())
    assert kinds(s) == {"mark"}
    with pytest.raises(IllegalAction) as err:
        apply(s, Draw())
    assert err.value.code == "already_drawn"
    with pytest.raises(IllegalAction) as err:
        apply(s, Pass())
    assert err.value.code == "cannot_pass_now"
    s = run(s, Mark())
    assert s.trains[0].marker and not s.trains[1].marker
    assert s.turn == 1 and s.phase == "turn" and s.drawn is None
    assert s.hands[0] == ((1, 2), (6, 7))
    assert [e.type for e in s.events] == ["draw", "mark"]


def test_draw_then_mark_on_an_unstarted_train() -> None:
    """docs/rules.md §4, §5.2: the marker can go on a train not yet started."""
    s = position(RULES, hands=[[(1, 2)], [(3, 4)]], boneyard=[(6, 7), (5, 5)])
    s = run(s, Draw(), Mark())
    assert s.trains[0].marker and not s.trains[0].started


def test_one_tile_per_turn() -> None:
    """docs/rules.md §5.3: one tile per turn (a non-double ends the turn)."""
    s = position(RULES, hands=[[(12, 3), (3, 4)], [(1, 1)]], boneyard=[(2, 2)])
    s = run(s, Play(tile=(12, 3), train=0))
    assert s.turn == 1 and s.phase == "turn"
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(3, 4), train=0))
    assert err.value.code == "not_in_hand"


def test_illegal_action_leaves_the_snapshot_unchanged() -> None:
    """docs/rules.md §5: an illegal action is refused and the old snapshot is unchanged."""
    s = position(RULES, hands=[[(12, 3), (4, 5)], [(1, 1)]], boneyard=[(2, 2)],
                 trains={1: [(12, 4)]})
    copy = s.model_copy(deep=True)
    bad = [Draw(), Mark(), Pass(), Play(tile=(4, 5), train=0), Play(tile=(4, 5), train=1),
           Play(tile=(6, 6), train=0), Play(tile=(3, 12), train=0), Play(tile=(12, 3), train=2)]
    for action in bad:
        with pytest.raises(IllegalAction):
            apply(s, action)
    assert s == copy


def test_illegal_action_messages() -> None:
    """docs/rules.md §4-§5: each refusal says why, as a code and its values."""
    s = position(RULES, hands=[[(12, 3), (4, 5)], [(1, 1)]], boneyard=[(2, 2)],
                 trains={1: [(12, 4)]})
    cases = {
        Play(tile=(6, 6), train=0): ("not_in_hand", {"tile": (6, 6)}),
        Play(tile=(4, 5), train=0): ("does_not_fit", {"tile": (4, 5), "train": 0, "end": 12}),
        Play(tile=(4, 5), train=1): ("private_train", {"train": 1}),
        Play(tile=(12, 3), train=0, branch=1): ("no_branch", {"train": 0, "branch": 1}),
    }
    for action, (code, values) in cases.items():
        with pytest.raises(IllegalAction) as err:
            apply(s, action)
        assert (err.value.code, err.value.values) == (code, values)
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(12, 3), train=5))
    assert err.value.code == "no_train"
    assert err.value.values == {"ref": 5}
    assert str(err.value) == "no_train (ref=5)"  # the developer line: the code and its values


def test_game_over_refuses_everything() -> None:
    """docs/rules.md §7: once the game is over, nothing more can be done."""
    s = position(RuleSet(rounds=1), hands=[[(12, 3)], [(1, 1)]], boneyard=[(2, 2)])
    s = run(s, Play(tile=(12, 3), train=0))
    assert s.over and legal_actions(s) == ()
    with pytest.raises(IllegalAction) as err:
        apply(s, Draw())
    assert err.value.code == "game_over"


def _first_choice_game(odd: bool) -> tuple[GameState, int]:
    """A one-round double-15 game for 2, each seat taking its first legal action; with
    ``odd``, each play on train 1 is sent as a constructed action naming train ``True`` with
    a half ``n.0`` (values equal to the legal ones, of other types)."""
    state = new_game(RuleSet(set=15, rounds=1), players=2, seed=5)
    sent = 0
    while not state.over:
        action = legal_actions(state)[0]
        if odd and action.type == "play" and action.train == 1:
            a, b = action.tile
            action = Play.model_construct(tile=(a, float(b)), train=True, branch=action.branch)
            sent += 1
        state = apply(state, action)
    return state, sent


def test_a_train_named_true_does_not_corrupt_records() -> None:
    """docs/rules.md §4, §5: a play names its train by seat. An action naming train ``True`` equals
    seat 1 and is played there, but the engine lays and records its own values: that game's
    record and a later game's in the same process say ``"train": 1`` and replay (a cache
    keyed by value without the key's types would give the later game's events ``"train": true``)."""
    odd, sent = _first_choice_game(odd=True)
    plain, _ = _first_choice_game(odd=False)
    assert sent > 0 and odd.results == plain.results
    for game in (odd, plain):
        events = [e for r in game.results for e in r.events if e.type == "play"]
        assert all(type(e.train) in (int, str) and e.train is not True for e in events)
        assert all(type(h) is int for e in events for h in e.tile)
        record = to_record(game, [("Ann", "human"), ("Bo", "computer")])
        assert replay(json.loads(dump_record(record))).results == game.results
