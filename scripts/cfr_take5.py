"""CFR on the research configuration of take5: print the NashConv as the iterations go.

The research configuration is NOT an official variant: 2 players, the cards 1 to 8, two cards
a hand, the four rows from the other four, one round, zero-sum returns (each seat's return is
the other's bull heads minus its own). Run from the repository (needs take5rules[openspiel]):

    .venv/bin/python scripts/cfr_take5.py            # 50 iterations
    .venv/bin/python scripts/cfr_take5.py --iterations 200 --deck 8 --hand 2

It prints the NashConv of the uniform policy (iteration 0), then of CFR's average policy at
each reported iteration (``open_spiel.python.algorithms.cfr.CFRSolver``,
``exploitability.nash_conv``), and the CPU seconds spent.
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, exploitability

import take5rules.agents.openspiel_game  # noqa: F401 -- registers the game take5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--deck", type=int, default=8)
    parser.add_argument("--hand", type=int, default=2)
    args = parser.parse_args()
    params = {"players": 2, "deck": args.deck, "hand": args.hand, "rounds": 1,
              "utility": "margin"}
    game = pyspiel.load_game("take5", params)
    print(f"game: take5 {params} (research configuration, not an official variant)")
    print(f"iteration 0 (uniform policy): NashConv "
          f"{exploitability.nash_conv(game, policy.UniformRandomPolicy(game)):.6f}")
    start = time.process_time()
    solver = cfr.CFRSolver(game)
    reports = {1, 2, 5, args.iterations} | set(range(10, args.iterations + 1, 10))
    for iteration in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if iteration in reports:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"iteration {iteration}: NashConv {conv:.6f} "
                  f"({time.process_time() - start:.0f} CPU s)", flush=True)
    print(f"information states: {len(solver.average_policy().state_lookup)}")


if __name__ == "__main__":
    main()
