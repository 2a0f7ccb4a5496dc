"""Information-set Monte Carlo tree search: the ``ismcts`` player.

:class:`ISMCTSPlayer` is single-observer ISMCTS (Cowling, Powley and Whitehouse, *Information
Set Monte Carlo Tree Search*, IEEE Transactions on Computational Intelligence and AI in Games
4(2), 2012, pp. 120-143, algorithm SO-ISMCTS) on the rollout engine of
:mod:`take5rules.playing.rollouts`, which :class:`~take5rules.playing.bots.MonteCarloPlayer`
shares. One tree is searched for one decision. Each iteration

1. samples a determinization: the cards the seat has not seen, dealt to the opponents
   uniformly over the deals consistent with its view
   (:meth:`take5rules.playing.belief.Belief.sample`);
2. descends the tree by UCB1 (Auer, Cesa-Bianchi and Fischer 2002), each node's children
   being the seat's own next decisions: the cards still in its hand, every one of them
   available in every determinization, since the hand is known (for the row of a low card,
   the root's children are the four rows, and the cards of the next turns below them);
   every turn met on the way is played in the determinization with the other seats' cards
   chosen by the rollout policy, all seats at once, as the rollouts of
   :class:`~take5rules.playing.bots.MonteCarloPlayer` do;
3. adds one node (a decision not tried yet at the node where the descent stops);
4. plays the round out from there with the rollout policy (greedy by default, every seat);
5. backs the seat's bull heads up the path: each node counts the heads taken from its own turn
   to the end of the round (the heads of earlier turns are the same for all its siblings).

UCB1 minimises: a child's score is its mean bull heads less ``exploration * sqrt(ln N / n)``
(*N* the visits of its parent, *n* its own), the lowest score is followed, ties to the child
added first; the decisions not tried yet at a node are tried first, in an order drawn from the
seed. The exploration constant is in bull heads, the scale of a round's outcome (some tens of
heads from best to worst): the default, 20, was the best of 3, 10, 20 and 40 against the
64-world Monte Carlo player (``docs/en/strength.md``, within the precision of those runs). The
decision is the most visited child of the root; ties go to the fewer bull heads on average,
then to the lower card (or row).

One change to the paper's algorithm, a variance reduction: the *n*-th visit of every child of
the root meets the same world (the same deal of the hidden cards and the same rollout seed), so
that the root's children are compared on common random numbers as far as their visits go, as
the candidates of :class:`~take5rules.playing.bots.MonteCarloPlayer` are; each world is still a
uniform draw, and ``paired=False`` draws a new world every iteration, as the paper does.

Drafts hide nothing: a pick is decided as
:meth:`~take5rules.playing.bots.MonteCarloPlayer.choose_draft`
decides it (a Monte Carlo player of the same seed and rollout decides it).

What it is not. The tree is *open-loop*: a node is the sequence of the seat's own cards this
round, whatever the opponents played in between, so the search does not tell apart the
situations the opponents' revealed cards would distinguish, and its statistics at a node mix
the determinizations' different tables. It is not the multi-observer ISMCTS of the same paper
(no tree for the opponents, who follow the rollout policy); nor does it model how the
opponents choose their cards (the determinizations are uniform). OpenSpiel's ``ISMCTSBot``
(reached through :mod:`take5rules.agents.openspiel_game`) keys its nodes by the information state,
what the
seat has seen, the opponents' revealed cards included; it runs in Python on the OpenSpiel game,
far slower a move. This player is written on the kernel, to stay well within 100 ms a move.

A *prior* guides the root (progressive bias: Chaslot, Winands, van den Herik, Uiterwijk and
Bouzy, *Progressive Strategies for Monte-Carlo Tree Search*, New Mathematics and Natural
Computation 4(3), 2008): a callable given the view and the root's actions, which answers a
probability for each action. Once every child of the root was tried, a child's score loses
``prior_weight * p / (1 + n)`` bull heads besides UCB1's term (*p* its prior, *n* its visits):
the prior steers the first visits and fades as the child's own mean takes over. The nodes below
the root are searched as before. :mod:`take5rules.agents.player_kinds` makes ``best`` this way,
with the learned policy as its prior (:class:`take5rules.agents.policy.PolicyPrior`). A prior
with a callable ``see`` is told the game's events the player is told.

It decides from the seat's view alone (``tests/test_ismcts.py`` seats it at a table that lies
about the hidden hands), and is reproducible from its *seed*: the same seed and the same views
give the same decisions. A *budget* in milliseconds stops a search before its *iterations*
when the time is up (after every child of the root was tried once); a search stopped by the
clock depends on the machine's speed.

At the ninth turn the seat's low card 1 must take a row: the cheapest hold 3 bull heads, but
25, its last card, would then be the sixth card of 20 to 24 (11 heads) next turn; taking that
row now costs 11 in all, against 14:

>>> from take5rules.table import Table
>>> rows = Table.of([[20, 21, 22, 23, 24], [50], [60], [70]])
>>> choice = RowChoice("me", 1, rows, 1, 9, (25,), {"me": 0, "you": 0},
...                    ((("me", 1), ("you", 90)),))
>>> ISMCTSPlayer(iterations=40, seed=3).choose_row(choice)
0
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from take5rules import _kernel
from take5rules._messages import N_, shown
from take5rules.cards import Card
from take5rules.errors import RulesError
from take5rules.playing.belief import belief
from take5rules.playing.bots import MonteCarloPlayer
from take5rules.playing.players import (
    CardView,
    DraftView,
    RowChoice,
    cheapest_index,
    check_view,
)
from take5rules.playing.rollouts import (
    ROLLOUTS,
    after_me,
    checked_budget,
    checked_count,
    checked_flag,
    checked_seed,
    deadline,
    forced_card,
    play_out,
    play_turn,
    take_row,
)
from take5rules.table import Row

__all__ = ["DEFAULT_ITERATIONS", "MOST_ITERATIONS", "ISMCTSPlayer", "Prior"]

#: A prior of the root's actions: given the view and the actions (cards, or rows for a low
#: card), a probability for each, in their order.
Prior = Callable[[CardView | RowChoice, Sequence[int]], Sequence[float]]

#: The iterations of a decision by default (a mean well below 30 ms a move on one core).
DEFAULT_ITERATIONS = 350
#: The most iterations a decision may have, so that a decision always ends (some seconds at
#: four players on one core, below a minute at ten).
MOST_ITERATIONS = 100_000
_NOT_A_RATE = N_("{name} is a finite number of at least 0, not {value!r}")
_NOT_A_PRIOR = N_("prior = {value}: it must be a callable of a view and its actions, or None")
_BAD_PRIOR = N_("the prior {prior} answered {value} for {count} actions: it must answer one "
                "finite number of at least 0 for each")


def _number(value: object) -> float | None:
    """*value* as a finite float, or ``None`` (a bool is no number here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


class _Node:
    """A node of the open-loop tree: the decisions not tried yet, the children, the counts."""

    __slots__ = ("children", "total", "untried", "visits")

    def __init__(self, untried: list[int]) -> None:
        self.untried = untried
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0


class ISMCTSPlayer:
    """Single-observer information-set Monte Carlo tree search (module docstring).

    Args:
        iterations: determinizations (and rollouts) per decision, 1 to
            :data:`MOST_ITERATIONS`.
        exploration: UCB1's exploration constant, in bull heads.
        rollout: the rollout policy, ``"greedy"``, ``"cautious"`` or ``"random"``
            (:data:`take5rules.playing.bots.ROLLOUTS`).
        seed: the seed of the determinizations, the expansions and the rollouts (an integer,
            or ``None``).
        budget: milliseconds a decision may take at most (above 0, at most an hour), or
            ``None`` for no limit.
        paired: the *n*-th visit of every child of the root meets the same world (else a new
            world every iteration).
        prior: a :data:`Prior` that guides the root (module docstring), or ``None``.
        prior_weight: the prior's weight, in bull heads.

    Raises:
        RulesError: (id ``argument``) for a knob out of its range or of the wrong type.
    """

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, exploration: float = 20.0,
                 rollout: str = "greedy", seed: int | None = 0,
                 budget: float | None = None, *, paired: bool = True,
                 prior: Prior | None = None, prior_weight: float = 20.0) -> None:
        count = checked_count("iterations", iterations, MOST_ITERATIONS)
        rate = _number(exploration)
        if rate is None or rate < 0:
            raise RulesError("argument", _NOT_A_RATE, name="exploration",
                             value=shown(exploration))
        limit = checked_budget("budget", budget)
        number = checked_seed("seed", seed)
        self.paired = checked_flag("paired", paired)
        if prior is not None and not callable(prior):
            raise RulesError("argument", _NOT_A_PRIOR, value=shown(prior))
        weight = _number(prior_weight)
        if weight is None or weight < 0:
            raise RulesError("argument", _NOT_A_RATE, name="prior_weight",
                             value=shown(prior_weight))
        self.prior, self.prior_weight = prior, weight
        listens = getattr(prior, "see", None)
        if callable(listens):  # the player listens only for a prior that does
            self.see: Callable[[str, object], object] = listens
        # MonteCarloPlayer checks the rollout's name, and decides the drafts.
        self._draft = MonteCarloPlayer(rollout=rollout, seed=number)
        self.iterations, self.exploration, self.rollout = count, rate, rollout
        self.seed, self.budget = number, limit
        self._random = random.Random(number)
        #: The root's statistics after the last search: for each of its actions (a card, or
        #: a row for a low card), the visits and the mean bull heads of the seat from there
        #: to the end of the round. Empty before the first search, and after a decision made
        #: without one (a forced card, a row that nothing follows, a draft pick).
        self.last_search: dict[int, tuple[int, float]] = {}

    def __repr__(self) -> str:
        extra = f", budget={self.budget}" if self.budget is not None else ""
        extra += "" if self.paired else ", paired=False"
        if self.prior is not None:
            extra += f", prior={self.prior!r}, prior_weight={self.prior_weight}"
        return (f"ISMCTSPlayer(iterations={self.iterations}, exploration={self.exploration}, "
                f"rollout={self.rollout!r}, seed={self.seed}{extra})")

    def _bias(self, view: CardView | RowChoice, actions: list[int]) -> dict[int, float]:
        """Each root action's bias, ``prior_weight`` times its prior (none without a prior)."""
        if self.prior is None or len(actions) < 2:
            return {}
        answer = self.prior(view, actions)
        values = [_number(value) for value in answer] if isinstance(answer, Sequence) else []
        if len(values) != len(actions) or any(value is None or value < 0 for value in values):
            raise RulesError("argument", _BAD_PRIOR, prior=shown(self.prior),
                             value=shown(answer), count=len(actions))
        return {action: self.prior_weight * float(value or 0.0)
                for action, value in zip(actions, values, strict=True)}

    def _search(self, view: CardView | RowChoice, actions: list[int],
                first: Callable[[int, list[Row], dict[str, list[Card]]], int] | None) -> int:
        """The most visited of the root's *actions* after the search.

        With *first* (a row choice), the root's step is ``first(action, rows, hands)`` (the
        heads it takes) and the cards follow below; without, the root's actions are cards.
        """
        known = belief(view)
        seats, me, rng = known.seats, view.player, self._random
        policy = ROLLOUTS[self.rollout]
        start, hand, explore = view.table.rows, tuple(view.hand), self.exploration
        stop = deadline(self.budget)
        log, sqrt = math.log, math.sqrt
        bias = self._bias(view, actions)
        root = _Node(list(actions))
        rng.shuffle(root.untried)
        worlds: list[tuple[dict[str, tuple[Card, ...]], int]] = []
        for _ in range(self.iterations):
            # Selection and expansion: the tree's decisions do not depend on the world.
            node, left, path = root, list(hand), []
            while node.untried or node.children:
                if node.untried:
                    action = node.untried.pop()
                elif bias and node is root:
                    scale = explore * sqrt(log(node.visits))
                    action = min(node.children, key=lambda key: (
                        node.children[key].total / node.children[key].visits
                        - scale / sqrt(node.children[key].visits)
                        - bias[key] / (1 + node.children[key].visits)))
                else:
                    scale = explore * sqrt(log(node.visits))
                    action = min(node.children, key=lambda key: (
                        node.children[key].total / node.children[key].visits
                        - scale / sqrt(node.children[key].visits)))
                if first is None or node is not root:
                    left.remove(action)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(list(left))
                    rng.shuffle(child.untried)
                    path.append((action, child))
                    break
                path.append((action, child))
                node = child
            # The world: the n-th visit of every child of the root meets the n-th world.
            index = path[0][1].visits if self.paired else 0
            if not self.paired:
                worlds.clear()
            if index == len(worlds):
                worlds.append((known.sample(rng), rng.getrandbits(32)))
            deal, seed = worlds[index]
            hands = {seat: list(cards) for seat, cards in deal.items()}
            hands[me] = list(hand)
            rows, luck, marks, taken = list(start), random.Random(seed), [], 0
            for depth, (action, _child) in enumerate(path):
                marks.append(taken)
                if depth == 0 and first is not None:
                    taken += first(action, rows, hands)
                else:
                    taken += play_turn(rows, hands, seats, me, action, luck, policy)
            taken += play_out(rows, hands, seats, me, None, luck, policy)
            root.visits += 1
            for (_action, child), mark in zip(path, marks, strict=True):
                child.visits += 1
                child.total += taken - mark
            if (stop is not None and root.visits >= len(actions)
                    and time.perf_counter() > stop):
                break
        self.last_search = {action: (child.visits, child.total / max(1, child.visits))
                            for action, child in root.children.items()}
        return min(root.children, key=lambda action: (
            -root.children[action].visits,
            root.children[action].total / max(1, root.children[action].visits), action))

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        forced = forced_card(view)
        if forced is not None:
            self.last_search = {}
            return forced
        return self._search(view, list(view.hand), None)

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        check_view(choice)
        me, value, rest = choice.player, choice.card, after_me(choice)
        if rest is None:
            self.last_search = {}
            return cheapest_index(choice.table.rows)

        def first(row: int, rows: list[Row], hands: dict[str, list[Card]]) -> int:
            return take_row(rows, row, value, rest, me)

        return self._search(choice, list(range(_kernel.ROWS)), first)

    def choose_draft(self, view: DraftView) -> Card:
        """The pick :meth:`.MonteCarloPlayer.choose_draft` makes: nothing hidden."""
        self.last_search = {}
        return self._draft.choose_draft(view)
