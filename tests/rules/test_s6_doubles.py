"""docs/rules.md §6: doubles (the non-double follow-up, open doubles, the last-tile double)."""

from __future__ import annotations

import pytest
from support.positions import kinds, plays, position, rest, run

from mexitrain.rules import MEXICAN, Draw, IllegalAction, Mark, Play, RuleSet, apply

RULES = RuleSet()


def test_after_a_double_play_again_a_non_double_anywhere() -> None:
    """docs/rules.md §6: after a double, play again a non-double, on the double or any other train."""
    s = position(RULES, hands=[[(5, 5), (5, 1), (3, 9), (3, 3), (8, 2)], [(0, 0)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(6, 6)])
    s = run(s, Play(tile=(5, 5), train=0))
    assert s.turn == 0 and s.phase == "follow_up"
    # 3-3 fits the Mexican Train, but a double is no follow-up
    assert plays(s) == {((5, 1), 0), ((3, 9), MEXICAN)}
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(3, 3), train=MEXICAN))
    assert err.value.code == "double_follow_up"
    assert err.value.values == {"tile": (3, 3)}
    s = run(s, Play(tile=(5, 1), train=0))
    assert s.turn == 1 and s.trains[0].tiles == ((12, 5), (5, 5), (5, 1))


def test_a_fitting_double_is_no_follow_up_so_draw() -> None:
    """docs/rules.md §6: a double that fits does not count as a playable follow-up: draw."""
    s = position(RULES, hands=[[(5, 5), (3, 3), (7, 8)], [(0, 1)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(5, 4), (6, 6)])
    s = run(s, Play(tile=(5, 5), train=0))
    assert kinds(s) == {"draw"}
    s = run(s, Draw())
    assert s.phase == "follow_up_drawn"
    assert plays(s) == {((5, 4), 0)}
    s = run(s, Play(tile=(5, 4), train=0))
    assert s.turn == 1


def test_drawn_double_after_a_double_marks_own_train() -> None:
    """docs/rules.md §6: if the tile drawn for the follow-up is a double, place your marker."""
    s = position(RULES, hands=[[(5, 5), (7, 8)], [(0, 1)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(3, 3), (6, 6)])
    s = run(s, Play(tile=(5, 5), train=0), Draw())
    assert s.drawn == (3, 3)  # it fits the Mexican Train, yet is no follow-up
    assert kinds(s) == {"mark"}
    s = run(s, Mark())
    assert s.trains[0].marker and s.turn == 1


def test_failed_follow_up_marks_own_train_wherever_the_double_is() -> None:
    """docs/rules.md §6: a failed follow-up marks the player's own train, even for a double elsewhere."""
    s = position(RULES, hands=[[(3, 3), (7, 8)], [(0, 1)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(9, 10), (6, 6)])
    s = run(s, Play(tile=(3, 3), train=MEXICAN), Draw(), Mark())
    assert s.trains[0].marker and s.turn == 1


def test_open_double_blocks_every_other_train() -> None:
    """docs/rules.md §6: a double left open blocks every other train; the next must satisfy it."""
    s = position(RULES,
                 hands=[[(5, 5), (7, 8)], [(5, 2), (9, 1), (12, 4)], [(0, 1)]],
                 trains={0: [(12, 5)], 1: [(12, 9)], MEXICAN: [(12, 3)]},
                 boneyard=[(10, 10), (6, 6)])
    s = run(s, Play(tile=(5, 5), train=0), Draw(), Mark())
    assert s.turn == 1
    # seat 2 could play 9-1 on its own train, or 12-4... but must satisfy 5-5 on seat 1's train
    assert plays(s) == {((5, 2), 0)}
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(tile=(9, 1), train=1))
    assert err.value.code == "blocked_by_double"
    assert err.value.values == {"double": (5, 5), "train": 0}
    s = run(s, Play(tile=(5, 2), train=0))
    assert s.turn == 2 and s.trains[0].end() == 2


def test_open_double_on_a_private_train_may_be_satisfied_by_anyone() -> None:
    """docs/rules.md §4, §6: every player may and must satisfy an open double, whatever train it is on."""
    s = position(RULES, hands=[[(1, 2)], [(5, 2), (9, 1)]],
                 trains={0: [(12, 5), (5, 5)]}, turn=1, boneyard=[(6, 6)])
    assert not s.trains[0].public
    assert plays(s) == {((5, 2), 0)}


def test_blocked_player_draws_and_plays_drawn_only_on_the_double() -> None:
    """docs/rules.md §6: a blocked player who cannot satisfy draws; the drawn tile must satisfy."""
    s = position(RULES, hands=[[(1, 2)], [(9, 1), (12, 4)]],
                 trains={0: [(12, 5), (5, 5)], 1: [(12, 9)]}, turn=1,
                 boneyard=[(9, 4), (5, 6), (7, 7)])
    assert kinds(s) == {"draw"}
    s = run(s, Draw())
    assert s.drawn == (4, 9) and kinds(s) == {"mark"}  # 9-4 fits own train, but 5-5 blocks
    s = run(s, Mark())
    assert s.trains[1].marker and not s.trains[0].marker and s.turn == 0
    # still blocked for seat 0: draws 5-6 and satisfies its own double
    s = run(s, Draw())
    assert plays(s) == {((5, 6), 0)}


def test_player_who_left_double_open_is_blocked_too() -> None:
    """docs/rules.md §6: the open double blocks, back round to the player who laid it."""
    s = position(RULES, hands=[[(5, 5), (3, 8), (5, 4)], [(0, 1)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(10, 10), (11, 11)])
    s = run(s, Play(tile=(5, 5), train=0), Play(tile=(3, 8), train=MEXICAN))
    assert s.turn == 1 and s.trains[0].open_double_lines() == (0,)
    s = run(s, Draw(), Mark())
    assert s.turn == 0
    assert plays(s) == {((5, 4), 0)}


# Every 5 but 5-5 and 5-12, on the Mexican Train: 12-0, 0-5, 5-1, 1-2, 2-5, ... 11-5.
FIVES_LINE = [(12, 0), (0, 5), (5, 1), (1, 2), (2, 5), (5, 3), (3, 4), (4, 5), (5, 6), (6, 7),
              (7, 5), (5, 8), (8, 9), (9, 5), (5, 10), (10, 11), (11, 5)]


def test_unsatisfiable_double_stops_blocking() -> None:
    """docs/rules.md §6: if no tile left in any hand or the boneyard can satisfy it, it stops blocking."""
    s = position(RULES, hands=[[(9, 10), (1, 1)], [(12, 1), (2, 2)]],
                 trains={MEXICAN: FIVES_LINE, 0: [(12, 5), (5, 5)]}, turn=1,
                 boneyard=[(11, 11), (0, 0)])
    assert s.trains[0].open_double_lines() == (0,)
    assert plays(s) == {((12, 1), 1)}
    s = run(s, Play(tile=(12, 1), train=1))
    assert s.trains[0].tiles[-1] == (5, 5)  # the double stays open
    assert kinds(s) == {"draw"}


def test_satisfiable_double_still_blocks() -> None:
    """docs/rules.md §6: while one tile (even in the boneyard) could satisfy it, the double blocks."""
    line = FIVES_LINE[:-1]
    s = position(RULES, hands=[[(9, 12), (1, 1)], [(12, 1), (2, 2)]],
                 trains={MEXICAN: line, 0: [(12, 5), (5, 5)]}, turn=1,
                 boneyard=[(11, 11), (0, 0), (5, 11)])
    assert kinds(s) == {"draw"}


def test_double_as_last_tile_ends_the_round() -> None:
    """docs/rules.md §6, §7: a double that is a player's last tile ends the round at once."""
    s = position(RuleSet(rounds=1), hands=[[(5, 5)], [(3, 4), (9, 1)]],
                 trains={0: [(12, 5)]}, boneyard=[(6, 6)])
    s = run(s, Play(tile=(5, 5), train=0))
    assert s.over
    result = s.results[0]
    assert result.end == "domino" and result.out_seat == 0
    assert result.scores == (0, 7 + 10)
    assert result.leftovers[0] == ()


def test_rest_helper_sanity() -> None:
    """docs/rules.md §1: the test helper's complement of a set (used to fill boneyards)."""
    assert len(rest(6, [(0, 0)], [(6, 6), (1, 2)])) == 25
