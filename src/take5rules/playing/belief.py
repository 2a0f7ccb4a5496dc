"""What a seat can believe about the hidden cards, and deals sampled from that belief.

From a seat's view (a :class:`~take5rules.playing.players.CardView` or a
:class:`~take5rules.playing.players.RowChoice`) :func:`belief` computes the cards that seat
has not seen and the exact constraints on where they are: each opponent holds as many cards as
the seat does (every hand loses one card a turn), and the rest are out of play (set aside
unseen in the standard game; none in the tactics, logic and tournament games, where only the
cards 1 to 10 x players + 4 are in play). In the drafted variants (logic and tournament)
every hand was drafted face up, so nothing is hidden: the belief holds each opponent's hand
exactly.

:meth:`Belief.sample` draws a determinization: a deal of the unseen cards to the opponents,
uniformly over all the deals consistent with the public history. Nothing in the history of
Take 5 tells one consistent deal from another (a card played is no evidence about the cards not
played unless one models *how* opponents choose), so the uniform draw is a shuffle of the
unseen cards cut into hands of the known sizes. :meth:`Belief.sample_weighted` is the optional
opponent model: a sampling-importance-resampling draw that favours the deals a given weight
function prefers; it is *not* uniform and only as good as the model behind the weights.

A view does not name the variant. Given no *rules*, :func:`belief` takes the reduced deck when
every card the seat has seen is one of its cards (in a standard deal with four players the
fourteen cards seen at the first turn all fall within 1 to 44 with a chance below 1e-5), and
the drafted variants from the draft's picks in the view.

>>> from take5rules.playing.players import CardView
>>> from take5rules.table import Table
>>> view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), tuple(range(1, 11)),
...                 {"me": 0, "you": 0}, player="me")
>>> known = belief(view)
>>> len(known.unseen), dict(known.hand_sizes), known.aside
(90, {'you': 10}, 80)
>>> import random
>>> deal = known.sample(random.Random(1))
>>> len(deal["you"]), set(deal["you"]) <= set(known.unseen)
(10, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from take5rules import _kernel
from take5rules._messages import N_, shown
from take5rules.cards import Card
from take5rules.errors import RulesError
from take5rules.playing.players import CardView, RowChoice, check_view
from take5rules.variants import Rules, tactics_deck

__all__ = ["MOST_DRAWS", "Belief", "belief"]

#: The most uniform deals :meth:`Belief.sample_weighted` may draw for one weighted deal.
MOST_DRAWS = 100_000

_INCONSISTENT = N_("the view of {player!r} is not consistent: the hands hide more cards "
                   "({count}) than the seat has not seen ({unseen})")
_NOT_RULES = N_("rules must be a Rules or None, not {value!r}")
_NOT_A_GENERATOR = N_("rng must be a random.Random, not {value!r}")
_NOT_DRAWS = N_("draws is a whole number from 1 to {most}, not {value!r}")
_NOT_A_WEIGHT = N_("the weight of a deal is a finite number, not {value!r}")
_NOT_CALLABLE = N_("weight must be a function of a deal, not {value!r}")


def _generator(rng: object) -> random.Random:
    if not isinstance(rng, random.Random):
        raise RulesError("argument", _NOT_A_GENERATOR, value=shown(rng))
    return rng


def _weight(value: object) -> float:
    """A deal's weight: a finite number (``True`` is 1), negative ones counting as 0."""
    if isinstance(value, int | float):
        number = float(value)
        if math.isfinite(number):
            return max(0.0, number)
    raise RulesError("argument", _NOT_A_WEIGHT, value=shown(value))


