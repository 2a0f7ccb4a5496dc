"""Engine benchmark: random rounds per CPU-second against a lean floor and py6nimmt; peak RSS.

Every candidate plays rounds of random players (each turn every player plays a card of their
hand drawn at random, and the player of a low card takes a row drawn at random):

* ``take5rules, events``: whole games through :func:`take5rules.playing.engine.play_game` with
  :class:`~take5rules.playing.players.RandomPlayer` seats, every event built;
* ``take5rules, no events``: the same games through :func:`take5rules.playing.engine.play_silently`;
* ``py6nimmt``: rounds of py6nimmt 0.1.2 (``pip install py6nimmt==0.1.2``, the ``bench`` extra),
  a ``py6Nimmt.Table.Table`` dealt by py6nimmt, its cards placed by ``Table.playCard`` in
  ascending card order (py6nimmt itself has no placement order) and low cards answered with
  ``Table.catchBoard``. The driver does no more than py6nimmt's API asks for: one
  ``Random.randrange`` per decision (as cheap as the ``Random.choice`` of our ``RandomPlayer``),
  the cards' values read straight from its ``Deck.list``, one sort per turn;
* ``floor``: a lean pure-Python loop written here (:func:`floor`): it deals the cards it needs
  with one ``Random.sample``, makes one ``Random.choice`` per decision, places each card with
  one scan of the rows, with no checks, no players, no views and no events. It replaces the
  "tight loop" of 0.1.0, which shuffled the whole deck and drew with ``randrange`` (issue 16
  measured it at 0.63x such a loop), so that the ratios against it flattered the engine.

Memory is the whole process's peak resident set (``VmHWM``, or ``ru_maxrss`` without /proc), the
interpreter included: each candidate plays its rounds in a fresh process of its own, beside a
process that only imports.

Run ``python benchmarks/bench_engine.py`` (``--quick`` for a short run, ``--players`` for the
rounds per second against 2 to 10 players, ``--write`` to save the run's figures as
``benchmarks/results/engine.json``, the table of the documentation's benchmarks page, and with
``--players`` the sweep as ``benchmarks/results/engine-players.json`` with the plot of the
documentation in every language). Rates are per CPU-second of this process, medians of
interleaved repetitions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Row, cpu_rate, interleaved, print_rows, save
from babel.numbers import format_decimal

from take5rules.events import GameOver
from take5rules.playing.engine import play_game, play_silently
from take5rules.playing.players import RandomPlayer

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "engine-players.json"
LANGUAGES = ("en", "fr", "bg", "it", "eo")

#: Rounds each candidate plays per measurement (about a tenth of a second each).
ROUNDS = 400

Candidate = Callable[[], float]


# --- take5rules -------------------------------------------------------------------------------


def _seats(players: int, seed: int) -> dict[str, RandomPlayer]:
    return {f"p{seat}": RandomPlayer(seed * 16 + seat) for seat in range(players)}


def ours(players: int, rounds: int, events: bool) -> Candidate:
    """Whole random games through the engine, with or without events, until *rounds* rounds.

    The seats are made once, as the floor makes its generator once; each game has its own seed.
    """
    seed = 0
    seats = _seats(players, 1)

    def work() -> int:
        nonlocal seed
        played = 0
        while played < rounds:
            seed += 1
            if events:
                last = None
                for last in play_game(seats, seed=seed):  # noqa: B007
                    pass
                assert isinstance(last, GameOver)
            else:
                last = play_silently(seats, seed=seed)
            played += last.rounds
        return played

    return lambda: cpu_rate(work)


# --- py6nimmt ---------------------------------------------------------------------------------


def py6nimmt(players: int, rounds: int) -> Candidate | None:
    """Random rounds through py6nimmt 0.1.2, placed in ascending order; None if not installed."""
    try:
        from py6Nimmt.Table import Table
    except ImportError:
        return None
    rng = random.Random(1)

    def one_round() -> None:
        table = Table(players)  # py6nimmt deals with the module-level random.shuffle
        for _turn in range(10):
            chosen = []
            for player in table.players:
                position = rng.randrange(player.hand.count()) + 1
                chosen.append((player.hand.list[position - 1].value, player.id, position))
            chosen.sort()
            for _value, player_id, position in chosen:
                low = table.playCard(player_id, position)
                if low is not None:
                    table.catchBoard(player_id, rng.randrange(4) + 1, low)
        for player in table.players:
            player.score()

    def work() -> int:
        random.seed(rng.random())
        for _ in range(rounds):
            one_round()
        return rounds

    return lambda: cpu_rate(work)


# --- the floor: a lean loop -----------------------------------------------------------------

_HEADS = [0] + [7 if c == 55 else 5 if c % 11 == 0 else 3 if c % 10 == 0 else 2 if c % 5 == 0
                else 1 for c in range(1, 105)]


def floor(players: int, rounds: int) -> Candidate:
    """Random rounds in a lean pure-Python loop: the floor of what pure Python does.

    It deals the cards it needs with one ``Random.sample``, lets each player pick a card with
    one ``Random.choice`` of its hand, places each card with one scan of the four rows (a low
    card takes a row drawn by one ``Random.choice``), and scores the cards taken. No checks, no
    players, no events, no views, no history: nothing but the game.
    """
    rng = random.Random(2)
    sample, choice = rng.sample, rng.choice
    deck, four, dealt = range(1, 105), (0, 1, 2, 3), 10 * players

    def one_round() -> list[int]:
        pile = sample(deck, dealt + 4)
        hands = [pile[start : start + 10] for start in range(0, dealt, 10)]
        rows = [[value] for value in pile[dealt:]]
        penalties = [0] * players
        for _turn in range(10):
            plays = []
            for seat, hand in enumerate(hands):
                value = choice(hand)
                hand.remove(value)
                plays.append((value, seat))
            plays.sort()
            for value, seat in plays:
                best = None
                highest = 0
                for row in rows:
                    last = row[-1]
                    if highest < last < value:
                        highest = last
                        best = row
                if best is None:
                    best = rows[choice(four)]
                elif len(best) < 5:
                    best.append(value)
                    continue
                penalties[seat] += sum([_HEADS[c] for c in best])
                best[:] = [value]
        return penalties

    def work() -> int:
        for _ in range(rounds):
            one_round()
        return rounds

    return lambda: cpu_rate(work)


# --- the runs ---------------------------------------------------------------------------------


def candidates(players: int, rounds: int) -> dict[str, Candidate]:
    """Every candidate for *players* players, py6nimmt only when it is installed."""
    found: dict[str, Candidate] = {
        "events": ours(players, rounds, True),
        "no events": ours(players, rounds, False),
        "floor": floor(players, rounds),
    }
    peer = py6nimmt(players, rounds)
    if peer is not None:
        found["py6nimmt 0.1.2"] = peer
    return found


def rows_for(players: int, rounds: int, repeats: int) -> list[Row]:
    """The two rows of one player count: with events and without, against the peers."""
    rates = interleaved(candidates(players, rounds), repeats)
    peers = {name: rate for name, rate in rates.items() if name not in ("events", "no events")}
    return [
        Row(f"engine, {players} players, events", "rounds/s", rates["events"], peers),
        Row(f"engine, {players} players, no events", "rounds/s", rates["no events"], peers),
    ]


def sweep(rounds: int, repeats: int) -> dict[str, dict[str, float]]:
    """Median rounds per second of every candidate for 2 to 10 players."""
    figures: dict[str, dict[str, float]] = {}
    for players in range(2, 11):
        rates = interleaved(candidates(players, rounds), repeats)
        figures[str(players)] = {name: round(rate) for name, rate in rates.items()}
        print(f"  {players:>2} players: " + ", ".join(
            f"{name} {rate:,.0f}" for name, rate in rates.items()), flush=True)
    return figures


# --- the plot ---------------------------------------------------------------------------------

#: Axis and legend labels of the plot in each language of the documentation.
LABELS: dict[str, dict[str, str]] = {
    "en": {"x": "players", "y": "rounds per CPU-second", "events": "take5rules, events",
           "no events": "take5rules, no events", "floor": "lean loop (floor)"},
    "fr": {"x": "joueurs", "y": "manches par seconde de processeur",
           "events": "take5rules, avec événements", "no events": "take5rules, sans événements",
           "floor": "boucle minimale (plancher)"},
    "bg": {"x": "играчи", "y": "рундове за секунда процесорно време",
           "events": "take5rules, със събития", "no events": "take5rules, без събития",
           "floor": "минимален цикъл (долна граница)"},
    "it": {"x": "giocatori", "y": "manche per secondo di CPU",
           "events": "take5rules, con eventi", "no events": "take5rules, senza eventi",
           "floor": "ciclo minimo (limite)"},
    "eo": {"x": "ludantoj", "y": "raŭndoj en sekundo de procesoro",
           "events": "take5rules, kun eventoj", "no events": "take5rules, sen eventoj",
           "floor": "minimuma ciklo (bazo)"},
}

_COLOURS = {"events": "#1f5fa8", "no events": "#6aa84f", "py6nimmt 0.1.2": "#c0392b",
            "floor": "#7f7f7f"}


def plot(figures: dict[str, dict[str, float]], language: str) -> str:
    """An SVG line plot of rounds per second against players, labelled in *language*."""
    labels = LABELS[language]
    width, height, left, right, top, bottom = 720, 380, 70, 250, 20, 50
    counts = sorted(int(n) for n in figures)
    series = sorted({name for rates in figures.values() for name in rates},
                    key=list(_COLOURS).index)
    peak = max(rate for rates in figures.values() for rate in rates.values())
    step = 5000 if peak > 20000 else 2000
    top_value = -(-peak // step) * step

    def x(n: int) -> float:
        return left + (n - counts[0]) * (width - left - right) / (counts[-1] - counts[0])

    def y(rate: float) -> float:
        return top + (1 - rate / top_value) * (height - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="12" role="img" aria-label="{labels["y"]}">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    value = 0
    while value <= top_value:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" '
                   f'y2="{y(value):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
                   f'{format_decimal(value, locale=language)}</text>')
        value += step
    for n in counts:
        out.append(f'<text x="{x(n):.1f}" y="{height - bottom + 18}" text-anchor="middle">'
                   f'{n}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.1f}" y="{height - 8}" '
               f'text-anchor="middle">{labels["x"]}</text>')
    out.append(f'<text transform="translate(16 {(top + height - bottom) / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">{labels["y"]}</text>')
    for position, name in enumerate(series):
        colour = _COLOURS[name]
        points = " ".join(f"{x(n):.1f},{y(figures[str(n)][name]):.1f}" for n in counts
                          if name in figures[str(n)])
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                   f'points="{points}"/>')
        legend_y = top + 14 + 20 * position
        out.append(f'<line x1="{width - right + 12}" x2="{width - right + 32}" y1="{legend_y - 4}"'
                   f' y2="{legend_y - 4}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{width - right + 38}" y="{legend_y}">'
                   f'{labels.get(name, name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(figures: dict[str, dict[str, float]], meta: dict[str, Any]) -> None:
    """Save the sweep as JSON and draw the plot of the documentation in every language."""
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({**meta, "rounds_per_second": figures}, indent=2) + "\n",
                       encoding="utf-8")
    for language in LANGUAGES:
        target = ROOT / "docs" / language / "reference" / "benchmarks-players.svg"
        target.write_text(plot(figures, language), encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)} and docs/<lang>/reference/benchmarks-players.svg")


def peak_rss(kind: str, players: int, rounds: int) -> float:
    """The peak resident set, in MB, of a fresh process that plays *rounds* rounds of *kind*."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--rss", kind, str(players), str(rounds)],
        check=True, capture_output=True, text=True,
    )
    return int(done.stdout.split()[-1]) / 1024


