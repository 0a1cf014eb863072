"""The game in words (no Textual): log lines, knock, what the turn owes; hidden information."""

from __future__ import annotations

from mexitrain.rules import DRAW, MARK, Event, Play, RuleSet, SeatView, apply, new_game, view
from mexitrain.text.basics import short_names
from mexitrain.text.events import event_line
from mexitrain.text.rules import rules_summary
from mexitrain.text.status import knock_line, turn_line
from mexitrain.ui.board import build
from mexitrain.ui.widgets.log import log_lines

NAMES = ("You", "Bea", "Cal")
KINDS = ("human", "random", "random")


def with_events(state, *events):
    return state.model_copy(update={"events": tuple(events)})


def test_play_lines_name_the_train_from_the_viewers_side():
    state = new_game(RuleSet(set=6), players=3, seed=1)
    s = with_events(
        state,
        Event(seat=1, type="play", tile=(6, 2), train="mexican"),
        Event(seat=2, type="play", tile=(6, 4), train=2),
        Event(seat=1, type="play", tile=(6, 6), train=0),
    )
    v = view(s, 0)
    assert event_line(v, NAMES, 0) == "Bea played 6-2 on the Mexican Train"
    assert event_line(v, NAMES, 1) == "Cal played 6-4 on their train"
    assert event_line(v, NAMES, 2) == "Bea played 6-6 on your train (a double)"
    assert event_line(view(s, 2), NAMES, 1) == "You played 6-4 on your train"


def test_draws_of_others_stay_hidden_and_marks_are_neutral():
    state = new_game(RuleSet(set=6), players=3, seed=1)
    s = with_events(state, Event(seat=1, type="draw", tile=(3, 4)), Event(seat=1, type="mark"))
    v = view(s, 0)
    assert event_line(v, NAMES, 0) == "Bea drew a tile"
    assert event_line(v, NAMES, 1) == "Bea placed a marker on their train"
    assert event_line(view(s, 1), NAMES, 0) == "You drew 3-4"
    board = build(v, NAMES, KINDS)
    assert log_lines(board)[-1] == "Bea drew a tile and placed a marker on their train"


def test_your_double_says_what_you_owe():
    state = new_game(RuleSet(set=6), players=3, seed=1)
    hand = ((6, 6), (2, 6), (1, 1))
    s = state.model_copy(update={"turn": 0, "hands": (hand,) + state.hands[1:]})
    s = apply(s, Play(tile=(6, 6), train=0))
    v = view(s, 0)
    assert v.phase == "follow_up"
    assert event_line(v, NAMES, 0) == "You played 6-6 on your train: you must follow with a non-double"
    line = turn_line(v, NAMES, KINDS, frozenset({"play"}), True)
    assert "non-double" in line and "6-6" in line


def test_knock_is_announced():
    state = new_game(RuleSet(set=6), players=3, seed=1)
    s = state.model_copy(update={"hands": (((1, 2),), state.hands[1], ((0, 0),))})
    assert knock_line(view(s, 0), NAMES) == "KNOCK! You and Cal have one tile left each"
    assert knock_line(view(s, 1), NAMES) == "KNOCK! You and Cal have one tile left each"
    s2 = state.model_copy(update={"hands": (state.hands[0], ((1, 2),), state.hands[2])})
    assert knock_line(view(s2, 0), NAMES) == "KNOCK! Bea has one tile left"


def test_knock_of_three_lists_them_once():
    """Issue #34: "KNOCK! You, Bea and Cal" (it said "You and Bea and Cal")."""
    state = new_game(RuleSet(set=6), players=3, seed=1)
    s = state.model_copy(update={"hands": (((1, 2),), ((3, 4),), ((0, 0),))})
    assert knock_line(view(s, 0), NAMES) == "KNOCK! You, Bea and Cal have one tile left each"


def test_turn_line_for_draw_and_forced_marker():
    state = new_game(RuleSet(set=6), players=3, seed=1)
    s = state.model_copy(update={"turn": 0, "hands": (((1, 2),), *state.hands[1:]), "boneyard": ((3, 4),)})
    v = view(s, 0)
    assert "press d to draw" in turn_line(v, NAMES, KINDS, frozenset({"draw"}), False)
    s = apply(s, DRAW)
    v = view(s, 0)
    assert "cannot be played" in turn_line(v, NAMES, KINDS, frozenset({"mark"}), False)
    s = apply(s, MARK)
    assert event_line(view(s, 0), NAMES, 1, auto=True).endswith("(automatic: no tile could be played)")


