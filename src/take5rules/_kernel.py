"""The unchecked kernel under the rule functions: plain ints, tuples and lists, no validation.

Private. Each rule's logic is written here once; the documented rule functions
(:func:`~take5rules.table.place_card`, :func:`~take5rules.cards.bull_heads`,
:func:`~take5rules.game.winners`, ...) check their input and then call these, and the engine checks
what players answer and then runs these directly. Nothing here checks anything: a card is an
``int`` from 1 to 104, a row a non-empty ascending tuple of at most five cards, ``rows`` a list of
four rows, and every card distinct, because the caller made sure of it.

A placement is a record ``(player, card, row, taken, rule)``: *row* is the 0-based index the
card went to, *taken* the cards its player took (empty for a plain placement) and *rule* the rule
that decided (``table.least-difference``, ``table.sixth-card`` or ``table.low-card``).
:func:`placements` yields them one at a time, the rows already changed by each when it comes;
:func:`resolve` lists them, each with a snapshot of the rows after it.

>>> rows = [(3,), (24,), (58,), (96,)]
>>> [record[:5] for record in resolve(rows, [("ana", 4), ("bob", 90), ("cyd", 2)],
...                                     lambda player, value, rows: 3)]
[('cyd', 2, 3, (96,), 'table.low-card'), ('ana', 4, 0, (), 'table.least-difference'), \
('bob', 90, 2, (), 'table.least-difference')]
>>> rows
[(3, 4), (24,), (58, 90), (2,)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import index as _index
from operator import itemgetter
from typing import Any, TypeVar

__all__ = [
    "DEFAULT_THRESHOLD",
    "FEWEST_PLAYERS",
    "HAND_SIZE",
    "HEADS",
    "HIGHEST",
    "LEAST_DIFFERENCE",
    "LOW_CARD",
    "MOST_PLAYERS",
    "ROWS",
    "ROW_LIMIT",
    "SIXTH_CARD",
    "Deal",
    "add",
    "ascending",
    "deal",
    "ended",
    "fast_constructor",
    "heads",
    "integral",
    "lowest",
    "order",
    "pile_heads",
    "placements",
    "put",
    "resolve",
    "shuffled",
    "take",
    "target",
]

# The rule constants, each defined here once; the rule modules re-export the public names
# (``cards.HIGHEST``, ``setup.HAND_SIZE``, ``setup.ROWS``, ``table.ROW_LIMIT``,
# ``turn.MOST_PLAYS``, ``variants.DEFAULT_THRESHOLD``, ``variants.PLAYER_RANGE``).

#: The highest card of the deck; the cards are 1 to 104 (rule ``cards.deck``).
HIGHEST = 104
#: A row holds at most five cards (rule ``table.sixth-card``).
ROW_LIMIT = 5
#: Cards dealt to each player, hence turns in a round (rules ``setup.deal``, ``round.end``).
HAND_SIZE = 10
#: The rows laid out on the table (rule ``setup.deal``).
ROWS = 4
#: The fewest and the most players of any game (rule ``setup.players``); the logic and
#: tournament variants lower the most (``variants.PLAYER_RANGE``).
FEWEST_PLAYERS = 2
MOST_PLAYERS = 10
#: The end threshold of the standard game (rules ``game.end``, ``variants.threshold``).
DEFAULT_THRESHOLD = 66

LEAST_DIFFERENCE = "table.least-difference"
SIXTH_CARD = "table.sixth-card"
LOW_CARD = "table.low-card"

Row = tuple[int, ...]
#: ``(player, card, row index, taken, rule)``.
Placed = tuple[str, int, int, Row, str]
#: ``(player, card, row index, taken, rule, rows after)``.
Record = tuple[str, int, int, Row, str, tuple[Row, ...]]
#: Asked for the row to take when a card is low: ``(player, card, rows now) -> index``.
Choose = Callable[[str, int, list[Row]], int]


T = TypeVar("T")


def integral(value: object) -> int | None:
    """*value* as a plain ``int`` if it is an integer of any type but a ``bool``, else ``None``.

    An integral type is one :func:`operator.index` takes (``int``, ``numpy.int64``...);
    ``bool`` and ``numpy.bool_`` are refused, and so are floats, whatever their value.

    >>> integral(9), integral(True), integral(9.0), integral("9")
    (9, None, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or type(value).__name__.startswith("bool"):  # numpy's too
        return None
    try:
        return _index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A positional constructor of the frozen, slotted dataclass *cls* (private).

    For the engine's hot loop, which builds tens of events and views per round. A frozen
    dataclass forbids plain assignment, so its ``__init__`` sets each field through
    ``object.__setattr__``, the slowest way there is. This constructor fills the same slots in
    a private twin class that has them too (same names, so the same memory layout) but no
    frozen ``__setattr__``, where each assignment is a plain slot store, and then gives the
    value its real class, which Python allows between classes of the same layout. What comes
    out *is* a *cls*: ``fast_constructor(C)(*values)`` equals ``C(*values)``, hashes, pickles
    and compares the same, and is as frozen (``tests/test_kernel.py`` checks every one the
    engine uses). It takes about a quarter of ``C(...)``'s time. Every field is given (no
    default is filled in) and ``__post_init__`` is not run, so it is only for values already
    known valid (a checked :class:`~take5rules.table.Table`'s rows, for one).

    >>> from take5rules.events import CardPlaced
    >>> make = fast_constructor(CardPlaced)
    >>> placed = make(1, 2, "ana", 5, 0, ((1, 5), (2,), (3,), (4,)))
    >>> type(placed) is CardPlaced, placed == CardPlaced(1, 2, "ana", 5, 0, ((1, 5), (2,), (3,),
    ...                                                                        (4,)))
    (True, True)
    """
    names = tuple(item.name for item in fields(cls))  # type: ignore[arg-type]
    twin = type(f"_{cls.__name__}Builder", (), {"__slots__": names})
    namespace: dict[str, Any] = {"new": object.__new__, "twin": twin, "cls": cls}
    lines = [f"def build({', '.join(names)}):", "    value = new(twin)"]
    lines += [f"    value.{name} = {name}" for name in names]
    lines += ["    value.__class__ = cls", "    return value"]
    exec("\n".join(lines), namespace)  # the same technique as dataclasses' own __init__
    build: Callable[..., T] = namespace["build"]
    return build


def heads(value: int) -> int:
    """The bull heads of card *value* (rule ``cards.bull-heads``): 7, 5, 3, 2 or 1."""
    if value == 55:
        return 7
    if value % 11 == 0:
        return 5
    if value % 10 == 0:
        return 3
    if value % 5 == 0:
        return 2
    return 1


#: ``HEADS[c]`` is :func:`heads` of card *c* (index 0 is no card and holds 0).
HEADS: tuple[int, ...] = (0, *(heads(value) for value in range(1, HIGHEST + 1)))


def pile_heads(pile: Iterable[int]) -> int:
    """The bull heads of several cards together (rule ``round.score``)."""
    return sum(map(HEADS.__getitem__, pile))


def ascending(rows: Sequence[Row], value: int) -> tuple[int, ...]:
    """The indices of the rows whose last card is lower than *value* (rule ``table.ascending``)."""
    return tuple(index for index, row in enumerate(rows) if row[-1] < value)


def target(rows: Sequence[Row], value: int) -> int:
    """The row *value* goes on, or -1 for a low card (``table.ascending``, ``least-difference``).

    Among the rows ending lower than *value*, the closest is the one whose last card is highest.
    The four rows are looked at one by one, written out (no loop: this is every card placed).
    """
    first, second, third, fourth = rows
    index = -1
    best = 0
    last = first[-1]
    if last < value:
        best, index = last, 0
    last = second[-1]
    if best < last < value:
        best, index = last, 1
    last = third[-1]
    if best < last < value:
        best, index = last, 2
    last = fourth[-1]
    if best < last < value:
        index = 3
    return index


def put(rows: list[Row], value: int, index: int) -> Row:
    """Put *value* at the end of row *index*; a sixth card takes the five first (``sixth-card``).

    Returns the cards taken: the five of a full row, or an empty tuple.
    """
    row = rows[index]
    if len(row) < ROW_LIMIT:
        rows[index] = row + (value,)  # noqa: RUF005 -- a concatenation is faster here
        return ()
    rows[index] = (value,)
    return row


def take(rows: list[Row], value: int, index: int) -> Row:
    """The low card *value* takes row *index* and starts it anew (rule ``table.low-card``)."""
    row = rows[index]
    rows[index] = (value,)
    return row


#: The card of a ``(player, card)`` play: the key of the placement order.
_CARD = itemgetter(1)


def order(plays: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """``(player, card)`` pairs in placement order, the lowest card first (rule ``turn.order``)."""
    return sorted(plays, key=_CARD)


def placements(
    rows: list[Row], ordered: Iterable[tuple[str, int]], choose: Choose
) -> Iterator[Placed]:
    """Place the plays of *ordered*, already in placement order, one at a time (rules ``table.*``).

    Each card goes on its row (``least-difference``, ``sixth-card``) or, when it is low, takes
    the row *choose* answers for its player, seeing the rows at that moment; *choose* must return
    a checked index 0..3. *rows* is changed in place before each record is yielded, so a caller
    sees the rows after each placement, and the next card is only placed when it asks for it.
    """
    for player, value in ordered:
        index = target(rows, value)
        if index < 0:
            index = choose(player, value, rows)
            yield player, value, index, take(rows, value, index), LOW_CARD
        else:
            taken = put(rows, value, index)
            yield player, value, index, taken, SIXTH_CARD if taken else LEAST_DIFFERENCE


def resolve(rows: list[Row], plays: Iterable[tuple[str, int]], choose: Choose) -> list[Record]:
    """Place every play, lowest first (``turn.order``), changing *rows* in place.

    One record per placement, in placement order, each with the rows after it.
    """
    return [(*placed, tuple(rows)) for placed in placements(rows, order(plays), choose)]


#: ``BITS[n]`` is ``n.bit_length()``: the bits of each draw below *n* (``shuffled``'s loop).
BITS = tuple(count.bit_length() for count in range(HIGHEST + 1))
#: ``DRAWS[n]`` is ``(n, BITS[n])``.
DRAWS = tuple(enumerate(BITS))


def shuffled(
    pile: Sequence[int], getrandbits: Callable[[int], int], count: int | None = None
) -> list[int]:
    """The cards of *pile* shuffled: what ``Random.sample(pile, len(pile))`` gives (``setup.deal``).

    *getrandbits* is the ``getrandbits`` method of a :class:`random.Random`. The standard
    library's ``sample`` fills each place in turn with a card drawn from those left, at an
    index below their number found by rejection: ``getrandbits(n.bit_length())`` again until
    it is below ``n``. This loop makes exactly the same draws in the same order, without the
    two function calls ``sample`` spends on each card, so a seed deals the same cards and leaves
    the generator in the same state (``tests/test_kernel.py`` checks both).

    With *count*, only the first *count* cards are returned (those a deal uses); the draws of
    the others are still made, so the generator is left where the whole shuffle leaves it.

    >>> import random
    >>> shuffled(range(1, 105), random.Random(5).getrandbits) == random.Random(5).sample(
    ...     range(1, 105), 104)
    True
    >>> shuffled(range(1, 105), random.Random(5).getrandbits, 3)
    [80, 33, 95]
    """
    left = list(pile)
    size = len(left)
    kept = size - (size if count is None else min(count, size))
    result: list[int] = []
    append = result.append
    for number, width in DRAWS[size:kept:-1]:
        index = getrandbits(width)
        while index >= number:
            index = getrandbits(width)
        append(left[index])
        left[index] = left[number - 1]
    for number, width in DRAWS[kept:0:-1]:  # the draws whose cards are not dealt
        while getrandbits(width) >= number:
            pass
    return result


def deal(pile: Sequence[int], players: Sequence[str]) -> tuple[dict[str, Row], Row, Row]:
    """Ten cards a seat in seat order, then four row cards, the rest aside (rule ``setup.deal``)."""
    hands = {
        player: tuple(pile[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
        for seat, player in enumerate(players)
    }
    dealt = HAND_SIZE * len(players)
    return hands, tuple(pile[dealt : dealt + ROWS]), tuple(pile[dealt + ROWS :])


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's deal: each hand in seat order, the four cards that start the rows, and aside.

    The cards set aside are none after a logic draft, where all the cards in play are taken or
    start the rows. Public as :class:`take5rules.setup.Deal` (and ``variants.Draft``).
    """

    hands: Mapping[str, Row]
    rows: Row
    aside: Row = ()


Deal.__module__ = "take5rules.setup"


def add(totals: Mapping[str, int], penalties: Mapping[str, int]) -> dict[str, int]:
    """Each total plus its player's penalty, in the order of *totals* (rule ``game.totals``)."""
    return {player: total + penalties[player] for player, total in totals.items()}


def ended(totals: Mapping[str, int], threshold: int) -> bool:
    """Whether some total has reached *threshold* (rule ``game.end``)."""
    return max(totals.values()) >= threshold


def lowest(totals: Mapping[str, int]) -> tuple[str, ...]:
    """Every player with the lowest total, in the order of *totals* (rule ``game.winners``)."""
    least = min(totals.values())
    return tuple(player for player, total in totals.items() if total == least)
