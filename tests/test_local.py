"""Randomized response, the local model's estimator and variance, and location noise (chapter 10).

Statistical tests use fixed seeds; each states the false-positive rate of its band.
"""

import math

import numpy as np
import pytest
from scipy import stats

import dpteach as dp


@pytest.mark.parametrize("epsilon", [0.1, math.log(3), 1.0, 5.0])
def test_truth_probability_makes_the_report_epsilon_ldp(epsilon):
    """q/(1 − q) = e^ε: the likelihood ratio of a report under the two possible truths."""
    q = dp.randomized_response_probability(epsilon)
    assert q / (1 - q) == pytest.approx(math.exp(epsilon))
    assert dp.randomized_response_probability(math.log(3)) == pytest.approx(0.75)


def test_each_person_tells_the_truth_with_probability_q():
    """Exact binomial test at α = 1e-6 on 200,000 coins (false-positive rate 1e-6)."""
    truth = np.tile([0, 1], 100_000)
    reports = dp.randomized_response(truth, epsilon=1.0, rng=np.random.default_rng(1))
    told = int((reports == truth).sum())
    assert stats.binomtest(told, truth.size, dp.randomized_response_probability(1.0)).pvalue > 1e-6
    assert set(np.unique(reports)) <= {0, 1}


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_the_estimator_is_unbiased_and_its_variance_is_the_formula(epsilon):
    """2,000 surveys of 1,000 people, 30% yes. The mean estimate is within 4.9 standard errors of 0.3
    (two-sided normal band: false-positive rate 1e-6); the sample variance is within ±20% of
    e^ε/(n(e^ε − 1)²) (its relative sd is √(2/2000) = 3.2%: a 6σ band)."""
    n, runs, p = 1_000, 2_000, 0.3
    truth = (np.arange(n) < p * n).astype(int)
    rng = np.random.default_rng(7)
    estimates = np.array([dp.randomized_response_estimate(dp.randomized_response(truth, epsilon, rng=rng), epsilon)
                          for _ in range(runs)])
    var = dp.randomized_response_variance(n, epsilon)
    assert abs(estimates.mean() - p) < 4.9 * math.sqrt(var / runs)
    assert estimates.var(ddof=1) / var == pytest.approx(1.0, abs=0.2)
    # the raw share of yes reports is biased towards 1/2: the correction is needed
    q = dp.randomized_response_probability(epsilon)
    assert abs((1 - q) + (2 * q - 1) * p - p) > 10 * math.sqrt(var / runs)


def test_estimate_of_a_known_tally():
    assert dp.randomized_response_estimate([1] * 600 + [0] * 400, math.log(3)) == pytest.approx(0.7)


def test_variance_formula_closed_forms_and_local_against_central():
    """Var_local = q(1−q)/(n(2q−1)²) = e^ε/(n(e^ε−1)²); Var_central = 2/(nε)²; their ratio grows like n."""
    for eps in (0.1, 1.0, 3.0):
        q = dp.randomized_response_probability(eps)
        assert dp.randomized_response_variance(10, eps) == pytest.approx(q * (1 - q) / (10 * (2 * q - 1) ** 2))
        assert dp.central_proportion_variance(10, eps) == pytest.approx(2 / (10 * eps) ** 2)
    ratios = [dp.randomized_response_variance(n, 1.0) / dp.central_proportion_variance(n, 1.0) for n in (10, 100)]
    assert ratios[1] == pytest.approx(10 * ratios[0])
    assert math.isfinite(dp.randomized_response_variance(1, 800.0))     # no overflow at huge ε


def test_central_estimate_has_the_stated_variance():
    """(count + Lap(1/ε))/n over 20,000 draws: sample variance within ±10% (relative sd of a Laplace sample
    variance is √(5/20000) ≈ 1.6%: a 6σ band, false-positive rate < 1e-8)."""
    n, eps = 500, 0.5
    draws = dp.laplace_mechanism(np.full(20_000, 150.0), 1, eps, rng=np.random.default_rng(3)) / n
    assert draws.var(ddof=1) / dp.central_proportion_variance(n, eps) == pytest.approx(1.0, abs=0.1)


