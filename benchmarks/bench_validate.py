"""Validator benchmark: turns checked per CPU-second and peak memory, against ``json.load``.

The logs are written first, in a temporary folder, by the engine (four seats: random, lowest,
cautious, random, every claim included, as ``take5rules play --log`` writes them):

* one long valid log of ``--turns`` turns (default 40,000: 4,000 rounds of a game whose
  threshold is never reached, so a game in progress), and one a quarter as long, to show the
  rate does not depend on the length;
* ``--files`` finished games (default 1,000, threshold 66, one seed each).

Candidates, each measured on the same bytes, in rotating order, median of ``--repeats``:

* ``validate_file``: what ``take5rules validate FILE`` runs,
  :func:`take5rules.logs.validator.validate_file`, reading the file incrementally, checking its
  shape
  and replaying every rule;
* ``validate(json.load)``: the whole-document API, :func:`take5rules.logs.validator.validate` on the
  parsed file (parse included);
* peer ``tight checker``: :func:`tight_check`, an independent minimal checker written here,
  the floor any Python validator of the format can reach: it parses the file with
  ``json.load``, checks the deal (distinct cards 1 to 104, ten in each player's hand, four rows
  of one) and replays every turn with one scan of the rows, checking that each card was in
  its hand and every claim (``takes``, ``rows_after``, ``taken``, the penalties, the totals and
  the winners); it names no rule and no place, and stops at the first problem;
* peer ``json.load``: parsing the same file with the standard library and nothing else, the
  floor of any validator that reads JSON in Python.

Peak memory is measured with :mod:`tracemalloc` on the long log, for ``validate_file`` (the
stream: one round at a time) and ``json.load`` (the whole document), outside the timed runs.
Rates are per CPU-second of this process. Run ``python benchmarks/bench_validate.py``
(``--quick`` for a short run).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Row, cpu_rate, interleaved, print_rows, save

from take5rules.events import RoundStarted
from take5rules.logs.format import dumps
from take5rules.logs.validator import validate, validate_file
from take5rules.logs.writer import LogWriter
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from take5rules.variants import Rules

Candidate = Callable[[], float]


def _seats(seed: int) -> dict[str, Player]:
    return {"ana": RandomPlayer(seed), "bob": LowestCardPlayer(), "cyd": CautiousPlayer(),
            "dan": RandomPlayer(seed + 1)}


def long_log(rounds: int, path: Path) -> int:
    """Write the log of the first *rounds* rounds of an endless game; its turns."""
    writer = LogWriter()
    started = 0
    for event in play_game(_seats(1), Rules(threshold=10**9), seed=1):
        if isinstance(event, RoundStarted):
            started += 1
            if started > rounds:
                break
        writer.add(event)
    log = writer.log()
    path.write_text(dumps(log) + "\n", encoding="utf-8")
    return sum(len(entry["turns"]) for entry in log["rounds"])


def finished_logs(count: int, folder: Path) -> tuple[list[Path], int]:
    """Write *count* finished games; their paths and their turns in all."""
    paths: list[Path] = []
    turns = 0
    for seed in range(count):
        writer = LogWriter()
        for event in play_game(_seats(seed), seed=seed):
            writer.add(event)
        log = writer.log()
        turns += sum(len(entry["turns"]) for entry in log["rounds"])
        path = folder / f"game-{seed:04d}.json"
        path.write_text(dumps(log) + "\n", encoding="utf-8")
        paths.append(path)
    return paths, turns


def streamed(paths: list[Path], turns: int) -> Candidate:
    """Each file checked by :func:`validate_file`, as the command does."""
    def run() -> float:
        def work() -> int:
            for path in paths:
                report = validate_file(str(path))
                assert report.valid
            return turns
        return cpu_rate(work)
    return run


def whole(paths: list[Path], turns: int) -> Candidate:
    """Each file parsed whole by ``json.load``, then checked by :func:`validate`."""
    def run() -> float:
        def work() -> int:
            for path in paths:
                with path.open("rb") as handle:
                    report = validate(json.load(handle))
                assert report.valid
            return turns
        return cpu_rate(work)
    return run


def parse_only(paths: list[Path], turns: int) -> Candidate:
    """The peer: each file parsed by ``json.load``, nothing else."""
    def run() -> float:
        def work() -> int:
            for path in paths:
                with path.open("rb") as handle:
                    json.load(handle)
            return turns
        return cpu_rate(work)
    return run


def _heads(value: int) -> int:
    """The bull heads of *value*, from the rulebook (written here, not taken from the package)."""
    if value == 55:
        return 7
    if value % 11 == 0:
        return 5
    if value % 10 == 0:
        return 3
    if value % 5 == 0:
        return 2
    return 1


_TIGHT_HEADS = [0] + [_heads(value) for value in range(1, 105)]
_DECK = frozenset(range(1, 105))


def _tight_round(entry: dict[str, Any], players: list[str]) -> list[int] | None:
    """One standard round checked as tightly as Python allows: each seat's penalty, or None."""
    rows = entry["rows"]
    hands = entry["hands"]
    if len(rows) != 4 or hands.keys() != set(players) or "draft" in entry:
        return None
    seen: set[int] = set()
    for row in rows:
        if len(row) != 1:
            return None
        seen.add(row[0])
    held: dict[str, set[int]] = {}
    for player in players:
        hand = hands[player]
        cards = set(hand)
        if len(hand) != 10 or len(cards) != 10:
            return None
        seen |= cards
        held[player] = cards
    if len(seen) != 4 + 10 * len(players) or not seen <= _DECK \
            or any(type(value) is not int for value in seen):
        return None
    heads = _TIGHT_HEADS
    rows = [list(row) for row in rows]
    piles = dict.fromkeys(players, 0)
    turns = entry["turns"]
    if len(turns) > 10:
        return None
    for turn in turns:
        plays = turn["plays"]
        if plays.keys() != held.keys():
            return None
        takes = turn.get("takes") or {}
        taken: dict[str, list[int]] = {}
        lows = 0
        for value, player in sorted((value, player) for player, value in plays.items()):
            if value not in held[player]:
                return None
            held[player].discard(value)
            best = -1
            top = 0
            for index, row in enumerate(rows):
                last = row[-1]
                if top < last < value:
                    best, top = index, last
            if best < 0:
                best = takes.get(player, -1)
                if type(best) is not int or not 0 <= best < 4:
                    return None
                lows += 1
            elif len(rows[best]) < 5:
                rows[best].append(value)
                continue
            piles[player] += sum(heads[card] for card in rows[best])
            taken.setdefault(player, []).extend(rows[best])
            rows[best] = [value]
        if lows != len(takes):
            return None
        if "rows_after" in turn and turn["rows_after"] != rows:
            return None
        if "taken" in turn:
            if not turn["taken"].keys() <= held.keys():
                return None
            claimed = {player: sorted(cards) for player, cards in turn["taken"].items() if cards}
            if claimed != {player: sorted(cards) for player, cards in taken.items()}:
                return None
    penalties = [piles[player] for player in players]
    if "penalties" in entry and len(turns) == 10 \
            and [entry["penalties"].get(player) for player in players] != penalties:
        return None
    return penalties


