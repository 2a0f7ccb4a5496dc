"""The one placement kernel of the batch: a turn's revealed cards placed on the rows of many games.

:func:`place_turn` is the single formulation of the placement rules for arrays (rules
``turn.order``, ``table.least-difference``, ``table.sixth-card`` and ``table.low-card``, pinned
to :mod:`take5rules.table` and :mod:`take5rules.turn` by the differential tests). Both batched
simulators place every card through it: :func:`take5rules.agents.batch.play_round` (and so
:func:`~take5rules.agents.batch.play_games`, the logic draft and the tournament) and
:func:`take5rules.agents.batch.vector.step`.

It is written once, for one *lane*, in the numpy indexing that means the same on a scalar and
on a whole array, and run two ways (:func:`place` chooses). When numba is installed
(``take5rules[batch-fast]``) the function is compiled by ``numba.njit`` and its lanes are the
games, one at a time: the body becomes straight, branch-free scalar code on one game's few
cells, with no temporary array and no pass over memory per operation (:data:`AVAILABLE`).
Without numba, or with ``TAKE5RULES_BATCH=numpy`` in the environment, the same lines run in
Python with one lane, ``slice(None)``: every index reads a whole column (a view, not a copy)
and every operation is one vectorised numpy call over all the games. There is no other
formulation: the differential tests run both.

The row arrays are flat: game *g*'s row *r* is ``g * 4 + r`` of *lengths* and *heads*, and its
cells are ``(g * 4 + r) * 5`` to ``+ 4`` of *cells*. A cell past its row's length holds a stale
card, which every reader masks.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from take5rules import _kernel

numba: Any
try:  # pragma: no cover - depends on the extra
    numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover
    numba = None

#: Whether the kernel runs compiled by numba (installed, and ``TAKE5RULES_BATCH`` is not ``numpy``).
AVAILABLE = numba is not None and os.environ.get("TAKE5RULES_BATCH", "") != "numpy"

#: A mark in *rows* of :func:`place_turn`: this game's lowest card is low and awaits its row.
WAITING = -2
#: A mark in *rows*: no row was chosen for this game (its lowest card may not be low).
UNASKED = -1

#: The bull heads of each card in the kernel's dtype, indexed by the card (0 is worth 0).
CARD_HEADS = np.array(_kernel.HEADS, dtype=np.int16)
CARD_HEADS.setflags(write=False)

_ROWS, _LIMIT, _CARDS = _kernel.ROWS, 5, _kernel.HIGHEST + 1
#: Below this every gap ``4 * difference + row`` of a card that may go on its row lies; a card
#: lower than a row's last card wraps to at least this (see :func:`place_turn`).
_LOW = 0x4000
_FOUR = np.int16(4)


def place_turn(
    cells: npt.NDArray[np.int8], lengths: npt.NDArray[np.int8], heads: npt.NDArray[np.int16],
    games: npt.NDArray[np.int64], played: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int16], marks: npt.NDArray[np.int16], resume: bool,
    taken: npt.NDArray[np.int16], went: npt.NDArray[np.int64], rule: npt.NDArray[np.int64],
    piles: npt.NDArray[np.int64], filled: npt.NDArray[np.int64], first: int,
    lanes: Any, ids: npt.NDArray[np.int64],
) -> int:
    """Place one turn's revealed cards in the games *games*, lowest card first.

    ``played[i, s]`` is the card seat *s* reveals in game ``games[i]``. In each game the cards
    are placed lowest first (``turn.order``), each on the row whose last card is the highest
    below it (``table.least-difference``); the sixth card of a row takes the row's five
    (``table.sixth-card``); a card lower than every row's last card takes the row ``rows[i]``
    (``table.low-card``). Only a game's lowest card can be low: each card placed ends a row
    below the next one.

    If the lowest card of some game is low while its ``rows[i]`` is :data:`UNASKED`, nothing
    is placed: those games are marked :data:`WAITING` in *rows*, and their number is returned.
    Ask their players, write the rows into *rows* and call again with ``resume=True`` (the
    scratch arrays *keys*, ``(players, n)``, and *marks*, ``(4, n)``, still hold the order and
    the rows' last cards: ``keys[0, i]`` is ``card * 16 + seat`` of game *i*'s lowest card)
    or, with other *games*, afresh. Otherwise every game is placed and
    0 is returned: for each seat, ``taken[g * players + s]`` receives the bull heads it took
    (0 for none), and, when *went* and *rule* are not empty, the row its card went to and the
    rule (0 least difference, 1 sixth card, 2 low card). When *piles* is not empty (it must
    hold ``n * players * 5`` numbers from ``filled[0]`` on), each card taken is recorded in
    ``piles[filled[0]:]`` (then ``filled[0]`` grows past them) as
    ``((first + g) * players + s) * 105 + card``.

    *lanes* and *ids* say how it runs (see the module): ``ids`` is ``arange(n)``; *lanes* is
    *ids* itself (one game a lane: compiled by numba) or ``(slice(None),)`` (one lane of
    every game: numpy). :func:`place` passes them.
    """
    count = played.shape[1]
    outcome = went.size > 0
    keep = piles.size > 0
    start = filled[0]
    if not resume:
        for i in lanes:
            # turn.order: the keys card * 16 + seat, sorted lowest first by a bubble network
            # of min/max comparators (no branch, the same on a scalar and a column).
            for seat in range(count):
                keys[seat, i] = played[i, seat] * 16 + seat
            for sweep in range(count - 1, 0, -1):
                for low in range(sweep):
                    least = np.minimum(keys[low, i], keys[low + 1, i])
                    keys[low + 1, i] = np.maximum(keys[low, i], keys[low + 1, i])
                    keys[low, i] = least
            # marks[r, i] = 4 * last card of row r - r. For a card v, (4 * v - marks) & 0x7FFF
            # is 4 * (v - last) + r on a row the card may go on, and at least _LOW on a row
            # whose last card is higher: the least of the four is the least difference, its low
            # bits the row. The card is low when 4 * v is below every mark. A lowest card low
            # with no row yet marks its game WAITING (branch-free: the same on both ways).
            at = games[i] * _ROWS
            before = at * _LIMIT - 1  # the cell before the game's first
            for row in range(_ROWS):
                marks[row, i] = cells[before + lengths[at + row] + row * _LIMIT] * _FOUR - row
            lowest = (keys[0, i] >> 4) * 4
            low = lowest < np.minimum(
                np.minimum(marks[0, i], marks[1, i]), np.minimum(marks[2, i], marks[3, i])
            )
            rows[i] += (low & (rows[i] == UNASKED)) * (WAITING - UNASKED)
        waiting = np.count_nonzero(rows == WAITING)
        if waiting:
            return int(waiting)
    flat = marks.reshape(-1)
    size = marks.shape[1]
    # The placements, lane by lane, branch-free: a low card's row is rows[i] (only the lowest
    # card can be low), a card that takes a row restarts it (position 0), a row's marks
    # follow its new last card. With piles, lane i writes its cards taken (or -1) into its
    # own slots, gathered after the loop.
    for i in lanes:
        base = games[i] * _ROWS
        seats = games[i] * count
        column = ids[i]
        for step in range(count):
            key = keys[step, i]
            value = key >> 4
            value4 = value * 4
            least = np.minimum(
                np.minimum((value4 - marks[0, i]) & 0x7FFF, (value4 - marks[1, i]) & 0x7FFF),
                np.minimum((value4 - marks[2, i]) & 0x7FFF, (value4 - marks[3, i]) & 0x7FFF),
            )
            low = least >= _LOW
            row = least & 3
            target = row + low * (rows[i] - row)
            index = base + target
            length = lengths[index]
            take = low | (length == _LIMIT)
            row_heads = heads[index]
            owner = seats + (key & 15)
            if keep:
                code = (first * count + owner) * _CARDS + 1
                slot = start + (column * count + step) * _LIMIT
                for position in range(_LIMIT):
                    held = take & (length > position)
                    piles[slot + position] = (code + cells[index * _LIMIT + position]) * held - 1
            kept = 1 - take
            position = length * kept
            cells[index * _LIMIT + position] = value
            lengths[index] = position + 1
            heads[index] = row_heads * kept + CARD_HEADS[value]
            flat[target * size + column] = value4 - target
            taken[owner] = row_heads * take
            if outcome:
                went[owner] = target
                rule[owner] = take * 1 + low * 1
    if keep:
        region = piles[start : start + size * count * _LIMIT]
        recorded = region[region >= 0]
        piles[start : start + recorded.size] = recorded
        filled[0] = start + recorded.size
    return 0


def scratch(games: int, players: int) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The scratch arrays *keys* and *marks* of :func:`place_turn` for *games* games."""
    return np.empty((players, games), np.int16), np.empty((_ROWS, games), np.int16)


#: :func:`place_turn` compiled by numba (itself when numba is not installed).
compiled_turn: Callable[..., int] = place_turn
if numba is not None:  # pragma: no branch
    compiled_turn = numba.njit(cache=True, nogil=True)(place_turn)
_python_turn: Callable[..., int] = place_turn
#: The one lane of the numpy way: every game at once.
_WHOLE = (slice(None),)


def place(*arguments: Any) -> int:
    """:func:`place_turn` the way it runs here: its arguments up to *first*; *lanes* added.

    Compiled by numba, one game a lane, when :data:`AVAILABLE`; else in numpy, one lane.
    """
    ids = np.arange(arguments[4].shape[0])
    if AVAILABLE:
        waiting: int = compiled_turn(*arguments, ids, ids)
    else:
        waiting = _python_turn(*arguments, _WHOLE, ids)
    return waiting
