"""Which search is ``best``: the three candidates at one table, on duplicate deals.

One table of four: :class:`~take5rules.playing.ismcts.ISMCTSPlayer` with its defaults (``ismcts``),
the
Monte Carlo search with 108 worlds spent by successive halving (``mc-108h``, ``best`` up to
0.3.0), the 64-world Monte Carlo search with greedy rollouts (``mc-64``, the baseline of the
targets), each of seed 2, and one ``cautious`` player. Every deal is played once for every
rotation of the seats (:func:`take5rules.agents.arena.run_arena`), the games in ``--jobs``
processes.
Printed: each player's bull heads per deal and its difference from ``mc-64`` and from
``mc-108h``, with 95% bootstrap intervals over the deal sets (negative is fewer bull heads, so
better). The time a move of each is measured by ``bench_strength.py`` and ``bench_ismcts.py``.

    .venv/bin/python benchmarks/bench_best.py --sets 200 --seed 4321 --jobs 2

A benchmark, not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
from functools import partial

from take5rules.agents.arena import PlayerLike, run_arena
from take5rules.playing.bots import MonteCarloPlayer
from take5rules.playing.ismcts import ISMCTSPlayer
from take5rules.playing.players import CautiousPlayer

#: The table, in seat order: the three candidates and a cautious player, each made afresh.
TABLE: dict[str, PlayerLike] = {
    "ismcts": partial(ISMCTSPlayer, seed=2),
    "mc-108h": partial(MonteCarloPlayer, worlds=108, seed=2, halving=True),
    "mc-64": partial(MonteCarloPlayer, worlds=64, seed=2),
    "cautious": CautiousPlayer,
}


def main() -> None:
    """Play the table and print the differences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=200, help="duplicate deal sets (4 games each)")
    parser.add_argument("--seed", type=int, default=4321)
    parser.add_argument("--jobs", type=int, default=2, help="processes that play the games")
    arguments = parser.parse_args()
    result = run_arena(TABLE, games=4 * arguments.sets, seed=arguments.seed, jobs=arguments.jobs)
    print(f"{arguments.sets} deal sets of seed {arguments.seed}, {4 * arguments.sets} games")
    for baseline in ("mc-64", "mc-108h"):
        for rating in result.report(baseline).ratings:
            if rating.player in (baseline, "cautious"):
                continue
            mean, low, high = rating.deal_difference
            print(f"{rating.player:>8} minus {baseline:<8} per deal {mean:+.2f} "
                  f"[{low:+.2f}, {high:+.2f}]  ({rating.per_deal:.2f} bull heads a deal)")


if __name__ == "__main__":
    main()
