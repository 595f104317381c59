"""Estimates next to theory with their standard errors, and the detection probability of a check.

Statistical tests use fixed seeds; the false-positive rate stated with each is the probability
that a correct implementation would fail it for a seed drawn at random.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpteach as dp


def test_mean_estimate_is_the_average_with_the_theoretical_standard_error():
    terms = np.array([1.0, 2.0, 3.0, 6.0])
    e = dp.mean_estimate(terms, theory=2.0, term_variance=4.0, name="m")
    assert e.estimate == 3.0 and e.theory == 2.0 and e.n == 4
    assert e.se == pytest.approx(math.sqrt(4.0 / 4))
    assert e.distance == pytest.approx((3.0 - 2.0) / 1.0)


def test_fraction_estimate_uses_p_one_minus_p():
    outcomes = np.array([True, False, False, True, True])
    e = dp.fraction_estimate(outcomes, theory=0.5)
    assert e.estimate == pytest.approx(0.6)
    assert e.se == pytest.approx(math.sqrt(0.25 / 5))


def test_repr_shows_the_comparison_formatted():
    e = dp.mean_estimate([1.0, 1.5], theory=1.0, term_variance=0.25, name="size E|Y|")
    text = repr(e)
    assert text.startswith("size E|Y|: 1.2500")
    assert "theory 1.0000" in text and "s.e. 0.3536" in text and "+0.7 s.e. from theory" in text
    table = repr(dp.EstimateTable([e, dp.fraction_estimate([1, 0], 0.5, name="F(0)")]))
    lines = table.splitlines()
    assert len(lines) == 3 and "distance in s.e." in lines[0] and lines[2].startswith("F(0)")


def test_bad_input_is_refused_naming_the_parameter():
    with pytest.raises(ValueError, match="term_variance"):
        dp.mean_estimate([1.0], theory=0.0, term_variance=0.0)
    with pytest.raises(ValueError, match="theory"):
        dp.fraction_estimate([1, 0], theory=1.0)
    with pytest.raises(ValueError, match="outcomes"):
        dp.fraction_estimate([0.5, 1.0], theory=0.5)
    with pytest.raises(ValueError, match="terms"):
        dp.mean_estimate([], theory=0.0, term_variance=1.0)
    with pytest.raises(ValueError, match="se"):
        dp.detection_probability(1.0, se=0.0, tolerance=1.0)
    with pytest.raises(ValueError, match="tolerance"):
        dp.detection_probability(1.0, se=1.0, tolerance=-1.0)


def test_detection_probability_edge_values():
    """No shift: the check fails with the two-sided normal tail beyond the tolerance; huge shift: surely."""
    assert dp.detection_probability(0.0, 1.0, 4.0) == pytest.approx(math.erfc(4 / math.sqrt(2)))
    assert dp.detection_probability(100.0, 1.0, 4.0) == pytest.approx(1.0)
    assert dp.detection_probability(4.0, 1.0, 4.0) == pytest.approx(0.5, abs=1e-6)


def test_detection_probability_matches_a_simulation():
    """The chapter's case, a 1% error in a Laplace scale seen through E|Y| with a 4-s.e. check,
    rescaled to n = 2,000 draws per estimate and a 10% error (the same shift in s.e. units:
    0.1·√2000 = 0.01·√200,000). 4,000 simulated checks; the simulated detection rate must lie
    within 5 Monte Carlo s.e. (false-positive rate < 1e-6) plus 0.02 for the normal
    approximation at n = 2,000 (seed 12 fixed)."""
    n, runs, b = 2_000, 4_000, 2.0
    rng = np.random.default_rng(12)
    sizes = np.abs(rng.laplace(0.0, 1.1 * b, size=(runs, n))).mean(axis=1)
    tolerance = 4 * b / math.sqrt(n)
    simulated = np.mean(np.abs(sizes - b) >= tolerance)
    predicted = dp.detection_probability(0.1 * b, 1.1 * b / math.sqrt(n), tolerance)
    assert abs(simulated - predicted) < 5 * math.sqrt(predicted * (1 - predicted) / runs) + 0.02


def test_distance_of_a_correct_sampler_is_standard_normal():
    """For Lap(2) samples, 500 fraction estimates of F(1) on n = 2,000 draws each: their distances
    have mean ≈ 0 and standard deviation ≈ 1. Bands: mean within 5/√500 (5 s.e.), s.d. within
    0.2 (≈ 6 s.e. of a sample s.d. of 500 normals, plus the binomial's skew). False-positive
    rate < 1e-6 (seed 3 fixed)."""
    rng = np.random.default_rng(3)
    p = dp.laplace_cdf(1.0, 2.0)
    distances = np.array([dp.fraction_estimate(rng.laplace(0, 2.0, 2_000) <= 1.0, p).distance for _ in range(500)])
    assert abs(distances.mean()) < 5 / math.sqrt(500)
    assert abs(distances.std() - 1) < 0.2
