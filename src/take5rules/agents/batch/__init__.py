"""Many independent rounds and games at once, with numpy: for simulation, statistics, training.

This package plays a batch of independent rounds of the same number of players in lock-step:
every array has the batch as its first axis. Every card of every batch, here and in
:mod:`take5rules.agents.batch.vector`, is placed by one kernel,
:func:`take5rules.agents.batch.placement.place_turn`: the vectorised formulation of the placement
rules of :mod:`take5rules.table` and :mod:`take5rules.turn` (ascending rows, least difference,
sixth card, low card, lowest card first), which numba compiles as it stands when it is
installed. The differential tests ``tests/test_batch.py`` pin it to the rules: given the same
deals and decisions it yields exactly the same rows, takes and scores, and whole games end and
are won as :func:`take5rules.playing.engine.play_game` ends them. Deals given from outside are
checked by :func:`take5rules.setup.check_deal`.

Decisions are vectorised too, and every answer is checked. A *card policy* ``(view, rng)``
answers, for one seat, the position in its hand of the card it plays in every game asked about
(the action of a learning agent); a *row policy* answers the rows taken by the low cards being
placed; a *draft policy* the face-up cards picked in the logic draft. A policy sees a read-only
view of what its seat may know (:class:`SeatView`, :class:`RowView`, :class:`DraftView`):
never another hand, never the simulator's own arrays. An answer that breaks a rule raises
:class:`~take5rules.errors.IllegalMoveError` naming the game (its index in the batch), the seat
(the player ``'seat k'``) and the rule; a turn refused part-way leaves every game as it was.

:mod:`take5rules.agents.batch.vector` offers the same games as a vectorised environment in the style
of Pgx (``init``, ``step``, ``legal_action_mask``).

Install it with the extra: ``pip install take5rules[batch]``.

>>> rng = np.random.default_rng(1)
>>> state = deal(rng, games=3, players=4)
>>> scores = play_round(state, [lowest_card] * 4, cheapest_row, rng)
>>> scores.shape, bool((scores == state.penalties).all()), state.turn
((3, 4), True, 10)
>>> result = play_games(rng, 5, [random_card] * 3, random_row)
>>> bool((result.totals.max(axis=1) >= 66).all()), result.winners.shape
(True, (5, 3))
"""

from __future__ import annotations

try:
    import numpy as np
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "batch") from None

from take5rules.agents.batch.arrays import (
    HEADS,
    LEAST_DIFFERENCE,
    LOW_CARD,
    MOST_GAMES,
    SIXTH_CARD,
    BatchState,
    CardPolicy,
    RowPolicy,
    RowView,
    SeatView,
    TurnOutcome,
)
from take5rules.agents.batch.drafts import DraftPolicy, DraftView
from take5rules.agents.batch.policies import (
    BUILTIN_DRAFTS,
    BUILTIN_POLICIES,
    cautious_card,
    cautious_pick,
    cheapest_row,
    lowest_card,
    lowest_pick,
    random_card,
    random_pick,
    random_row,
)
from take5rules.agents.batch.simulator import (
    BLOCK,
    Dealer,
    GamesResult,
    deal,
    play_games,
    play_round,
    play_turn,
    start,
)

__all__ = [
    "BLOCK",
    "BUILTIN_DRAFTS",
    "BUILTIN_POLICIES",
    "HEADS",
    "LEAST_DIFFERENCE",
    "LOW_CARD",
    "MOST_GAMES",
    "SIXTH_CARD",
    "BatchState",
    "CardPolicy",
    "Dealer",
    "DraftPolicy",
    "DraftView",
    "GamesResult",
    "RowPolicy",
    "RowView",
    "SeatView",
    "TurnOutcome",
    "cautious_card",
    "cautious_pick",
    "cheapest_row",
    "deal",
    "lowest_card",
    "lowest_pick",
    "play_games",
    "play_round",
    "play_turn",
    "random_card",
    "random_pick",
    "random_row",
    "start",
]

_ = np  # the doctest's namespace
