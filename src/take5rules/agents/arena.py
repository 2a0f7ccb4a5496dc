"""A tournament runner for strategies: many seeded games, mean penalties, intervals, win rates.

:func:`run_arena` plays *games* whole games (:func:`take5rules.playing.engine.play_game`) between
the
given players and summarises each player's final totals: the mean penalty with its 95%
confidence interval (a bootstrap of the games, so never outside the totals seen), and the share
of games it won (a shared win counts for each winner).

A player is given as

* a *spec*: a built-in kind (``random``, ``lowest``, ``cautious``, ``greedy``,
  ``montecarlo``, ``ismcts``, ``best``), a class of an importable
  module as ``module:Class``, or a class of a Python file as ``path/to/file.py:Class``; the
  class is built without arguments for every game;
* from Python, a class or any factory (called without arguments for every game), or a player
  object itself (seated as it is in every game: its state carries over from game to game).

The same player may sit more than once; a mapping ``{name: player}`` names the seats.

Reproducible by construction. On duplicate deals (the default) game *k* (from 0) plays deal
*k* // *n* of *n* players, ``play_game(seats, rules, seed=seed * 100003 + k // n)``, with the
seats rotated *k* % *n* places, so that each deal is played once for every rotation and every
player holds every hand; *games* is rounded up to whole deal sets. With ``duplicate=False`` game
*k* is ``seed * 100003 + k`` with the seats rotated *k* places. A built-in seeded player (such
as ``random``) in seat *s* of a game is seeded with that game's seed + *s*. ``jobs`` greater
than 1 plays the games in up to that many processes (never more than the processor count, nor
than the games need), and an *executor* plays them wherever it runs its tasks; the results do
not depend on either. :meth:`ArenaResult.report` compares the players by the duplicate
protocol (:mod:`take5rules.agents.ladder`). An arena plays at most :data:`MAX_GAMES` games and keeps
each game's outcome in a few tens of bytes (:class:`ArenaResult`).

A player that raises, breaks a rule or (with *move_timeout*) takes too long to decide stops the
run with an :class:`ArenaPlayerError` naming the game (counted from 1, as people count), its
seed and the seat.

>>> result = run_arena(["cautious", "random"], games=4, seed=1)
>>> [standing.player for standing in result.standings]
['cautious', 'random']
>>> result.standings[0].games
4
"""

from __future__ import annotations

import random
import signal
import statistics
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeAlias

from take5rules._messages import N_
from take5rules.agents.arena_seats import _import_target, _Seat, _Timed, _TooSlow
from take5rules.agents.arena_store import Outcome, Outcomes
from take5rules.errors import RulesError, Take5Error, Where
from take5rules.events import GameOver, RoundScored
from take5rules.playing.engine import play_game
from take5rules.playing.kinds import BUILTIN_PLAYERS, SEEDED_PLAYERS
from take5rules.playing.players import Player, RandomPlayer
from take5rules.registry import RULE_ORDER
from take5rules.setup import check_players
from take5rules.variants import Rules

__all__ = [
    "ArenaPlayerError",
    "ArenaResult",
    "PlayerLike",
    "Standing",
    "confidence_interval",
    "game_seed",
    "load_player",
    "run_arena",
    "standings",
]

#: What :func:`run_arena` seats: a spec, a class or factory, or a player object.
PlayerLike: TypeAlias = "str | Player | Callable[[], Player]"

#: Resamples of the bootstrap interval, and the most games it resamples (beyond, the normal
#: interval of the mean is as good, and it is kept within the totals seen).
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_LIMIT = 1000

#: The most games an arena plays. Their outcomes take about 64 bytes a game of four seats and
#: four rounds (:mod:`take5rules.agents.arena_store`), so that the longest run keeps them in under
#: 1 GB, and its report stays within a minute or two.
MAX_GAMES = 10**7

_UNKNOWN = N_("unknown player kind {kind!r}; choose one of {choices}")
_CANNOT_LOAD = N_("player {spec!r}: cannot load {target!r}: {reason}")
_NOT_A_PLAYER = N_("the object seated as {player!r} is not a player: it lacks choose_card, "
                   "choose_row or choose_draft")
