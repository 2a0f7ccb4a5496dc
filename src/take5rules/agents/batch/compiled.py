"""The placement kernel compiled with numba, when it is installed (``take5rules[batch-fast]``).

Private to :mod:`take5rules.agents.batch`. It computes exactly what the numpy kernel of ``_play``
computes, one step (one card of every game) at a time, so that a low card's row is still asked
of the row policy, in Python, between the two halves of the step. Without numba,
:data:`AVAILABLE` is false and the numpy kernel runs; ``TAKE5RULES_BATCH=numpy`` in the
environment chooses it even with numba installed. The differential tests run both.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from take5rules.agents.batch.arrays import HEADS16

numba: Any
try:  # pragma: no cover - depends on the extra
    numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover
    numba = None

#: Whether the compiled kernel is used.
AVAILABLE = numba is not None and os.environ.get("TAKE5RULES_BATCH", "") != "numpy"

_ROWS, _LIMIT = 4, 5


def _order(played: Any, count: int, ordered: Any, order: Any) -> None:  # pragma: no cover
    """Each game's cards lowest first (``turn.order``): ``ordered[s, g]``, seats ``order[s, g]``."""
    for game in range(played.shape[0]):
        for seat in range(count):
            value = played[game, seat]
            place = seat
            while place > 0 and ordered[place - 1, game] > value:
                ordered[place, game] = ordered[place - 1, game]
                order[place, game] = order[place - 1, game]
                place -= 1
            ordered[place, game] = value
            order[place, game] = seat


def _find(cells: Any, lengths: Any, values: Any, target: Any) -> int:  # pragma: no cover
    """The row of least difference of each card (``table.least-difference``), or -1 if low."""
    lows = 0
    for game in range(values.shape[0]):
        value = values[game]
        best, row = 1 << 10, -1
        for index in range(_ROWS):
            at = game * _ROWS + index
            last = cells[at * _LIMIT + lengths[at] - 1]
            if last < value and value - last < best:
                best, row = value - last, index
        target[game] = row
        if row < 0:
            lows += 1
    return lows


def _apply(  # pragma: no cover
    cells: Any, lengths: Any, heads: Any, values: Any, target: Any, low: Any, seats: Any,
    count: int, table_heads: Any, taken: Any, went: Any, rule: Any, outcome: bool,
    piles: Any, filled: Any, lo: int, keep: bool,
) -> None:
    """Place each card on its row: a sixth card or a low card takes the row first."""
    for game in range(values.shape[0]):
        value = values[game]
        row = target[game]
        at = game * _ROWS + row
        length = lengths[at]
        takes = low[game] or length == _LIMIT
        seat = game * count + seats[game]
        if takes:
            taken[seat] = heads[at]
            if keep:
                base = ((game + lo) * count + seats[game]) * 105
                for position in range(length):
                    piles[filled[0]] = base + cells[at * _LIMIT + position]
                    filled[0] += 1
            cells[at * _LIMIT] = value
            lengths[at] = 1
            heads[at] = table_heads[value]
        else:
            taken[seat] = 0
            cells[at * _LIMIT + length] = value
            lengths[at] = length + 1
            heads[at] += table_heads[value]
        if outcome:
            went[seat] = row
            rule[seat] = (2 if low[game] else 1) if takes else 0


order: Callable[..., None] = _order
find: Callable[..., int] = _find
apply: Callable[..., None] = _apply
if numba is not None:  # pragma: no branch
    order = numba.njit(cache=True, nogil=True)(_order)
    find = numba.njit(cache=True, nogil=True)(_find)
    apply = numba.njit(cache=True, nogil=True)(_apply)


def _steps(  # pragma: no cover
    cells: Any, lengths: Any, heads: Any, ordered: Any, seats: Any, start: int, count: int,
    table_heads: Any, taken: Any, went: Any, rule: Any, outcome: bool, piles: Any,
    filled: Any, lo: int, keep: bool, target: Any, no_low: Any,
) -> int:
    """Place the steps from *start* on, in one call, until a step holds a low card.

    Returns that step (its rows found in *target*, nothing placed: its low cards' rows are
    asked in Python), or *count* when every step is placed. Only the first card of a turn can
    be low (each card placed ends a row below the next card), so a turn is mostly one call
    for its first step and one for the rest.
    """
    for step in range(start, count):
        values = ordered[step]
        if find(cells, lengths, values, target):
            return step
        apply(cells, lengths, heads, values, target, no_low, seats[step], count, table_heads,
              taken, went, rule, outcome, piles, filled, lo, keep)
    return count


steps: Callable[..., int] = _steps
if numba is not None:  # pragma: no branch
    steps = numba.njit(cache=True, nogil=True)(_steps)


def place(
    state: Any, lo: int, hi: int, played: Any, ask: Callable[[Any, Any, Any, Any], Any],
    taken: Any, went: Any, rule: Any, pile_cells: list[Any] | None,
) -> None:
    """One turn of games lo..hi with the compiled kernel; *ask* answers the low cards' rows."""
    size, count = hi - lo, state.players
    cells = state._rows[lo:hi].reshape(-1)
    lengths = state._lengths[lo:hi].reshape(-1)
    heads = state._heads[lo:hi].reshape(-1)
    ordered = np.empty((count, size), dtype=np.int16)
    seats = np.empty((count, size), dtype=np.intp)
    order(played, count, ordered, seats)
    target = np.empty(size, dtype=np.intp)
    keep = pile_cells is not None
    piles = np.empty(size * count * _LIMIT if keep else 0, dtype=np.intp)
    filled = np.zeros(1, dtype=np.intp)
    outcome = went is not None
    went_flat = went.reshape(-1) if outcome else np.empty(0, np.int64)
    rule_flat = rule.reshape(-1) if outcome else np.empty(0, np.int64)
    table_heads = HEADS16
    taken_flat = taken.reshape(-1)
    no_low = np.zeros(size, dtype=np.bool_)
    step = 0
    while True:
        step = steps(cells, lengths, heads, ordered, seats, step, count, table_heads,
                     taken_flat, went_flat, rule_flat, outcome, piles, filled, lo, keep, target,
                     no_low)
        if step == count:
            break
        values = ordered[step]
        low = target < 0
        where = np.flatnonzero(low)
        target[where] = ask(where, seats[step, where], values[where], target)
        apply(cells, lengths, heads, values, target, low, seats[step], count, table_heads,
              taken_flat, went_flat, rule_flat, outcome, piles, filled, lo, keep)
        step += 1
    if keep and pile_cells is not None and filled[0]:
        pile_cells.append(piles[: filled[0]].copy())

