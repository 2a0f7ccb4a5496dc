"""ISMCTS against the 64-world determinized Monte Carlo player, head to head, on duplicate deals.

One table of four: :class:`~take5rules.playing.ismcts.ISMCTSPlayer` (``ismcts``), ``mc-64``
(:class:`~take5rules.playing.bots.MonteCarloPlayer` with 64 worlds and greedy rollouts, seed 2) and
two
``cautious`` players, on duplicate deals (:func:`take5rules.agents.arena.run_arena`), so that both
searchers are timed in the same games (interleaved). Printed: ISMCTS's bull heads per deal and
per game minus mc-64's with 95% bootstrap intervals over the deal sets, both against cautious,
and both players' milliseconds per decision (CPU time of this process, one core).

    .venv/bin/python benchmarks/bench_ismcts.py --sets 12 --seed 22
    .venv/bin/python benchmarks/bench_ismcts.py --sets 12 --seed 22 --exploration 2

A benchmark, not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_strength import Timed

from take5rules.agents.arena import run_arena
from take5rules.playing.bots import MonteCarloPlayer
from take5rules.playing.ismcts import DEFAULT_ITERATIONS, ISMCTSPlayer
from take5rules.playing.players import CautiousPlayer


def _ms(timed: Timed) -> str:
    values = timed.seconds
    return (f"{1000 * statistics.fmean(values):.1f} ms mean, "
            f"{1000 * statistics.median(values):.1f} median, {1000 * max(values):.1f} max, "
            f"{len(values)} decisions")


def main() -> None:
    """Play the table and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=12, help="duplicate deal sets (4 games each)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--exploration", type=float, default=None)
    parser.add_argument("--rollout", default="greedy")
    parser.add_argument("--unpaired", action="store_true",
                        help="a new world every iteration (no common random numbers)")
    arguments = parser.parse_args()
    extra = {} if arguments.exploration is None else {"exploration": arguments.exploration}
    ismcts = Timed(ISMCTSPlayer(iterations=arguments.iterations, rollout=arguments.rollout,
                                seed=1, paired=not arguments.unpaired, **extra))
    baseline = Timed(MonteCarloPlayer(worlds=64, seed=2))
    result = run_arena({"ismcts": ismcts, "mc-64": baseline, "cautious": CautiousPlayer(),
                        "cautious#2": CautiousPlayer()},
                       games=4 * arguments.sets, seed=arguments.seed)
    against = {rating.player: rating for rating in result.report("mc-64").ratings}["ismcts"]
    cautious = {rating.player: rating for rating in result.report("cautious").ratings}
    print(f"{ismcts.player!r} against {baseline.player!r}, {arguments.sets} deal sets, "
          f"seed {arguments.seed}")

    def figure(values: tuple[float, float, float]) -> str:
        return f"{values[0]:+.2f} [{values[1]:+.2f}, {values[2]:+.2f}]"

    print(f"ismcts - mc-64: per deal {figure(against.deal_difference)}, "
          f"per game {figure(against.game_difference)}")
    for name in ("ismcts", "mc-64"):
        print(f"{name} - cautious: per deal {figure(cautious[name].deal_difference)}; "
              f"{cautious[name].per_deal:.2f} bull heads per deal")
    print(f"ismcts: {_ms(ismcts)}")
    print(f"mc-64:  {_ms(baseline)}")
    ratio = statistics.fmean(ismcts.seconds) / statistics.fmean(baseline.seconds)
    print(f"ratio of means: {ratio:.2f}")


if __name__ == "__main__":
    main()
