"""The exact endgame search (mexitrain/players/endgame.py) and the expert that uses it."""

from __future__ import annotations

import random

import pytest
from support.positions import position

from mexitrain.players import LEVELS, PlannerPlayer
from mexitrain.players import endgame as eg
from mexitrain.players.expert import EndgameExpertPlayer, ExpertPlayer
from mexitrain.rules import MEXICAN, RuleSet, view
from mexitrain.rules.core import M_DRAW, from_state, legal, new_game, step


def brute(c, mine, value, number: int, done: int) -> float:
    """Minimax (expectation over draws) by plain enumeration: no table, no cuts, no order."""
    if c.over or c.round != number:
        return value(c.round_scores[done])
    ms = legal(c)
    if ms == [M_DRAW]:
        vals = []
        for i in range(len(c.bone) - c.bpos):
            r = c.copy()
            bone = c.bone[:]
            bone[c.bpos], bone[c.bpos + i] = bone[c.bpos + i], bone[c.bpos]
            r.bone = bone
            step(r, M_DRAW)
            vals.append(brute(r, mine, value, number, done))
        return sum(vals) / len(vals)
    vals = []
    for m in ms:
        r = c.copy()
        step(r, m)
        vals.append(brute(r, mine, value, number, done))
    return max(vals) if c.turn in mine else min(vals)


def small_endgames(count: int, tiles: int = 10, rules: RuleSet | None = None):
    """Positions of random double-6 games, two players, with at most ``tiles`` in hand and
    0 to 3 tiles left to draw, at a turn with a choice."""
    rules = rules or RuleSet(set=6, rounds=1)
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        c = new_game(rules, 2, seed)
        left = rng.randint(0, 3)
        while not c.over and (len(c.bone) - c.bpos > left or c.phase != 0 or len(legal(c)) < 2):
            step(c, rng.choice(legal(c)))
        if not c.over and sum(bin(h).count("1") for h in c.hands) <= tiles:
            out.append(c)
    return out


def test_the_solver_agrees_with_brute_force():
    """Alpha-beta, the table of positions and the move order change the work, not the value:
    on small endgames (draws as chance nodes among them) the value is the plain minimax's."""
    draws = 0
    for c in small_endgames(40):
        me = c.turn

        def value(s, me=me):
            return s[1 - me] - s[me]

        draws += c.bpos < len(c.bone)
        solver = eg.Solver([me], value, 10**6)
        assert solver.solve(c) == pytest.approx(brute(c, {me}, value, c.round, 0))
        for m in legal(c):  # and each move's value, as the expert asks it
            r = c.copy()
            step(r, m)
            assert solver.after(c, m) == pytest.approx(brute(r, {me}, value, c.round, 0))
    assert draws  # some with tiles left to draw


def test_a_bounded_value_is_a_true_bound():
    """With a window the solver may stop early: what it returns is then on the right side."""
    for c in small_endgames(15):
        me = c.turn

        def value(s, me=me):
            return s[1 - me] - s[me]

        exact = eg.Solver([me], value, 10**6).solve(c)
        for lo, hi in ((exact - 1, exact + 1), (exact + 0.5, exact + 9), (exact - 9, exact - 0.5)):
            v = eg.Solver([me], value, 10**6).solve(c, lo, hi)
            if v <= lo:
                assert exact <= lo
            elif v >= hi:
                assert exact >= hi
            else:
                assert v == pytest.approx(exact)


def _blocking_position():
    """Double-6, two players, the boneyard empty, seat 0 to move: 5-6 and 1-6 in hand, both
    fitting only the Mexican Train (its end: 6). Seat 1 holds 5-5, 2-2 and 1-5.

    - 6-5 (the heavier) leaves a 5: seat 1 lays 5-5 and follows it with 1-5; seat 0 goes
      out with 1-6 and seat 1 keeps 2-2: +4 for seat 0.
    - 6-1 leaves a 1: seat 1 can only lay 1-5; seat 0 goes out with 5-6 and seat 1 keeps
      5-5 and 2-2: +14. The best move, and not the heaviest tile's."""
    trains = {
        0: [(6, 3), (3, 3), (3, 0)],
        1: [(6, 0), (0, 1), (1, 1), (1, 2), (2, 0), (0, 0)],
        MEXICAN: [(6, 2), (2, 3), (3, 5), (5, 0), (0, 4), (4, 3), (3, 1), (1, 4), (4, 4), (4, 5), (5, 2),
                  (2, 4), (4, 6)],
    }
    return position(
        RuleSet(set=6, rounds=1), hands=[[(5, 6), (1, 6)], [(5, 5), (2, 2), (1, 5)]], trains=trains,
        markers=[1], engine=6,
    )


