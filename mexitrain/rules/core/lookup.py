"""Lookup tables of the compact core (constants per rule set and number of players): everything fixed by the rule set and the number
of players, computed once and shared by every game played under them.

Tiles are ints ``0..T-1`` in the order of :func:`~mexitrain.rules.tiles.full_set` (so a
shuffle of the ids is the same permutation as a shuffle of the tiles). A tile *as laid* is a
"lay code" ``a * 19 + b`` (half against the end, new open end): sorting codes sorts lays.

A move is an int: a play is ``((train << 6 | line) << 9) | lay`` (so sorting plays sorts them
by train, line and laid tile, the engine's order); the other actions are negative.
"""

from __future__ import annotations

from .. import cache
from ..actions import DRAW, MARK, MEXICAN, PASS, SKIP, Play
from ..ruleset import RuleSet
from ..state import construct
from ..tiles import full_set, placements

# phases, as ints (their names in PHASES)
TURN, DRAWN, FOLLOW_UP, FOLLOW_UP_DRAWN, CHAIN, SWAN, GAME_OVER = range(7)
PHASES = ("turn", "drawn", "follow_up", "follow_up_drawn", "chain", "swan", "game_over")

# the moves that are not plays
M_DRAW, M_MARK, M_PASS, M_SKIP = -1, -2, -3, -4
SPECIAL_ACTIONS = {M_DRAW: DRAW, M_MARK: MARK, M_PASS: PASS, M_SKIP: SKIP}
SPECIAL_MOVES = {"draw": M_DRAW, "mark": M_MARK, "pass": M_PASS, "skip": M_SKIP}

# events, as ints: seat | kind << 4 | payload << 7 (payload: the move of a play, the lay
# code of a drawn tile)
E_PLAY, E_DRAW, E_MARK, E_PASS, E_SKIP = range(5)
EVENT_KINDS = ("play", "draw", "mark", "pass", "skip")
MOVE_EVENT = {M_DRAW: E_DRAW, M_MARK: E_MARK, M_PASS: E_PASS, M_SKIP: E_SKIP}

# round ends
DOMINO, STUCK, BLOCKED = "domino", "stuck", "blocked"