def test_grid_counts_is_a_histogram_with_sensitivity_one():
    """By enumeration (Definition 3.1): one resident more or less moves the grid by 1 in ℓ1."""
    places = np.array([[0.5, 0.5], [9.9, 0.1], [5.0, 5.0], [10.0, 10.0]])
    assert dp.l1_sensitivity(lambda x: dp.grid_counts(np.repeat(places, x.astype(int), axis=0), 3).ravel(),
                             np.arange(len(places)), max_size=2) == 1.0
    counts = dp.grid_counts(places, 2)
    assert counts.sum() == 4 and counts[1, 1] == 2 and counts[0, 1] == 1
    assert dp.grid_counts([[-1.0, 5.0], [11.0, 5.0]], 4).sum() == 0      # outside the city: not counted


def test_location_noise_has_scale_twenty_km_over_epsilon():
    """Mean |noise| over 40,000 coordinates estimates b within ±5% (sd of the mean of |Lap(b)| is
    b/√40000 = 0.5%: a 10σ band)."""
    pts = np.full((20_000, 2), 5.0)
    for eps in (1.0, 10.0):
        noise = dp.perturb_locations(pts, eps, rng=np.random.default_rng(11)) - pts
        assert np.abs(noise).mean() == pytest.approx(2 * dp.local.CITY_KM / eps, rel=0.05)


@pytest.mark.parametrize("call, name", [
    (lambda: dp.randomized_response([0, 2], 1.0), "answers"),
    (lambda: dp.randomized_response_estimate([[1, 0]], 1.0), "answers"),
    (lambda: dp.randomized_response_probability(0), "epsilon"),
    (lambda: dp.perturb_locations([[1.0, 2.0, 3.0]], 1.0), "x"),
    (lambda: dp.grid_counts([[1.0, 2.0]], 0), "cells"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_central_map_error_is_one_over_epsilon_and_local_is_far_worse():
    """Chapter 10's city at ε = 1, fixed seed. The central mean |error| over 400 cells estimates
    E|Lap(1)| = 1 with standard error 1/√400 = 0.05, so the band ±0.3 is 6 standard errors
    (false-positive rate < 1e-8); the local error is dominated by 20 km noise on a 10 km city and
    is checked only for being more than 20 times larger."""
    rng = np.random.default_rng(2014)
    city = dp.synthetic_city(20_000, rng=rng)
    grid = dp.grid_counts(city, 20)
    central = dp.laplace_mechanism(grid, sensitivity=1, epsilon=1.0, rng=rng)
    local = dp.grid_counts(dp.perturb_locations(city, epsilon=1.0, rng=rng), 20)
    err_central, err_local = np.abs(central - grid).mean(), np.abs(local - grid).mean()
    assert abs(err_central - 1.0) < 0.3
    assert err_local > 20 * err_central


def test_survey_estimates_match_their_variances_and_are_cached():
    """A 2,000-run simulation against the variance formulas: the sample std of 2,000 draws is within
    10% of the true std with probability > 1 − 1e-4 for these near-normal estimates (relative
    standard error ≈ 1/√(2·2000) = 1.6%, so 10% is > 6 standard errors)."""
    from dpteach.local import survey_estimates
    local, central = survey_estimates(0.3, 1_000, 1.0)
    assert np.std(local) == pytest.approx(np.sqrt(dp.randomized_response_variance(1_000, 1.0)), rel=0.1)
    assert np.std(central) == pytest.approx(np.sqrt(dp.central_proportion_variance(1_000, 1.0)), rel=0.1)
    assert survey_estimates(0.3, 1_000, 1.0) is survey_estimates(0.3, 1_000, 1.0)
    assert not local.flags.writeable
    with pytest.raises(ValueError, match="epsilon"):
        survey_estimates(0.3, 1_000, 0.0)
    with pytest.raises(ValueError, match="proportion"):
        survey_estimates(1.5, 1_000, 1.0)
