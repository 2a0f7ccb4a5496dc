"""The take5-player protocol's overhead: CPU ms a move of ``cautious`` served as a program.

Run: ``.venv/bin/python benchmarks/bench_protocol.py [--games 20] [--repeats 7] [--write]``
(``--quick``: 5 games, 3 repetitions).

Both candidates play the same games: one table of four, ``cautious`` in seat 0 and three
``lowest`` players, whole games of seeds 0 to *games* - 1 through
:func:`take5rules.playing.engine.play_game` (as the arena plays them):

* ``in process``: seat 0 is :class:`~take5rules.playing.players.CautiousPlayer`;
* ``program``: seat 0 is a :class:`~take5rules.playing.program_player.ProgramPlayer` of
  ``take5rules player cautious`` (``python -m take5rules player cautious``), started once for
  the games, told every event its seat may see and asked every decision over the protocol.

A move is one decision of seat 0 (a card, or a low card's row), counted once beforehand. The
CPU time is this process's (the table: engine, opponents, messages written and read) plus the
program's, read from ``resource.getrusage(RUSAGE_CHILDREN)`` after it has exited, less the CPU
of the program's start (an interpreter and its imports, a ``hello``, a ``quit``: measured
alone in the same repetitions, and printed apart), so that the figure is the cost of a move.
The served player's games are checked equal to the in-process ones first. Interleaved
repetitions, medians (see ``_harness.py``). ``--write`` saves the figures as
``benchmarks/results/protocol.json``.

A benchmark, not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import interleaved, save

from take5rules.events import GameOver
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player
from take5rules.playing.program_player import ProgramPlayer

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "protocol.json"
COMMAND = (sys.executable, "-m", "take5rules", "player", "cautious")
OPPONENTS = 3


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _play(seat: Player, games: int) -> list[dict[str, int]]:
    """Every game's final totals, with *seat* in seat 0 and ``lowest`` players beside it."""
    totals = []
    for seed in range(games):
        seats: dict[str, Any] = {"seat": seat}
        seats.update((f"lowest{index}", LowestCardPlayer()) for index in range(OPPONENTS))
        *_, over = play_game(seats, seed=seed)
        assert isinstance(over, GameOver)
        totals.append(dict(over.totals))
    return totals


class _Counting(CautiousPlayer):
    """A cautious player that counts its decisions."""

    moves = 0

    def choose_card(self, view: Any) -> int:
        self.moves += 1
        return super().choose_card(view)

    def choose_row(self, choice: Any) -> int:
        self.moves += 1
        return super().choose_row(choice)


def in_process(games: int, moves: int) -> Callable[[], float]:
    """Moves per CPU-second of the table with an in-process ``cautious``."""

    def run() -> float:
        start = time.process_time()
        _play(CautiousPlayer(), games)
        return moves / max(time.process_time() - start, 1e-9)

    return run


def program(games: int, moves: int, parts: dict[str, list[float]]) -> Callable[[], float]:
    """Moves per CPU-second (table + program, its start included) with the served ``cautious``.

    Each repetition's table and program CPU seconds go into *parts*: the figures are made from
    them once the program's start has been measured.
    """

    def run() -> float:
        table, child = time.process_time(), _children_cpu()
        with ProgramPlayer(list(COMMAND)) as player:
            _play(player, games)
        table, child = time.process_time() - table, _children_cpu() - child
        parts["table"].append(table)
        parts["child"].append(child)
        return moves / max(table + child, 1e-9)

    return run


def start_only(startup: list[float]) -> Callable[[], float]:
    """Starts per CPU-second of the program alone: started, ``hello`` answered, ``quit``."""
    lines = json.dumps({"type": "hello", "protocol": 1, "table": "bench"}) + "\n"
    lines += json.dumps({"type": "quit"}) + "\n"

    def run() -> float:
        before = _children_cpu()
        subprocess.run(COMMAND, input=lines, capture_output=True, text=True, check=True)
        spent = _children_cpu() - before
        startup.append(spent)
        return 1 / max(spent, 1e-9)

    return run


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main(argv: list[str] | None = None) -> int:
    """Measure, print, and with ``--write`` save the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games per measurement (20)")
    parser.add_argument("--repeats", type=int, default=None, help="measured repetitions (7)")
    parser.add_argument("--quick", action="store_true", help="5 games, 3 repetitions")
    parser.add_argument("--write", action="store_true",
                        help="save benchmarks/results/protocol.json")
    args = parser.parse_args(argv)
    args.games = args.games or (5 if args.quick else 20)
    args.repeats = args.repeats or (3 if args.quick else 7)
    counting = _Counting()
    expected = _play(counting, args.games)
    moves = counting.moves
    with ProgramPlayer(list(COMMAND)) as served:
        same = _play(served, args.games) == expected
    print(f"{args.games} games of 4 players, {moves} moves of the seat measured; the served "
          f"player's games equal the in-process ones: {'yes' if same else 'NO'}", flush=True)
    startup: list[float] = []
    parts: dict[str, list[float]] = {"table": [], "child": []}
    rates = interleaved({"start": start_only(startup),
                         "in process": in_process(args.games, moves),
                         "program": program(args.games, moves, parts)}, args.repeats)
    start = _median(startup[1:])  # the first repetition warms up, as in interleaved
    table, child = parts["table"][1:], parts["child"][1:]
    figures = {
        "in_process_ms_per_move": 1000 / rates["in process"],
        "program_ms_per_move": 1000 * _median(
            [t + max(c - start, 0.0) for t, c in zip(table, child, strict=True)]) / moves,
        "program_table_ms_per_move": 1000 * _median(table) / moves,
        "program_child_ms_per_move": 1000 * _median([max(c - start, 0.0) for c in child]) / moves,
        "program_start_ms": 1000 * start,
    }
    figures["overhead_ms_per_move"] = (figures["program_ms_per_move"]
                                       - figures["in_process_ms_per_move"])
    print(f"in process      {figures['in_process_ms_per_move']:8.3f} CPU ms a move (the table)")
    print(f"program         {figures['program_ms_per_move']:8.3f} CPU ms a move "
          f"(table {figures['program_table_ms_per_move']:.3f} + program "
          f"{figures['program_child_ms_per_move']:.3f})")
    print(f"overhead        {figures['overhead_ms_per_move']:8.3f} CPU ms a move "
          f"({figures['program_ms_per_move'] / figures['in_process_ms_per_move']:.1f}x)")
    print(f"program start   {figures['program_start_ms']:8.1f} CPU ms once (interpreter, "
          "imports, hello, quit)", flush=True)
    if args.write:
        save("protocol", "bench_protocol.py", {
            "games": args.games, "moves": moves, "repeats": args.repeats, "same_games": same,
            **{key: round(value, 4) for key, value in figures.items()},
        }, what=f"CPU ms a move of seat 0 (cautious) at a table of 4 with 3 lowest, "
                f"{args.games} games, medians of {args.repeats} interleaved repetitions; the "
                "program's start left out of its moves and given apart.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
