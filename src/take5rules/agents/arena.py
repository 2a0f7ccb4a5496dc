"""A tournament runner for strategies: many seeded games, mean penalties, intervals, win rates.

:func:`run_arena` plays *games* whole games (:func:`take5rules.playing.engine.play_game`) between
the
given players and summarises each player's final totals: the mean penalty with its 95%
confidence interval (a bootstrap of the games, so never outside the totals seen), and the share
of games it won (a shared win counts for each winner).

A player is given as

* a *spec*: a built-in kind (``random``, ``lowest``, ``cautious``, ``greedy``,
  ``montecarlo``, ``ismcts``, ``best``, and the learned ``policy``: see
  :mod:`take5rules.agents.player_kinds`), a class of an importable
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

The arena is four modules besides this one, each of one concern: the seats and their players
(:mod:`~take5rules.agents.arena_seats`), one game's deal, seating and outcome
(:mod:`~take5rules.agents.arena_games`), the worker processes
(:mod:`~take5rules.agents.arena_pool`) and the compact outcomes
(:mod:`~take5rules.agents.arena_store`); the intervals are those of
:mod:`take5rules.agents.stats`.

A player that raises, breaks a rule or (with *move_timeout*) takes too long to decide stops the
run with an :class:`ArenaPlayerError` naming the game (counted from 1, as people count), its
seed and the seat.

A player program (``cmd:COMMAND``: :mod:`take5rules.playing.program_player`) is started once
per seat and process and plays all its games there. When it fails (it dies, answers out of
shape or illegally, too late: a :class:`~take5rules.playing.program_player.PlayerProgramError`)
it stops that game only: the arena reports the failure (*on_failure*, with the same
:class:`ArenaPlayerError`) and goes on with the other games, starting the program afresh.
The games that did not finish are left out of the standings (:attr:`ArenaResult.unfinished`),
and on duplicate deals so are the other games of their deals, so that every deal kept is
played in every rotation (:attr:`ArenaResult.left_out`). When the first :data:`GIVE_UP`
games to end all failed, or no game finished at all, the run stops with the failure.

>>> result = run_arena(["cautious", "random"], games=4, seed=1)
>>> [standing.player for standing in result.standings]
['cautious', 'random']
>>> result.standings[0].games
4
"""

from __future__ import annotations

import reprlib
import signal
import statistics
import threading
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from take5rules._messages import N_
from take5rules.agents.arena_games import (
    ArenaSetup,
    GameFailure,
    SeatPrograms,
    game_seed,
    is_program,
    play_or_fail,
    program_player,
)
from take5rules.agents.arena_seats import (
    ArenaPlayerError,
    PlayerLike,
    argument_error,
    load_player,
    not_a_player,
    seat_label,
    seat_names,
)
from take5rules.agents.arena_store import Outcome, Outcomes
from take5rules.agents.ladder import Report, report
from take5rules.agents.stats import mean_interval
from take5rules.errors import RulesError
from take5rules.setup import check_players
from take5rules.variants import Rules

__all__ = [
    "GIVE_UP",
    "MAX_GAMES",
    "ArenaPlayerError",
    "ArenaResult",
    "PlayerLike",
    "Standing",
    "game_seed",
    "games_played",
    "load_player",
    "run_arena",
    "standings",
    "standings_of",
]

#: The most games an arena plays. Their outcomes take about 64 bytes a game of four seats and
#: four rounds (:mod:`take5rules.agents.arena_store`), so that the longest run keeps them in under
#: 1 GB, and its report stays within a minute or two.
MAX_GAMES = 10**7

#: The run stops when this many games have failed before any finished (a program that fails
#: every game would otherwise fail them all, each perhaps after its whole move time).
GIVE_UP = 3

_GAVE_UP = N_("the arena stops: its first {failed} games to end did not finish")
_NO_WHOLE_DEAL = N_("no deal was played in every rotation of the seats: each deal lost a game "
                    "that did not finish (unfinished games: {failed}); there are no standings")
_BAD_TIMEOUT = N_("a move timeout is a number of seconds above 0, not {value!r}")
_NO_TIMER = N_("a move timeout needs the main thread (or jobs above 1)")
_AT_LEAST_ONE = N_("an arena plays at least one game, not {value!r}")
_AT_MOST = N_("the number of games of an arena is at most {limit}, not {value}")
_NOT_A_COUNT = N_("{name} is a whole number of at least 1, not {value!r}")
_NOT_A_SEED = N_("the seed is a whole number, not {value!r}")
_NOT_RULES = N_("rules = {value}: the rules are a take5rules.variants.Rules, or None for the "
                "standard game")