def tight_check(log: Any) -> bool:
    """Whether the standard-variant *log* is valid, checked as tightly as Python allows.

    The peer of the benchmark, independent of the package: the rules of the standard game
    (each card placed on the row ending closest below it, a sixth card or a low card taking its
    row, penalties summed, the game over when a total reaches the threshold), written here once
    more in the fewest steps. It checks what :func:`validate` checks of a standard log that
    breaks no rule, but names no rule and stops at the first problem.
    """
    if log.get("format") != "take5-log" or log.get("version") != 1 \
            or log.get("variant", "standard") != "standard":
        return False
    players = log["players"]
    threshold = log.get("threshold", 66)
    if not 2 <= len(players) <= 10 or len(set(players)) != len(players):
        return False
    totals = [0] * len(players)
    rounds = log["rounds"]
    over = False
    for number, entry in enumerate(rounds, start=1):
        if over:
            return False
        penalties = _tight_round(entry, players)
        if penalties is None:
            return False
        if len(entry["turns"]) < 10:
            if number != len(rounds):
                return False
            break
        totals = [total + penalty for total, penalty in zip(totals, penalties, strict=True)]
        over = max(totals) >= threshold
    if "totals" in log and log["totals"] != dict(zip(players, totals, strict=True)):
        return False
    if "winners" in log:
        least = min(totals)
        won = [player for player, total in zip(players, totals, strict=True) if total == least]
        if not over or log["winners"] != won:
            return False
    return True


