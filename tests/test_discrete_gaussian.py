"""The discrete Gaussian (Canonne, Kamath & Steinke 2020): pmf, variance, exact sampler, ρ-zCDP, exact δ(ε).

Check values are computed here independently of dpteach, with mpmath (50 digits) and scipy.
Statistical tests use fixed seeds and state their false-failure rate for a correct sampler
(the chance that the check fails by bad luck alone).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import optimize, stats

import dpteach as dp
from dpteach.discrete import gaussian as dg

mpmath.mp.dps = 50


@functools.lru_cache(maxsize=None)
def _mp_sums(sigma) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Σ_y e^{−y²/(2σ²)} and Σ_y y²·e^{−y²/(2σ²)} to 50 digits, summed directly over |y| ≤ 40σ + 1 (the terms
    beyond are below e^{−800})."""
    s = mpmath.mpf(sigma)
    ys = range(-math.ceil(40 * float(sigma)) - 1, math.ceil(40 * float(sigma)) + 2)
    w = [mpmath.exp(-mpmath.mpf(y) ** 2 / (2 * s * s)) for y in ys]
    return mpmath.fsum(w), mpmath.fsum(wi * y * y for wi, y in zip(w, ys))


def _mp_pmf(z: int, sigma) -> mpmath.mpf:
    s = mpmath.mpf(sigma)
    return mpmath.exp(-mpmath.mpf(z) ** 2 / (2 * s * s)) / _mp_sums(sigma)[0]


def _mp_variance(sigma) -> mpmath.mpf:
    norm, second = _mp_sums(sigma)
    return second / norm


# -- the law -------------------------------------------------------------------------------------

@pytest.mark.parametrize("sigma", [0.2, 0.5, 1.0, 1.7, 3.0, 10.0, 250.0])
def test_pmf_and_variance_match_mpmath(sigma):
    """The normaliser by direct sum (σ < 1) and by Poisson summation (σ ≥ 1), against a 50-digit sum."""
    z = np.array([0, 1, -2, 5, 17])
    ours = dp.discrete_gaussian_pmf(z, sigma)
    for zi, got in zip(z, ours):
        exact = _mp_pmf(int(zi), sigma)
        if exact > 1e-300:
            assert got == pytest.approx(float(exact), rel=1e-12)
    assert dp.discrete_gaussian_variance(sigma) == pytest.approx(float(_mp_variance(sigma)), rel=1e-12)


def test_check_values_of_math_md():
    """reference/MATH.md, "The discrete Gaussian": the variance is below σ² (0.21501 at σ = 0.5, 0.9999998 at σ = 1,
    9.0000000 at σ = 3); Pr[Z = 0] = 0.78657 at σ = 0.5, 0.39894 at σ = 1. Here from mpmath, then dpteach."""
    for sigma, var, digits in ((0.5, 0.21501, 5), (1.0, 0.9999998, 7), (3.0, 9.0000000, 7)):
        assert round(float(_mp_variance(sigma)), digits) == var
        assert round(dp.discrete_gaussian_variance(sigma), digits) == var
    for sigma, p0 in ((0.5, 0.78657), (1.0, 0.39894)):
        assert round(float(_mp_pmf(0, sigma)), 5) == p0
        assert round(dp.discrete_gaussian_pmf(0, sigma), 5) == p0


@pytest.mark.parametrize("sigma", [0.3, 0.8, 1.0, 2.5, 40.0])
def test_pmf_sums_to_one_and_the_variance_is_below_sigma_squared(sigma):
    """CKS Corollary 9: Var < σ² (≤ in floating point: from σ ≈ 2 the gap is below a double's resolution); and
    close to σ² from σ ≈ 1 on (within 1e-6 relative from σ = 1)."""
    reach = math.ceil(40 * sigma) + 1
    z = np.arange(-reach, reach + 1)
    pmf = dp.discrete_gaussian_pmf(z, sigma)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-13)
    assert (pmf * z.astype(float) ** 2).sum() == pytest.approx(dp.discrete_gaussian_variance(sigma), rel=1e-10)
    assert dp.discrete_gaussian_variance(sigma) <= sigma**2
    if sigma >= 1:
        assert dp.discrete_gaussian_variance(sigma) > sigma**2 * (1 - 1e-6)


