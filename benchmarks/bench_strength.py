"""How strong the built-in players are, and how long they take: the strength ladder.

Each player P is measured on duplicate deals (:mod:`take5rules.agents.ladder`) at a table of four,
against three ``cautious`` players: its bull heads per deal minus cautious's, with a 95%
bootstrap interval over the deal sets, its share of the games to 66 it won (a tie shared), with a
95% bootstrap interval over the same deal sets, and its milliseconds per decision (median and
mean, CPU time of this process, one core). The learned policy (``policy``, the weights shipped
with the package) is one of them, and so are ``best`` (the search guided by the policy,
:func:`take5rules.agents.player_kinds.guided_best`) and ``ismcts``, the same search without the
policy (``best`` up to 0.6.0). Then the head-to-heads of the targets, each at one table with two
cautious players, the same deals, both players' times measured in the same games (so
interleaved): ``best`` against a 64-world determinized Monte Carlo player with greedy rollouts
(``mc-64``), and ``best`` against ``ismcts``.
With ``--jobs N`` the head-to-heads' games run in N processes (each seat made afresh for each
game), and their times come from their first ``--time-sets`` deal sets played again in this
process, both players timed in the same games.

Two curves follow, each point against three ``cautious`` players as on the ladder: ``best``
(ISMCTS) at each of ``--think`` iteration counts, its think time; and, with ``--checkpoints
DIR``, the learned policy of each ``DIR/epoch-<k>.npz`` that ``python -m training --checkpoints
DIR`` wrote, its strength against the training epoch. Last, ``policy`` and ``best`` each sit at a
table of ten with nine ``cautious`` players, on ``--ten-sets`` duplicate deal sets of ten games:
their time a move where a turn has the most cards.

    .venv/bin/python benchmarks/bench_strength.py --sets 12
    .venv/bin/python benchmarks/bench_strength.py --sets 2 --head-sets 2 --think 25,100
    .venv/bin/python benchmarks/bench_strength.py --sets 12 --write   # results and the plots
    .venv/bin/python benchmarks/bench_strength.py --sets 12 --head-sets 200 --jobs 2 --write
    .venv/bin/python benchmarks/bench_strength.py --checkpoints DIR --training-sets 100 --write
    .venv/bin/python benchmarks/bench_strength.py --plot-only

``--write`` saves ``benchmarks/results/strength.json`` (with the run's commit, date and machine)
and draws ``docs/<lang>/strength.svg`` (strength against milliseconds per move),
``strength-think.svg`` (``best``'s think time) and ``strength-training.svg`` (the training
curve) for the "Strength ladder" page. A benchmark, not a test: nothing here asserts a figure;
the targets are printed as met or not.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import save

from take5rules.agents.arena import ArenaResult, PlayerLike, run_arena
from take5rules.agents.player_kinds import guided_best
from take5rules.agents.policy import PolicyPlayer, load_policy
from take5rules.agents.stats import mean_interval
from take5rules.playing.bots import GreedyPlayer, MonteCarloPlayer
from take5rules.playing.ismcts import ISMCTSPlayer
from take5rules.playing.kinds import best_player
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "strength.json"
LANGUAGES = ("en", "fr", "bg", "it", "eo")
#: The iteration counts of ``best``'s think-time curve (350 is ``best`` itself).
THINK = (25, 50, 100, 200, 350, 700)
#: The players timed at a table of ten (``--ten-sets``): each with nine ``cautious``.
TEN = ("policy", "best")
#: A checkpoint of the training: ``epoch-<k>.npz``.
CHECKPOINT = re.compile(r"epoch-(\d+)\.npz")


class Timed:
    """A player whose every decision is timed (CPU seconds of this process).

    A player that listens to the game's events (``see``, as ``policy`` does) is told them
    through this wrapper too, untimed.
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self.seconds: list[float] = []
        see = getattr(player, "see", None)
        if callable(see):
            self.see: Callable[[str, Any], object] = see

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
    "greedy": GreedyPlayer,
    "mc-8": lambda: MonteCarloPlayer(worlds=8, seed=1),
    "mc-24": lambda: MonteCarloPlayer(worlds=24, seed=1),
    "mc-108h": lambda: MonteCarloPlayer(worlds=108, seed=1, halving=True),
    "policy": PolicyPlayer,
    "ismcts": lambda: best_player(1),
    "best": lambda: guided_best(1),
}