@contextmanager
def _timer_allowed(setup: ArenaSetup, jobs: int) -> Iterator[None]:
    if setup.move_timeout is not None and jobs <= 1 and (
            threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")):
        raise argument_error(_NO_TIMER)
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

    :attr:`unfinished`: the games (numbered from 1) that a player program stopped, left out of
    the outcomes and the standings; :attr:`left_out`: how many other games were left out with
    them, on duplicate deals, so that every deal kept is played in every rotation. The games
    kept are then numbered from 0 again, in their order: :attr:`games` counts them.
    """

    rules: Rules
    seed: int
    outcomes: Outcomes
    standings: tuple[Standing, ...]
    duplicate: bool
    unfinished: tuple[int, ...]
    left_out: int

    def __init__(self, rules: Rules, seed: int, totals: Sequence[Mapping[str, int]],
                 winners: Sequence[Sequence[str]], standings: Sequence[Standing],
                 rounds: Sequence[Sequence[Mapping[str, int]]] = (),
                 duplicate: bool = False) -> None:
        seats = [standing.player for standing in standings]
        self._fill(rules, seed, Outcomes.of(seats, totals, winners, rounds), standings,
                   duplicate)

    def _fill(self, rules: Rules, seed: int, outcomes: Outcomes,
              standings: Sequence[Standing], duplicate: bool,
              unfinished: Sequence[int] = (), left_out: int = 0) -> None:
        for name, value in (("rules", rules), ("seed", seed), ("outcomes", outcomes),
                            ("standings", tuple(standings)), ("duplicate", bool(duplicate)),
                            ("unfinished", tuple(unfinished)), ("left_out", left_out)):
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, rules: Rules, seed: int, outcomes: Outcomes, standings: Sequence[Standing],
           duplicate: bool, unfinished: Sequence[int] = (), left_out: int = 0) -> ArenaResult:
        """The result of the games kept in *outcomes* (as :func:`run_arena` builds it)."""
        result = object.__new__(cls)
        result._fill(rules, seed, outcomes, standings, duplicate, unfinished, left_out)
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

    def report(self, baseline: str | None = None) -> Report:
        """The :class:`take5rules.agents.ladder.Report` of this run against *baseline*.

        *baseline* is a seat name; by default the last seat.
        """
        return report(self, baseline)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description (with the ladder's report)."""
        return {
            "variant": self.rules.variant.value,
            "threshold": self.rules.threshold,
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "unfinished": list(self.unfinished),
            "left_out": self.left_out,
            "standings": [standing.to_json() for standing in self.standings],
            "report": self.report().to_json() if self.outcomes.has_rounds else None,
        }


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        if name == "games":
            raise RulesError("round.end", _AT_LEAST_ONE, value=value)
        raise argument_error(_NOT_A_COUNT, name=name, value=value)
    if name == "games" and value > MAX_GAMES:
        raise argument_error(_AT_MOST, limit=MAX_GAMES, value=value)
    return value


def _timeout(value: object) -> float | None:
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not 0 < value < 10**6):
        raise argument_error(_BAD_TIMEOUT, value=value)
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
    on_failure: Callable[[ArenaPlayerError, bool], None] | None = None,
    move_ms: int | None = 10_000,
    game_ms: int | None = None,
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

    A game that a player program stopped is left out (see the module), and *on_failure*, if
    given, is called with its error and whether games are still to come. *move_ms* and
    *game_ms* are the programs' time controls (wall-clock ms a move, and a game; ``None``: no
    limit), as the take5-player protocol defines them.
    """
    if rules is not None and not isinstance(rules, Rules):
        raise argument_error(_NOT_RULES, value=reprlib.repr(rules))
    rules = rules if rules is not None else Rules()
    if isinstance(specs, Mapping):
        labels, players = list(specs), tuple(specs.values())
    elif isinstance(specs, str | bytes) or not isinstance(specs, Sequence):
        raise not_a_player(repr(specs)[:80])
    else:
        players = tuple(specs)
        labels = [seat_label(spec) for spec in players]
    names = check_players(list(seat_names(labels)), rules)
    games, jobs = _count("games", games), _count("jobs", jobs)
    games = games_played(games, len(names), bool(duplicate))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise argument_error(_NOT_A_SEED, value=seed)
    setup = ArenaSetup(players, names, rules, seed, _timeout(move_timeout), bool(duplicate),
                       move_ms, game_ms)
    for spec in players:  # fail early, in this process, on a spec that does not load
        if isinstance(spec, str) and is_program(spec):
            program_player(setup, spec)  # its command and time controls (nothing started)
        else:
            load_player(spec, 0)
    played = _Played(Outcomes(names, games), on_failure)
    with _timer_allowed(setup, 2 if executor is not None else jobs):
        if executor is not None:  # the worker machinery is imported only when it is used
            from take5rules.agents.arena_pool import play_on

            for outcome in play_on(executor, setup, games, progress):
                played.take(outcome)
        elif jobs <= 1:
            with _stops(players), SeatPrograms() as programs:
                for game in range(games):
                    played.take(play_or_fail(setup, game, programs))
                    if progress is not None:
                        progress(1)
        else:
            from take5rules.agents.arena_pool import play_in_processes

            for outcome in play_in_processes(setup, games, jobs, progress):
                played.take(outcome)
    outcomes, left_out = played.kept(len(names) if duplicate else 1)
    spec_names = [spec if isinstance(spec, str) else seat_label(spec) for spec in players]
    return ArenaResult.of(rules, seed, outcomes, standings_of(outcomes, spec_names),
                          bool(duplicate), sorted(game + 1 for game in played.failed), left_out)


def _stops(players: Sequence[PlayerLike]) -> AbstractContextManager[None]:
    """With a program seated: SIGTERM and SIGINT stop the run through its ``finally`` blocks."""
    if not any(isinstance(spec, str) and is_program(spec) for spec in players):
        return nullcontext()
    from take5rules.agents.arena_pool import interrupting

    return interrupting()


class _Played:
    """The games as they end: outcomes recorded, failures of programs counted and reported."""

    def __init__(self, outcomes: Outcomes,
                 on_failure: Callable[[ArenaPlayerError, bool], None] | None) -> None:
        self.outcomes, self.on_failure = outcomes, on_failure
        self.failed: array[int] = array("q")
        self.finished = 0
        self.first: ArenaPlayerError | None = None

    def take(self, played: Outcome | GameFailure) -> None:
        """Record a game's outcome, or count and report its failure (stop the run: GIVE_UP)."""
        if not isinstance(played, GameFailure):
            self.outcomes.record(played)
            self.finished += 1
            return
        self.failed.append(played.game)
        self.first = self.first or played.error
        going_on = self.finished + len(self.failed) < self.outcomes.games
        if self.on_failure is not None:
            self.on_failure(played.error, going_on)
        if not self.finished and len(self.failed) >= GIVE_UP and going_on:
            raise ArenaPlayerError(played.error.rule, _GAVE_UP, failed=len(self.failed))

    def kept(self, size: int) -> tuple[Outcomes, int]:
        """The outcomes of the games kept, numbered anew, and how many finished games were left out.

        A deal set of *size* games (one game on independent deals) is kept whole or not at all.
        """
        if self.first is None:
            return self.outcomes, 0
        if not self.finished:
            raise self.first
        games, seats = self.outcomes.games, len(self.outcomes.seats)
        lost = {game // size for game in self.failed}
        kept = games - sum(min(size, games - unit * size) for unit in lost)
        if not kept:
            raise ArenaPlayerError(self.first.rule, _NO_WHOLE_DEAL, failed=len(self.failed))
        store = Outcomes(self.outcomes.seats, kept)
        source = self.outcomes
        number = 0
        for game in range(games):
            if game // size in lost:
                continue
            span = slice(game * seats, (game + 1) * seats)
            store.record((number, tuple(source.orders[span]), tuple(source.totals[span]),
                          source.winners[game], tuple(source.penalties_of(game))))
            number += 1
        return store, self.finished - kept


def games_played(games: int, seats: int, duplicate: bool = True) -> int:
    """How many games an arena asked for *games* plays: on duplicate deals, whole deal sets.

    Each deal is played once for every rotation of the *seats* seats, so *games* is rounded up
    to a multiple of *seats*; on independent deals it is played as asked.

    >>> games_played(20, 3), games_played(21, 3), games_played(20, 3, duplicate=False)
    (21, 21, 20)
    """
    return -(-games // seats) * seats if duplicate else games


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


def standings_of(outcomes: Outcomes, specs: Sequence[str]) -> tuple[Standing, ...]:
    """The standings of the games kept in *outcomes*, read from its columns, best first.

    *specs* are the seats' specs, in the order of ``outcomes.seats``.
    """
    count = len(outcomes.seats)
    return _sorted([_standing(name, spec, outcomes.totals[seat::count],
                              sum(mask >> seat & 1 for mask in outcomes.winners))
                    for seat, (name, spec) in enumerate(zip(outcomes.seats, specs,
                                                            strict=True))])


def _standing(name: str, spec: str, values: Sequence[int], wins: int) -> Standing:
    return Standing(name, spec, len(values), statistics.fmean(values), mean_interval(values),
                    wins)


def _sorted(result: list[Standing]) -> tuple[Standing, ...]:
    result.sort(key=lambda standing: (standing.mean_penalty, standing.player))
    return tuple(result)
