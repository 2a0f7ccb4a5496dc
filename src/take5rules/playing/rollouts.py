"""The rollout engine the search players share: a round played out fast, on the kernel.

:class:`~take5rules.playing.bots.MonteCarloPlayer` and
:class:`~take5rules.playing.ismcts.ISMCTSPlayer` both judge a decision by playing the round
out in sampled worlds. The pieces of that play-out are here, once:

* a rollout *policy* (:data:`ROLLOUTS`: ``"greedy"``, the card of least immediate cost of
  :func:`greedy_card`; ``"cautious"``, the card
  :class:`~take5rules.playing.players.CautiousPlayer` plays, :func:`cautious_card`; or
  ``"random"``) chooses every card a seat plays in a rollout;
* :func:`play_turn` plays one turn (the searching seat's card given, the others' from the
  policy), :func:`play_out` the turns to the end of the round;
* :func:`take_row` plays the rest of a turn after the searching seat's low card took a row,
  and :func:`after_me` says which plays those are;
* :func:`place` places a turn's cards through :func:`take5rules._kernel.placements`, the one
  placement loop of the library, every low card taking the cheapest row
  (:func:`~take5rules.playing.players.cheapest_index`);
* :func:`deadline` turns a budget in milliseconds into the clock time a search stops at;
* :func:`checked_count`, :func:`checked_budget`, :func:`checked_seed`, :func:`checked_flag` and
  :func:`checked_rollout` check the knobs of a search when a player is made (error id
  ``argument``), each within a bound, so that every decision ends.

The rows and hands here are the kernel's plain values (a list of four tuples of ints, lists of
ints), already checked by the player that searches: nothing here checks them again.

>>> import random
>>> rows = [(12,), (37,), (43, 44, 45, 46, 47), (58,)]
>>> hands = {"me": [48, 60], "you": [5, 90]}
>>> play_out(rows, hands, ("me", "you"), "me", 48, random.Random(1), ROLLOUTS["greedy"])
10
>>> rows
[(5,), (37,), (48, 60), (58, 90)]
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_left
from collections.abc import Callable, Sequence
from operator import itemgetter

from take5rules import _kernel
from take5rules._messages import N_, shown
from take5rules.cards import Card
from take5rules.errors import RulesError
from take5rules.playing.players import CardView, RowChoice, cheapest_index, check_view, empty_hand
from take5rules.table import Row

__all__ = [
    "MOST_BUDGET",
    "NOT_A_COUNT",
    "ROLLOUTS",
    "Policy",
    "after_me",
    "cautious_card",
    "checked_budget",
    "checked_count",
    "checked_flag",
    "checked_rollout",
    "checked_seed",
    "deadline",
    "greedy_card",
    "place",
    "play_out",
    "play_turn",
    "take_row",
]

#: The message of a search's count (worlds, iterations) that is no whole number in its range.
NOT_A_COUNT = N_("{name} is a whole number from 1 to {most}, not {value!r}")
#: The most milliseconds a search's *budget* may be (an hour).
MOST_BUDGET = 3_600_000.0
_UNKNOWN_ROLLOUT = N_("unknown rollout policy {value!r}; choose one of {choices}")
_NOT_A_BUDGET = N_("{name} is a number of milliseconds above 0 and at most {most}, not "
                   "{value!r}")
_NOT_A_SEED = N_("{name} is a whole number or None, not {value!r}")
_NOT_A_FLAG = N_("{name} is True or False, not {value!r}")

_LIMIT = _kernel.ROW_LIMIT
_pile_heads = _kernel.pile_heads
_placements = _kernel.placements
#: The card of a ``(seat, card)`` play: the key of the placement order.
_CARD = itemgetter(1)
_LAST = itemgetter(-1)
_SCALE = [1, *([129] * _kernel.ROWS)]
_bisect = bisect_left

#: A rollout policy: ``policy(rows, rng)`` gives the turn's choice, ``choose(hand) -> card``
#: (rows and hands are the kernel's lists; every seat of a turn sees the same rows).
Policy = Callable[[list[Row], random.Random], Callable[[list[Card]], Card]]


def greedy_card(rows: Sequence[Row], hand: Sequence[Card]) -> Card:
    """The card of least immediate cost, ties to the smallest gap, then the lowest card.

    The cost of a card is the bull heads it would take this turn if it were played alone: a
    sixth card takes its row, a low card the cheapest row, any other card nothing.

    >>> greedy_card([(12,), (37,), (43, 44, 45, 46, 47), (58,)], [5, 48, 60])
    60
    """
    return _greedy_choice(hand, *_row_figures(rows))


def forced_card(view: CardView) -> Card | None:
    """The card a search plays without searching, or ``None`` when there is a choice to think on.

    The view is checked whole first (a view no game shows is refused). An empty hand is an
    ``argument`` error; a hand of one card plays it; a seat the totals do not name (a view built
    by hand, with no game around it to sample) plays greedy's card.
    """
    check_view(view)
    hand = view.hand
    if not hand:
        raise empty_hand(view.player)
    if len(hand) == 1:
        return hand[0]
    if view.player not in view.totals:
        return greedy_card(view.table.rows, hand)
    return None


def _row_figures(rows: Sequence[Row]) -> tuple[list[Card], list[int], list[int]]:
    """What the greedy choice needs of the rows, once a turn (every seat sees the same rows).

    The greedy key of a card, (cost, gap, card), is packed in one int in the same order,
    ``cost << 16 | gap << 7 | card`` (a gap is below 2**9, a card below 2**7), a low card's gap
    counting as 256. A card goes after the *k* rows whose last cards are below it (*k* found by
    bisection among the last cards, ascending), on the row of the *k*-th of them (none: a low
    card), so its key is ``base[k] + card * scale[k]``: ``base[0]`` is the cheapest row's bull
    heads ``<< 16 | 256 << 7`` with ``scale[0] == 1``; for ``k >= 1``, ``base[k]`` is the full
    row's bull heads ``<< 16`` less its last card ``<< 7``, with ``scale[k] == 129``
    (``(card - last) << 7 | card``). Returns the ascending last cards, *base* and *scale*.
    """
    heads = _pile_heads
    ranked = sorted(rows, key=_LAST)
    base = [(min(heads(row) for row in rows) << 16) | (256 << 7)]
    base += [((heads(row) if len(row) >= _LIMIT else 0) << 16) - (row[-1] << 7) for row in ranked]
    return [row[-1] for row in ranked], base, _SCALE


def _greedy_choice(hand: Sequence[Card], lasts: list[Card], base: list[int],
                   scale: list[int]) -> Card:
    """:func:`greedy_card` from the rows' figures (:func:`_row_figures`): the least key."""
    best_key = 1 << 40
    best = hand[0]
    for card in hand:
        above = _bisect(lasts, card)
        key = base[above] + card * scale[above]
        if key < best_key:
            best_key, best = key, card
    return best


