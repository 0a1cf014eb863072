"""The compact, mutable game state of the core (see the package doc).

A :class:`Core` is private to its user: the step functions change it in place, and
:meth:`Core.copy` gives an independent copy (for rollouts, or to keep a position).

Fields, beside the scalar ones named as in :class:`~mexitrain.rules.state.GameState`:

- ``hands``: one int bitmask of tile ids per seat; ``order``: the round's tile ids in deal
  order (hands in their order, then the boneyard), which gives a hand its order; ``rank``:
  each tile's position in ``order``, worked out when first asked (``scoring.ranks``), else None;
- ``bone``/``bpos``: the round's boneyard in draw order and the next tile to draw;
  ``off``: the mask of every tile not on the table (hands and boneyard), which answers
  "could this double still be satisfied" (§6);
- lines, numbered across trains: ``train_lines[ti]`` (the line ids of train ``ti``, trunk
  first), ``ends``, ``laid`` (lay codes), ``starts``, ``line_ti``/``line_li`` and ``base``
  (the move bits of the line); ``open_dbl``: the lines whose last tile is a double;
- ``train_lines[ti]``, ``laid[line]``, ``starts``, ``line_ti``, ``line_li``, ``base``,
  ``chain_right``, ``queue``, ``results`` and ``round_scores`` are lists replaced when they
  change (copy on write), never changed in place, so that copies share them;
- ``marker`` per train; ``drawn``/``dline``: tile id and line id, -1 for none;
- ``events``: the round's events as ints; ``results``: finished rounds (compact tuples,
  or the RoundResult objects a snapshot brought); ``round_scores``: their scores;
- ``over``: the game is over (phase ``game_over``), a field so that a loop's test is cheap;
  ``winners``: ``()`` while the game goes on; at its end None until first asked, then the
  winning seats: read it through ``scoring.game_winners``, never directly;
- ``mbits``: the markers again, as an int (bit ``ti`` for train ``ti``), kept with
  ``marker`` by every step: the key of the lines a seat may play on (``Lookup.usable``);
- ``plays_cache``: the plays of the seat to move, None after each step.
"""

from __future__ import annotations

from .lookup import Lookup


class Position:
    """What the move generator (``moves.legal``) reads of a position: the fields that a
    :class:`Core` and a seat's ``CompactView`` (seat.py) share. It holds no rule and is
    never made alone; the compiled build (setup.py) types ``legal`` with it, so that one
    generator runs on both at C speed."""

    __slots__ = (
        "tab", "round", "engine", "engine_seat", "first_seat", "turn", "phase", "hands",
        "bone", "bpos", "off", "train_lines", "ends", "laid", "starts", "line_ti", "line_li",
        "base", "open_dbl", "marker", "mexican_starter", "dline", "drawn", "swan_pos",
        "chain_right", "failed", "events", "plays_cache", "mbits",
    )


class Core(Position):
    __slots__ = (
        "seed", "starter", "order", "rank", "queue", "idle", "results", "round_scores",
        "winners", "dealt_hands", "dealt_boneyard", "over",
    )

    tab: Lookup

    def copy(self) -> Core:
        """An independent copy (nothing mutable is shared)."""
        new = Core.__new__(Core)
        new.tab = self.tab
        new.seed = self.seed
        new.starter = self.starter
        new.round = self.round
        new.engine = self.engine
        new.engine_seat = self.engine_seat
        new.first_seat = self.first_seat
        new.turn = self.turn
        new.phase = self.phase
        new.hands = self.hands[:]
        new.order = self.order  # replaced, never changed, by a new round
        new.rank = self.rank  # idem (or None, until asked)
        new.bone = self.bone  # idem
        new.bpos = self.bpos
        new.off = self.off
        new.train_lines = self.train_lines[:]  # inner lists: replaced, never changed
        new.ends = self.ends[:]
        new.laid = self.laid[:]  # idem
        new.starts = self.starts  # replaced, never changed, by add_line
        new.line_ti = self.line_ti  # idem
        new.line_li = self.line_li  # idem
        new.base = self.base  # idem
        new.open_dbl = self.open_dbl[:]
        new.marker = self.marker[:]
        new.mexican_starter = self.mexican_starter
        new.dline = self.dline
        new.drawn = self.drawn
        new.swan_pos = self.swan_pos
        new.chain_right = self.chain_right  # replaced, never changed (copy on write)
        new.queue = self.queue  # idem
        new.failed = self.failed[:]
        new.idle = self.idle
        new.events = self.events[:]
        new.results = self.results  # idem
        new.round_scores = self.round_scores  # idem
        new.winners = self.winners
        new.dealt_hands = self.dealt_hands
        new.dealt_boneyard = self.dealt_boneyard
        new.plays_cache = self.plays_cache
        new.mbits = self.mbits
        new.over = self.over
        return new

    @property
    def players(self) -> int:
        return self.tab.n

    def add_line(self, ti: int, start: int) -> int:
        """A new empty line on train ``ti`` starting from ``start``; returns its id."""
        lid = len(self.ends)
        li = len(self.train_lines[ti])
        self.train_lines[ti] = self.train_lines[ti] + [lid]  # copy on write (see copy)
        self.ends.append(start)
        self.laid.append([])
        # copy on write: copies of the core share these lists (see copy)
        self.starts = self.starts + [start]
        self.line_ti = self.line_ti + [ti]
        self.line_li = self.line_li + [li]
        self.base = self.base + [((ti << 6) | li) << 9]
        return lid
