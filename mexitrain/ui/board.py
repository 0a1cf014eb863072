"""What the game screen shows, as one immutable value (no Textual here).

The app turns the full snapshot into ``view(state, seat)`` for the seat being shown; the game
screen adds its own selection (tile, target train, orientation, sort) and passes the result,
a :class:`Board`, down to every widget. Widgets never see the full state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..players.plans import arrange_hand
from ..rules import MEXICAN, Action, Play, SeatView, Tile
from ..rules.tiles import tile
from ..text.events import VIEW_SEAT

Target = tuple[int, int]  # (train index: seats 0..n-1 then the Mexican Train, line)


def canon(t: tuple[int, int]) -> Tile:
    """A tile as the hand holds it, low half first (a tray shows it either way round)."""
    return tile(*t)


def train_ref(view: SeatView, index: int):
    return MEXICAN if index == view.players else index


def train_index(view: SeatView, ref) -> int:
    return view.players if ref == MEXICAN else int(ref)


_ARRANGE_CACHE: dict[tuple, tuple[tuple[tuple[int, int], ...], int]] = {}


def arrange(hand: tuple[Tile, ...], end: int, wild: bool) -> tuple[tuple[tuple[int, int], ...], int]:
    """(tiles in tray order, as they would be laid; how many of them form the planned train)."""
    key = (hand, end, wild)
    got = _ARRANGE_CACHE.get(key)
    if got is not None:
        return got
    chain, extras = arrange_hand(hand, end, wild)
    got = (tuple(chain) + tuple(extras), len(chain))
    if len(_ARRANGE_CACHE) > 512:
        _ARRANGE_CACHE.clear()
    _ARRANGE_CACHE[key] = got
    return got


def plain_sort(hand: tuple[Tile, ...]) -> tuple[tuple[int, int], ...]:
    """Highest value first, then its partner: 12-12, 12-9, 12-3, 11-7, ..."""
    return tuple(sorted(((max(t), min(t)) for t in hand), reverse=True))


@dataclass(frozen=True)
class Board:
    """Everything one seat's game screen renders."""

    view: SeatView
    names: tuple[str, ...]
    kinds: tuple[str, ...]  # "human" or a computer level, per seat
    legal: tuple[Action, ...] = ()  # the shown seat's legal actions ( () when not its turn)
    selected: Tile | None = None
    target: Target | None = None
    flip: int = 0
    plain: bool = False
    #: the halves shown as pips where they have a face (the player's "tiles as pips")
    pips: bool = False
    auto_events: frozenset[int] = frozenset()  # indices of this round's events done for the player
    # the seat the texts call "you": VIEW_SEAT the view's seat when exactly one person plays
    # (with several at one keyboard, or none, everyone is named), None nobody (replay)
    you: int | None = VIEW_SEAT
    tip: str | None = None  # the tip asked for this very decision (n), gone once the game moves on
    # the play the tip names (None for a tip that is not a play): the panel says Enter plays
    # it only while it is what Enter plays (:meth:`tip_selected`)
    tip_play: Play | None = None
    #: the game is watched (an onlooker's view): no hand, no move, whoever's turn it is
    watching: bool = False
    tray: tuple[tuple[int, int], ...] = field(default=(), compare=False)
    plan_len: int = field(default=0, compare=False)

    # -- derived ---------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.view.seat

    @property
    def viewer(self) -> int | None:
        """The seat the texts call "you": the view's seat when it is the one person at the
        table; None (everyone named: "Ann 15", "Ann played 4-6…") when several people share
        the keyboard, when only computers play, and in the replay viewer."""
        if self.you != VIEW_SEAT:
            return self.you
        v = self.view
        one = list(self.kinds).count("human") == 1 and self.kinds[v.seat] == "human"
        return v.seat if one else None

    @property
    def my_turn(self) -> bool:
        return not self.watching and self.view.my_turn and self.kinds[self.view.seat] == "human"

    @property
    def plays(self) -> tuple[Play, ...]:
        return tuple(a for a in self.legal if isinstance(a, Play))

    def can(self, kind: str) -> bool:
        return any(a.type == kind for a in self.legal)

    @property
    def playable(self) -> frozenset[Tile]:
        return frozenset(canon(p.tile) for p in self.plays)

    def fits(self, tile: Tile | None) -> frozenset[Target]:
        """The (train, line) targets where ``tile`` may legally go now."""
        if tile is None:
            return frozenset()
        v = self.view
        return frozenset(
            (train_index(v, p.train), p.branch) for p in self.plays if canon(p.tile) == tile
        )

    def targets(self) -> tuple[Target, ...]:
        """Every line of every train, in screen order (for ↑/↓)."""
        return tuple((ti, li) for ti, t in enumerate(self.view.trains) for li in range(len(t.lines)))

    def options(self) -> tuple[Play, ...]:
        """The legal ways to lay the selected tile on the selected target."""
        if self.selected is None or self.target is None:
            return ()
        v = self.view
        ti, li = self.target
        return tuple(
            p
            for p in self.plays
            if canon(p.tile) == self.selected and train_index(v, p.train) == ti and p.branch == li
        )

    def play(self) -> Play | None:
        """The play Enter would make: a legal one if there is one, else the natural try
        (which the rules engine will refuse with its reason)."""
        if self.selected is None or self.target is None:
            return None
        opts = self.options()
        if opts:
            return opts[self.flip % len(opts)]
        v = self.view
        ti, li = self.target
        if ti >= len(v.trains) or li >= len(v.trains[ti].lines):
            return None
        a, b = self.selected
        end = v.trains[ti].end(li)
        lay = (b, a) if b == end and a != end else (a, b)
        if self.flip % 2:
            lay = (lay[1], lay[0])
        return Play(tile=lay, train=train_ref(v, ti), branch=li)

    @property
    def tip_selected(self) -> bool:
        """Whether Enter plays the move the tip names (the selection was not moved off it)."""
        return self.tip_play is not None and self.play() == self.tip_play

    def laid_view(self, t: tuple[int, int]) -> tuple[int, int]:
        """How the tray shows tile ``t`` when selected (the flip chosen for blanks_wild)."""
        p = self.play() if canon(t) == self.selected else None
        return p.tile if p is not None and self.target and self.options() else t


