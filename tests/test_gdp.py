"""Gaussian differential privacy (dpteach.gdp; Dong, Roth & Su 2019), against values computed another way.

* MATH.md's check values ("Gaussian differential privacy"), recomputed here with mpmath at 40 digits;
* G_μ against scipy, and as the exact trade-off of the Gaussian mechanism: its threshold tests trace G_μ, and
  other tests lie above it;
* δ(ε) and ε(δ) against dp-accounting's analytic Gaussian (Balle & Wang 2018; μ-GDP is the Gaussian
  mechanism with σ = 1/μ), and against its privacy loss distribution composed k times;
* composition: μ√k against k trade-off curves composed numerically here (each test of the k releases,
  computed exactly from binned outputs, lies on or above G_{μ√k}, and they come within 1e-4 of it, closer than a
  1% change of μ moves the curve; none reaches G_{kμ}, the sum of the μ's);
* the (ε, δ) accounting of the same releases (gaussian_composition): every total is a valid guarantee, so
  none is below the exact ε(δ);
* the normal quantile dpteach._special.ndtri to its stated precision, against mpmath.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from dp_accounting import gaussian_mechanism
from dp_accounting.pld import privacy_loss_distribution, privacy_loss_mechanism
from scipy import stats

import dpteach as dp
from dpteach import _special

mpmath.mp.dps = 40


def _phi(x):
    return mpmath.ncdf(x)


def _phi_inv(p):
    """Φ⁻¹(p) at 40 digits: the root of Φ(x) = p, started from scipy's."""
    p = mpmath.mpf(p)
    return mpmath.findroot(lambda x: mpmath.ncdf(x) - p, float(stats.norm.ppf(float(p))))


def _g_exact(alpha, mu):
    return _phi(-_phi_inv(alpha) - mu)


def _delta_exact(eps, mu):
    eps, mu = mpmath.mpf(eps), mpmath.mpf(mu)
    return _phi(-eps / mu + mu / 2) - mpmath.exp(eps) * _phi(-eps / mu - mu / 2)


# -- MATH.md's check values -----------------------------------------------------------------------------------

def test_math_md_check_values_recomputed_with_mpmath():
    """G_1(0.05) = 0.74049; 100 Gaussians at σ = 10 compose to μ = 1; δ(1) = 0.12694 at μ = 1; ε = 4.8866 at
    δ = 10⁻⁶ (MATH.md, "Gaussian differential privacy")."""
    g = dp.gdp_tradeoff(0.05, 1.0)
    assert g == pytest.approx(float(_g_exact(mpmath.mpf("0.05"), 1)), rel=1e-13)
    assert round(g, 5) == 0.74049
    mu = dp.gdp_compose([dp.gaussian_gdp_mu(10.0)] * 100)
    assert mu == pytest.approx(1.0, rel=1e-14)
    d = dp.gdp_delta(1.0, 1.0)
    assert d == pytest.approx(float(_delta_exact(1, 1)), rel=1e-12)
    assert round(d, 5) == 0.12694
    truth = mpmath.findroot(lambda e: _delta_exact(e, 1) - mpmath.mpf("1e-6"), 4.9)
    eps = dp.gdp_epsilon(1e-6, 1.0)
    assert eps == pytest.approx(float(truth), rel=1e-11)
    assert eps >= float(truth) * (1 - 1e-15)                     # the safe side: δ(ε) ≤ δ at the ε returned
    assert round(eps, 4) == 4.8866


# -- the trade-off curve -------------------------------------------------------------------------------------

@pytest.mark.parametrize("mu", [0.0, 0.05, 0.5, 1.0, 3.0, 8.0])
def test_tradeoff_against_scipy_and_mpmath(mu):
    alpha = np.r_[0.0, 1e-12, 1e-6, np.linspace(0.001, 0.999, 37), 1 - 1e-6, 1.0]
    ours = np.asarray(dp.gdp_tradeoff(alpha, mu))
    scipy_g = stats.norm.cdf(stats.norm.isf(alpha) - mu)
    assert np.allclose(ours, scipy_g, rtol=1e-10, atol=1e-15)
    for a in (1e-12, 0.01, 0.3, 0.9):
        assert float(dp.gdp_tradeoff(a, mu)) == pytest.approx(float(_g_exact(a, mu)), rel=1e-12, abs=1e-300)