def _think_player(iterations: int) -> ISMCTSPlayer:
    """``best`` with *iterations* a decision: the search of :func:`guided_best`, its prior."""
    best = guided_best(1)
    assert isinstance(best, ISMCTSPlayer)  # numpy is here: the benchmark needs it
    return ISMCTSPlayer(iterations, seed=1, prior=best.prior, prior_weight=best.prior_weight)


def _timing(timed: Timed) -> dict[str, float]:
    values = timed.seconds
    return {"median_ms": 1000 * statistics.median(values),
            "mean_ms": 1000 * statistics.fmean(values), "max_ms": 1000 * max(values),
            "decisions": len(values)}


def win_shares(result: ArenaResult, name: str) -> list[float]:
    """The share of the games of each deal set that *name* won, a tie split among the winners.

    A game's winners are those with the fewest bull heads at its end (to 66); on duplicate deals
    a deal set is the games of one deal in every seat rotation, else one game.
    """
    outcomes = result.outcomes
    seat = outcomes.seats.index(name)
    size = len(outcomes.seats) if result.duplicate else 1
    shares = []
    for first in range(0, outcomes.games, size):
        games = range(first, min(first + size, outcomes.games))
        won = 0.0
        for game in games:
            mask = outcomes.winners[game]
            if mask >> seat & 1:
                won += 1 / mask.bit_count()
        shares.append(won / len(games))
    return shares


def wins(result: ArenaResult, name: str) -> list[float]:
    """*name*'s win rate of whole games and its 95% bootstrap interval over the deal sets."""
    shares = win_shares(result, name)
    low, high = mean_interval(shares)
    return [statistics.fmean(shares), low, high]


def against_cautious(name: str, player: Player, sets: int, seed: int,
                     with_wins: bool = False, seats: int = 4) -> dict[str, Any]:
    """*player*, timed, at a table of *seats* with ``cautious`` players on *sets* deal sets.

    Its time a decision, its bull heads a deal, its difference from ``cautious`` (the first of
    them) a deal with the 95% interval (and a game), the deals played and, with *with_wins*, its
    win rate of games.
    """
    timed = Timed(player)
    others = {"cautious" if seat == 1 else f"cautious#{seat}": CautiousPlayer()
              for seat in range(1, seats)}
    result = run_arena({name: timed, **others}, games=seats * sets, seed=seed)
    ladder = result.report("cautious")
    rating = {rating.player: rating for rating in ladder.ratings}[name]
    entry: dict[str, Any] = {**_timing(timed), "per_deal": rating.per_deal,
                             "difference": list(rating.deal_difference),
                             "game_difference": list(rating.game_difference),
                             "deals": ladder.deals}
    if with_wins:
        entry["wins"] = wins(result, name)
    return entry


def old_best(sets: int, seed: int, jobs: int = 1, time_sets: int = 8) -> dict[str, Any]:
    """``best`` against 0.4.0's ``best`` (``ismcts``) at one table with two ``cautious``.

    On *sets* duplicate deal sets; with *jobs* above 1 in that many processes, the times from
    the first *time_sets* deal sets played again here, both players timed in the same games.
    Their times, and ``best``'s bull heads a deal (and a game) minus ``ismcts``'s, with the 95%
    intervals, and its share of the games won.
    """
    best, ismcts = Timed(guided_best(3)), Timed(best_player(3))
    timed_table: dict[str, PlayerLike] = {"best": best, "ismcts": ismcts,
                                          "cautious": CautiousPlayer(),
                                          "cautious#2": CautiousPlayer()}
    if jobs <= 1:
        result = run_arena(timed_table, games=4 * sets, seed=seed)
    else:
        table: dict[str, PlayerLike] = {"best": partial(guided_best, 3),
                                        "ismcts": partial(best_player, 3),
                                        "cautious": CautiousPlayer, "cautious#2": CautiousPlayer}
        result = run_arena(table, games=4 * sets, seed=seed, jobs=jobs)
        run_arena(timed_table, games=4 * min(time_sets, sets), seed=seed)
    against = {rating.player: rating for rating in result.report("ismcts").ratings}
    return {"sets": sets, "seed": seed, "best": _timing(best), "ismcts": _timing(ismcts),
            "best_minus_ismcts": list(against["best"].deal_difference),
            "best_minus_ismcts_per_game": list(against["best"].game_difference),
            "best_wins": wins(result, "best"), "ismcts_wins": wins(result, "ismcts")}


