"""The arena's memory per game and its report's time: the compact outcomes against the old dicts.

Run: ``.venv/bin/python benchmarks/bench_arena.py`` (``--quick`` for a short run;
``--before REF`` names the commit measured as "before", by default ``627e6d4``, the last
commit whose arena kept every game's outcome as dicts and tuples).

Two programs, each in a fresh process for every measurement (so that a peak is its own): the
arena of this checkout ("after") and that of *REF* ("before"), whose ``src`` is exported with
``git archive`` into a temporary directory and put first on ``PYTHONPATH``. Repetitions are
interleaved (each runs both programs, in rotating order) and the medians are printed.

* Memory: ``run_arena`` with four ``random`` players (seed 1, duplicate deals) at 2,000 and
  20,000 games, as ``take5rules arena random random random random --games N --jobs 1`` plays
  them. Memory per game is the peak resident set of the run (``VmHWM`` of ``/proc/self/status``,
  started afresh after a warm-up arena of 8 games) minus the resident set before it, over the
  games. CPU seconds of the run are printed too.
* Time: the standings and the ladder's report (:func:`take5rules.agents.ladder.report`) over 10,000,
  100,000 and 1,000,000 synthetic games: the outcomes of 1,000 real games of four ``random``
  players (:func:`take5rules.playing.engine.play_game`), drawn with replacement with a fixed seed.
  The
  "before" program holds them as the old arena did (a dict of totals, a tuple of winners, a
  tuple of round dicts a game, fresh for every game); "after" records them in the compact
  columns, as ``run_arena`` does. CPU seconds of the standings plus the report, and the peak
  resident set of the whole process. One repetition at a million games.

The figures come with the commit, the date and the machine. This is a script, not a test:
nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
SEATS = ("random", "random#2", "random#3", "random#4")
BEFORE = "627e6d4"
PLAY_SIZES = (2_000, 20_000)
REPORT_SIZES = (10_000, 100_000, 1_000_000)
POOL = 1_000


def _status_kb(field: str) -> int:
    """VmRSS (resident now) or VmHWM (peak resident) of this process, in KB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def _reset_peak() -> None:
    """Start the peak resident set afresh (Linux: ``5`` to ``/proc/self/clear_refs``)."""
    Path("/proc/self/clear_refs").write_text("5")


def _play(games: int) -> dict[str, Any]:
    """In a worker: one arena of four random players, its memory and CPU time."""
    from take5rules.agents.arena import run_arena

    run_arena(["random"] * 4, games=8, seed=1)  # the warm-up: imports, first allocations
    before = _status_kb("VmRSS")
    _reset_peak()
    start = time.process_time()
    result = run_arena(["random"] * 4, games=games, seed=1)
    cpu = time.process_time() - start
    peak = _status_kb("VmHWM")
    assert len(result.standings) == 4
    return {"per_game": (peak - before) * 1024 / games, "peak_mb": peak / 1024, "cpu": cpu}


def _synthetic(pool_path: str, games: int) -> list[tuple[list[int], int, list[list[int]]]]:
    """*games* outcomes drawn with replacement from the pool (totals, winners mask, rounds)."""
    pool = json.loads(Path(pool_path).read_text())
    rng = random.Random(games)
    return [pool[rng.randrange(len(pool))] for _ in range(games)]


def _report_before(drawn: list[tuple[list[int], int, list[list[int]]]]) -> tuple[Any, Any]:
    """The old layout: a dict of totals, a tuple of winners, a tuple of round dicts a game."""
    from take5rules.agents.arena import ArenaResult, standings
    from take5rules.variants import Rules

    totals = tuple(dict(zip(SEATS, game_totals, strict=True)) for game_totals, _, _ in drawn)
    winners = tuple(tuple(seat for index, seat in enumerate(SEATS) if mask >> index & 1)
                    for _, mask, _ in drawn)
    rounds = tuple(tuple(dict(zip(SEATS, row, strict=True)) for row in game_rounds)
                   for _, _, game_rounds in drawn)
    del drawn[:]
    start = time.process_time()
    table = standings(SEATS, ["random"] * 4, totals, winners)
    result = ArenaResult(Rules(), 1, totals, winners, table, rounds, True)
    return result.report(), start


def _report_after(drawn: list[tuple[list[int], int, list[list[int]]]]) -> tuple[Any, Any]:
    """The compact columns, filled as ``run_arena`` fills them."""
    from take5rules.agents.arena import ArenaResult, standings_of
    from take5rules.agents.arena_store import Outcomes
    from take5rules.variants import Rules

    outcomes = Outcomes(SEATS, len(drawn))
    for game, (game_totals, mask, game_rounds) in enumerate(drawn):
        outcomes.record((game, (0, 1, 2, 3), tuple(game_totals), mask,
                         tuple(value for row in game_rounds for value in row)))
    del drawn[:]
    start = time.process_time()
    result = ArenaResult.of(Rules(), 1, outcomes, standings_of(outcomes, ["random"] * 4), True)
    return result.report(), start


def _report(program: str, pool_path: str, games: int) -> dict[str, Any]:
    """In a worker: the standings and the report of *games* synthetic games."""
    drawn = _synthetic(pool_path, games)
    report, start = (_report_before if program == "before" else _report_after)(drawn)
    cpu = time.process_time() - start
    return {"cpu": cpu, "peak_mb": _status_kb("VmHWM") / 1024, "report": report.to_json()}


