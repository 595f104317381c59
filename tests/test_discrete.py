"""The discrete Laplace mechanism and its exact sampler (Canonne, Kamath & Steinke 2020).

Statistical tests use fixed seeds; each states its false-positive rate for a correct
sampler (the chance that the check fails by bad luck alone).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import dpteach as dp
from dpteach.discrete import laplace as discrete


def _chi_square_p(samples: np.ndarray, scale) -> float:
    """Pearson χ² p-value of integer samples against the discrete Laplace pmf (tails pooled)."""
    n = samples.size
    support = np.arange(-60, 61)
    expected = n * dp.discrete_laplace_pmf(support, scale)
    keep = expected >= 20
    edges = support[keep]
    observed = np.array([(samples == z).sum() for z in edges] + [((samples < edges[0]) | (samples > edges[-1])).sum()])
    exp_counts = np.r_[expected[keep], n - expected[keep].sum()]
    return float(stats.chisquare(observed, exp_counts).pvalue)


def test_pmf_sums_to_one_and_matches_the_variance_formula():
    for scale in (0.3, 1.0, Fraction(10, 3), 25.0):
        z = np.arange(-4000, 4001)
        pmf = dp.discrete_laplace_pmf(z, scale)
        assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
        assert (pmf * z**2).sum() == pytest.approx(dp.discrete_laplace_variance(scale), rel=1e-9)


def test_pmf_ratio_on_neighbours_is_at_most_e_to_the_epsilon():
    """Pr[f(x) + Z = z] / Pr[f(y) + Z = z] ≤ e^ε for |f(x) − f(y)| ≤ Δf, with equality outside [f(x), f(y)]."""
    eps, sens = 0.7, 2
    t = dp.discrete_laplace_scale(sens, eps)
    z = np.arange(-50, 51)
    ratio = dp.discrete_laplace_pmf(z - 0, t) / dp.discrete_laplace_pmf(z - sens, t)
    assert ratio.max() == pytest.approx(math.exp(eps), rel=1e-12)
    assert ratio.min() == pytest.approx(math.exp(-eps), rel=1e-12)


@pytest.mark.parametrize("scale", [Fraction(1, 3), 1, Fraction(3, 2), 7, Fraction(1000, 7)])
def test_sampler_matches_the_pmf(scale):
    """χ² goodness of fit at level 10⁻⁴ per scale: a correct sampler fails with probability 10⁻⁴."""
    z = dp.discrete_laplace_sample(scale, size=200_000, rng=np.random.default_rng(20))
    assert z.dtype == np.int64
    assert _chi_square_p(z, scale) > 1e-4


def test_bernoulli_exp_has_mean_exp_minus_gamma():
    """Each mean within 5 standard errors of e^−γ (false-positive rate < 6·10⁻⁷ per γ)."""
    rng = np.random.default_rng(3)
    for gamma in (0, Fraction(1, 7), Fraction(1, 2), 1, Fraction(7, 3), 4, 0.25):
        draws = dp.bernoulli_exp(gamma, size=200_000, rng=rng)
        p = math.exp(-float(Fraction(gamma) if not isinstance(gamma, float) else gamma))
        assert draws.dtype == bool
        assert abs(draws.mean() - p) < 5 * math.sqrt(p * (1 - p) / draws.size) + 1e-12


def test_sampling_path_uses_no_floating_point_exp_or_log(monkeypatch):
    """The issue's exactness promise: with exp and log made to explode, sampling still works."""
    def boom(*args, **kwargs):
        raise AssertionError("floating-point exp/log called while sampling")
    for module, names in ((np, ("exp", "log", "log1p", "expm1", "power")), (math, ("exp", "log", "log1p", "expm1"))):
        for name in names:
            monkeypatch.setattr(module, name, boom)
    rng = np.random.default_rng(0)
    out = dp.discrete_laplace_mechanism(np.arange(100), 1, Fraction(1, 3), rng=rng)
    assert out.dtype == np.int64
    assert isinstance(dp.discrete_laplace_mechanism(5, 2, 0.5, rng=rng), int)
    assert isinstance(dp.bernoulli_exp(Fraction(5, 2), rng=rng), bool)


