"""What one seat may know (hidden information as a type).

``view(state, seat)`` keeps that seat's own hand, every train and marker, each hand's size,
the boneyard's size, the public history and the score sheet. Other hands appear only with
``open_hands``; the boneyard's order never does, nor tiles other seats drew.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict

from . import cache
from .actions import Action
from .core.facts import open_doubles as _open_doubles
from .ruleset import RuleSet
from .seeds import keyed, seal
from .state import Event, GameState, Phase, RoundResult, Train, construct, evolve
from .tiles import Tile, full_set, tile


class PublicRound(BaseModel):
    """A finished round as every player saw it at its end: engine, result, leftover hands."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    engine: int
    engine_seat: int | None
    first_seat: int
    end: str
    out_seat: int | None
    leftovers: tuple[tuple[Tile, ...], ...]  # shown when the round is scored
    scores: tuple[int, ...]


class OpenDouble(BaseModel):
    """A double at the end of a line, as the core judges it (§6): worked out once, read by
    the screens (the status line, the trains) without reading the rules again."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    train: int  # index in ``SeatView.trains``
    line: int
    pips: int
    #: a tile that fits it is not on the table yet: it can still be satisfied
    satisfiable: bool
    #: the double the seat to move has just laid and now follows (§6 follow-up)
    owed: bool = False
    #: it restricts where the seat to move may play now (satisfiable, not the one it follows)
    blocks: bool = False


class PublicView(BaseModel):
    """What every seat sees alike, and all that someone watching sees: each hand's size, the
    boneyard's size, the trains and markers, the station, whose turn it is and where that
    turn stands, the move log (as the holder of the view may see it: a seat sees its own
    draws), the finished rounds with their leftover hands (public once a round is scored) and
    the score sheet, the fair deal's seal (and the seed once the game is over), and the core's
    facts a screen reads: the open doubles and the knock. No field here holds a tile of a
    hidden hand or of the boneyard, nor the seed while the game runs. :class:`SeatView` adds
    a seat's own; :class:`OnlookerView` adds nothing."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: RuleSet
    players: int
    round: int
    engine: int
    engine_seat: int | None
    first_seat: int
    turn: int
    phase: Phase
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    trains: tuple[Train, ...]
    mexican_starter: int | None
    double_line: tuple[int, int] | None
    swan_pos: int | None
    chain_right: tuple[bool, ...]
    opening_queue: tuple[int, ...]
    failed: tuple[bool, ...]
    idle_turns: int
    events: tuple[Event, ...]  # this round; the draws of others (a watcher: every draw) without their tile
    results: tuple[PublicRound, ...]
    # the events of the round just finished (results[-1]), hidden as ``events`` is
    last_round_events: tuple[Event, ...] = ()
    winners: tuple[int, ...]
    #: The fair-deal seal (:func:`mexitrain.rules.seeds.seal`) of a sealed seed, "" for a
    #: classic one: shown from the first deal, so that the seed revealed at the end can be
    #: checked against it (docs/fair-deal.md).
    seal: str = ""
    #: The seed was typed on purpose (its deal was known before the game): GameSetup's.
    seed_chosen: bool = False
    #: The game's seed, revealed once the game is over; None while it runs (nothing in a
    #: running game's view tells the seed or anything that follows from it).
    revealed_seed: int | None = None
    #: Every double at the end of a line, in line order, as the core judges it (§6).
    doubles: tuple[OpenDouble, ...] = ()
    #: The seat whose last move left it with one tile (it knocks, §5.4), else None.
    knock: int | None = None


class SeatView(PublicView):
    """The game as seat ``seat`` sees it. Computer players and a seat's screen get only this:
    what every seat sees (:class:`PublicView`) and the seat's own below.

    Besides what the seat may know, the view holds the facts a screen needs, worked out once
    by the core when the view is made (issue 33): ``legal`` (this seat's moves now),
    ``forced`` (the one move left, when it is a marker or a pass), ``doubles`` (which open
    doubles block and whether each can still be satisfied) and ``knock`` (the seat the last
    move left with one tile). A mark event's ``train`` says whose train the marker went on.
    None of them tells more than the view already does: legality depends only on what the
    seat can see."""

    seat: int
    hand: tuple[Tile, ...]
    hands: tuple[tuple[Tile, ...] | None, ...]  # own hand; every hand with open_hands
    drawn: Tile | None  # only the seat's own drawn tile
    #: This seat's legal actions now, in the core's order; () when it is not its turn.
    legal: tuple[Action, ...] = ()
    #: The only move left to this seat when it is a marker or a pass (made by itself), else None.
    forced: Action | None = None

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase != "game_over"

    def unseen(self) -> tuple[Tile, ...]:
        """Tiles this seat cannot see: in hidden hands or the boneyard, in set order."""
        off = _OFF_TRAINS.memo(
            (self.trains, self.engine, self.rules.set), lambda: _off_trains(self.trains, self)
        )
        seen: set[Tile] = set()
        for h in self.hands:
            if h:
                seen.update(h)
        return tuple([t for t in off if t not in seen])


