"""docs/rules.md §5.4, §8 open_hands: what one seat may know (hidden information)."""

from __future__ import annotations

import random

from support.positions import position, run

from mexitrain.rules import (
    Draw,
    Mark,
    Play,
    RuleSet,
    SeatView,
    apply,
    determinize,
    full_set,
    legal_actions,
    new_game,
    view,
    view_legal_actions,
)


def _midgame(rules: RuleSet, players: int, seed: int, steps: int) -> list:
    """Snapshots of a random game (one per action), for views at many moments."""
    rng = random.Random(seed)
    s = new_game(rules, players=players, seed=seed)
    out = [s]
    for _ in range(steps):
        if s.over:
            break
        s = apply(s, rng.choice(legal_actions(s)))
        out.append(s)
    return out


def test_own_hand_and_sizes_only() -> None:
    """docs/rules.md §8: without open_hands a seat sees its own hand, and only the sizes of the others."""
    s = new_game(RuleSet(), players=4, seed=3)
    for seat in range(4):
        v = view(s, seat)
        assert v.hand == s.hands[seat]
        assert v.hands == tuple(s.hands[i] if i == seat else None for i in range(4))
        assert v.hand_sizes == (15, 15, 15, 15)
        assert v.boneyard_size == len(s.boneyard) == 30
        assert v.trains == s.trains


def test_no_boneyard_nor_deal_in_the_view() -> None:
    """docs/rules.md §8: the boneyard (and its order) is hidden from everyone."""
    fields = set(SeatView.model_fields)
    assert not {"boneyard", "dealt_hands", "dealt_boneyard", "seed"} & fields
    # the seed is revealed only at the game's end (tests/rules/test_seeds.py)
    assert view(new_game(RuleSet(), players=2, seed=2**128 + 3), 0).revealed_seed is None
    s = new_game(RuleSet(open_hands=True), players=2, seed=1)
    dumped = view(s, 0).model_dump()
    assert "boneyard" not in dumped and dumped["boneyard_size"] == 60


def test_unseen_is_hidden_hands_plus_boneyard() -> None:
    """docs/rules.md §8: the tiles a seat cannot see are exactly the other hands and the boneyard."""
    for s in _midgame(RuleSet(), 3, 5, 60)[::7]:
        if s.over:
            continue
        v = view(s, 1)
        hidden = sorted([t for i, h in enumerate(s.hands) if i != 1 for t in h] + list(s.boneyard))
        assert sorted(v.unseen()) == hidden


def test_others_draws_hidden_own_draws_shown() -> None:
    """docs/rules.md §8: a tile another seat drew stays hidden; your own draws you see."""
    s = position(RuleSet(), hands=[[(1, 2)], [(3, 4)], [(5, 6)]], boneyard=[(7, 8), (9, 10), (0, 0)])
    s = run(s, Draw())
    assert view(s, 0).drawn == (7, 8) and view(s, 1).drawn is None
    s = run(s, Mark())
    assert view(s, 0).events[0].tile == (7, 8)
    assert view(s, 1).events[0].tile is None and view(s, 1).events[0].type == "draw"
    assert view(s, 2).events[0].seat == 0
    assert view(s, 1).hand_sizes == (2, 1, 1)


def test_history_of_finished_rounds_hides_the_deal() -> None:
    """docs/rules.md §7, §8: finished rounds show their scores and leftovers, never the deal or draws."""
    states = _midgame(RuleSet(set=6, rounds=2), 2, 11, 2000)
    s = next(x for x in states if x.results)
    r = s.results[0]
    for seat in range(2):
        pr = view(s, seat).results[0]
        assert not {"hands", "boneyard", "events"} & set(type(pr).model_fields)
        assert (pr.number, pr.engine, pr.first_seat) == (r.number, r.engine, r.first_seat)
        assert (pr.scores, pr.leftovers, pr.end, pr.out_seat) == (r.scores, r.leftovers, r.end, r.out_seat)


def test_open_hands_shows_everything_but_the_boneyard() -> None:
    """docs/rules.md §8 open_hands: every hand visible to every player; only the boneyard is hidden."""
    for s in _midgame(RuleSet(open_hands=True), 3, 2, 40)[::5]:
        for seat in range(3):
            v = view(s, seat)
            assert v.hands == s.hands
            assert v.events == s.events
            assert sorted(v.unseen()) == sorted(s.boneyard)


def test_knock_visible_to_all() -> None:
    """docs/rules.md §5.4: when a player is down to one tile, every player can see it."""
    s = position(RuleSet(), hands=[[(12, 3), (4, 5)], [(1, 1), (2, 2)]], boneyard=[(6, 6)])
    s = run(s, Play(tile=(12, 3), train=0))
    assert all(view(s, seat).hand_sizes[0] == 1 for seat in range(2))


