"""The game session without Textual: seats, knocks, hand-offs, forced moves, undo, private notices."""

from __future__ import annotations

import subprocess
import sys

from support.positions import position
from support.tables import table

from mexitrain.game_setup import GameSetup
from mexitrain.rules import DRAW, RuleSet, apply, legal_actions, view
from mexitrain.session import Notice, Session, Step, knocked

SIX = RuleSet(set=6, rounds=1)


def setup(*kinds: str, rules: RuleSet = SIX, **extra) -> GameSetup:
    return table(rules, seed=5, kinds=kinds, names=("Ann", "Bo", "Cy", "Di"), **extra)


def knock_position(turn: int = 0):
    """Seat ``turn`` holds 6-3 and 1-1: playing 6-3 on its train leaves one tile (§5: the knock)."""
    hands = {turn: [(6, 3), (1, 1)], 1 - turn: [(2, 2), (4, 4), (0, 0)]}
    return position(SIX, hands=hands, boneyard=[(5, 5)], engine=6, turn=turn)


def started(session: Session, state):
    session.moved(state)
    return state


def test_the_session_needs_no_textual():
    # the UI's layer is above the session's: importing the session loads neither Textual nor ui/
    code = (
        "import sys, mexitrain.session; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual' or m.startswith('mexitrain.ui')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_start_seats_the_table_and_deals():
    s = Session()
    first, warnings = s.start(setup("human", "random", "greedy"))
    assert warnings == []
    assert s.names == ("Ann", "Bo", "Cy") and s.kinds == ("human", "random", "greedy")
    assert sorted(s.players) == [1, 2]  # a computer player for each computer seat
    assert first.players == 3 and s.state is None  # taken only once shown (moved)
    assert s.shown_seat == 0 and not s.handoff_pending


def test_an_unknown_level_plays_another_and_says_so():
    s = Session()
    table = setup("human", "random").model_copy()
    seats = (table.seats[0], table.seats[1].model_copy(update={"kind": "grandmaster"}))
    _first, warnings = s.start(table.model_copy(update={"seats": seats}))
    assert len(warnings) == 1 and warnings[0].startswith("Bo: level")
    assert 1 in s.players


def test_knocked_is_a_function_of_two_snapshots():
    # §5: a seat down to its last tile knocks: the core's fact, one move apart
    before = knock_position()
    after = apply(before, legal_actions(before)[0])
    assert view(after, 1).knock == 0
    assert knocked(before, view(after, 1)) == [0]
    assert knocked(view(before, 0), view(after, 0)) == [0]
    assert knocked(None, view(after, 1)) == []
    assert knocked(after, view(after, 1)) == []


def test_the_person_on_screen_is_told_privately_a_computer_publicly():
    # §5: the knock
    s = Session()
    s.start(setup("human", "random"))
    before = started(s, knock_position(0))
    after = apply(before, legal_actions(before)[0])
    moved = s.moved(after)
    assert moved.notices == [Notice("Knock! You have one tile left", "Knock", "warning", 4, seat=0)]

    s = Session()
    s.start(setup("human", "random"))
    before = started(s, knock_position(1))
    after = apply(before, legal_actions(before)[0])
    (notice,) = s.moved(after).notices
    assert notice.text == "Knock! Bo has one tile left" and notice.seat is None


def test_two_people_get_a_hand_off_and_private_notices_end_with_the_turn():
    s = Session()
    s.start(setup("human", "human"))
    assert s.handoff_pending  # hidden hands, two people: the first one is asked for too
    state = started(s, knock_position(0))
    assert s.next_step() == Step("handoff", 0, text="Round 1 of 1")
    assert s.next_step() is None  # once; now the person's own move
    s.note_private("n1", "ann's notice", 0)
    after = apply(state, legal_actions(state)[0])  # Ann plays: Bo's turn
    moved = s.moved(after)
    assert s.shown_seat == 1 and moved.withdrawn == ["ann's notice"]
    assert s.next_step() == Step("handoff", 1, text="Round 1 of 1")


def test_open_hands_need_no_hand_off():
    s = Session()
    s.start(setup("human", "human", rules=SIX.model_copy(update={"open_hands": True})))
    assert not s.handoff_pending


def test_a_computer_turn_and_a_forced_marker():
    s = Session()
    s.start(setup("human", "random"))
    state = position(SIX, hands=[[(1, 1)], [(2, 2), (4, 4)]], boneyard=[(0, 0)], engine=6, turn=1)
    started(s, state)
    assert s.computer_to_move() and s.next_step() == Step("computer", 1)

    s = Session()
    s.start(setup("human", "random"))
    drawn = apply(position(SIX, hands=[[(1, 1)], [(2, 2), (4, 4)]], boneyard=[(0, 0)], engine=6), DRAW)
    started(s, drawn)
    step = s.next_step()
    forced = view(drawn, drawn.turn).forced  # the core's fact: the drawn 0-0 fits nowhere
    assert forced is not None and forced.type == "mark"
    assert step is not None and step.kind == "forced" and step.action == forced
    done = s.apply(step.action, auto=True)
    assert done.state is not None and done.state.turn == 1
    assert done.notice == Notice(
        "You drew 0-0, which cannot be played: your turn ends with a marker.", "No move left", seat=0
    )
    assert s.auto_events == {len(drawn.events)}


def test_an_illegal_move_is_refused_with_a_reason_for_the_seat_shown():
    s = Session()
    s.start(setup("human", "random"))
    state = started(s, knock_position(0))
    done = s.apply(DRAW)  # a tile fits: no drawing (§5)
    assert done.state is None and done.notice is not None
    assert done.notice.title == "Not allowed" and done.notice.seat == 0
    assert s.person_to_move() and s.state is state  # nothing moved


def test_undo_is_cached_per_snapshot_and_takes_back_the_last_decision():
    s = Session()
    state, _warnings = s.start(setup("human", "random"))  # a dealt game: undo replays its round
    while state.turn != 0:
        state = apply(state, legal_actions(state)[0])
    started(s, state)
    ok, why = s.undo_state()
    assert not ok and s.undo_known == (ok, why)
    after = apply(state, legal_actions(state)[0])
    s.moved(after)
    assert s.undo_known is None  # a new snapshot: asked again
    ok, _why = s.undo_state()
    assert ok
    done = s.undo()
    assert done.state == state and done.notice is not None and done.notice.title == "Undone"
    # what was taken back, said as done (issue #34: it read "Undo your play…", an instruction)
    assert done.notice.text.startswith("Undone: your ") and "Undo " not in done.notice.text


def test_undo_with_several_people_needs_the_forms_permission():
    s = Session()
    s.start(setup("human", "human"))
    started(s, knock_position(0))
    ok, why = s.undo_state()
    assert not ok and "several people" in why
    done = s.undo()
    assert done.state is None and done.notice is not None and done.notice.title == "Cannot undo"


def test_the_results_are_due_once_a_round_ends():
    # §6: the round ends when a seat plays its last tile
    s = Session()
    s.start(setup("human", "random"))
    state = position(SIX, hands=[[(6, 3)], [(2, 2), (4, 4)]], boneyard=[(5, 5)], engine=6)
    started(s, state)
    after = apply(state, legal_actions(state)[0])
    s.moved(after)
    assert s.next_step() == Step("round_over")
    assert after.over and s.next_step() == Step("game_over")
    assert s.next_step() is None
    assert s.you() == 0


def test_a_table_of_another_size_can_follow_a_game_in_its_first_round():
    # a new game started from the form during round 1 of a two-player game: the knock check
    # compared the two games' hand sizes seat by seat and failed (zip of 2 and 3 seats)
    s = Session()
    two, _warnings = s.start(setup("human", "random"))
    s.moved(two)
    three, _warnings = s.start(setup("human", "random", "random"))
    assert three.round == two.round == 1
    assert s.moved(three).notices == [] and s.state is three