_FAILED = N_("game {game} (seed {seed}), seat {seat!r}: {reason}")
_TOO_SLOW = N_("no decision within {seconds} s")
_BAD_TIMEOUT = N_("a move timeout is a number of seconds above 0, not {value!r}")
_NO_TIMER = N_("a move timeout needs the main thread (or jobs above 1)")
_AT_LEAST_ONE = N_("an arena plays at least one game, not {value!r}")
_AT_MOST = N_("the number of games of an arena is at most {limit}, not {value}")
_NOT_A_COUNT = N_("{name} is a whole number of at least 1, not {value!r}")
_NOT_A_SEED = N_("the seed is a whole number, not {value!r}")


class ArenaPlayerError(Take5Error):
    """A player failed during an arena game: it raised, broke a rule, or did not answer in time.

    ``rule`` is the rule broken when the player broke one, else ``"player"``; ``game``,
    ``seed`` and ``seat`` say where; ``details`` holds the player's traceback, as text.
    """

    def __init__(self, rule: str, template: str, /, *, where: Where | None = None,
                 details: str = "", **params: Any) -> None:
        self.details = details
        super().__init__(rule, template, where=where, **params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.rule, self.template, self.where, self.details, self.params))

    @property
    def rule_broken(self) -> bool:
        """Whether the player broke a rule of the game (rather than raising or stalling)."""
        return self.rule in RULE_ORDER


def _rebuild(rule: str, template: str, where: Where, details: str,
             params: Mapping[str, Any]) -> ArenaPlayerError:
    return ArenaPlayerError(rule, template, where=where, details=details, **params)


def confidence_interval(values: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES
                        ) -> tuple[float, float]:
    """The 95% confidence interval of the mean of *values*: a percentile bootstrap.

    The means of *resamples* resamples (drawn with a fixed seed, so the interval is
    reproducible), cut at 2.5% and 97.5%. It never leaves the range of *values*: over three
    games of 0, 0 and 95 bull heads, never below 0. Beyond :data:`BOOTSTRAP_LIMIT` values, the
    normal interval of the mean (1.96 standard errors), kept within that range too.

    >>> confidence_interval([7])
    (7.0, 7.0)
    >>> low, high = confidence_interval([0, 0, 95])
    >>> 0 <= low < high <= 95
    True
    """
    count = len(values)
    mean = statistics.fmean(values)
    if count < 2:
        return mean, mean
    smallest, largest = float(min(values)), float(max(values))
    if count > BOOTSTRAP_LIMIT:
        half = 1.96 * statistics.stdev(values) / count**0.5
        return max(smallest, mean - half), min(largest, mean + half)
    rng = random.Random(0)
    means = sorted(statistics.fmean(rng.choices(values, k=count)) for _ in range(resamples))
    low = means[int(0.025 * (resamples - 1))]
    high = means[int(0.975 * (resamples - 1) + 0.5)]
    return max(smallest, low), min(largest, high)


def game_seed(seed: int, game: int) -> int:
    """The seed of game *game* (from 0) of an arena seeded with *seed*.

    >>> game_seed(1, 2)
    100005
    """
    return seed * 100003 + game


def _argument(template: str, **params: Any) -> RulesError:
    """A player spec or an argument of :func:`run_arena` that cannot be used (id ``argument``)."""
    return RulesError("argument", template, **params)


def _checked(player: object, label: str) -> Player:
    if not isinstance(player, Player):
        raise _argument(_NOT_A_PLAYER, player=label)
    return player


