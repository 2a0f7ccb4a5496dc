"""Reference players worth beating: a greedy player and determinized Monte Carlo search.

* :class:`GreedyPlayer` plays the card of least immediate cost: the bull heads it would take
  this turn if it were played alone (a sixth card takes its row, a low card the cheapest row,
  any other card nothing). Ties go to the card closest above its row's last card (the least
  room for another player's card to slip in before it), then to the lowest card. It takes the
  cheapest row, and drafts as :class:`~take5rules.playing.players.CautiousPlayer` does.
* :class:`MonteCarloPlayer` searches by determinized rollouts: it samples the hidden hands
  from :func:`take5rules.playing.belief.belief` (uniformly over the deals consistent with its view),
  and in each sampled world plays every candidate card (or row, or pick) out to the end of the
  round with a fast rollout policy on the kernel, every seat following that policy. It keeps
  the candidate of the fewest bull heads on average over the worlds. Every candidate meets the
  same worlds and the same rollout randomness (common random numbers), so that the differences
  it sees are the candidates', not the luck of the draw. With *halving* it spends its worlds
  by successive halving: after each quarter of the worlds, the worse half of the candidates
  still in the race is dropped, and the saved rollouts go to the others.

Both searches play their rollouts on :mod:`take5rules.playing.rollouts`, the rollout engine
they share with :class:`~take5rules.playing.ismcts.ISMCTSPlayer` (``best``, made by
:func:`take5rules.playing.kinds.best_player`, whose docstring has the figures).

Each player is reproducible from its *seed*: the same seed and the same views give the same
decisions. A *budget* in milliseconds caps the time of a decision (it stops sampling worlds
when the time is up, after one world at least); a run with a budget depends on the machine's
speed, so it is reproducible only when the worlds run out first. Every knob is checked when a
player is made, each within a bound (:data:`MOST_WORLDS` worlds), so that a decision always
ends; a view no game can show is refused (:func:`~take5rules.playing.players.check_view`), both
with the error id ``argument``.

They decide from the seat's view alone: nothing else is reachable from what a player is given
(``tests/test_bots.py`` seats them at tables that lie about the hidden hands).

>>> from take5rules.playing.engine import play_silently
>>> from take5rules.playing.players import CautiousPlayer
>>> over = play_silently({"mc": MonteCarloPlayer(worlds=4, seed=1), "greedy": GreedyPlayer(),
...                       "cautious": CautiousPlayer()}, seed=3)
>>> sorted(over.totals) == ["cautious", "greedy", "mc"]
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from take5rules import _kernel
from take5rules.cards import Card
from take5rules.playing.belief import Belief, belief
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    DraftView,
    RowChoice,
    cheapest_index,
    cheapest_row,
    check_draft_view,
    check_view,
    empty_hand,
    empty_pool,
)
from take5rules.playing.rollouts import (
    ROLLOUTS,
    Policy,
    after_me,
    checked_budget,
    checked_count,
    checked_flag,
    checked_rollout,
    checked_seed,
    deadline,
    forced_card,
    greedy_card,
    play_out,
    take_row,
)
from take5rules.variants import draft as drafted_deal
from take5rules.variants import next_drafter

__all__ = ["MOST_WORLDS", "ROLLOUTS", "GreedyPlayer", "MonteCarloPlayer", "Policy",
           "greedy_card"]

#: The most worlds a :class:`MonteCarloPlayer` may sample for a decision, so that a decision
#: always ends (at ten players, about a minute on one core).
MOST_WORLDS = 100_000
_HEADS = _kernel.HEADS
_ROWS = _kernel.ROWS
_DRAFT = CautiousPlayer().choose_draft


class GreedyPlayer:
    """The least immediate cost (module docstring); deterministic, so *seed* is unused."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = checked_seed("seed", seed)

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        hand = view.hand
        if not hand:
            raise empty_hand(view.player)
        return greedy_card(view.table.rows, hand)

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        return cheapest_row(choice.table)

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        return _DRAFT(view)

    def __repr__(self) -> str:
        return "GreedyPlayer()"


