"""What every benchmark here shares: interleaved repetitions, medians, one printed row per job.

The machine is shared and small (2 cores), so a benchmark never times one program for a while
and then the other: each repetition runs every candidate once, in rotating order, and the
figure printed is the median over repetitions. A candidate measures itself and returns a rate
(units per second) so that CPU time, wall time over a pipe, or peak memory can each be used
where it is the honest measure; the row says which.

This is a benchmark helper, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["Row", "cpu_rate", "interleaved", "print_rows", "wall_rate"]


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
