"""docs/rules.md §8: options and variants, one test class per option."""

from __future__ import annotations

import random

import pytest
from support.games import finish
from support.positions import branch_plays, kinds, plays, position, run

from mexitrain.rules import (
    MEXICAN,
    PRESETS,
    Draw,
    IllegalAction,
    Mark,
    Pass,
    Play,
    RuleSet,
    RuleSetError,
    Skip,
    apply,
    deal,
    legal_actions,
    make_rules,
    new_game,
    pips,
    view,
)


class TestTeams:
    """docs/rules.md §8 teams: partners opposite share trains and scores."""

    RULES = RuleSet(teams=True)

    def test_partners_sit_opposite(self) -> None:
        """docs/rules.md §8 teams: seat i partners seat i + n/2."""
        for n in (4, 6, 8):
            s = new_game(self.RULES, players=n, seed=1)
            assert [s.partner(i) for i in range(n)] == [(i + n // 2) % n for i in range(n)]
            assert s.team_of(1) == (1, 1 + n // 2)

    def test_teams_need_four_six_or_eight(self) -> None:
        """docs/rules.md §8 teams: 4, 6 or 8 players in pairs."""
        for n in (2, 3, 5, 7):
            with pytest.raises(RuleSetError) as err:
                new_game(self.RULES, players=n, seed=0)
            assert (err.value.code, dict(err.value.values)) == ("teams_players", {"players": n})

    def test_either_partner_plays_on_either_train(self) -> None:
        """docs/rules.md §8 teams: the two partners' trains count as one: each may play on either."""
        s = position(self.RULES, hands=[[(4, 1), (9, 10)], [(4, 2), (9, 3)], [(8, 8)], [(7, 7)]],
                     trains={0: [(12, 9)], 2: [(12, 4)], 1: [(12, 6)], 3: [(12, 11)]},
                     boneyard=[(5, 5)])
        assert plays(s) == {((4, 1), 2), ((9, 10), 0)}
        s = run(s, Play(tile=(4, 1), train=2))
        # seat 1's opponents' trains are private to it
        assert kinds(s) == {"draw"}

    def test_team_score_zero_when_either_partner_goes_out(self) -> None:
        """docs/rules.md §8 teams: team score = both hands, 0 for the team when either partner is out."""
        s = position(RuleSet(teams=True, rounds=1),
                     hands=[[(12, 1)], [(4, 2), (9, 3)], [(8, 8)], [(7, 7)]], boneyard=[(5, 5)])
        s = run(s, Play(tile=(12, 1), train=0))
        assert s.over
        assert s.results[0].scores == (0, 18, 0, 14)
        assert s.winners == (0, 2)

    def test_together_markers(self) -> None:
        """docs/rules.md §8 team_marker=together: both trains go public, and private, together."""
        s = position(self.RULES, hands=[[(1, 2)], [(4, 2), (9, 3)], [(9, 8), (0, 0)], [(7, 7)]],
                     trains={0: [(12, 9)], 2: [(12, 4)], 1: [(12, 6)], 3: [(12, 11)]},
                     boneyard=[(5, 5), (6, 6)])
        s = run(s, Draw(), Mark())
        assert [t.marker for t in s.trains] == [True, False, True, False, False]
        assert plays(s) == {((4, 2), 2), ((9, 3), 0)}  # seat 2 (opponent) may play on both
        s = run(s, Play(tile=(4, 2), train=2))
        assert s.trains[0].marker and s.trains[2].marker
        s = run(s, Play(tile=(9, 8), train=0))  # seat 3's partner plays on seat 1's train
        assert not s.trains[0].marker and not s.trains[2].marker

    def test_both_stuck_markers(self) -> None:
        """docs/rules.md §8 team_marker=both_stuck: public only when both partners failed to play."""
        rules = RuleSet(teams=True, team_marker="both_stuck")
        s = position(rules, hands=[[(1, 2), (3, 3)], [(2, 10), (9, 3)], [(1, 8), (0, 0)], [(7, 7)]],
                     trains={0: [(12, 9)], 2: [(12, 4)], 1: [(12, 6)], 3: [(12, 11)]},
                     boneyard=[(5, 5), (1, 10), (10, 10), (12, 5), (2, 2)])
        s = run(s, Draw())
        assert kinds(s) == {"pass"}  # the partner has not failed: no marker
        with pytest.raises(IllegalAction):
            apply(s, Mark())
        s = run(s, Pass())
        assert not any(t.marker for t in s.trains) and s.failed[0]
        s = run(s, Draw(), Pass())  # seat 1 (partner seat 3 played nothing yet)
        s = run(s, Draw())  # seat 2 fails too: now both trains go public
        assert kinds(s) == {"mark"}
        s = run(s, Mark())
        assert [t.marker for t in s.trains] == [True, False, True, False, False]

    def test_both_stuck_partner_played(self) -> None:
        """docs/rules.md §8 both_stuck: a partner who played on their latest turn keeps the trains private."""
        rules = RuleSet(teams=True, team_marker="both_stuck")
        for partner_failed, expected in ((False, {"pass"}), (True, {"mark"})):
            s = position(rules, hands=[[(1, 2)], [(2, 10)], [(1, 8), (0, 0)], [(7, 7)]],
                         trains={0: [(12, 9)], 2: [(12, 4)], 1: [(12, 6)], 3: [(12, 11)]},
                         failed=[partner_failed, False, False, False], turn=2,
                         boneyard=[(10, 10), (2, 2)])
            s = run(s, Draw())
            assert kinds(s) == expected

    def test_both_stuck_drawn_tile_that_fits_must_be_played(self) -> None:
        """docs/rules.md §5.2 under §8 both_stuck: a drawn tile that fits must be played. The pass
        that keeps the trains private is for a drawn tile that does not fit."""
        rules = RuleSet(teams=True, team_marker="both_stuck")
        s = position(rules, hands=[[(1, 2)], [(2, 10)], [(1, 8), (0, 0)], [(7, 7)]],
                     trains={0: [(12, 9)], 2: [(12, 4)], 1: [(12, 6)], 3: [(12, 11)]},
                     turn=2, boneyard=[(9, 5), (2, 2)])
        s = run(s, Draw())  # 9-5 fits seat 0's train, the partner's
        assert legal_actions(s) == (Play(tile=(9, 5), train=0),)
        with pytest.raises(IllegalAction) as err:
            apply(s, Pass())
        assert (err.value.code, err.value.values["why"]) == ("cannot_pass_now", "drawn_playable")


    """docs/rules.md §8 open_hands: every hand is visible; only the boneyard is hidden."""

    def test_every_hand_visible(self) -> None:
        """docs/rules.md §8 open_hands: each seat's view holds every hand."""
        s = new_game(RuleSet(open_hands=True), players=3, seed=2)
        for seat in range(3):
            v = view(s, seat)
            assert v.hands == s.hands
            assert not hasattr(v, "boneyard") and v.boneyard_size == len(s.boneyard)

    def test_draws_visible(self) -> None:
        """docs/rules.md §8 open_hands: a drawn tile joins a hand everyone sees."""
        s = position(RuleSet(open_hands=True), hands=[[(1, 2)], [(3, 4)]], boneyard=[(5, 6), (7, 7)])
        s = run(s, Draw())
        assert view(s, 1).events[-1].tile == (5, 6)


class TestBlanksWild:
    """docs/rules.md §8 blanks_wild: a blank matches anything; the player chooses the half."""

    RULES = RuleSet(blanks_wild=True)

    def test_blank_half_matches_any_end(self) -> None:
        """docs/rules.md §8 blanks_wild: a blank half matches any value; the other half is the new end."""
        s = position(self.RULES, hands=[[(0, 7), (3, 4)], [(9, 9)]], trains={0: [(12, 5)]},
                     boneyard=[(8, 8)])
        # the blank goes against 5 (own train) or 12 (the Mexican Train); 7 becomes the end
        assert plays(s) == {((0, 7), 0), ((0, 7), MEXICAN)}
        s = run(s, Play(tile=(0, 7), train=0))
        assert s.trains[0].end() == 7

    def test_player_chooses_the_half(self) -> None:
        """docs/rules.md §8 blanks_wild: the player says which half goes against the end."""
        s = position(self.RULES, hands=[[(0, 5), (3, 4)], [(9, 9)]], trains={0: [(12, 5)],
                     MEXICAN: [(12, 11)]}, boneyard=[(8, 8)])
        assert plays(s) == {((0, 5), 0), ((5, 0), 0), ((0, 5), MEXICAN)}
        s2 = run(s, Play(tile=(5, 0), train=0))
        assert s2.trains[0].end() == 0
        s3 = run(s, Play(tile=(0, 5), train=0))
        assert s3.trains[0].end() == 5

    def test_blank_end_accepts_any_tile_either_way(self) -> None:
        """docs/rules.md §8 blanks_wild: a blank open end accepts any tile, either half against it."""
        s = position(self.RULES, hands=[[(3, 8), (4, 9)], [(9, 9)]],
                     trains={0: [(12, 0)], MEXICAN: [(12, 11)]}, boneyard=[(8, 8)])
        assert plays(s) == {((3, 8), 0), ((8, 3), 0), ((4, 9), 0), ((9, 4), 0)}

    def test_without_the_option_blanks_are_plain(self) -> None:
        """docs/rules.md §4: without blanks_wild, 0 is an ordinary value."""
        s = position(RuleSet(), hands=[[(0, 7), (3, 4)], [(9, 9)]],
                     trains={0: [(12, 0)], MEXICAN: [(12, 11)]}, boneyard=[(8, 8)])
        assert plays(s) == {((0, 7), 0)}

    def test_blank_satisfies_any_double(self) -> None:
        """docs/rules.md §8 blanks_wild: a blank satisfies any double."""
        s = position(self.RULES, hands=[[(1, 2)], [(0, 6), (9, 10)]],
                     trains={0: [(12, 5), (5, 5)], 1: [(12, 9)]}, turn=1, boneyard=[(8, 8)])
        assert plays(s) == {((0, 6), 0)}

    def test_double_blank_is_a_wild_double(self) -> None:
        """docs/rules.md §8 blanks_wild: the double-blank is a wild double that any tile satisfies."""
        s = position(self.RULES, hands=[[(1, 2)], [(3, 6), (9, 10)]],
                     trains={0: [(12, 5), (5, 0), (0, 0)], 1: [(12, 9)]}, turn=1, boneyard=[(8, 8)])
        assert plays(s) == {((3, 6), 0), ((6, 3), 0), ((9, 10), 0), ((10, 9), 0)}

    def test_blanks_count_when_a_double_can_still_be_satisfied(self) -> None:
        """docs/rules.md §8 blanks_wild: a blank left anywhere keeps an open double blocking."""
        fives = [(12, 1), (1, 5), (5, 2), (2, 3), (3, 5), (5, 4), (4, 6), (6, 5), (5, 7), (7, 8),
                 (8, 5), (5, 9), (9, 10), (10, 5), (5, 11), (11, 1)]
        hands = [[(1, 1), (2, 2)], [(12, 3), (9, 9)]]
        plain = position(RuleSet(), hands=hands, trains={MEXICAN: fives, 0: [(12, 5), (5, 5)]},
                         turn=1, boneyard=[(0, 4)])
        assert kinds(plain) == {"play"}  # 0-5 is the only 5 left... on no train: 5-5 is dead
        wild = position(self.RULES, hands=hands, trains={MEXICAN: fives, 0: [(12, 5), (5, 5)]},
                        turn=1, boneyard=[(0, 4)])
        assert kinds(wild) == {"draw"}  # the blank 0-4 in the boneyard could satisfy 5-5

    def test_blanks_score_zero(self) -> None:
        """docs/rules.md §8 blanks_wild: blanks score 0."""
        s = position(RuleSet(blanks_wild=True, rounds=1), hands=[[(12, 3)], [(0, 0), (0, 4)]],
                     boneyard=[(8, 8)])
        s = run(s, Play(tile=(12, 3), train=0))
        assert s.results[0].scores == (0, 4)


class TestOpeningSimultaneous:
    """docs/rules.md §8 opening=simultaneous: every player first lays one chain on their own train."""

    RULES = RuleSet(opening="simultaneous")

    def test_new_round_starts_with_maximal_chains(self) -> None:
        """docs/rules.md §8 simultaneous: each lays all it can, one chain, before normal turns."""
        for seed in range(6):
            s = new_game(self.RULES, players=4, seed=seed)
            seen_chain = False
            while s.phase == "chain":
                seen_chain = True
                actions = legal_actions(s)
                assert actions and all(a.type == "play" and a.train == s.turn for a in actions)
                s = apply(s, actions[-1])
            if s.round != 1:
                continue  # somebody went out in the opening
            assert s.phase == "turn" and s.turn == s.first_seat
            assert seen_chain or not any(t.started for t in s.trains)
            for seat in range(4):
                end = s.trains[seat].end()
                assert not any(end in t for t in s.hands[seat]), "a chain stopped while a tile fit"
            assert not s.mexican.started

    def test_route_is_chosen_but_no_stopping(self) -> None:
        """docs/rules.md §8 simultaneous: the route is the player's, but they may not stop while a tile fits."""
        s = position(self.RULES, phase="chain", turn=0, opening_queue=(1,),
                     hands=[[(12, 3), (3, 5), (3, 9), (1, 1)], [(12, 4), (4, 4), (4, 6), (8, 8)]],
                     boneyard=[(2, 2)])
        assert plays(s) == {((12, 3), 0)}
        for action in (Draw(), Pass(), Mark()):
            with pytest.raises(IllegalAction):
                apply(s, action)
        s = run(s, Play(tile=(12, 3), train=0))
        assert plays(s) == {((3, 5), 0), ((3, 9), 0)}
        s = run(s, Play(tile=(3, 9), train=0))
        assert s.turn == 1 and s.phase == "chain"  # 3-5 no longer fits: seat 1 lays next
        s = run(s, Play(tile=(12, 4), train=1), Play(tile=(4, 4), train=1))
        assert plays(s) == {((4, 6), 1)}  # inside a chain a double is satisfied by the next tile
        s = run(s, Play(tile=(4, 6), train=1))
        assert s.phase == "turn" and s.turn == 0
        assert s.trains[0].tiles == ((12, 3), (3, 9)) and s.trains[1].end() == 6

    def test_chains_ending_on_doubles_all_block(self) -> None:
        """docs/rules.md §6, §8: chains ending on doubles leave them open; all block, any first."""
        s = position(self.RULES, phase="chain", turn=1, opening_queue=(2, 0), first_seat=0,
                     hands=[[(3, 1), (4, 2), (9, 10)], [(12, 3), (3, 3), (5, 6)],
                            [(12, 4), (4, 4), (7, 8)]],
                     boneyard=[(2, 2), (11, 11)])
        s = run(s, Play(tile=(12, 3), train=1), Play(tile=(3, 3), train=1),
                Play(tile=(12, 4), train=2), Play(tile=(4, 4), train=2))
        assert s.phase == "turn" and s.turn == 0
        assert plays(s) == {((3, 1), 1), ((4, 2), 2)}
        s = run(s, Play(tile=(4, 2), train=2))
        assert s.turn == 1 and kinds(s) == {"draw"}  # 3-3 still blocks seat 2


class TestOpeningFirstTurnChain:
    """docs/rules.md §8 opening=first_turn_chain: a chain on each player's first turn."""

    RULES = RuleSet(opening="first_turn_chain")

    def test_first_turn_lays_a_chain_on_own_train(self) -> None:
        """docs/rules.md §8 first_turn_chain: on the first turn, lay all you can on your own train."""
        s = position(self.RULES, hands=[[(12, 3), (3, 5), (12, 9), (1, 1)], [(4, 4), (8, 9)]],
                     boneyard=[(2, 2), (7, 7)])
        assert s.chain_right == (True, True)
        assert plays(s) == {((12, 3), 0), ((12, 9), 0)}  # not the Mexican Train
        s = run(s, Play(tile=(12, 3), train=0))
        assert s.turn == 0 and s.phase == "chain" and plays(s) == {((3, 5), 0)}
        with pytest.raises(IllegalAction):
            apply(s, Pass())
        s = run(s, Play(tile=(3, 5), train=0))
        assert s.turn == 1 and s.chain_right == (False, True)

    def test_later_turns_are_normal(self) -> None:
        """docs/rules.md §8 first_turn_chain: after the first turn, one tile a turn."""
        s = position(self.RULES, hands=[[(12, 3), (3, 5), (12, 9), (1, 1)], [(4, 4), (8, 9)]],
                     trains={0: [(12, 10)]}, chain_right=[False, True], boneyard=[(2, 2)])
        assert plays(s) == {((12, 3), MEXICAN), ((12, 9), MEXICAN)}
        s = run(s, Play(tile=(12, 3), train=MEXICAN))
        assert s.turn == 1

    def test_cannot_start_draws_and_plays_without_chain(self) -> None:
        """docs/rules.md §8 first_turn_chain: who cannot start draws one tile and plays it, no chain."""
        s = position(self.RULES, hands=[[(1, 2), (5, 6)], [(4, 4), (8, 9)]],
                     boneyard=[(12, 5), (7, 7)])
        s = run(s, Draw())
        assert plays(s) == {((12, 5), 0), ((12, 5), MEXICAN)}
        s = run(s, Play(tile=(12, 5), train=0))
        assert s.turn == 1 and s.hands[0] == ((1, 2), (5, 6)) and not s.chain_right[0]

    def test_first_turn_spent_by_drawing(self) -> None:
        """docs/rules.md §8 first_turn_chain: the chain belongs to the first turn only."""
        s = position(self.RULES, hands=[[(1, 2), (5, 6)], [(4, 4), (8, 9)]],
                     boneyard=[(10, 11), (7, 7), (12, 1)])
        s = run(s, Draw(), Mark(), Draw(), Mark())
        assert s.chain_right == (False, False)


class TestOpeningDelayedFirstTurn:
    """docs/rules.md §8 opening=delayed_first_turn: one chain kept until the train is started."""

    RULES = RuleSet(opening="delayed_first_turn")

    def test_chain_when_starting_own_train(self) -> None:
        """docs/rules.md §8 delayed: the turn a player starts their train, they lay a chain."""
        s = position(self.RULES, hands=[[(12, 3), (3, 5), (5, 9), (1, 1)], [(4, 4), (8, 9)]],
                     boneyard=[(2, 2)])
        assert plays(s) == {((12, 3), 0), ((12, 3), MEXICAN)}
        s = run(s, Play(tile=(12, 3), train=0), Play(tile=(3, 5), train=0), Play(tile=(5, 9), train=0))
        assert s.turn == 1 and s.chain_right == (False, True)

    def test_plays_elsewhere_keep_the_chain(self) -> None:
        """docs/rules.md §8 delayed: plays on other trains before starting do not use up the chain."""
        s = position(self.RULES, hands=[[(12, 3), (3, 5), (5, 9), (12, 1)], [(4, 4), (8, 9)]],
                     boneyard=[(2, 2), (6, 6)])
        s = run(s, Play(tile=(12, 1), train=MEXICAN), Draw(), Mark())
        assert s.chain_right == (True, True) and s.turn == 0
        s = run(s, Play(tile=(12, 3), train=0))
        assert s.phase == "chain" and plays(s) == {((3, 5), 0)}

    def test_one_tile_a_turn_after_the_start(self) -> None:
        """docs/rules.md §8 delayed: after the train is started, one tile a turn."""
        s = position(self.RULES, hands=[[(3, 5), (5, 9), (1, 1)], [(4, 4), (8, 9)]],
                     trains={0: [(12, 3)]}, chain_right=[False, True], boneyard=[(2, 2)])
        s = run(s, Play(tile=(3, 5), train=0))
        assert s.turn == 1

    def test_drawn_tile_that_can_start_may_be_kept(self) -> None:
        """docs/rules.md §8 delayed: a drawn tile that can start the train: start, or pass without marker."""
        s = position(self.RULES, hands=[[(1, 2), (5, 6)], [(4, 4), (8, 9)]],
                     boneyard=[(12, 5), (7, 7)])
        s = run(s, Draw())
        assert kinds(s) == {"play", "pass"}
        passed = run(s, Pass())
        assert not passed.trains[0].marker and passed.turn == 1 and passed.chain_right[0]
        started = run(s, Play(tile=(12, 5), train=0))
        assert started.phase == "chain" and plays(started) == {((5, 6), 0)}

    def test_drawn_tile_that_cannot_start_marks(self) -> None:
        """docs/rules.md §8 delayed: passing after a drawn tile that cannot start the train marks."""
        s = position(self.RULES, hands=[[(1, 2), (5, 6)], [(4, 4), (8, 9)]],
                     boneyard=[(10, 5), (7, 7)])
        s = run(s, Draw())
        assert kinds(s) == {"mark"}
        with pytest.raises(IllegalAction):
            apply(s, Pass())
        s = run(s, Mark())
        assert s.trains[0].marker

    def test_blocked_player_cannot_pass_without_marker(self) -> None:
        """docs/rules.md §6, §8 delayed: blocked by an open double, a drawn starter cannot start: marker."""
        s = position(self.RULES, hands=[[(1, 2), (5, 6)], [(4, 3), (8, 9)]],
                     trains={1: [(12, 4), (4, 4)]}, chain_right=[True, False],
                     boneyard=[(12, 5), (7, 7)])
        s = run(s, Draw())
        assert kinds(s) == {"mark"}
        s = run(s, Mark())
        assert s.trains[0].marker


class TestBranchingDoubles:
    """docs/rules.md §8 branching_doubles: a satisfied double grows two more branches."""

    RULES = RuleSet(branching_doubles=True)

    def test_satisfied_double_offers_three_ends(self) -> None:
        """docs/rules.md §8 branching: once satisfied, a double offers three ends on the same train."""
        s = position(self.RULES, hands=[[(5, 1), (5, 2), (5, 3), (9, 9)], [(4, 4), (8, 9)]],
                     trains={0: [(12, 5), (5, 5)]}, turn=1,
                     boneyard=[(10, 10), (11, 11), (0, 0)])
        assert len(new_game(self.RULES, 2, 0).trains[0].lines) == 1  # the engine does not branch
        s = run(s, Draw(), Mark())
        s = run(s, Play(tile=(5, 1), train=0))
        t = s.trains[0]
        assert t.lines == (((12, 5), (5, 5), (5, 1)), (), ()) and t.starts == (12, 5, 5)
        assert t.ends == (1, 5, 5)
        s = run(s, Draw(), Mark())
        assert branch_plays(s) == {((5, 2), 0, 1), ((5, 3), 0, 1), ((5, 2), 0, 2), ((5, 3), 0, 2)}
        s = run(s, Play(tile=(5, 2), train=0, branch=2))
        assert s.trains[0].lines[2] == ((5, 2),)

    def test_branches_share_the_marker(self) -> None:
        """docs/rules.md §8 branching: the branches belong to the same train: same owner, same marker."""
        lines = [[(12, 5), (5, 5), (5, 1)], (5, []), (5, [])]
        hands = [[(9, 9)], [(5, 2), (1, 3), (8, 9)]]
        private = position(self.RULES, hands=hands, trains={0: lines}, turn=1, boneyard=[(10, 10)])
        assert kinds(private) == {"draw"}
        marked = position(self.RULES, hands=hands, trains={0: lines}, markers={0}, turn=1,
                          boneyard=[(10, 10)])
        assert branch_plays(marked) == {((5, 2), 0, 1), ((5, 2), 0, 2), ((1, 3), 0, 0)}

    def test_open_double_on_a_branch_blocks(self) -> None:
        """docs/rules.md §6, §8 branching: a double open on a branch blocks like any other."""
        lines = [[(12, 5), (5, 5), (5, 1)], (5, [(5, 6), (6, 6)]), (5, [])]
        s = position(self.RULES, hands=[[(9, 9)], [(6, 2), (5, 3), (12, 8)]], trains={0: lines},
                     turn=1, boneyard=[(10, 10)])
        assert branch_plays(s) == {((6, 2), 0, 1)}

    def test_no_branch_without_the_option(self) -> None:
        """docs/rules.md §6: without branching_doubles a satisfied double is just part of the line."""
        s = position(RuleSet(), hands=[[(5, 1), (5, 2), (9, 9)], [(4, 4)]],
                     trains={0: [(12, 5), (5, 5)]}, boneyard=[(10, 10), (0, 0)])
        s = run(s, Play(tile=(5, 1), train=0))
        assert len(s.trains[0].lines) == 1
        with pytest.raises(IllegalAction) as err:
            apply(run(s, Draw(), Mark()), Play(tile=(5, 2), train=0, branch=1))
        assert (err.value.code, err.value.values) == ("no_branch", {"train": 0, "branch": 1})


class TestSwanDrive:
    """docs/rules.md §8 swan_drive: after your own train, one tile on each following public train."""

    RULES = RuleSet(swan_drive=True)
    TRAINS = {0: [(12, 1)], 1: [(12, 2)], 2: [(12, 3)], 3: [(12, 4)], MEXICAN: [(12, 5)]}

    def _state(self, hand, markers=(1, 3), mexican_starter=2):
        others = [[(9, 9)], [(10, 10)], [(11, 11)]]
        return position(self.RULES, hands=[hand, *others], trains=self.TRAINS, markers=markers,
                        mexican_starter=mexican_starter, boneyard=[(0, 0), (6, 6)])

    def test_swan_goes_round_public_trains_in_order(self) -> None:
        """docs/rules.md §8 swan_drive: own train, then seat 2 (marked), the Mexican (after its starter, seat 3), seat 4."""
        s = self._state([(1, 7), (2, 8), (5, 0), (4, 6), (3, 3)])
        s = run(s, Play(tile=(1, 7), train=0))
        assert s.phase == "swan" and s.turn == 0
        assert kinds(s) == {"play", "pass"} and plays(s) == {((2, 8), 1)}
        s = run(s, Play(tile=(2, 8), train=1))
        assert plays(s) == {((5, 0), MEXICAN)} and kinds(s) == {"play", "skip", "pass"}
        s = run(s, Skip())
        assert plays(s) == {((4, 6), 3)}
        with pytest.raises(IllegalAction) as err:
            apply(s, Skip())
        assert err.value.code == "cannot_skip_now"
        s = run(s, Play(tile=(4, 6), train=3))
        assert s.turn == 1 and s.phase == "turn"  # back at its own train: the drive ends

    def test_swan_is_optional(self) -> None:
        """docs/rules.md §8 swan_drive: going on is optional."""
        s = self._state([(1, 7), (2, 8), (5, 0)])
        s = run(s, Play(tile=(1, 7), train=0), Pass())
        assert s.turn == 1 and s.hands[0] == ((2, 8), (0, 5))

    def test_stops_at_first_train_it_cannot_play_on(self) -> None:
        """docs/rules.md §8 swan_drive: the drive stops at the first public train it cannot play on."""
        s = self._state([(1, 7), (5, 0), (4, 6)])
        s = run(s, Play(tile=(1, 7), train=0))
        assert s.turn == 1  # nothing fits seat 2's train: the turn is over

    def test_mexican_skipped_when_nothing_fits(self) -> None:
        """docs/rules.md §8 swan_drive: only the Mexican Train may be skipped."""
        s = self._state([(1, 7), (2, 8), (4, 6), (9, 10)])
        s = run(s, Play(tile=(1, 7), train=0), Play(tile=(2, 8), train=1))
        assert plays(s) == {((4, 6), 3)}

    def test_double_on_the_way_must_be_finished(self) -> None:
        """docs/rules.md §8 swan_drive: a double played on the way must be finished before moving on."""
        s = self._state([(1, 7), (2, 2), (2, 6), (5, 8), (3, 4)])
        s = run(s, Play(tile=(1, 7), train=0), Play(tile=(2, 2), train=1))
        assert s.phase == "follow_up" and plays(s) == {((2, 6), 1)}
        with pytest.raises(IllegalAction):
            apply(s, Play(tile=(5, 8), train=MEXICAN))
        s = run(s, Play(tile=(2, 6), train=1))
        assert s.phase == "swan" and plays(s) == {((5, 8), MEXICAN)}

    def test_an_open_double_left_by_a_chain_opening_blocks_the_drive(self) -> None:
        """docs/rules.md §6 + §8 swan_drive: open doubles block every other train, during a drive too.

        Chain openings can leave several doubles open (§6): satisfying the one on your own train
        starts a drive, but while the Mexican Train's 5-5 stays open the drive may not go on to
        seat 2's marked train; it may go on to satisfy the 5-5 itself."""
        rules = RuleSet(swan_drive=True, opening="first_turn_chain")
        trains = {0: [(12, 1), (1, 1)], 1: [(12, 2)], 2: [(12, 3)], MEXICAN: [(12, 5), (5, 5)]}
        hands = [[(1, 7), (2, 8), (5, 9), (4, 10)], [(9, 9)], [(10, 10)]]
        s = position(rules, hands=hands, trains=trains, markers={1}, mexican_starter=2,
                     chain_right=[False, False, False], boneyard=[(0, 0), (6, 6)])
        assert plays(s) == {((1, 7), 0), ((5, 9), MEXICAN)}  # only the open doubles
        s = run(s, Play(tile=(1, 7), train=0))
        # seat 2's train, next in the drive, is blocked by the 5-5: nothing to play, it ends
        assert s.turn == 1 and s.phase == "turn" and (2, 8) in s.hands[0]
        # with the blocking double on the next train, the drive may satisfy it
        trains = {0: [(12, 1), (1, 1)], 1: [(12, 2)], 2: [(12, 3)], MEXICAN: [(12, 5), (5, 5)]}
        s = position(rules, hands=hands, trains=trains, markers=(), mexican_starter=0,
                     chain_right=[False, False, False], boneyard=[(0, 0), (6, 6)])
        s = run(s, Play(tile=(1, 7), train=0))
        assert s.phase == "swan" and plays(s) == {((5, 9), MEXICAN)}

    def test_no_swan_without_playing_on_own_train(self) -> None:
        """docs/rules.md §8 swan_drive: only a play on your own train starts a drive."""
        s = self._state([(5, 0), (2, 8), (4, 6)])
        s = run(s, Play(tile=(5, 0), train=MEXICAN))
        assert s.turn == 1

    def test_mexican_sits_after_its_starter(self) -> None:
        """docs/rules.md §8 swan_drive: the Mexican Train follows the seat of the player who started it."""
        from mexitrain.rules import swan_order

        s = self._state([(1, 7)], mexican_starter=0)
        assert swan_order(s, 0) == [4, 1, 2, 3]
        assert swan_order(s, 2) == [3, 0, 4, 1]
        s = self._state([(1, 7)], mexican_starter=None)
        assert swan_order(s, 1) == [2, 3, 0]

    def test_without_the_option_one_tile(self) -> None:
        """docs/rules.md §5.3: without swan_drive, one tile a turn."""
        s = position(RuleSet(), hands=[[(1, 7), (2, 8)], [(9, 9)], [(10, 10)], [(11, 11)]],
                     trains=self.TRAINS, markers={1, 3}, boneyard=[(0, 0)])
        s = run(s, Play(tile=(1, 7), train=0))
        assert s.turn == 1


class TestFirstPlayer:
    """docs/rules.md §3, §8 first_player: random, chosen or heaviest; then clockwise."""

    def test_random_comes_from_the_seed(self) -> None:
        """docs/rules.md §3: round 1's first player is drawn at random from the seed."""
        firsts = [new_game(RuleSet(), players=4, seed=seed).first_seat for seed in range(40)]
        assert firsts == [new_game(RuleSet(), players=4, seed=seed).first_seat for seed in range(40)]
        assert set(firsts) == {0, 1, 2, 3}

    def test_chosen_seat(self) -> None:
        """docs/rules.md §3: the first player may be chosen in the setup."""
        for seat in range(3):
            s = new_game(RuleSet(first_player="chosen", first_seat=seat), players=3, seed=8)
            assert s.first_seat == s.turn == seat

    def test_chosen_from_the_command_line_counts_from_one(self) -> None:
        """docs/rules.md §8 first_player: first_seat=2 on the command line is the second seat."""
        rules = make_rules("standard", {"first_seat": "2"})
        assert rules.first_player == "chosen" and rules.first_seat == 1

    def test_heaviest_tile(self) -> None:
        """docs/rules.md §3: the holder of the heaviest tile starts (11-12 = 23 on double-12)."""
        rules = RuleSet(first_player="heaviest")
        checked = 0
        for seed in range(20):
            _, hands, _ = deal(rules, 4, seed, 1)
            holder = [i for i, h in enumerate(hands) if (11, 12) in h]
            if holder:
                assert new_game(rules, 4, seed).first_seat == holder[0]
                checked += 1
        assert checked >= 5

    def test_heaviest_prefers_the_double_on_equal_pips(self) -> None:
        """docs/rules.md §3 heaviest: on equal pips the double is heavier (11-11 before 10-12)."""
        rules = RuleSet(first_player="heaviest", set=12)
        for seed in range(200):
            _, hands, _ = deal(rules, 2, seed, 1)
            where = {t: i for i, h in enumerate(hands) for t in h}
            if (11, 12) not in where and (11, 11) in where and (10, 12) in where and \
                    where[(11, 11)] != where[(10, 12)]:
                assert new_game(rules, 2, seed).first_seat == where[(11, 11)]
                return
        pytest.fail("no deal with 11-11 and 10-12 in different hands found")


class TestHighestDouble:
    """docs/rules.md §3 engine=highest_double (the French how-to)."""

    RULES = RuleSet(engine="highest_double")

    def test_highest_double_held_is_the_engine(self) -> None:
        """docs/rules.md §3: the engine is the highest double held; its holder sets it, the next seat plays."""
        for seed in range(10):
            _, hands, boneyard = deal(self.RULES, 4, seed, 1)
            doubles = [(t[0], i) for i, h in enumerate(hands) for t in h if t[0] == t[1]]
            if not doubles:
                continue
            value, holder = max(doubles)
            s = new_game(self.RULES, 4, seed)
            assert (s.engine, s.engine_seat) == (value, holder)
            assert (value, value) not in s.hands[holder]
            assert len(s.hands[holder]) == 14 and s.boneyard == boneyard
            assert s.turn == s.first_seat == (holder + 1) % 4
            assert all(t.end() == value for t in s.trains)

    def test_one_round_by_default(self) -> None:
        """docs/rules.md §3: the French how-to describes one round, so this option defaults to one."""
        assert self.RULES.round_count == 1
        final = finish(new_game(RuleSet(engine="highest_double", set=6), 2, 4), random.Random(0))
        assert len(final.results) == 1

    def test_more_rounds_are_dealt_afresh(self) -> None:
        """docs/rules.md §3: with more rounds each is dealt afresh and may reuse an engine."""
        rules = RuleSet(engine="highest_double", set=6, rounds=10)
        final = finish(new_game(rules, 2, 4), random.Random(0))
        assert len(final.results) == 10
        for r in final.results:
            held = [t[0] for h in r.hands for t in h if t[0] == t[1]]
            if held:
                assert r.engine == max(held)
        assert len({r.engine for r in final.results}) < 10  # some engine came back

    def test_nobody_holds_a_double_draw_until_one_appears(self) -> None:
        """docs/rules.md §3 (house default): if nobody holds a double, seats draw in turn until one does."""
        rules = RuleSet(engine="highest_double", set=6, hand_size=2, first_player="chosen",
                        first_seat=1)
        found = 0
        for seed in range(60):
            _, hands, boneyard = deal(rules, 3, seed, 1)
            if any(t[0] == t[1] for h in hands for t in h):
                continue
            found += 1
            k = next(i for i, t in enumerate(boneyard) if t[0] == t[1])
            drawer = (1 + k) % 3
            s = new_game(rules, 3, seed)
            assert s.engine == boneyard[k][0] and s.engine_seat == drawer
            assert s.boneyard == boneyard[k + 1:]
            for seat in range(3):
                drawn = [boneyard[j] for j in range(k) if (1 + j) % 3 == seat]
                assert s.hands[seat] == hands[seat] + tuple(drawn)
            assert s.turn == (drawer + 1) % 3
        assert found >= 3


class TestTrainsStartPublic:
    """docs/rules.md §4 trains_start_public (the encyclopedia article)."""

    RULES = RuleSet(trains_start_public=True)

    def test_public_until_owner_first_plays(self) -> None:
        """docs/rules.md §4: every personal train is public until its owner first plays on it."""
        s = new_game(self.RULES, players=3, seed=1)
        assert all(t.public for t in s.trains)
        s = position(self.RULES, hands=[[(12, 4), (4, 5)], [(12, 7), (7, 8), (4, 9)], [(1, 1)]],
                     boneyard=[(2, 2)])
        assert plays(s) == {((12, 4), 0), ((12, 4), 1), ((12, 4), 2), ((12, 4), MEXICAN)}
        s = run(s, Play(tile=(12, 4), train=1))  # on seat 2's train: it stays public
        assert s.trains[1].public
        assert plays(s) == {((4, 9), 1), ((12, 7), 1), ((12, 7), 0), ((12, 7), 2),
                            ((12, 7), MEXICAN)} - {((12, 7), 1)}
        s = run(s, Play(tile=(4, 9), train=1))  # the owner's first play makes it private
        assert not s.trains[1].public and s.trains[0].public


class TestMustSatisfy:
    """docs/rules.md §6 double_follow_up=must_satisfy (the encyclopedia article, the French how-to)."""

    RULES = RuleSet(double_follow_up="must_satisfy")

    def test_follow_up_goes_on_the_double(self) -> None:
        """docs/rules.md §6 must_satisfy: the follow-up tile must go on the double itself."""
        s = position(self.RULES, hands=[[(5, 5), (5, 1), (3, 9), (7, 8)], [(0, 0)]],
                     trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(6, 6)])
        s = run(s, Play(tile=(5, 5), train=0))
        assert plays(s) == {((5, 1), 0)}
        with pytest.raises(IllegalAction) as err:
            apply(s, Play(tile=(3, 9), train=MEXICAN))
        assert (err.value.code, err.value.values) == ("must_satisfy", {"double": (5, 5), "train": 0})

    def test_unsatisfied_own_double_marks_own_train(self) -> None:
        """docs/rules.md §6 must_satisfy: the train the double is on becomes public: here, your own."""
        s = position(self.RULES, hands=[[(5, 5), (3, 9), (7, 8)], [(0, 0)]],
                     trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(6, 3), (1, 1)])
        s = run(s, Play(tile=(5, 5), train=0), Draw())
        assert kinds(s) == {"mark"}  # the drawn 6-3 fits the Mexican Train, but not the double
        s = run(s, Mark())
        assert s.trains[0].marker

    def test_double_on_mexican_marks_nothing(self) -> None:
        """docs/rules.md §6 must_satisfy: a double on the Mexican Train marks nothing."""
        s = position(self.RULES, hands=[[(3, 3), (9, 10), (7, 8)], [(0, 0)]],
                     trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(6, 1), (1, 1)])
        s = run(s, Play(tile=(3, 3), train=MEXICAN), Draw())
        assert kinds(s) == {"pass"}
        s = run(s, Pass())
        assert not any(t.marker for t in s.trains) and s.turn == 1
        assert kinds(s) == {"draw"}  # the open double blocks seat 2

    def test_double_on_a_public_train_marks_nothing(self) -> None:
        """docs/rules.md §6 must_satisfy: a double on an already public train marks nothing."""
        s = position(self.RULES, hands=[[(5, 5), (9, 10), (7, 8)], [(0, 0)], [(0, 1)]],
                     trains={1: [(12, 5)]}, markers={1}, boneyard=[(6, 1), (1, 1)])
        s = run(s, Play(tile=(5, 5), train=1), Draw(), Pass())
        assert [t.marker for t in s.trains] == [False, True, False, False]

    def test_default_rule_marks_own_train_for_a_double_on_mexican(self) -> None:
        """docs/rules.md §6 default: a failed follow-up marks your own train, wherever the double is."""
        s = position(RuleSet(), hands=[[(3, 3), (9, 10), (7, 8)], [(0, 0)]],
                     trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(6, 1), (1, 1)])
        s = run(s, Play(tile=(3, 3), train=MEXICAN), Draw())
        assert kinds(s) == {"mark"}


