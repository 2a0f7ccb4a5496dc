"""The table: four rows of cards, and the rules that say where a card goes.

A row is a tuple of cards, oldest first; its last card is the one a new card is compared with.
The placement rules are applied in this order by :func:`place_card`:

1. :func:`ascending_rows` (``table.ascending``): the rows whose last card is lower than the card;
2. :func:`least_difference_row` (``table.least-difference``): among them, the closest;
3. :func:`sixth_card` (``table.sixth-card``): a card that would be sixth takes the five;
4. :func:`low_card` (``table.low-card``): a card that fits no row takes a row of its player's
   choice.

The worked example of the founding texts: 4 goes after the 3, 17 after the 4, 90 after the 58
(not on the 96 row) and 93 after the 90.

>>> table = Table.of([[3], [24], [58], [96]])
>>> for played in (4, 17, 90, 93):
...     table = place_card(table, played).table
>>> table.rows
((3, 4, 17), (24,), (58, 90, 93), (96,))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import pairwise

from take5rules import _kernel
from take5rules._kernel import fast_constructor, integral
from take5rules._messages import N_, shown
from take5rules.cards import Card, card, cards, total_bull_heads
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.registry import AMIGO, SEEDS, Source, rule

__all__ = [
    "ROW_COUNT",
    "ROW_LIMIT",
    "Placement",
    "Row",
    "Table",
    "ascending_rows",
    "check_play",
    "check_row_choice",
    "least_difference_row",
    "low_card",
    "place_card",
    "sixth_card",
]

_FR, _BG, _FR2, _IT, _EO = SEEDS

#: A row holds at most five cards; a sixth takes them.
ROW_LIMIT = _kernel.ROW_LIMIT
#: The number of rows (the same constant as :data:`take5rules.setup.ROWS`).
ROW_COUNT = _kernel.ROWS

#: A row of cards, oldest first.
Row = tuple[Card, ...]


def _ordered(value: object) -> bool:
    """Whether *value* is an ordered collection: an iterable, but not a text, a set or a dict."""
    return isinstance(value, Iterable) and not isinstance(value, str | bytes | Set | Mapping)


def _checked_rows(rows: object, where: Where | None) -> tuple[Row, ...]:
    """Check *rows*: four ascending rows of one to five distinct cards; return them as tuples.

    The rows and each row must be ordered (a set or a dict has no oldest card).
    """
    if not _ordered(rows):
        raise MalformedInputError(
            "setup.deal", N_("{value!r} is not a list of four rows"), where=where,
            value=shown(rows),
        )
    checked: list[Row] = []
    for row in rows:  # type: ignore[attr-defined]
        if isinstance(row, Set | Mapping):
            raise MalformedInputError(
                "setup.deal",
                N_("{value!r} is not a row: a row is a list of cards, oldest first"),
                where=where,
                value=shown(row),
            )
        checked.append(cards(row, where))
    if len(checked) != ROW_COUNT:
        raise MalformedInputError(
            "setup.deal",
            N_("the table always has four rows, not {count}"),
            where=where,
            count=len(checked),
        )
    cards([c for row in checked for c in row], where)
    for number, row in enumerate(checked, start=1):
        if not row:
            raise MalformedInputError(
                "table.low-card",
                N_("row {row} is empty; a row always holds at least its first card"),
                where=where,
                row=number,
            )
        if len(row) > ROW_LIMIT:
            raise MalformedInputError(
                "table.sixth-card",
                N_("row {row} holds more than five cards ({count}); five is the most"),
                where=where,
                row=number,
                count=len(row),
            )
        for before, after in pairwise(row):
            if after <= before:
                raise MalformedInputError(
                    "table.ascending",
                    N_("row {row} is not ascending: {after} follows {before}"),
                    where=where,
                    row=number,
                    after=after,
                    before=before,
                )
    return tuple(checked)


@dataclass(frozen=True, slots=True)
class Table:
    """The four rows on the table, checked however the table is built.

    ``Table(rows)`` and :meth:`Table.of` check the same things (four ascending rows of one to
    five distinct cards); :meth:`Table.of` also accepts any iterables and says where the rows
    came from in its errors.

    >>> Table.of([[3, 12], [24], [58, 61, 70], [96]]).last_cards
    (12, 24, 70, 96)
    >>> Table.of([[3, 12], [24], [70, 61], [96]])
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: row 3 is not ascending: 61 follows 70 \
[rule table.ascending]
    >>> Table(((3,), (24,), (58,), (96,), (99,)))
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: the table always has four rows, not 5 \
[rule setup.deal]
    """

    rows: tuple[Row, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _checked_rows(self.rows, None))

    @classmethod
    def of(cls, rows: Iterable[Iterable[Card]], where: Where | None = None) -> Table:
        """Check *rows* (four ascending rows of one to five distinct cards) and build a table."""
        return trusted_table(_checked_rows(rows, where))

    @classmethod
    def start(cls, starters: Sequence[Card]) -> Table:
        """The table at the start of a round: each of the four cards starts a row.

        >>> Table.start([12, 37, 43, 58]).rows
        ((12,), (37,), (43,), (58,))
        """
        return cls.of([[c] for c in starters])

    @property
    def last_cards(self) -> tuple[Card, ...]:
        """The last card of each row."""
        return tuple(row[-1] for row in self.rows)

    def cards(self) -> tuple[Card, ...]:
        """Every card on the table, row by row."""
        return tuple(c for row in self.rows for c in row)

    def replace(self, index: int, row: Row) -> Table:
        """A new table with row *index* (0-based) replaced by *row*, checked.

        >>> Table.start([12, 37, 43, 58]).replace(3, (58, 59)).rows[3]
        (58, 59)
        >>> Table.start([12, 37, 43, 58]).replace(4, (60,))
        Traceback (most recent call last):
        ...
        take5rules.errors.MalformedInputError: row index 4: the rows have the indices 0 to 3 \
