"""Benchmark: how fast ``take5rules --help`` starts, against ``python -c pass``.

Both run as fresh processes of the same interpreter, one after the other in rotating order
(see ``_harness.interleaved``); the figure is the median wall time per start, and the ratio
says how many bare interpreter starts fit in one ``take5rules --help``. Run it with the
development environment set up::

    .venv/bin/python benchmarks/bench_cli.py            # 31 repetitions
    .venv/bin/python benchmarks/bench_cli.py --repeats 101

The issue's target is at most 0.15 s of wall time for ``take5rules --help``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from _harness import Row, interleaved, print_rows, wall_rate


def _starts(argv: Sequence[str]) -> Callable[[], float]:
    """A candidate: start *argv* once, wait for it, and return its rate in starts per second."""

    def work() -> int:
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return 1

    return lambda: wall_rate(work)


def _command() -> list[str]:
    """The installed ``take5rules`` script next to this interpreter, else ``python -m``."""
    script = Path(sys.executable).with_name("take5rules")
    if script.exists():
        return [str(script)]
    found = shutil.which("take5rules")
    return [found] if found else [sys.executable, "-m", "take5rules"]


def main() -> None:
    """Measure and print one row per command: median starts per second, and seconds."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=31, help="repetitions (medians)")
    options = parser.parse_args()
    take5rules = _command()
    rates = interleaved(
        {
            "take5rules --help": _starts([*take5rules, "--help"]),
            "python -c pass": _starts([sys.executable, "-c", "pass"]),
            "take5rules ids": _starts([*take5rules, "ids"]),
        },
        repeats=options.repeats,
    )
    print(f"{' '.join(take5rules)}; {options.repeats} interleaved repetitions, medians")
    print_rows([
        Row("`take5rules --help` starts", "starts/s", rates["take5rules --help"],
            {"python -c pass": rates["python -c pass"]}),
        Row("`take5rules ids` starts", "starts/s", rates["take5rules ids"],
            {"python -c pass": rates["python -c pass"]}),
    ])
    for name, rate in rates.items():
        print(f"{name:<44} {1000 / rate:>12.1f} ms per start (wall)")


if __name__ == "__main__":
    main()
