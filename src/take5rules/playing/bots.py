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
* :func:`best_player` (``best``) is :class:`~take5rules.playing.ismcts.ISMCTSPlayer`, the strongest
of
  the built-in players within 100 ms a move: it beats the 64-world search in less time (its
  docstring has the figures).

Each player is reproducible from its *seed*: the same seed and the same views give the same
decisions. A *budget* in milliseconds caps the time of a decision (it stops sampling worlds
when the time is up, after one world at least); a run with a budget depends on the machine's
speed, so it is reproducible only when the worlds run out first.

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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import RulesError
from take5rules.playing.belief import Belief, belief
from take5rules.playing.players import CardView, CautiousPlayer, DraftView, _cheapest_index
from take5rules.table import Row
from take5rules.turn import RowChoice
from take5rules.variants import draft as drafted_deal
from take5rules.variants import next_drafter

if TYPE_CHECKING:
    from take5rules.playing.ismcts import ISMCTSPlayer

__all__ = ["ROLLOUTS", "GreedyPlayer", "MonteCarloPlayer", "best_player", "greedy_card"]

_HEADS = _kernel.HEADS
_LIMIT = _kernel.ROW_LIMIT
_ROWS = _kernel.ROWS
_target = _kernel.target
_pile_heads = _kernel.pile_heads
_DRAFT = CautiousPlayer().choose_draft
_NOT_A_COUNT = N_("{name} is a whole number of at least 1, not {value!r}")
_UNKNOWN_ROLLOUT = N_("unknown rollout policy {value!r}; choose one of {choices}")

#: A rollout policy: ``policy(rows, rng)`` gives the turn's choice, ``choose(hand) -> card``
#: (rows and hands are the kernel's lists; every seat of a turn sees the same rows).
Policy = Callable[[list[Row], random.Random], Callable[[list[Card]], Card]]


def greedy_card(rows: Sequence[Row], hand: Sequence[Card]) -> Card:
    """The card of least immediate cost, ties to the smallest gap, then the lowest card.

    >>> greedy_card([(12,), (37,), (43, 44, 45, 46, 47), (58,)], [5, 48, 60])
    60
    """
    return _greedy_choice(hand, *_row_figures(rows))


def _row_figures(rows: Sequence[Row]) -> tuple[list[Card], list[int], int]:
    """What the greedy choice needs of the rows.

    Their last cards, the bull heads of the full ones (0 for the others), and the bull heads of
    the cheapest.
    """
    heads = _pile_heads
    return ([row[-1] for row in rows], [heads(row) if len(row) >= _LIMIT else 0 for row in rows],
            min(heads(row) for row in rows))


def _greedy_choice(hand: Sequence[Card], lasts: Sequence[Card], full: Sequence[int],
                   low_cost: int) -> Card:
    """:func:`greedy_card` from the rows' figures (:func:`_row_figures`).

    The key (cost, gap, card) is packed in one int, ``cost << 16 | gap << 7 | card`` (a gap is
    below 2**9, a card below 2**7), in the same order; a low card's gap counts as 256.
    """
    best_key = 1 << 40
    best = hand[0]
    for card in hand:
        index, top, position = -1, 0, 0
        for last in lasts:
            if top < last < card:
                top, index = last, position
            position += 1  # noqa: SIM113 -- the kernel's hot-loop idiom
        if index < 0:
            key = (low_cost << 16) | (256 << 7) | card
        else:
            key = (full[index] << 16) | ((card - top) << 7) | card
        if key < best_key:
            best_key, best = key, card
    return best


def _greedy_policy(rows: list[Row], rng: random.Random) -> Callable[[list[Card]], Card]:
    lasts, full, low_cost = _row_figures(rows)  # once a turn: every seat sees the same rows
    return lambda hand: _greedy_choice(hand, lasts, full, low_cost)


def _random_policy(rows: list[Row], rng: random.Random) -> Callable[[list[Card]], Card]:
    draw = rng.random
    return lambda hand: hand[int(draw() * len(hand))]


#: The rollout policies by name.
ROLLOUTS: dict[str, Policy] = {"greedy": _greedy_policy, "random": _random_policy}