def _off_trains(trains: tuple[Train, ...], v: SeatView) -> tuple[Tile, ...]:
    """The tiles of the set neither on ``trains`` nor the engine."""
    seen = {(v.engine, v.engine)}
    for train in trains:
        for line in train.lines:
            for a, b in line:
                seen.add(tile(a, b))
    return tuple([t for t in full_set(v.rules.set) if t not in seen])


# Another seat's draw as this seat sees it: one shared event per drawing seat.
_HIDDEN_DRAWS = cache.new("view.hidden_draw")


def _seen_by(e: Event, seat: int) -> Event:
    """``e`` as ``seat`` saw it: another seat's draw without its tile."""
    return _hidden_draw(e) if e.type == "draw" and e.seat != seat else e


def _hidden_draw(e: Event) -> Event:
    hidden = _HIDDEN_DRAWS.get(e.seat)
    if hidden is None:
        hidden = _HIDDEN_DRAWS.put(e.seat, evolve(e, {"tile": None, "train": None, "branch": 0}))
    return hidden


# Per seat, the last events hidden and their hidden form: a round's events only grow, so
# the next view of the same round hides only what is new.
_LAST_HIDDEN = cache.new("view.last_hidden")


def _hide(events: tuple[Event, ...], seat: int, open_hands: bool) -> tuple[Event, ...]:
    if open_hands:  # a drawn tile joins a hand everyone can see
        return events
    done, hidden = _LAST_HIDDEN.get(seat, ((), ()))
    k = len(done)
    if not (k and len(events) >= k and events[:k] == done):
        k, hidden = 0, ()
    if k < len(events):
        hidden = hidden + tuple(
            [_seen_by(e, seat) for e in events[k:]]
        )
    _LAST_HIDDEN.put(seat, (events, hidden))
    return hidden


# Finished rounds are shared by every later snapshot, so their public and rebuilt forms are
# memoised, like the tiles off the trains: by value, compared with == (the snapshots of a
# game share these parts, so == on them is mostly identity checks; hashing them is not).
_OFF_TRAINS = cache.recent("view.off_trains", 8)
_PUBLIC = cache.recent("view.public_round", 64)
_REBUILT = cache.recent("view.rebuilt_round", 64)
_PUBLIC_ROUNDS = cache.recent("view.public_rounds", 8)
_SEALS = cache.recent("view.seals", 4)  # per seed: its seal, or "" for a classic seed
_REBUILT_ROUNDS = cache.recent("view.rebuilt_rounds", 8)


def _make_public_round(r: RoundResult) -> PublicRound:
    return construct(
        PublicRound,
        dict(
            number=r.number,
            engine=r.engine,
            engine_seat=r.engine_seat,
            first_seat=r.first_seat,
            end=r.end,
            out_seat=r.out_seat,
            leftovers=r.leftovers,
            scores=r.scores,
        ),
    )


def _public_round(r: RoundResult) -> PublicRound:
    return _PUBLIC.memo(r, lambda: _make_public_round(r))


def _public_rounds(results: tuple[RoundResult, ...]) -> tuple[PublicRound, ...]:
    return tuple([_public_round(r) for r in results])


def _hidden_results(results: tuple[PublicRound, ...]) -> tuple[RoundResult, ...]:
    return tuple([_hidden_result(r) for r in results])


def _make_hidden_result(p: PublicRound) -> RoundResult:
    values = dict(p.__dict__)
    values.update(hands=(), boneyard=(), events=())
    return construct(RoundResult, values)


def _hidden_result(p: PublicRound) -> RoundResult:
    """A finished round rebuilt from its public part (deal and events unknown)."""
    return _REBUILT.memo(p, lambda: _make_hidden_result(p))


# Per seat, the last finished round whose events were hidden, and their hidden form.
_LAST_ROUND = cache.new("view.last_round")


def _last_round_events(results: tuple[RoundResult, ...], seat: int, open_hands: bool) -> tuple[Event, ...]:
    if not results:
        return ()
    last = results[-1]
    if open_hands:  # every drawn tile joined a hand everyone could see
        return last.events
    hit = _LAST_ROUND.get(seat)
    if hit is not None and hit[0] == last:
        return hit[1]
    hidden = tuple([_seen_by(e, seat) for e in last.events])
    _LAST_ROUND.put(seat, (last, hidden))
    return hidden


