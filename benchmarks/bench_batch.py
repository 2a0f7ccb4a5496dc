"""Batched random 4-player rounds per second, against py6nimmt 0.1.2 in the same run.

Run: ``.venv/bin/python benchmarks/bench_batch.py`` (needs ``take5rules[batch]``; the peer needs
``pip install py6nimmt==0.1.2``, else its row is left out).

One unit is a whole round: the deal, ten turns of four random players (a random card from the
hand, a random row for a low card), the cards placed lowest first, the penalties scored.
take5rules plays its rounds with :mod:`take5rules.batch`, many at once. py6nimmt is driven through
its own ``Table``: its deal, ``Table.playCard`` for every card, taken in ascending card order
(py6nimmt itself has no placement order), and ``Table.catchBoard`` for a low card. The first
row keeps the scores only (``keep_piles=False``), the second also records every bull pile card
by card, as py6nimmt does. All rates are CPU seconds of this process, interleaved repetitions,
medians.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, cpu_rate, interleaved, print_rows

from take5rules import batch

PLAYERS = 4


def take5rules_rounds(
    games: int, rng: np.random.Generator, keep_piles: bool
) -> Callable[[], float]:
    """A candidate playing *games* random rounds in one batch (recording the piles or not)."""

    def work() -> int:
        state = batch.deal(rng, games, PLAYERS, keep_piles=keep_piles)
        batch.play_round(state, [batch.random_card] * PLAYERS, batch.random_row, rng)
        return games

    return lambda: cpu_rate(work)


def py6nimmt_rounds(rounds: int, seed: int) -> Callable[[], float] | None:
    """A candidate playing *rounds* random rounds with py6nimmt, or None if it is missing."""
    try:
        from py6Nimmt import Table
    except ImportError:
        return None
    chooser = random.Random(seed)

    def one_round() -> None:
        table: Any = Table.Table(PLAYERS)
        for _ in range(10):
            plays = []
            for player in table.players:
                position = chooser.randrange(player.hand.count()) + 1
                plays.append((player.hand.showCard(position).value, player.id, position))
            for _value, player_id, position in sorted(plays):
                low = table.playCard(player_id, position)
                if low is not None:
                    table.catchBoard(player_id, chooser.randrange(4) + 1, low)
        for player in table.players:
            player.score()

    def work() -> int:
        with contextlib.redirect_stdout(io.StringIO()):
            for _ in range(rounds):
                one_round()
        return rounds

    return lambda: cpu_rate(work)


def main() -> None:
    """Measure and print one row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4096, help="rounds per batch")
    parser.add_argument("--peer-rounds", type=int, default=400, help="py6nimmt rounds per sample")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="512 rounds a batch, 3 runs")
    args = parser.parse_args()
    if args.quick:
        args.games, args.peer_rounds, args.repeats = 512, 100, 3
    candidates = {
        "scores": take5rules_rounds(args.games, np.random.default_rng(1), keep_piles=False),
        "piles": take5rules_rounds(args.games, np.random.default_rng(2), keep_piles=True),
    }
    peer = py6nimmt_rounds(args.peer_rounds, 1)
    if peer is not None:
        candidates["py6nimmt 0.1.2"] = peer
    rates = interleaved(candidates, args.repeats)
    scores, piles = rates.pop("scores"), rates.pop("piles")
    print_rows([
        Row(f"random {PLAYERS}-player rounds (batch of {args.games})", "rounds/s", scores, rates),
        Row("  the same, every bull pile recorded", "rounds/s", piles, rates),
    ])


if __name__ == "__main__":
    main()