def test_the_screen_model_holds_only_what_the_seat_may_see():
    state = new_game(RuleSet(), players=4, seed=3)
    board = build(view(state, 0), ("You", "Bea", "Cal", "Dot"), ("human",) + ("random",) * 3)
    assert isinstance(board.view, SeatView)
    assert board.view.hands[1:] == (None, None, None)
    assert not hasattr(board.view, "boneyard")
    assert board.view.boneyard_size == len(state.boneyard)


def test_rules_summary_lists_the_options_in_force():
    lines = rules_summary(RuleSet(blanks_wild=True, swan_drive=True, rounds=3), 4)
    assert lines[0].startswith("double-12 set, 15 tiles each, 3 rounds")
    assert any("blanks are wild" in line for line in lines)
    assert any("swan" in line or "go on along the public trains" in line for line in lines)


def _play_until_round_two(seed: int = 2):
    """A 3-player double-6 game played by its first legal actions until round 2 begins."""
    from mexitrain.rules import legal_actions

    state = new_game(RuleSet(set=6), players=3, seed=seed)
    while state.round == 1:
        state = apply(state, legal_actions(state)[0])
    return state


def test_the_log_keeps_the_round_just_finished_down_to_its_last_move():
    # docs/rules.md §7: the round ends at once on the domino; the log must still show that move
    state = _play_until_round_two()
    assert state.events == ()  # round 2 has not begun
    done = state.results[-1]
    last = done.events[-1]
    v = view(state, 0)
    assert v.last_round_events[-1] == last
    lines = log_lines(build(v, NAMES, KINDS))
    finished = [i for i, line in enumerate(lines) if "Round 1 over" in line]
    assert len(finished) == 1
    assert done.end == "domino" and last.type == "play" and last.seat == done.out_seat == 2
    # the final move is the line just above "Round 1 over: ...", dimmed like the whole round
    final = event_line(v.model_copy(update={"events": v.last_round_events}), NAMES, len(done.events) - 1)
    assert final == f"Cal played {last.tile[0]}-{last.tile[1]} on the Mexican Train"
    # the lines are plain text (they hold names) with their style beside
    assert (lines[finished[0] - 1], lines[finished[0] - 1].style) == (final, "dim")
    assert (lines[finished[0]], lines[finished[0]].style) == ("Round 1 over: Cal went out (domino)", "dim b")
    assert lines[-1].startswith("Round 2 of 7") and lines[-1].style == "b"  # then this round's header, newest at the bottom


def test_the_finished_rounds_log_hides_the_others_draws():
    state = _play_until_round_two()
    events = state.results[-1].events
    for seat in range(3):
        seen = view(state, seat).last_round_events
        assert len(seen) == len(events)
        for mine, full in zip(seen, events, strict=True):
            if full.type == "draw" and full.seat != seat:
                assert mine.tile is None
            else:
                assert mine == full
    assert view(new_game(RuleSet(set=6), players=3, seed=2), 0).last_round_events == ()


def test_short_names_stay_apart():
    # the hub and the status line cut long names with "…", never glued to a number; cut
    # alike, they keep their last word after the "…" when there is room
    assert short_names(["Planner 1", "Planner 2", "Planner 3"], 7) == ["Plan… 1", "Plan… 2", "Plan… 3"]
    assert short_names(["Bot12", "Bot13", "Botanist"], 4) == ["Bot…", "Bot…", "Bot…"]  # no room
    assert short_names(["Alexandra12", "Alexandra13"], 7) == ["Alex…12", "Alex…13"]
    assert short_names(["Random 1", "Random 2", "Random 3"], 4) == ["Ran…", "Ran…", "Ran…"]  # no room
    assert short_names(["Bartholomew", "Bea"], 8) == ["Barthol…", "Bea"]
    assert short_names(["Ann", "Ann"], 4) == ["Ann", "Ann"]  # nothing cut: nothing to do
    assert short_names(["Ran1", "Random 1"], 4) == ["Ran1", "Ran…"]  # never two alike
    assert short_names(["Beatrice", "Planner 1", "Planner 2"], 3) == ["Bea", "Pla", "Pla"]  # first letters
    assert short_names(["Planner 1", "Bea"], 1) == ["P", "B"]  # one cell: the initial alone