def _facts(state: GameState, seat: int) -> dict:
    """The view's facts (see :class:`SeatView`), worked out once, from the core."""
    from .engine import legal_actions

    legal: tuple[Action, ...] = ()
    if state.turn == seat and state.phase != "game_over":
        legal = legal_actions(state)
    forced = legal[0] if len(legal) == 1 and legal[0].type in ("mark", "pass") else None
    return dict(legal=legal, forced=forced, doubles=_doubles(state), knock=_knock(state))


def _doubles(state: GameState) -> tuple[OpenDouble, ...]:
    """Every double at a line's end, as the core judges it (a seat's and an onlooker's)."""
    from .engine import core_of

    return tuple(
        [
            construct(
                OpenDouble,
                dict(train=ti, line=li, pips=pips, satisfiable=sat, owed=owed, blocks=sat and not owed),
            )
            for ti, li, pips, sat, owed in _open_doubles(core_of(state))
        ]
    )


def _knock(state: GameState) -> int | None:
    """The seat the last move left with one tile, while the game runs."""
    if state.events and state.phase != "game_over":
        last = state.events[-1]
        if last.type == "play" and state.hand_sizes[last.seat] == 1:
            return last.seat
    return None


def view(state: GameState, seat: int, chosen: bool = False) -> SeatView:
    """What ``seat`` may know of ``state``, with the facts its screen reads (see
    :class:`SeatView`); ``chosen``: the seed was typed on purpose (``GameSetup.seed_chosen``),
    which the view says."""
    open_hands = state.rules.open_hands
    hands = tuple(h if (open_hands or i == seat) else None for i, h in enumerate(state.hands))
    # Every value comes from a valid snapshot, so the view is built without re-validation.
    values = _public(state, chosen, _hide(state.events, seat, open_hands),
                     _last_round_events(state.results, seat, open_hands))
    values.update(
        seat=seat,
        hand=state.hands[seat],
        hands=hands,
        drawn=state.drawn if state.turn == seat else None,
        **_facts(state, seat),
    )
    return construct(SeatView, values)


def _public(state: GameState, chosen: bool, events: tuple[Event, ...], last_round_events: tuple[Event, ...]) -> dict:
    """The values of :class:`PublicView` that every view of ``state`` shares, with this
    round's and the last round's ``events`` as the viewer may see them (the core's facts,
    ``doubles`` and ``knock``, are the caller's to add)."""
    return dict(
        rules=state.rules,
        players=state.players,
        round=state.round,
        engine=state.engine,
        engine_seat=state.engine_seat,
        first_seat=state.first_seat,
        turn=state.turn,
        phase=state.phase,
        hand_sizes=state.hand_sizes,
        boneyard_size=len(state.boneyard),
        trains=state.trains,
        mexican_starter=state.mexican_starter,
        double_line=state.double_line,
        swan_pos=state.swan_pos,
        chain_right=state.chain_right,
        opening_queue=state.opening_queue,
        failed=state.failed,
        idle_turns=state.idle_turns,
        events=events,
        results=_PUBLIC_ROUNDS.memo(state.results, lambda: _public_rounds(state.results)),
        last_round_events=last_round_events,
        winners=state.winners,
        seal=_SEALS.memo(state.seed, lambda: seal(state.seed) if keyed(state.seed) else ""),
        seed_chosen=chosen,
        revealed_seed=state.seed if state.phase == "game_over" else None,
    )


# -- an onlooker (issue #35: a spectator at a table) ---------------------------------------------


class OnlookerView(PublicView):
    """The game as someone who watches it sees it: no seat, so no hand at all (not even with
    ``open_hands``: a watcher is not at the table), no drawn tile, no legal move. Hidden
    information as a type: its fields are :class:`PublicView`'s, every one, and it adds none;
    none of them holds a tile of a hand or of the boneyard, nor the seed while the game runs.
    :func:`public_part` of any seat's view is this view (every draw hidden)."""

    @property
    def over(self) -> bool:
        return self.phase == "game_over"

    @property
    def blocking(self) -> tuple[OpenDouble, ...]:
        """The open doubles that restrict the seat to move now (the core's ``blocks``)."""
        return tuple(d for d in self.doubles if d.blocks)


#: An onlooker's draws: every draw without its tile (the seat number -1 is no seat, so that
#: :func:`_seen_by` hides each one).
_NOBODY = -1
_LAST_ONLOOKER = cache.new("view.last_onlooker")


