"""Benchmark: how fast ``take5rules --help`` starts, against ``python -c pass``.

Both run as fresh processes of the same interpreter, one after the other in rotating order
(see ``_harness.interleaved``); the figure is the median wall time per start, and the ratio
says how many bare interpreter starts fit in one ``take5rules --help``. Run it with the
development environment set up::

    .venv/bin/python benchmarks/bench_cli.py            # 31 repetitions
    .venv/bin/python benchmarks/bench_cli.py --repeats 101
    .venv/bin/python benchmarks/bench_cli.py --peer ../old-checkout/.venv/bin/take5rules

The issue's target is at most 0.15 s of wall time for ``take5rules --help``. The CPU time of
each start (user + system, from ``getrusage``) is printed too: on a busy machine it is the
steadier figure.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from _harness import Row, interleaved, print_rows, save, wall_rate


def _starts(argv: Sequence[str]) -> Callable[[], float]:
    """A candidate: start *argv* once, wait for it, and return its rate in starts per second."""

    def work() -> int:
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return 1

    return lambda: wall_rate(work)


def _cpu_starts(argv: Sequence[str]) -> Callable[[], float]:
    """A candidate: start *argv* once; its rate in starts per CPU-second of the child.

    The child's user + system time is not inflated by the other programs sharing the machine.
    """

    def measure() -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return 1 / max(spent, 1e-4)

    return measure


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
    parser.add_argument("--peer", metavar="SCRIPT",
                        help="another take5rules script to compare, e.g. an older checkout's")
    parser.add_argument("--quick", action="store_true", help="7 repetitions")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/cli.json")
    options = parser.parse_args()
    if options.quick:
        options.repeats = 7
    take5rules = _command()
    peer = {"peer --help (CPU)": _cpu_starts([options.peer, "--help"])} if options.peer else {}
    rates = interleaved(
        {
            **peer,
            "take5rules --help": _starts([*take5rules, "--help"]),
            "python -c pass": _starts([sys.executable, "-c", "pass"]),
            "take5rules ids": _starts([*take5rules, "ids"]),
            "take5rules --help (CPU)": _cpu_starts([*take5rules, "--help"]),
            "python -c pass (CPU)": _cpu_starts([sys.executable, "-c", "pass"]),
        },
        repeats=options.repeats,
    )
    print(f"{' '.join(take5rules)}; {options.repeats} interleaved repetitions, medians")
    print_rows([
        Row("`take5rules --help` starts", "starts/s", rates["take5rules --help"],
            {"python -c pass": rates["python -c pass"]}),
        Row("`take5rules ids` starts", "starts/s", rates["take5rules ids"],
            {"python -c pass": rates["python -c pass"]}),
        Row("`take5rules --help` starts per CPU-second", "starts/CPU-s",
            rates["take5rules --help (CPU)"],
            {"python -c pass": rates["python -c pass (CPU)"],
             **({"peer": rates["peer --help (CPU)"]} if options.peer else {})}),
    ])
    for name, rate in rates.items():
        clock = "CPU" if name.endswith("(CPU)") else "wall"
        print(f"{name.removesuffix(' (CPU)'):<44} {1000 / rate:>12.1f} ms per start ({clock})")
    if options.write:
        save("cli", "bench_cli.py", {
            "repeats": options.repeats,
            "help_ms": round(1000 / rates["take5rules --help"]),
            "ids_ms": round(1000 / rates["take5rules ids"]),
            "python_ms": round(1000 / rates["python -c pass"]),
            "help_cpu_ms": round(1000 / rates["take5rules --help (CPU)"], 1),
            "python_cpu_ms": round(1000 / rates["python -c pass (CPU)"], 1),
        })


if __name__ == "__main__":
    main()
