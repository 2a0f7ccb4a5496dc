"""The arena's statistics against independent references: scipy's bootstrap and a likelihood fit.

The bootstrap intervals are compared with ``scipy.stats.bootstrap`` (percentile method, the same
data, the same number of resamples). The two draw their resamples from different generators, so
their bounds differ by the Monte Carlo error of a 2.5% quantile of B resamples: for a mean with
standard error *se* about ``sqrt(0.025 * 0.975 / B) / phi(1.96) * se``, 0.019 *se* at B = 20,000,
0.027 *se* for the difference of two such bounds. The tolerance is 0.12 *se* (above 4 of those
deviations); a 90% interval instead of a 95% one moves a bound by 0.31 *se*.

The Bradley–Terry strengths are compared with the maximum of the log-likelihood found by
``scipy.optimize.minimize`` (BFGS on the log strengths), on fixed tables of wins, and with two
tables whose answer is known by hand.
"""

from __future__ import annotations

import inspect
import math
import pickle
import random
import statistics
from typing import Any

import pytest

from take5rules.agents.stats import (
    BOOTSTRAP_LIMIT,
    BT_TOLERANCE,
    NotConvergedError,
    bradley_terry,
    bradley_terry_fit,
    elo,
    mean_interval,
    paired_interval,
    percentile_bootstrap,
)
from take5rules.errors import Take5Error

np = pytest.importorskip("numpy")
scipy_stats = pytest.importorskip("scipy.stats")
scipy_optimize = pytest.importorskip("scipy.optimize")

RESAMPLES = 20_000
TOLERANCE_IN_SE = 0.12


def _penalties(seed: int, count: int) -> list[int]:
    """Skewed whole numbers like a player's bull heads in a game: mostly small, a long tail."""
    rng = random.Random(seed)
    return [min(120, int(rng.expovariate(1 / 18)) + rng.choice((0, 0, 5, 11))) for _ in
            range(count)]


def _scipy_percentile(data: tuple[Any, ...], statistic: Any, paired: bool = False
                      ) -> tuple[float, float]:
    """scipy's percentile bootstrap interval, seeded (``rng`` since scipy 1.15)."""
    seeding = ("rng" if "rng" in inspect.signature(scipy_stats.bootstrap).parameters
               else "random_state")
    result = scipy_stats.bootstrap(
        data, statistic, n_resamples=RESAMPLES, method="percentile", confidence_level=0.95,
        paired=paired, vectorized=True, **{seeding: np.random.default_rng(20261201)})
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


@pytest.mark.parametrize(("seed", "count"), [(1, 12), (2, 60), (3, 400)])
def test_the_mean_interval_is_scipys_percentile_bootstrap(seed: int, count: int) -> None:
    values = _penalties(seed, count)
    low, high = mean_interval(values, RESAMPLES)
    reference = _scipy_percentile((np.array(values, dtype=float),),
                                  lambda sample, axis: np.mean(sample, axis=axis))
    standard_error = statistics.stdev(values) / math.sqrt(count)
    assert low == pytest.approx(reference[0], abs=TOLERANCE_IN_SE * standard_error)
    assert high == pytest.approx(reference[1], abs=TOLERANCE_IN_SE * standard_error)


def test_the_paired_interval_is_scipys_paired_percentile_bootstrap() -> None:
    # Two players on the same 80 deal sets: the second takes what the first takes plus a little
    # noise, so pairing matters: the paired interval is far narrower than an unpaired one.
    first = [float(value) for value in _penalties(4, 80)]
    rng = random.Random(5)
    second = [value + rng.choice((-3.0, -1.0, 0.0, 2.0, 6.0)) for value in first]
    mean, low, high = paired_interval(first, second, RESAMPLES)
    differences = [a - b for a, b in zip(first, second, strict=True)]
    assert mean == pytest.approx(statistics.fmean(differences), abs=1e-12)
    reference = _scipy_percentile(
        (np.array(first), np.array(second)),
        lambda x, y, axis: np.mean(x - y, axis=axis), paired=True)
    standard_error = statistics.stdev(differences) / math.sqrt(len(differences))
    assert low == pytest.approx(reference[0], abs=TOLERANCE_IN_SE * standard_error)
    assert high == pytest.approx(reference[1], abs=TOLERANCE_IN_SE * standard_error)