def load_player(spec: PlayerLike, seed: int | None = None) -> Player:
    """A player for *spec*: a new one for a kind, a class or a factory; the object itself else.

    >>> load_player("take5rules.playing.players:LowestCardPlayer")
    LowestCardPlayer()
    >>> load_player("clever")
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: unknown player kind 'clever'; choose one of random, lowest, \
cautious, greedy, montecarlo, ismcts, best, module:Class, file.py:Class [rule argument]
    """
    if isinstance(spec, Player) and not isinstance(spec, type):
        return spec
    if spec is RandomPlayer:  # seeded by its seat, as the kind "random" is
        return RandomPlayer(seed)
    if isinstance(spec, str):
        if spec in BUILTIN_PLAYERS:
            kind = BUILTIN_PLAYERS[spec]
            return kind(seed) if spec in SEEDED_PLAYERS else kind()
        module_name, colon, class_name = spec.rpartition(":")
        if not colon or not module_name or not class_name:
            raise _argument(_UNKNOWN, kind=spec,
                            choices=", ".join([*BUILTIN_PLAYERS, "module:Class",
                                               "file.py:Class"]))
        label = spec
    elif callable(spec):
        label = _label(spec)
    else:
        raise _argument(_NOT_A_PLAYER, player=repr(spec)[:80])
    try:
        factory = _import_target(spec) if isinstance(spec, str) else spec
        player = factory() if callable(factory) else factory
    except (Exception, SystemExit) as error:  # the spec's fault, whatever it raised
        raise _argument(_CANNOT_LOAD, spec=label, target=label, reason=_reason(error)) from None
    return _checked(player, label)