def _rss_child(kind: str, players: int, rounds: int) -> None:
    """In the child: play the rounds of *kind*; print this process's peak RSS in KB."""
    jobs: dict[str, Callable[[], Candidate | None]] = {
        "events": lambda: ours(players, rounds, True),
        "no events": lambda: ours(players, rounds, False),
        "floor": lambda: floor(players, rounds),
        "py6nimmt 0.1.2": lambda: py6nimmt(players, rounds),
    }
    if kind != "imports":
        job = jobs[kind]()
        if job is not None:
            job()
    print(_peak_kb())


def _peak_kb() -> int:
    """This process's peak resident set in KB.

    VmHWM, which exec resets (ru_maxrss may keep a parent's peak across fork and exec), or
    ru_maxrss where /proc is missing.
    """
    try:
        for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory_row(players: int, rounds: int) -> tuple[str, dict[str, float]]:
    """One line: each candidate's whole-process peak RSS, and a process that only imports.

    Also the figures, in MB, by kind.
    """
    kinds = ["imports", "events", "no events", "floor"]
    if py6nimmt(players, 1) is not None:
        kinds.append("py6nimmt 0.1.2")
    peaks = {kind: peak_rss(kind, players, rounds) for kind in kinds}
    figures = ", ".join(f"{kind} {peak:.1f} MB" for kind, peak in peaks.items())
    return f"peak RSS (whole process), {rounds:,} rounds of {players} players: {figures}", peaks