def test_rho_is_that_of_the_continuous_gaussian():
    """ρ = Δ²/(2σ²) (CKS Theorem 4), the same as N(0, σ²)'s (Bun & Steinke 2016)."""
    for sigma, sens in ((1.0, 1.0), (3.0, 2.0), (0.5, 1.0)):
        assert dp.discrete_gaussian_rho(sigma, sens) == pytest.approx(sens**2 / (2 * sigma**2), rel=1e-15)
        assert dp.discrete_gaussian_rho(sigma, sens) == pytest.approx(dp.gaussian_zcdp_rho(sigma, sens), rel=1e-15)


# -- the exact sampler -----------------------------------------------------------------------------

def _chi_square_p(samples: np.ndarray, sigma) -> float:
    """Pearson χ² p-value of integer samples against the pmf (bins with an expected count ≥ 20; tails pooled)."""
    n = samples.size
    reach = math.ceil(12 * float(sigma)) + 2
    support = np.arange(-reach, reach + 1)
    expected = n * dp.discrete_gaussian_pmf(support, sigma)
    keep = expected >= 20
    edges = support[keep]
    counts = np.bincount(samples - support[0], minlength=support.size)[: support.size] if samples.min() >= support[0] \
        else None
    if counts is None or samples.max() > support[-1]:
        counts = np.array([(samples == z).sum() for z in support])
    observed = np.r_[counts[keep], n - counts[keep].sum()]
    exp_counts = np.r_[expected[keep], n - expected[keep].sum()]
    if exp_counts[-1] < 1e-9:                       # nothing expected outside: no tail bin
        observed, exp_counts = observed[:-1], exp_counts[:-1] * n / exp_counts[:-1].sum()
    assert edges.size >= 2
    return float(stats.chisquare(observed, exp_counts).pvalue)


SIGMAS = [Fraction(1, 3), 0.4419417382415922, 1, Fraction(3, 2), 3.0, 10.0, 61.7]


@pytest.mark.parametrize("sigma", SIGMAS)
def test_sampler_matches_the_pmf(sigma):
    """χ² goodness of fit of 200,000 draws at level 10⁻⁴ per σ: a correct sampler fails one of these seven with
    probability at most 7·10⁻⁴ (the seed is fixed, so the test is deterministic). 0.44194… = 1/√5.12 is the
    Census persons' ρ = 2.56 on one count, a float rounded up to a fraction."""
    z = dp.discrete_gaussian_sample(sigma, size=200_000, rng=np.random.default_rng(43))
    assert z.dtype == np.int64
    assert _chi_square_p(z, sigma) > 1e-4


def test_mean_and_variance_of_a_release_are_those_of_the_law():
    """A 20,000-cell release at σ = 4: mean error within 5 s.e. (false-failure rate < 6·10⁻⁷), variance within
    5 s.e. of the exact variance (the s.e. from the pmf's fourth moment)."""
    counts = np.random.default_rng(0).integers(0, 1000, size=20_000)
    errors = dp.discrete_gaussian_mechanism(counts, 4.0, rng=np.random.default_rng(8)) - counts
    var = dp.discrete_gaussian_variance(4.0)
    z = np.arange(-200, 201)
    fourth = (dp.discrete_gaussian_pmf(z, 4.0) * z.astype(float) ** 4).sum()
    assert abs(errors.mean()) < 5 * math.sqrt(var / errors.size)
    assert abs(errors.var() - var) < 5 * math.sqrt((fourth - var**2) / errors.size)


def test_sampling_path_uses_no_floating_point_exp_or_log(monkeypatch):
    """The exactness promise: with every floating-point exp and log made to explode, sampling still works."""
    def boom(*args, **kwargs):
        raise AssertionError("floating-point exp/log called while sampling")
    for module, names in ((np, ("exp", "log", "log1p", "expm1", "power", "sqrt")),
                          (math, ("exp", "log", "log1p", "expm1", "sqrt"))):
        for name in names:
            monkeypatch.setattr(module, name, boom)
    rng = np.random.default_rng(0)
    out = dp.discrete_gaussian_mechanism(np.arange(100), Fraction(7, 3), rng=rng)
    assert out.dtype == np.int64 and out.shape == (100,)
    assert isinstance(dp.discrete_gaussian_mechanism(5, 2.5, rng=rng), int)
    assert isinstance(dp.discrete_gaussian_sample(0.1234567891, rng=rng), int)


def test_bernoulli_of_a_ratio_of_huge_integers():
    """Bernoulli(num/den) with num, den far beyond 64 bits: 3·2¹⁰⁰ / 2¹⁰², i.e. 3/4; mean within 5 s.e.
    (false-failure rate < 6·10⁻⁷); num = den is always 1, num = 0 never."""
    rng = np.random.default_rng(5)
    n = 200_000
    num = np.full(n, 3 * 2**100, dtype=object)
    draws = dg._bernoulli_ratio(num, 2**102, rng)
    assert abs(draws.mean() - 0.75) < 5 * math.sqrt(0.75 * 0.25 / n)
    assert dg._bernoulli_ratio(np.full(50, 2**90, dtype=object), 2**90, rng).all()
    assert not dg._bernoulli_ratio(np.zeros(50, dtype=object), 2**90, rng).any()