LAY = [(c // 19, c % 19) for c in range(19 * 19)]  # lay code -> (a, b)
LAY_END = [c % 19 for c in range(19 * 19)]  # lay code -> the new open end
LAY_DOUBLE = [c // 19 == c % 19 for c in range(19 * 19)]


def move(ti: int, li: int, lay: int) -> int:
    return (((ti << 6) | li) << 9) | lay


class Lookup:
    """The constants of one rule set with one number of players (see the module doc)."""

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.rules = rules
        self.n = n = players
        self.each = rules.tiles_each(players)
        self.set = top = rules.set
        self.tiles = tiles = full_set(top)
        self.size = len(tiles)
        self.id_of = {t: i for i, t in enumerate(tiles)}
        # shifts of a Python int by an attribute, never by len() or a range(len()) index: the
        # compiled build (setup.py) would make those C shifts, which overflow past 63 tiles
        self.bit = [1 << i for i in range(self.size)]
        self.all_bits = (1 << self.size) - 1
        self.pips = [a + b for a, b in tiles]
        self.code = [a * 19 + b for a, b in tiles]  # a tile's own lay code (low half first)
        self.bit_of_lay = [0] * (19 * 19)  # lay code -> the laid tile's bit
        for i, (a, b) in enumerate(tiles):
            self.bit_of_lay[a * 19 + b] = self.bit_of_lay[b * 19 + a] = 1 << i
        # lay code -> (the laid tile's bit, the new open end, a double?): what step lays
        self.lay_info = [
            (self.bit_of_lay[c], LAY_END[c], LAY_DOUBLE[c]) for c in range(19 * 19)
        ]
        self.double_mask = sum(1 << i for i, (a, b) in enumerate(tiles) if a == b)
        self.wild = wild = rules.blanks_wild
        pipmask = [0] * 19
        for i, (a, b) in enumerate(tiles):
            pipmask[a] |= 1 << i
            pipmask[b] |= 1 << i
        self.pipmask = pipmask
        everything = self.all_bits
        # tiles that could satisfy a double of value v (§6; blanks count when wild, §8)
        self.satmask = [
            (everything if v == 0 else pipmask[v] | pipmask[0]) if wild else pipmask[v]
            for v in range(19)
        ]
        # per open end: the tiles that fit, and each one's lay codes in order
        self.fit = [0] * 19
        # lays[end][i]: tile i's lay codes on that end, in order (() if it does not fit)
        self.lays: list[list[tuple[int, ...]]] = [[()] * len(tiles) for _ in range(19)]
        # by the lowest bit's bit_length() (tile id + 1): the one lay code of a tile that
        # fits one way only, else -1 (two ways, or no fit)
        self.one_lay: list[list[int]] = [[-1] * (len(tiles) + 1) for _ in range(19)]
        for end in range(19):
            for i, t in enumerate(tiles):
                p = placements(t, end, wild)
                if p:
                    self.fit[end] |= 1 << i
                    codes = tuple(sorted(a * 19 + b for a, b in p))
                    self.lays[end][i] = codes
                    if len(codes) == 1:
                        self.one_lay[end][i + 1] = codes[0]
        # every tile that fits an end fits one way, and its lay code grows with its id, so
        # the lowest bit first gives a line's plays in order (true unless blanks are wild):
        # the move generator's fast path
        self.simple = all(
            all(len(c) <= 1 for c in self.lays[end])
            and [c for c in self.lays[end] if c] == sorted(c for c in self.lays[end] if c)
            for end in range(19)
        )
        # rule flags
        self.teams = rules.teams
        partner = [rules.partner(s, n) for s in range(n)]
        self.partner = [s if p is None else p for s, p in enumerate(partner)]
        self.team = [(s,) if p is None else (s, p) for s, p in enumerate(partner)]
        self.team_bits = [sum(1 << s for s in team) for team in self.team]
        self.sides = rules.sides(n)
        self.both_stuck = rules.teams and rules.team_marker == "both_stuck"
        self.must_satisfy = rules.double_follow_up == "must_satisfy"
        self.until_blocked = rules.round_end == "until_blocked"
        self.branching = rules.branching_doubles
        self.swan = rules.swan_drive
        self.first_turn_chain = rules.opening == "first_turn_chain"
        self.delayed = rules.opening == "delayed_first_turn"
        self.simultaneous = rules.opening == "simultaneous"
        self.chain_opening = rules.opening in ("first_turn_chain", "delayed_first_turn")
        self.descending = rules.engine == "descending"
        self.public_start = rules.trains_start_public
        self.next_seat = [(s + 1) % n for s in range(n)]
        # a round's lines before any branch: one a train (the Mexican Train's last); the
        # cores of the round share these lists, which are replaced, never changed
        self.trunk_lines = [[ti] for ti in range(n + 1)]
        self.trunk_ti = list(range(n + 1))
        self.trunk_li = [0] * (n + 1)
        self.trunk_base = [ti << 15 for ti in range(n + 1)]
        self.round_count = rules.round_count
        # without branches (one line a train, line ti on train ti): per markers (as bits)
        # and seat, the lines the seat may play on when no double blocks (moves.usable_lines)
        self.usable: dict[int, list[int]] = {}
        self._swan_orders: dict[tuple[int, int | None], tuple[int, ...]] = {}
        self._actions: dict[int, object] = dict(SPECIAL_ACTIONS)
        self._events: dict[int, object] = {}

    def ref(self, ti: int):
        """A train index as actions name it: the owner's seat or ``"mexican"``."""
        return MEXICAN if ti == self.n else ti

    def swan_order(self, seat: int, mexican_starter: int | None) -> tuple[int, ...]:
        """Train indices clockwise after ``seat``'s own (§8 swan_drive)."""
        key = (seat, mexican_starter)
        order = self._swan_orders.get(key)
        if order is None:
            n = self.n
            out = [n] if mexican_starter == seat else []
            for k in range(1, n):
                s = (seat + k) % n
                out.append(s)
                if mexican_starter == s:
                    out.append(n)
            order = self._swan_orders[key] = tuple(out)
        return order

    def action(self, m: int):
        """The (shared, immutable) Action object of move ``m``."""
        action = self._actions.get(m)
        if action is None:
            ti, li, lay = m >> 15, (m >> 9) & 63, m & 511
            action = construct(
                Play, {"type": "play", "tile": LAY[lay], "train": self.ref(ti), "branch": li}
            )
            self._actions[m] = action
        return action


_LOOKUPS = cache.new("core.lookup", typed=True, limit=256)


def lookup(rules: RuleSet, players: int) -> Lookup:
    """The tables of a game of ``players`` under ``rules``, built once."""
    key = (rules, players)
    tab = _LOOKUPS.get(key)
    if tab is None:
        tab = _LOOKUPS.put(key, Lookup(rules, players))
    return tab