def tight(paths: list[Path], turns: int) -> Candidate:
    """The peer: each file parsed by ``json.load`` and checked by :func:`tight_check`."""
    def run() -> float:
        def work() -> int:
            for path in paths:
                with path.open("rb") as handle:
                    valid = tight_check(json.load(handle))
                assert valid
            return turns
        return cpu_rate(work)
    return run


def peak_megabytes(job: Callable[[], object]) -> float:
    """The peak of memory traced while *job* runs, in MB."""
    tracemalloc.start()
    try:
        job()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def _load(path: Path) -> object:
    with path.open("rb") as handle:
        return json.load(handle)


def main() -> None:
    """Write the logs, measure, print one row per job and the peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--turns", type=int, default=40_000)
    parser.add_argument("--files", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="4,000 turns, 100 files, 3 runs")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/validate.json")
    args = parser.parse_args()
    if args.quick:
        args.turns, args.files, args.repeats = 4_000, 100, 3
    print(f"{os.cpu_count()} cores; Python {sys.version.split()[0]}; rates per CPU-second, "
          f"median of {args.repeats} interleaved runs", flush=True)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        rounds = max(args.turns // 10, 1)
        long_path, quarter_path = folder / "long.json", folder / "quarter.json"
        long_turns = long_log(rounds, long_path)
        quarter_turns = long_log(max(rounds // 4, 1), quarter_path)
        files, file_turns = finished_logs(args.files, folder)
        size = long_path.stat().st_size / 1e6
        print(f"long log: {long_turns:,} turns, {size:.1f} MB; "
              f"{args.files:,} finished games: {file_turns:,} turns", flush=True)
        rows: list[Row] = []
        saved: list[dict[str, Any]] = []
        for key, (job, paths, turns) in zip(("validate-stream", "validate-quarter",
                                             "validate-games"), (
            (f"validate, one {long_turns:,}-turn log", [long_path], long_turns),
            (f"validate, one {quarter_turns:,}-turn log", [quarter_path], quarter_turns),
            (f"validate, {args.files:,} logs", files, file_turns),
        ), strict=True):
            rates = interleaved(
                {
                    "validate_file": streamed(paths, turns),
                    "validate(json.load)": whole(paths, turns),
                    "tight checker": tight(paths, turns),
                    "json.load": parse_only(paths, turns),
                },
                args.repeats,
            )
            peers = {"tight checker": rates["tight checker"], "json.load": rates["json.load"]}
            rows.append(Row(job, "turns/s", rates["validate_file"], peers))
            rows.append(Row(f"{job}, whole document", "turns/s", rates["validate(json.load)"],
                            peers))
            print_rows(rows[-2:])
            saved.append({"job": key, "size": args.files if key == "validate-games" else turns,
                          "turns": turns, "rate": round(rates["validate_file"]),
                          "whole_rate": round(rates["validate(json.load)"]), "unit": "turns",
                          "peer": "tight", "peer_rate": round(rates["tight checker"]),
                          "json_load_rate": round(rates["json.load"])})
        streamed_peak = peak_megabytes(lambda: validate_file(str(long_path)))
        parsed_peak = peak_megabytes(lambda: _load(long_path))
        whole_peak = peak_megabytes(lambda: validate(_load(long_path)))
        quarter_peak = peak_megabytes(lambda: validate_file(str(quarter_path)))
        print(f"peak memory, {long_turns:,}-turn log: validate_file {streamed_peak:.2f} MB "
              f"({quarter_turns:,} turns: {quarter_peak:.2f} MB) | validate(json.load) "
              f"{whole_peak:.1f} MB | json.load {parsed_peak:.1f} MB (us/them "
              f"{streamed_peak / parsed_peak:.3f}x)", flush=True)
        if args.write:  # the quarter log shows the rate does not hang on the length: kept out
            save("validate", "bench_validate.py", {
                "repeats": args.repeats,
                "rows": [row for row in saved if row["job"] != "validate-quarter"],
                "quarter": next(row for row in saved if row["job"] == "validate-quarter"),
                "validate_peak_mb": round(streamed_peak, 2),
                "quarter_peak_mb": round(quarter_peak, 2),
                "json_load_peak_mb": round(parsed_peak, 1),
                "whole_peak_mb": round(whole_peak, 1),
            })


if __name__ == "__main__":
    main()
