"""Information-set Monte Carlo tree search (issue #36): a research level, not in LEVELS.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 2012), on the rules core (:mod:`mexitrain.rules.core`). Where the expert
(:mod:`.expert`) values each of its few candidates by one-move flat rollouts, this search
grows one tree over several turns, its own and the other seats':

- every iteration deals the tiles the seat cannot see at random, consistently with its view
  (the expert's :class:`.knowledge.Sampler` and :class:`.playout.Dealer`: the same deals a
  rollout of the expert would see), and walks the tree on that deal;
- a node is a sequence of choices from the decision (forced moves, draws among them, make no
  node: what a draw brings is the deal's, a chance event); its children are the moves, as the
  core's ints (a tile laid on a line by a seat: the same move on any deal), and a child is
  *available* on a deal only when its move is legal there: the subset-armed bandit of the
  paper, each child's UCB counting the iterations where it was available, not its parent's;
- at a node only the rollout policy's best ``width`` plays are children (the planner's order,
  :func:`.playout.best_play` taken again without the chosen ones), plus every turn-ending
  choice (skip, pass) a phase offers; an unexpanded one is expanded in that order;
- each seat picks by UCB1 over its own reward (its :class:`.expert.Goal` of the round's
  scores, in points), so the other seats play to win too; the exploration term is
  ``exploration`` times the standard deviation of the rewards seen so far in the decision
  (``SCALE`` points until there are two), since a round's outcome, with a game's win worth
  ``WIN_POINTS``, spans a hundred points and more, not UCB1's [0, 1];
- from the new leaf, the planner's rollout policy (:func:`.playout.run`) plays the round out.

The move played is the root's most visited child (the planner's order breaking ties).
Thinking is counted in iterations (one deal, one walk, one rollout each), never in seconds:
the same view and seed give the same move on any machine. It reads only the seat's view:
the deals are made from it, never from the game's state.
"""

from __future__ import annotations

import math
import random

from ..rules import Action, SeatView, view_legal_actions
from ..rules.core import M_DRAW, check, legal, plays, step
from ..rules.core import actions as core_actions
from ..rules.core.lookup import TURN
from . import playout as fast
from .expert import ROLLOUT_PLAN_BUDGET, WIN_POINTS, Goal, _collector_paused, one_round
from .knowledge import Sampler, lacking_values
from .planner import DEFAULT_WEIGHTS, planner_decide

#: Iterations a decision at the default strength (one deal, one walk down the tree, one
#: rollout each), at a table of two players and of more.
DEFAULT_ITERATIONS_TWO = 330
DEFAULT_ITERATIONS = 270
#: The rollout policy's best plays that are children of a node (turn-ending choices besides).
WIDTH = 3
#: The UCB1 exploration constant, in standard deviations of the rewards seen so far...
EXPLORATION = 1.0
#: ...taken as this many points until there are two.
SCALE = 50.0


def default_iterations(players: int) -> int:
    return DEFAULT_ITERATIONS_TWO if players == 2 else DEFAULT_ITERATIONS


