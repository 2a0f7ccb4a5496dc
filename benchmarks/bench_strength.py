"""How strong the built-in players are, and how long they take: the strength ladder.

Each player P is measured on duplicate deals (:mod:`take5rules.agents.ladder`) at a table of four,
against three ``cautious`` players: its bull heads per deal minus cautious's, with a 95%
bootstrap interval over the deal sets, and its milliseconds per decision (median and mean,
CPU time of this process, one core). Then the head-to-head of the targets: ``best`` against a
64-world determinized Monte Carlo player with greedy rollouts (``mc-64``) at one table with two
cautious players, the same deals, their times measured in the same games (so interleaved).
With ``--jobs N`` the head-to-head's games run in N processes (each seat made afresh for each
game), and its times come from its first ``--time-sets`` deal sets played again in this
process, both players timed in the same games.

    .venv/bin/python benchmarks/bench_strength.py --sets 12
    .venv/bin/python benchmarks/bench_strength.py --sets 12 --write   # results and the plots
    .venv/bin/python benchmarks/bench_strength.py --sets 12 --head-sets 200 --jobs 2 --write
    .venv/bin/python benchmarks/bench_strength.py --plot-only

``--write`` saves ``benchmarks/results/strength.json`` and draws ``docs/<lang>/strength.svg``
(strength against milliseconds per move) for the "Strength ladder" page. A benchmark, not a
test: nothing here asserts a figure; the targets are printed as met or not.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal

from take5rules.agents.arena import PlayerLike, run_arena
from take5rules.playing.bots import MonteCarloPlayer
from take5rules.playing.kinds import best_player
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "strength.json"
LANGUAGES = ("en", "fr", "bg", "it", "eo")


class Timed:
    """A player whose every decision is timed (CPU seconds of this process)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.seconds: list[float] = []

    def _time(self, decide: Callable[[Any], int], view: Any) -> int:
        start = time.process_time()
        answer = decide(view)
        self.seconds.append(time.process_time() - start)
        return answer

    def choose_card(self, view: Any) -> int:  # noqa: D102
        return self._time(self.player.choose_card, view)

    def choose_row(self, choice: Any) -> int:  # noqa: D102
        return self._time(self.player.choose_row, choice)

    def choose_draft(self, view: Any) -> int:  # noqa: D102
        return self._time(self.player.choose_draft, view)


#: The players of the ladder, each built from its seed.
LADDER: dict[str, Callable[[], Player]] = {
    "random": lambda: RandomPlayer(1),
    "lowest": LowestCardPlayer,
    "greedy": lambda: __import__("take5rules.playing.bots").bots.GreedyPlayer(),
    "mc-8": lambda: MonteCarloPlayer(worlds=8, seed=1),
    "mc-24": lambda: MonteCarloPlayer(worlds=24, seed=1),
    "mc-108h": lambda: MonteCarloPlayer(worlds=108, seed=1, halving=True),
    "best": lambda: best_player(1),
}


def _timing(timed: Timed) -> dict[str, float]:
    values = timed.seconds
    return {"median_ms": 1000 * statistics.median(values),
            "mean_ms": 1000 * statistics.fmean(values), "max_ms": 1000 * max(values),
            "decisions": len(values)}