@pytest.mark.parametrize("gamma", [Fraction(10**30 + 7, 10**30), Fraction(5 * 10**25, 2 * 10**25 + 1), Fraction(1, 3 * 10**20)])
def test_bernoulli_exp_with_huge_numerators_and_denominators(gamma):
    """Bernoulli(e^−γ) for γ with 100-bit parts (the acceptance step's exponents): mean within 5 s.e.
    of e^−γ (false-failure rate < 6·10⁻⁷ per γ; at γ = 1/(3·10²⁰) every draw is 1 but with probability 7·10⁻¹⁶)."""
    n = 200_000
    draws = dg._bernoulli_exp_big(np.full(n, gamma.numerator, dtype=object), gamma.denominator, np.random.default_rng(6))
    p = math.exp(-float(gamma))
    assert abs(draws.mean() - p) <= 5 * math.sqrt(p * (1 - p) / n)


def test_a_float_sigma_is_rounded_up_and_a_fraction_used_exactly():
    """σ′ ≥ σ (never less noise, ρ′ ≤ ρ); a short decimal and a Fraction are used as they are."""
    assert dg._sigma(2.5) == Fraction(5, 2) and dg._sigma(Fraction(7, 3)) == Fraction(7, 3)
    s = 1 / math.sqrt(5.12)
    used = dg._sigma(s)
    assert used >= Fraction(s) and used.denominator <= 10**6 and used - Fraction(s) < Fraction(1, 10**6)
    assert dp.discrete_gaussian_rho(float(used)) <= dp.discrete_gaussian_rho(s)


def test_mechanism_keeps_shape_and_is_reproducible():
    rng = np.random.default_rng(1)
    assert isinstance(dp.discrete_gaussian_mechanism(42, 1.0, rng=rng), int)
    out = dp.discrete_gaussian_mechanism(np.zeros((3, 4), dtype=np.int32), 1.0, rng=rng)
    assert out.shape == (3, 4) and out.dtype == np.int64
    a = dp.discrete_gaussian_mechanism(np.arange(50), 2.0, rng=np.random.default_rng(9))
    b = dp.discrete_gaussian_mechanism(np.arange(50), 2.0, rng=np.random.default_rng(9))
    assert (a == b).all()
    assert dp.discrete_gaussian_sample(1.0, size=(2, 3), rng=rng).shape == (2, 3)


# -- what ρ means --------------------------------------------------------------------------------

def _brute_delta(sigma: float, eps: float, k: int, sens: int = 1) -> float:
    """δ(ε) of k releases by summing over every output vector (k ≤ 2), with mpmath's pmf: Σ (P − e^ε Q)₊."""
    reach = math.ceil(12 * sigma) + 3
    zs = range(-reach, reach + sens + 1)
    p = {z: _mp_pmf(z, sigma) for z in range(-reach - sens, reach + 2 * sens + 1)}
    total = mpmath.mpf(0)
    e = mpmath.exp(eps)
    if k == 1:
        for z in zs:
            total += max(p[z] - e * p[z - sens], 0)
    else:
        for z1 in zs:
            for z2 in zs:
                total += max(p[z1] * p[z2] - e * p[z1 - sens] * p[z2 - sens], 0)
    return float(total)


@pytest.mark.parametrize("sigma, eps, k, sens", [(1.0, 1.0, 1, 1), (0.7, 2.0, 1, 1), (1.5, 0.5, 2, 1), (2.0, 1.0, 1, 2)])
def test_exact_delta_by_brute_force(sigma, eps, k, sens):
    assert dp.discrete_gaussian_delta(sigma, eps, k=k, sensitivity=sens) == pytest.approx(
        _brute_delta(sigma, eps, k, sens), rel=1e-9)


