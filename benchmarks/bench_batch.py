"""Batched random 4-player rounds per CPU-second and peak memory, at 1k to 1M games a batch.

Run: ``.venv/bin/python benchmarks/bench_batch.py`` (``--quick`` for a short run).

One unit is a whole round: the deal, ten turns of four random players (a random card from the
hand, a random row for a low card), the cards placed lowest first, the penalties scored. At each
batch size, three programs play the same job, each in a process of its own so that its memory
is the whole process's peak resident set (``ru_maxrss``), not only the Python heap:

* ``take5rules.agents.batch``: ``deal`` then ``play_round`` with ``random_card`` and ``random_row``,
  every answer checked; with its compiled kernel when numba is installed, and again with the
  numpy kernel (``TAKE5RULES_BATCH=numpy``);
* a plain numpy batch, written below: the natural vectorised formulation (random keys sorted
  with ``argsort`` for the deal, ``int64`` arrays, the least difference by ``argmin`` over the
  rows, no checks), the peer a vectorised simulator should be compared with;
* the C limit: the same rounds in a small single-threaded C loop, compiled here with
  ``cc -O2`` into a temporary directory (left out, with a line saying so, without a compiler);
* py6nimmt 0.1.2, the published Python engine, one round at a time as ``bench_engine.py``
  drives it (``pip install py6nimmt==0.1.2``, the ``bench`` extra; left out, with a line saying
  so, when it is not installed): not a batch, so its rate is the same at every size.

Rates are CPU seconds of the measured work in each process; the repetitions (one at a million
games, where the plain numpy batch takes gigabytes) are interleaved
(each repetition runs every program once, in rotating order) and the medians are printed, with
each program's peak RSS and the memory per game in flight: the peak RSS of the measured batches
minus the process's RSS before them, over the batch size (the peak is started afresh after a
warm-up batch of 64 games, which compiles numba's kernel; the peak RSS column is the whole
process's). The last row measures the Pgx-style environment (after a warm-up of its own)
:mod:`take5rules.agents.batch.vector` in steps per second. The figures come with the commit, the
date
and the machine.

``--against SRC`` measures another checkout's batch in the same run, interleaved with this
one's (its ``src`` directory first on ``PYTHONPATH``; a tree from before 0.5.0, whose batch is
``take5rules.batch``, works too): each ``take5rules`` program gets a twin row marked
``[SRC]`` and a ratio to it, so that a before/after comparison is one run on one loaded
machine. ``--programs`` keeps only the programs named (``--programs take5rules`` skips the
plain numpy batch, which takes about 6 GB at a million games).

``--write`` saves the run's figures in ``benchmarks/results/batch.json`` (the rows the
documentation's benchmark tables read, with the run's header as its note) and its printout in
``benchmarks/results/batch.txt``; it needs every program at the default sizes, so that the
file always describes one whole run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _harness import RESULTS, commit, processor, save

PLAYERS = 4
SIZES = (1_000, 10_000, 100_000, 1_000_000)
HERE = Path(__file__).resolve()

C_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static uint64_t s = 88172645463325252ULL;
static inline uint64_t next(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
static inline int below(int n) { return (int)(((next() >> 32) * (uint64_t)n) >> 32); }
static int heads(int c) {
    if (c == 55) return 7;
    if (c % 11 == 0) return 5;
    if (c % 10 == 0) return 3;
    return c % 5 == 0 ? 2 : 1;
}
int main(int argc, char **argv) {
    long rounds = atol(argv[1]), total = 0;
    int h[105];
    for (int c = 1; c <= 104; c++) h[c] = heads(c);
    clock_t start = clock();
    for (long r = 0; r < rounds; r++) {
        int deck[104], hand[4][10], left = 10, row[4][5], len[4], pen[4] = {0, 0, 0, 0};
        for (int i = 0; i < 104; i++) deck[i] = i + 1;
        for (int i = 0; i < 44; i++) {
            int j = i + below(104 - i), t = deck[i];
            deck[i] = deck[j]; deck[j] = t;
        }
        for (int p = 0; p < 4; p++)
            for (int k = 0; k < 10; k++) hand[p][k] = deck[10 * p + k];
        for (int i = 0; i < 4; i++) { row[i][0] = deck[40 + i]; len[i] = 1; }
        for (int turn = 0; turn < 10; turn++, left--) {
            int card[4], seat[4];
            for (int p = 0; p < 4; p++) {
                int k = below(left);
                card[p] = hand[p][k]; hand[p][k] = hand[p][left - 1]; seat[p] = p;
            }
            for (int i = 1; i < 4; i++)
                for (int j = i; j > 0 && card[j - 1] > card[j]; j--) {
                    int t = card[j]; card[j] = card[j - 1]; card[j - 1] = t;
                    t = seat[j]; seat[j] = seat[j - 1]; seat[j - 1] = t;
                }
            for (int i = 0; i < 4; i++) {
                int v = card[i], best = 1000, target = -1;
                for (int k = 0; k < 4; k++) {
                    int d = v - row[k][len[k] - 1];
                    if (d > 0 && d < best) { best = d; target = k; }
                }
                int take = target < 0;
                if (take) target = below(4); else take = len[target] == 5;
                if (take) {
                    for (int k = 0; k < len[target]; k++) pen[seat[i]] += h[row[target][k]];
                    len[target] = 0;
                }
                row[target][len[target]++] = v;
            }
        }
        total += pen[0] + pen[1] + pen[2] + pen[3];
    }
    double cpu = (double)(clock() - start) / CLOCKS_PER_SEC;
    long peak = 0;
    char line[256];
    FILE *status = fopen("/proc/self/status", "r");
    while (status && fgets(line, sizeof line, status)) sscanf(line, "VmHWM: %ld", &peak);
    if (status) fclose(status);
    printf("%f %ld %ld\n", rounds / cpu, total, peak);
    return 0;
}
"""


