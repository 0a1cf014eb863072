"""Level 3, the planner: plans its own train and follows docs/rules.md §9.

The policy is a pure function of what a seat may know (its hand, the trains, hand sizes,
the public events): :func:`planner_action` takes a :class:`SeatView` *or* a full
:class:`GameState` seen from the seat to move, so the expert can use the very same policy
in its rollouts on determinized states without building views.

What it does, in order of preference (scores in :func:`score_plays`):

- keeps its own train private: the planned chain (``plan_train``) is laid tile by tile on its
  own train and never broken; a marked own train is made private again soon;
- sheds the tiles that are *not* in the plan (the extras), heaviest first, on the Mexican
  Train and on other players' marked trains;
- plays a double when it can satisfy it (a double is a free extra tile), and under
  ``must_satisfy`` prefers doubles on public trains (failing there marks nothing);
- when an opponent is down to one or two tiles, dumps its heaviest tiles wherever they go,
  and changes that opponent's public train to a value they are known to lack;
- with teams it plays on its partner's train only when that makes both trains private
  again, and never counts the partner as an opponent.
"""

from __future__ import annotations

from typing import NamedTuple

from ..i18n import N_, _, ngettext
from ..rules import MEXICAN, Action, SeatView, cache, view_legal_actions
from ..rules.tiles import placement_lookup, tile
from ..text.basics import seat_label, seat_name
from .knowledge import lacking_values
from .plans import plan_train

Tile = tuple[int, int]

# plan_train is a pure function: memoised on (sorted hand, open end, wild, budget, exact).
_PLAN_CACHE = cache.new("planner.plan", typed=True, limit=200_000)

#: Search budget of plan_train inside the planner (a few ms at worst).
PLAN_BUDGET = 120
#: Budget of the plans tried for other plays on the own train.
REPLAN_BUDGET = 40


class Weights(NamedTuple):
    """The scores of :func:`score_plays` that are weights rather than rules: the planner level
    plays the defaults, and so does the expert (with :data:`TUNED_WEIGHTS` it won no more
    against planners: docs/tuned-weights.md)."""

    #: per pip of the tile played, as a rule; and when an opponent is down to one or two tiles
    pips: float = 0.3
    pips_danger: float = 2.0
    #: a tile off the plan shed on a public train; the last tile of the plan shed there
    shed: float = 28
    shed_last: float = 18


#: The planner level's weights.
DEFAULT_WEIGHTS = Weights()
#: Found by self-play with ``benchmarks/tune_weights.py search`` (4 players, one-round
#: double-12 games, the planner's rollout policy in one seat against the defaults in the
#: others): sheds on public trains count for more, and when an opponent is near out a tile's
#: pips for less. How they fare against the defaults is measured by ``benchmarks/tune_weights.py
#: check`` (docs/tuned-weights.md).
TUNED_WEIGHTS = Weights(pips=0.3, pips_danger=1.0, shed=32, shed_last=22)


def cached_plan(
    hand: tuple[Tile, ...], end: int, wild: bool, budget: int = PLAN_BUDGET, exact: bool = True
):
    key = (tuple(sorted(hand)), end, wild, budget, exact)
    got = _PLAN_CACHE.get(key)
    if got is None:
        got = _PLAN_CACHE.put(key, plan_train(key[0], end, wild, budget, exact))
    return got


def _hand_of(s, seat: int) -> tuple[Tile, ...]:
    return s.hand if isinstance(s, SeatView) else s.hands[seat]


def best_own_plan(
    s, seat: int, hand, wild: bool, budget: int, exact: bool = True
) -> tuple[tuple[Tile, ...], int]:
    """(plan, line): the best plan over the lines of the seat's own train."""
    own = s.trains[seat]
    best: tuple = ()
    best_line = 0
    best_key = (0, 0)
    for li in range(len(own.lines)):
        p = cached_plan(hand, own.end(li), wild, budget, exact)
        key = (len(p), sum(a + b for a, b in p))
        if key > best_key:
            best, best_line, best_key = p, li, key
    return best, best_line