def _line(name: str, entry: dict[str, Any]) -> str:
    mean, low, high = entry["difference"]
    line = (f"{name:>10}: {entry['mean_ms']:8.3f} ms/move (median {entry['median_ms']:.3f}), "
            f"per deal {entry['per_deal']:.2f}, vs cautious {mean:+.2f} [{low:+.2f}, {high:+.2f}]")
    if "wins" in entry:
        share, low, high = entry["wins"]
        line += f", wins {share:.1%} [{low:.1%}, {high:.1%}]"
    return line


def checkpoints(folder: Path) -> list[Path]:
    """The training's checkpoints in *folder*, ``epoch-<k>.npz``, by epoch."""
    found = [path for path in folder.iterdir() if CHECKPOINT.fullmatch(path.name)]
    return sorted(found, key=lambda path: int(CHECKPOINT.fullmatch(path.name)[1]))  # type: ignore[index]


def measure(sets: int, seed: int, head_sets: int, jobs: int = 1, time_sets: int = 8,
            think: Sequence[int] = THINK, think_sets: int | None = None,
            trained: Path | None = None, training_sets: int | None = None,
            ten_sets: int = 0) -> dict[str, Any]:
    """Every table of the ladder, the head-to-head, the two curves and ten seats, as figures.

    With *jobs* above 1 the head-to-head's games are played in that many processes, and its
    milliseconds a move are measured on its first *time_sets* deal sets, played again here.
    *think* are the iteration counts of ``best``'s curve (on *think_sets* deal sets, default
    *sets*), *trained* the folder of the training curve's checkpoints (on *training_sets*; the
    folder is read when the curve is measured, so a training that runs beside the benchmark's
    first parts adds its last epochs); each of
    :data:`TEN` is then timed at a table of ten with nine ``cautious``, on *ten_sets* deal sets
    (0: not this table).
    """
    seconds: dict[str, dict[str, float]] = {}

    def part(name: str, cpu: float, wall: float) -> None:
        seconds[name] = {"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall}
        print(f"-- {name}: {seconds[name]['cpu']:.0f} CPU s, {seconds[name]['wall']:.0f} s",
              flush=True)

    cpu, wall = time.process_time(), time.perf_counter()
    ladder: dict[str, Any] = {}
    for name, make in LADDER.items():
        ladder[name] = against_cautious(name, make(), sets, seed, with_wins=True)
        print(_line(name, ladder[name]), flush=True)
    part("ladder", cpu, wall)

    cpu, wall = time.process_time(), time.perf_counter()
    best, baseline = Timed(guided_best(2)), Timed(MonteCarloPlayer(worlds=64, seed=2))
    timed_table: dict[str, PlayerLike] = {"best": best, "mc-64": baseline,
                                          "cautious": CautiousPlayer(),
                                          "cautious#2": CautiousPlayer()}
    if jobs <= 1:
        result = run_arena(timed_table, games=4 * head_sets, seed=seed + 1)
    else:
        # The games in *jobs* processes, each seat made afresh for each game (so that a game
        # is the same in any process); the times from the first *time_sets* deal sets of the
        # same seed played here, both players timed in the same games.
        table: dict[str, PlayerLike] = {"best": partial(guided_best, 2),
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
    # mc-64's row of the ladder: from this table (with best), so no win rate against cautious.
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
          f"{'' if ratio <= 1 else ' (more time a move)'}", flush=True)
    part("head_to_head", cpu, wall)

    cpu, wall = time.process_time(), time.perf_counter()
    old = old_best(head_sets, seed + 2, jobs, time_sets)
    diff = old["best_minus_ismcts"]
    times = (old["best"]["mean_ms"], old["ismcts"]["mean_ms"])
    print(f"best vs ismcts (0.4.0's best): per deal {diff[0]:+.2f} [{diff[1]:+.2f}, "
          f"{diff[2]:+.2f}]; ms per move {times[0]:.1f} vs {times[1]:.1f}")
    met = diff[0] <= -1.5 and diff[2] < 0 and max(times) <= 100
    print(f"target 4 (best beats 0.4.0's best by >= 1.5 per deal, interval below 0, both at "
          f"most 100 ms a move): {'met' if met else 'NOT met'}", flush=True)
    part("old_best", cpu, wall)

    cpu, wall = time.process_time(), time.perf_counter()
    think_sets = think_sets or sets
    curve = []
    for iterations in think:
        if iterations == best_player(1).iterations and think_sets == sets:
            # best itself on the ladder's deals: the ladder's row, the same games
            played = {key: value for key, value in ladder["best"].items() if key != "wins"}
        else:
            played = against_cautious("best", _think_player(iterations), think_sets, seed)
        entry = {"iterations": iterations, **played}
        curve.append(entry)
        print(_line(f"best@{iterations}", entry), flush=True)
    part("think", cpu, wall)

    cpu, wall = time.process_time(), time.perf_counter()
    training_sets = training_sets or sets
    training: list[dict[str, Any]] = []
    for path in checkpoints(trained) if trained is not None else []:
        policy = load_policy(path)
        match = CHECKPOINT.fullmatch(path.name)
        epoch = policy.metadata.get("epoch", int(match[1]) if match else len(training) + 1)
        entry = {"epoch": epoch, "stage": policy.metadata.get("stage", ""),
                 "round": policy.metadata.get("round"),
                 "decisions": policy.metadata.get("decisions"), "file": path.name,
                 **against_cautious("policy", PolicyPlayer(policy), training_sets, seed)}
        training.append(entry)
        print(_line(f"epoch {epoch}", entry) + f" ({entry['stage']})", flush=True)
    part("training", cpu, wall)

    cpu, wall = time.process_time(), time.perf_counter()
    ten: dict[str, Any] = {}
    for name in TEN if ten_sets else ():
        ten[name] = against_cautious(name, LADDER[name](), ten_sets, seed, seats=10)
        print(_line(f"{name}@10", ten[name]) + f", at most {ten[name]['max_ms']:.1f} ms",
              flush=True)
    if "best" in ten:
        mean_ms, max_ms = ten["best"]["mean_ms"], ten["best"]["max_ms"]
        print(f"target 3 (best at 10 players: at most 100 ms a move on average, 250 ms at "
              f"most): {'met' if mean_ms <= 100 and max_ms <= 250 else 'NOT met'} "
              f"({mean_ms:.1f} and {max_ms:.1f} ms)", flush=True)
    part("ten", cpu, wall)

    figures: dict[str, Any] = {
        "sets": sets, "head_sets": head_sets, "seed": seed, "jobs": jobs,
        "time_sets": min(time_sets, head_sets) if jobs > 1 else head_sets,
        "think_sets": think_sets, "training_sets": training_sets if training else 0,
        "ten_sets": ten_sets,
        "ladder": ladder, "head_to_head": head, "old_best": old, "think": curve,
        "training": training, "ten": ten, "seconds": seconds}
    if curve:
        figures["think_range"] = {"fewest": curve[0], "most": curve[-1]}
    return figures


# --- the plots --------------------------------------------------------------------------------

LABELS: dict[str, dict[str, str]] = {
    "en": {"x": "milliseconds per move (log scale)",
           "y": "bull heads per deal saved against cautious",
           "epoch": "training epoch",
           "none": "no training checkpoint was measured in this run"},
    "fr": {"x": "millisecondes par coup (échelle logarithmique)",
           "y": "têtes de bœuf par donne épargnées face à cautious",
           "epoch": "époque d’entraînement",
           "none": "aucun point de contrôle de l’entraînement n’a été mesuré dans cette exécution"},
    "bg": {"x": "милисекунди на ход (логаритмична скала)",
           "y": "спестени глави на бикове на раздаване срещу cautious",
           "epoch": "епоха на обучението",
           "none": "при това изпълнение не е измерена нито една контролна точка на обучението"},
    "it": {"x": "millisecondi per mossa (scala logaritmica)",
           "y": "teste di toro per smazzata risparmiate contro cautious",
           "epoch": "epoca di addestramento",
           "none": ("in questa esecuzione non è stato misurato nessun checkpoint "
                    "dell’addestramento")},
    "eo": {"x": "milisekundoj por movo (logaritma skalo)",
           "y": "ŝparitaj bovkapoj por disdono kontraŭ cautious",
           "epoch": "trejna epoko",
           "none": "neniu kontrolpunkto de la trejnado estis mezurita en ĉi tiu rulo"},
}

#: The colours of the plots: ``best`` red, the learned policy green, the others blue.
COLOURS = {"best": "#c0392b", "policy": "#1e8449", "cautious": "#1e8449"}
BLUE = "#1f5fa8"

#: A point of a plot: its name, x, the estimate, the low and high ends of its interval (saved
#: bull heads: higher is better), its colour.
Point = tuple[str, float, float, float, float, str]


def _saved(entry: dict[str, Any]) -> tuple[float, float, float]:
    """The bull heads a deal saved against cautious: the estimate, then the interval's ends."""
    mean, low, high = entry["difference"]
    return -mean, -high, -low


def chart(points: Sequence[Point], language: str, x_label: str, *, log_x: bool = True,
          joined: bool = False, references: Sequence[tuple[str, float]] = ()) -> str:
    """An SVG plot of *points* with their intervals (x on a log scale with *log_x*).

    *joined* draws a line through the points in their order; each of *references* is a dashed
    horizontal line at its height, named. Without points, the axes and a sentence saying so.
    """
    labels = LABELS[language]
    width, height, left, right, top, bottom = 720, 400, 70, 30, 20, 50
    heights = [value for point in points for value in point[3:5]] + [
        value for _, value in references] + [0.0]
    low_y, high_y = math.floor(min(heights)), math.ceil(max(heights))
    high_y = max(high_y, low_y + 1)
    xs = [point[1] for point in points] or [1.0]
    if log_x:
        low_x = math.floor(math.log10(min(xs)))
        high_x = max(math.ceil(math.log10(max(xs))), low_x + 1)
        ticks = [10.0**power for power in range(low_x, high_x + 1)]
    else:
        low_x, high_x = 0, max(math.ceil(max(xs)), 1)
        every = max(1, math.ceil(high_x / 10))
        ticks = [float(value) for value in range(0, high_x + 1, every)]

    def x(value: float) -> float:
        place = math.log10(value) if log_x else value
        return float(left + (place - low_x) / (high_x - low_x) * (width - left - right))

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
    for tick in ticks:
        out.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{top}" '
                   f'y2="{height - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{x(tick):.1f}" y="{height - bottom + 18}" '
                   f'text-anchor="middle">{format_decimal(tick, locale=language)}</text>')
    out.append(f'<text x="{(left + width - right) / 2:.1f}" y="{height - 8}" '
               f'text-anchor="middle">{x_label}</text>')
    out.append(f'<text transform="translate(16 {(top + height - bottom) / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">{labels["y"]}</text>')
    for name, level in references:
        colour = COLOURS.get(name, BLUE)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(level):.1f}" '
                   f'y2="{y(level):.1f}" stroke="{colour}" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{left + 4}" y="{y(level) - 5:.1f}" '
                   f'fill="{colour}">{name}</text>')
    if joined and len(points) > 1:
        path = " ".join(f"{x(point[1]):.1f},{y(point[2]):.1f}" for point in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="#888"/>')
    for name, at, mean, low, high, colour in points:
        out.append(f'<line x1="{x(at):.1f}" x2="{x(at):.1f}" y1="{y(low):.1f}" '
                   f'y2="{y(high):.1f}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<circle cx="{x(at):.1f}" cy="{y(mean):.1f}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{x(at) + 7:.1f}" y="{y(mean) - 6:.1f}">{name}</text>')
    if not points:
        out.append(f'<text x="{(left + width - right) / 2:.1f}" '
                   f'y="{(top + height - bottom) / 2:.1f}" text-anchor="middle" '
                   f'fill="#555">{labels["none"]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def plot(figures: dict[str, Any], language: str) -> str:
    """An SVG plot of strength (bull heads saved per deal) against ms per move, with intervals."""
    points = [(name, max(entry["mean_ms"], 1e-3), *_saved(entry), COLOURS.get(name, BLUE))
              for name, entry in figures["ladder"].items()]
    return chart(points, language, LABELS[language]["x"])


def plot_think(figures: dict[str, Any], language: str) -> str:
    """``best``'s strength against its ms per move, one point an iteration count, joined."""
    points = [(format_decimal(entry["iterations"], locale=language), max(entry["mean_ms"], 1e-3),
               *_saved(entry), COLOURS["best"]) for entry in figures.get("think", [])]
    return chart(points, language, LABELS[language]["x"], joined=True)


def _stage_colour(stage: str) -> str:
    """A checkpoint's colour: blue ``cautious``'s lessons, red ``best``'s, green a round's."""
    if stage == "cautious":
        return BLUE
    return COLOURS["policy"] if stage == "follow" else COLOURS["best"]


def plot_training(figures: dict[str, Any], language: str) -> str:
    """Each checkpoint's strength against its epoch, ``best``'s on the ladder dashed."""
    points = [(format_decimal(entry["epoch"], locale=language), float(entry["epoch"]),
               *_saved(entry), _stage_colour(entry["stage"]))
              for entry in figures.get("training", [])]
    references = [(name, _saved(figures["ladder"][name])[0]) for name in ("best", "policy")
                  if name in figures["ladder"]]
    return chart(points, language, LABELS[language]["epoch"], log_x=False, joined=True,
                 references=references)


#: Each plot of the page: its file in ``docs/<lang>/`` and how it is drawn.
PLOTS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "strength.svg": plot, "strength-think.svg": plot_think,
    "strength-training.svg": plot_training}


def draw(figures: dict[str, Any]) -> None:
    """Draw the plots of the documentation in every language."""
    for language in LANGUAGES:
        for name, drawn in PLOTS.items():
            (ROOT / "docs" / language / name).write_text(drawn(figures, language),
                                                         encoding="utf-8")
    print(f"drew docs/<lang>/{{{','.join(PLOTS)}}}")


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
    parser.add_argument("--think", default=",".join(map(str, THINK)),
                        help="best's iteration counts for the think-time curve, comma-separated "
                             "(empty: no curve)")
    parser.add_argument("--think-sets", type=int, default=None,
                        help="deal sets of each point of the think-time curve (default: --sets)")
    parser.add_argument("--checkpoints", type=Path, default=None, metavar="DIR",
                        help="the training's checkpoints, DIR/epoch-<k>.npz: the training curve")
    parser.add_argument("--training-sets", type=int, default=None,
                        help="deal sets of each checkpoint (default: --sets)")
    parser.add_argument("--ten-sets", type=int, default=2,
                        help="deal sets of ten games at a table of ten, where policy and best "
                             "are timed (0: not this table)")
    parser.add_argument("--write", action="store_true", help="save the figures and the plots")
    parser.add_argument("--plot-only", action="store_true",
                        help="only draw the plots again from the saved figures")
    arguments = parser.parse_args()
    if arguments.plot_only:
        draw(json.loads(RESULTS.read_text(encoding="utf-8")))
        return
    try:
        think = [int(word) for word in arguments.think.split(",") if word.strip()]
    except ValueError:
        parser.error(f"--think: whole numbers separated by commas, not {arguments.think!r}")
    trained = arguments.checkpoints
    if trained is not None:
        if not trained.is_dir():
            parser.error(f"--checkpoints: {trained} is not a folder")
        if not checkpoints(trained):
            parser.error(f"--checkpoints: {trained} holds no epoch-<k>.npz")
    figures = measure(arguments.sets, arguments.seed, arguments.head_sets or arguments.sets,
                      arguments.jobs, arguments.time_sets, think, arguments.think_sets,
                      trained, arguments.training_sets, arguments.ten_sets)
    # The run's command as the page shows it: the checkpoints' folder is the reader's DIR.
    figures["command"] = " ".join([
        "benchmarks/bench_strength.py", f"--sets {figures['sets']}",
        f"--head-sets {figures['head_sets']}", f"--jobs {figures['jobs']}",
        f"--time-sets {figures['time_sets']}", f"--seed {figures['seed']}",
        *([f"--think {','.join(map(str, think))}", f"--think-sets {figures['think_sets']}"]
          if think else ["--think ''"]),
        *([f"--checkpoints DIR --training-sets {figures['training_sets']}"]
          if figures["training"] else []),
        f"--ten-sets {figures['ten_sets']}", "--write"])
    if arguments.write:
        save("strength", "benchmarks/bench_strength.py", figures,
             "the strength ladder, the head-to-head of best and mc-64, best's think-time curve"
             + (" and the training curve" if figures["training"] else ""))
        draw(figures)


if __name__ == "__main__":
    main()