[argument]
        """
        number = _row_index(index, None)
        return Table.of([row if i == number else old for i, old in enumerate(self.rows)])

    def to_json(self) -> list[list[int]]:
        """The rows as lists, oldest card first."""
        return [list(row) for row in self.rows]


#: ``trusted_table(rows)``: a table of rows already known to be valid (the kernel's, or a
#: checked table's), built without checking them again: it fills the slot directly and skips
#: ``__post_init__``. For the package's own hot paths (turn, engine); not public API.
trusted_table: Callable[[tuple[Row, ...]], Table] = fast_constructor(Table)


def _row_index(index: object, where: Where | None) -> int:
    """Check a row index given to a function: an integer 0..3, never a ``bool`` (``argument``)."""
    checked = integral(index)
    if checked is None or not 0 <= checked < ROW_COUNT:
        raise MalformedInputError(
            "argument",
            N_("row index {index!r}: the rows have the indices 0 to 3"),
            where=where,
            index=shown(index),
        )
    return checked


def check_row_choice(choice: object, where: Where | None = None) -> int:
    """Check the row a low card's player takes: an index 0..3 (rule ``table.low-card``).

    An integer of another type (``numpy.int64(3)``) is taken as the plain ``int``; a ``bool``
    or a float never is.

    >>> check_row_choice(3)
    3
    >>> check_row_choice(True)
    Traceback (most recent call last):
    ...
    take5rules.errors.IllegalMoveError: row index True: the player of a low card takes one of \