def _greedy_policy(rows: list[Row], rng: random.Random) -> Callable[[list[Card]], Card]:
    lasts, base, scale = _row_figures(rows)  # once a turn: every seat sees the same rows
    return lambda hand: _greedy_choice(hand, lasts, base, scale)


def _cautious_figures(rows: Sequence[Row]) -> tuple[list[Card], list[int], list[int]]:
    """The rows' figures (as :func:`_row_figures`) of :class:`.CautiousPlayer`'s choice.

    Its key of a card, smallest first: a card that goes on a short row, ``len(row) * gap``
    (below 2**9); then a low card, twice the cheapest row's bull heads plus 1; then a sixth
    card, twice its row's bull heads plus 2 (those two shifted above every short row's key);
    ties to the lower card. Packed as ``key << 7 | card``: for a short row of length *n*
    ending at *last*, ``card * (128 n + 1) - 128 n last``.
    """
    heads = _pile_heads
    ranked = sorted(rows, key=_LAST)
    base = [(2 * min(heads(row) for row in rows) + 1) << 17]
    scale = [1]
    for row in ranked:
        size = len(row)
        if size >= _LIMIT:
            base.append((2 * heads(row) + 2) << 17)
            scale.append(1)
        else:
            base.append(-(size * row[-1]) << 7)
            scale.append((size << 7) + 1)
    return [row[-1] for row in ranked], base, scale


def cautious_card(rows: Sequence[Row], hand: Sequence[Card]) -> Card:
    """The card :class:`~take5rules.playing.players.CautiousPlayer` plays on *rows*.

    A card that goes on a row without filling it, the shortest row times the smallest gap;
    else a low card if the cheapest row costs less than the sixth card's row; ties to the
    lower card.

    >>> cautious_card([(12,), (37,), (43, 44, 45, 46, 47), (58,)], [5, 48, 60])
    60
    >>> cautious_card([(12, 13), (37,), (43, 44, 45, 46, 47), (58,)], [16, 40])
    40
    """
    lasts, base, scale = _cautious_figures(rows)
    return _greedy_choice(hand, lasts, base, scale)


def _cautious_policy(rows: list[Row], rng: random.Random) -> Callable[[list[Card]], Card]:
    lasts, base, scale = _cautious_figures(rows)  # once a turn: every seat sees the same rows
    return lambda hand: _greedy_choice(hand, lasts, base, scale)


def _random_policy(rows: list[Row], rng: random.Random) -> Callable[[list[Card]], Card]:
    draw = rng.random
    return lambda hand: hand[int(draw() * len(hand))]


#: The rollout policies by name.
ROLLOUTS: dict[str, Policy] = {"greedy": _greedy_policy, "cautious": _cautious_policy,
                               "random": _random_policy}


