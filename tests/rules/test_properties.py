"""Property tests: random legal games under random rule sets obey docs/rules.md throughout.

The sample size comes from the hypothesis profile (tests/conftest.py): small by default,
large with MEXITRAIN_HEAVY=1.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mexitrain.rules import (
    DRAW,
    HAND_SIZES,
    MARK,
    MEXICAN,
    PASS,
    SKIP,
    Event,
    GameState,
    IllegalAction,
    Play,
    RuleSet,
    RuleSetError,
    apply,
    deal,
    determinize,
    full_set,
    legal_actions,
    new_game,
    view,
    winners,
)
from mexitrain.rules.tiles import tile


@st.composite
def tables(draw, max_players: int = 13) -> tuple[RuleSet, int]:
    """A random rule set (every §8 option) and a player count it can seat."""
    n = draw(st.sampled_from([6, 9, 12, 15, 18]))
    table = "fast" if n == 9 and draw(st.booleans()) else "standard"
    top = min(HAND_SIZES[(n, table)][-1][0], max_players)
    teams = draw(st.booleans()) and top >= 4
    if teams:
        players = draw(st.sampled_from([p for p in (4, 6, 8) if p <= top]))
    else:
        players = draw(st.integers(2, top))
    engine = draw(st.sampled_from(["descending", "highest_double"]))
    hand_size = None
    if draw(st.integers(0, 4)) == 0:
        available = len(full_set(n)) - (engine == "descending")
        hand_size = draw(st.integers(1, available // players))
    rules = RuleSet(
        set=n,
        hand_table=table,
        hand_size=hand_size,
        rounds=draw(st.integers(1, 3)),
        engine=engine,
        first_player=draw(st.sampled_from(["random", "chosen", "heaviest"])),
        first_seat=draw(st.integers(0, players - 1)),
        double_follow_up=draw(st.sampled_from(["any", "must_satisfy"])),
        round_end=draw(st.sampled_from(["boneyard_empty", "until_blocked"])),
        trains_start_public=draw(st.booleans()),
        teams=teams,
        team_marker=draw(st.sampled_from(["together", "both_stuck"])),
        open_hands=draw(st.booleans()),
        blanks_wild=draw(st.booleans()),
        opening=draw(st.sampled_from(["normal", "simultaneous", "first_turn_chain",
                                      "delayed_first_turn"])),
        branching_doubles=draw(st.booleans()),
        swan_drive=draw(st.booleans()),
    )
    return rules, players


def _canon_tiles(state: GameState) -> Counter:
    every = Counter(t for h in state.hands for t in h)
    every.update(state.boneyard)
    every.update(tile(a, b) for tr in state.trains for a, b in tr.tiles)
    every[(state.engine, state.engine)] += 1
    return every


def _check_conservation(state: GameState) -> None:
    """Hands + boneyard + trains + engine = the set, each tile once."""
    assert _canon_tiles(state) == Counter(full_set(state.rules.set))


def _check_trains_match_events(state: GameState) -> None:
    """Every line of every train is exactly the play events on it, in order."""
    n = state.players
    laid: dict[tuple, list] = {}
    for e in state.events:
        if e.type == "play":
            laid.setdefault((e.train, e.branch), []).append(e.tile)
    for ti, train in enumerate(state.trains):
        ref = MEXICAN if ti == n else ti
        for li, line in enumerate(train.lines):
            assert list(line) == laid.pop((ref, li), []), (ref, li)
    assert not laid, f"plays on lines that do not exist: {laid}"


def _check_hands_match_events(state: GameState) -> None:
    """Each hand is its deal, plus its draws, minus its plays (descending engines)."""
    if state.rules.engine != "descending" or state.over:
        return
    for seat in range(state.players):
        hand = Counter(state.dealt_hands[seat])
        for e in state.events:
            if e.seat == seat and e.type == "draw":
                hand[e.tile] += 1
            elif e.seat == seat and e.type == "play":
                hand[tile(*e.tile)] -= 1
        assert +hand == Counter(state.hands[seat])


def _expected_event(state: GameState, action) -> Event:
    seat = state.turn
    if action.type == "play":
        return Event(seat=seat, type="play", tile=action.tile, train=action.train, branch=action.branch)
    if action.type == "draw":
        return Event(seat=seat, type="draw", tile=state.boneyard[0])
    if action.type == "mark":  # the event says whose train the marker goes on (§6)
        target = seat
        if state.phase in ("follow_up", "follow_up_drawn") and state.rules.double_follow_up == "must_satisfy":
            target = state.trains[state.double_line[0]].ref if state.double_line else seat
        return Event(seat=seat, type="mark", train=target)
    return Event(seat=seat, type=action.type)


def _final_position(state: GameState, action) -> GameState:
    """The position the round ended in: the same action, in a game that ends with this round."""
    shadow_rules = state.rules.model_copy(update={"rounds": len(state.results) + 1})
    final = apply(state.model_copy(update={"rules": shadow_rules}), action)
    assert final.over
    return final


def _check_round_end(before: GameState, action, after: GameState) -> None:
    """The RoundResult agrees with the position the round ended in (docs/rules.md §6, §7)."""
    rules, n = before.rules, before.players
    r = after.results[len(before.results)]
    final = _final_position(before, action)
    assert final.results[-1] == r
    assert r.leftovers == final.hands
    assert r.events == before.events + (_expected_event(before, action),)
    if rules.engine == "descending":
        assert r.engine == rules.set - (r.number - 1)
        assert r.first_seat == (before.starter + r.number - 1) % n
        assert deal(rules, n, before.seed, r.number) == (r.engine, r.hands, r.boneyard)
    else:
        assert r.first_seat == (r.engine_seat + 1) % n
        held = [t[0] for h in r.hands for t in h if t[0] == t[1]]
        if held:  # else it was drawn (house default)
            assert r.engine == max(held) and (r.engine, r.engine) in r.hands[r.engine_seat]
    # the seat out and any other with no tile left (§8 simultaneous), with their partners
    outs = {s for s, h in enumerate(r.leftovers) if not h} if r.out_seat is not None else set()
    team = outs | {final.partner(s) for s in outs}
    assert r.scores == tuple(0 if s in team else sum(a + b for a, b in h)
                             for s, h in enumerate(r.leftovers))
    if r.end == "domino":
        assert r.leftovers[r.out_seat] == ()
        if before.phase == "chain" and rules.opening == "simultaneous":
            # §8: the round ends once every seat has laid its opening chain; the first seat
            # in the opening order with no tile left is named
            order = [(before.first_seat + k) % n for k in range(n)]
            assert r.out_seat == next(s for s in order if not r.leftovers[s])
        else:
            assert r.out_seat == before.turn
    elif r.end == "stuck":
        assert rules.round_end == "boneyard_empty"
        assert final.boneyard == () and r.out_seat is None
        phase = "follow_up" if final.double_line is not None else "turn"
        stuck = final.model_copy(update={"phase": phase})
        assert legal_actions(stuck) == (), "the mover could still play"
        assert all(len(h) > 0 for h in r.leftovers)
    else:
        assert r.end == "blocked" and rules.round_end == "until_blocked"
        assert final.boneyard == () and r.out_seat is None
        last_play = max((i for i, e in enumerate(r.events) if e.type == "play"), default=-1)
        ends = [e for e in r.events[last_play + 1:] if e.type in ("mark", "pass")]
        assert len(ends) >= n
        seats = [e.seat for e in ends[-n:]]
        assert sorted(seats) == list(range(n))
        assert all((b - a) % n == 1 for a, b in zip(seats, seats[1:], strict=False))


def _lays(t: tuple[int, int], end: int, wild: bool) -> set[tuple[int, int]]:
    """docs/rules.md §4, §8 blanks_wild, written afresh: every way to lay ``t`` on ``end``."""
    a, b = t
    return {(x, y) for x, y in ((a, b), (b, a)) if x == end or (wild and (x == 0 or end == 0))}


def _oracle_plays(state: GameState) -> set[tuple] | None:
    """The legal plays by docs/rules.md §4-§6 (None where a variant phase rules instead)."""
    rules, seat, n, phase = state.rules, state.turn, state.players, state.phase
    if phase not in ("turn", "drawn", "follow_up", "follow_up_drawn") or state.swan_pos is not None:
        return None
    if rules.opening == "first_turn_chain" and state.chain_right[seat]:
        return None
    wild = rules.blanks_wild
    pool = [t for h in state.hands for t in h] + list(state.boneyard)
    team = {seat, state.partner(seat)}
    owed = state.double_line
    lines = [(ti, li) for ti, tr in enumerate(state.trains) for li in range(len(tr.lines))]

    def last(ti, li):
        line = state.trains[ti].lines[li]
        return line[-1] if line else None

    blocking = [
        (ti, li) for ti, li in lines
        if last(ti, li) and last(ti, li)[0] == last(ti, li)[1] and (ti, li) != owed
        and any(_lays(t, last(ti, li)[1], wild) for t in pool)
    ]
    allowed = [(ti, li) for ti, li in lines
               if ti == n or state.trains[ti].marker or ti in team]
    if phase in ("turn", "drawn"):
        targets = blocking or allowed
    elif rules.double_follow_up == "must_satisfy":
        targets = [owed]
    else:
        targets = (blocking or allowed) + ([owed] if owed not in (blocking or allowed) else [])
    if phase in ("drawn", "follow_up_drawn"):
        tiles = [state.drawn]
    else:
        tiles = list(state.hands[seat])
    if phase.startswith("follow_up"):
        tiles = [t for t in tiles if t[0] != t[1]]
    return {
        (lay, MEXICAN if ti == n else ti, li)
        for ti, li in targets for t in tiles for lay in _lays(t, state.trains[ti].end(li), wild)
    }


def _check_legal_actions(state: GameState, legal) -> None:
    """Legal actions agree with docs/rules.md: forced play, the right targets, no draw beside a play."""
    kinds = {a.type for a in legal}
    got = {(a.tile, a.train, a.branch) for a in legal if a.type == "play"}
    if "play" in kinds:
        assert not kinds & {"draw", "mark"}, f"draw or mark offered beside a play: {kinds}"
    expected = _oracle_plays(state)
    if expected is not None:
        assert got == expected, (state.phase, got ^ expected)
    if state.phase in ("turn", "follow_up") and not got:
        if state.boneyard:
            assert kinds == {"draw"}
        else:
            assert state.rules.round_end == "until_blocked" and len(kinds & {"mark", "pass"}) == 1


def _check_markers(before: GameState, action, after: GameState) -> None:
    """A marker comes only with Mark; it leaves only when its owner's side plays on it (§4, §8)."""
    if len(after.results) > len(before.results) or after.round != before.round:
        return
    seat = before.turn
    team = {seat, before.partner(seat)}
    for ti in range(before.players):
        was, now = before.trains[ti].marker, after.trains[ti].marker
        if was and not now:
            assert action.type == "play" and ti in team, (action, ti)
            assert action.train in team
        if now and not was:
            assert action.type == "mark", (action, ti)