def _hide_all(events: tuple[Event, ...]) -> tuple[Event, ...]:
    """``events`` with every draw hidden (an onlooker's), extending the last result when
    the round only grew."""
    done, hidden = _LAST_ONLOOKER.get(0, ((), ()))
    k = len(done)
    if not (k and len(events) >= k and events[:k] == done):
        k, hidden = 0, ()
    if k < len(events):
        hidden = hidden + tuple([_seen_by(e, _NOBODY) for e in events[k:]])
    _LAST_ONLOOKER.put(0, (events, hidden))
    return hidden


def onlooker(state: GameState, chosen: bool = False) -> OnlookerView:
    """What someone watching ``state`` may know (see :class:`OnlookerView`); ``chosen`` as
    for :func:`view`."""
    last_round: tuple[Event, ...] = ()
    if state.results:
        last_round = tuple([_seen_by(e, _NOBODY) for e in state.results[-1].events])
    values = _public(state, chosen, _hide_all(state.events), last_round)
    values.update(doubles=_doubles(state), knock=_knock(state))
    return construct(OnlookerView, values)


def public_part(v: SeatView) -> OnlookerView:
    """What of seat ``v.seat``'s view every seat sees alike: its hands, drawn tile and moves
    left out, every draw hidden. ``public_part(view(state, s)) == onlooker(state)`` for
    every seat ``s`` (tests/rules/test_onlooker.py)."""
    values = {k: getattr(v, k) for k in OnlookerView.model_fields}
    values["events"] = tuple([_seen_by(e, _NOBODY) for e in v.events])
    values["last_round_events"] = tuple([_seen_by(e, _NOBODY) for e in v.last_round_events])
    return construct(OnlookerView, values)


def watched(o: OnlookerView) -> SeatView:
    """An onlooker's view in the form the game screens read (one board for every source):
    a :class:`SeatView` with no hand (``hands`` all None, ``hand`` empty), no drawn tile and
    no legal move. Its ``seat`` is no one's: the seat after the one to move, so that it is
    never "your turn" (the app names every seat for a watcher, and its keys that move are
    off). Only for showing: never sent, never given to a player."""
    values = {k: getattr(o, k) for k in OnlookerView.model_fields}
    values.update(
        seat=(o.turn + 1) % o.players,
        hand=(),
        hands=(None,) * o.players,
        drawn=None,
        legal=(),
        forced=None,
    )
    return construct(SeatView, values)


def determinize(
    v: SeatView,
    rng: random.Random | None = None,
    hands: dict[int, tuple[Tile, ...]] | None = None,
) -> GameState:
    """A full snapshot consistent with the view: hidden tiles dealt at random by ``rng``
    (in set order without one), or as given in ``hands`` for some seats.

    Search players sample with it; ``legal_actions(determinize(v))`` is the same for every
    sample, since legality depends only on what the seat can see.
    """
    pool = list(v.unseen())
    fixed = dict(hands or {})
    for t in (t for h in fixed.values() for t in h):
        pool.remove(t)
    if rng is not None:
        rng.shuffle(pool)
    full_hands = []
    for i, h in enumerate(v.hands):
        if h is not None:
            full_hands.append(h)
        elif i in fixed:
            full_hands.append(fixed[i])
        else:
            k = v.hand_sizes[i]
            full_hands.append(tuple(pool[:k]))
            del pool[:k]
    return construct(
        GameState,
        dict(
            rules=v.rules,
            seed=0,
            players=v.players,
            starter=(v.first_seat - (v.round - 1)) % v.players,
            round=v.round,
            engine=v.engine,
            engine_seat=v.engine_seat,
            first_seat=v.first_seat,
            turn=v.turn,
            phase=v.phase,
            hands=tuple(full_hands),
            boneyard=tuple(pool),
            trains=v.trains,
            mexican_starter=v.mexican_starter,
            double_line=v.double_line,
            drawn=v.drawn,
            swan_pos=v.swan_pos,
            chain_right=v.chain_right,
            opening_queue=v.opening_queue,
            failed=v.failed,
            idle_turns=v.idle_turns,
            dealt_hands=tuple(full_hands),
            dealt_boneyard=tuple(pool),
            events=v.events,
            results=_REBUILT_ROUNDS.memo(v.results, lambda: _hidden_results(v.results)),  # its round number
            winners=v.winners,
        ),
    )


def view_legal_actions(v: SeatView) -> tuple[Action, ...]:
    """The legal actions of the seat to move, computed from a view alone."""
    from .engine import legal_actions

    return legal_actions(_DETERMINIZED.memo(v, lambda: determinize(v)))


# The last view whose legal actions were asked for, and its (unshuffled) determinization.
_DETERMINIZED = cache.recent("view.determinized", 1)