def _place(rows: list[Row], plays: Sequence[tuple[Card, str]], me: str) -> int:
    """Place *plays* (in placement order) on *rows*: the bull heads *me* takes."""
    mine = 0
    for value, seat in plays:
        index = _target(rows, value)
        if index < 0:
            index = _cheapest_index(rows)
            taken = rows[index]
            rows[index] = (value,)
        else:
            row = rows[index]
            if len(row) < _LIMIT:
                rows[index] = (*row, value)
                continue
            taken = row
            rows[index] = (value,)
        if seat == me:
            mine += _pile_heads(taken)
    return mine


def _take_row(rows: list[Row], row: int, value: Card, rest: Sequence[tuple[Card, str]],
              me: str) -> int:
    """*me*'s low card *value* takes *row* of *rows* (changed), then the turn's *rest* is placed.

    The bull heads *me* takes in all.
    """
    taken = _pile_heads(rows[row])
    rows[row] = (value,)
    return taken + _place(rows, rest, me)


def _after_me(choice: RowChoice) -> list[tuple[Card, str]] | None:
    """The plays of *choice*'s turn placed after the seat's low card, in placement order.

    ``None`` when the view does not show that card among the turn's plays, or the seat is not at
    the table: nothing to search, so the searching players take the cheapest row.
    """
    me = choice.player
    if not choice.revealed or me not in choice.totals:
        return None
    turn = sorted((value, seat) for seat, value in choice.revealed[-1])
    if (choice.card, me) not in turn:
        return None
    return turn[turn.index((choice.card, me)) + 1:]


def _deadline(budget: float | None) -> float | None:
    """The ``time.perf_counter()`` at which a decision of *budget* milliseconds stops."""
    return None if budget is None else time.perf_counter() + budget / 1000


def _play_turn(rows: list[Row], hands: dict[str, list[Card]], seats: Sequence[str], me: str,
               mine: Card | None, rng: random.Random, policy: Policy) -> int:
    """Play one turn on *rows* and *hands* (changed): the bull heads *me* takes.

    *me* plays *mine* if given; every other choice is *policy*'s, every low card takes the
    cheapest row.
    """
    choose = policy(rows, rng)
    plays = []
    for seat in seats:
        hand = hands[seat]
        value = mine if mine is not None and seat == me else choose(hand)
        hand.remove(value)
        plays.append((value, seat))
    plays.sort()
    return _place(rows, plays, me)


def _play_out(rows: list[Row], hands: dict[str, list[Card]], seats: Sequence[str], me: str,
              first: Card | None, rng: random.Random, policy: Policy) -> int:
    """Play the round out from *rows* and *hands* (changed): the bull heads *me* takes.

    *me* plays *first* this turn if given (:func:`_play_turn`), then as *policy* chooses.
    """
    mine = 0
    while hands[me]:
        mine += _play_turn(rows, hands, seats, me, first, rng, policy)
        first = None
    return mine