def write_table(rows: list[Row], rounds: int, peaks: dict[str, float], repeats: int) -> None:
    """Save the engine's rows and peak memory as ``engine.json``, the benchmarks page's table."""
    table = []
    for row in rows:
        players = int(row.job.split(", ")[1].split()[0])
        entry: dict[str, Any] = {"players": players,
                                 "job": "events" if row.job.endswith(", events") else "no-events",
                                 "take5rules": round(row.ours)}
        for peer, key in (("py6nimmt 0.1.2", "py6nimmt"), ("floor", "floor")):
            if peer in row.peers:
                entry[key] = round(row.peers[peer])
        table.append(entry)
    keys = {"events": "events", "no events": "no_events", "floor": "floor",
            "py6nimmt 0.1.2": "py6nimmt", "imports": "imports"}
    save("engine", "bench_engine.py", {
        "repeats": repeats, "rows": table, "rounds_for_memory": rounds,
        "peak_rss_mb": {keys[kind]: round(peak, 1) for kind, peak in peaks.items()},
    }, what=f"rounds per CPU-second, medians of {repeats} interleaved repetitions.")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per job."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and repetitions")
    parser.add_argument("--repeats", type=int, default=None, help="measured repetitions")
    parser.add_argument("--players", action="store_true", help="also sweep 2 to 10 players")
    parser.add_argument("--write", action="store_true",
                        help="save the figures (engine.json; with --players also the sweep and "
                             "the documentation plot)")
    parser.add_argument("--redraw", action="store_true",
                        help="only draw the documentation plot again from the saved figures")
    parser.add_argument("--rss", nargs=3, metavar=("KIND", "PLAYERS", "ROUNDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss:
        _rss_child(args.rss[0], int(args.rss[1]), int(args.rss[2]))
        return 0
    if args.redraw:
        saved = json.loads(RESULTS.read_text(encoding="utf-8"))
        figures = saved.pop("rounds_per_second")
        write(figures, saved)
        return 0
    rounds = ROUNDS // 4 if args.quick else ROUNDS
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 7)
    if py6nimmt(2, 1) is None:
        print("py6nimmt is not installed: pip install py6nimmt==0.1.2 (the 'bench' extra)")
    rows = rows_for(4, rounds, repeats) + rows_for(10, rounds // 2, repeats)
    print_rows(rows)
    line, peaks = memory_row(4, rounds * 5)
    print(line, flush=True)
    if args.write:
        write_table(rows, rounds * 5, peaks, repeats)
    if args.players:
        print("rounds per CPU-second against players:", flush=True)
        figures = sweep(rounds // 2, max(3, repeats // 2))
        if args.write:
            write(figures, {"cores": os.cpu_count(), "python": sys.version.split()[0],
                            "rounds": rounds // 2, "repeats": max(3, repeats // 2)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