class PlanBook:
    """Plans kept from one decision to the next inside a rollout (one per seat).

    A plan stays good while its tiles are in the hand and its line grows only by its own
    tiles: following it or shedding other tiles never makes a better plan appear, so the
    rollout replans only when a plan is broken, or empty after a draw.
    """

    __slots__ = ("entries", "wild", "budget", "exact")

    def __init__(self, wild: bool, budget: int, exact: bool = False) -> None:
        self.entries: dict[int, tuple[int, int, tuple[Tile, ...], int]] = {}
        self.wild = wild
        self.budget = budget
        self.exact = exact

    def get(self, s, seat: int, hand) -> tuple[tuple[Tile, ...], int, dict]:
        """(plan, line, tile -> index in the plan) for the seat."""
        own = s.trains[seat]
        entry = self.entries.get(seat)
        if entry is not None:
            line, laid_count, plan, hand_size, index = entry
            laid = own.lines[line]
            k = len(laid) - laid_count
            if laid[laid_count:] == plan[:k] and (plan or len(hand) <= hand_size):
                if k:
                    plan = plan[k:]
                    index = {t: i - k for t, i in index.items() if i >= k}
                if len(index) == len(plan) and set(index).issubset(hand):
                    self.entries[seat] = (line, len(laid), plan, len(hand), index)
                    return plan, line, index
        plan, line = best_own_plan(s, seat, hand, self.wild, self.budget, self.exact)
        index = {tile(*t): i for i, t in enumerate(plan)}
        self.entries[seat] = (line, len(own.lines[line]), plan, len(hand), index)
        return plan, line, index


class Context:
    """What the planner works out once per decision."""

    __slots__ = (
        "seat", "hand", "rules", "wild", "n", "team", "plan", "plan_line", "plan_index",
        "danger", "opponents", "near_out", "lacking", "budget", "quick", "weights", "names",
    )

    def __init__(
        self,
        s,
        seat: int,
        hand,
        lacking=None,
        budget: int = PLAN_BUDGET,
        book: PlanBook | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        names=None,
    ):
        self.seat = seat
        self.names = names  # the table's names, for the reasons (None: "seat 2")
        self.weights = weights
        self.hand = hand
        self.rules = rules = s.rules
        self.wild = rules.blanks_wild
        self.n = n = s.players
        self.budget = budget
        self.quick = book is not None
        partner = rules.partner(seat, n)
        self.team = (seat,) if partner is None else (seat, partner)
        if book is None:
            self.plan, self.plan_line = best_own_plan(s, seat, hand, self.wild, budget)
            self.plan_index = {tile(*t): i for i, t in enumerate(self.plan)}
        else:
            self.plan, self.plan_line, self.plan_index = book.get(s, seat, hand)
        sizes = s.hand_sizes
        self.opponents = [i for i in range(n) if i not in self.team]
        self.near_out = {i for i in self.opponents if sizes[i] <= 2}
        self.danger = bool(self.near_out)
        self.lacking = lacking or {}


def _where(train, ctx: Context) -> str:
    return _train_words(train.owner, ctx.seat, ctx.team, ctx.names)


def _train_words(owner: int | None, seat: int, team, names) -> str:
    """The train of ``owner`` (None: the Mexican Train) as ``seat`` calls it."""
    if owner is None:
        return _("the Mexican Train")
    if owner == seat:
        return _("your train")
    if owner in team:
        return _("your partner's train")
    name = seat_name(names, owner)
    if name is not None:
        return _("{name}'s train").format(name=name)
    return _("seat {seat}'s train").format(seat=owner + 1)


