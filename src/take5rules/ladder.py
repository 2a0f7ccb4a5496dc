"""The duplicate protocol's report: paired differences, split wins and a Bradley–Terry ladder.

From an :class:`~take5rules.arena.ArenaResult` :func:`report` computes, for each seat:

* its mean bull heads per deal (a round: one deal of the cards) and per game (to the
  threshold);
* its paired difference from a *baseline* seat, per deal and per game, with a 95% bootstrap
  interval. The unit of the pairing and of the bootstrap is the *deal set*: on duplicate deals
  the games of one deal played in every seat rotation (so that every player held every hand),
  otherwise one game. A negative difference is fewer bull heads than the baseline: better;
* its deal wins and game wins, a tie split evenly among those who share it;
* its Bradley–Terry rating on the Elo scale (400 log10 of the strength; the baseline at 0),
  fitted by Hunter's MM algorithm on every pair of players in every deal (fewer bull heads wins,
  a tie counts half to each, and every pair gets half a win each way as a prior so that no
  rating is infinite), with a 95% percentile bootstrap interval over the deal sets.

>>> from take5rules.arena import run_arena
>>> result = run_arena(["cautious", "random"], games=4, seed=1)
>>> ladder = result.report("random")
>>> [rating.player for rating in ladder.ratings], ladder.sets
(['cautious', 'random'], 2)
>>> ladder.ratings[1].deal_difference
(0.0, 0.0, 0.0)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._text import N_
from .errors import RulesError

if TYPE_CHECKING:
    from .arena import ArenaResult

__all__ = ["Rating", "Report", "bradley_terry", "report"]

#: Bootstrap resamples of the ladder's intervals.
LADDER_RESAMPLES = 200

_NOT_A_SEAT = N_("the baseline {player!r} is not a seat of this arena; the seats are {seats}")


@dataclass(frozen=True, slots=True)
class Rating:
    """One seat's figures (:mod:`take5rules.ladder`). Each difference is (mean, low, high)."""

    player: str
    per_deal: float
    per_game: float
    deal_difference: tuple[float, float, float]
    game_difference: tuple[float, float, float]
    deal_wins: float
    game_wins: float
    elo: float
    elo_interval: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "player": self.player,
            "per_deal": self.per_deal,
            "per_game": self.per_game,
            "deal_difference": list(self.deal_difference),
            "game_difference": list(self.game_difference),
            "deal_wins": self.deal_wins,
            "game_wins": self.game_wins,
            "elo": self.elo,
            "elo_interval_95": list(self.elo_interval),
        }


@dataclass(frozen=True, slots=True)
class Report:
    """Every seat's :class:`Rating` against *baseline*, best (highest rating) first."""

    baseline: str
    sets: int
    deals: int
    ratings: tuple[Rating, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"baseline": self.baseline, "deal_sets": self.sets, "deals": self.deals,
                "ratings": [rating.to_json() for rating in self.ratings]}


def bradley_terry(wins: Sequence[Sequence[float]], iterations: int = 200) -> list[float]:
    """The Bradley–Terry strengths from *wins* (``wins[i][j]``: i's wins over j), MM fitted.

    Half a win each way is added to every pair as a prior. The strengths' geometric mean is 1.

    >>> [round(value, 3) for value in bradley_terry([[0, 3], [1, 0]])]
    [1.528, 0.655]
    """
    count = len(wins)
    won = [[wins[i][j] + 0.5 if i != j else 0.0 for j in range(count)] for i in range(count)]
    strength = [1.0] * count
    for _ in range(iterations):
        updated = []
        for i in range(count):
            total = sum(won[i])
            denominator = sum((won[i][j] + won[j][i]) / (strength[i] + strength[j])
                              for j in range(count) if j != i)
            updated.append(total / denominator)
        scale = math.exp(statistics.fmean(math.log(value) for value in updated))
        strength = [value / scale for value in updated]
    return strength


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    from .arena import confidence_interval

    low, high = confidence_interval(values)
    return statistics.fmean(values), low, high


def _pairs(rounds: Sequence[dict[str, int]], names: Sequence[str]) -> list[list[float]]:
    count = len(names)
    wins = [[0.0] * count for _ in range(count)]
    for penalties in rounds:
        for i in range(count):
            mine = penalties[names[i]]
            for j in range(count):
                if i != j:
                    theirs = penalties[names[j]]
                    wins[i][j] += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return wins


def report(result: ArenaResult, baseline: str | None = None) -> Report:
    """The duplicate protocol's figures of *result* against *baseline* (default: last seat)."""
    names = [standing.player for standing in result.standings]
    seats = list(result.totals[0]) if result.totals else names
    base = baseline if baseline is not None else seats[-1]
    if base not in seats:
        raise RulesError("argument", _NOT_A_SEAT, player=base, seats=", ".join(seats))
    size = len(seats) if result.duplicate else 1
    units = [range(start, min(start + size, len(result.totals)))
             for start in range(0, len(result.totals), size)]
    unit_pairs = [_pairs([penalties for game in unit for penalties in result.rounds[game]],
                         seats) for unit in units]
    ratings_of = _ratings(unit_pairs, seats, base)
    all_rounds = [penalties for game_rounds in result.rounds for penalties in game_rounds]
    deal_wins = dict.fromkeys(seats, 0.0)
    for penalties in all_rounds:
        least = min(penalties.values())
        sharing = [seat for seat in seats if penalties[seat] == least]
        for seat in sharing:
            deal_wins[seat] += 1 / len(sharing)
    game_wins = dict.fromkeys(seats, 0.0)
    for won in result.winners:
        for seat in won:
            game_wins[seat] += 1 / len(won)

    def per_deal(seat: str, unit: range) -> float:
        rounds = [penalties for game in unit for penalties in result.rounds[game]]
        return sum(penalties[seat] for penalties in rounds) / len(rounds)

    def per_game(seat: str, unit: range) -> float:
        return statistics.fmean(result.totals[game][seat] for game in unit)

    ratings = []
    for seat in seats:
        elo, low, high = ratings_of[seat]
        ratings.append(Rating(
            seat,
            sum(penalties[seat] for penalties in all_rounds) / len(all_rounds),
            statistics.fmean(totals[seat] for totals in result.totals),
            _interval([per_deal(seat, unit) - per_deal(base, unit) for unit in units]),
            _interval([per_game(seat, unit) - per_game(base, unit) for unit in units]),
            deal_wins[seat], game_wins[seat], elo, (low, high),
        ))
    ratings.sort(key=lambda rating: (-rating.elo, rating.player))
    return Report(base, len(units), len(all_rounds), tuple(ratings))


def _ratings(unit_pairs: Sequence[list[list[float]]], seats: Sequence[str],
             base: str) -> dict[str, tuple[float, float, float]]:
    """Each seat's Elo-scale rating and its bootstrap interval over the deal sets."""
    count = len(seats)
    anchor = seats.index(base)

    def elo(chosen: Sequence[list[list[float]]]) -> list[float]:
        wins = [[sum(unit[i][j] for unit in chosen) for j in range(count)] for i in range(count)]
        strength = bradley_terry(wins)
        return [400 * math.log10(value / strength[anchor]) for value in strength]

    point = elo(unit_pairs)
    rng = random.Random(0)
    samples = [elo(rng.choices(unit_pairs, k=len(unit_pairs))) for _ in range(LADDER_RESAMPLES)]
    result = {}
    for index, seat in enumerate(seats):
        values = sorted(sample[index] for sample in samples)
        result[seat] = (point[index], values[int(0.025 * (len(values) - 1))],
                        values[int(0.975 * (len(values) - 1) + 0.5)])
    return result
