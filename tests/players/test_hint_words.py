"""Issue #34: a tip's reason is true for the move it comes with, and every tip speaks in one
form, the imperative ("Play 9-0 on…", "Shed 11-10…", "Draw from the boneyard")."""

from __future__ import annotations

import random
import re

from support.positions import position

from mexitrain.players.hint import hint
from mexitrain.rules import MEXICAN, apply, legal_actions, make_rules, new_game, view

NAMES = ("You", "Bea")
#: How every tip begins, after the warning about a seat near out (if any).
VERBS = ("Play", "Shed", "Start", "Keep", "Skip", "End", "Draw", "Place", "Pass", "Nothing")
ALERT = re.compile(r"^(?:Bea|Seat \d) is down to \d tiles?(?:; |, so the heaviest tile you can play goes first \((\d+) pips?\): )")


def _check(why: str, action, state) -> None:
    """The form and the truth of one reason: its verb, and "the heaviest tile you can play"
    only for the heaviest play, with that play's pips."""
    m = ALERT.match(why)
    rest = why[m.end():] if m else why
    assert (rest[:1].upper() + rest[1:]).startswith(VERBS), why
    if m and m.group(1) is not None:
        plays = [a for a in legal_actions(state) if a.type == "play"]
        assert action.type == "play", why
        assert int(m.group(1)) == sum(action.tile) == max(sum(a.tile) for a in plays), why
    assert "chain of 0" not in why and "then 0 more" not in why, why


def test_a_light_double_is_not_called_heavy():
    """Issue #34: "heavy tiles go first (2 pips)" was said for 1-1 while 1-6 (7 pips) could
    be played: the warning about Bea stays, the claim about heavy tiles goes."""
    s = position(hands=[[(4, 10), (1, 1), (9, 11), (1, 6)], [(1, 11)]], trains={MEXICAN: [(12, 1)]}, boneyard=[(0, 0)])
    action, why = hint(view(s, 0), time_limit=0, names=NAMES)
    assert action.tile in ((1, 1),)
    assert "heav" not in why, why
    assert why == "Bea is down to 1 tile; shed 1-1, which is not in your plan, on the Mexican Train (a double you can follow up)"


def test_the_heaviest_play_is_called_the_heaviest_with_its_pips():
    s = position(hands=[[(12, 5), (5, 3), (10, 11)], [(1, 2)]], trains={MEXICAN: [(12, 11)]}, boneyard=[(0, 0)])
    action, why = hint(view(s, 0), time_limit=0, names=NAMES)
    assert action.tile == (11, 10)
    assert why.startswith("Bea is down to 1 tile, so the heaviest tile you can play goes first (21 pips): shed 11-10"), why


def test_a_play_on_your_train_says_how_many_tiles_follow_not_a_chain_of_0():
    """"plans a chain of 0 from 4" was said for a play after which nothing of the hand follows
    (the expert may choose any of the planner's best plays, each with its own reason)."""
    from mexitrain.players.planner import Context, score_plays

    s = position(hands=[[(12, 4), (12, 7), (7, 8)], [(1, 2), (2, 2), (0, 1), (3, 3)]], boneyard=[(0, 0)])
    v = view(s, 0)
    plays = [a for a in legal_actions(s) if a.type == "play"]
    reasons = {(a.tile, a.train): why for _, why, a in score_plays(v, Context(v, 0, v.hand, names=NAMES), plays)}
    assert reasons[((12, 4), 0)] == "play 12-4 on your train (nothing of yours follows a 4)"
    assert reasons[((12, 7), 0)] == "play 12-7 on your train, following your plan"
    s = position(hands=[[(12, 4), (12, 7), (7, 8), (4, 5)], [(1, 2), (2, 2), (0, 1), (3, 3)]], boneyard=[(0, 0)])
    v = view(s, 0)
    plays = [a for a in legal_actions(s) if a.type == "play"]
    reasons = {(a.tile, a.train): why for _, why, a in score_plays(v, Context(v, 0, v.hand, names=NAMES), plays)}
    assert reasons[((12, 4), 0)] == "play 12-4 on your train, then 1 more tile in a row from 4"


def test_every_tip_of_whole_games_has_the_same_form_and_tells_the_truth():
    """Whole games of two and four seats, with a tip for every decision: each begins with its
    verb, and says "the heaviest" only of the heaviest play."""
    for players, opts, seed in ((2, {"set": "9"}, 1), (4, {"set": "9"}, 2), (3, {"set": "6", "swan_drive": "on"}, 3)):
        rules = make_rules("standard", {**opts, "rounds": "1"})
        state = new_game(rules, players, seed)
        rng = random.Random(seed)
        seen: set[str] = set()
        while state.phase != "game_over":
            v = view(state, state.turn)
            action, why = hint(v, time_limit=0, names=None)
            _check(why, action, state)
            seen.add(why.split(" ")[0])
            acts = legal_actions(state)
            state = apply(state, action if rng.random() < 0.7 else rng.choice(acts))
        assert len(seen) >= 3, seen