def score_plays(s, ctx: Context, plays: list, verbose: bool = True) -> list[tuple[float, str, object]]:
    """(score, reason, action) for each play; higher is better. Reasons only when ``verbose``.

    The expert's rollouts (:func:`.playout.best_play`) score plays the same way, on the rules
    core's fields: a change here must be made there too, and tests/players/test_playout.py
    fails until both agree."""
    out = []
    n, seat, rules, hand = ctx.n, ctx.seat, ctx.rules, ctx.hand
    plan, plan_index, plan_line = ctx.plan, ctx.plan_index, ctx.plan_line
    wild = ctx.wild
    trains = s.trains
    must_satisfy = rules.double_follow_up == "must_satisfy"
    own_marked = any(trains[i].marker for i in ctx.team)
    w = ctx.weights
    pip_weight = w.pips_danger if ctx.danger else w.pips
    phase = s.phase
    chain_start = (
        phase in ("turn", "drawn")
        and rules.opening in ("first_turn_chain", "delayed_first_turn")
        and s.chain_right[seat]
    )
    after_double = phase in ("follow_up", "follow_up_drawn", "chain")
    reason = ""
    heaviest = max((a.tile[0] + a.tile[1] for a in plays), default=0) if ctx.danger else 0
    for a in plays:
        lay = a.tile
        x, y = lay
        t = tile(x, y)
        p = x + y
        ti = n if a.train == MEXICAN else a.train
        li = a.branch
        train = trains[ti]
        idx = plan_index.get(t)
        score = p * pip_weight
        text = f"{x}-{y}" if verbose else ""
        if ti == seat:
            if li == plan_line and plan and lay == plan[0]:
                score += 20
                if verbose:
                    reason = _("play {tile} on your train, following your plan").format(tile=text)
                if chain_start:
                    score += 4 * len(plan)
                    if verbose:
                        reason = _("start your train with {tile} and lay your planned chain").format(tile=text)
            elif idx is None and li != plan_line:
                score += 16
                if verbose:
                    reason = _("shed {tile} on a branch of your own train, keeping your plan").format(tile=text)
            else:
                if ctx.quick:  # rollouts: no replanning, a rough count of what follows
                    table = placement_lookup(y, wild)
                    after = 1 if any(u != t and u in table for u in hand) else 0
                else:
                    rest = tuple(u for u in hand if u != t)
                    after = len(cached_plan(rest, y, wild, min(ctx.budget, REPLAN_BUDGET)))
                loss = len(plan) - 1 - after
                score += 20 - 5 * max(loss, 0) + min(after, 3)
                if verbose:
                    if after:
                        reason = ngettext(
                            "play {tile} on your train, then {n} more tile in a row from {end}",
                            "play {tile} on your train, then {n} more tiles in a row from {end}",
                            after,
                        ).format(tile=text, n=after, end=y)
                    else:  # nothing left in the hand follows its end
                        reason = _("play {tile} on your train (nothing of yours follows a {end})").format(tile=text, end=y)
            if own_marked:
                score += 8
                if verbose:
                    reason += _(", making your train private again")
        elif ti in ctx.team:
            if own_marked:
                score += 12
                if verbose:
                    reason = _("play {tile} on your partner's train, making your trains private again").format(tile=text)
            else:
                score += 4
                if verbose:
                    reason = _("play {tile} on your partner's train").format(tile=text)
        else:
            if idx is None:
                score += w.shed
                if verbose:
                    reason = _("shed {tile}, which is not in your plan, on {train}").format(tile=text, train=_where(train, ctx))
            elif idx == len(plan) - 1:
                score += w.shed_last
                if verbose:
                    reason = _("shed {tile}, the last tile of your plan, on {train}").format(tile=text, train=_where(train, ctx))
            else:
                stranded = len(plan) - idx - 1
                score += 22 - 5 * stranded
                if verbose:
                    reason = _("play {tile} from your plan on {train}").format(tile=text, train=_where(train, ctx))
            # an end we can go on shedding on, or one a near-out opponent lacks
            follow = placement_lookup(y, wild)
            mine = 0
            for u in hand:
                if u != t and u in follow and u not in plan_index:
                    mine += 1
                    if mine == 2:
                        break
            score += mine
            owner = train.owner
            if owner is not None and owner in ctx.near_out and y in ctx.lacking.get(owner, ()):
                score += 12
                if verbose:
                    name = seat_name(ctx.names, owner)
                    if name is None:
                        reason += _(", leaving a {end} that seat {seat} lacks").format(end=y, seat=owner + 1)
                    else:
                        reason += _(", leaving a {end} that {name} lacks").format(end=y, name=name)
        if x == y and not after_double:
            table = placement_lookup(y, wild)
            satisfy = False
            for u in hand:
                if u != t and u[0] != u[1] and u in table:
                    satisfy = True
                    break
            elsewhere = (
                not must_satisfy
                and plan
                and not (ti == seat and li == plan_line)
                and plan[0][0] != plan[0][1]
            )
            if satisfy or elsewhere:
                score += 10
                if verbose:
                    reason += _(" (a double you can follow up)")
            elif must_satisfy and train.public and ti not in ctx.team:
                score += 3
                if verbose:
                    reason += _(" (a double the others must satisfy)")
            else:
                score -= 14
                if verbose:
                    reason += _(" (a double you cannot follow up)")
        if ctx.danger and verbose:
            who = min(ctx.near_out, key=lambda i: (s.hand_sizes[i], i))
            k = s.hand_sizes[who]
            name = seat_name(ctx.names, who)
            if p < heaviest:  # not the heaviest play: the danger is said, not "heavy first"
                alert = ngettext("{name} is down to {n} tile; ", "{name} is down to {n} tiles; ", k)
            else:
                alert = ngettext(
                    "{name} is down to {n} tile, so the heaviest tile you can play goes first ({pips}): ",
                    "{name} is down to {n} tiles, so the heaviest tile you can play goes first ({pips}): ",
                    k,
                )
            if name is None:
                name = seat_label(who)
            pips = ngettext("{n} pip", "{n} pips", p).format(n=p)
            reason = alert.format(name=name, n=k, pips=pips) + reason
        out.append((score, reason, a))
    return out