class TestPresets:
    """docs/rules.md §8 presets: Standard, Fast double-9 and Common, exactly as written."""

    def test_standard_is_seed_000(self) -> None:
        """docs/rules.md §8: Standard = the French leaflet's defaults on double-12."""
        std = PRESETS["standard"]
        assert std == RuleSet() and std.changed() == {}
        assert (std.set, std.round_count, std.engine, std.first_player) == (12, 13, "descending", "random")
        assert (std.double_follow_up, std.round_end, std.opening) == ("any", "boneyard_empty", "normal")
        assert not (std.trains_start_public or std.teams or std.open_hands or std.blanks_wild
                    or std.branching_doubles or std.swan_drive)

    def test_fast_double_nine(self) -> None:
        """docs/rules.md §8: Fast double-9: 2-4 players, 15/13/10 tiles, engines 9 down to 0."""
        fast = PRESETS["fast"]
        assert fast.changed() == {"set": 9, "hand_table": "fast"}
        assert [fast.tiles_each(n) for n in (2, 3, 4)] == [15, 13, 10]
        assert fast.round_count == 10
        with pytest.raises(RuleSetError):
            fast.tiles_each(5)
        assert make_rules("fast-double-9") == make_rules("double-9") == fast
        final = finish(new_game(fast, 2, 3), random.Random(4))
        assert [r.engine for r in final.results] == list(range(9, -1, -1))

    def test_common(self) -> None:
        """docs/rules.md §8: Common = the encyclopedia article's rules plus round_end = until_blocked."""
        common = PRESETS["common"]
        assert common.changed() == {
            "trains_start_public": True,
            "double_follow_up": "must_satisfy",
            "blanks_wild": True,
            "round_end": "until_blocked",
        }
        assert common.set == 12

    def test_options_over_a_preset(self) -> None:
        """docs/rules.md §8: every option is selectable over a preset."""
        rules = make_rules("common", {"swan-drive": "on", "set": "9", "rounds": "3"})
        assert rules.swan_drive and rules.set == 9 and rules.round_count == 3
        assert rules.blanks_wild
        assert pips((4, 5)) == 9

    def test_any_other_refusal_of_an_option_is_a_rule_set_error(self) -> None:
        """docs/rules.md §8: a refusal pydantic has no code for still becomes one clear line."""
        from mexitrain.rules.ruleset import rule_set_error
        from mexitrain.text.validation import ruleset_error_text

        error = rule_set_error({"loc": ("rounds",), "type": "some_new_check", "msg": "odd"})
        assert error.code == "invalid" and error.values == {"option": "rounds", "kind": "some_new_check"}
        assert ruleset_error_text(error) == "option rounds is not valid"