def test_beyond_the_limit_the_interval_is_the_normal_one() -> None:
    values = _penalties(6, BOOTSTRAP_LIMIT + 1)
    low, high = mean_interval(values)
    mean = statistics.fmean(values)
    half = scipy_stats.norm.ppf(0.975) * statistics.stdev(values) / math.sqrt(len(values))
    assert low == pytest.approx(mean - half, rel=1e-4)
    assert high == pytest.approx(mean + half, rel=1e-4)


def test_the_interval_never_leaves_the_values_and_is_reproducible() -> None:
    # Issue 18 section 11: over 3 games a Student interval went below zero (-2.88 .. 92.22).
    low, high = mean_interval([0, 0, 95])
    assert 0 <= low <= 95 / 3 <= high <= 95
    assert mean_interval([0, 0, 95]) == (low, high)
    assert mean_interval([7]) == (7.0, 7.0)
    assert mean_interval([5, 5, 5]) == (5.0, 5.0)


def test_a_percentile_bootstrap_cuts_at_the_documented_order_statistics() -> None:
    # With a statistic that gives the resample's index, the sorted figures are 0..B-1: the cut
    # at 95% of 2000 resamples is the 50th and the 1950th (indices 49 and 1949).
    drawn = iter(range(2000))
    [(low, high)] = percentile_bootstrap([1, 2], lambda _: [next(drawn)], 2000)
    assert (low, high) == (49, 1949)


def _reference_strengths(wins: list[list[float]], prior: float = 0.5) -> list[float]:
    """The strengths that maximise the Bradley–Terry likelihood, by scipy (geometric mean 1)."""
    count = len(wins)
    won = np.array([[wins[i][j] + prior if i != j else 0.0 for j in range(count)]
                    for i in range(count)])

    def minus_log_likelihood(free: Any) -> tuple[float, Any]:
        theta = np.concatenate(([0.0], free))
        difference = theta[:, None] - theta[None, :]
        chance = 1 / (1 + np.exp(-difference))
        value = -np.sum(won * np.log(chance))
        gradient = -(np.sum(won * (1 - chance), axis=1) - np.sum(won.T * chance, axis=1))
        return float(value), gradient[1:]

    found = scipy_optimize.minimize(minus_log_likelihood, np.zeros(count - 1), jac=True,
                                    method="BFGS", options={"gtol": 1e-10, "maxiter": 10_000})
    theta = np.concatenate(([0.0], found.x))
    theta -= theta.mean()
    return [float(value) for value in np.exp(theta)]


TABLES = [
    [[0, 3], [1, 0]],
    [[0, 70, 120, 130], [50, 0, 100, 110], [20, 40, 0, 70], [10, 30, 70, 0]],
    [[0, 12, 0, 7, 3], [4, 0, 9, 1, 0], [10, 2, 0, 0, 8], [0, 6, 11, 0, 5], [9, 9, 1, 2, 0]],
    [[0, 400, 400], [0, 0, 400], [0, 0, 0]],  # one player won everything, one nothing
]


@pytest.mark.parametrize("wins", TABLES)
def test_bradley_terry_is_the_likelihoods_maximum(wins: list[list[float]]) -> None:
    fitted = bradley_terry(wins)
    reference = _reference_strengths(wins)
    assert [math.log(value) for value in fitted] == pytest.approx(
        [math.log(value) for value in reference], abs=1e-6)
    assert math.fsum(math.log(value) for value in fitted) == pytest.approx(0, abs=1e-12)


