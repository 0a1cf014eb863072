"""The game in words: move-log lines, the status line, round and game summaries.

Plain strings, no markup, no Textual: tested directly and reused by every screen.
The person whose screen it is reads "You"/"your"; everyone else is named, with the neutral
"their".
"""

from __future__ import annotations

from ..rules import Event, RuleSet, SeatView
from ..rules.tiles import fmt, is_double

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


def who(names: tuple[str, ...], viewer: int | None, seat: int) -> str:
    return "You" if seat == viewer else names[seat]


def train_name(
    names: tuple[str, ...], viewer: int | None, players: int, index, actor: int | None = None
) -> str:
    """``index``: a train index (seat, or ``players`` for the Mexican Train) or ``"mexican"``."""
    if index == "mexican" or index == players:
        return "the Mexican Train"
    if index == viewer:
        return "your train"
    if index == actor:
        return "their train"
    return f"{names[index]}'s train"


def side_name(names: tuple[str, ...], side: tuple[int, ...]) -> str:
    return " & ".join(names[s] for s in side)


def event_line(
    view: SeatView,
    names: tuple[str, ...],
    index: int,
    auto: bool = False,
) -> str:
    """One event of this round in words, as ``view.seat`` may know it."""
    e: Event = view.events[index]
    viewer = view.seat
    subject = who(names, viewer, e.seat)
    mine = e.seat == viewer
    n = view.players
    if e.type == "play":
        where = train_name(names, viewer, n, e.train, actor=e.seat)
        if e.branch:
            where += f" (branch {e.branch})"
        line = f"{subject} played {fmt(e.tile)} on {where}"
        if is_double(e.tile):
            later = view.events[index + 1 :]
            if mine and not later and view.phase in ("follow_up", "follow_up_drawn"):
                if view.rules.double_follow_up == "must_satisfy":
                    line += ": you must satisfy it with a non-double"
                else:
                    line += ": you must follow with a non-double"
            elif not mine:
                line += " (a double)"
        return line
    if e.type == "draw":
        if e.tile is not None:
            return f"{subject} drew {fmt(e.tile)}"
        return f"{subject} drew a tile"
    if e.type == "mark":
        owner = _marked_owner(view, index)
        if view.rules.teams:
            where = "your team's trains" if viewer in _team(view, owner) else (
                "their team's trains" if owner == e.seat else f"{names[owner]}'s team's trains"
            )
        else:
            where = train_name(names, viewer, n, owner, actor=e.seat)
        line = f"{subject} placed a marker on {where}"
        if auto:
            line += " (automatic: no tile could be played)"
        return line
    if e.type == "pass":
        line = f"{subject} passed" if not mine else "You passed"
        if auto:
            line += " (automatic: it was the only move)"
        return line
    if e.type == "skip":
        return f"{subject} skipped the Mexican Train"
    return f"{subject}: {e.type}"  # pragma: no cover


