"""A tournament runner for strategies: many seeded games, mean penalties, intervals, win rates.

:func:`run_arena` plays *games* whole games (:func:`take5rules.engine.play_game`) between the
named players and summarises each player's final totals: the mean penalty with its 95%
confidence interval, and the share of games it won (a shared win counts for each winner).

Players are named by a *spec*: a built-in kind (``random``, ``lowest``, ``cautious``) or a class
of your own as ``module:Class`` (imported, then built without arguments; it must have the
methods of :class:`take5rules.players.Player`). The same spec may sit more than once.

Reproducible by construction: game *k* (from 0) is ``play_game(seats, rules, seed=seed * 100003
+ k)`` with the seats rotated *k* places (game 1 starts with the second player), so that no
player keeps the first seat; a built-in random player in seat *s* of game *k* is seeded with that
game seed + *s*. ``jobs`` greater than 1 plays the games in that many processes
(:mod:`concurrent.futures`); the results do not depend on it.

>>> result = run_arena(["cautious", "random"], games=4, seed=1)
>>> [standing.player for standing in result.standings]
['cautious', 'random']
>>> result.standings[0].games
4
"""

from __future__ import annotations

import importlib
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ._text import N_
from .engine import play_game
from .errors import RulesError
from .events import GameOver
from .players import BUILTIN_PLAYERS, Player, RandomPlayer
from .setup import check_players
from .variants import Rules

__all__ = [
    "ArenaResult",
    "Standing",
    "confidence_interval",
    "game_seed",
    "load_player",
    "run_arena",
    "standings",
]

#: Student's t quantile (two-sided 95%) by degrees of freedom, up to 30; beyond, the normal 1.96.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)


def confidence_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% confidence interval of the mean of *values* (Student's t; normal beyond 31).

    >>> confidence_interval([10, 20, 30, 40, 50])
    (10.37..., 49.62...)
    >>> confidence_interval([7])
    (7.0, 7.0)
    """
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean
    freedom = len(values) - 1
    quantile = _T95[freedom - 1] if freedom <= len(_T95) else 1.96
    half = quantile * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def game_seed(seed: int, game: int) -> int:
    """The seed of game *game* (from 0) of an arena seeded with *seed*.

    >>> game_seed(1, 2)
    100005
    """
    return seed * 100003 + game


def load_player(spec: str, seed: int | None = None) -> Player:
    """A new player for *spec*: a built-in kind, or ``module:Class`` built without arguments.

    >>> load_player("take5rules.players:LowestCardPlayer")
    LowestCardPlayer()
    >>> load_player("clever")
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: unknown player kind 'clever'; choose one of random, lowest, \
cautious, module:Class [rule setup.players]
    """
    if spec in BUILTIN_PLAYERS:
        if spec == "random":
            return RandomPlayer(seed)
        return BUILTIN_PLAYERS[spec]()
    module_name, colon, class_name = spec.partition(":")
    if not colon or not module_name or not class_name:
        raise RulesError(
            "setup.players",
            N_("unknown player kind {kind!r}; choose one of {choices}"),
            kind=spec,
            choices=", ".join([*BUILTIN_PLAYERS, "module:Class"]),
        )
    try:
        factory = getattr(importlib.import_module(module_name), class_name)
        player = factory()
    except Exception as error:  # any failure to import or build is the spec's fault
        raise RulesError(
            "setup.players",
            N_("player {spec!r}: cannot load {target!r}: {reason}"),
            spec=spec,
            target=spec,
            reason=f"{type(error).__name__}: {error}",
        ) from None
    if not isinstance(player, Player):
        raise RulesError(
            "setup.players",
            N_("the object seated as {player!r} is not a player: it lacks choose_card, "
               "choose_row or choose_draft"),
            player=spec,
        )
    return player


def _names(specs: Sequence[str]) -> tuple[str, ...]:
    """Distinct seat names: the spec (its class name for ``module:Class``), numbered if repeated."""
    names: list[str] = []
    for spec in specs:
        base = spec.rpartition(":")[2] or spec
        name, count = base, 1
        while name in names:
            count += 1
            name = f"{base}#{count}"
        names.append(name)
    return tuple(names)


def _play(
    specs: tuple[str, ...], names: tuple[str, ...], rules: Rules, seed: int, game: int
) -> tuple[dict[str, int], tuple[str, ...]]:
    """Play game *game*: the final totals and the winners."""
    shift = game % len(specs)
    order = list(range(len(specs)))[shift:] + list(range(len(specs)))[:shift]
    this_seed = game_seed(seed, game)
    seats = {
        names[index]: load_player(specs[index], this_seed + position)
        for position, index in enumerate(order)
    }
    events = list(play_game(seats, rules, this_seed))
    last = events[-1]
    assert isinstance(last, GameOver)
    return dict(last.totals), last.winners


def _play_many(
    specs: tuple[str, ...], names: tuple[str, ...], rules: Rules, seed: int, games: range
) -> list[tuple[int, dict[str, int], tuple[str, ...]]]:
    return [(game, *_play(specs, names, rules, seed, game)) for game in games]


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's results over the arena."""

    player: str
    spec: str
    games: int
    mean_penalty: float
    interval: tuple[float, float]
    wins: int

    @property
    def win_rate(self) -> float:
        """The share of games won (shared wins included)."""
        return self.wins / self.games

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "player": self.player,
            "spec": self.spec,
            "games": self.games,
            "mean_penalty": self.mean_penalty,
            "interval_95": list(self.interval),
            "wins": self.wins,
            "win_rate": self.win_rate,
        }


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """Every game's totals and the standings, lowest mean penalty first."""

    rules: Rules
    seed: int
    totals: tuple[dict[str, int], ...]
    winners: tuple[tuple[str, ...], ...]
    standings: tuple[Standing, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "variant": self.rules.variant.value,
            "threshold": self.rules.threshold,
            "seed": self.seed,
            "games": len(self.totals),
            "standings": [standing.to_json() for standing in self.standings],
        }