def _probe(state: GameState, rng: random.Random) -> None:
    """A random candidate action is refused (IllegalAction, snapshot unchanged) iff not legal."""
    legal = legal_actions(state)
    seat = state.turn
    pool = [DRAW, MARK, PASS, SKIP]
    hand = state.hands[seat]
    if hand:
        a, b = rng.choice(hand)
        ref = rng.choice([*range(state.players), MEXICAN])
        pool.append(Play(tile=rng.choice([(a, b), (b, a)]), train=ref, branch=rng.choice([0, 0, 1])))
    action = rng.choice(pool)
    is_legal = any(
        x.type == action.type and (x.type != "play" or
                                   (x.tile, x.train, x.branch) == (action.tile, action.train, action.branch))
        for x in legal
    )
    snapshot = state.model_dump()
    try:
        apply(state, action)
        assert is_legal, f"{action} was applied but is not listed as legal"
    except IllegalAction as err:
        assert not is_legal, f"{action} is listed as legal but refused: {err}"
        assert str(err)
    assert state.model_dump() == snapshot


def _check_view(state: GameState, legal, rng: random.Random) -> None:
    """The mover's view hides what it must, and any determinization of it allows the same actions."""
    seat = state.turn
    v = view(state, seat)
    assert v.hand == state.hands[seat] and v.hand_sizes == state.hand_sizes
    if not state.rules.open_hands:
        assert all(h is None for i, h in enumerate(v.hands) if i != seat)
        assert all(e.tile is None for e in v.events if e.type == "draw" and e.seat != seat)
    d = determinize(v, random.Random(rng.random()))
    assert _canon_tiles(d) == _canon_tiles(state)
    assert legal_actions(d) == legal, "legality depends on hidden tiles"