def _reason(error: BaseException) -> str:
    """An exception as one line: its type, and its message if it has one."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _label(spec: object) -> str:
    """The name a player is seated under: its spec, class or factory name."""
    if isinstance(spec, str):
        return spec.rpartition(":")[2] or spec
    if isinstance(spec, type):
        return spec.__name__
    if isinstance(spec, Player):
        return type(spec).__name__
    name = getattr(spec, "__name__", "")
    return name if isinstance(name, str) and name.isidentifier() else "player"


def _names(labels: Sequence[str]) -> tuple[str, ...]:
    """Distinct seat names from *labels*, numbered when repeated (``random``, ``random#2``)."""
    names: list[str] = []
    for base in labels:
        name, count = base, 1
        while name in names:
            count += 1
            name = f"{base}#{count}"
        names.append(name)
    return tuple(names)


@dataclass(frozen=True, slots=True)
class _Setup:
    """What every game of an arena shares (sent once to each worker process)."""

    specs: tuple[PlayerLike, ...]
    names: tuple[str, ...]
    rules: Rules
    seed: int
    move_timeout: float | None
    duplicate: bool = False


def deal_of(game: int, count: int, duplicate: bool) -> tuple[int, int]:
    """The deal (seed index) of game *game* and how many places its seats are rotated.

    On duplicate deals each deal is played once for each rotation of the *count* seats.

    >>> deal_of(5, 3, True), deal_of(5, 3, False)
    ((1, 2), (5, 2))
    """
    return (game // count if duplicate else game), game % count


def play_one(setup: _Setup, game: int) -> Outcome:
    """Play game *game* of *setup*: its number, seating, totals, winners and rounds (compact).

    >>> setup = _Setup(("cautious", "lowest"), ("ana", "bob"), Rules(), 1, None, True)
    >>> game, order, totals, winners, penalties = play_one(setup, 1)
    >>> game, order, len(penalties) % 2
    (1, (1, 0), 0)
    """
    count = len(setup.specs)
    deal, shift = deal_of(game, count, setup.duplicate)
    order = [*range(count)][shift:] + [*range(count)][:shift]
    this_seed = game_seed(setup.seed, deal)
    current = [""]
    try:
        seats: dict[str, Player] = {}
        for position, index in enumerate(order):
            name = setup.names[index]
            current[0] = name
            player = load_player(setup.specs[index], this_seed + position)
            if setup.move_timeout is not None:
                player = _Timed(player, setup.move_timeout)
            seats[name] = _Seat(name, player, current)
        penalties: list[int] = []
        over = None
        for event in play_game(seats, setup.rules, this_seed):
            if isinstance(event, RoundScored):
                penalties += [event.penalties[name] for name in setup.names]
            elif isinstance(event, GameOver):
                over = event
        assert over is not None
    except _TooSlow:
        raise ArenaPlayerError("player", _FAILED, game=game + 1, seed=this_seed, seat=current[0],
                               reason=_phrase(_TOO_SLOW, seconds=setup.move_timeout)) from None
    except ArenaPlayerError:
        raise
    except (Exception, SystemExit) as error:
        details = traceback.format_exc()
        if isinstance(error, Take5Error):
            raise ArenaPlayerError(error.rule, _FAILED, where=error.where, details=details,
                                   game=game + 1, seed=this_seed, seat=current[0],
                                   reason=_phrase(error.template, **error.params)) from None
        raise ArenaPlayerError("player", _FAILED, details=details, game=game + 1,
                               seed=this_seed, seat=current[0], reason=_reason(error)) from None
    won = set(over.winners)
    return (game, tuple(order), tuple(over.totals[name] for name in setup.names),
            sum(1 << seat for seat, name in enumerate(setup.names) if name in won),
            tuple(penalties))


def _phrase(template: str, **params: Any) -> Any:
    from take5rules._messages import Phrase

    return Phrase(template, **params)


@contextmanager
def _timer_allowed(setup: _Setup, jobs: int) -> Iterator[None]:
    if setup.move_timeout is not None and jobs <= 1 and (
            threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")):
        raise _argument(_NO_TIMER)
    yield


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


@dataclass(frozen=True, slots=True, init=False)
class ArenaResult:
    """Every game's totals, winners and round penalties, and the standings, best first.

    *duplicate*: whether each deal was played once for every seat rotation (game *k* is then
    deal ``k // players``). :meth:`report` compares the players by the duplicate protocol of
    :mod:`take5rules.agents.ladder`.

    The games' outcomes are kept compactly in :attr:`outcomes` (columns of small integers, a
    few tens of bytes a game; :mod:`take5rules.agents.arena_store`). :attr:`totals`, :attr:`winners`
    and :attr:`rounds` build the games' dicts and tuples from them on demand, every time they
    are read: read them once (``totals = result.totals``), or one game at a time with
    ``result.outcomes.game_totals(k)``, ``game_winners(k)`` and ``game_rounds(k)``. The
    standings and the report read the columns directly.

    Built from dicts and tuples as ``ArenaResult(rules, seed, totals, winners, standings,
    rounds, duplicate)``, as before; a game's winners are then kept in the order of its totals.
    """

    rules: Rules
    seed: int
    outcomes: Outcomes
    standings: tuple[Standing, ...]
    duplicate: bool

    def __init__(self, rules: Rules, seed: int, totals: Sequence[Mapping[str, int]],
                 winners: Sequence[Sequence[str]], standings: Sequence[Standing],
                 rounds: Sequence[Sequence[Mapping[str, int]]] = (),
                 duplicate: bool = False) -> None:
        seats = [standing.player for standing in standings]
        self._fill(rules, seed, Outcomes.of(seats, totals, winners, rounds), standings,
                   duplicate)

    def _fill(self, rules: Rules, seed: int, outcomes: Outcomes,
              standings: Sequence[Standing], duplicate: bool) -> None:
        for name, value in (("rules", rules), ("seed", seed), ("outcomes", outcomes),
                            ("standings", tuple(standings)), ("duplicate", bool(duplicate))):
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, rules: Rules, seed: int, outcomes: Outcomes, standings: Sequence[Standing],
           duplicate: bool) -> ArenaResult:
        """The result of the games kept in *outcomes* (as :func:`run_arena` builds it)."""
        result = object.__new__(cls)
        result._fill(rules, seed, outcomes, standings, duplicate)
        return result

    @property
    def games(self) -> int:
        """How many games were played."""
        return self.outcomes.games

    @property
    def totals(self) -> tuple[dict[str, int], ...]:
        """Every game's final totals (built on demand: a new tuple at every read)."""
        return tuple(map(self.outcomes.game_totals, range(self.games)))

    @property
    def winners(self) -> tuple[tuple[str, ...], ...]:
        """Every game's winners (built on demand: a new tuple at every read)."""
        return tuple(map(self.outcomes.game_winners, range(self.games)))

    @property
    def rounds(self) -> tuple[tuple[dict[str, int], ...], ...]:
        """Every game's rounds' penalties, or () if none were kept (built on demand)."""
        if not self.outcomes.has_rounds:
            return ()
        return tuple(map(self.outcomes.game_rounds, range(self.games)))

    def report(self, baseline: str | None = None) -> Any:
        """The :class:`take5rules.agents.ladder.Report` of this run against *baseline*.

        *baseline* is a seat name; by default the last seat.
        """
        from take5rules.agents.ladder import report

        return report(self, baseline)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description (with the ladder's report)."""
        return {
            "variant": self.rules.variant.value,
            "threshold": self.rules.threshold,
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "standings": [standing.to_json() for standing in self.standings],
            "report": self.report().to_json() if self.outcomes.has_rounds else None,
        }


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        if name == "games":
            raise RulesError("round.end", _AT_LEAST_ONE, value=value)
        raise _argument(_NOT_A_COUNT, name=name, value=value)
    if name == "games" and value > MAX_GAMES:
        raise _argument(_AT_MOST, limit=MAX_GAMES, value=value)
    return value


def _timeout(value: object) -> float | None:
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 < value < 10**6):
        raise _argument(_BAD_TIMEOUT, value=value)
    return float(value)


def run_arena(
    specs: Sequence[PlayerLike] | Mapping[str, PlayerLike],
    games: int,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    move_timeout: float | None = None,
    duplicate: bool = True,
    executor: Executor | None = None,
) -> ArenaResult:
    """Play *games* seeded games between *specs* and rank them by mean penalty.

    *specs* are players as the module says (a mapping names the seats); *progress*, if given,
    is called with the number of games just finished, as they finish. *move_timeout* (seconds)
    limits each decision of every player. With *duplicate* (the default) the games are whole
    duplicate sets: *games* is rounded up to a multiple of the players, and each deal is
    played once for every rotation of the seats. *executor*, any
    :class:`concurrent.futures.Executor` (a Dask ``Client.get_executor()``, Ray's, a pool of
    your own), plays the games instead of this process (*jobs* 1) or the arena's own process
    pool (*jobs* above 1); the results do not depend on who plays them.
    """
    rules = rules if rules is not None else Rules()
    if isinstance(specs, Mapping):
        labels, players = list(specs), tuple(specs.values())
    elif isinstance(specs, str | bytes) or not isinstance(specs, Sequence):
        raise _argument(_NOT_A_PLAYER, player=repr(specs)[:80])
    else:
        players = tuple(specs)
        labels = [_label(spec) for spec in players]
    names = check_players(list(_names(labels)), rules)
    games, jobs = _count("games", games), _count("jobs", jobs)
    if duplicate:
        games = -(-games // len(names)) * len(names)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _argument(_NOT_A_SEED, value=seed)
    setup = _Setup(players, names, rules, seed, _timeout(move_timeout), bool(duplicate))
    for spec in players:  # fail early, in this process, on a spec that does not load
        load_player(spec, 0)
    outcomes = Outcomes(names, games)
    with _timer_allowed(setup, 2 if executor is not None else jobs):
        if executor is not None:
            from take5rules.agents.arena_pool import play_on

            for outcome in play_on(executor, setup, games, progress):
                outcomes.record(outcome)
        elif jobs <= 1:
            for game in range(games):
                outcomes.record(play_one(setup, game))
                if progress is not None:
                    progress(1)
        else:
            from take5rules.agents.arena_pool import play_in_processes

            for outcome in play_in_processes(setup, games, jobs, progress):
                outcomes.record(outcome)
    spec_names = [spec if isinstance(spec, str) else _label(spec) for spec in players]
    return ArenaResult.of(rules, seed, outcomes, _standings(outcomes, spec_names),
                          bool(duplicate))


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
    return _sorted([_standing(name, spec, [game_totals[name] for game_totals in totals],
                              sum(name in won for won in winners))
                    for name, spec in zip(names, specs, strict=True)])


def _standings(outcomes: Outcomes, specs: Sequence[str]) -> tuple[Standing, ...]:
    """The standings of the games kept in *outcomes*, read from its columns."""
    count = len(outcomes.seats)
    return _sorted([_standing(name, spec, outcomes.totals[seat::count],
                              sum(mask >> seat & 1 for mask in outcomes.winners))
                    for seat, (name, spec) in enumerate(zip(outcomes.seats, specs,
                                                            strict=True))])


def _standing(name: str, spec: str, values: Sequence[int], wins: int) -> Standing:
    return Standing(name, spec, len(values), statistics.fmean(values),
                    confidence_interval(values), wins)


def _sorted(result: list[Standing]) -> tuple[Standing, ...]:
    result.sort(key=lambda standing: (standing.mean_penalty, standing.player))
    return tuple(result)