def run_arena(
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play *games* seeded games between *specs* and rank them by mean penalty.

    *progress*, if given, is called with the number of games just finished, as they finish.
    """
    rules = rules if rules is not None else Rules()
    specs = tuple(specs)
    names = check_players(list(_names(specs)), rules)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RulesError("round.end", N_("an arena plays at least one game, not {value!r}"),
                         value=games)
    for spec in specs:  # fail early, in this process, on a spec that does not load
        load_player(spec, 0)
    outcomes: dict[int, tuple[dict[str, int], tuple[str, ...]]] = {}
    if jobs <= 1:
        for game in range(games):
            outcomes[game] = _play(specs, names, rules, seed, game)
            if progress is not None:
                progress(1)
    else:
        size = max(1, min(25, games // (jobs * 4)))
        chunks = [range(start, min(start + size, games)) for start in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_many, specs, names, rules, seed, chunk)
                       for chunk in chunks]
            for future in as_completed(futures):
                done = future.result()
                for game, game_totals, won in done:
                    outcomes[game] = (game_totals, won)
                if progress is not None:
                    progress(len(done))
    totals = tuple(outcomes[game][0] for game in range(games))
    winners = tuple(outcomes[game][1] for game in range(games))
    return ArenaResult(rules, seed, totals, winners, standings(names, specs, totals, winners))


def standings(
    names: Sequence[str],
    specs: Sequence[str],
    totals: Sequence[Mapping[str, int]],
    winners: Sequence[Sequence[str]],
) -> tuple[Standing, ...]:
    """Each player's standing from every game's final *totals* and *winners*, best first.

    A shared win counts as a win for each of the players who share it.

    >>> [(s.player, s.mean_penalty, s.wins) for s in standings(
    ...     ["ana", "bob"], ["cautious", "random"],
    ...     [{"ana": 40, "bob": 70}, {"ana": 50, "bob": 50}], [("ana",), ("ana", "bob")])]
    [('ana', 45.0, 2), ('bob', 60.0, 1)]
    """
    result = []
    for name, spec in zip(names, specs, strict=True):
        values = [game_totals[name] for game_totals in totals]
        result.append(
            Standing(name, spec, len(values), statistics.fmean(values),
                     confidence_interval(values), sum(name in won for won in winners))
        )
    result.sort(key=lambda standing: (standing.mean_penalty, standing.player))
    return tuple(result)
