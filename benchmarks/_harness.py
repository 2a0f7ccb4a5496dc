"""What every benchmark here shares: interleaved repetitions, medians, one printed row per job.

The machine is shared and small (2 cores), so a benchmark never times one program for a while
and then the other: each repetition runs every candidate once, in rotating order, and the
figure printed is the median over repetitions. A candidate measures itself and returns a rate
(units per second) so that CPU time, wall time over a pipe, or peak memory can each be used
where it is the honest measure; the row says which.

This is a benchmark helper, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Row", "commit", "cpu_rate", "interleaved", "print_rows", "processor", "save",
           "wall_rate"]

#: Where the benchmarks' ``--write`` saves its figures; the documentation reads them there.
RESULTS = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Row:
    """One measured job: our median rate, and the peers' medians from the same repetitions."""

    job: str
    unit: str
    ours: float
    peers: Mapping[str, float]

    def ratios(self) -> dict[str, float]:
        """Our rate divided by each peer's (above 1: we are faster)."""
        return {name: self.ours / rate for name, rate in self.peers.items() if rate > 0}


def cpu_rate(work: Callable[[], int]) -> float:
    """Units per CPU-second of this process for one call of *work* (which returns its units)."""
    start = time.process_time()
    units = work()
    return units / max(time.process_time() - start, 1e-9)


def wall_rate(work: Callable[[], int]) -> float:
    """Units per wall-clock second for one call of *work* (for work done in other processes)."""
    start = time.perf_counter()
    units = work()
    return units / max(time.perf_counter() - start, 1e-9)


def interleaved(
    candidates: Mapping[str, Callable[[], float]], repeats: int, warmup: int = 1
) -> dict[str, float]:
    """The median rate of each candidate, running them in rotating order *repeats* times.

    Each candidate returns one measured rate per call; the first *warmup* rounds are discarded.
    """
    names = list(candidates)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for repetition in range(warmup + repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            rate = candidates[name]()
            if repetition >= warmup:
                samples[name].append(rate)
    return {name: statistics.median(values) for name, values in samples.items()}


def print_rows(rows: list[Row]) -> None:
    """Print each row: the job, our median rate, and each peer's rate with the ratio."""
    for row in rows:
        line = f"{row.job:<44} {row.ours:>12,.0f} {row.unit}"
        for name, ratio in row.ratios().items():
            line += f" | {name}: {row.peers[name]:,.0f} (us/them {ratio:.2f}x)"
        print(line, flush=True)


def processor() -> str:
    """The processor's model name, from /proc/cpuinfo (Linux), else the machine's type."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def commit() -> str:
    """The commit measured, ``+ changes`` when the tree differs from it; ``unknown`` outside git."""
    root = RESULTS.parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} + changes" if dirty else head


def save(name: str, script: str, figures: Mapping[str, Any], what: str = "") -> Path:
    """Save *figures* of one run of *script* as ``benchmarks/results/NAME.json``.

    The file also says what the figures depend on: the commit (``+ changes`` when the tree
    differs from it), the date, the processor, the cores and Python's version; *what* the
    figures are, in the note.
    """
    measured = commit()
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    document = {
        "note": f"{script} --write, one run (commit {measured}, {when}, {processor()}, "
                f"{os.cpu_count()} cores, Python {platform.python_version()})"
                + (f": {what}" if what else "."),
        "commit": measured, "date": when, "processor": processor(), "cores": os.cpu_count(),
        "python": platform.python_version(), **figures,
    }
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(RESULTS.parent.parent)}", flush=True)
    return path