the rows of index 0 to 3 [rule table.low-card]
    """
    checked = integral(choice)
    if checked is None or not 0 <= checked < ROW_COUNT:
        raise IllegalMoveError(
            "table.low-card",
            N_("row index {choice!r}: the player of a low card takes one of the rows of "
               "index 0 to 3"),
            where=where,
            choice=shown(choice),
        )
    return checked


def check_play(table: object, value: object, where: Where | None = None) -> Card:
    """Check that *table* is a :class:`Table` and *value* a card that is not on it.

    >>> check_play(Table.start([12, 37, 43, 58]), 44)
    44
    """
    if not isinstance(table, Table):
        raise MalformedInputError(
            "argument",
            N_("{value!r} is not a table; build one with Table.of(rows)"),
            where=where,
            value=shown(table),
        )
    checked = card(value, where)
    for row in table.rows:  # a plain loop: players call this for every card they weigh
        if checked in row:
            raise MalformedInputError(
                "cards.deck",
                N_("card {value} is already on the table; each card exists once in the deck"),
                where=where,
                value=checked,
            )
    return checked


@dataclass(frozen=True, slots=True)
class Placement:
    """Where one card went and what it took.

    ``row`` is the 0-based index of the row the card went to; ``taken`` the cards its player took
    (empty unless ``rule`` is ``table.sixth-card`` or ``table.low-card``); ``rule`` the rule that
    decided; ``table`` the table afterwards.
    """

    card: Card
    row: int
    taken: tuple[Card, ...]
    rule: str
    table: Table

    @property
    def bull_heads(self) -> int:
        """The bull heads of the cards taken."""
        return total_bull_heads(self.taken)


@rule(
    "table.ascending",
    title=N_("Ascending order"),
    statement=N_("A card may only be placed at the end of a row whose last card is lower."),
    explanation=N_(
        "Rows only ever grow upwards: each new card is higher than the card before it. A card "
        "is never slipped between two cards or placed at the front of a row. Example: with "
        "rows ending in 12, 37, 43 and 58, a 44 may go on the rows ending in 12, 37 or 43, "
        "never on the row ending in 58."
    ),
    sources=(
        Source(_FR, "Jouer sa carte"),
        Source(_BG, "Играеща карта"),
        Source(_FR2, "Déroulement d'un tour de jeu"),
        Source(_IT, "AGGIUNTA DI SCHEDE AL LAYOUT"),
        Source(_EO, "Ludante vian karton"),
        Source(AMIGO, "Rule 1: Ascending numerical order"),
    ),
)
def ascending_rows(table: Table, value: Card) -> tuple[int, ...]:
    """The indices of the rows whose last card is lower than *value* (rule ``table.ascending``).

    >>> ascending_rows(Table.of([[12], [37], [43], [58]]), 44)
    (0, 1, 2)
    >>> ascending_rows(Table.of([[12], [37], [43], [58]]), 43)
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: card 43 is already on the table; each card exists \
once in the deck [rule cards.deck]
    """
    value = check_play(table, value, None)
    return _kernel.ascending(table.rows, value)


@rule(
    "table.least-difference",
    title=N_("Least difference"),
    statement=N_(
        "Among the rows a card may go on, it goes on the one whose last card is closest to it."
    ),
    explanation=N_(
        "The player does not choose where a card goes: once the ascending rule has ruled out "
        "the rows ending higher, the smallest gap decides, even when another row would be "
        "safer. A common mistake is to pick a shorter or cheaper row instead. Example: a 23 "
        "facing rows that end in 12 and 20 must go after the 20, because 3 is less than 11."
    ),
    sources=(
        Source(_FR, "Jouer sa carte"),
        Source(_BG, "Играеща карта"),
        Source(_FR2, "Déroulement d'un tour de jeu"),
        Source(_FR2, "Erreurs fréquentes"),
        Source(_IT, "AGGIUNTA DI SCHEDE AL LAYOUT"),
        Source(AMIGO, "Rule 2: Lowest difference"),
    ),
)
def least_difference_row(table: Table, value: Card) -> int | None:
    """The row *value* must go on (rule ``table.least-difference``), or ``None`` for a low card.

    >>> least_difference_row(Table.of([[3], [24], [58], [96]]), 90)
    2
    >>> least_difference_row(Table.of([[3], [24], [58], [96]]), 2) is None
    True
    """
    value = check_play(table, value, None)
    # Cards are distinct, so two rows never tie on the difference.
    index = _kernel.target(table.rows, value)
    return None if index < 0 else index


@rule(
    "table.sixth-card",
    title=N_("The sixth card"),
    statement=N_(
        "When a card would be the sixth in its row, its player takes the five cards of that "
        "row, and the card starts the row anew."
    ),
    explanation=N_(
        "A row holds at most five cards. The player whose card would be the sixth adds the "
        "five cards to their bull pile, face down, and their card becomes the first card of "
        "the row. The sixth card is decided by the two placement rules, never by choice: a "
        "player may not dodge a full row by playing elsewhere. Example: a row holds 51, 55, "
        "61, 68 and 73; a 74 would be its sixth card, so its player takes the five cards "
        "(11 bull heads) and 74 alone starts the row."
    ),
    sources=(
        Source(_FR, "Prendre 5"),
        Source(_BG, "Вземете 5"),
        Source(_FR2, "Déroulement d'un tour de jeu"),
        Source(_IT, "PRENDERE 5"),
        Source(_EO, "Prenu 5"),
        Source(AMIGO, "Part II: Taking cards"),
    ),
)
def sixth_card(
    table: Table, value: Card, index: int, where: Where | None = None
) -> Placement:
    """Put *value* on row *index*, taking the row first if it already holds five cards.

    This is the last step of every normal placement (rule ``table.sixth-card``). Like every
    placement function, it takes the table first, then the card, then the row.

    >>> table = Table.of([[51, 55, 61, 68, 73], [24], [80], [96]])
    >>> placement = sixth_card(table, 74, 0)
    >>> placement.taken, placement.bull_heads, placement.table.rows[0]
    ((51, 55, 61, 68, 73), 11, (74,))

    The row must be the one the placement rules give the card, so a card cannot be made the
    sixth card of another row:

    >>> sixth_card(table, 74, 1)
    Traceback (most recent call last):
    ...
    take5rules.errors.IllegalMoveError: card 74 goes on row 1, whose last card is closest to \
