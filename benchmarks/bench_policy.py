"""How strong the learned policy is, and how long it takes: ``policy`` on duplicate deals.

Two tables of four, as the strength benchmark's: ``policy`` against three ``cautious`` players,
then ``policy`` against the 64-world Monte Carlo player (``mc-64``) with two ``cautious``
players. Each figure is a paired difference in bull heads per deal with its 95% bootstrap
interval over the deal sets (:mod:`take5rules.agents.ladder`, negative: ``policy`` took fewer),
and the CPU milliseconds a decision of each timed player (this process, one core).

    python benchmarks/bench_policy.py --sets 500 --head-sets 100
    python benchmarks/bench_policy.py --weights path/to/policy.npz
    python benchmarks/bench_policy.py --sets 500 --head-sets 500 --jobs 2 --write

With ``--jobs N`` the second table's games run in N processes (each seat made afresh for each
game, so a game is the same in any process), and its milliseconds a move are measured on its
first ``--time-sets`` deal sets, played again in this process.

``--write`` saves the figures in ``benchmarks/results/policy.json`` (with the commit, the date
and the processor), which the "Strength ladder" page reads.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import save
from bench_strength import Timed

from take5rules.agents.arena import PlayerLike, run_arena
from take5rules.agents.policy import PolicyPlayer, load_policy
from take5rules.playing.bots import MonteCarloPlayer
from take5rules.playing.players import CautiousPlayer


def _ms(timed: Timed) -> str:
    values = timed.seconds
    return (f"{1000 * statistics.fmean(values):.3f} ms a move (median "
            f"{1000 * statistics.median(values):.3f}, max {1000 * max(values):.2f}, "
            f"{len(values)} decisions)")


def _timing(timed: Timed) -> dict[str, float | int]:
    values = timed.seconds
    return {"mean_ms": 1000 * statistics.fmean(values),
            "median_ms": 1000 * statistics.median(values),
            "max_ms": 1000 * max(values), "decisions": len(values)}


def _line(name: str, difference: tuple[float, float, float], against: str) -> str:
    mean, low, high = difference
    verdict = "better" if high < 0 else "worse" if low > 0 else "not told apart"
    return (f"{name} - {against}: {mean:+.2f} bull heads a deal [{low:+.2f}, {high:+.2f}] "
            f"({verdict})")


def main() -> None:
    """Play both tables and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=500,
                        help="deal sets against cautious (0: not this table)")
    parser.add_argument("--head-sets", type=int, default=100,
                        help="deal sets with mc-64 (0: not this table)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the second table's games (its times: --time-sets)")
    parser.add_argument("--time-sets", type=int, default=20,
                        help="with --jobs: the second table's deal sets timed in this process")
    parser.add_argument("--weights", type=Path, default=None,
                        help="a weights file (default: the shipped weights)")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/policy.json")
    arguments = parser.parse_args()
    figures: dict[str, Any] = {"sets": arguments.sets, "head_sets": arguments.head_sets,
                               "seed": arguments.seed, "jobs": arguments.jobs}
    policy = load_policy(arguments.weights)
    print(f"policy {policy.widths}, code {policy.metadata.get('code')}")
    started = time.process_time()
    if arguments.sets:
        timed = Timed(PolicyPlayer(policy))
        result = run_arena({"policy": timed, "cautious": CautiousPlayer(),
                            "cautious#2": CautiousPlayer(), "cautious#3": CautiousPlayer()},
                           games=4 * arguments.sets, seed=arguments.seed)
        rating = {r.player: r for r in result.report("cautious").ratings}["policy"]
        line = _line("policy", rating.deal_difference, "cautious")
        print(f"table 1, {arguments.sets} deal sets: {line}; policy {_ms(timed)}", flush=True)
        figures["cautious_table"] = {"policy_minus_cautious": list(rating.deal_difference),
                                     "policy": _timing(timed)}
    if arguments.head_sets:
        timed, baseline = Timed(PolicyPlayer(policy)), Timed(MonteCarloPlayer(worlds=64, seed=2))
        timed_table: dict[str, PlayerLike] = {
            "policy": timed, "mc-64": baseline, "cautious": CautiousPlayer(),
            "cautious#2": CautiousPlayer()}
        if arguments.jobs <= 1:
            result = run_arena(timed_table, games=4 * arguments.head_sets,
                               seed=arguments.seed + 1)
        else:
            made: dict[str, PlayerLike] = {"policy": partial(PolicyPlayer, policy),
                    "mc-64": partial(MonteCarloPlayer, worlds=64, seed=2),
                    "cautious": CautiousPlayer, "cautious#2": CautiousPlayer}
            result = run_arena(made, games=4 * arguments.head_sets, seed=arguments.seed + 1,
                               jobs=arguments.jobs)
            time_sets = min(arguments.time_sets, arguments.head_sets)
            figures["time_sets"] = time_sets
            run_arena(timed_table, games=4 * time_sets, seed=arguments.seed + 1)
        against = {r.player: r for r in result.report("mc-64").ratings}
        versus = {r.player: r for r in result.report("cautious").ratings}
        print(f"table 2, {arguments.head_sets} deal sets: "
              f"{_line('policy', against['policy'].deal_difference, 'mc-64')}; "
              f"{_line('policy', versus['policy'].deal_difference, 'cautious')}; "
              f"{_line('mc-64', versus['mc-64'].deal_difference, 'cautious')}")
        print(f"  policy {_ms(timed)}; mc-64 {_ms(baseline)}")
        wins = {standing.player: standing.win_rate for standing in result.standings}
        figures["mc64_table"] = {
            "policy_minus_mc64": list(against["policy"].deal_difference),
            "policy_minus_cautious": list(versus["policy"].deal_difference),
            "mc64_minus_cautious": list(versus["mc-64"].deal_difference),
            "policy_wins": wins["policy"], "mc64_wins": wins["mc-64"],
            "policy": _timing(timed), "mc-64": _timing(baseline)}
    seconds = time.process_time() - started
    print(f"{seconds:.0f} CPU s")
    if arguments.write:
        figures["cpu_seconds"] = round(seconds)
        figures["weights"] = {key: policy.metadata.get(key) for key in (
            "code", "data", "held_out_accuracy")}
        save("policy", "bench_policy.py", figures,
             "the learned policy on duplicate deals: against three cautious, and against mc-64 "
             "and two cautious")


if __name__ == "__main__":
    main()