def test_bradley_terry_by_hand() -> None:
    # Two players: the likelihood is maximal where p1 / p2 = w12 / w21, here (3 + 0.5) / (1 +
    # 0.5) with the prior's half win each way, 147.19 Elo.
    first, second = bradley_terry([[0, 3], [1, 0]])
    assert first / second == pytest.approx(3.5 / 1.5, rel=1e-9)
    assert elo([first, second], 1)[0] == pytest.approx(147.19, abs=0.01)
    # A cycle where each beats the next twice and loses once: all equal by symmetry.
    assert bradley_terry([[0, 2, 1], [1, 0, 2], [2, 1, 0]]) == pytest.approx([1, 1, 1],
                                                                            abs=1e-12)


@pytest.mark.parametrize("wins", TABLES)
def test_bradley_terry_converges_to_its_tolerance(wins: list[list[float]]) -> None:
    # At the maximum each player's expected wins, sum over j of n_ij p_i / (p_i + p_j), equal
    # its wins (with the prior): the score equations, checked here from the strengths alone.
    fit = bradley_terry_fit(wins)
    strengths = fit.strengths
    for i, row in enumerate(wins):
        own = sum(row[j] + 0.5 for j in range(len(row)) if j != i)
        expected = sum((row[j] + wins[j][i] + 1) * strengths[i] / (strengths[i] + strengths[j])
                       for j in range(len(row)) if j != i)
        assert own == pytest.approx(expected, rel=10 * BT_TOLERANCE)
    assert fit.change <= BT_TOLERANCE
    assert 0 < fit.iterations < 100
    tighter = bradley_terry_fit(wins, tolerance=1e-14)
    assert tighter.iterations >= fit.iterations


def test_bradley_terry_stops_and_says_so_when_it_cannot_converge() -> None:
    wins = TABLES[3]
    with pytest.raises(NotConvergedError) as error:
        bradley_terry_fit(wins, max_iterations=2)
    assert error.value.rule == "argument"
    assert "did not converge in 2 iterations" in str(error.value)
    assert len(error.value.strengths) == 3
    again = pickle.loads(pickle.dumps(error.value))
    assert (again.rule, again.strengths) == ("argument", error.value.strengths)


@pytest.mark.parametrize(("call", "arguments"), [
    (bradley_terry_fit, ("x",)),
    (bradley_terry_fit, ([],)),
    (bradley_terry_fit, ([[0, 1], [1]],)),
    (bradley_terry_fit, ([[0, -1], [0, 0]],)),
    (bradley_terry_fit, ([[0, math.nan], [0, 0]],)),
    (bradley_terry_fit, ([[0, True], [0, 0]],)),
    (lambda wins: bradley_terry_fit(wins, prior=0), ([[0, 1], [1, 0]],)),
    (lambda wins: bradley_terry_fit(wins, tolerance=-1), ([[0, 1], [1, 0]],)),
    (lambda wins: bradley_terry_fit(wins, max_iterations=2.5), ([[0, 1], [1, 0]],)),  # type: ignore[arg-type]
    (mean_interval, ([],)),
    (mean_interval, ([1, None],)),
    (mean_interval, ([1.0, math.inf],)),
    (paired_interval, ([1, 2], [1])),
    (lambda values: percentile_bootstrap(values, lambda s: [0.0], level=1.5), ([1],)),
    (lambda values: percentile_bootstrap(values, lambda s: [0.0], resamples=0), ([1],)),
])
def test_bad_arguments_are_argument_errors(call: Any, arguments: tuple[Any, ...]) -> None:
    with pytest.raises(Take5Error) as error:
        call(*arguments)
    assert error.value.rule == "argument"


def test_the_normal_interval_is_kept_within_the_values() -> None:
    # 1,000 games of 0 and one of 1,000: mean 0.999, 1.96 standard errors 1.96: the normal
    # interval would start at -0.96 bull heads, below any total; it starts at 0.
    values = [0] * BOOTSTRAP_LIMIT + [1000]
    low, high = mean_interval(values)
    assert low == 0.0
    assert high == pytest.approx(0.999 + 1.96, abs=0.01)
