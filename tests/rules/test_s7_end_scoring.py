"""docs/rules.md §7: the end of a round, scoring, totals and tie-breaks."""

from __future__ import annotations

from support.positions import kinds, pip_count, position, run

from mexitrain.rules import (
    MEXICAN,
    Draw,
    GameState,
    Mark,
    Play,
    RoundResult,
    RuleSet,
    decided_by,
    new_game,
    standings,
    winners,
)

ONE = RuleSet(rounds=1)


def test_domino_ends_the_round_even_with_a_double_open() -> None:
    """docs/rules.md §7: the round ends when a player plays their last tile, even with a double open."""
    s = position(ONE, hands=[[(5, 5), (3, 8)], [(5, 2), (9, 9)]],
                 trains={0: [(12, 5)], MEXICAN: [(12, 3)]}, boneyard=[(6, 6)])
    s = run(s, Play(tile=(5, 5), train=0), Play(tile=(3, 8), train=MEXICAN))
    assert s.over
    r = s.results[0]
    assert (r.end, r.out_seat) == ("domino", 0)
    assert r.scores == (0, 7 + 18)


def test_scores_are_the_pips_left_and_zero_for_the_one_out() -> None:
    """docs/rules.md §7: each player scores the pips left in hand; the one who went out scores 0."""
    hands = [[(12, 3)], [(5, 7), (9, 9)], [(0, 0), (0, 1)], [(10, 11)]]
    s = position(ONE, hands=hands, boneyard=[(6, 6)])
    s = run(s, Play(tile=(12, 3), train=0))
    assert s.results[0].scores == (0, 12 + 18, 1, 21)
    assert s.results[0].leftovers == ((), ((5, 7), (9, 9)), ((0, 0), (0, 1)), ((10, 11),))
    assert s.winners == (0,)


def test_last_tile_drawn_does_not_end_the_round() -> None:
    """docs/rules.md §7: the round does not end when the last tile is drawn."""
    s = position(ONE, hands=[[(1, 2), (3, 4)], [(12, 6), (6, 7)]], boneyard=[(8, 9)])
    s = run(s, Draw())
    assert s.boneyard == () and not s.over
    s = run(s, Mark())
    assert not s.over and s.turn == 1 and s.trains[0].marker
    assert kinds(s) == {"play"}


def test_last_tile_drawn_and_played() -> None:
    """docs/rules.md §7: a drawn last tile that fits is played and the round goes on."""
    s = position(ONE, hands=[[(1, 2), (3, 4)], [(12, 6), (6, 7)]], boneyard=[(12, 9)])
    s = run(s, Draw(), Play(tile=(12, 9), train=0))
    assert not s.over and s.turn == 1


def test_boneyard_empty_round_ends_when_a_player_would_have_to_draw() -> None:
    """docs/rules.md §7: the round ends when a player would have to draw and the boneyard is empty."""
    s = position(ONE, hands=[[(1, 2), (3, 4)], [(12, 6), (6, 7), (0, 0)]], boneyard=[(8, 9)])
    s = run(s, Draw(), Mark(), Play(tile=(12, 6), train=1))
    # seat 0 has no play and the boneyard is empty: the round is over
    assert s.over
    r = s.results[0]
    assert (r.end, r.out_seat) == ("stuck", None)
    assert r.scores == (3 + 7 + 17, 13)
    assert r.leftovers[0] == ((1, 2), (3, 4), (8, 9))


def test_boneyard_empty_ends_when_the_follow_up_would_need_a_draw() -> None:
    """docs/rules.md §6, §7: a follow-up needing a draw from the empty boneyard ends the round."""
    s = position(ONE, hands=[[(11, 0), (0, 0), (7, 8)], [(1, 2)]], engine=11)
    s = run(s, Play(tile=(11, 0), train=0))
    assert s.over and s.results[0].end == "stuck"  # seat 1 has no play, and nothing to draw
    s = position(ONE, hands=[[(0, 0), (7, 8)], [(1, 2)]], engine=11, trains={0: [(11, 0)]})
    s = run(s, Play(tile=(0, 0), train=0))
    assert s.over and s.results[0].end == "stuck" and s.results[0].scores == (15, 3)