@dataclass(frozen=True, slots=True)
class Belief:
    """What one seat knows about the cards it has not seen.

    *seats* in seat order; *unseen* the cards this seat has not seen (ascending); *hand_sizes*
    how many of them each opponent with a hidden hand holds; *aside* how many are out of play;
    *known* the opponents' hands the seat knows exactly (the drafted variants).
    """

    player: str
    seats: tuple[str, ...]
    unseen: tuple[Card, ...]
    hand_sizes: Mapping[str, int]
    aside: int
    known: Mapping[str, tuple[Card, ...]]

    def sample(self, rng: random.Random) -> dict[str, tuple[Card, ...]]:
        """Every opponent's hand in one deal drawn uniformly among the consistent deals.

        Raises:
            RulesError: (id ``argument``) when *rng* is not a :class:`random.Random`.
        """
        _generator(rng)
        pile = list(self.unseen)
        rng.shuffle(pile)
        deal = dict(self.known)
        start = 0
        for seat, size in self.hand_sizes.items():
            deal[seat] = tuple(sorted(pile[start:start + size]))
            start += size
        return deal

    def sample_weighted(
        self,
        rng: random.Random,
        weight: Callable[[Mapping[str, tuple[Card, ...]]], float],
        draws: int = 16,
    ) -> dict[str, tuple[Card, ...]]:
        """A deal drawn by an opponent model (sampling-importance-resampling).

        *draws* uniform deals (1 to :data:`MOST_DRAWS`) are drawn and one is kept in proportion
        to *weight* (a finite number; a negative weight counts as 0). Not uniform: the deals
        *weight* favours (say, hands that explain the cards the opponents chose to play) come
        more often. With a constant *weight* it is :meth:`sample`'s law again.

        Raises:
            RulesError: (id ``argument``) for an *rng* that is no :class:`random.Random`, a
                *draws* out of its range, a *weight* that is no function or a weight that is
                no finite number.
        """
        _generator(rng)
        count = _kernel.integral(draws)
        if count is None or not 1 <= count <= MOST_DRAWS:
            raise RulesError("argument", _NOT_DRAWS, most=MOST_DRAWS, value=shown(draws))
        if not callable(weight):
            raise RulesError("argument", _NOT_CALLABLE, value=shown(weight))
        deals = [self.sample(rng) for _ in range(count)]
        weights = [_weight(weight(deal)) for deal in deals]
        if sum(weights) <= 0:
            return deals[0]
        return rng.choices(deals, weights)[0]


def _seen(view: CardView | RowChoice) -> set[Card]:
    seen = set(view.hand)
    for row in view.start:
        seen.update(row)
    for turn in view.revealed:
        seen.update(card for _player, card in turn)
    for row in view.table.rows:
        seen.update(row)
    return seen


def _in_play(seen: set[Card], count: int, rules: Rules | None) -> tuple[Card, ...]:
    reduced = (rules.reduced_deck if rules is not None
               else max(seen, default=0) <= 10 * count + 4)
    return tactics_deck(count) if reduced else tuple(range(1, _kernel.HIGHEST + 1))


def _drafted_hands(view: CardView | RowChoice, seats: Sequence[str]) -> dict[str, tuple[Card, ...]]:
    """Each opponent's hand now, from the draft's picks (logic, tournament), or ``{}``."""
    sheets: dict[str, set[Card]] = {seat: set() for seat in seats}
    for seat, card in view.picks:
        if seat in sheets:
            sheets[seat].add(card)
    played = {seat: set() for seat in seats}  # type: dict[str, set[Card]]
    for turn in view.revealed:
        for seat, card in turn:
            if seat in played:
                played[seat].add(card)
    mine = set(view.hand) | played[view.player]
    count = len(seats)
    me = seats.index(view.player)
    for shift in range(count):  # a tournament's sheets move one seat on after each game
        if sheets[seats[(me - shift) % count]] == mine:
            return {seat: tuple(sorted(sheets[seats[(index - shift) % count]] - played[seat]))
                    for index, seat in enumerate(seats) if seat != view.player}
    return {}


def belief(view: CardView | RowChoice, rules: Rules | None = None) -> Belief:
    """The belief of the seat whose view is *view* (*rules*: the variant, if known).

    A view no game can show (:func:`~take5rules.playing.players.check_view`: a part of the
    wrong kind, a card in two places at once, more hidden cards than unseen ones) and *rules*
    that are no :class:`~take5rules.variants.Rules` are refused with the error id ``argument``.

    >>> from take5rules.playing.players import CardView
    >>> from take5rules.table import Table
    >>> view = CardView(1, 10, Table.of([[1], [2], [3], [20]]), (24,), {"me": 0, "you": 0},
    ...                 player="me", start=((1,), (2,), (3,), (4,)),
    ...                 revealed=tuple((("me", 5 + 2 * k), ("you", 6 + 2 * k))
    ...                                for k in range(9)))
    >>> found = belief(view)
    >>> found.unseen, dict(found.hand_sizes), found.aside
    ((23,), {'you': 1}, 0)
    """
    check_view(view)
    if rules is not None and not isinstance(rules, Rules):
        raise RulesError("argument", _NOT_RULES, value=shown(rules))
    seats = tuple(view.totals)
    if view.player not in seats:
        seats = (*seats, view.player)
    others = [seat for seat in seats if seat != view.player]
    size = len(view.hand)
    seen = _seen(view)
    known = _drafted_hands(view, seats) if view.picks else {}
    if known:
        return Belief(view.player, seats, (), MappingProxyType({}), 0, MappingProxyType(known))
    unseen = tuple(card for card in _in_play(seen, len(seats), rules) if card not in seen)
    hidden = size * len(others)
    if hidden > len(unseen):
        raise RulesError("argument", _INCONSISTENT, player=view.player, count=hidden,
                         unseen=len(unseen))
    return Belief(view.player, seats, unseen, MappingProxyType(dict.fromkeys(others, size)),
                  len(unseen) - hidden, MappingProxyType({}))
