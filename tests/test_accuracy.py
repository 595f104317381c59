"""Accuracy of the Laplace mechanism (Dwork & Roth, Fact 3.7, Theorem 3.8, Example 3.3).

Statistical tests use fixed seeds, so each one is deterministic; the false-positive rate
stated with each is the probability that a correct implementation would fail it for a
seed drawn at random.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpteach as dp


def test_census_first_names_example():
    """Example 3.3: 10,000 names, ε = 1, Δf = 1, δ = 0.05 give ln(200,000) ≈ 12.206 (Dwork & Roth, p. 34)."""
    bound = dp.laplace_accuracy_bound(10_000, 0.05, 1, 1)
    assert bound == pytest.approx(math.log(200_000), rel=1e-12)
    assert round(bound, 3) == 12.206
    assert type(bound) is float


@pytest.mark.parametrize("k, delta, sensitivity, epsilon", [
    (1, 0.5, 1.0, 1.0),
    (10, 0.01, 1.0, 0.1),
    (1000, 0.05, 3.0, 0.5),
    (7, 1.0, 2.0, 4.0),
])
def test_bound_is_log_k_over_delta_times_scale(k, delta, sensitivity, epsilon):
    """Theorem 3.8: the bound is ln(k/δ)·Δf/ε."""
    expected = math.log(k / delta) * sensitivity / epsilon
    assert dp.laplace_accuracy_bound(k, delta, sensitivity, epsilon) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("c", [0.25, 2.0, 10.0])
def test_bound_scales_with_sensitivity_and_inverse_epsilon(c):
    """Theorem 3.8: the bound is proportional to Δf and to 1/ε (ln(k/δ) times the scale b = Δf/ε)."""
    base = dp.laplace_accuracy_bound(100, 0.1, 1.0, 1.0)
    assert dp.laplace_accuracy_bound(100, 0.1, c, 1.0) == pytest.approx(c * base, rel=1e-12)
    assert dp.laplace_accuracy_bound(100, 0.1, 1.0, 1.0 / c) == pytest.approx(c * base, rel=1e-12)
    assert dp.laplace_accuracy_bound(100, 0.1, c, c) == pytest.approx(base, rel=1e-12)


def test_one_coordinate_with_certainty_needs_no_margin():
    """Theorem 3.8 at k = 1, δ = 1: ln(1/1) = 0, a failure probability of 1 needs no error bound."""
    assert dp.laplace_accuracy_bound(1, 1.0, 1.0, 1.0) == 0.0
    assert dp.laplace_accuracy_bound(1, 1, 5.0, 0.2) == 0.0


def test_bound_grows_with_k_and_shrinks_with_delta():
    """Theorem 3.8: more coordinates or a smaller failure probability δ need a larger bound ln(k/δ)·b."""
    ks = [1, 2, 10, 100, 10_000]
    by_k = [dp.laplace_accuracy_bound(k, 0.05, 1.0, 1.0) for k in ks]
    assert all(a < b for a, b in zip(by_k, by_k[1:]))
    deltas = [1.0, 0.5, 0.1, 1e-3, 1e-9]
    by_delta = [dp.laplace_accuracy_bound(10, d, 1.0, 1.0) for d in deltas]
    assert all(a < b for a, b in zip(by_delta, by_delta[1:]))


def test_bound_at_k_one_is_fact_3_7():
    """Theorem 3.8 at k = 1 is Fact 3.7: Pr[|Y| ≥ t·b] = δ at t·b = ln(1/δ)·b."""
    for delta in (0.9, 0.3, 0.01):
        t = dp.laplace_accuracy_bound(1, delta, 2.0, 1.0) / 2.0
        assert dp.laplace_tail(t) == pytest.approx(delta, rel=1e-12)


RELEASES, K, DELTA = 500, 1000, 0.05


def max_errors(sensitivity: float, epsilon: float, seed: int) -> tuple[np.ndarray, float]:
    """‖f(x) − M_L(x)‖_∞ for each of RELEASES releases of K counts, and Theorem 3.8's bound."""
    rng = np.random.default_rng(seed)
    true = np.arange(K, dtype=float)            # any f(x): the error does not depend on it
    errors = np.array([np.abs(dp.laplace_mechanism(true, sensitivity, epsilon, rng=rng) - true).max()
                       for _ in range(RELEASES)])
    return errors, dp.laplace_accuracy_bound(K, DELTA, sensitivity, epsilon)


@pytest.mark.parametrize("sensitivity, epsilon, seed", [(1.0, 1.0, 101), (3.0, 0.5, 202)])
def test_monte_carlo_coverage_is_at_least_1_minus_delta(sensitivity, epsilon, seed):
    """Theorem 3.8 by simulation: at most a fraction δ (plus sampling error) of releases exceed the bound.

    The number F of the 500 releases whose ℓ∞ error reaches the bound is Binomial(500, p)
    with p ≤ δ = 0.05 if Theorem 3.8 holds, so Pr[F > binom.isf(1e-3, 500, δ)] ≤ 1e-3:
    false-positive rate ≤ 1e-3 per case, ≤ 2e-3 for the 2 cases (seeds 101, 202 fixed).
    """
    errors, bound = max_errors(sensitivity, epsilon, seed)
    failures = int((errors >= bound).sum())
    margin = stats.binom.isf(1e-3, RELEASES, DELTA)         # 41 of 500: δ plus a margin of 0.032
    assert failures <= margin, f"{failures}/{RELEASES} releases beyond {bound:.3f}, expected ≤ {DELTA:.0%}"


@pytest.mark.parametrize("sensitivity, epsilon, seed", [(1.0, 1.0, 101), (3.0, 0.5, 202)])
def test_monte_carlo_failure_rate_matches_the_exact_probability(sensitivity, epsilon, seed):
    """Fact 3.7: each coordinate exceeds ln(k/δ)·b w.p. δ/k, so a release fails w.p. 1 − (1 − δ/k)^k.

    The union bound in Theorem 3.8 is nearly tight here (1 − (1 − δ/k)^k ≈ 0.0488 vs δ = 0.05),
    so a bound that were too large or too small would show. Exact two-sided binomial tests
    at level 1e-3 on the 500 releases and on the 500,000 coordinates: false-positive rate
    ≤ 2e-3 per case, ≤ 4e-3 for the 2 cases (seeds 101, 202 fixed).
    """
    errors, bound = max_errors(sensitivity, epsilon, seed)
    failures = int((errors >= bound).sum())
    p_release = 1 - (1 - DELTA / K) ** K
    assert stats.binomtest(failures, RELEASES, p_release).pvalue > 1e-3

    rng = np.random.default_rng(seed + 1)
    noise = dp.laplace_mechanism(np.zeros((RELEASES, K)), sensitivity, epsilon, rng=rng)
    beyond = int((np.abs(noise) >= bound).sum())
    assert stats.binomtest(beyond, RELEASES * K, DELTA / K).pvalue > 1e-3
