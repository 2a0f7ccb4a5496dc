"""Whole games of the engine, with their deals, for the batch's differential tests."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from take5rules.events import GameOver, RoundStarted
from take5rules.playing.engine import play_game
from take5rules.playing.players import Player
from take5rules.variants import Rules

Dealer = Callable[[NDArray[np.int64], int], list[list[int]]]

#: This run's seed: new each run, unless ``TAKE5RULES_BATCH_SEED`` replays one. The tests that
#: draw from it print it, and pytest shows what a failing test printed.
RUN_SEED = int(os.environ.get("TAKE5RULES_BATCH_SEED") or random.SystemRandom().randrange(2**31))


def run_seeds(count: int, salt: int = 0) -> range:
    """*count* engine seeds drawn from :data:`RUN_SEED` (and *salt*), the replay line printed."""
    print(f"replay this run with TAKE5RULES_BATCH_SEED={RUN_SEED}")
    start = (RUN_SEED * 7919 + salt * 104_729) % 2**31
    return range(start, start + count)


def engine_games(
    seats: Callable[[], Mapping[str, Player]], rules: Rules, seeds: range
) -> tuple[list[GameOver], Dealer]:
    """Play a game per seed with play_game; its ends, and a dealer giving back each deal.

    The dealer answers the piles of round *number* for the games asked about (indices into
    *seeds*) as ``batch.start`` deals them: the hands in seat order, the four row cards, then
    the other cards. Asked for a round the engine never dealt, it raises ``KeyError``.
    """
    deals: dict[tuple[int, int], list[int]] = {}
    ends: list[GameOver] = []
    for game, seed in enumerate(seeds):
        events = list(play_game(seats(), rules, seed=seed))
        for event in events:
            if isinstance(event, RoundStarted):
                dealt = [c for hand in event.hands.values() for c in hand]
                dealt += [row[0] for row in event.rows]
                deals[game, event.round] = dealt + sorted(set(range(1, 105)) - set(dealt))
        last = events[-1]
        assert isinstance(last, GameOver)
        ends.append(last)

    def dealer(games: NDArray[np.int64], number: int) -> list[list[int]]:
        return [deals[int(game), number] for game in games]

    return ends, dealer
