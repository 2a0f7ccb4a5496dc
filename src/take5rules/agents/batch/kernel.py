"""The one placement kernel of the batch: a turn's revealed cards placed on the rows of many games.

:func:`place_turn` is the single formulation of the placement rules for arrays (rules
``turn.order``, ``table.least-difference``, ``table.sixth-card`` and ``table.low-card``, pinned
to :mod:`take5rules.table` and :mod:`take5rules.turn` by the differential tests). Both batched
simulators place every card through it: :func:`take5rules.agents.batch.play_round` (and so
:func:`~take5rules.agents.batch.play_games`, the logic draft and the tournament) and
:func:`take5rules.agents.batch.vector.step`.

It is written with numpy operations on whole arrays, so that it is fast as it stands, and in the
subset of numpy that numba compiles. When numba is installed (``take5rules[batch-fast]``) the
same function is compiled by ``numba.njit`` and that compiled twin runs (:data:`AVAILABLE`);
``TAKE5RULES_BATCH=numpy`` in the environment keeps the Python function even then. There is no
other formulation: the differential tests run both.

The row arrays are flat: game *g*'s row *r* is ``g * 4 + r`` of *lengths* and *heads*, and its
cells are ``(g * 4 + r) * 5`` to ``+ 4`` of *cells*. A cell past its row's length holds a stale
card, which every reader masks.
"""

from __future__ import annotations

import importlib
import os
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


def place_turn(
    cells: npt.NDArray[np.int8], lengths: npt.NDArray[np.int8], heads: npt.NDArray[np.int16],
    games: npt.NDArray[np.int64], played: npt.NDArray[np.int64], rows: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int16], marks: npt.NDArray[np.int16], resume: bool,
    taken: npt.NDArray[np.int16], went: npt.NDArray[np.int64], rule: npt.NDArray[np.int64],
    piles: npt.NDArray[np.int64], filled: npt.NDArray[np.int64], first: int,
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
    the rows' last cards) or, with other *games*, afresh. Otherwise every game is placed and
    0 is returned: for each seat, ``taken[g * players + s]`` receives the bull heads it took
    (0 for none), and, when *went* and *rule* are not empty, the row its card went to and the
    rule (0 least difference, 1 sixth card, 2 low card). When *piles* is not empty, each card
    taken is recorded at ``piles[filled[0]]`` (then ``filled[0]`` grows) as
    ``((first + g) * players + s) * 105 + card``.
    """
    size, count = played.shape
    if not resume:
        # turn.order: each game's keys card * 16 + seat, sorted by an odd-even transposition
        # network (two ufuncs a comparator), lowest first.
        for seat in range(count):
            keys[seat] = played[:, seat] * 16 + seat
        for sweep in range(count):
            for low in range(sweep % 2, count - 1, 2):
                least = np.minimum(keys[low], keys[low + 1])
                keys[low + 1] = np.maximum(keys[low], keys[low + 1])
                keys[low] = least
        # marks[r, i] = 4 * last card of row r - r. For a card v, (4 * v - marks) & 0x7FFF is
        # 4 * (v - last) + r on a row the card may go on, and at least _LOW on a row whose last
        # card is higher: the least of the four is the least difference, its low bits the row.
        for row in range(_ROWS):
            at = games * _ROWS + row
            marks[row] = cells[at * _LIMIT + lengths[at] - 1].astype(np.int16) * 4 - row
    base, seats = games * _ROWS, games * count
    every = np.arange(size)
    outcome = went.size > 0
    keep = piles.size > 0
    flat = marks.reshape(-1)
    for step in range(count):
        value = keys[step] >> 4
        seat = keys[step] & 15
        value4 = value * 4
        least = np.minimum(
            np.minimum((value4 - marks[0]) & 0x7FFF, (value4 - marks[1]) & 0x7FFF),
            np.minimum((value4 - marks[2]) & 0x7FFF, (value4 - marks[3]) & 0x7FFF),
        )
        target = (least & 3).astype(np.int64)
        low = least >= _LOW
        if step == 0 and low.any():
            unasked = low & (rows == UNASKED)
            waiting = int(unasked.sum())
            if waiting:
                rows[unasked] = WAITING
                return waiting
            target[low] = rows[low]
        index = base + target
        length = lengths[index]
        take = low | (length == _LIMIT)
        row_heads = heads[index]
        owner = seats + seat
        if keep and take.any():
            who = np.flatnonzero(take)
            rows_taken, sizes = index[who], length[who]
            owners = (owner[who] + first * count) * _CARDS
            for position in range(_LIMIT):
                held = sizes > position
                cards = cells[rows_taken[held] * _LIMIT + position].astype(np.int64)
                end = filled[0] + cards.size
                piles[filled[0] : end] = owners[held] + cards
                filled[0] = end
        kept = ~take
        position = length * kept
        cells[index * _LIMIT + position] = value
        lengths[index] = position + 1
        heads[index] = row_heads * kept + CARD_HEADS[value]
        flat[target * size + every] = value4 - target
        taken[owner] = row_heads * take
        if outcome:
            went[owner] = target
            rule[owner] = take.astype(np.int64) + low.astype(np.int64)
    return 0


def scratch(games: int, players: int) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The scratch arrays *keys* and *marks* of :func:`place_turn` for *games* games."""
    return np.empty((players, games), np.int16), np.empty((_ROWS, games), np.int16)


#: The function that runs: :func:`place_turn`, or its twin compiled by numba.
compiled_turn = place_turn
if numba is not None:  # pragma: no branch
    compiled_turn = numba.njit(cache=True, nogil=True)(place_turn)


def place(*arguments: Any) -> int:
    """:func:`place_turn`, compiled by numba when :data:`AVAILABLE`; the same arguments."""
    kernel = compiled_turn if AVAILABLE else place_turn
    waiting: int = kernel(*arguments)
    return waiting