def _team(view: SeatView, seat: int) -> tuple[int, ...]:
    if view.rules.teams:
        return (seat, (seat + view.players // 2) % view.players)
    return (seat,)


def _marked_owner(view: SeatView, index: int) -> int:
    """Whose train a mark event put a marker on (§6 must_satisfy: the double's train)."""
    e = view.events[index]
    if view.rules.double_follow_up != "must_satisfy":
        return e.seat
    for prev in reversed(view.events[:index]):
        if prev.seat != e.seat:
            break
        if prev.type == "play":
            if is_double(prev.tile) and prev.train != "mexican":
                return int(prev.train)
            break
    return e.seat


def round_header(view: SeatView, names: tuple[str, ...]) -> str:
    total = view.rules.round_count
    engine = f"{view.engine}-{view.engine}"
    if view.engine_seat is not None:
        set_by = f", set by {who(names, view.seat, view.engine_seat).replace('You', 'you')}"
    else:
        set_by = ""
    first = view.first_seat
    starter = "you start" if first == view.seat else f"{names[first]} starts"
    return f"Round {view.round} of {total} · engine {engine}{set_by} · {starter}"


def open_doubles(view: SeatView) -> list[tuple[int, int, tuple[int, int]]]:
    """(train index, line, double) of every double at the end of a line."""
    out = []
    for ti, train in enumerate(view.trains):
        for li in train.open_double_lines():
            out.append((ti, li, train.lines[li][-1]))
    return out


def turn_line(
    view: SeatView,
    names: tuple[str, ...],
    kinds: tuple[str, ...],
    legal_types: frozenset[str],
    has_play: bool,
    next_train: int | str | None = None,
) -> str:
    """What is happening now and what the turn still owes. ``next_train``: where the
    legal plays go when they all go to one train (the swan drive's next train)."""
    if view.phase == "game_over":
        return "The game is over."
    turn = view.turn
    n = view.players
    if turn != view.seat or kinds[turn] != "human":
        name = names[turn]
        if kinds[turn] != "human":
            return f"{name} ({kinds[turn]}) is playing…"
        return f"{name}'s turn"
    rules = view.rules
    phase = view.phase
    if phase == "chain":
        return "Your opening chain: lay every tile you can on your own train (Enter)"
    if phase == "swan":
        extra = " · n skips it" if "skip" in legal_types else ""
        where = "the next public train"
        if next_train is not None:
            where = train_name(names, view.seat, n, next_train)
        return f"Swan drive: play on {where} next, or m to stop{extra}"
    if phase in ("drawn", "follow_up_drawn"):
        drawn = fmt(view.drawn) if view.drawn else "a tile"
        if has_play:
            tail = " — or m to pass" if "pass" in legal_types else ""
            return f"You drew {drawn}: it fits — play it (Enter){tail}"
        return f"You drew {drawn}: it cannot be played — m ends your turn"
    if phase == "follow_up":
        dti, dli = view.double_line or (turn, 0)
        double = view.trains[dti].lines[dli][-1]
        where = train_name(names, view.seat, n, dti)
        if not has_play:
            return f"No non-double fits after your {fmt(double)}: press d to draw"
        if rules.double_follow_up == "must_satisfy":
            return f"Satisfy your double {fmt(double)} on {where} with a non-double"
        return f"Follow your double {fmt(double)} with a non-double (on it or any train you may use)"
    blocking = [d for d in open_doubles(view)]
    if not has_play:
        if "draw" in legal_types:
            return "Your turn: no tile fits — press d to draw"
        if legal_types & {"mark", "pass"}:
            return "Your turn: nothing fits and the boneyard is empty — m ends your turn"
        return "Your turn"
    if blocking and len(blocking) == 1:
        ti, _li, d = blocking[0]
        where = train_name(names, view.seat, n, ti)
        return f"Your turn: the open double {fmt(d)} on {where} must be satisfied first"
    if view.rules.opening in ("first_turn_chain", "delayed_first_turn") and view.chain_right[turn]:
        return "Your turn: start your own train to lay a whole chain on it"
    return "Your turn: pick a tile (←→) and a train (↑↓), then Enter"


def knock_line(view: SeatView, names: tuple[str, ...]) -> str:
    """The knock (§5.4): who is down to one tile."""
    ones = [s for s, k in enumerate(view.hand_sizes) if k == 1]
    if not ones:
        return ""
    people = " and ".join("you" if s == view.seat else names[s] for s in ones)
    verb = "have" if len(ones) > 1 or ones == [view.seat] else "has"
    return f"KNOCK! {people[0].upper() + people[1:]} {verb} one tile left"


def end_words(end: str, out_seat: int | None, names: tuple[str, ...], viewer: int | None) -> str:
    if end == "domino" and out_seat is not None:
        return f"{who(names, viewer, out_seat)} went out (domino)"
    if end == "stuck":
        return "the boneyard ran out and a player could not play"
    if end == "blocked":
        return "nobody could play any more (blocked)"
    return end


DECIDED = {
    "total": "on the lowest total",
    "zero_rounds": "on the tie-break: most rounds scored 0",
    "lowest_nonzero": "on the tie-break: the lowest non-zero round",
    "shared": "a shared win: still tied after both tie-breaks",
}


OPTION_WORDS: dict[str, dict[object, str]] = {
    "engine": {
        "descending": "engines count down from the highest double",
        "highest_double": "each round's engine is the highest double held",
    },
    "first_player": {
        "random": "the first player is drawn at random",
        "chosen": "the first player was chosen",
        "heaviest": "the holder of the heaviest tile starts",
    },
    "double_follow_up": {
        "any": "after a double, play a non-double anywhere you may",
        "must_satisfy": "after a double, the next tile must go on that double",
    },
    "round_end": {
        "boneyard_empty": "a round ends when someone must draw from an empty boneyard",
        "until_blocked": "with the boneyard empty, play on until nobody can move",
    },
    "opening": {
        "normal": "one tile a turn from the start",
        "simultaneous": "each round opens with everyone laying a chain on their own train",
        "first_turn_chain": "on your first turn you lay a whole chain on your own train",
        "delayed_first_turn": "the turn you start your train, you may lay a whole chain",
    },
    "team_marker": {
        "together": "partners' trains become public and private together",
        "both_stuck": "partners' trains become public only when both are stuck",
    },
}

FLAG_WORDS = {
    "trains_start_public": "personal trains are public until their owner plays on them",
    "teams": "partners sitting opposite share trains and scores",
    "open_hands": "every hand is played face up",
    "blanks_wild": "blanks are wild: a blank matches any value",
    "branching_doubles": "a satisfied double grows two more branches",
    "swan_drive": "after playing on your own train you may go on along the public trains",
}


def rules_summary(rules: RuleSet, players: int) -> list[str]:
    """The active rules, one short line each (help screen, new-game screen)."""
    lines = [
        f"double-{rules.set} set, {rules.tiles_each(players) if _ok(rules, players) else '?'} tiles each, "
        f"{rules.round_count} round{'s' if rules.round_count != 1 else ''}",
    ]
    for key, words in OPTION_WORDS.items():
        if key == "team_marker" and not rules.teams:
            continue
        value = getattr(rules, key)
        text = words[value]
        if key == "first_player" and value == "chosen":
            text += f" (seat {rules.first_seat + 1})"
        lines.append(text)
    for key, text in FLAG_WORDS.items():
        if getattr(rules, key):
            lines.append(text)
    return lines


def _ok(rules: RuleSet, players: int) -> bool:
    try:
        rules.check_players(players)
    except ValueError:
        return False
    return True
