"""Referee turns per second over a pipe: ``take5rules referee`` against a minimal referee.

Run: ``.venv/bin/python benchmarks/bench_referee.py [--turns 50000] [--repeats 5]``.

Both referees are started as programs and fed the same random valid turns
(:func:`take5rules.conformance.random_turns.random_request`, seed 1) on stdin; the rate is turns
answered
once the program is running (one request is answered first, so start-up is not counted), per
wall-clock second and per CPU-second of the referee process (the honest figure on a shared,
loaded machine). The peer, :data:`MINIMAL_REFEREE`, is an independent minimal referee written
here without take5rules: it parses each line, checks what a referee must check (four rows of one
to five ascending cards 1..104, 1 to 10 plays with distinct player ids and cards, each card once,
row choices 0..3) and places the cards lowest first. Its replies are checked equal to ours
before timing. Interleaved repetitions, medians (see ``_harness.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from _harness import Row, interleaved, print_rows, save

from take5rules.conformance.random_turns import random_request

#: An independent referee of about a hundred lines: the peer.
MINIMAL_REFEREE = r'''
import json, sys

def fail(rule, message):
    return {"error": {"rule": rule, "message": message}}

def is_card(value):
    return type(value) is int and 1 <= value <= 104

def resolve(request):
    if type(request) is not dict or not {"rows", "plays"} <= request.keys() \
            or not request.keys() <= {"rows", "plays", "choices"}:
        return fail("protocol", "bad request")
    rows, plays, choices = request["rows"], request["plays"], request.get("choices", {})
    if type(rows) is not list or len(rows) != 4:
        return fail("setup.deal", "four rows")
    seen = set()
    for row in rows:
        if type(row) is not list or not 1 <= len(row) <= 5:
            return fail("table.sixth-card", "row length")
        for position, value in enumerate(row):
            if not is_card(value) or value in seen:
                return fail("cards.deck", "card")
            if position and row[position - 1] >= value:
                return fail("table.ascending", "ascending")
            seen.add(value)
    if type(plays) is not list or not 1 <= len(plays) <= 10:
        return fail("protocol", "plays")
    players = set()
    for pair in plays:
        if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str \
                or pair[0] in players:
            return fail("protocol", "play")
        if not is_card(pair[1]) or pair[1] in seen:
            return fail("cards.deck", "card")
        players.add(pair[0])
        seen.add(pair[1])
    if type(choices) is not dict:
        return fail("protocol", "choices")
    for player, index in choices.items():
        if player not in players or type(index) is not int or not 0 <= index <= 3:
            return fail("protocol", "choice")
    rows = [list(row) for row in rows]
    taken, chosen = {}, {}
    for player, value in sorted(plays, key=lambda pair: pair[1]):
        best = None
        for index, row in enumerate(rows):
            if row[-1] < value and (best is None or row[-1] > rows[best][-1]):
                best = index
        if best is None:
            if player not in choices:
                return fail("table.low-card", "no choice")
            best = chosen[player] = choices[player]
            taken.setdefault(player, []).extend(rows[best])
            rows[best] = [value]
        elif len(rows[best]) == 5:
            taken.setdefault(player, []).extend(rows[best])
            rows[best] = [value]
        else:
            rows[best].append(value)
    return {"rows": rows, "taken": taken, "chosen": chosen}

for line in sys.stdin:
    if line.strip():
        try:
            reply = resolve(json.loads(line))
        except ValueError:
            reply = fail("protocol", "not JSON")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
'''

OURS = [sys.executable, "-m", "take5rules", "referee"]
PEER = [sys.executable, "-c", MINIMAL_REFEREE]


def replies(command: list[str], requests: Path) -> list[object]:
    """Every reply of *command* to the lines of *requests*, parsed."""
    with requests.open("rb") as stdin:
        done = subprocess.run(command, stdin=stdin, capture_output=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process *pid* has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def over_a_pipe(command: list[str], payload: bytes, turns: int,
                cpu_rates: list[float]) -> Callable[[], float]:
    """A candidate: start *command*, wait for one reply, then time *turns* replies.

    It returns turns per wall-clock second, and appends to *cpu_rates* turns per CPU-second
    of the referee process itself (what a loaded machine cannot blur: others' work is not
    counted).
    """
    first = payload[:payload.index(b"\n") + 1]

    def run() -> float:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write(first)
        process.stdin.flush()
        process.stdout.readline()  # started and warm
        cpu_before = _cpu_seconds(process.pid)

        def feed() -> None:
            assert process.stdin is not None
            process.stdin.write(payload)
            process.stdin.close()

        writer = threading.Thread(target=feed)
        start = time.perf_counter()
        writer.start()
        count = sum(1 for _ in process.stdout)
        elapsed = time.perf_counter() - start
        writer.join()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        cpu_rates.append(turns / max(usage.ru_utime + usage.ru_stime - cpu_before, 1e-9))
        if count != turns:
            raise RuntimeError(f"{command[:3]} answered {count} of {turns} turns")
        return turns / elapsed

    return run


def main() -> None:
    """Measure and print one row: our median rate and the peer's, with the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="10,000 turns, 3 runs")
    parser.add_argument("--write", action="store_true",
                        help="save the figures in benchmarks/results/referee.json")
    args = parser.parse_args()
    if args.quick:
        args.turns, args.repeats = 10_000, 3
    rng = random.Random(1)
    lines = [json.dumps(random_request(rng)) for _ in range(args.turns)]
    payload = ("\n".join(lines) + "\n").encode()
    with tempfile.TemporaryDirectory() as directory:
        sample = Path(directory) / "sample.jsonl"
        sample.write_bytes(payload[:payload.index(b"\n", 200_000) + 1])
        if replies(OURS, sample) != replies(PEER, sample):
            raise SystemExit("the minimal referee disagrees with take5rules: fix the benchmark")
    cpu: dict[str, list[float]] = {"ours": [], "peer": []}
    rates = interleaved({"take5rules referee": over_a_pipe(OURS, payload, args.turns, cpu["ours"]),
                         "minimal referee": over_a_pipe(PEER, payload, args.turns, cpu["peer"])},
                        repeats=args.repeats, warmup=0)
    print_rows([
        Row(f"referee over a pipe, {args.turns:,} turns, wall", "turns/s",
            rates["take5rules referee"], {"minimal referee": rates["minimal referee"]}),
        Row(f"referee over a pipe, {args.turns:,} turns, its CPU", "turns/s",
            statistics.median(cpu["ours"]), {"minimal referee": statistics.median(cpu["peer"])}),
    ])
    if args.write:
        save("referee", "bench_referee.py", {
            "repeats": args.repeats,
            "rows": [{"job": "referee", "size": args.turns,
                      "rate": round(rates["take5rules referee"]), "unit": "turns",
                      "peer": "referee", "peer_rate": round(rates["minimal referee"])}],
            "cpu_rate": round(statistics.median(cpu["ours"])),
            "cpu_peer_rate": round(statistics.median(cpu["peer"])),
        })

if __name__ == "__main__":
    main()