def planner_decide(
    s,
    seat: int,
    legal,
    lacking=None,
    budget: int = PLAN_BUDGET,
    book: PlanBook | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
    names=None,
) -> tuple[object, str, float]:
    """(action, one-line reason, score) for the seat to move in ``s`` (a view or a state);
    ``names``, the table's, name the other seats in the reason."""
    if len(legal) == 1:
        only = legal[0]
        if only.type == "play":
            return only, _only_play(s, seat, only, names), 0.0
        return only, _forced_reason(only), 0.0
    plays = [a for a in legal if a.type == "play"]
    others = [a for a in legal if a.type != "play"]
    if not plays:
        pick = next((a for a in others if a.type == "draw"), others[0])
        return pick, _forced_reason(pick), 0.0
    hand = _hand_of(s, seat)
    ctx = Context(s, seat, hand, lacking, budget, book, weights, names)
    scored = score_plays(s, ctx, plays, verbose=book is None)
    best = scored[0]
    for item in scored[1:]:
        if item[0] > best[0]:
            best = item
    score, reason, action = best
    if s.phase == "swan" and others and score < 14:
        skip = next((a for a in others if a.type == "skip"), None)
        if skip is not None:
            return skip, _("skip the Mexican Train to look at the next public train"), 0.0
        pas = next((a for a in others if a.type == "pass"), None)
        if pas is not None:
            return pas, _("end the drive: nothing is worth playing on the next train"), 0.0
    if s.phase == "drawn" and others and others[0].type == "pass" and score < 0:
        return others[0], _("keep the drawn tile"), 0.0
    return action, reason, score


def _forced_reason(a) -> str:
    return _({
        "draw": N_("nothing fits: draw"),
        "mark": N_("nothing fits: place your marker"),
        "pass": N_("nothing more to do: pass"),
        "skip": N_("skip the Mexican Train"),
    }.get(a.type, N_("the only legal move")))


def _only_play(s, seat: int, a, names) -> str:
    """The words for a play that is the only legal move: which tile, on which train."""
    n = s.players
    ti = n if a.train == MEXICAN else a.train
    owner = s.trains[ti].owner
    partner = s.rules.partner(seat, n)
    team = (seat,) if partner is None else (seat, partner)
    x, y = a.tile
    return _("play {tile} on {train}: the only legal move").format(
        tile=f"{x}-{y}", train=_train_words(owner, seat, team, names)
    )


class PlannerPlayer:
    """Level 3: plans its own train and sheds the rest on public trains (docs/rules.md §9)."""

    name = "planner"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the planner is deterministic: the seed is unused

    def choose(self, view: SeatView) -> Action:
        return self.decide(view)[0]

    def decide(self, view: SeatView, names=None) -> tuple[Action, str]:
        """(action, reason): ``names``, the table's, name the other seats in the reason."""
        legal = view_legal_actions(view)
        action, reason, _ = planner_decide(view, view.seat, legal, lacking_values(view), names=names)
        return action, reason

    def choose_move(self, view) -> int:
        """The same choice from the compact view (a ``CompactView``), as its move."""
        seen = view.seen
        action = planner_decide(seen, seen.seat, seen.legal_actions(), lacking_values(seen))[0]
        return seen.move_of(action)