def _pool(path: Path) -> None:
    """The outcomes of POOL real games of four random players, in seat order."""
    from take5rules.events import GameOver, RoundScored
    from take5rules.playing.engine import play_game
    from take5rules.playing.players import RandomPlayer

    games = []
    for game in range(POOL):
        seats = {seat: RandomPlayer(game * 10 + index) for index, seat in enumerate(SEATS)}
        rounds: list[list[int]] = []
        mask, totals = 0, [0] * 4
        for event in play_game(seats, None, game):
            if isinstance(event, RoundScored):
                rounds.append([event.penalties[seat] for seat in SEATS])
            elif isinstance(event, GameOver):
                totals = [event.totals[seat] for seat in SEATS]
                mask = sum(1 << index for index, seat in enumerate(SEATS)
                           if seat in event.winners)
        games.append((totals, mask, rounds))
    path.write_text(json.dumps(games))


def _run(source: Path, *arguments: str) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run([sys.executable, str(HERE), "--worker", *arguments],
                          capture_output=True, text=True, check=True, env=environment)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def _export(reference: str, directory: Path) -> Path:
    """The ``src`` of *reference*, exported into *directory*."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", reference, "src"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    return directory / "src"


def _commit(reference: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", reference],
                          capture_output=True, text=True).stdout.strip() or "unknown"


def _header() -> str:
    model = "unknown cpu"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return (f"commit {_commit('HEAD')}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"{platform.machine()} {model}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}")


def _interleaved(programs: dict[str, Path], repeats: int,
                 *arguments: str) -> dict[str, list[dict[str, Any]]]:
    names = list(programs)
    samples: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for repetition in range(repeats):
        shift = repetition % len(names)
        for name in names[shift:] + names[:shift]:
            samples[name].append(_run(programs[name], *arguments, name))
    return samples


def _median(samples: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(sample[key] for sample in samples))


def _rating_shift(before: dict[str, Any], after: dict[str, Any]) -> tuple[float, float]:
    """The largest difference of a point figure, and of a rating interval's bound, in the two."""
    points, bounds = 0.0, 0.0
    old = {rating["player"]: rating for rating in before["ratings"]}
    for rating in after["ratings"]:
        was = old[rating["player"]]
        for key in ("per_deal", "per_game", "deal_wins", "game_wins", "elo"):
            points = max(points, abs(rating[key] - was[key]))
        for key in ("deal_difference", "game_difference"):
            points = max(points, *(abs(a - b) for a, b in zip(rating[key], was[key],
                                                              strict=True)))
        bounds = max(bounds, *(abs(a - b) for a, b in zip(rating["elo_interval_95"],
                                                          was["elo_interval_95"], strict=True)))
    return points, bounds


def main() -> None:
    """Measure both programs (or, with ``--worker``, one measurement in this process)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and sizes")
    parser.add_argument("--before", default=BEFORE, help="the commit measured as before")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        kind, *rest = options.worker
        figures = (_play(int(rest[0])) if kind == "play"
                   else _report(rest[2], rest[0], int(rest[1])))
        print(json.dumps(figures))
        return
    print(_header())
    print(f"before: {options.before} ({_commit(options.before)}), after: this checkout",
          flush=True)
    repeats = 1 if options.quick else 3
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        programs = {"before": _export(options.before, directory / "before"),
                    "after": ROOT / "src"}
        print("\nrun_arena, four random players, --jobs 1: memory per game in flight")
        for games in PLAY_SIZES[:1] if options.quick else PLAY_SIZES:
            samples = _interleaved(programs, repeats, "play", str(games))
            old, new = (_median(samples[name], "per_game") for name in ("before", "after"))
            print(f"{games:>9,} games: before {old:8,.0f} B a game "
                  f"(peak {_median(samples['before'], 'peak_mb'):6.1f} MB, "
                  f"{_median(samples['before'], 'cpu'):5.1f} CPU s) | after {new:6,.0f} B a game "
                  f"(peak {_median(samples['after'], 'peak_mb'):6.1f} MB, "
                  f"{_median(samples['after'], 'cpu'):5.1f} CPU s) | "
                  f"before/after {old / new:5.1f}x", flush=True)
        pool = directory / "pool.json"
        _pool(pool)
        print(f"\nstandings + report of synthetic games (outcomes of {POOL:,} real games of "
              "four random players, drawn with replacement): CPU seconds")
        for games in REPORT_SIZES[:2] if options.quick else REPORT_SIZES:
            samples = _interleaved(programs, 1 if games >= 10**6 else repeats, "report",
                                   str(pool), str(games))
            old, new = (_median(samples[name], "cpu") for name in ("before", "after"))
            points, bounds = _rating_shift(samples["before"][0]["report"],
                                           samples["after"][0]["report"])
            print(f"{games:>9,} games: before {old:7.2f} s "
                  f"(peak {_median(samples['before'], 'peak_mb'):7.1f} MB) | after {new:6.2f} s "
                  f"(peak {_median(samples['after'], 'peak_mb'):6.1f} MB) | "
                  f"before/after {old / new:5.1f}x | largest change: point figures "
                  f"{points:.2g}, rating interval bounds {bounds:.2f} Elo", flush=True)


if __name__ == "__main__":
    main()
