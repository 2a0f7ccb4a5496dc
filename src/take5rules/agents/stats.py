"""The statistics of the arena and the ladder: percentile bootstraps and a Bradley–Terry fit.

One home for the figures :mod:`take5rules.agents.arena` and :mod:`take5rules.agents.ladder`
print, each checked against an independent reference in ``tests/test_stats.py``
(``scipy.stats.bootstrap`` and a likelihood maximised by ``scipy.optimize.minimize``):

* :func:`percentile_bootstrap`: the 95% percentile interval of any statistic of some units
  (games, deal sets, blocks of deal sets), resampled with replacement with a fixed seed, so
  that every interval is reproducible;
* :func:`mean_interval`: the interval of a mean, never outside the values seen; beyond
  :data:`BOOTSTRAP_LIMIT` values the normal interval of the mean (1.96 standard errors);
* :func:`paired_interval`: the mean difference of paired values (two players' figures on the
  same deal sets) with the interval of :func:`mean_interval` of the differences;
* :func:`bradley_terry_fit`: the Bradley–Terry strengths that maximise the likelihood of a
  table of pairwise wins (with a prior of half a win each way), by Newton's method on the log
  strengths with a backtracking line search, iterated until every player's expected wins match
  its wins to a relative :data:`BT_TOLERANCE`; after :data:`BT_MAX_ITERATIONS` iterations
  without getting there it raises :class:`NotConvergedError`;
* :func:`elo`: strengths on the Elo scale, 400 log10 of the strength against one player's.

>>> mean_interval([0, 0, 95])[0] >= 0
True
>>> [round(value, 3) for value in bradley_terry([[0, 3], [1, 0]])]
[1.528, 0.655]
"""

from __future__ import annotations

import math
import operator
import random
import statistics
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from take5rules._messages import N_
from take5rules.errors import MalformedInputError, Take5Error

__all__ = [
    "BOOTSTRAP_LIMIT",
    "BOOTSTRAP_RESAMPLES",
    "BT_MAX_ITERATIONS",
    "BT_PRIOR",
    "BT_TOLERANCE",
    "BradleyTerryFit",
    "NotConvergedError",
    "bradley_terry",
    "bradley_terry_fit",
    "elo",
    "mean_interval",
    "paired_interval",
    "percentile_bootstrap",
]

#: Resamples of a bootstrap interval, and the most values :func:`mean_interval` resamples
#: (beyond, the normal interval of the mean is as good, and it is kept within the values seen).
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_LIMIT = 1000

#: The Bradley–Terry fit's prior (wins added to every pair, each way, so that no strength is
#: 0 or infinite), its tolerance (the largest relative gap allowed between a player's wins and
#: its expected wins under the fitted strengths) and the most Newton iterations it takes.
BT_PRIOR = 0.5
BT_TOLERANCE = 1e-9
BT_MAX_ITERATIONS = 100

#: The most players a Bradley–Terry fit takes (its time grows with the cube of the players).
_MOST_PLAYERS = 1000

_T = TypeVar("_T")

#: The type codes of :class:`array.array` that hold numbers (all but characters).
_NUMBERS = "bBhHiIlLqQfd"

_BAD_LEVEL = N_("a confidence level is a number between 0 and 1, not {value!r}")
_NOT_A_COUNT = N_("{name} is a whole number of at least {least}, not {value!r}")
_NOT_VALUES = N_("{name} are at least one finite number, not {value!r}")
_NOT_PAIRED = N_("paired values come in two lists of the same length, not {first} and {second}")
_NOT_A_TABLE = N_("the wins are a square table of finite numbers of at least 0, one row and "
                  "one column for each player (at most {most}): {problem}")
_BAD_PRIOR = N_("the prior is a finite number of wins above 0, not {value!r}")
_BAD_TOLERANCE = N_("the tolerance is a finite number above 0, not {value!r}")
_NOT_CONVERGED = N_("the Bradley–Terry fit did not converge in {iterations} iterations: a "
                    "player's wins are still {change} away from its expected wins (relatively), "
                    "above the tolerance {tolerance}")