def test_determinize_is_consistent_with_the_view() -> None:
    """docs/rules.md §8: a determinized snapshot agrees with everything the seat can see."""
    rules = RuleSet()
    for s in _midgame(rules, 4, 7, 120)[::9]:
        if s.over:
            continue
        seat = s.turn
        v = view(s, seat)
        expected = {(a.type, getattr(a, "tile", None), getattr(a, "train", None), getattr(a, "branch", 0))
                    for a in legal_actions(s)}
        for k in range(4):
            d = determinize(v, random.Random(k))
            assert d.hands[seat] == s.hands[seat]
            assert d.hand_sizes == s.hand_sizes and len(d.boneyard) == len(s.boneyard)
            assert d.trains == s.trains and d.turn == s.turn and d.phase == s.phase
            everything = sorted([t for h in d.hands for t in h] + list(d.boneyard)
                                + [(min(t), max(t)) for tr in d.trains for t in tr.tiles]
                                + [(d.engine, d.engine)])
            assert everything == sorted(full_set(12))
            got = {(a.type, getattr(a, "tile", None), getattr(a, "train", None), getattr(a, "branch", 0))
                   for a in legal_actions(d)}
            assert got == expected
        assert {(a.type, getattr(a, "tile", None)) for a in view_legal_actions(v)} == \
            {(a.type, getattr(a, "tile", None)) for a in legal_actions(s)}


def test_determinize_with_given_hands() -> None:
    """docs/rules.md §8: a search player may fix some hidden hands; the rest are dealt from the unseen."""
    s = new_game(RuleSet(), players=3, seed=4)
    v = view(s, 0)
    d = determinize(v, random.Random(1), hands={1: s.hands[1]})
    assert d.hands[1] == s.hands[1] and d.hands[0] == s.hands[0]
    assert sorted(d.hands[2] + d.boneyard) == sorted(s.hands[2] + s.boneyard)


def test_determinized_last_round_ends_the_game() -> None:
    """docs/rules.md §3, §7: a determinized snapshot of the last round still knows it is the last."""
    rules = RuleSet(set=6, rounds=2)
    rng = random.Random(1)
    s = new_game(rules, players=2, seed=3)
    while s.round < 2:
        s = apply(s, rng.choice(legal_actions(s)))
    d = determinize(view(s, s.turn), random.Random(0))
    assert [r.scores for r in d.results] == [r.scores for r in s.results]
    while not d.over:
        d = apply(d, rng.choice(legal_actions(d)))
    assert d.round == 2 and len(d.results) == 2


def test_determinized_final_engine_zero_round_does_not_crash() -> None:
    """docs/rules.md §3: after the double-0 round there is no other; a determinized copy agrees."""
    rng = random.Random(2)
    s = new_game(RuleSet(set=6), players=2, seed=5)
    while s.round < 7:
        s = apply(s, rng.choice(legal_actions(s)))
    d = determinize(view(s, s.turn), random.Random(0))
    while not d.over:
        d = apply(d, rng.choice(legal_actions(d)))
    assert len(d.results) == 7 and d.results[-1].engine == 0


def _fresh_hidden_events(s, seat: int) -> tuple:
    """The round's events as ``seat`` sees them, worked out here without any memo."""
    return tuple(
        (e.seat, e.type, None if e.type == "draw" and e.seat != seat else e.tile, e.train)
        for e in s.events
    )


def test_views_of_interleaved_games_never_mix_their_histories() -> None:
    """docs/rules.md §8: each view hides exactly its own game's draws, however views of other games
    (the UI's game, a hint's search, a tournament) are interleaved with it; the memos that make
    views cheap must never carry one game's events or tiles into another's."""
    a = _midgame(RuleSet(), 4, 21, 120)
    b = _midgame(RuleSet(set=9), 3, 22, 120)
    order = [(x, 0) for x in a] + [(x, 1) for x in b]
    random.Random(5).shuffle(order)
    for s, _game in order:
        if s.over:
            continue
        for seat in range(s.players):
            v = view(s, seat)
            got = tuple((e.seat, e.type, e.tile, e.train) for e in v.events)
            assert got == _fresh_hidden_events(s, seat)
            hidden = sorted([t for i, h in enumerate(s.hands) if i != seat for t in h] + list(s.boneyard))
            assert sorted(v.unseen()) == hidden
            if seat == s.turn:
                assert view_legal_actions(v) == legal_actions(s)