def plain_numpy_rounds(rng: np.random.Generator, games: int) -> np.ndarray:
    """The natural numpy batch: the same random rounds, no checks, no tuning."""
    cards = np.arange(1, 105)
    every_card = np.arange(105)
    heads = np.ones(105, dtype=np.int64)
    heads[every_card % 5 == 0] = 2
    heads[every_card % 10 == 0] = 3
    heads[every_card % 11 == 0] = 5
    heads[55], heads[0] = 7, 0
    deck = cards[rng.random((games, 104)).argsort(axis=1)]
    hands = deck[:, :40].reshape(games, PLAYERS, 10).copy()
    rows = np.zeros((games, 4, 5), dtype=np.int64)
    rows[:, :, 0] = deck[:, 40:44]
    lengths = np.ones((games, 4), dtype=np.int64)
    penalties = np.zeros((games, PLAYERS), dtype=np.int64)
    every = np.arange(games)
    for turn in range(10):
        left = 10 - turn
        slots = rng.integers(0, left, (games, PLAYERS))
        played = np.take_along_axis(hands, slots[:, :, None], axis=2)[:, :, 0]
        hands[every[:, None], np.arange(PLAYERS), slots] = hands[:, :, left - 1]
        order = np.argsort(played, axis=1)
        for step in range(PLAYERS):
            seat = order[:, step]
            value = played[every, seat]
            last = rows[every[:, None], np.arange(4), lengths - 1]
            difference = np.where(last < value[:, None], value[:, None] - last, 1000)
            target = difference.argmin(axis=1)
            low = difference.min(axis=1) == 1000
            target[low] = rng.integers(0, 4, low.sum())
            length = lengths[every, target]
            take = low | (length == 5)
            taken = np.where(np.arange(5) < length[:, None], heads[rows[every, target]], 0)
            penalties[every, seat] += np.where(take, taken.sum(axis=1), 0)
            position = np.where(take, 0, length)
            rows[every, target, position] = value
            lengths[every, target] = position + 1
    return penalties


