"""``take5rules conform`` cases per second against ``take5rules referee`` itself.

Run: ``.venv/bin/python benchmarks/bench_conform.py [--cases 3000] [--repeats 5]``.

One unit is one generated turn sent, answered and compared. take5rules is
:func:`take5rules.conformance.run.run_conformance` with its worked examples and invalid requests
(counted in the time, not in the cases). The peer, :func:`plain_driver`, is the least a
differential driver can do: start the referee, then for each seeded random turn write the line,
read the reply, and compare it with :func:`take5rules.conformance.referee.answer`. Both start the
referee
program inside the timed work. Wall-clock rates, interleaved repetitions, medians (see
``_harness.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections.abc import Callable

from _harness import Row, interleaved, print_rows, save, wall_rate

from take5rules.conformance.random_turns import random_request
from take5rules.conformance.referee import answer
from take5rules.conformance.run import run_conformance

REFEREE = [sys.executable, "-m", "take5rules", "referee"]


def conform(cases: int) -> Callable[[], float]:
    """A candidate: one ``run_conformance`` of *cases* turns against our referee."""

    def work() -> int:
        result = run_conformance(REFEREE, cases=cases, seed=1)
        if not result.ok:
            raise RuntimeError(f"our referee disagrees with us: {result.status}")
        return cases

    return lambda: wall_rate(work)


def plain_driver(cases: int) -> Callable[[], float]:
    """A candidate: the plain random-turn differential driver (no report, no shrinking)."""

    def work() -> int:
        process = subprocess.Popen(REFEREE, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert process.stdin is not None
        assert process.stdout is not None
        rng = random.Random(1)
        for _ in range(cases):
            request = random_request(rng)
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            if json.loads(process.stdout.readline()) != answer(request):
                raise RuntimeError("our referee disagrees with us")
        process.stdin.close()
        process.wait()
        return cases

    return lambda: wall_rate(work)


def main() -> None:
    """Measure and print one row: our median rate and the peer's, with the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="500 cases, 3 runs")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/conform.json")
    args = parser.parse_args()
    if args.quick:
        args.cases, args.repeats = 500, 3
    rates = interleaved({"conform": conform(args.cases),
                         "plain driver": plain_driver(args.cases)}, repeats=args.repeats)
    print_rows([Row(f"conform against take5rules referee, {args.cases:,} cases", "cases/s",
                    rates["conform"], {"plain driver": rates["plain driver"]})])
    if args.write:
        save("conform", "bench_conform.py", {
            "repeats": args.repeats,
            "rows": [{"job": "conform", "size": args.cases, "rate": round(rates["conform"]),
                      "unit": "cases", "peer": "differential",
                      "peer_rate": round(rates["plain driver"])}],
        })


if __name__ == "__main__":
    main()