class TestCombinations:
    """docs/rules.md §6-§8: options that meet."""

    def test_must_satisfy_double_on_partners_train_marks_the_team(self) -> None:
        """docs/rules.md §6 must_satisfy + §8 teams: a failed double on the partner's train makes both public."""
        rules = RuleSet(teams=True, double_follow_up="must_satisfy")
        s = position(rules, hands=[[(4, 4), (9, 10), (1, 2)], [(6, 6)], [(3, 3)], [(7, 7)]],
                     trains={2: [(12, 4)]}, boneyard=[(8, 11), (0, 0)])
        s = run(s, Play(tile=(4, 4), train=2), Draw())
        assert kinds(s) == {"mark"}
        s = run(s, Mark())
        assert [t.marker for t in s.trains] == [True, False, True, False, False]

    def test_swan_after_satisfying_own_double(self) -> None:
        """docs/rules.md §8 swan_drive + §6: a double on your own train, satisfied there, then the drive."""
        rules = RuleSet(swan_drive=True, double_follow_up="must_satisfy")
        s = position(rules, hands=[[(1, 1), (1, 7), (2, 8), (9, 10)], [(9, 9)], [(10, 10)]],
                     trains={0: [(12, 1)], 1: [(12, 2)]}, markers={1}, boneyard=[(0, 0)])
        s = run(s, Play(tile=(1, 1), train=0))
        assert plays(s) == {((1, 7), 0)}
        s = run(s, Play(tile=(1, 7), train=0))
        assert s.phase == "swan" and plays(s) == {((2, 8), 1)}

    def test_first_turn_chain_blocked_by_an_open_double(self) -> None:
        """docs/rules.md §6 + §8 first_turn_chain: an open double left by a chain must be satisfied first."""
        rules = RuleSet(opening="first_turn_chain")
        s = position(rules, hands=[[(9, 9), (1, 2)], [(12, 3), (5, 6), (3, 11)]],
                     trains={0: [(12, 5), (5, 5)]}, chain_right=[False, True], turn=1,
                     boneyard=[(0, 0)])
        assert plays(s) == {((5, 6), 0)}
        s = run(s, Play(tile=(5, 6), train=0))
        assert s.chain_right == (False, False)

    def test_until_blocked_with_an_open_double(self) -> None:
        """docs/rules.md §6 + §7 until_blocked: a blocked player with nothing to draw marks and passes."""
        rules = RuleSet(round_end="until_blocked", rounds=1)
        s = position(rules, hands=[[(5, 8), (1, 2)], [(3, 4), (12, 6)]],
                     trains={0: [(12, 5), (5, 5)]}, turn=1)
        assert kinds(s) == {"mark"}  # 12-6 would start its own train, but 5-5 blocks
        s = run(s, Mark())
        assert s.trains[1].marker and s.idle_turns == 1
        assert plays(s) == {((5, 8), 0)}
        s = run(s, Play(tile=(5, 8), train=0))
        assert plays(s) == {((12, 6), 1), ((12, 6), MEXICAN)} and s.idle_turns == 0

    def test_blanks_wild_follow_up_with_a_blank_on_must_satisfy(self) -> None:
        """docs/rules.md §8 blanks_wild + must_satisfy: a blank satisfies the player's own double."""
        rules = RuleSet(blanks_wild=True, double_follow_up="must_satisfy")
        s = position(rules, hands=[[(5, 5), (0, 9), (3, 4)], [(6, 6)]], trains={0: [(12, 5)]},
                     boneyard=[(1, 1)])
        s = run(s, Play(tile=(5, 5), train=0))
        assert plays(s) == {((0, 9), 0)}

    def test_branching_after_a_satisfied_open_double(self) -> None:
        """docs/rules.md §8 branching + §6: whoever satisfies an open double grows the branches."""
        rules = RuleSet(branching_doubles=True)
        s = position(rules, hands=[[(3, 7), (1, 2)], [(5, 3), (5, 9)]],
                     trains={0: [(12, 5), (5, 5)]}, turn=1, boneyard=[(0, 0), (11, 11)])
        s = run(s, Play(tile=(5, 3), train=0))
        assert s.trains[0].ends == (3, 5, 5)
        s = run(s, Play(tile=(3, 7), train=0))
        # the branches are seat 1's train: private to seat 2, whose 5-9 cannot go there
        assert kinds(s) == {"draw"}