def _play_game(rules: RuleSet, players: int, seed: int, choice_seed: int) -> GameState:
    rng = random.Random(choice_seed)
    state = new_game(rules, players=players, seed=seed)
    _check_conservation(state)
    for _ in range(200_000):
        if state.over:
            break
        actions = legal_actions(state)
        assert actions, "no legal action in a game that is not over"
        _check_legal_actions(state, actions)
        if rng.random() < 0.2:
            _probe(state, rng)
            _check_view(state, actions, rng)
        action = rng.choice(actions)
        after = apply(state, action)
        _check_markers(state, action, after)
        if len(after.results) > len(state.results):
            _check_round_end(state, action, after)
        else:
            assert after.events == state.events + (_expected_event(state, action),)
        state = after
        _check_conservation(state)
        _check_trains_match_events(state)
        _check_hands_match_events(state)
    assert state.over
    assert len(state.results) == rules.round_count
    assert state.winners == winners(state) and state.winners
    return state


@given(tables(max_players=6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_games_obey_the_rules(table, seed: int, choice_seed: int) -> None:
    """docs/rules.md §2-§8: random legal games under random options never fail, conserve tiles,
    log every action, and end and score every round as §7 says."""
    rules, players = table
    _play_game(rules, players, seed, choice_seed)


@pytest.mark.slow
@given(tables(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_games_obey_the_rules_large_tables(table, seed: int, choice_seed: int) -> None:
    """docs/rules.md §2-§8: the same, up to 13 players (heavy runs only)."""
    rules, players = table
    _play_game(rules, players, seed, choice_seed)


@given(st.sampled_from([6, 9, 12, 15, 18]), st.integers(1, 14), st.integers(1, 200),
       st.sampled_from(["descending", "highest_double"]), st.booleans())
def test_impossible_tables_are_refused(n: int, players: int, each: int, engine: str,
                                       teams: bool) -> None:
    """docs/rules.md §2: a table is dealt when it can be, else refused with RuleSetError, never a crash."""
    rules = RuleSet(set=n, hand_size=each, engine=engine, teams=teams)
    available = len(full_set(n)) - (engine == "descending")
    possible = (2 <= players <= rules.max_players and players * each <= available
                and (not teams or players in (4, 6, 8)))
    try:
        state = new_game(rules, players=players, seed=each)
    except RuleSetError as err:
        assert not possible and str(err)
        return
    assert possible
    _check_conservation(state)