def checked_count(name: str, value: object, most: int) -> int:
    """*value*, a search's count (worlds, iterations) from 1 to *most*, else an ``argument``.

    >>> checked_count("worlds", 0, 10)
    Traceback (most recent call last):
      ...
    take5rules.errors.RulesError: worlds is a whole number from 1 to 10, not 0 [argument]
    """
    number = _kernel.integral(value)
    if number is None or not 1 <= number <= most:
        raise RulesError("argument", NOT_A_COUNT, name=name, most=most, value=shown(value))
    return number


def checked_budget(name: str, value: object) -> float | None:
    """*value*, milliseconds above 0 and at most :data:`MOST_BUDGET`, or ``None``."""
    if value is None:
        return None
    number = float(value) if isinstance(value, int | float) and not isinstance(
        value, bool) else math.nan
    if not 0 < number <= MOST_BUDGET:
        raise RulesError("argument", _NOT_A_BUDGET, name=name, most=MOST_BUDGET,
                         value=shown(value))
    return number


def checked_seed(name: str, value: object) -> int | None:
    """*value*, a seed: an integer of any integral type (as a plain ``int``), or ``None``."""
    if value is None:
        return None
    number = _kernel.integral(value)
    if number is None:
        raise RulesError("argument", _NOT_A_SEED, name=name, value=shown(value))
    return number


def checked_flag(name: str, value: object) -> bool:
    """*value*, a ``bool``, else an ``argument`` error."""
    if not isinstance(value, bool):
        raise RulesError("argument", _NOT_A_FLAG, name=name, value=shown(value))
    return value


def checked_rollout(value: object) -> Policy:
    """The rollout policy named *value* (:data:`ROLLOUTS`), else an ``argument`` error."""
    if not isinstance(value, str) or value not in ROLLOUTS:
        raise RulesError("argument", _UNKNOWN_ROLLOUT, value=shown(value),
                         choices=", ".join(ROLLOUTS))
    return ROLLOUTS[value]


def _cheapest(_player: str, _value: Card, rows: list[Row]) -> int:
    """The row a rollout's low card takes: the cheapest (the kernel's *choose*)."""
    return cheapest_index(rows)


def place(rows: list[Row], plays: Sequence[tuple[str, Card]], me: str) -> int:
    """Place *plays*, ``(seat, card)`` in placement order, on *rows* (changed).

    The cards go through :func:`take5rules._kernel.placements`; a low card takes the cheapest
    row. Returns the bull heads *me* takes.

    >>> rows = [(3,), (24,), (58,), (96, 97, 98, 99, 100)]
    >>> place(rows, [("you", 2), ("me", 101)], "me"), rows
    (11, [(2,), (24,), (58,), (101,)])
    """
    mine = 0
    for player, _value, _index, taken, _rule in _placements(rows, plays, _cheapest):
        if taken and player == me:
            mine += _pile_heads(taken)
    return mine


def take_row(rows: list[Row], row: int, value: Card, rest: Sequence[tuple[str, Card]],
             me: str) -> int:
    """*me*'s low card *value* takes *row* of *rows* (changed), then the turn's *rest* is placed.

    *rest* is ``(seat, card)`` in placement order (:func:`after_me`). The bull heads *me* takes
    in all.

    >>> rows = [(20, 21, 22, 23, 24), (50,), (60,), (70,)]
    >>> take_row(rows, 0, 1, [("you", 25)], "me"), rows
    (11, [(1, 25), (50,), (60,), (70,)])
    """
    taken = _pile_heads(_kernel.take(rows, value, row))
    return taken + place(rows, rest, me)


def after_me(choice: RowChoice) -> list[tuple[str, Card]] | None:
    """The plays of *choice*'s turn placed after the seat's low card, in placement order.

    ``(seat, card)`` pairs; ``None`` when the view does not show that card among the turn's
    plays, or the seat is not at the table: nothing to search, so the searching players take
    the cheapest row.
    """
    me = choice.player
    if not choice.revealed or me not in choice.totals:
        return None
    turn = _kernel.order(choice.revealed[-1])
    if (me, choice.card) not in turn:
        return None
    return turn[turn.index((me, choice.card)) + 1:]


def deadline(budget: float | None) -> float | None:
    """The ``time.perf_counter()`` at which a decision of *budget* milliseconds stops.

    ``None`` (no deadline) for no *budget*.
    """
    return None if budget is None else time.perf_counter() + budget / 1000


def play_turn(rows: list[Row], hands: dict[str, list[Card]], seats: Sequence[str], me: str,
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
        plays.append((seat, value))
    plays.sort(key=_CARD)
    return place(rows, plays, me)


def play_out(rows: list[Row], hands: dict[str, list[Card]], seats: Sequence[str], me: str,
             first: Card | None, rng: random.Random, policy: Policy) -> int:
    """Play the round out from *rows* and *hands* (changed): the bull heads *me* takes.

    *me* plays *first* this turn if given (:func:`play_turn`), then as *policy* chooses.
    """
    mine = 0
    while hands[me]:
        mine += play_turn(rows, hands, seats, me, first, rng, policy)
        first = None
    return mine
