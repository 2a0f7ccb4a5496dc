"""The unchecked kernel under the rule functions: plain ints, tuples and lists, no validation.

Private. Each rule's logic is written here once; the documented rule functions
(:func:`~take5rules.table.place_card`, :func:`~take5rules.cards.bull_heads`,
:func:`~take5rules.game.winners`, ...) check their input and then call these, and the engine checks
what players answer and then runs these directly. Nothing here checks anything: a card is an
``int`` from 1 to 104, a row a non-empty ascending tuple of at most five cards, ``rows`` a list of
four rows, and every card distinct, because the caller made sure of it.

A placement is a record ``(player, card, row, taken, rule, rows_after)``: *row* is the 0-based
index the card went to, *taken* the cards its player took (empty for a plain placement), *rule*
the rule that decided (``table.least-difference``, ``table.sixth-card`` or ``table.low-card``)
and *rows_after* the rows after it, or ``None`` when the caller did not ask for snapshots.

>>> rows = [(3,), (24,), (58,), (96,)]
>>> [record[:5] for record in resolve(rows, [("ana", 4), ("bob", 90), ("cyd", 2)],
...                                     lambda player, value, rows: 3)]
[('cyd', 2, 3, (96,), 'table.low-card'), ('ana', 4, 0, (), 'table.least-difference'), \
('bob', 90, 2, (), 'table.least-difference')]
>>> rows
[(3, 4), (24,), (58, 90), (2,)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter

__all__ = [
    "HEADS",
    "LEAST_DIFFERENCE",
    "LOW_CARD",
    "SIXTH_CARD",
    "add",
    "ascending",
    "deal",
    "ended",
    "heads",
    "lowest",
    "order",
    "pile_heads",
    "put",
    "resolve",
    "take",
    "target",
]

#: A row holds at most five cards (rule ``table.sixth-card``).
ROW_LIMIT = 5
#: Cards dealt to each player, and the rows laid out (rule ``setup.deal``).
HAND_SIZE = 10
ROWS = 4

LEAST_DIFFERENCE = "table.least-difference"
SIXTH_CARD = "table.sixth-card"
LOW_CARD = "table.low-card"

Row = tuple[int, ...]
#: ``(player, card, row index, taken, rule, rows after or None)``.
Record = tuple[str, int, int, Row, str, "tuple[Row, ...] | None"]
#: Asked for the row to take when a card is low: ``(player, card, rows now) -> index``.
Choose = Callable[[str, int, list[Row]], int]


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
HEADS: tuple[int, ...] = (0, *(heads(value) for value in range(1, 105)))


def pile_heads(pile: Iterable[int]) -> int:
    """The bull heads of several cards together (rule ``round.score``)."""
    return sum(map(HEADS.__getitem__, pile))


def ascending(rows: Sequence[Row], value: int) -> tuple[int, ...]:
    """The indices of the rows whose last card is lower than *value* (rule ``table.ascending``)."""
    return tuple(index for index, row in enumerate(rows) if row[-1] < value)


def target(rows: Sequence[Row], value: int) -> int:
    """The row *value* goes on, or -1 for a low card (``table.ascending``, ``least-difference``).

    Among the rows ending lower than *value*, the closest is the one whose last card is highest.
    """
    index = -1
    best = 0
    for position, row in enumerate(rows):
        last = row[-1]
        if best < last < value:
            best = last
            index = position
    return index


def put(rows: list[Row], index: int, value: int) -> Row:
    """Put *value* at the end of row *index*; a sixth card takes the five first (``sixth-card``).

    Returns the cards taken: the five of a full row, or an empty tuple.
    """
    row = rows[index]
    if len(row) < ROW_LIMIT:
        rows[index] = (*row, value)
        return ()
    rows[index] = (value,)
    return row


def take(rows: list[Row], index: int, value: int) -> Row:
    """The low card *value* takes row *index* and starts it anew (rule ``table.low-card``)."""
    row = rows[index]
    rows[index] = (value,)
    return row


def order(plays: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """``(player, card)`` pairs in placement order, the lowest card first (rule ``turn.order``)."""
    return sorted(plays, key=itemgetter(1))


def resolve(
    rows: list[Row], plays: Iterable[tuple[str, int]], choose: Choose, snapshots: bool = True
) -> list[Record]:
    """Place every play, lowest first, changing *rows* in place; one record per placement.

    *choose* answers for the player of a low card, seeing the rows at that moment, and must
    return a checked index 0..3. With *snapshots*, each record carries the rows after it.
    """
    records: list[Record] = []
    for player, value in order(plays):
        index = target(rows, value)
        if index < 0:
            index = choose(player, value, rows)
            taken = take(rows, index, value)
            rule = LOW_CARD
        else:
            taken = put(rows, index, value)
            rule = SIXTH_CARD if taken else LEAST_DIFFERENCE
        records.append((player, value, index, taken, rule, tuple(rows) if snapshots else None))
    return records


def deal(pile: Sequence[int], players: Sequence[str]) -> tuple[dict[str, Row], Row, Row]:
    """Ten cards a seat in seat order, then four row cards, the rest aside (rule ``setup.deal``)."""
    hands = {
        player: tuple(pile[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
        for seat, player in enumerate(players)
    }
    dealt = HAND_SIZE * len(players)
    return hands, tuple(pile[dealt : dealt + ROWS]), tuple(pile[dealt + ROWS :])


def add(totals: Mapping[str, int], penalties: Mapping[str, int]) -> dict[str, int]:
    """Each total plus its player's penalty, in the order of *totals* (rule ``game.totals``)."""
    return {player: total + penalties[player] for player, total in totals.items()}


def ended(totals: Mapping[str, int], threshold: int) -> bool:
    """Whether some total has reached *threshold* (rule ``game.end``)."""
    return any(total >= threshold for total in totals.values())


def lowest(totals: Mapping[str, int]) -> tuple[str, ...]:
    """Every player with the lowest total, in the order of *totals* (rule ``game.winners``)."""
    least = min(totals.values())
    return tuple(player for player, total in totals.items() if total == least)