def test_float_epsilon_becomes_the_decimal_it_was_typed_as():
    assert dp.discrete_laplace_scale(1, 0.1) == Fraction(10)
    assert dp.discrete_laplace_scale(1, 0.3) == Fraction(10, 3)           # the double is 1e-17 below 3/10
    assert dp.discrete_laplace_scale(2, 1.5) == Fraction(4, 3)
    assert dp.discrete_laplace_scale(1, 0.000001) == Fraction(10**6)
    assert dp.discrete_laplace_scale(1, Fraction(1, 3)) == Fraction(3)


def _largest_fraction_at_most(x: Fraction, max_denominator: int = 10**6) -> Fraction:
    """By brute force over every denominator q ≤ 10⁶: the largest ⌊x·q⌋/q (exact integers)."""
    q = np.arange(1, max_denominator + 1, dtype=np.int64)
    p = (x.numerator * q) // x.denominator
    i = int(np.argmax(p / q))
    best = Fraction(int(p[i]), int(q[i]))
    assert np.all(p * best.denominator <= best.numerator * q)        # none above it, exactly
    return best


def test_float_epsilon_is_rounded_down_never_up():
    """The issue's case: ε = 0.1234567891 (ten decimals) used to become ε′ = ε + 1e-9. Now ε′ is the largest
    fraction with denominator ≤ 10⁶ at most ε (the decimal and the double), found here by brute force."""
    eps = 0.1234567891
    used = 1 / dp.discrete_laplace_scale(1, eps)
    assert used <= Fraction(repr(eps)) and used <= Fraction(eps)
    assert used == _largest_fraction_at_most(min(Fraction(repr(eps)), Fraction(eps)))
    assert 0 < Fraction(repr(eps)) - used < Fraction(1, 10**6)
    assert Fraction(eps).limit_denominator(10**6) > Fraction(repr(eps))   # the nearest fraction: the unsafe side
    third = 1 / dp.discrete_laplace_scale(1, 1 / 3)                     # not a short decimal: rounded down too
    assert third < Fraction(1 / 3) and Fraction(1, 3) - third < Fraction(1, 10**6)


def test_float_scale_is_rounded_up_never_down():
    """A float scale t is drawn with t′ ≥ t (more noise): the sampler's and the pmf's scale."""
    t_num, t_den = discrete._scale_parts(3.0000000001)
    assert Fraction(t_num, t_den) >= Fraction(3.0000000001) and Fraction(t_num, t_den) - Fraction("3.0000000001") < 1e-6
    assert discrete._scale_parts(2.5) == (5, 2)


@given(st.floats(min_value=1e-6, max_value=1e4, allow_nan=False, allow_infinity=False))
@settings(max_examples=300, deadline=None)
def test_any_float_epsilon_is_used_as_typed_or_rounded_down(eps):
    """ε′ is the decimal typed when it has ≤ 6 decimals; otherwise ε′ ≤ ε (decimal and double), ε − ε′ < 10⁻⁶."""
    decimal = Fraction(repr(eps))
    used = 1 / dp.discrete_laplace_scale(1, eps)
    assert used.denominator <= 10**6
    if decimal.denominator <= 10**6:
        assert used == decimal
    else:
        assert used <= decimal and used <= Fraction(eps) and decimal - used < Fraction(1, 10**6)
    scale = discrete._scale_parts(eps)
    if decimal.denominator > 10**6:
        assert Fraction(*scale) >= decimal and Fraction(*scale) >= Fraction(eps)


def test_mechanism_keeps_shape_and_returns_integers():
    rng = np.random.default_rng(1)
    assert isinstance(dp.discrete_laplace_mechanism(42, 1, 1.0, rng=rng), int)
    out = dp.discrete_laplace_mechanism(np.zeros((3, 4), dtype=np.int32), 1, 1.0, rng=rng)
    assert out.shape == (3, 4) and out.dtype == np.int64
    assert dp.discrete_laplace_mechanism([3.0, 4.0], 1, 1.0, rng=rng).dtype == np.int64