class Node:
    """A node of the tree: its children by move, and as the child of its parent, the
    iterations that chose it (``visits``), the reward they brought to the seat that chose it
    (``total``) and the iterations where its move was legal (``avail``)."""

    __slots__ = ("avail", "children", "squares", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0  # of the rewards, for the standard error of the root's choice
        self.avail = 0


def ranked(c, ms: list[int], width: int, book: dict, w) -> list[int]:
    """The moves of ``ms`` (legal in ``c``, more than one) a node searches: the rollout
    policy's ``width`` best plays in its order, then the turn-ending choices (skip, pass,
    draw, marker) in the core's order."""
    if ms[0] < 0:  # no play: every turn-ending choice
        return ms
    ps = ms if c.phase == TURN else plays(c)
    rest = list(ps)
    out: list[int] = []
    while rest and len(out) < width:
        m, _ = fast.best_play(c, rest, book, ROLLOUT_PLAN_BUDGET, w)
        out.append(m)
        rest.remove(m)
    if len(ms) > len(ps):
        out += [m for m in ms if m < 0]
    return out


class IsmctsPlayer:
    """Information-set MCTS over several turns with the planner's rollout policy."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        width: int = WIDTH,
        exploration: float = EXPLORATION,
        win_points: float = WIN_POINTS,
        opponents: str = "search",
        confidence: float | None = None,
    ) -> None:
        if opponents not in ("search", "policy"):
            raise ValueError(f"opponents: 'search' or 'policy', not {opponents!r}")
        self.seed = seed
        # "search": the other sides' choices are nodes of the tree too (each picks by UCB on its
        # own reward); "policy": they play the rollout policy in the tree as well, and the tree
        # holds the seat's own choices only (a plan of its own moves against the planner)
        self.opponents = opponents
        # None: play the root's most visited child; a number: play the planner's move (always
        # a child of the root then) unless another child's mean beats it by that many
        # standard errors (as the expert asks of a change, but on different deals: unpaired)
        self.confidence = confidence
        self.iterations = iterations  # None: default_iterations(players)
        self.width = width
        self.exploration = exploration
        self.win_points = win_points
        self.last_stats: dict = {}

    def budget(self, players: int) -> int:
        return default_iterations(players) if self.iterations is None else self.iterations

    def _rng(self, view: SeatView) -> random.Random:
        # the seed and what the seat sees only: the same view, the same choice
        key = (self.seed, view.round, view.seat, view.phase, len(view.events), view.hand, view.drawn)
        return random.Random(f"ismcts:{key}")

    def choose(self, view: SeatView) -> Action:
        legal_now = view_legal_actions(view)
        base, _, _ = planner_decide(view, view.seat, legal_now, lacking_values(view))
        self.last_stats = {"iterations": 0}
        if len(legal_now) == 1 or view.phase == "chain" or self.budget(view.players) <= 0:
            return base
        with _collector_paused():
            return self._search(view, base)

    def _search(self, view: SeatView, base: Action) -> Action:
        rng = self._rng(view)
        sampler = Sampler(view)
        dealer = fast.Dealer(view, one_round)
        n = view.players
        goals = [Goal(view, s, self.win_points) for s in range(n)]
        weights = [DEFAULT_WEIGHTS] * n
        root = Node()
        width, cexp = self.width, self.exploration
        iterations = self.budget(n)
        root_moves: list[int] | None = None
        own = goals[view.seat].mine if self.opponents == "policy" else None
        base_m = check(dealer.template, base)
        nodes = 1
        depth_sum = 0
        count, total, squares = 0, 0.0, 0.0  # the seat's rewards so far
        spread = cexp * SCALE
        for _ in range(iterations):
            c, _bone = dealer.deal(rng, sampler.hands(rng))
            number = c.round
            done = len(c.round_scores)
            book: dict = {}
            first = True
            node = root
            path: list[tuple[Node, int]] = []  # (child, the seat that chose it)
            expanded = False
            while not c.over and c.round == number:
                ms = legal(c)
                if len(ms) == 1:
                    step(c, ms[0])
                    continue
                if not first and ms[0] < 0 and c.phase == TURN and M_DRAW in ms:
                    step(c, M_DRAW)  # no play on a turn: draw if it may (the rollout policy)
                    continue
                seat = c.turn
                if own is not None and not first and seat not in own:
                    step(c, fast.decide(c, ms, book, ROLLOUT_PLAN_BUDGET, weights[seat]))
                    continue
                first = False
                if expanded:
                    break
                moves = ranked(c, ms, width, book, weights[seat])
                if node is root:
                    if self.confidence is not None and base_m in ms:
                        moves = [base_m, *(m for m in moves if m != base_m)]
                    if root_moves is None:
                        root_moves = moves
                children = node.children
                pick = None
                for m in moves:  # the first not yet tried, in the policy's order
                    if m not in children:
                        pick = m
                        break
                if pick is not None:
                    for m in moves:
                        ch = children.get(m)
                        if ch is not None:
                            ch.avail += 1
                    child = children[pick] = Node()
                    child.avail = 1
                    nodes += 1
                    expanded = True
                else:
                    best, child = -math.inf, None
                    for m in moves:
                        ch = children[m]
                        ch.avail += 1
                        u = ch.total / ch.visits + spread * math.sqrt(math.log(ch.avail) / ch.visits)
                        if u > best:
                            best, pick, child = u, m, ch
                path.append((child, seat))
                step(c, pick)
                node = child
            depth_sum += len(path)
            if not c.over and c.round == number:
                scores, _ = fast.run(c, None, ROLLOUT_PLAN_BUDGET, weights=weights)
            else:
                scores = c.round_scores[done]
            rewards = [g.value(scores) for g in goals]
            r = rewards[view.seat]
            count += 1
            total += r
            squares += r * r
            if count > 1:
                var = max(0.0, (squares - total * total / count) / (count - 1))
                spread = cexp * max(1.0, math.sqrt(var))
            for child, seat in path:
                child.visits += 1
                child.total += rewards[seat]
                child.squares += rewards[seat] ** 2
        assert root_moves is not None
        # the most visited; among equals, the first in the policy's order
        order = {m: i for i, m in enumerate(root_moves)}
        best_m = max(root.children, key=lambda m: (root.children[m].visits, -order.get(m, len(order))))
        if self.confidence is not None and base_m in root.children:
            best_m = self._confident(root.children, base_m)
        template = dealer.template
        action = core_actions(template, [best_m])[0]
        self.last_stats = {
            "iterations": iterations, "nodes": nodes, "depth": depth_sum / iterations,
            "sd": math.sqrt(max(0.0, (squares - total * total / count) / (count - 1))) if count > 1 else 0.0,
            "visits": {a: root.children[m].visits for a, m in zip(core_actions(template, list(root.children)), root.children, strict=True)},
            "values": {a: root.children[m].total / root.children[m].visits
                       for a, m in zip(core_actions(template, list(root.children)), root.children, strict=True)},
        }
        self.last_stats["planner's"] = action == base
        return action

    def _confident(self, children: dict[int, Node], base_m: int) -> int:
        """The planner's move ``base_m``, unless another child's mean beats its mean by
        ``confidence`` standard errors of the difference (the best such lower bound wins)."""

        def mean_var(ch: Node) -> tuple[float, float]:
            mean = ch.total / ch.visits
            var = max(0.0, (ch.squares - ch.total * mean) / (ch.visits - 1)) if ch.visits > 1 else math.inf
            return mean, var

        b = children[base_m]
        if b.visits < 2:
            return base_m
        mb, vb = mean_var(b)
        chosen, best = base_m, 0.0
        for m, ch in children.items():
            if m == base_m or ch.visits < 2:
                continue
            mc, vc = mean_var(ch)
            lcb = mc - mb - self.confidence * math.sqrt(vc / ch.visits + vb / b.visits)
            if lcb > best:
                chosen, best = m, lcb
        return chosen


__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_ITERATIONS_TWO", "IsmctsPlayer", "default_iterations"]
