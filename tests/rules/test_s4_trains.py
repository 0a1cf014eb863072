"""docs/rules.md §4: personal trains, the Mexican Train, markers, what fits."""

from __future__ import annotations

import pytest
from support.positions import plays, position, run

from mexitrain.rules import MEXICAN, Draw, IllegalAction, Mark, Play, RuleSet, apply

RULES = RuleSet()


def test_private_train_only_owner() -> None:
    """docs/rules.md §4: only its owner may play on a private personal train."""
    s = position(RULES, hands=[[(5, 9)], [(5, 1)]], trains={0: [(12, 5)], 1: [(12, 2), (2, 5)]},
                 turn=1)
    assert plays(s) == {((5, 1), 1)}
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(5, 1), train=0))
    assert err.value.code == "private_train"
    assert err.value.values == {"train": 0}


def test_others_may_not_start_a_private_train() -> None:
    """docs/rules.md §4: an unstarted personal train is private too."""
    s = position(RULES, hands=[[(12, 9)], [(12, 1)]], trains={1: [(12, 3)]}, turn=1,
                 boneyard=[(2, 2)])
    assert ((12, 1), 0) not in plays(s)
    assert plays(s) == {((12, 1), MEXICAN)}


def test_mexican_train_anyone_may_start_and_extend() -> None:
    """docs/rules.md §4: the Mexican Train is public from the start; anyone starts and extends it."""
    s = position(RULES, hands=[[(12, 3), (4, 8)], [(3, 4), (6, 6)]], trains={1: [(12, 9)]})
    assert ((12, 3), MEXICAN) in plays(s)
    s = run(s, Play(tile=(12, 3), train=MEXICAN))
    assert s.mexican.tiles == ((12, 3),) and s.mexican_starter == 0
    assert plays(s) == {((3, 4), MEXICAN)}
    s = run(s, Play(tile=(3, 4), train=MEXICAN))
    assert s.mexican.end() == 4 and s.mexican_starter == 0


def test_marked_train_is_public_to_everyone() -> None:
    """docs/rules.md §4: a train with its owner's marker is public: every player may play on it."""
    s = position(RULES, hands=[[(5, 9)], [(5, 1), (2, 8)], [(5, 3), (7, 7)]],
                 trains={0: [(12, 5)], 1: [(12, 9)], 2: [(12, 10)]}, markers={0}, turn=1,
                 boneyard=[(0, 0)])
    assert plays(s) == {((5, 1), 0)}
    s = run(s, Play(tile=(5, 1), train=0))
    assert s.trains[0].marker, "another player's play leaves the marker"
    assert s.trains[0].tiles == ((12, 5), (5, 1))


def test_owner_removes_marker_only_by_playing_on_own_train() -> None:
    """docs/rules.md §4: the owner removes the marker only by playing on that train (the French leaflet)."""
    s = position(RULES, hands=[[(5, 9), (3, 1), (9, 4)], [(7, 8), (0, 2)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, markers={0}, boneyard=[(6, 6), (4, 4)])
    # playing on the Mexican Train keeps the marker
    s = run(s, Play(tile=(3, 1), train=MEXICAN))
    assert s.trains[0].marker
    # seat 1 cannot play and draws/marks
    s = run(s, Draw(), Mark())
    assert s.trains[1].marker and s.turn == 0
    s = run(s, Play(tile=(5, 9), train=0))
    assert not s.trains[0].marker


def test_unstarted_train_can_carry_a_marker_and_others_start_it() -> None:
    """docs/rules.md §4: a not-yet-started train can carry a marker; then others may start it."""
    s = position(RULES, hands=[[(1, 2)], [(12, 4), (3, 3)]], markers={0}, turn=1,
                 trains={1: [(12, 6)], MEXICAN: [(12, 7)]}, boneyard=[(0, 0)])
    assert plays(s) == {((12, 4), 0)}
    s = run(s, Play(tile=(12, 4), train=0))
    assert s.trains[0].tiles == ((12, 4),) and s.trains[0].marker


def test_fit_and_new_end() -> None:
    """docs/rules.md §4: the matching half goes against the end; the other half is the new end."""
    s = position(RULES, hands=[[(7, 12), (1, 2)], [(3, 4)]], boneyard=[(5, 5)])
    assert plays(s) == {((12, 7), 0), ((12, 7), MEXICAN)}
    s = run(s, Play(tile=(12, 7), train=0))
    assert s.trains[0].end() == 7


def test_wrong_half_refused() -> None:
    """docs/rules.md §4: a tile is laid with its matching half against the open end."""
    s = position(RULES, hands=[[(7, 12), (1, 2)], [(3, 4)]])
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(7, 12), train=0))
    assert err.value.code == "wrong_half"
    assert err.value.values == {"tile": (7, 12), "train": 0, "end": 12}


def test_does_not_fit_message() -> None:
    """docs/rules.md §4: a tile that fits no end of the train is refused, naming the open end."""
    s = position(RULES, hands=[[(3, 7), (1, 2)], [(9, 9)]], trains={MEXICAN: [(12, 5)]})
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(7, 3), train=MEXICAN))
    assert err.value.code == "does_not_fit"
    assert err.value.values["end"] == 5
    assert err.value.values == {"tile": (7, 3), "train": MEXICAN, "end": 5}