def measure(sets: int, seed: int, head_sets: int, jobs: int = 1,
            time_sets: int = 8) -> dict[str, Any]:
    """Every table of the ladder and the head-to-head, as figures.

    With *jobs* above 1 the head-to-head's games are played in that many processes, and its
    milliseconds a move are measured on its first *time_sets* deal sets, played again here.
    """
    ladder: dict[str, Any] = {}
    for name, make in LADDER.items():
        timed = Timed(make())
        result = run_arena({name: timed, "cautious": CautiousPlayer(),
                            "cautious#2": CautiousPlayer(), "cautious#3": CautiousPlayer()},
                           games=4 * sets, seed=seed)
        rating = {rating.player: rating for rating in result.report("cautious").ratings}[name]
        ladder[name] = {**_timing(timed), "per_deal": rating.per_deal,
                        "difference": list(rating.deal_difference),
                        "game_difference": list(rating.game_difference),
                        "deals": result.report("cautious").deals}
        low, high = rating.deal_difference[1:]
        print(f"{name:>8}: {ladder[name]['mean_ms']:8.2f} ms/move (median "
              f"{ladder[name]['median_ms']:.2f}), per deal {rating.per_deal:.2f}, vs cautious "
              f"{rating.deal_difference[0]:+.2f} [{low:+.2f}, {high:+.2f}]", flush=True)
    best, baseline = Timed(best_player(2)), Timed(MonteCarloPlayer(worlds=64, seed=2))
    timed_table: dict[str, PlayerLike] = {"best": best, "mc-64": baseline,
                                          "cautious": CautiousPlayer(),
                                          "cautious#2": CautiousPlayer()}
    if jobs <= 1:
        result = run_arena(timed_table, games=4 * head_sets, seed=seed + 1)
    else:
        # The games in *jobs* processes, each seat made afresh for each game (so that a game
        # is the same in any process); the times from the first *time_sets* deal sets of the
        # same seed played here, both players timed in the same games.
        table: dict[str, PlayerLike] = {"best": partial(best_player, 2),
                 "mc-64": partial(MonteCarloPlayer, worlds=64, seed=2),
                 "cautious": CautiousPlayer, "cautious#2": CautiousPlayer}
        result = run_arena(table, games=4 * head_sets, seed=seed + 1, jobs=jobs)
        run_arena(timed_table, games=4 * min(time_sets, head_sets), seed=seed + 1)
    against = {rating.player: rating for rating in result.report("mc-64").ratings}
    versus_cautious = {r.player: r for r in result.report("cautious").ratings}
    head: dict[str, Any] = {"best": _timing(best), "mc-64": _timing(baseline),
            "best_minus_mc64": list(against["best"].deal_difference),
            "best_minus_mc64_per_game": list(against["best"].game_difference),
            "mc64_minus_cautious": list(versus_cautious["mc-64"].deal_difference),
            "elo": {r.player: [r.elo, *r.elo_interval] for r in against.values()}}
    ladder["mc-64"] = {**head["mc-64"], "difference": head["mc64_minus_cautious"],
                       "per_deal": versus_cautious["mc-64"].per_deal}
    ratio = head["best"]["mean_ms"] / head["mc-64"]["mean_ms"]
    diff = head["best_minus_mc64"]
    print(f"best vs mc-64: per deal {diff[0]:+.2f} [{diff[1]:+.2f}, {diff[2]:+.2f}]; "
          f"ms per move {head['best']['mean_ms']:.1f} vs {head['mc-64']['mean_ms']:.1f} "
          f"(ratio {ratio:.2f})")
    target = ladder["best"]["difference"]
    print(f"target 1 (best beats cautious by >= 2 per deal, interval below 0): "
          f"{'met' if target[0] <= -2 and target[2] < 0 else 'NOT met'}")
    print(f"target 2 (best beats mc-64 at no more time, interval below 0): "
          f"{'met' if diff[2] < 0 and ratio <= 1 else 'NOT met'}"
          f"{'' if diff[2] < 0 else ' (the interval includes 0)'}"
          f"{'' if ratio <= 1 else ' (more time a move)'}")
    return {"sets": sets, "head_sets": head_sets, "seed": seed, "jobs": jobs,
            "time_sets": min(time_sets, head_sets) if jobs > 1 else head_sets, "ladder": ladder,
            "head_to_head": head, "python": sys.version.split()[0]}


# --- the plot ---------------------------------------------------------------------------------

LABELS: dict[str, dict[str, str]] = {
    "en": {"x": "milliseconds per move (log scale)",
           "y": "bull heads per deal saved against cautious"},
    "fr": {"x": "millisecondes par coup (échelle logarithmique)",
           "y": "têtes de bœuf par donne épargnées face à cautious"},
    "bg": {"x": "милисекунди на ход (логаритмична скала)",
           "y": "спестени бичи глави на раздаване срещу cautious"},
    "it": {"x": "millisecondi per mossa (scala logaritmica)",
           "y": "teste di toro per smazzata risparmiate contro cautious"},
    "eo": {"x": "milisekundoj por movo (logaritma skalo)",
           "y": "ŝparitaj bovkapoj por disdono kontraŭ cautious"},
}