class TestUntilBlocked:
    """docs/rules.md §7 option round_end = until_blocked."""

    RULES = RuleSet(rounds=1, round_end="until_blocked")

    def test_empty_boneyard_marker_and_pass(self) -> None:
        """docs/rules.md §7 until_blocked: a player who must draw from an empty boneyard marks and passes."""
        s = position(self.RULES, hands=[[(1, 2)], [(12, 6), (6, 7)], [(3, 3)]])
        assert kinds(s) == {"mark"}
        s = run(s, Mark())
        assert not s.over and s.trains[0].marker and s.turn == 1

    def test_ends_after_every_player_in_a_row_without_playing(self) -> None:
        """docs/rules.md §7 until_blocked: the round ends when every player in a row ended without playing."""
        s = position(self.RULES, hands=[[(1, 2)], [(12, 6), (9, 10)], [(3, 3)]])
        s = run(s, Mark(), Play(tile=(12, 6), train=1), Mark(), Mark())
        assert not s.over and s.turn == 1, "seat 1 has not passed since it played"
        assert s.idle_turns == 2
        s = run(s, Mark())
        assert s.over
        r = s.results[0]
        assert (r.end, r.out_seat) == ("blocked", None)
        assert r.scores == (3, 19, 6)

    def test_turns_with_a_boneyard_do_not_count(self) -> None:
        """docs/rules.md §7 until_blocked: idle turns count only once the boneyard is empty."""
        s = position(self.RULES, hands=[[(1, 2)], [(3, 4)]], boneyard=[(5, 6), (7, 8)])
        s = run(s, Draw(), Mark(), Draw(), Mark())
        assert not s.over and s.boneyard == ()
        # the second draw emptied the boneyard: that turn counts, so one more idle turn ends it
        s = run(s, Mark())
        assert s.over and s.results[0].end == "blocked"

    def test_draw_still_required_while_the_boneyard_has_tiles(self) -> None:
        """docs/rules.md §5.2, §7: until_blocked changes nothing while tiles remain to draw."""
        s = position(self.RULES, hands=[[(1, 2)], [(3, 4)]], boneyard=[(5, 6)])
        assert kinds(s) == {"draw"}


def _with_results(players: int, rows: list[tuple[int, ...]], teams: bool = False) -> GameState:
    state = new_game(RuleSet(teams=teams), players=players, seed=0)
    results = tuple(
        RoundResult(number=i + 1, engine=12 - i, first_seat=0, hands=(), boneyard=(), events=(),
                    end="stuck", out_seat=None, leftovers=(), scores=row)
        for i, row in enumerate(rows)
    )
    return state.model_copy(update={"results": results})


def test_lowest_total_wins() -> None:
    """docs/rules.md §7: the game total is the sum of round scores; the lowest total wins."""
    s = _with_results(3, [(10, 0, 5), (10, 20, 4)])
    rows = standings(s)
    assert [(r.seats, r.total, r.place) for r in rows] == [((2,), 9, 1), ((1,), 20, 2), ((0,), 20, 3)]
    assert winners(s) == (2,) and decided_by(s) == "total"


def test_tie_break_most_zero_rounds() -> None:
    """docs/rules.md §7: tied totals: most rounds scored 0 wins."""
    s = _with_results(2, [(0, 5), (30, 25)])
    assert winners(s) == (0,) and decided_by(s) == "zero_rounds"
    assert standings(s)[0].zero_rounds == 1


def test_tie_break_lowest_non_zero_round() -> None:
    """docs/rules.md §7: still tied: the lowest non-zero single-round score wins."""
    s = _with_results(2, [(0, 0), (10, 4), (10, 16)])
    assert winners(s) == (1,) and decided_by(s) == "lowest_nonzero"
    assert [r.lowest_nonzero for r in standings(s)] == [4, 10]


def test_shared_win() -> None:
    """docs/rules.md §7 (house default): still tied, the win is shared."""
    s = _with_results(3, [(0, 9, 0), (12, 3, 12), (4, 4, 4)])
    assert winners(s) == (0, 2) and decided_by(s) == "shared"
    assert [r.place for r in standings(s)] == [1, 1, 3]


def test_first_places_from_round_scores_agree_with_winners() -> None:
    """docs/rules.md §7: the order of merit from bare round scores (what a computer player asks of
    a round it imagines) is the standings' own, tie-breaks and shared wins included."""
    from mexitrain.rules.scoring import first_places

    for players, rounds in [
        (3, [(10, 0, 5), (10, 20, 4)]),
        (2, [(0, 5), (30, 25)]),
        (2, [(0, 0), (10, 4), (10, 16)]),
        (3, [(0, 9, 0), (12, 3, 12), (4, 4, 4)]),
    ]:
        s = _with_results(players, rounds)
        per_side = [[r[i] for r in rounds] for i in range(players)]
        assert first_places(per_side) == winners(s)


def test_winners_recorded_at_game_end() -> None:
    """docs/rules.md §7: the finished game names its winners."""
    s = position(ONE, hands=[[(12, 3)], [(1, 2)]], boneyard=[(5, 5)])
    s = run(s, Play(tile=(12, 3), train=0))
    assert s.over and s.winners == winners(s) == (0,)
    assert pip_count([(1, 2)]) == s.results[0].scores[1]


def test_team_totals_and_tie_breaks_on_team_scores() -> None:
    """docs/rules.md §7, §8 teams: totals and tie-breaks apply to team scores (both hands)."""
    # seats 0 and 2 are partners, as are 1 and 3
    s = _with_results(4, [(0, 5, 0, 0), (10, 3, 10, 7)], teams=True)
    rows = standings(s)
    assert [(r.seats, r.total, r.zero_rounds) for r in rows] == [((1, 3), 15, 0), ((0, 2), 20, 1)]
    assert winners(s) == (1, 3)
    tied = _with_results(4, [(0, 5, 0, 0), (10, 3, 10, 12)], teams=True)
    assert winners(tied) == (0, 2) and decided_by(tied) == "zero_rounds"