it, not on row 2 [rule table.least-difference]
    """
    value = check_play(table, value, where)
    index = _row_index(index, where)
    row = table.rows[index]
    if row[-1] > value:
        raise IllegalMoveError(
            "table.ascending",
            N_("card {value} cannot follow {last}: a card goes only after a lower card"),
            where=where,
            value=value,
            last=row[-1],
        )
    target = _kernel.target(table.rows, value)
    if target != index:
        raise IllegalMoveError(
            "table.least-difference",
            N_("card {value} goes on row {row}, whose last card is closest to it, not on "
               "row {chosen}"),
            where=where,
            value=value,
            row=target + 1,
            chosen=index + 1,
        )
    return _placed(table, value, index)


def _placed(table: Table, value: Card, index: int) -> Placement:
    """The placement of *value* on its row *index* (already checked), through the kernel."""
    rows = list(table.rows)
    taken = _kernel.put(rows, value, index)
    rule = _kernel.SIXTH_CARD if taken else _kernel.LEAST_DIFFERENCE
    return Placement(value, index, taken, rule, trusted_table(tuple(rows)))


@rule(
    "table.low-card",
    title=N_("The low card"),
    statement=N_(
        "A card lower than the last card of every row fits nowhere: its player takes a row of "
        "their choice, and the card starts that row."
    ),
    explanation=N_(
        "The player may choose any of the four rows, usually the one with the fewest bull "
        "heads, and adds its cards to their bull pile; the low card then stands alone as the "
        "first card of that row. The choice is made when the card's turn to be placed comes, "
        "so the row may look different from when the cards were revealed. Example: rows end "
        "in 12, 24, 70 and 96 and a player plays 2; they may take the row holding only 96 "
        "(1 bull head), and 2 replaces it."
    ),
    sources=(
        Source(_FR, "Jouer une carte basse"),
        Source(_BG, "Игра на ниска карта"),
        Source(_FR2, "Déroulement d'un tour de jeu"),
        Source(_IT, "UNA CARTA TROPPO BASSA"),
        Source(_EO, "Ludado de Malalta Karto"),
        Source(AMIGO, "Part II: Taking cards"),
    ),
)
def low_card(table: Table, value: Card, choice: int, where: Where | None = None) -> Placement:
    """Play the low card *value*: its player takes row *choice* (0-based) and *value* starts it.

    >>> table = Table.of([[3, 12], [24], [58, 61, 70], [96]])
    >>> placement = low_card(table, 2, 3)
    >>> placement.taken, placement.table.rows
    ((96,), ((3, 12), (24,), (58, 61, 70), (2,)))
    >>> low_card(table, 17, 0)
    Traceback (most recent call last):
    ...
    take5rules.errors.IllegalMoveError: card 17 is not a low card: it goes on row 1 \
[rule table.low-card]
    """
    value = check_play(table, value)  # a plain int from here on (numpy's ints too)
    target = least_difference_row(table, value)
    if target is not None:
        raise IllegalMoveError(
            "table.low-card",
            N_("card {value} is not a low card: it goes on row {row}"),
            where=where,
            value=value,
            row=target + 1,
        )
    return _taken(table, value, check_row_choice(choice, where))


def _taken(table: Table, value: Card, choice: int) -> Placement:
    """The low card *value* taking row *choice* (both already checked), through the kernel."""
    rows = list(table.rows)
    taken = _kernel.take(rows, value, choice)
    return Placement(value, choice, taken, _kernel.LOW_CARD, trusted_table(tuple(rows)))


def place_card(
    table: Table, value: Card, choice: int | None = None, where: Where | None = None
) -> Placement:
    """Place *value* by the rules; *choice* is the row its player takes if it is a low card.

    A choice given for a card that turns out not to be low is ignored, as at the table: the
    player only chooses when they must.

    >>> place_card(Table.of([[12], [37], [43], [51, 55, 61, 68, 73]]), 74).rule
    'table.sixth-card'
    >>> place_card(Table.of([[12], [37], [43], [58]]), 2)
    Traceback (most recent call last):
    ...
    take5rules.errors.IllegalMoveError: card 2 is lower than the last card of every \
row; its player must choose a row to take [rule table.low-card]
    """
    value = check_play(table, value)  # a plain int from here on (numpy's ints too)
    target = least_difference_row(table, value)
    if target is not None:
        return _placed(table, value, target)
    if choice is None:
        raise IllegalMoveError(
            "table.low-card",
            N_("card {value} is lower than the last card of every row; its player must "
               "choose a row to take"),
            where=where,
            value=value,
        )
    return _taken(table, value, check_row_choice(choice, where))