class MonteCarloPlayer:
    """Determinized Monte Carlo search (module docstring).

    Args:
        worlds: sampled worlds per decision (each candidate is played out once in each), 1 to
            :data:`MOST_WORLDS`.
        rollout: the rollout policy, ``"greedy"``, ``"cautious"`` or ``"random"``
            (:data:`ROLLOUTS`).
        seed: the seed of the worlds and the rollouts (an integer, or ``None``).
        budget: milliseconds a decision may take at most (above 0, at most an hour), or
            ``None`` for no limit.
        halving: drop the worse half of the candidates after each quarter of the worlds.

    Raises:
        RulesError: (id ``argument``) for a knob out of its range or of the wrong type.
    """

    def __init__(self, worlds: int = 64, rollout: str = "greedy", seed: int | None = 0,
                 budget: float | None = None, *, halving: bool = False) -> None:
        self.worlds = checked_count("worlds", worlds, MOST_WORLDS)
        self._policy = checked_rollout(rollout)
        self.rollout, self.seed = rollout, checked_seed("seed", seed)
        self.budget = checked_budget("budget", budget)
        self.halving = checked_flag("halving", halving)
        self._random = random.Random(self.seed)

    def __repr__(self) -> str:
        extra = f", budget={self.budget}" if self.budget is not None else ""
        extra += ", halving=True" if self.halving else ""
        return (f"MonteCarloPlayer(worlds={self.worlds}, rollout={self.rollout!r}, "
                f"seed={self.seed}{extra})")

    def _search(self, count: int, evaluate: Callable[[int, dict[str, tuple[Card, ...]], int],
                                                     int], known: Belief) -> int:
        """The index of the best of *count* candidates; *evaluate(candidate, deal, seed)*."""
        totals = [0] * count
        alive = list(range(count))
        stop = deadline(self.budget)
        rng = self._random
        worlds = self.worlds
        checkpoints = {worlds * k // 4 for k in (1, 2, 3)} if self.halving else set()
        for world in range(1, worlds + 1):
            deal = known.sample(rng)
            seed = rng.getrandbits(32)
            for candidate in alive:
                totals[candidate] += evaluate(candidate, deal, seed)
            if world in checkpoints and len(alive) > 2:
                alive.sort(key=lambda index: (totals[index], index))
                alive = sorted(alive[: (len(alive) + 1) // 2])
            if stop is not None and time.perf_counter() > stop:
                break
        return min(alive, key=lambda index: (totals[index], index))

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        forced = forced_card(view)
        if forced is not None:
            return forced
        hand = view.hand
        known = belief(view)
        seats, me, policy, rows = known.seats, view.player, self._policy, view.table.rows

        def evaluate(candidate: int, deal: dict[str, tuple[Card, ...]], seed: int) -> int:
            hands = {seat: list(cards) for seat, cards in deal.items()}
            hands[me] = list(hand)
            return play_out(list(rows), hands, seats, me, hand[candidate],
                            random.Random(seed), policy)

        return hand[self._search(len(hand), evaluate, known)]

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        check_view(choice)
        rest = after_me(choice)
        if rest is None:
            return cheapest_index(choice.table.rows)
        known = belief(choice)
        seats, me, policy = known.seats, choice.player, self._policy
        rows, hand, value = choice.table.rows, choice.hand, choice.card

        def evaluate(candidate: int, deal: dict[str, tuple[Card, ...]], seed: int) -> int:
            now = list(rows)
            taken = take_row(now, candidate, value, rest, me)
            hands = {seat: list(cards) for seat, cards in deal.items()}
            hands[me] = list(hand)
            return taken + play_out(now, hands, seats, me, None, random.Random(seed), policy)

        return self._search(_ROWS, evaluate, known)

    def choose_draft(self, view: DraftView) -> Card:
        """The pick of the fewest bull heads over the round played out after the draft.

        The rest of the draft follows :class:`~take5rules.playing.players.CautiousPlayer`'s picks,
        then the round is played out with the rollout policy (nothing is hidden in a draft).
        Tried: the twelve picks Cautious ranks first.
        """
        check_draft_view(view)
        if not view.pool:
            raise empty_pool(view.player)
        seats = tuple(view.totals)
        if view.player not in seats or len(view.pool) <= 1:
            return _DRAFT(view)
        me, policy = view.player, self._policy
        ranked = sorted(view.pool, key=lambda card: (_HEADS[card], card))[:12]
        pool = (*view.pool, *(card for _seat, card in view.picks))
        rng = self._random

        def evaluate(candidate: int, seed: int) -> int:
            picks = [*view.picks, (me, ranked[candidate])]
            left = sorted((card for card in view.pool if card != ranked[candidate]),
                          key=lambda card: (_HEADS[card], card), reverse=True)
            while len(left) > _ROWS:
                picks.append((next_drafter(seats, len(picks)), left.pop()))
            deal = drafted_deal(pool, seats, picks)
            hands = {seat: list(deal.hands[seat]) for seat in seats}
            return play_out([(card,) for card in deal.rows], hands, seats, me, None,
                            random.Random(seed), policy)

        # A rollout that draws nothing (greedy, cautious) plays the same in every run.
        runs = max(1, self.worlds // 8) if self.rollout == "random" else 1
        seeds = [rng.getrandbits(32) for _ in range(runs)]
        scores = [sum(evaluate(index, seed) for seed in seeds) for index in range(len(ranked))]
        return ranked[min(range(len(ranked)), key=lambda index: (scores[index], index))]