def test_tradeoff_is_a_symmetric_convex_curve_from_one_to_zero():
    alpha = np.linspace(0, 1, 2001)
    for mu in (0.3, 1.0, 2.5):
        g = np.asarray(dp.gdp_tradeoff(alpha, mu))
        assert g[0] == 1.0 and g[-1] == 0.0
        assert np.all(np.diff(g) <= 1e-15)                            # non-increasing
        assert np.all(np.diff(g, 2) >= -1e-12)                        # convex
        assert np.allclose(dp.gdp_tradeoff(g, mu), alpha, atol=1e-12)   # symmetric: G(G(α)) = α
        assert np.all(g <= 1 - alpha + 1e-15)                          # below the coin toss
    assert np.allclose(dp.gdp_tradeoff(alpha, 0.0), 1 - alpha, atol=1e-15)
    assert np.all(np.asarray(dp.gdp_tradeoff(alpha, 2.0)) <= np.asarray(dp.gdp_tradeoff(alpha, 1.0)) + 1e-15)


@pytest.mark.parametrize("sigma, sensitivity", [(1.0, 1.0), (3.0, 1.0), (2.0, 5.0), (10.0, 1.0)])
def test_the_gaussian_mechanisms_threshold_tests_trace_g_mu(sigma, sensitivity):
    """The exact trade-off of N(0, σ²) against N(Δ, σ²): by Neyman–Pearson the best tests are thresholds
    (the likelihood ratio grows with z), and their errors (scipy) lie exactly on G_{Δ/σ}."""
    mu = dp.gaussian_gdp_mu(sigma, sensitivity)
    assert mu == sensitivity / sigma
    t = np.linspace(-8 * sigma, 8 * sigma + sensitivity, 4001)
    alpha = stats.norm.sf(t / sigma)
    beta = stats.norm.cdf((t - sensitivity) / sigma)
    assert np.allclose(dp.gdp_tradeoff(alpha, mu), beta, rtol=1e-10, atol=1e-15)


def test_tests_that_are_not_thresholds_lie_above_the_curve():
    """Two-sided tests ("say y when |z| ≥ t") and thresholds the wrong way round are tests too: never below."""
    mu = 1.0
    t = np.linspace(0.01, 6, 600)
    alpha = 2 * stats.norm.sf(t)                                    # |z| ≥ t under N(0, 1)
    beta = stats.norm.cdf(t - mu) - stats.norm.cdf(-t - mu)          # |z| < t under N(μ, 1)
    assert np.all(beta >= np.asarray(dp.gdp_tradeoff(alpha, mu)) - 1e-15)
    assert np.max(beta - np.asarray(dp.gdp_tradeoff(alpha, mu))) > 0.05
    reverse_alpha = stats.norm.cdf(t)                                 # say y when z ≤ t
    reverse_beta = stats.norm.sf(t - mu)
    assert np.all(reverse_beta >= np.asarray(dp.gdp_tradeoff(reverse_alpha, mu)) - 1e-15)


def test_best_success_is_the_symmetric_point_of_the_curve():
    alpha = np.linspace(0, 1, 100_001)
    for mu in (0.2, 1.0, 3.0):
        best = 1 - 0.5 * np.min(alpha + np.asarray(dp.gdp_tradeoff(alpha, mu)))
        assert dp.gdp_best_success(mu) == pytest.approx(best, abs=1e-9)
        assert dp.gdp_best_success(mu) == pytest.approx(stats.norm.cdf(mu / 2), rel=1e-14)


# -- δ(ε) and ε(δ) against dp-accounting -----------------------------------------------------------------------

@pytest.mark.parametrize("mu", [0.05, 0.3, 1.0, 2.0, 5.0])
def test_delta_and_epsilon_against_dp_accounting(mu):
    """dp-accounting's Gaussian with σ = 1/μ and sensitivity 1: its exact δ(ε) (privacy_loss_mechanism) and its
    analytic ε(δ) (gaussian_mechanism.get_epsilon_gaussian, Balle & Wang's formula)."""
    loss = privacy_loss_mechanism.GaussianPrivacyLoss(standard_deviation=1 / mu, sensitivity=1.0)
    for eps in (0.0, 0.1, 0.5, 1.0, 3.0, 10.0):
        theirs = loss.get_delta_for_epsilon(eps)
        assert dp.gdp_delta(eps, mu) == pytest.approx(theirs, rel=1e-9, abs=1e-300)
    for delta in (1e-10, 1e-6, 1e-3, 0.1):
        theirs = gaussian_mechanism.get_epsilon_gaussian(1 / mu, delta)
        ours = dp.gdp_epsilon(delta, mu)
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)
        assert dp.gdp_delta(ours, mu) <= delta * (1 + 1e-12)             # the safe side


