"""The built-in vectorised decisions, mirroring the built-in players.

They play as the players of :mod:`take5rules.playing.players` do.

A card policy ``(view, rng)`` answers a position in ``view.hand`` for every game asked about; a
row policy ``(view, rng)`` a row (0 to 3) for every low card of ``view.cards``; a draft policy
``(view, rng)`` a face-up card of ``view.pool`` for every game. The differential tests
``tests/test_batch.py`` pin the deterministic ones to the players they mirror.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from take5rules.agents.batch.arrays import (
    HAND_SIZE,
    HEADS,
    HIGHEST,
    ROWS,
    IntArray,
    RowView,
    SeatView,
)
from take5rules.agents.batch.drafts import DraftView
from take5rules.table import ROW_LIMIT

__all__ = [
    "BUILTIN_DRAFTS",
    "BUILTIN_POLICIES",
    "cautious_card",
    "cautious_pick",
    "cheapest_row",
    "lowest_card",
    "lowest_pick",
    "random_card",
    "random_pick",
    "random_row",
]

#: A difference larger than any between two cards: marks the rows a card may not go on.
_NO_ROW = 1 << 10


def random_card(view: SeatView, rng: np.random.Generator) -> IntArray:
    """A card of the hand, uniformly at random (like :class:`.RandomPlayer`)."""
    slots: IntArray = rng.integers(0, HAND_SIZE - view.turn, len(view))
    return slots


def lowest_card(view: SeatView, rng: np.random.Generator) -> IntArray:
    """The lowest card held (like :class:`~take5rules.playing.players.LowestCardPlayer`)."""
    slots: IntArray = view.hand.argmin(axis=1)
    return slots


def _cheapest(heads: IntArray, lengths: IntArray) -> IntArray:
    """The row with the fewest bull heads, then the fewest cards, then the first."""
    rows: IntArray = (heads * 8 + lengths).argmin(axis=1)
    return rows


def cheapest_row(view: RowView, rng: np.random.Generator) -> IntArray:
    """Take the cheapest row, as :func:`take5rules.playing.players.cheapest_row` chooses it."""
    return _cheapest(view.row_heads, view.lengths)


def random_row(view: RowView, rng: np.random.Generator) -> IntArray:
    """Take a row uniformly at random."""
    rows: IntArray = rng.integers(0, ROWS, len(view))
    return rows


def cautious_card(view: SeatView, rng: np.random.Generator) -> IntArray:
    """The card of least risk, as :class:`~take5rules.playing.players.CautiousPlayer` judges it.

    For each card held: a low card risks the cheapest row's heads plus 0.5, a sixth card its
    row's heads plus 1, any other card its row's length times the gap, over 400; ties go to the
    lower card.
    """
    held, heads_now, lengths = view.hand, view.row_heads, view.lengths
    difference = held[:, :, None] - view.last_cards[:, None, :]
    difference[difference <= 0] = _NO_ROW
    target = difference.argmin(axis=2)
    gap = np.take_along_axis(difference, target[:, :, None], axis=2)[:, :, 0]
    low = gap == _NO_ROW
    length = np.take_along_axis(lengths, target, axis=1)
    heads = np.take_along_axis(heads_now, target, axis=1)
    cheapest = np.take_along_axis(heads_now, _cheapest(heads_now, lengths)[:, None], axis=1)
    risk = np.where(
        low, cheapest + 0.5, np.where(length >= ROW_LIMIT, heads + 1.0, length * gap / 400.0)
    )
    # Lexicographic (risk, card): the lowest card among those of least risk.
    best = risk.min(axis=1, keepdims=True)
    slots: IntArray = np.where(risk == best, held, HIGHEST + 1).argmin(axis=1)
    return slots


def random_pick(view: DraftView, rng: np.random.Generator) -> IntArray:
    """A face-up card uniformly at random (like :class:`.RandomPlayer`)."""
    keys = np.where(view.pool, rng.random(view.pool.shape), -1.0)
    picks: IntArray = keys.argmax(axis=1)
    return picks


def lowest_pick(view: DraftView, rng: np.random.Generator) -> IntArray:
    """The lowest face-up card (like :class:`~take5rules.playing.players.LowestCardPlayer`)."""
    picks: IntArray = view.pool.argmax(axis=1)
    return picks


#: Cards by (bull heads, value): the order :class:`~take5rules.playing.players.CautiousPlayer`
#: drafts in.
_DRAFT_KEY = HEADS * (HIGHEST + 1) + np.arange(HIGHEST + 1)


def cautious_pick(view: DraftView, rng: np.random.Generator) -> IntArray:
    """The face-up card with the fewest bull heads, then the lowest (like ``CautiousPlayer``)."""
    picks: IntArray = np.where(view.pool, _DRAFT_KEY, 1 << 30).argmin(axis=1)
    return picks


#: The built-in card policies by the names :data:`take5rules.playing.players.BUILTIN_PLAYERS` uses.
BUILTIN_POLICIES: dict[str, Callable[[SeatView, np.random.Generator], IntArray]] = {
    "random": random_card,
    "lowest": lowest_card,
    "cautious": cautious_card,
}

#: The built-in draft policies by the same names.
BUILTIN_DRAFTS: dict[str, Callable[[DraftView, np.random.Generator], IntArray]] = {
    "random": random_pick,
    "lowest": lowest_pick,
    "cautious": cautious_pick,
}
