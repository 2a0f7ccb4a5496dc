"""The logic draft and the tournament in a batch (``variants.logic``, ``variants.tournament``).

Private to :mod:`take5rules.agents.batch`. The draft is played pick by pick in every game at
once, seats in turn as :func:`take5rules.variants.next_drafter` orders them; every pick is
checked. The rounds played with the drafted hands (and the tournament's passing of hands) are
:func:`take5rules.agents.batch.play_games`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np
import numpy.typing as npt

from take5rules._messages import N_
from take5rules.agents.batch.arrays import (
    CARD,
    HAND_SIZE,
    HIGHEST,
    ROWS,
    BoolArray,
    IntArray,
    answer,
    frozen,
)
from take5rules.errors import IllegalMoveError, Where
from take5rules.setup import cards_in_play
from take5rules.variants import Rules, Variant


class DraftView:
    """What a seat knows when it picks a face-up card in the logic draft.

    Attributes: ``seat``, ``pick`` (the pick's number, from 1), ``games`` (the games' indices
    in the batch), ``pool`` (``(n, 105)`` whether each card is still face up), ``hand``
    (``(n, k)`` the cards this seat has picked) and ``totals``. Read-only copies.
    """

    def __init__(
        self, seat: int, pick: int, games: IntArray, pool: BoolArray,
        hands: npt.NDArray[np.int8], totals: IntArray,
    ) -> None:
        self.seat, self.pick, self.games = seat, pick, frozen(games)
        self._pool, self._hand, self._totals = pool, hands, totals

    def __len__(self) -> int:
        return int(self.games.size)

    @cached_property
    def pool(self) -> BoolArray:
        """``(n, 105)`` whether each card (by its value) is still face up."""
        copy = self._pool.copy()
        copy.setflags(write=False)
        return copy

    @cached_property
    def hand(self) -> IntArray:
        """``(n, k)`` the cards this seat has picked so far, in the order picked."""
        return frozen(self._hand)

    @cached_property
    def totals(self) -> IntArray:
        """``(n, players)`` each seat's total before this round."""
        return frozen(self._totals)


#: Picks a face-up card in every game asked about: ``policy(view, rng)`` returns ``(n,)`` cards.
DraftPolicy = Callable[[DraftView, np.random.Generator], npt.ArrayLike]


def draft(
    rng: np.random.Generator, games: IntArray, count: int, drafts: Sequence[DraftPolicy],
    totals: IntArray, turn_base: int = 0,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Draft hands in the games *games*: ``(n, players, 10)`` hands and ``(n, 4)`` row cards."""
    size = games.size
    pool = np.zeros((size, HIGHEST + 1), dtype=np.bool_)
    pool[:, np.asarray(cards_in_play(Rules(Variant.LOGIC), count))] = True
    hands = np.zeros((size, count, HAND_SIZE), dtype=CARD)
    every = np.arange(size)
    for pick in range(HAND_SIZE * count):
        seat, place = pick % count, pick // count
        view = DraftView(seat, pick + 1, games, pool, hands[:, seat, :place], totals[games])
        values = answer(
            drafts[seat](view, rng), size, 1, HIGHEST, "variants.logic", games, seat, None,
        )
        missing = ~pool[every, values]
        if missing.any():
            first = int(np.flatnonzero(missing)[0])
            raise IllegalMoveError(
                "variants.logic",
                N_("game {game} of the batch: card {value} is not among the face-up cards "
                   "left to draft"),
                where=Where(player=f"seat {seat}", card=int(values[first])),
                game=int(games[first]), value=int(values[first]),
            )
        pool[every, values] = False
        hands[:, seat, place] = values
    rows = np.nonzero(pool)[1].reshape(size, ROWS).astype(CARD)
    return hands, rows