def test_delta_of_an_array_and_at_mu_zero():
    eps = np.array([0.0, 0.5, 1.0])
    assert np.allclose(dp.gdp_delta(eps, 1.0), [dp.gdp_delta(float(e), 1.0) for e in eps])
    assert dp.gdp_delta(0.0, 1.0) == pytest.approx(2 * stats.norm.cdf(0.5) - 1, rel=1e-13)   # total variation
    assert dp.gdp_delta(1.0, 0.0) == 0.0 and dp.gdp_epsilon(1e-6, 0.0) == 0.0


@pytest.mark.parametrize("k, sigma", [(10, 3.0), (100, 10.0), (400, 20.0)])
def test_mu_sqrt_k_against_dp_accountings_composed_privacy_loss_distribution(k, sigma):
    """dp-accounting composes the k Gaussian losses numerically (connect-the-dots, pessimistic): its δ(ε) lies
    at or above μ√k-GDP's exact δ(ε), within 1e-3 relative."""
    pld = privacy_loss_distribution.from_gaussian_mechanism(sigma, value_discretization_interval=1e-4).self_compose(k)
    mu = dp.gdp_compose([dp.gaussian_gdp_mu(sigma)] * k)
    assert mu == pytest.approx(math.sqrt(k) / sigma, rel=1e-14)
    for eps in (0.5, 1.0, 2.0, 4.0):
        exact = dp.gdp_delta(eps, mu)
        theirs = pld.get_delta_for_epsilon(eps)
        assert theirs >= exact * (1 - 1e-9)
        assert theirs == pytest.approx(exact, rel=1e-3, abs=1e-12)


# -- composition, numerically --------------------------------------------------------------------------------

def _composed_tests(mus, h: float = 0.005, width: float = 9.0):
    """(α, β) of every test "say y when the binned log-likelihood ratio of the k outputs is ≥ T".

    Release i shows z_i ~ N(0, 1) under x and N(μ_i, 1) under y; its log-likelihood ratio μ_i z_i − μ_i²/2 is
    binned into steps of h (z in bins of width h/μ_i). The bins' masses under x and under y are exact (scipy),
    convolved over the releases (numpy); each threshold T on the summed bin index is a test of the k outputs,
    and its errors are exact sums. The tests lose only the binning: they lie on or above the composed curve.
    """
    px, py = np.array([1.0]), np.array([1.0])
    for mu in mus:
        edges = np.arange(-width, width + mu + h / mu, h / mu)          # z bins: equal steps of h in the loss
        edges = np.r_[-np.inf, edges, np.inf]
        bx = np.diff(stats.norm.cdf(edges))
        by = np.diff(stats.norm.cdf(edges - mu))
        px, py = np.convolve(px, bx), np.convolve(py, by)
    alpha = np.cumsum(px[::-1])[::-1]                                  # Pr_x[index ≥ T]
    beta = np.r_[0.0, np.cumsum(py)[:-1]]                              # Pr_y[index < T]
    return np.clip(alpha, 0, 1), np.clip(beta, 0, 1)


@pytest.mark.parametrize("mus", [[0.5, 0.5, 0.5, 0.5], [0.3, 1.0, 0.7], [0.1] * 25])
def test_composing_trade_off_curves_numerically_gives_root_sum_of_squares(mus):
    alpha, beta = _composed_tests(mus)
    total = dp.gdp_compose(mus)
    assert total == pytest.approx(math.sqrt(sum(m * m for m in mus)), rel=1e-14)
    curve = np.asarray(dp.gdp_tradeoff(alpha, total))
    assert np.all(beta >= curve - 1e-12), "a test of the k releases beats G at √(Σμ²): the composition is wrong"
    inner = (alpha > 1e-4) & (alpha < 1 - 1e-4)
    assert np.max(beta[inner] - curve[inner]) < 1e-4, "the binned tests do not reach the composed curve"
    added = np.asarray(dp.gdp_tradeoff(alpha, sum(mus)))                 # the μ's added: too strong a claim
    assert np.max(beta - added) > 0.05


# -- (ε, δ) accounting of the same releases ------------------------------------------------------------------

