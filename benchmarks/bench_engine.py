"""Engine benchmark: random rounds per CPU-second, against py6nimmt and a tight loop.

Every candidate plays rounds of random players (each turn every player plays a card of their
hand drawn at random, and the player of a low card takes a row drawn at random):

* ``take5rules, events``: whole games through :func:`take5rules.engine.play_game` with
  :class:`~take5rules.players.RandomPlayer` seats, every event built;
* ``take5rules, no events``: the same games through :func:`take5rules.engine.play_silently`;
* ``py6nimmt``: rounds of py6nimmt 0.1.2 (``pip install py6nimmt==0.1.2``, the ``bench`` extra),
  a ``py6Nimmt.Table.Table`` dealt by py6nimmt, its cards placed by ``Table.playCard`` in
  ascending card order (py6nimmt itself has no placement order) and low cards answered with
  ``Table.catchBoard``. The driver does no more than py6nimmt's API asks for: one
  ``Random.randrange`` per decision (as cheap as the ``Random.choice`` of our ``RandomPlayer``),
  the cards' values read straight from its ``Deck.list``, one sort per turn;
* ``tight loop``: a round in a few lines of plain Python on lists of ints, written here, with no
  checks, no players and no events: the floor of what pure Python can do.

Run ``python benchmarks/bench_engine.py`` (``--quick`` for a short run, ``--players`` for the
rounds per second against 2 to 10 players, ``--write`` to save those figures as
``benchmarks/results/engine-players.json`` and draw the plot of the documentation in every
language). Rates are per CPU-second of this process, medians of interleaved repetitions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import Row, cpu_rate, interleaved, print_rows
from babel.numbers import format_decimal

from take5rules.engine import play_game, play_silently
from take5rules.events import GameOver
from take5rules.players import RandomPlayer

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
    """Whole random games through the engine, with or without events, until *rounds* rounds."""
    seed = 0

    def work() -> int:
        nonlocal seed
        played = 0
        while played < rounds:
            seed += 1
            if events:
                last = None
                for last in play_game(_seats(players, seed), seed=seed):  # noqa: B007
                    pass
                assert isinstance(last, GameOver)
            else:
                last = play_silently(_seats(players, seed), seed=seed)
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


# --- the floor: a tight loop ------------------------------------------------------------------

_HEADS = [0] + [7 if c == 55 else 5 if c % 11 == 0 else 3 if c % 10 == 0 else 2 if c % 5 == 0
                else 1 for c in range(1, 105)]


def tight(players: int, rounds: int) -> Candidate:
    """Random rounds in a tight loop over lists of ints: no checks, no players, no events."""
    rng = random.Random(2)
    randrange = rng.randrange
    deck = list(range(1, 105))

    def one_round() -> list[int]:
        rng.shuffle(deck)
        hands = [deck[seat * 10 : seat * 10 + 10] for seat in range(players)]
        rows = [[deck[-1]], [deck[-2]], [deck[-3]], [deck[-4]]]
        penalties = [0] * players
        for turn in range(10):
            plays = sorted(
                (hand.pop(randrange(10 - turn)), seat) for seat, hand in enumerate(hands)
            )
            for value, seat in plays:
                best = -1
                highest = 0
                for index in range(4):
                    last = rows[index][-1]
                    if highest < last < value:
                        highest = last
                        best = index
                if best < 0:
                    best = randrange(4)
                elif len(rows[best]) < 5:
                    rows[best].append(value)
                    continue
                penalties[seat] += sum([_HEADS[c] for c in rows[best]])
                rows[best] = [value]
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
        "tight loop": tight(players, rounds),
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
           "no events": "take5rules, no events", "tight loop": "tight loop (floor)"},
    "fr": {"x": "joueurs", "y": "manches par seconde de processeur",
           "events": "take5rules, avec événements", "no events": "take5rules, sans événements",
           "tight loop": "boucle minimale (plancher)"},
    "bg": {"x": "играчи", "y": "рундове за секунда процесорно време",
           "events": "take5rules, със събития", "no events": "take5rules, без събития",
           "tight loop": "минимален цикъл (долна граница)"},
    "it": {"x": "giocatori", "y": "manche per secondo di CPU",
           "events": "take5rules, con eventi", "no events": "take5rules, senza eventi",
           "tight loop": "ciclo minimo (limite)"},
    "eo": {"x": "ludantoj", "y": "raŭndoj en sekundo de procesoro",
           "events": "take5rules, kun eventoj", "no events": "take5rules, sen eventoj",
           "tight loop": "minimuma ciklo (bazo)"},
}

_COLOURS = {"events": "#1f5fa8", "no events": "#6aa84f", "py6nimmt 0.1.2": "#c0392b",
            "tight loop": "#7f7f7f"}


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


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per job."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and repetitions")
    parser.add_argument("--repeats", type=int, default=None, help="measured repetitions")
    parser.add_argument("--players", action="store_true", help="also sweep 2 to 10 players")
    parser.add_argument("--write", action="store_true",
                        help="with --players: save the figures and draw the documentation plot")
    parser.add_argument("--redraw", action="store_true",
                        help="only draw the documentation plot again from the saved figures")
    args = parser.parse_args(argv)
    if args.redraw:
        saved = json.loads(RESULTS.read_text(encoding="utf-8"))
        figures = saved.pop("rounds_per_second")
        write(figures, saved)
        return 0
    rounds = ROUNDS // 4 if args.quick else ROUNDS
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 7)
    if py6nimmt(2, 1) is None:
        print("py6nimmt is not installed: pip install py6nimmt==0.1.2 (the 'bench' extra)")
    print_rows(rows_for(4, rounds, repeats) + rows_for(10, rounds // 2, repeats))
    if args.players:
        print("rounds per CPU-second against players:", flush=True)
        figures = sweep(rounds // 2, max(3, repeats // 2))
        if args.write:
            write(figures, {"cores": os.cpu_count(), "python": sys.version.split()[0],
                            "rounds": rounds // 2, "repeats": max(3, repeats // 2)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
