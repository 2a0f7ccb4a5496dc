"""Run every benchmark of this folder, one after the other, in one run; print all their rows.

Each ``benchmarks/bench_*.py`` runs in turn as its own process (so one benchmark's imports and
garbage never weigh on the next), with the arguments given here passed on (``--quick`` for a
short run). The run first prints what every figure depends on: the commit measured (and whether
the tree had changes), the date, and the machine (processor, core count, Python); then each
benchmark's rows as they come. Exit status: 0, or 1 if some benchmark failed (its name is
printed).

    python benchmarks/run.py [--quick]
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _harness import commit, processor  # noqa: E402


def header() -> list[str]:
    """The lines that say what was measured, when, and on what."""
    return [
        f"commit: {commit()}",
        f"date: {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"machine: {processor()}, {os.cpu_count()} cores, {platform.machine()}, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}",
    ]


def main(argv: list[str]) -> int:
    """Run each benchmark script with *argv*; return 1 if any failed."""
    failed = []
    for line in header():
        print(line, flush=True)
    scripts = sorted(HERE.glob("bench_*.py"))
    print(f"benchmarks: {', '.join(script.stem for script in scripts)}", flush=True)
    for script in scripts:
        print(f"--- {script.stem}", flush=True)
        done = subprocess.run([sys.executable, str(script), *argv], check=False)
        if done.returncode != 0:
            failed.append(script.stem)
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{platform.machine()}", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