def plot(figures: dict[str, Any], language: str) -> str:
    """An SVG plot of strength (bull heads saved per deal) against ms per move, with intervals."""
    labels = LABELS[language]
    width, height, left, right, top, bottom = 720, 400, 70, 30, 20, 50
    points = {name: (max(entry["mean_ms"], 1e-3), -entry["difference"][0],
                     -entry["difference"][2], -entry["difference"][1])
              for name, entry in figures["ladder"].items()}
    low_x = math.floor(math.log10(min(p[0] for p in points.values())))
    high_x = math.ceil(math.log10(max(p[0] for p in points.values())))
    low_y = math.floor(min(p[2] for p in points.values()))
    high_y = math.ceil(max(p[3] for p in points.values()))

    def x(ms: float) -> float:
        return float(left + (math.log10(ms) - low_x) / (high_x - low_x)
                     * (width - left - right))

    def y(value: float) -> float:
        return float(top + (high_y - value) / (high_y - low_y) * (height - top - bottom))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="12" role="img" aria-label="{labels["y"]}">',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    step = 1 if high_y - low_y <= 10 else 2
    low_y -= low_y % step
    for value in range(low_y, high_y + 1, step):
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" '
                   f'y2="{y(value):.1f}" stroke="{"#999" if value == 0 else "#ddd"}"/>')
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
                   f'{format_decimal(value, locale=language)}</text>')
    for power in range(low_x, high_x + 1):
        out.append(f'<line x1="{x(10**power):.1f}" x2="{x(10**power):.1f}" y1="{top}" '
                   f'y2="{height - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{x(10**power):.1f}" y="{height - bottom + 18}" '
                   f'text-anchor="middle">{format_decimal(10.0**power, locale=language)}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.1f}" y="{height - 8}" '
               f'text-anchor="middle">{labels["x"]}</text>')
    out.append(f'<text transform="translate(16 {(top + height - bottom) / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">{labels["y"]}</text>')
    for name, (ms, mean, low, high) in points.items():
        colour = "#c0392b" if name == "best" else "#1f5fa8"
        out.append(f'<line x1="{x(ms):.1f}" x2="{x(ms):.1f}" y1="{y(low):.1f}" '
                   f'y2="{y(high):.1f}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<circle cx="{x(ms):.1f}" cy="{y(mean):.1f}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{x(ms) + 7:.1f}" y="{y(mean) - 6:.1f}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(figures: dict[str, Any]) -> None:
    """Save the figures and draw the plot of the documentation in every language."""
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    for language in LANGUAGES:
        target = ROOT / "docs" / language / "strength.svg"
        target.write_text(plot(figures, language), encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)} and docs/<lang>/strength.svg")


def main() -> None:
    """Measure, print, and with --write save the figures and draw the plots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=12, help="duplicate deal sets per table")
    parser.add_argument("--head-sets", type=int, default=None,
                        help="deal sets of the head-to-head table (default: --sets)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes for the head-to-head's games (its times: --time-sets)")
    parser.add_argument("--time-sets", type=int, default=8,
                        help="with --jobs: the head-to-head's deal sets timed in this process")
    parser.add_argument("--write", action="store_true", help="save the figures and the plots")
    parser.add_argument("--plot-only", action="store_true",
                        help="only draw the plots again from the saved figures")
    arguments = parser.parse_args()
    if arguments.plot_only:
        write(json.loads(RESULTS.read_text(encoding="utf-8")))
        return
    figures = measure(arguments.sets, arguments.seed, arguments.head_sets or arguments.sets,
                      arguments.jobs, arguments.time_sets)
    if arguments.write:
        write(figures)


if __name__ == "__main__":
    main()