def test_the_solver_finds_the_blocking_move():
    c = from_state(_blocking_position())
    ms = legal(c)
    solver = eg.Solver([0], lambda s: s[1] - s[0], 10**6)
    i, values = eg.best_move(c, ms, solver)
    a = c.tab.action(ms[i])
    assert sorted(a.tile) == [1, 6] and a.train == MEXICAN
    assert max(values) == 14 and sorted(values) == [4, 14]


def test_the_expert_plays_it_from_its_view():
    """The seat's view holds one deal (the hidden hand is every unseen tile): the expert with
    the endgame search solves it from its view; the planner lays the heavier tile."""
    state = _blocking_position()
    v = view(state, 0)
    expert = EndgameExpertPlayer(1)
    a = expert.choose(v)
    assert sorted(a.tile) == [1, 6] and a.train == MEXICAN
    assert expert.last_stats["endgame"] == "exact"
    b = PlannerPlayer(1).choose(v)
    assert sorted(b.tile) == [5, 6] and b.train == MEXICAN


def test_out_of_budget_falls_back_to_the_rollouts():
    """A search that would visit more positions than its budget stops (the same on any
    machine), and the expert decides as without it."""
    state = _blocking_position()
    v = view(state, 0)
    small = EndgameExpertPlayer(1, endgame=2, rollouts=16)
    a = small.choose(v)
    assert small.last_stats.get("endgame") is None  # the rollouts' stats: no endgame
    assert a == ExpertPlayer(1, rollouts=16).choose(v)
    with pytest.raises(eg.OutOfBudget):
        eg.Solver([0], lambda s: s[1] - s[0], 2).solve(from_state(state))


def _hidden_changed(state, seat: int, rng):
    """The same position with the other hand and the boneyard dealt again from their tiles."""
    other = 1 - seat
    pool = list(state.hands[other]) + list(state.boneyard)
    rng.shuffle(pool)
    k = len(state.hands[other])
    hands = list(state.hands)
    hands[other] = tuple(pool[:k])
    return state.model_copy(update={"hands": tuple(hands), "boneyard": tuple(pool[k:])})


def test_sampled_endgames_read_only_the_view():
    """With tiles left to draw the search deals the hidden tiles itself: swapping tiles between
    the other hand and the boneyard leaves the seat's view, and the choice, unchanged."""
    rng = random.Random(5)
    seen = 0
    for c in small_endgames(30, tiles=12, rules=RuleSet(set=6, rounds=1)):
        if not 0 < len(c.bone) - c.bpos <= eg.MAX_BONEYARD:
            continue
        from mexitrain.rules.core import to_state

        state = to_state(c)
        seat = state.turn
        v = view(state, seat)
        expert = EndgameExpertPlayer(3, rollouts=16)
        a = expert.choose(v)
        if expert.last_stats.get("endgame") != "sampled":
            continue
        seen += 1
        for _ in range(2):
            other = _hidden_changed(state, seat, rng)
            assert view(other, seat) == v
            assert EndgameExpertPlayer(3, rollouts=16).choose(view(other, seat)) == a
    assert seen


def test_the_default_expert_is_unchanged():
    """The level ``expert`` keeps today's play (no endgame search), so that its kept tournament
    games replay (tests/players/test_tournament_hint.py replays them); the endgame expert is
    a research level, not offered in the game."""
    assert LEVELS["expert"] is ExpertPlayer and ExpertPlayer().endgame == 0
    assert "expert-2" not in LEVELS
    assert EndgameExpertPlayer().endgame == eg.NODE_BUDGET and EndgameExpertPlayer.name == "expert-2"


def test_moves_equal_under_best_play_go_to_the_rollouts():
    """Where several moves have the best value (they win or lose alike against best play),
    the rollouts, with the planner's play, choose among those only."""
    from mexitrain.rules.core import to_state

    seen = 0
    for c in small_endgames(40, tiles=12):
        if c.bpos < len(c.bone):
            continue
        state = to_state(c)
        seat = state.turn
        v = view(state, seat)
        expert = EndgameExpertPlayer(2, rollouts=16)
        a = expert.choose(v)
        stats = expert.last_stats
        assert stats["endgame"] == "exact"
        best = eg.tied(stats["values"])
        if len(best) > 1:
            seen += 1
            assert stats["rollouts"] > 0 and stats["tied"] == len(best)
        assert stats["moves"].index(a) in best  # never a move worse under best play
    assert seen