class NotConvergedError(Take5Error, ArithmeticError):
    """A Bradley–Terry fit that did not reach its tolerance within its iterations.

    Its rule id is ``argument``: no rule of the game is broken, the fit was asked for more than
    its iterations can give. ``strengths`` holds where it stopped.
    """

    def __init__(self, template: str, /, *, strengths: Sequence[float] = (),
                 **params: Any) -> None:
        self.strengths = tuple(strengths)
        super().__init__("argument", template, **params)


def _argument(template: str, **params: Any) -> MalformedInputError:
    return MalformedInputError("argument", template, **params)


def _count(name: str, value: object, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise _argument(_NOT_A_COUNT, name=name, least=least, value=value)
    return value


def _level(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise _argument(_BAD_LEVEL, value=value)
    return float(value)


def _values(name: str, values: object) -> Sequence[float]:
    """*values* as given, if they are a non-empty sequence of finite real numbers."""
    if isinstance(values, array) and values.typecode in _NUMBERS:
        good = bool(values) and all(map(math.isfinite, values))  # numbers by construction
    else:
        good = (not isinstance(values, str | bytes) and isinstance(values, Sequence)
                and bool(values) and not any(
                    isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) for value in values))
    if not good:
        shown = repr(values)
        raise _argument(_NOT_VALUES, name=name,
                        value=shown if len(shown) <= 60 else shown[:57] + "...")
    return values  # type: ignore[return-value]


def percentile_bootstrap(units: Sequence[_T], statistic: Callable[[list[_T]], Sequence[float]],
                         resamples: int = BOOTSTRAP_RESAMPLES, level: float = 0.95,
                         seed: int = 0) -> list[tuple[float, float]]:
    """The percentile bootstrap interval of each figure *statistic* gives of *units*.

    *statistic* is computed on *resamples* resamples of *units* (as many units, drawn with
    replacement by ``random.Random(seed).choices``); each of its figures' values are sorted and
    cut at the (1 - *level*) / 2 and (1 + *level*) / 2 quantiles (the lower and the nearest
    order statistic of the resamples: the 50th and the 1950th of 2000 at 95%).

    >>> percentile_bootstrap([1, 2, 3, 4], lambda sample: [min(sample), max(sample)], 200)
    [(1, 3), (2, 4)]
    """
    resamples = _count("resamples", resamples)
    alpha = (1 - _level(level)) / 2
    if not units:
        raise _argument(_NOT_VALUES, name="units", value=list(units))
    rng = random.Random(seed)
    samples = [statistic(rng.choices(units, k=len(units))) for _ in range(resamples)]
    low, high = int(alpha * (resamples - 1)), int((1 - alpha) * (resamples - 1) + 0.5)
    bounds = []
    for column in zip(*samples, strict=True):
        ordered = sorted(column)
        bounds.append((ordered[low], ordered[high]))
    return bounds


def mean_interval(values: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES
                  ) -> tuple[float, float]:
    """The 95% confidence interval of the mean of *values*: a percentile bootstrap.

    The bootstrap of :func:`percentile_bootstrap` (seed 0). It never leaves the range of
    *values*: over three games of 0, 0 and 95 bull heads, never below 0. Beyond
    :data:`BOOTSTRAP_LIMIT` values, the normal interval of the mean (1.96 standard errors), kept
    within that range too.

    >>> mean_interval([7])
    (7.0, 7.0)
    >>> low, high = mean_interval([0, 0, 95])
    >>> 0 <= low < high <= 95
    True
    """
    values = _values("values", values)
    count = len(values)
    mean = statistics.fmean(values)
    if count < 2:
        return mean, mean
    smallest, largest = float(min(values)), float(max(values))
    if count > BOOTSTRAP_LIMIT:
        half = 1.96 * statistics.stdev(values) / count**0.5
        return max(smallest, mean - half), min(largest, mean + half)
    [(low, high)] = percentile_bootstrap(values, _mean, resamples)
    return max(smallest, low), min(largest, high)


def _mean(sample: list[float]) -> tuple[float]:
    return (statistics.fmean(sample),)


def paired_interval(first: Sequence[float], second: Sequence[float],
                    resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float, float]:
    """The mean of ``first[k] - second[k]`` and its 95% interval (:func:`mean_interval`).

    The pairs are resampled together, so what the pairing shares (a deal set's cards) cancels
    out: the paired bootstrap.

    >>> paired_interval([3, 5, 4], [4, 6, 5])
    (-1.0, -1.0, -1.0)
    """
    first, second = _values("first", first), _values("second", second)
    if len(first) != len(second):
        raise _argument(_NOT_PAIRED, first=len(first), second=len(second))
    differences = array("d", map(operator.sub, first, second))
    low, high = mean_interval(differences, resamples)
    return statistics.fmean(differences), low, high


@dataclass(frozen=True, slots=True)
class BradleyTerryFit:
    """Fitted Bradley–Terry strengths (geometric mean 1), the iterations and the last gap.

    ``change`` is the largest relative gap between a player's wins and its expected wins under
    ``strengths``: at most the fit's tolerance.
    """

    strengths: tuple[float, ...]
    iterations: int
    change: float


def _table(wins: object) -> list[list[float]]:
    """*wins* as a list of rows of floats, if it is a square table of finite numbers >= 0."""
    problem = ""
    rows: list[list[float]] = []
    if isinstance(wins, str | bytes) or not isinstance(wins, Sequence) or not wins:
        problem = "not a non-empty table"
    elif len(wins) > _MOST_PLAYERS:
        problem = f"{len(wins)} rows"
    else:
        for row in wins:
            if isinstance(row, str | bytes) or not isinstance(row, Sequence) or len(row) != len(
                    wins):
                problem = f"a row is not {len(wins)} numbers"
                break
            if any(isinstance(value, bool) or not isinstance(value, int | float)
                   or not math.isfinite(value) or value < 0 for value in row):
                problem = f"a row holds {list(row)!r}"[:80]
                break
            rows.append([float(value) for value in row])
    if problem:
        raise _argument(_NOT_A_TABLE, most=_MOST_PLAYERS, problem=problem)
    return rows


def _win_chance(difference: float) -> float:
    """The chance that a player of log strength *difference* above another beats it."""
    if difference >= 0:
        return 1 / (1 + math.exp(-difference))
    tail = math.exp(difference)
    return tail / (1 + tail)


def _log_likelihood(won: list[list[float]], theta: list[float]) -> float:
    """The log-likelihood of the wins *won* under the log strengths *theta*."""
    total = 0.0
    for i, row in enumerate(won):
        for j in range(i + 1, len(row)):
            larger, smaller = max(theta[i], theta[j]), min(theta[i], theta[j])
            both = larger + math.log1p(math.exp(smaller - larger))
            total += row[j] * theta[i] + won[j][i] * theta[j] - (row[j] + won[j][i]) * both
    return total


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """The solution of ``matrix @ x = vector`` for a symmetric positive definite *matrix*."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for column in range(size):
        pivot = rows[column][column]
        for below in range(column + 1, size):
            factor = rows[below][column] / pivot
            if factor:
                rows[below] = [a - factor * b for a, b in zip(rows[below], rows[column],
                                                              strict=True)]
    solution = [0.0] * size
    for row in range(size - 1, -1, -1):
        known = sum(rows[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return solution


def bradley_terry_fit(wins: Sequence[Sequence[float]], *, prior: float = BT_PRIOR,
                      tolerance: float = BT_TOLERANCE,
                      max_iterations: int = BT_MAX_ITERATIONS) -> BradleyTerryFit:
    """The Bradley–Terry strengths of *wins* (``wins[i][j]``: i's wins over j), fitted.

    The strengths p maximise the likelihood of the wins, each pair's with ``prior`` wins added
    each way, where i beats j with chance p_i / (p_i + p_j). Newton's method on the log
    strengths (the log-likelihood is concave there), from equal strengths, each step halved
    until the likelihood rises enough (Armijo's rule). It stops when every player's expected
    wins, the sum over its opponents of its games with each times its chance of beating it,
    equal its wins within a relative *tolerance* (the likelihood's gradient is then near 0),
    and raises :class:`NotConvergedError` if *max_iterations* steps do not get there. The
    strengths' geometric mean is 1.

    >>> fit = bradley_terry_fit([[0, 3], [1, 0]])
    >>> round(fit.strengths[0] / fit.strengths[1], 6), fit.change <= BT_TOLERANCE
    (2.333333, True)
    """
    table = _table(wins)
    if (isinstance(prior, bool) or not isinstance(prior, int | float)
            or not math.isfinite(prior) or prior <= 0):
        raise _argument(_BAD_PRIOR, value=prior)
    if (isinstance(tolerance, bool) or not isinstance(tolerance, int | float)
            or not math.isfinite(tolerance) or tolerance <= 0):
        raise _argument(_BAD_TOLERANCE, value=tolerance)
    max_iterations = _count("max_iterations", max_iterations, 0)
    count = len(table)
    if count == 1:
        return BradleyTerryFit((1.0,), 0, 0.0)
    won = [[table[i][j] + prior if i != j else 0.0 for j in range(count)] for i in range(count)]
    totals = [sum(row) for row in won]
    theta = [0.0] * count
    iteration = 0
    while True:
        expected, curvature = _derivatives(won, theta)
        change = _gap(totals, expected)
        if change <= tolerance:
            return BradleyTerryFit(_strengths(theta), iteration, change)
        if iteration == max_iterations:
            raise NotConvergedError(_NOT_CONVERGED, strengths=_strengths(theta),
                                    iterations=iteration, change=f"{change:.3g}",
                                    tolerance=f"{tolerance:.3g}")
        iteration += 1
        gradient = [total - mean for total, mean in zip(totals, expected, strict=True)]
        # theta[0] stays put (the likelihood depends on differences only): a system of the rest
        step = [0.0, *_solve([row[1:] for row in curvature[1:]], gradient[1:])]
        theta = _line_search(won, totals, theta, step, gradient, change)


def _derivatives(won: list[list[float]], theta: list[float]
                 ) -> tuple[list[float], list[list[float]]]:
    """Each player's expected wins under *theta*, and minus the log-likelihood's Hessian."""
    count = len(theta)
    expected = [0.0] * count
    curvature = [[0.0] * count for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            games = won[i][j] + won[j][i]
            chance, against = _win_chance(theta[i] - theta[j]), _win_chance(theta[j] - theta[i])
            expected[i] += games * chance
            expected[j] += games * against
            weight = games * chance * against
            curvature[i][j] = curvature[j][i] = -weight
            curvature[i][i] += weight
            curvature[j][j] += weight
    return expected, curvature


def _gap(totals: list[float], expected: list[float]) -> float:
    """The largest relative gap between a player's wins and its expected wins."""
    return max(abs(total / mean - 1) for total, mean in zip(totals, expected, strict=True))


def _line_search(won: list[list[float]], totals: list[float], theta: list[float],
                 step: list[float], gradient: list[float], gap: float) -> list[float]:
    """*theta* moved along *step*, halved until the likelihood rises enough (Armijo's rule).

    Near the top the likelihood's gain may be below the rounding of its sum: a step that
    narrows the largest gap between wins and expected wins is taken too.
    """
    now = _log_likelihood(won, theta)
    slope = sum(g * s for g, s in zip(gradient, step, strict=True))
    size = 1.0
    for _ in range(60):
        moved = [value + size * delta for value, delta in zip(theta, step, strict=True)]
        if (_log_likelihood(won, moved) >= now + 1e-4 * size * slope
                or _gap(totals, _derivatives(won, moved)[0]) < gap):
            return moved
        size /= 2
    return theta


def _strengths(theta: Sequence[float]) -> tuple[float, ...]:
    """The strengths of the log strengths *theta*, scaled to a geometric mean of 1."""
    centre = statistics.fmean(theta)
    return tuple(math.exp(value - centre) for value in theta)


def bradley_terry(wins: Sequence[Sequence[float]]) -> list[float]:
    """The Bradley–Terry strengths of *wins* (:func:`bradley_terry_fit`, its defaults).

    >>> [round(value, 3) for value in bradley_terry([[0, 2, 1], [1, 0, 2], [2, 1, 0]])]
    [1.0, 1.0, 1.0]
    """
    return list(bradley_terry_fit(wins).strengths)


def elo(strengths: Sequence[float], anchor: int) -> list[float]:
    """*strengths* on the Elo scale: 400 log10 of each against that of player *anchor*.

    >>> [round(value, 2) for value in elo([3.5, 1.5], 1)]
    [147.19, 0.0]
    """
    return [400 * math.log10(value / strengths[anchor]) for value in strengths]