def test_mechanism_is_unbiased_with_the_stated_variance():
    """A 10,000-cell histogram at ε = 0.5: mean error within 5 s.e. (false-positive rate < 10⁻⁶), variance
    within 5 s.e. of 2α/(1 − α)² (the s.e. from the fourth moment of the pmf)."""
    counts = np.random.default_rng(0).integers(0, 1000, size=10_000)
    errors = dp.discrete_laplace_mechanism(counts, 1, 0.5, rng=np.random.default_rng(7)) - counts
    var = dp.discrete_laplace_variance(2)
    z = np.arange(-400, 401)
    fourth = (dp.discrete_laplace_pmf(z, 2) * z**4).sum()
    assert abs(errors.mean()) < 5 * math.sqrt(var / errors.size)
    assert abs(errors.var() - var) < 5 * math.sqrt((fourth - var**2) / errors.size)


def test_same_seed_same_release():
    a = dp.discrete_laplace_mechanism(np.arange(50), 1, 1.0, rng=np.random.default_rng(9))
    b = dp.discrete_laplace_mechanism(np.arange(50), 1, 1.0, rng=np.random.default_rng(9))
    assert (a == b).all()


@pytest.mark.parametrize("bad, exc, named", [
    (dict(counts=[1.5, 2]), ValueError, "counts"),
    (dict(counts=[1, float("nan")]), ValueError, "counts"),
    (dict(counts=[]), ValueError, "counts"),
    (dict(counts="3"), TypeError, "counts"),
    (dict(counts=[2**60]), ValueError, "counts"),
    (dict(sensitivity=0), ValueError, "sensitivity"),
    (dict(sensitivity=1.5), TypeError, "sensitivity"),
    (dict(epsilon=0), ValueError, "epsilon"),
    (dict(epsilon=-1), ValueError, "epsilon"),
    (dict(epsilon=float("inf")), ValueError, "epsilon"),
    (dict(epsilon=1e-9), ValueError, "epsilon"),
    (dict(epsilon=Fraction(1, 2**50)), ValueError, "2\\*\\*40"),
    (dict(epsilon="1"), TypeError, "epsilon"),
    (dict(rng=3), TypeError, "rng"),
])
def test_bad_parameters_are_named(bad, exc, named):
    kwargs = dict(counts=[1, 2], sensitivity=1, epsilon=1.0, rng=np.random.default_rng(0)) | bad
    with pytest.raises(exc, match=named):
        dp.discrete_laplace_mechanism(**kwargs)


def test_internal_bernoulli_handles_large_gamma_as_repeated_e_to_the_minus_one():
    """γ = 9/2 goes through ⌊γ⌋ = 4 Bernoulli(e^−1) draws and one Bernoulli(e^−1/2)."""
    rng = np.random.default_rng(11)
    draws = discrete._bernoulli_exp(np.full(400_000, 9, dtype=np.int64), 2, rng)
    p = math.exp(-4.5)
    assert abs(draws.mean() - p) < 5 * math.sqrt(p * (1 - p) / draws.size)


def test_figure_widget_and_checker_of_chapter_09():
    """The slider's figure draws the two pmfs with largest ratio e^ε at every ε; the checker accepts the formula."""
    w = dp.widgets.discrete_laplace()
    for eps in (0.1, 0.7, 5.0):
        r = w.set(epsilon=eps)
        assert r["max_ratio"] == pytest.approx(math.exp(eps), rel=1e-9)
        assert r["pmf_x"].sum() <= 1 and w.status.value == ""
    assert dp.exercises.check_discrete_laplace_variance(dp.discrete_laplace_variance(2)).correct
    assert dp.exercises.check_discrete_laplace_variance(8.0).correct is False
    assert dp.exercises.check_discrete_laplace_variance(...).correct is None
