"""Theorem 3.8 checked by simulation, the exact law of the largest error, and the binomial
confidence intervals the check reports.

Statistical tests use fixed seeds, so each is deterministic; the false-positive rate
stated with each is the probability that a correct implementation would fail it for a
seed drawn at random.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpteach as dp
from dpteach.accuracy import linf_error_density


@pytest.fixture(scope="module")
def names() -> np.ndarray:
    return dp.census_first_names().counts


# -- confidence intervals ----------------------------------------------------------------------

@pytest.mark.parametrize("successes, trials", [(0, 500), (1, 500), (25, 500), (24, 500), (499, 500),
                                               (500, 500), (0, 1), (1, 1), (7, 30), (120, 2_000)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.999])
def test_clopper_pearson_and_wilson_agree_with_scipy(successes, trials, confidence):
    test = stats.binomtest(successes, trials)
    for method, scipy_method in (("clopper-pearson", "exact"), ("wilson", "wilson")):
        low, high = dp.binomial_ci(successes, trials, confidence, method=method)
        ref = test.proportion_ci(confidence_level=confidence, method=scipy_method)
        assert low == pytest.approx(ref.low, abs=1e-9)
        assert high == pytest.approx(ref.high, abs=1e-9)


@pytest.mark.parametrize("args, kwargs, error, match", [
    ((5, 0), {}, ValueError, "trials must be an integer >= 1, got 0"),
    ((6, 5), {}, ValueError, r"successes must be an integer in \[0, 5\], got 6"),
    ((-1, 5), {}, ValueError, r"successes must be an integer in \[0, 5\]"),
    ((1.5, 5), {}, TypeError, "successes must be an integer"),
    ((1, 5), {"confidence": 1.0}, ValueError, r"confidence must be a finite number in \(0, 1\)"),
    ((1, 5), {"confidence": float("nan")}, ValueError, "confidence must be"),
    ((1, 5), {"method": "wald"}, ValueError, "method must be 'clopper-pearson' or 'wilson'"),
])
def test_binomial_ci_refuses_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        dp.binomial_ci(*args, **kwargs)


# -- the exact law of the largest of k Laplace noises ----------------------------------------

def test_at_the_bound_the_exact_probability_is_one_minus_one_minus_delta_over_k_to_the_k():
    """Example 3.3: Pr[‖Y‖∞ ≥ ln(k/δ)·b] = 1 − (1 − δ/k)^k = 0.0488 ≤ δ = 0.05."""
    bound = dp.laplace_accuracy_bound(10_000, 0.05, 1, 1)
    exact = dp.linf_error_tail(bound, 10_000, 1, 1)
    assert exact == pytest.approx(1 - (1 - 0.05 / 10_000) ** 10_000, rel=1e-9)
    assert round(exact, 4) == 0.0488


@pytest.mark.parametrize("k", [1, 2, 10, 1_000, 10_000, 1_000_000])
@pytest.mark.parametrize("delta", [1.0, 0.5, 0.05, 1e-6])
def test_the_union_bound_is_never_beaten(k, delta):
    """Theorem 3.8: the exact tail at ln(k/δ)·Δf/ε never exceeds δ, and the exact quantile never exceeds the bound."""
    for sensitivity, epsilon in ((1.0, 1.0), (3.0, 0.2)):
        bound = dp.laplace_accuracy_bound(k, delta, sensitivity, epsilon)
        assert dp.linf_error_tail(bound, k, sensitivity, epsilon) <= delta * (1 + 1e-12)
        quantile = dp.linf_error_quantile(k, delta, sensitivity, epsilon)
        assert quantile <= bound * (1 + 1e-12)
        assert dp.linf_error_tail(quantile, k, sensitivity, epsilon) == pytest.approx(delta, rel=1e-9)


def test_exact_quantile_for_example_3_3_is_just_below_the_bound():
    """Šidák against Bonferroni: 12.181 against 12.206."""
    assert round(dp.linf_error_quantile(10_000, 0.05, 1, 1), 3) == 12.181


def test_tail_at_zero_is_one_and_at_infinity_zero():
    assert dp.linf_error_tail(0.0, 5, 1, 1) == 1.0
    assert dp.linf_error_tail(np.inf, 5, 1, 1) == 0.0
    assert dp.linf_error_tail([0.0, 1.0], 1, 1, 1) == pytest.approx([1.0, math.exp(-1)])


@pytest.mark.parametrize("k, sensitivity, epsilon", [(1, 1.0, 1.0), (7, 2.0, 0.5), (10_000, 1.0, 3.0)])
def test_density_of_the_largest_error_is_the_derivative_of_its_law(k, sensitivity, epsilon):
    """The density of max_i |Y_i| is −d/dα of Pr[‖Y‖∞ ≥ α] (central differences), integrates to 1
    and has mean b·H_k (the largest of k exponentials)."""
    b = sensitivity / epsilon
    alpha = np.linspace(0.05, 40, 4_000) * b
    h = 1e-6 * b
    slope = (dp.linf_error_tail(alpha - h, k, sensitivity, epsilon)
             - dp.linf_error_tail(alpha + h, k, sensitivity, epsilon)) / (2 * h)
    density = linf_error_density(alpha, k, sensitivity, epsilon)
    assert density == pytest.approx(slope, rel=1e-5, abs=1e-9 / b)
    grid = np.linspace(0, 40, 400_001) * b
    values = linf_error_density(grid, k, sensitivity, epsilon)
    step = grid[1] - grid[0]
    assert np.sum(values) * step == pytest.approx(1.0, abs=1e-4)
    assert np.sum(grid * values) * step == pytest.approx(dp.expected_linf_error(k, sensitivity, epsilon), rel=1e-4)


def test_density_of_the_largest_error_at_its_ends():
    """At α = 0 the density is k/b if k = 1 (an exponential) and 0 for k > 1; it vanishes at infinity."""
    assert linf_error_density(0.0, 1, 2.0, 1.0) == pytest.approx(0.5)
    assert linf_error_density([0.0, np.inf], 5, 1, 1) == pytest.approx([0.0, 0.0])
    assert linf_error_density(np.inf, 1, 1, 1) == 0.0


def test_expected_largest_error_is_b_times_the_harmonic_number():
    assert dp.expected_linf_error(1, 2.0, 1.0) == pytest.approx(2.0)
    assert dp.expected_linf_error(3, 1.0, 0.5) == pytest.approx(2 * (1 + 1 / 2 + 1 / 3))
    # the asymptotic branch joins the exact sum
    exact = float(np.sum(1 / np.arange(1, 2_000_001)))
    assert dp.expected_linf_error(2_000_000, 1, 1) == pytest.approx(exact, rel=1e-12)


def test_simulated_largest_errors_follow_the_exact_law():
    """Kolmogorov–Smirnov of 2,000 simulated ‖Y‖∞ (k = 1,000, b = 2) against the exact CDF,
    at level 0.001 (the false-positive rate)."""
    errors = dp.linf_errors(np.zeros(1_000), sensitivity=1, epsilon=0.5, runs=2_000, rng=np.random.default_rng(8))
    result = stats.kstest(errors, lambda a: 1 - dp.linf_error_tail(a, 1_000, 1, 0.5))
    assert result.pvalue > 0.001
    se = errors.std() / math.sqrt(errors.size)
    assert abs(errors.mean() - dp.expected_linf_error(1_000, 1, 0.5)) < 5 * se   # FPR < 1e-6


# -- the Monte Carlo check itself -------------------------------------------------------------

def test_linf_errors_do_not_depend_on_the_chunk_size():
    """Chunks only bound memory: the same seed gives the same errors, chunked or not."""
    x = np.arange(300.0)
    small = dp.linf_errors(x, 1, 1, runs=40, rng=np.random.default_rng(2), chunk_size=1_000)
    large = dp.linf_errors(x, 1, 1, runs=40, rng=np.random.default_rng(2), chunk_size=10**8)
    assert np.array_equal(small, large)
    assert small.shape == (40,) and (small > 0).all()


def test_500_releases_of_the_census_names(names):
    """Example 3.3, repeated as chapter 05 repeats it: 500 releases of all 10,000 counts at ε = 1.

    Theorem 3.8 says at most a fraction β = 0.05 of runs exceed 12.206 (the book writes δ for β). The runs contradict it
    only if the 99.9% Clopper–Pearson interval lies wholly above β: with the true probability
    0.0488 ≤ β, that happens for fewer than 0.05% of seeds (the false-positive rate).
    """
    mc = dp.accuracy_monte_carlo(names, beta=0.05, sensitivity=1, epsilon=1, runs=500,
                                 rng=np.random.default_rng(2014), confidence=0.999)
    assert mc.k == 10_000 and mc.runs == 500 and mc.errors.shape == (500,)
    assert mc.bound == pytest.approx(math.log(200_000))
    assert mc.beyond == int((mc.errors >= mc.bound).sum()) and mc.fraction == mc.beyond / 500
    assert mc.ci[0] <= mc.beta and mc.consistent()
    assert mc.ci[0] <= mc.exact <= mc.ci[1]       # and it agrees with the exact law (FPR ≤ 0.001)
    assert "of 500 releases" in repr(mc) and "β = 0.05" in repr(mc)   # the chapters' letter for the failure probability


@pytest.mark.parametrize("k, delta, epsilon", [(1, 0.3, 1.0), (100, 0.1, 0.5), (10_000, 0.01, 2.0)])
def test_coverage_holds_at_other_settings(k, delta, epsilon):
    """4,000 runs at each setting; the 99.9% interval must reach down to β (FPR ≤ 0.0005 each)
    and contain the exact probability (FPR ≤ 0.001 each)."""
    mc = dp.accuracy_monte_carlo(np.full(k, 7.0), delta, 1.0, epsilon, runs=4_000,
                                 rng=np.random.default_rng(k), confidence=0.999)
    assert mc.consistent()
    assert mc.ci[0] <= mc.exact <= mc.ci[1]


def test_the_check_catches_noise_wider_than_claimed(names):
    """Power: noise drawn at ε = 0.8 but judged against the ε = 1 bound exceeds it in ~43% of
    runs, and 500 runs show it (the interval lies far above β)."""
    errors = dp.linf_errors(names, sensitivity=1, epsilon=0.8, runs=500, rng=np.random.default_rng(5))
    beyond = int((errors >= dp.laplace_accuracy_bound(10_000, 0.05, 1, 1)).sum())
    low, _ = dp.binomial_ci(beyond, 500, 0.999)
    assert low > 0.05


@pytest.mark.parametrize("kwargs, error, match", [
    ({"beta": 0.0}, ValueError, r"beta must be a finite number in \(0, 1\], got 0.0"),
    ({"beta": 1.5}, ValueError, r"beta must be a finite number in \(0, 1\]"),
    ({"beta": float("nan")}, ValueError, "beta must be"),
    ({"runs": 0}, ValueError, "runs must be an integer >= 1, got 0"),
    ({"epsilon": -1.0}, ValueError, "epsilon must be a finite number > 0"),
    ({"true_answer": [1.0, np.nan]}, ValueError, "true_answer must not contain NaN"),
    ({"true_answer": []}, ValueError, "true_answer must not be empty"),
    ({"confidence": 0.0}, ValueError, "confidence must be"),
    ({"rng": 42}, TypeError, "rng must be a numpy.random.Generator"),
])
def test_monte_carlo_refuses_bad_input(kwargs, error, match):
    args = {"true_answer": np.zeros(10), "beta": 0.05, "sensitivity": 1.0, "epsilon": 1.0, "runs": 5,
            "rng": np.random.default_rng(0), **kwargs}
    with pytest.raises(error, match=match):
        dp.accuracy_monte_carlo(**args)


@pytest.mark.parametrize("call, match", [
    (lambda: dp.linf_error_tail(1.0, 0, 1, 1), "k must be an integer >= 1, got 0"),
    (lambda: dp.linf_error_tail(-1.0, 5, 1, 1), "threshold must be >= 0 everywhere"),
    (lambda: dp.linf_error_tail(np.nan, 5, 1, 1), "threshold must not contain NaN"),
    (lambda: dp.linf_error_quantile(0, 0.05, 1, 1), "k must be an integer >= 1"),
    (lambda: dp.linf_error_quantile(5, 0.0, 1, 1), r"beta must be a finite number in \(0, 1\]"),
    (lambda: dp.linf_error_quantile(5, 2.0, 1, 1), r"beta must be a finite number in \(0, 1\]"),
    (lambda: dp.expected_linf_error(0, 1, 1), "k must be an integer >= 1"),
    (lambda: dp.linf_errors(np.zeros(3), 1, 1, runs=-2), "runs must be an integer >= 1"),
])
def test_exact_law_helpers_refuse_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
