"""The cards: 104 numbered cards, each worth some bull heads.

A card is a plain :class:`int` from 1 to 104, like a square in python-chess. :func:`card` parses
and checks one; :func:`deck` gives the whole deck; :func:`bull_heads` says what a card costs.

>>> sum(bull_heads(c) for c in deck())
171
"""

from __future__ import annotations

from collections.abc import Iterable

from take5rules import _kernel
from take5rules._messages import N_, shown
from take5rules.errors import MalformedInputError, Where
from take5rules.registry import AMIGO, SEEDS, Source, rule

__all__ = [
    "HIGHEST",
    "Card",
    "bull_heads",
    "card",
    "cards",
    "deck",
    "total_bull_heads",
]

_FR, _BG, _FR2, _IT, _EO = SEEDS

#: A card is its number.
Card = int

#: The highest card of the deck (the cards are 1 to 104).
HIGHEST = _kernel.HIGHEST


def card(value: object, where: Where | None = None) -> Card:
    """Check that *value* is a card (an ``int`` from 1 to 104, not a ``bool``) and return it.

    An integer of another type (``numpy.int64(9)``) is a card when it is integral
    (:func:`operator.index` takes it); the card returned is then a plain ``int``. A ``bool``
    (``numpy.bool_`` too), a float or a text is never a card.

    >>> card(55)
    55
    >>> card("55")
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: '55' is not a card: a card is a whole number \
from 1 to 104 [rule cards.deck]
    """
    checked = value if type(value) is int else _integral(value, where)
    if not 1 <= checked <= HIGHEST:
        raise MalformedInputError(
            "cards.deck",
            N_("card {value}: a card is a whole number from 1 to 104"),
            where=where if where is not None else Where(card=None),
            value=checked,
        )
    return checked


def _integral(value: object, where: Where | None) -> int:
    """*value* as a plain ``int`` when it is an integer of any type but ``bool``, else refused."""
    checked = _kernel.integral(value)
    if checked is not None:
        return checked
    raise MalformedInputError(
        "cards.deck",
        N_("{value!r} is not a card: a card is a whole number from 1 to 104"),
        where=where,
        value=shown(value),
    )


def cards(values: Iterable[object], where: Where | None = None) -> tuple[Card, ...]:
    """Check a collection of distinct cards and return them as a tuple, in the given order.

    >>> cards([3, 12, 24])
    (3, 12, 24)
    >>> cards([3, 12, 3])
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: card 3 appears twice; each card exists once \
in the deck [rule cards.deck]
    """
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise MalformedInputError(
            "cards.deck",
            N_("{value!r} is not a list of cards"),
            where=where,
            value=shown(values),
        )
    seen: set[int] = set()
    result: list[Card] = []
    for value in values:
        checked = card(value, where)
        if checked in seen:
            raise MalformedInputError(
                "cards.deck",
                N_("card {value} appears twice; each card exists once in the deck"),
                where=where,
                value=checked,
            )
        seen.add(checked)
        result.append(checked)
    return tuple(result)


@rule(
    "cards.deck",
    title=N_("The deck"),
    statement=N_("The game uses 104 cards, numbered 1 to 104, each of them once."),
    explanation=N_(
        "Every number from 1 to 104 appears on exactly one card, so no two players can ever "
        "play the same number and every turn has a strict order. A common mistake in home-made "
        "decks and programs is a card 0 or a card 105: neither exists. Example: a hand of ten "
        "cards such as 3, 17, 24, 55, 61, 70, 88, 90, 96 and 104 is a possible hand; a hand "
        "with two 17s is not."
    ),
    sources=(
        Source(_FR, "Composants"),
        Source(_FR2, "Contenu de la boîte"),
        Source(_IT, "LE CARTE E L'ATTACCO"),
        Source(AMIGO, "Contents"),
    ),
)
def deck() -> tuple[Card, ...]:
    """The 104 cards of the game, in ascending order (rule ``cards.deck``).

    >>> d = deck()
    >>> len(d), d[0], d[-1]
    (104, 1, 104)
    """
    return tuple(range(1, HIGHEST + 1))


@rule(
    "cards.bull-heads",
    title=N_("Bull heads"),
    statement=N_(
        "Card 55 has 7 bull heads, the other multiples of 11 have 5, the other multiples of 10 "
        "have 3, the other multiples of 5 have 2, and every other card has 1."
    ),
    explanation=N_(
        "Bull heads are penalty points: each one you take costs one point. The count follows "
        "the number: a double digit (11, 22 … 99) is worth 5, a round ten is worth 3, a five is "
        "worth 2, and 55, both a double and a five, is worth 7. The deck holds 171 bull heads "
        "in all: one card of 7, eight of 5, ten of 3, nine of 2 and seventy-six of 1. A common "
        "mistake is to count the cards taken instead of their heads. Example: taking 51, 55, "
        "61, 68 and 73 costs 1 + 7 + 1 + 1 + 1 = 11 points."
    ),
    sources=(
        Source(_FR2, "Contenu de la boîte"),
        Source(_FR2, "Erreurs fréquentes"),
        Source(_IT, "LE CARTE E L'ATTACCO"),
        Source(AMIGO, "Contents"),
    ),
)
def bull_heads(value: Card) -> int:
    """The bull heads (penalty points) printed on card *value* (rule ``cards.bull-heads``).

    >>> [bull_heads(c) for c in (55, 11, 10, 5, 1, 104)]
    [7, 5, 3, 2, 1, 1]
    >>> bull_heads(105)
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: card 105: a card is a whole number from 1 to 104 \
[rule cards.deck]
    """
    return _kernel.HEADS[card(value)]


def total_bull_heads(values: Iterable[Card]) -> int:
    """The bull heads of several cards together.

    >>> total_bull_heads([51, 55, 61, 68, 73])
    11
    """
    return _kernel.pile_heads(card(value) for value in values)