class TestOpeningsAtTheEdges:
    """docs/rules.md §8 openings: every seat lays its chain; a chain follows one line."""

    RULES = RuleSet(opening="simultaneous")

    def test_going_out_in_the_opening_lets_the_later_seats_lay(self) -> None:
        """docs/rules.md §8 simultaneous: every seat lays its chain before the round can end."""
        s = position(self.RULES, phase="chain", turn=0, opening_queue=(1, 2),
                     hands=[[(12, 3), (3, 5)], [(12, 4), (4, 6), (9, 9)], [(12, 7), (1, 2)]],
                     boneyard=[(2, 2)])
        s = run(s, Play(tile=(12, 3), train=0), Play(tile=(3, 5), train=0))
        assert s.results == () and s.phase == "chain" and s.turn == 1  # not over yet
        s = run(s, Play(tile=(12, 4), train=1), Play(tile=(4, 6), train=1))
        assert s.results == () and s.turn == 2
        s = run(s, Play(tile=(12, 7), train=2))
        r = s.results[0]
        assert (r.end, r.out_seat, r.scores) == ("domino", 0, (0, 18, 3))
        assert r.leftovers == ((), ((9, 9),), ((1, 2),))

    def test_several_seats_out_in_the_opening_all_score_zero(self) -> None:
        """docs/rules.md §8 simultaneous: each seat with no tile left scores 0; the record names the
        first of them in the opening order (house, §8)."""
        s = position(self.RULES, phase="chain", turn=1, first_seat=1, opening_queue=(2, 0),
                     hands=[[(12, 3)], [(12, 4), (9, 9)], [(12, 7), (7, 1)]],
                     boneyard=[(2, 2)])
        s = run(s, Play(tile=(12, 4), train=1), Play(tile=(12, 7), train=2),
                Play(tile=(7, 1), train=2))
        assert s.results == () and s.turn == 0
        s = run(s, Play(tile=(12, 3), train=0))
        r = s.results[0]
        assert (r.end, r.out_seat, r.scores) == ("domino", 2, (0, 18, 0))

    def test_a_team_is_out_when_either_partner_is_out_in_the_opening(self) -> None:
        """docs/rules.md §8 simultaneous + teams: a partner out in the opening gives the team 0."""
        rules = RuleSet(opening="simultaneous", teams=True)
        s = position(rules, phase="chain", turn=0, opening_queue=(1, 2, 3),
                     hands=[[(12, 3)], [(12, 4), (9, 9)], [(1, 2)], [(5, 6)]],
                     boneyard=[(2, 2)])
        s = run(s, Play(tile=(12, 3), train=0), Play(tile=(12, 4), train=1))
        r = s.results[0]
        assert (r.end, r.out_seat, r.scores) == ("domino", 0, (0, 18, 0, 11))

    def test_random_openings_never_end_before_every_chain(self) -> None:
        """docs/rules.md §8 simultaneous: in random double-6 3-player rounds, a round that ends in
        the opening ends with every seat's chain laid (no tile of a seat fits its train)."""
        rules = RuleSet(opening="simultaneous", set=6, rounds=1)
        ended_early = 0
        for seed in range(150):
            s = new_game(rules, players=3, seed=seed)
            rng = random.Random(seed)
            while s.phase == "chain":
                s = apply(s, rng.choice(legal_actions(s)))
            if s.over:
                ended_early += 1
                r = s.results[0]
                for seat, left in enumerate(r.leftovers):
                    own = [e for e in r.events if e.train == seat]
                    end = own[-1].tile[1] if own else r.engine
                    assert not any(end in t for t in left), "a chain was cut short"
        assert ended_early > 0

    def test_a_chain_follows_one_line_with_branching_doubles(self) -> None:
        """docs/rules.md §8 simultaneous + branching_doubles: the chain follows one line from the
        engine; the branches of a double it satisfies wait for normal turns."""
        rules = RuleSet(opening="simultaneous", branching_doubles=True)
        s = position(rules, phase="chain", turn=0, opening_queue=(1,),
                     hands=[[(12, 3), (3, 3), (3, 5), (3, 7), (3, 9)], [(12, 4), (1, 2)]],
                     boneyard=[(2, 2)])
        s = run(s, Play(tile=(12, 3), train=0), Play(tile=(3, 3), train=0))
        assert branch_plays(s) == {((3, 5), 0, 0), ((3, 7), 0, 0), ((3, 9), 0, 0)}
        s = run(s, Play(tile=(3, 5), train=0))
        assert s.trains[0].ends == (5, 3, 3)  # two branches grew, empty
        assert s.turn == 1 and s.phase == "chain"  # nothing fits 5: seat 0's chain is over
        assert set(s.hands[0]) == {(3, 7), (3, 9)}
        s = run(s, Play(tile=(12, 4), train=1))
        assert s.phase == "turn" and s.turn == 0
        assert branch_plays(s) == {((3, 7), 0, 1), ((3, 9), 0, 1), ((3, 7), 0, 2), ((3, 9), 0, 2)}

    def test_a_first_turn_chain_follows_one_line_with_branching_doubles(self) -> None:
        """docs/rules.md §8 first_turn_chain + branching_doubles: the chain follows one line too."""
        rules = RuleSet(opening="first_turn_chain", branching_doubles=True)
        s = position(rules, turn=0, hands=[[(12, 3), (3, 3), (3, 5), (3, 7)], [(12, 4), (1, 2)]],
                     boneyard=[(2, 2)])
        s = run(s, Play(tile=(12, 3), train=0), Play(tile=(3, 3), train=0),
                Play(tile=(3, 5), train=0))
        assert s.turn == 1 and s.hands[0] == ((3, 7),)


