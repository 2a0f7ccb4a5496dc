"""The duplicate protocol's report: paired differences, split wins and a Bradley–Terry ladder.

From an :class:`~take5rules.agents.arena.ArenaResult` :func:`report` computes, for each seat:

* its mean bull heads per deal (a round: one deal of the cards) and per game (to the
  threshold);
* its paired difference from a *baseline* seat, per deal and per game, with a 95% bootstrap
  interval. The unit of the pairing and of the bootstrap is the *deal set*: on duplicate deals
  the games of one deal played in every seat rotation (so that every player held every hand),
  otherwise one game. A negative difference is fewer bull heads than the baseline: better;
* its deal wins and game wins, a tie split evenly among those who share it;
* its Bradley–Terry rating on the Elo scale (400 log10 of the strength; the baseline at 0),
  the maximum-likelihood fit of :func:`take5rules.agents.stats.bradley_terry_fit` (to its
  tolerance) on every pair of players in every deal (fewer bull heads wins, a tie counts half
  to each, and every pair gets half a win each way as a prior so that no rating is infinite),
  with a 95% percentile bootstrap interval over the deal sets (beyond :data:`LADDER_BLOCKS`
  deal sets, over that many blocks of consecutive deal sets).

The ratings come in the order of the arena's standings: the fewest bull heads a game first
(then by name), so that the two tables of ``take5rules arena`` list the players alike. The
statistics are those of :mod:`take5rules.agents.stats`. The report reads the games' compact
outcomes in one pass; beyond those limits (and
:data:`~take5rules.agents.stats.BOOTSTRAP_LIMIT` deal sets for the differences, which then take
the normal interval) its time grows no faster than the games.

>>> from take5rules.agents.arena import run_arena
>>> result = run_arena(["cautious", "random"], games=4, seed=1)
>>> ladder = result.report("random")
>>> [rating.player for rating in ladder.ratings], ladder.sets
(['cautious', 'random'], 2)
>>> ladder.ratings[1].deal_difference
(0.0, 0.0, 0.0)
"""

from __future__ import annotations

import operator
import statistics
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from take5rules._messages import N_
from take5rules.agents.arena_store import Outcomes
from take5rules.agents.stats import bradley_terry, elo, paired_interval, percentile_bootstrap
from take5rules.errors import RulesError

__all__ = ["Played", "Rating", "Report", "report"]

#: Bootstrap resamples of the ladder's intervals.
LADDER_RESAMPLES = 200

#: The most blocks the rating's bootstrap resamples. Up to this many deal sets each deal set is
#: a block; beyond, consecutive deal sets are pooled into this many blocks of nearly equal size
#: and the blocks are resampled. Deal sets are independent, so a block's wins are a sum of
#: independent deal sets' wins and the resampled totals keep the spread of resampling the deal
#: sets one by one; the time no longer grows with the games.
LADDER_BLOCKS = 1000

_NO_ROUNDS = N_("the report compares the players deal by deal: it needs the penalties of "
                "every round, and some game here has none")
_NOT_A_SEAT = N_("the baseline {player!r} is not a seat of this arena; the seats are {seats}")


