"""Hypothesis strategies for tables, turns and referee requests, biased towards the hard cases.

Use them in your own property tests; :mod:`take5rules.conformance.run` searches them to shrink a
turn a
program disagrees on (its own turns come from :mod:`take5rules.conformance.random_turns`, which
draws the
same kinds of turns from a seeded :class:`random.Random`, much faster):

* :func:`tables`: four ascending rows of one to five distinct cards; full rows are frequent, so
  that sixth cards happen;
* :func:`plays`: a turn's plays on a table, 2 to 10 players with distinct cards that are not on
  the table, in seat order (not sorted); cards lower than every row and cards just above a
  row's last card are frequent;
* :func:`choices`: a row index 0..3 for *every* player;
* :func:`requests`: all three together, as a referee line-protocol request
  (see :mod:`take5rules.conformance.referee`).

At most one low card can occur in a turn: once the lowest card has started a row, every higher
card fits after it or elsewhere. A turn with several low cards therefore cannot be generated;
instead :func:`choices` gives a row to every player, and only the player of the lowest card can
need it (when that card is lower than every row).

Every strategy shrinks towards few plays, short rows and small cards, so a failing turn shrinks
to one a person can check by hand.

>>> from hypothesis import Phase, find, settings
>>> quiet = settings(database=None, phases=[Phase.generate, Phase.shrink])
>>> find(requests(), lambda request: True, settings=quiet)
{'rows': [[1], [2], [3], [4]], 'plays': [['ana', 5], ['bob', 6]], 'choices': {'ana': 0, 'bob': 0}}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    from hypothesis import strategies as st
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "conform") from None

from take5rules.cards import HIGHEST, Card
from take5rules.conformance.random_turns import NEAR as _NEAR
from take5rules.conformance.random_turns import PLAYER_NAMES, check_play_counts
from take5rules.conformance.random_turns import ROW_LENGTHS as _ROW_LENGTHS
from take5rules.table import ROW_COUNT, Table

__all__ = ["PLAYER_NAMES", "choices", "plays", "requests", "tables"]

_ANY_CARD = st.integers(min_value=1, max_value=HIGHEST)


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """Four ascending rows of one to five distinct cards each, as a checked :class:`Table`.

    Rows of five cards are frequent (so that the next card on them is a sixth card), and the
    rows' last cards are often high (so that low cards exist).

    >>> from hypothesis import Phase, find, settings
    >>> quiet = settings(database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(tables(), lambda table: True, settings=quiet).rows
    ((1,), (2,), (3,), (4,))
    >>> table = find(tables(), lambda table: len(table.rows[2]) == 5, settings=quiet)
    >>> [len(row) for row in table.rows]
    [1, 1, 5, 1]
    """
    lengths = [draw(st.sampled_from(_ROW_LENGTHS)) for _ in range(ROW_COUNT)]
    pool = draw(st.lists(_ANY_CARD, min_size=sum(lengths), max_size=sum(lengths), unique=True))
    rows: list[list[Card]] = []
    start = 0
    for length in lengths:
        rows.append(sorted(pool[start:start + length]))
        start += length
    return Table.of(rows)


def plays(
    table: Table, min_size: int = 2, max_size: int = 10
) -> st.SearchStrategy[list[tuple[str, Card]]]:
    """A turn's plays on *table*: ``(player, card)`` pairs in seat order, cards not on *table*.

    Players are named from :data:`PLAYER_NAMES` in seat order; the cards are distinct and come
    in no particular order. In half of the turns a third of the cards are drawn below every
    row's last card (low cards); otherwise half of them are drawn just above some row's last
    card (which fills rows up to a sixth card).

    Raises:
        MalformedInputError: unless 1 <= *min_size* <= *max_size* <= 10 (``argument``).

    >>> from hypothesis import Phase, find, settings
    >>> quiet = settings(database=None, phases=[Phase.generate, Phase.shrink])
    >>> table = Table.of([[12], [37], [43], [58]])
    >>> turn = find(plays(table), lambda turn: len(turn) == 3, settings=quiet)
    >>> [player for player, _ in turn], all(value < 12 for _, value in turn)
    (['ana', 'bob', 'cyd'], True)
    """
    min_size, max_size = check_play_counts(min_size, max_size)
    return _plays(table, min_size, max_size)


@st.composite
def _plays(
    draw: st.DrawFn, table: Table, min_size: int, max_size: int
) -> list[tuple[str, Card]]:
    on_table = set(table.cards())
    free = [value for value in range(1, HIGHEST + 1) if value not in on_table]
    last_cards = table.last_cards
    low = [value for value in free if value < min(last_cards)]
    near = [value for value in free if any(0 < value - last <= _NEAR for last in last_cards)]
    branches = [st.sampled_from(free)]
    if near:
        branches.append(st.sampled_from(near))
    with_low = draw(st.booleans())
    if low and with_low:
        branches.append(st.sampled_from(low))
    values = draw(st.lists(st.one_of(branches), min_size=min_size, max_size=max_size,
                           unique=True))
    return list(zip(PLAYER_NAMES, values, strict=False))


def choices(players: Sequence[str]) -> st.SearchStrategy[dict[str, int]]:
    """A row index 0..3 for every one of *players*: the row each would take for a low card.

    Only the player of the turn's lowest card can need theirs (see the module docstring).

    >>> from hypothesis import Phase, find, settings
    >>> quiet = settings(database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(choices(["ana", "bob"]), lambda chosen: chosen["bob"] == 3,
    ...      settings=quiet)
    {'ana': 0, 'bob': 3}
    """
    return st.fixed_dictionaries(
        {player: st.integers(min_value=0, max_value=ROW_COUNT - 1) for player in players}
    )


@st.composite
def requests(draw: st.DrawFn, min_plays: int = 2, max_plays: int = 10) -> dict[str, Any]:
    """A referee line-protocol request: rows, plays in seat order, and a choice for everyone.

    The request is JSON-ready and always valid; :func:`take5rules.conformance.referee.answer`
    resolves it.

    >>> from hypothesis import Phase, find, settings
    >>> quiet = settings(database=None, phases=[Phase.generate, Phase.shrink])
    >>> from take5rules.conformance.referee import answer
    >>> request = find(requests(), lambda r: answer(r)["chosen"], settings=quiet)
    >>> len(request["plays"]), sorted(request["choices"]), answer(request)["chosen"]
    (2, ['ana', 'bob'], {'ana': 0})
    """
    table = draw(tables())
    turn = draw(plays(table, min_plays, max_plays))
    chosen = draw(choices([player for player, _ in turn]))
    return {
        "rows": table.to_json(),
        "plays": [[player, value] for player, value in turn],
        "choices": chosen,
    }