class TestChoicesWhereTheSourcesAreSilent:
    """docs/rules.md §10 (house readings), as docs/rules.md describes them: what the engine does."""

    def test_heaviest_tile_tie_a_double_wins(self) -> None:
        """docs/rules.md §3 first_player=heaviest, §10: on equal pips a double wins (5-5 over 4-6)."""
        rules = RuleSet(set=6, first_player="heaviest")
        _, hands, boneyard = deal(rules, 2, 6, 1)
        assert (5, 6) in boneyard and (5, 5) in hands[0] and (4, 6) in hands[1]
        assert new_game(rules, players=2, seed=6).first_seat == 0

    def test_a_double_on_an_open_wild_double_blank(self) -> None:
        """docs/rules.md §8 blanks_wild, §10: a double may be laid on an open 0-0; it satisfies the
        0-0 and opens a new double, which its player must follow (§6)."""
        rules = RuleSet(blanks_wild=True)
        s = position(rules, hands=[[(5, 5), (5, 6), (7, 8)], [(1, 1), (4, 9)]],
                     trains={1: [(12, 0), (0, 0)]}, boneyard=[(11, 11), (2, 3)])
        assert ((5, 5), 1) in plays(s)
        s = run(s, Play(tile=(5, 5), train=1))
        assert s.phase == "follow_up" and s.double_line == (1, 0)
        assert plays(s) == {((5, 6), 1)}  # the new double blocks; 7-8 fits nowhere
        # one's own 0-0 is still followed by a non-double only (§6)
        s = position(rules, hands=[[(0, 0), (5, 5), (7, 8)], [(1, 1), (4, 9)]],
                     trains={0: [(12, 0)]}, boneyard=[(11, 11), (2, 3)])
        s = run(s, Play(tile=(0, 0), train=0))
        assert {t for t, _ in plays(s)} == {(7, 8), (8, 7)}

    @pytest.mark.parametrize("partner_failed", [False, True])
    def test_both_stuck_failed_follow_up_under_any(self, partner_failed: bool) -> None:
        """docs/rules.md §8 both_stuck, §10: under double_follow_up=any, a turn that laid a double
        and failed its follow-up is a turn with a play: it passes, no marker, even when the
        partner failed."""
        rules = RuleSet(teams=True, team_marker="both_stuck")
        s = position(rules, hands=[[(5, 5), (1, 2)], [(3, 4)], [(7, 8)], [(9, 10)]],
                     trains={0: [(12, 5)]}, boneyard=[(1, 1), (11, 11)],
                     failed=[False, False, partner_failed, False])
        s = run(s, Play(tile=(5, 5), train=0), Draw())
        assert legal_actions(s) == (Pass(),)
        s = apply(s, Pass())
        assert not any(t.marker for t in s.trains)
        assert s.failed == (False, False, partner_failed, False)

    def test_both_stuck_failed_follow_up_under_must_satisfy(self) -> None:
        """docs/rules.md §6 must_satisfy, §8 both_stuck, §10: a failed follow-up marks the train the
        double is on (with its partner's: the two count as one), whatever the partner did;
        a double on a public train marks nothing."""
        rules = RuleSet(teams=True, team_marker="both_stuck", double_follow_up="must_satisfy")
        s = position(rules, hands=[[(5, 5), (1, 2)], [(3, 4)], [(7, 8)], [(9, 10)]],
                     trains={0: [(12, 5)]}, boneyard=[(1, 1), (11, 11)])
        s = run(s, Play(tile=(5, 5), train=0), Draw(), Mark())
        assert [t.marker for t in s.trains] == [True, False, True, False, False]
        s = position(rules, hands=[[(5, 5), (1, 2)], [(3, 4)], [(7, 8)], [(9, 10)]],
                     trains={MEXICAN: [(12, 5)]}, boneyard=[(1, 1), (11, 11)])
        s = run(s, Play(tile=(5, 5), train=MEXICAN), Draw())
        assert legal_actions(s) == (Pass(),)
        s = apply(s, Pass())
        assert not any(t.marker for t in s.trains)

    def test_first_turn_chain_when_only_another_train_can_be_played(self) -> None:
        """docs/rules.md §5, §8 first_turn_chain, §10: a player who cannot start their own train
        must play elsewhere if a tile fits (no draw); the chain right is then used up."""
        rules = RuleSet(opening="first_turn_chain")
        s = position(rules, hands=[[(5, 6), (3, 7)], [(1, 1), (4, 9)]],
                     trains={MEXICAN: [(12, 5)]}, mexican_starter=1, boneyard=[(11, 11), (2, 3)])
        assert legal_actions(s) == (Play(tile=(5, 6), train=MEXICAN),)
        s = run(s, Play(tile=(5, 6), train=MEXICAN))
        assert s.turn == 1 and s.chain_right == (False, True)
        # when the own train can be started, it must be: the chain comes first
        s = position(rules, hands=[[(5, 6), (3, 12)], [(1, 1), (4, 9)]],
                     trains={MEXICAN: [(12, 5)]}, mexican_starter=1, boneyard=[(11, 11), (2, 3)])
        assert legal_actions(s) == (Play(tile=(12, 3), train=0),)

    @pytest.mark.parametrize("team_marker", ["together", "both_stuck"])
    def test_swan_drive_with_teams_skips_the_partner(self, team_marker: str) -> None:
        """docs/rules.md §8 swan_drive + teams, §10: the partner's train is not a stop of the drive
        (a play on one's own train makes both partners' trains private)."""
        rules = RuleSet(teams=True, swan_drive=True, team_marker=team_marker)
        s = position(rules, hands=[[(5, 6), (7, 8), (9, 10), (3, 4)], [(1, 1)], [(2, 2)], [(0, 0)]],
                     trains={0: [(12, 5)], 1: [(12, 7)], 2: [(12, 9)], 3: [(12, 3)]},
                     markers=[1, 2, 3], boneyard=[(11, 11)])
        s = run(s, Play(tile=(5, 6), train=0))
        assert not s.trains[2].marker
        s = run(s, Play(tile=(7, 8), train=1))
        assert plays(s) == {((3, 4), 3)}  # 9-10 would fit the partner's train: not a stop

    def test_swan_drive_and_an_unstarted_mexican_train(self) -> None:
        """docs/rules.md §8 swan_drive, §10: the Mexican Train joins the order once started, just
        after its starter's seat; unstarted, it is no stop (the drive cannot start it)."""
        rules = RuleSet(swan_drive=True)
        s = position(rules, hands=[[(5, 6), (12, 8), (3, 4)], [(1, 1)], [(2, 2)]],
                     trains={0: [(12, 5)], 1: [(12, 3)]}, markers=[1], boneyard=[(11, 11)])
        s = run(s, Play(tile=(5, 6), train=0))
        assert plays(s) == {((3, 4), 1)}  # train 1, and no Mexican Train to start
        s = run(s, Play(tile=(3, 4), train=1))
        assert s.turn == 1 and s.hands[0] == ((8, 12),)
        s = position(rules, hands=[[(5, 6), (7, 8), (3, 4)], [(1, 1)], [(2, 2)]],
                     trains={0: [(12, 5)], 1: [(12, 3)], MEXICAN: [(12, 7)]}, markers=[1],
                     mexican_starter=0, boneyard=[(11, 11)])
        s = run(s, Play(tile=(5, 6), train=0))
        assert plays(s) == {((7, 8), MEXICAN)} and Skip() in legal_actions(s)