@pytest.mark.parametrize("sigma, k", [(0.5, 1), (1.0, 1), (1.0, 10), (3.0, 4), (0.4419417382415922, 1)])
def test_the_zcdp_conversion_never_claims_less_than_the_exact_epsilon(sigma, k):
    """CKS's conversion of kρ (and Bun & Steinke's) is an upper bound on the exact ε of the k releases; the
    exact ε inverts the exact δ(ε)."""
    for delta in (1e-3, 1e-6, 1e-10):
        exact = dp.discrete_gaussian_epsilon(sigma, delta, k=k)
        converted = dp.zcdp_to_dp(k * dp.discrete_gaussian_rho(sigma), delta)
        assert exact <= converted
        assert dp.discrete_gaussian_delta(sigma, exact, k=k) <= delta
        assert dp.discrete_gaussian_delta(sigma, exact * (1 - 1e-8), k=k) > delta or exact == 0


def test_gaussian_epsilon_inverts_balle_and_wang():
    """gaussian_epsilon against an inversion written here with scipy's normal CDF and brentq."""
    def delta(eps, mu):
        return stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)
    for sigma, d in ((1.0, 1e-6), (0.5, 1e-10), (3.7306, 1e-5), (1 / math.sqrt(5.12), 1e-10)):
        theirs = optimize.brentq(lambda e, s=sigma, d=d: delta(e, 1 / s) - d, 1e-9, 100, xtol=1e-14, rtol=1e-14)
        ours = dp.gaussian_epsilon(sigma, 1.0, d)
        assert ours == pytest.approx(theirs, rel=1e-9)
        assert dp.gaussian_delta(sigma, 1.0, ours) <= d                   # the safe end of the bracket
    assert round(dp.gaussian_epsilon(1.0, 1.0, 1e-6), 4) == 4.8866       # MATH.md: μ = 1, δ = 10⁻⁶


def test_census_check_values():
    """MATH.md: ρ = 2.56 at δ = 10⁻¹⁰ gives ε = 17.92 (Bun & Steinke), 17.16 (CKS) and 16.48 (continuous
    Gaussians, exactly √(2ρ)-GDP); the Bureau published 17.14. Recomputed here from the formulas."""
    rho, delta = dp.CENSUS_2020["persons"]["rho"], dp.CENSUS_2020_DELTA
    m = dp.zcdp_meaning(rho, delta)
    assert round(rho + 2 * math.sqrt(rho * math.log(1 / delta)), 2) == round(m.bun_steinke, 2) == 17.92
    a = 1 + np.geomspace(1e-5, 1e5, 400_000)
    brute = np.min(rho * a + (math.log(1 / delta) + (a - 1) * np.log1p(-1 / a) - np.log(a)) / (a - 1))
    assert m.cks == pytest.approx(brute, rel=1e-7) and round(m.cks, 2) == 17.16
    assert round(m.gaussian, 2) == 16.48 and m.gaussian < m.cks < m.bun_steinke
    assert dp.CENSUS_2020["persons"]["published_epsilon"] == 17.14 and delta == 1e-10
    assert abs(m.cks - 17.14) < 0.03                       # the Bureau's figure is CKS's for a ρ just below 2.56
    # discrete Gaussians with the same total ρ: ε approaches the continuous one as ρ is spread over more counts
    k16 = dp.discrete_gaussian_epsilon(math.sqrt(16 / (2 * rho)), delta, k=16)
    assert abs(k16 - m.gaussian) < 0.05 and dp.discrete_gaussian_epsilon(1 / math.sqrt(2 * rho), delta) < m.gaussian


def test_zcdp_rho_for_inverts_the_conversion():
    """The largest ρ whose CKS conversion is ≤ ε; the Census's published ε come from ρ that round to the quoted ones."""
    for eps, delta in ((1.0, 1e-6), (17.14, 1e-10), (0.1, 1e-5)):
        rho = dp.zcdp_rho_for(eps, delta)
        assert dp.zcdp_to_dp(rho, delta) <= eps < dp.zcdp_to_dp(rho * (1 + 1e-8), delta)
    for budget in dp.CENSUS_2020.values():
        assert round(dp.zcdp_rho_for(budget["published_epsilon"], dp.CENSUS_2020_DELTA), 2) == budget["rho"]


def test_figure_and_widget_of_chapter_09():
    """The slider's figure: ρ = 1/(2σ²), the variance below σ², the exact ε of one release below CKS's conversion."""
    w = dp.widgets.discrete_gaussian()
    for sigma in (0.25, 1.0, 5.0):
        r = w.set(sigma=sigma)
        assert r["rho"] == pytest.approx(1 / (2 * sigma**2)) and r["variance"] <= sigma**2
        assert r["epsilon_exact"] <= r["epsilon_zcdp"] and r["pmf_x"].sum() <= 1 and w.status.value == ""
        assert r["epsilon_exact"] == pytest.approx(dp.discrete_gaussian_epsilon(sigma, 1e-6))