def _status_kb(field: str) -> int:
    """A field of /proc/self/status in KB: VmRSS (resident now) or VmHWM (peak resident).

    The peak of this process's own memory: ``ru_maxrss`` would also count the parent's memory
    at the fork that started it.
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _rss_kb() -> int:
    return _status_kb("VmRSS")


def _reset_peak() -> None:
    """Start this process's peak resident set afresh (Linux: ``5`` to ``/proc/self/clear_refs``).

    Called after the warm-up, so that the peak of the measured batch is its own, not that of
    numba compiling the kernel or numpy loading its modules. Elsewhere nothing is reset, and
    the figure can only be higher.
    """
    clear = Path("/proc/self/clear_refs")
    if clear.exists():
        clear.write_text("5")


def worker(name: str, games: int, minimum: float) -> None:
    """Measure one program in this process; print rate, peak RSS and RSS before the work."""
    rng = np.random.default_rng(games)
    if name == "py6nimmt":
        sys.path.insert(0, str(HERE.parent))
        from bench_engine import py6nimmt

        candidate = py6nimmt(PLAYERS, 100)
        assert candidate is not None
        candidate()  # the warm-up
        whole = _status_kb("VmHWM")
        _reset_peak()
        rates: list[float] = []
        before, start = _rss_kb(), time.process_time()
        while not rates or time.process_time() - start < minimum:
            rates.append(candidate())
        rate = statistics.median(rates)
    elif name == "vector":
        vector = importlib.import_module(_batch_module().__name__ + ".vector")

        # The warm-up: a short game of 64 tables loads the kernel (compiled by numba when it
        # is installed), as the batch's warm-up does.
        state = vector.init(0, 64, PLAYERS)
        for _ in range(4 * PLAYERS):
            state = vector.step(state, state.legal_action_mask.argmax(axis=1))
        state = vector.init(1, games, PLAYERS)
        whole = _status_kb("VmHWM")
        _reset_peak()
        before, steps, start = _rss_kb(), 0, time.process_time()
        while time.process_time() - start < minimum:
            keys = np.where(state.legal_action_mask, rng.random(state.legal_action_mask.shape), -1)
            state = vector.step(state, keys.argmax(axis=1))
            steps += games
        rate = steps / (time.process_time() - start)
    else:
        if name.startswith("take5rules"):
            batch = _batch_module()

            def one() -> None:
                state = batch.deal(rng, games, PLAYERS, keep_piles=False)
                batch.play_round(state, [batch.random_card] * PLAYERS, batch.random_row, rng)

            small = batch.deal(rng, 64, PLAYERS, keep_piles=False)  # compile the kernel first
            batch.play_round(small, [batch.random_card] * PLAYERS, batch.random_row, rng)
        else:

            def one() -> None:
                plain_numpy_rounds(rng, games)

            plain_numpy_rounds(rng, 64)
        whole = _status_kb("VmHWM")
        _reset_peak()
        before, played, start = _rss_kb(), 0, time.process_time()
        while played == 0 or time.process_time() - start < minimum:
            one()
            played += games
        rate = played / (time.process_time() - start)
    peak = _status_kb("VmHWM")
    print(json.dumps({"rate": rate, "peak_kb": max(whole, peak), "batch_peak_kb": peak,
                      "before_kb": before}))


def _batch_module() -> Any:
    """The batch package: ``take5rules.agents.batch``, or ``take5rules.batch`` before 0.5.0."""
    try:
        return importlib.import_module("take5rules.agents.batch")
    except ImportError:
        return importlib.import_module("take5rules.batch")


#: What marks a program run from another checkout: ``name [SRC]``.
AGAINST = " ["


def _run(name: str, games: int, minimum: float, compiled: Path | None) -> dict[str, float]:
    if name == "C":
        assert compiled is not None
        rounds = max(games, 200_000)
        fields = subprocess.run([str(compiled), str(rounds)], capture_output=True, text=True,
                                check=True).stdout.split()
        return {"rate": float(fields[0]), "peak_kb": float(fields[2]),
                "batch_peak_kb": float(fields[2]), "before_kb": float(fields[2])}
    environment = dict(os.environ)
    if name.startswith("take5rules (numpy kernel)"):
        environment["TAKE5RULES_BATCH"] = "numpy"
    name, _, against = name.partition(AGAINST)
    if against:
        environment["PYTHONPATH"] = os.pathsep.join(
            [against.rstrip("]"), *filter(None, [environment.get("PYTHONPATH")])]
        )
    command = [sys.executable, str(HERE), "--worker", name, "--games", str(games),
               "--minimum", str(minimum)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _compile(directory: Path) -> Path | None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    source = directory / "rounds.c"
    source.write_text(C_SOURCE)
    binary = directory / "rounds"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def _header() -> str:
    model = processor()
    try:
        import numba

        fast = f"numba {numba.__version__}"
    except ImportError:
        fast = "numba not installed"
    return (f"commit {commit()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"{platform.machine()} {model}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, numpy {np.__version__}, {fast}")


def main() -> None:
    """Measure every program at every size and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--minimum", type=float, default=1.0,
                        help="CPU seconds each measurement lasts at least")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--quick", action="store_true", help="1k and 10k games, 1 repetition")
    parser.add_argument("--programs", nargs="*", metavar="NAME",
                        help="measure only these programs (take5rules, 'take5rules (numpy "
                             "kernel)', 'plain numpy', C, py6nimmt, vector)")
    parser.add_argument("--against", metavar="SRC",
                        help="also measure the batch of another checkout's src directory, "
                             "interleaved (a before/after in one run)")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/batch.json and the "
                             "printout in batch.txt (a whole run: default sizes, all programs)")
    args = parser.parse_args()
    if args.write and (args.quick or args.programs is not None or args.against
                       or tuple(args.sizes) != SIZES):
        parser.error("--write records a whole run: leave out --quick, --programs, --against "
                     "and --sizes")
    if args.worker:
        worker(args.worker, args.games, args.minimum)
        return
    if args.quick:
        args.sizes, args.repeats, args.minimum = [1_000, 10_000], 1, 0.3
    header = _header()
    printed: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        printed.append(line)

    say(header)
    record: dict[str, Any] = {"rows": []}
    with tempfile.TemporaryDirectory() as directory:
        compiled = _compile(Path(directory))
        if compiled is None:
            say("no C compiler (cc or gcc) on this machine: the C limit is left out")
        names = ["take5rules", "take5rules (numpy kernel)", "plain numpy"]
        if compiled is not None:
            names.append("C")
        if importlib.util.find_spec("py6Nimmt") is not None:
            names.append("py6nimmt")
        else:
            say("py6nimmt is not installed (pip install py6nimmt==0.1.2): it is left out")
        if args.against:
            twins = [f"{name}{AGAINST}{args.against}]" for name in names
                     if name.startswith("take5rules")]
            names = [*names[:2], *twins, *names[2:]]
        if args.programs is not None:
            names = [name for name in names if name.partition(AGAINST)[0] in args.programs]
        for games in args.sizes:
            samples: dict[str, list[dict[str, float]]] = {name: [] for name in names}
            # A million games of the plain numpy batch take about 6 GB: one repetition there.
            heavy = games >= 1_000_000 and "plain numpy" in names
            for repetition in range(1 if heavy else args.repeats):
                shift = repetition % len(names)
                for name in names[shift:] + names[:shift]:
                    samples[name].append(_run(name, games, args.minimum, compiled))
            rates = {name: statistics.median(s["rate"] for s in samples[name]) for name in names}
            say(f"\nrandom {PLAYERS}-player rounds, batches of {games:,}:")
            row: dict[str, float] = {"games": games}
            width = max(28, *(len(name) for name in names))
            for name in names:
                peak = max(s["peak_kb"] for s in samples[name])
                per_game = statistics.median(
                    (s["batch_peak_kb"] - s["before_kb"]) * 1024 / games for s in samples[name]
                )
                line = (f"  {name:<{width}} {rates[name]:>12,.0f} rounds/CPU-s   peak RSS "
                        f"{peak / 1024:>7,.0f} MB")
                if name not in ("C", "py6nimmt"):
                    line += f", {per_game:>6,.0f} B/game in flight"
                if name.startswith("take5rules"):
                    twin = f"{name}{AGAINST}{args.against}]"
                    if twin in rates:
                        line += f" | vs [{args.against}] {rates[name] / rates[twin]:.2f}x"
                    if "plain numpy" in rates:
                        line += f" | vs plain numpy {rates[name] / rates['plain numpy']:.2f}x"
                    if "C" in rates:
                        line += f" | vs C limit {rates[name] / rates['C']:.2f}x"
                    if "py6nimmt" in rates:
                        line += f" | vs py6nimmt {rates[name] / rates['py6nimmt']:,.0f}x"
                say(line)
                key = _KEYS.get(name)
                if key is not None:
                    row[key] = round(rates[name])
                    if name == "take5rules":
                        row["peak_rss_mb"] = round(peak / 1024)
                        row["bytes_a_game"] = round(per_game)
                    elif name == "plain numpy":
                        row["plain_numpy_peak_rss_mb"] = round(peak / 1024)
                        row["plain_numpy_bytes_a_game"] = round(per_game)
                    elif name == "C":
                        row["c_peak_rss_mb"] = round(peak / 1024)
            for key, peer in (("vs_plain_numpy", "plain_numpy"), ("vs_c", "c")):
                if peer in row:
                    row[key] = round(row["take5rules"] / row[peer], 2)
            if "py6nimmt" in row:
                row["vs_py6nimmt"] = round(row["take5rules"] / row["py6nimmt"])
            record["rows"].append(row)
        if args.programs is not None and "vector" not in args.programs:
            return
        sources = [""] + ([f"{AGAINST}{args.against}]"] if args.against else [])
        steps: dict[str, list[float]] = {source: [] for source in sources}
        for repetition in range(args.repeats):
            for source in sources[repetition % 2 :] + sources[: repetition % 2]:
                steps[source].append(_run(f"vector{source}", 1_000, args.minimum, None)["rate"])
        for source in sources:
            say(f"\ntake5rules.batch.vector (Pgx-style){source}, batch of 1,000, random legal "
                f"actions: {statistics.median(steps[source]):,.0f} steps/CPU-s")
        record["vector_steps_per_cpu_second"] = round(statistics.median(steps[""]))
    if args.write:
        _write(header, record, printed)


#: The key of each program's rate in ``batch.json``'s rows.
_KEYS = {"take5rules": "take5rules", "take5rules (numpy kernel)": "numpy_kernel",
         "plain numpy": "plain_numpy", "C": "c", "py6nimmt": "py6nimmt"}


def _write(header: str, record: dict[str, Any], printed: list[str]) -> None:
    """Save *record* as ``batch.json`` and the printout as ``batch.txt``, from this one run."""
    save("batch", "bench_batch.py", {
        "numpy": np.__version__, "accelerator": header.rsplit(", ", 1)[1], **record,
    }, what="its whole output is batch.txt.")
    (RESULTS / "batch.txt").write_text("\n".join(printed) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