class GreedyPlayer:
    """The least immediate cost (module docstring); deterministic, so *seed* is unused."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        return greedy_card(view.table.rows, view.hand)

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        return _cheapest_index(choice.table.rows)

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        return _DRAFT(view)

    def __repr__(self) -> str:
        return "GreedyPlayer()"


class MonteCarloPlayer:
    """Determinized Monte Carlo search (module docstring).

    Args:
        worlds: sampled worlds per decision (each candidate is played out once in each).
        rollout: the rollout policy, ``"greedy"`` or ``"random"`` (:data:`ROLLOUTS`).
        seed: the seed of the worlds and the rollouts.
        budget: milliseconds a decision may take at most, or ``None`` for no limit.
        halving: drop the worse half of the candidates after each quarter of the worlds.
    """

    def __init__(self, worlds: int = 64, rollout: str = "greedy", seed: int | None = 0,
                 budget: float | None = None, *, halving: bool = False) -> None:
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise RulesError("argument", _NOT_A_COUNT, name="worlds", value=worlds)
        if rollout not in ROLLOUTS:
            raise RulesError("argument", _UNKNOWN_ROLLOUT, value=rollout,
                             choices=", ".join(ROLLOUTS))
        self.worlds, self.rollout, self.seed = worlds, rollout, seed
        self.budget, self.halving = budget, halving
        self._policy = ROLLOUTS[rollout]
        self._random = random.Random(seed)

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
        deadline = _deadline(self.budget)
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
            if deadline is not None and time.perf_counter() > deadline:
                break
        return min(alive, key=lambda index: (totals[index], index))

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        hand = view.hand
        if len(hand) == 1 or view.player not in view.totals:
            return hand[0] if len(hand) == 1 else greedy_card(view.table.rows, hand)
        known = belief(view)
        seats, me, policy, rows = known.seats, view.player, self._policy, view.table.rows

        def evaluate(candidate: int, deal: dict[str, tuple[Card, ...]], seed: int) -> int:
            hands = {seat: list(cards) for seat, cards in deal.items()}
            hands[me] = list(hand)
            return _play_out(list(rows), hands, seats, me, hand[candidate],
                             random.Random(seed), policy)

        return hand[self._search(len(hand), evaluate, known)]

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        rest = _after_me(choice)
        if rest is None:
            return _cheapest_index(choice.table.rows)
        known = belief(choice)
        seats, me, policy = known.seats, choice.player, self._policy
        rows, hand, value = choice.table.rows, choice.hand, choice.card

        def evaluate(candidate: int, deal: dict[str, tuple[Card, ...]], seed: int) -> int:
            now = list(rows)
            taken = _take_row(now, candidate, value, rest, me)
            hands = {seat: list(cards) for seat, cards in deal.items()}
            hands[me] = list(hand)
            return taken + _play_out(now, hands, seats, me, None, random.Random(seed), policy)

        return self._search(_ROWS, evaluate, known)

    def choose_draft(self, view: DraftView) -> Card:
        """The pick of the fewest bull heads over the round played out after the draft.

        The rest of the draft follows :class:`~take5rules.playing.players.CautiousPlayer`'s picks,
        then the round is played out with the rollout policy (nothing is hidden in a draft).
        Tried: the twelve picks Cautious ranks first.
        """
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
            return _play_out([(card,) for card in deal.rows], hands, seats, me, None,
                             random.Random(seed), policy)

        runs = 1 if self.rollout == "greedy" else max(1, self.worlds // 8)
        seeds = [rng.getrandbits(32) for _ in range(runs)]
        scores = [sum(evaluate(index, seed) for seed in seeds) for index in range(len(ranked))]
        return ranked[min(range(len(ranked)), key=lambda index: (scores[index], index))]


def best_player(seed: int | None = 0) -> ISMCTSPlayer:
    """The strongest built-in player within 100 ms a move on one core (``best``).

    :class:`~take5rules.playing.ismcts.ISMCTSPlayer` with its defaults (350 iterations, exploration
    20
    bull heads, greedy rollouts): about 24 ms a move at four players (at most 49 ms), 41 ms
    at ten (at most 86 ms over the 296 decisions of ten games against nine ``cautious``).
    Its tree chooses the seat's own later cards, which :class:`MonteCarloPlayer` plays greedily
    in its rollouts. At one table with the 64-world search and two ``cautious`` players, on 500
    duplicate deal sets (2,000 games), it took 0.64 bull heads a deal fewer than the 64-world
    search (95%: 0.41 to 0.87) in 0.92 its time a move. At one table with the 64-world search,
    the search with 108 worlds and successive halving (``best`` up to 0.3.0) and a
    ``cautious`` player, on 200 deal sets, it took 0.74 fewer than the first (0.33 to 1.15) and
    0.75 fewer than the second (0.38 to 1.14), which were level (+0.01). The figures and their
    commands are on the "Strength ladder" page (``benchmarks/bench_strength.py``,
    ``benchmarks/bench_best.py``).

    >>> best_player(1)
    ISMCTSPlayer(iterations=350, exploration=20.0, rollout='greedy', seed=1)
    """
    from take5rules.playing import ismcts

    return ismcts.ISMCTSPlayer(seed=seed)
