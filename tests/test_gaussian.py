"""The Gaussian mechanism: Balle & Wang's analytic calibration, Theorem 3.22, and the mechanism itself.

Sources of truth: check values (analytic σ = 3.731 and c = 4.845 at (ε, δ) = (1, 10⁻⁵),
Δ = 1); the definition of the analytic condition (δ(σ) = δ, and δ falls as σ grows); scipy's
normal distribution. dp-accounting's and diffprivlib's own Gaussian calibrations: the peer suite (tests/peers/).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpteach as dp


def test_check_values_of_balle_and_wang_and_theorem_3_22():
    """At (ε, δ) = (1, 10⁻⁵) and Δ = 1 the analytic σ is 3.731 (Balle & Wang 2018); Theorem 3.22's
    c = √(2 ln(1.25/δ)) is 4.845 (Dwork & Roth 2014)."""
    assert round(dp.gaussian_sigma(1.0, 1.0, 1e-5), 3) == 3.731
    assert round(dp.classical_gaussian_constant(1e-5), 3) == 4.845


def test_gaussian_delta_is_balle_and_wang_with_scipy():
    for sigma, d, eps in ((3.0, 1.0, 1.0), (0.7, 2.0, 0.3), (50.0, 10.0, 4.0)):
        expected = (stats.norm.cdf(d / (2 * sigma) - eps * sigma / d)
                    - math.exp(eps) * stats.norm.cdf(-d / (2 * sigma) - eps * sigma / d))
        assert dp.gaussian_delta(sigma, d, eps) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 1.0, 3.0, 10.0, 50.0])
@pytest.mark.parametrize("delta", [0.1, 1e-3, 1e-6, 1e-12])
def test_analytic_sigma_is_the_smallest_that_works(eps, delta):
    sigma = dp.gaussian_sigma(1.0, eps, delta)
    assert dp.gaussian_delta(sigma, 1.0, eps) <= delta
    assert dp.gaussian_delta(sigma * (1 - 1e-6), 1.0, eps) > delta


def test_sigma_is_proportional_to_the_l2_sensitivity():
    base = dp.gaussian_sigma(1.0, 0.7, 1e-6)
    for d in (0.5, math.sqrt(10), 100.0):
        assert dp.gaussian_sigma(d, 0.7, 1e-6) == pytest.approx(d * base, rel=1e-10)


@pytest.mark.parametrize("eps", [0.05, 0.3, 0.9])
@pytest.mark.parametrize("delta", [1e-2, 1e-5, 1e-10])
def test_theorem_3_22_asks_for_more_noise_than_the_analytic_condition(eps, delta):
    classical = dp.classical_gaussian_sigma(1.0, eps, delta)
    assert classical == pytest.approx(math.sqrt(2 * math.log(1.25 / delta)) / eps)
    assert classical > dp.gaussian_sigma(1.0, eps, delta)
    assert dp.gaussian_delta(classical, 1.0, eps) <= delta     # Theorem 3.22 is sound


def test_theorem_3_22_is_refused_outside_its_range():
    with pytest.raises(ValueError, match="epsilon must be .*Theorem 3.22 is stated and proved for 0 < ε < 1"):
        dp.classical_gaussian_sigma(1.0, 1.0, 1e-5)


def test_mechanism_adds_normal_noise_of_the_calibrated_sigma():
    """200,000 draws: the sample std is within 1% of σ and a KS test against N(0, σ²) passes at
    α = 0.001 (false-positive rate 0.1%; the seed is fixed)."""
    sigma = dp.gaussian_sigma(math.sqrt(4), 1.0, 1e-5)
    noisy = dp.gaussian_mechanism(np.zeros(200_000), math.sqrt(4), 1.0, 1e-5, rng=np.random.default_rng(3))
    assert noisy.std() == pytest.approx(sigma, rel=0.01)
    assert stats.kstest(noisy, stats.norm(scale=sigma).cdf).pvalue > 1e-3


def test_mechanism_keeps_shape_and_is_reproducible():
    a = dp.gaussian_mechanism([[1.0, 2.0], [3.0, 4.0]], 2.0, 1.0, 1e-6, rng=np.random.default_rng(1))
    b = dp.gaussian_mechanism([[1.0, 2.0], [3.0, 4.0]], 2.0, 1.0, 1e-6, rng=np.random.default_rng(1))
    assert a.shape == (2, 2) and np.array_equal(a, b)
    assert isinstance(dp.gaussian_mechanism(5, 1.0, 1.0, 1e-6, rng=np.random.default_rng(1)), float)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"l2_sensitivity": 0.0}, ValueError, "l2_sensitivity must be"),
    ({"l2_sensitivity": -1.0}, ValueError, "l2_sensitivity must be"),
    ({"epsilon": 0.0}, ValueError, "epsilon must be"),
    ({"epsilon": float("inf")}, ValueError, "epsilon must be"),
    ({"delta": 0.0}, ValueError, "delta must be .*δ = 0 would ask"),
    ({"delta": 1.0}, ValueError, "delta must be"),
    ({"delta": -0.5}, ValueError, "delta must be"),
    ({"delta": "1e-5"}, TypeError, "delta must be a real number"),
    ({"true_answer": [1.0, float("nan")]}, ValueError, "true_answer must not contain NaN"),
    ({"rng": np.random.RandomState(0)}, TypeError, "rng must be"),
])
def test_bad_input_is_refused_clearly(kwargs, error, match):
    args = {"true_answer": [1.0, 2.0], "l2_sensitivity": 1.0, "epsilon": 1.0, "delta": 1e-5,
            "rng": np.random.default_rng(0)}
    with pytest.raises(error, match=match):
        dp.gaussian_mechanism(**(args | kwargs))


def test_gaussian_delta_refuses_bad_sigma():
    with pytest.raises(ValueError, match="sigma must be"):
        dp.gaussian_delta(0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon must be"):
        dp.gaussian_delta(1.0, 1.0, -1.0)


def test_sigma_curve_equals_the_scalar_bisection_at_every_point():
    """gaussian_sigma_curve runs the scalar bisection side by side: the same numbers, bit for bit."""
    grid = np.logspace(math.log10(0.05), 1, 60)
    for delta in (1e-2, 1e-6, 1e-10):
        curve = dp.gaussian_sigma_curve(grid, delta)
        assert np.array_equal(curve, [dp.gaussian_sigma(1.0, e, delta) for e in grid])
    assert np.array_equal(dp.gaussian_sigma_curve([0.5], 1e-5, 3.0), [dp.gaussian_sigma(3.0, 0.5, 1e-5)])
    with pytest.raises(ValueError, match="epsilons"):
        dp.gaussian_sigma_curve([1.0, 0.0], 1e-5)


def test_crossover_is_where_laplace_and_gaussian_stds_meet():
    """At k = (σ₁ε)²/2 Laplace's √2·k/ε equals the Gaussian's √k·σ₁; Laplace is smaller below, larger above."""
    for eps, delta in ((0.05, 1e-10), (1.0, 1e-5), (10.0, 1e-2)):
        k = dp.laplace_gaussian_crossover(eps, delta)
        s1 = dp.gaussian_sigma(1.0, eps, delta)
        assert math.sqrt(2) * k / eps == pytest.approx(math.sqrt(k) * s1, rel=1e-12)
        assert math.sqrt(2) * (2 * k) / eps > math.sqrt(2 * k) * s1
        assert math.sqrt(2) * (k / 2) / eps < math.sqrt(k / 2) * s1