def finished_round_view(view: SeatView) -> SeatView | None:
    """The round just finished as ``view``'s seat saw it at its end: its number, engine, first
    seat and events (the move log and the round-over screen tell it); None before round 1 ends."""
    if not view.results or not view.last_round_events:
        return None
    done = view.results[-1]
    return view.model_copy(
        update=dict(
            round=done.number,
            engine=done.engine,
            engine_seat=done.engine_seat,
            first_seat=done.first_seat,
            phase="turn",
            events=view.last_round_events,
        )
    )


def build(
    view: SeatView,
    names: tuple[str, ...],
    kinds: tuple[str, ...],
    *,
    previous: Board | None = None,
    plain: bool = False,
    pips: bool = False,
    auto_events: frozenset[int] = frozenset(),
    you: int | None = VIEW_SEAT,
    watching: bool = False,
) -> Board:
    """A fresh board for a new view, keeping the selection where it still makes sense
    (``watching``: an onlooker's view, :func:`mexitrain.rules.watched`)."""
    # the seat's legal moves, worked out by the core when the view was made
    legal: tuple[Action, ...] = view.legal if kinds[view.seat] == "human" and not watching else ()
    own = view.trains[view.seat]
    hand = view.hand
    if plain:
        tray, plan_len = plain_sort(hand), 0
    else:
        ends = own.ends if view.rules.branching_doubles else (own.end(0),)
        best: tuple[tuple[tuple[int, int], ...], int] | None = None
        for end in dict.fromkeys(ends):
            got = arrange(hand, end, view.rules.blanks_wild)
            if best is None or got[1] > best[1]:
                best = got
        tray, plan_len = best if best is not None else ((), 0)
    board = Board(
        view=view,
        names=names,
        kinds=kinds,
        legal=legal,
        plain=plain,
        pips=pips,
        auto_events=auto_events,
        you=you,
        watching=watching,
        tray=tray,
        plan_len=plan_len,
    )
    if watching:
        return board  # nothing to select: no tile, no train to aim at (the view scrolls nowhere)
    selected = previous.selected if previous is not None and previous.seat == view.seat else None
    target = previous.target if previous is not None and previous.seat == view.seat else None
    # a tip is about one decision: it stays only while the view it was asked for does
    tip = previous.tip if previous is not None and previous.tip and previous.view == view else None
    tip_play = previous.tip_play if tip is not None and previous is not None else None
    if view.drawn is not None and view.drawn in hand:
        selected = view.drawn  # the drawn tile is the one to play
    elif selected not in hand or (board.playable and selected not in board.playable):
        selected = _first_playable(board)
    board = replace(board, selected=selected, target=target, tip=tip, tip_play=tip_play)
    return with_target(board, keep=True)


def _first_playable(board: Board) -> Tile | None:
    playable = board.playable
    for t in board.tray:
        if canon(t) in playable:
            return canon(t)
    return canon(board.tray[0]) if board.tray else None


def with_target(board: Board, keep: bool = False) -> Board:
    """Point the target at a train the selected tile fits: the current one if it fits,
    else the player's own train, else the first that fits."""
    fits = board.fits(board.selected)
    target = board.target
    if target is not None and (target in fits or (keep and not fits)):
        if target[0] < len(board.view.trains) and target[1] < len(board.view.trains[target[0]].lines):
            return board
    if fits:
        order = sorted(fits, key=lambda t: (t[0] != board.seat, t[0] == board.view.players, t))
        return replace(board, target=order[0], flip=0)
    return replace(board, target=(board.seat, 0) if target is None else target, flip=0)


def select_tile(board: Board, step: int) -> Board:
    """Move the tile cursor ``step`` places along the tray (wrapping)."""
    tray = [canon(t) for t in board.tray]
    if not tray:
        return board
    i = tray.index(board.selected) if board.selected in tray else -1
    i = (i + step) % len(tray)
    return with_target(replace(board, selected=tray[i], flip=0))


def select_target(board: Board, step: int) -> Board:
    targets = board.targets()
    if not targets:
        return board
    i = targets.index(board.target) if board.target in targets else -1
    return replace(board, target=targets[(i + step) % len(targets)], flip=0)
