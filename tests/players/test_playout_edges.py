"""The expert's rollouts on the core follow the reducer at the rules' edges
(docs/rules.md §8, §10: openings that end the round, chains with branching doubles, both_stuck)."""

from __future__ import annotations

from support.positions import position

from mexitrain.players.expert import reducer_rollout, rollout
from mexitrain.rules import RuleSet


def test_both_stuck_failed_follow_up_passes_in_the_playout_too() -> None:
    """docs/rules.md §8 both_stuck, §10: under double_follow_up=any a failed follow-up passes with
    no marker even when the partner failed, in the core rollout as in the reducer (seat 3's 9-6
    fits only seat 0's train, which stays private)."""
    rules = RuleSet(teams=True, team_marker="both_stuck", rounds=1)
    state = position(rules, phase="follow_up", double_line=(0, 0),
                     hands=[[(1, 2), (3, 4)], [(5, 9), (1, 1)], [(2, 2), (1, 3)], [(6, 9), (0, 8)]],
                     trains={0: [(12, 5), (5, 5)], 1: [(12, 7)], 2: [(12, 10)], 3: [(12, 11)]},
                     failed=[False, False, True, False], chain_right=[False] * 4,
                     boneyard=[(7, 8), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])
    queues = [list(state.boneyard)] * 4
    for steps in range(1, 12):  # cut short after each action: the same outcome all the way
        assert rollout(state, 0, queues, steps) == reducer_rollout(state, 0, queues, steps), steps