@pytest.mark.parametrize("k", [1, 10, 100, 1000])
def test_every_accountant_gives_a_valid_total_none_below_the_exact_one(k):
    sigma = math.sqrt(2) / 0.1
    t = dp.gaussian_composition(k, sigma, delta=1e-6)
    assert t.mu == pytest.approx(1 / sigma) and t.mu_total == pytest.approx(math.sqrt(k) / sigma)
    assert t.exact == dp.gdp_epsilon(1e-6, t.mu_total)
    assert t.exact == pytest.approx(gaussian_mechanism.get_epsilon_gaussian(sigma / math.sqrt(k), 1e-6), rel=1e-9)
    for name in ("basic", "advanced", "optimal", "zcdp"):
        assert getattr(t, name) >= t.exact * (1 - 1e-12), name
    assert t.optimal <= t.advanced and t.optimal <= t.basic * (1 + 1e-3)    # the best split: basic, nearly
    assert t.zcdp == pytest.approx(dp.zcdp_to_dp(k / (2 * sigma**2), 1e-6))
    if k == 1:
        assert t.basic == pytest.approx(t.exact, rel=1e-12)            # one pair, nothing to compose
    assert t.pairs == min(t.basic, t.advanced, t.optimal)
    # the pairs each accountant composed are the Gaussian's own, (ε₀, δ₀) with δ(ε₀) ≤ δ₀, and the totals' δ is δ
    for share, theorem, total in ((t.advanced_share, dp.advanced_composition, t.advanced),
                                  (t.optimal_share, dp.optimal_composition, t.optimal)):
        d0 = share * 1e-6 / k
        eps0 = dp.gdp_epsilon(d0, t.mu)
        assert dp.gdp_delta(eps0, t.mu) <= d0 * (1 + 1e-12)
        eps_total, delta_total = theorem(k, eps0, (1 - share) * 1e-6, d0)
        assert eps_total == pytest.approx(total, rel=1e-12) and delta_total <= 1e-6 * (1 + 1e-12)
    assert t.basic == pytest.approx(k * dp.gdp_epsilon(1e-6 / k, t.mu), rel=1e-12)


def test_the_accounting_of_chapter_06_loses_several_times_at_100_releases():
    t = dp.gaussian_composition(100, math.sqrt(2) / 0.1, delta=1e-6)
    assert t.optimal > 5 * t.exact and t.zcdp < 1.1 * t.exact


# -- parameters --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: dp.gdp_tradeoff(0.5, -1.0), "mu"),
    (lambda: dp.gdp_tradeoff([0.5, 1.5], 1.0), "fpr"),
    (lambda: dp.gdp_tradeoff(0.5, math.inf), "mu"),
    (lambda: dp.gdp_compose([]), "mus"),
    (lambda: dp.gdp_compose([0.1, -0.1]), "mus"),
    (lambda: dp.gdp_compose([[0.1, 0.2]]), "mus"),
    (lambda: dp.gdp_delta(-1.0, 1.0), "epsilon"),
    (lambda: dp.gdp_delta(1.0, -1.0), "mu"),
    (lambda: dp.gdp_epsilon(0.0, 1.0), "delta"),
    (lambda: dp.gdp_epsilon(1.0, 1.0), "delta"),
    (lambda: dp.gaussian_gdp_mu(0.0), "std"),
    (lambda: dp.gaussian_composition(0, 10.0), "k"),
    (lambda: dp.gaussian_composition(10, 10.0, delta=0.0), "delta"),
])
def test_bad_parameters_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# -- the normal quantile -----------------------------------------------------------------------------------------

def test_ndtri_to_its_stated_precision():
    """dpteach._special.ndtri: within 2e-15 relative, or 3e-16 absolute where |Φ⁻¹(p)| < 0.1, for p from 10⁻³⁰⁰
    to 1 − 10⁻¹⁶ (against the 40-digit root of Φ(x) = p for the float p)."""
    ps = np.r_[1e-300, 1e-200, 1e-100, 1e-30, 1e-16, 1e-10, 1e-5, 0.001, 0.02425, 0.1, 0.3, 0.4999, 0.5001, 0.54,
               0.7, 0.9, 0.99, 0.999999, 1 - 1e-10, 1 - 1e-16, np.geomspace(1e-300, 0.5, 60), np.linspace(0.01, 0.99, 41)]
    ours = np.asarray(_special.ndtri(ps))
    for p, x in zip(ps, ours):
        target = mpmath.mpf(p)
        truth = mpmath.findroot(lambda z, target=target: mpmath.ncdf(z) - target, float(x) if x != 0 else 1e-30)
        err = abs(mpmath.mpf(float(x)) - truth)
        if abs(truth) >= 0.1:
            assert err <= 2e-15 * abs(truth), (p, x, truth)
        else:
            assert err <= 3e-16, (p, x, truth)
    assert list(np.asarray(_special.ndtri([0.0, 0.5, 1.0]))) == [-np.inf, 0.0, np.inf]