@dataclass(frozen=True, slots=True)
class Rating:
    """One seat's figures in the ladder. Each difference is (mean, low, high)."""

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
    """Every seat's :class:`Rating` against *baseline*, fewest bull heads a game first."""

    baseline: str
    sets: int
    deals: int
    ratings: tuple[Rating, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {"baseline": self.baseline, "deal_sets": self.sets, "deals": self.deals,
                "ratings": [rating.to_json() for rating in self.ratings]}


class Played(Protocol):
    """What a report reads of an arena's result (:class:`~take5rules.agents.arena.ArenaResult`)."""

    @property
    def outcomes(self) -> Outcomes:
        """Every game's compact outcome."""

    @property
    def duplicate(self) -> bool:
        """Whether each deal was played once for every seat rotation."""


@dataclass(slots=True)
class _Tally:
    """What :func:`report` counts in one pass over the games (a float sum in game order)."""

    per_deal: list[array[float]]  # each seat's bull heads a deal, deal set by deal set
    per_game: list[array[float]]  # each seat's final total a game, deal set by deal set
    bull_heads: list[int]
    deals: int
    deal_wins: list[float]
    game_wins: list[float]
    blocks: list[list[int]]  # each block's pair wins, in half wins: [i * count + j]


def _tally(outcomes: Outcomes, size: int) -> _Tally:
    """One pass over the games, by deal sets of *size* games."""
    count, games = len(outcomes.seats), outcomes.games
    totals, winners, penalties = outcomes.totals, outcomes.winners, outcomes.penalties
    starts, counts = outcomes.starts, outcomes.counts
    units = -(-games // size)
    blocks = min(units, LADDER_BLOCKS)
    pairs = [(i, j, i * count + j, j * count + i)
             for i in range(count) for j in range(i + 1, count)]
    tally = _Tally([array("d") for _ in range(count)], [array("d") for _ in range(count)],
                   [0] * count, 0, [0.0] * count, [0.0] * count,
                   [[0] * (count * count) for _ in range(blocks)])
    deal_wins, game_wins = tally.deal_wins, tally.game_wins
    for unit in range(units):
        block = tally.blocks[unit * blocks // units]
        first, last = unit * size, min((unit + 1) * size, games)
        rows = array(penalties.typecode)  # the unit's rounds, one after the other
        held = [0] * count
        for game in range(first, last):
            mask = winners[game]
            won = mask.bit_count()
            for seat in range(count):
                if mask >> seat & 1:
                    game_wins[seat] += 1 / won
            for seat, total in enumerate(totals[game * count:(game + 1) * count]):
                held[seat] += total
            rows += penalties[starts[game] * count:(starts[game] + counts[game]) * count]
        deals = len(rows) // count
        columns = [rows[seat::count] for seat in range(count)]
        heads = [sum(column) for column in columns]
        for row in zip(*columns, strict=True):  # in game order, as the sums always ran
            least = min(row)
            sharing = row.count(least)
            if sharing == 1:
                deal_wins[row.index(least)] += 1.0
            else:
                for seat, value in enumerate(row):
                    if value == least:
                        deal_wins[seat] += 1 / sharing
        for i, j, i_over_j, j_over_i in pairs:
            below = sum(map(operator.lt, columns[i], columns[j]))
            above = sum(map(operator.gt, columns[i], columns[j]))
            block[i_over_j] += 2 * below + deals - below - above
            block[j_over_i] += 2 * above + deals - below - above
        if not deals:
            raise RulesError("argument", _NO_ROUNDS)
        played = last - first
        for seat in range(count):
            tally.bull_heads[seat] += heads[seat]
            tally.per_deal[seat].append(heads[seat] / deals)
            tally.per_game[seat].append(held[seat] / played)
        tally.deals += deals
    return tally


def report(result: Played, baseline: str | None = None) -> Report:
    """The duplicate protocol's figures of *result* against *baseline* (default: last seat).

    One pass over the games' compact outcomes
    (:attr:`~take5rules.agents.arena.ArenaResult.outcomes`),
    then intervals whose time does not grow with the games beyond :data:`LADDER_BLOCKS` deal
    sets (the rating) and :data:`~take5rules.agents.stats.BOOTSTRAP_LIMIT` (the differences).
    The ratings come in the order of the standings: fewest bull heads a game first.
    """
    outcomes = result.outcomes
    seats = list(outcomes.seats)
    base = baseline if baseline is not None else seats[-1]
    if base not in seats:
        raise RulesError("argument", _NOT_A_SEAT, player=base, seats=", ".join(seats))
    if not outcomes.has_rounds:
        raise RulesError("argument", _NO_ROUNDS)
    count = len(seats)
    anchor = seats.index(base)
    tally = _tally(outcomes, count if result.duplicate else 1)
    ratings_of = _ratings([[wins / 2 for wins in block] for block in tally.blocks], seats, base)
    ratings = []
    for seat, name in enumerate(seats):
        rating, low, high = ratings_of[name]
        ratings.append(Rating(
            name,
            tally.bull_heads[seat] / tally.deals,
            statistics.fmean(outcomes.totals[seat::count]),
            paired_interval(tally.per_deal[seat], tally.per_deal[anchor]),
            paired_interval(tally.per_game[seat], tally.per_game[anchor]),
            tally.deal_wins[seat], tally.game_wins[seat], rating, (low, high),
        ))
    ratings.sort(key=lambda rating: (rating.per_game, rating.player))  # as the standings
    return Report(base, len(tally.per_deal[0]), tally.deals, tuple(ratings))


def _ratings(blocks: Sequence[list[float]], seats: Sequence[str],
             base: str) -> dict[str, tuple[float, float, float]]:
    """Each seat's Elo-scale rating and its bootstrap interval over the blocks of deal sets.

    A block's pair wins are flat: ``block[i * count + j]`` is i's wins over j.
    """
    count = len(seats)
    anchor = seats.index(base)

    def ratings(chosen: Sequence[list[float]]) -> list[float]:
        sums = [sum(column) for column in zip(*chosen, strict=True)]
        return elo(bradley_terry([sums[i * count:(i + 1) * count] for i in range(count)]),
                   anchor)

    point = ratings(blocks)
    bounds = percentile_bootstrap(blocks, ratings, LADDER_RESAMPLES)
    return {seat: (point[index], *bounds[index]) for index, seat in enumerate(seats)}
