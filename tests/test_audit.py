"""The empirical privacy auditor: its bounds are Clopper–Pearson's, its false alarms are rare, it
accounts for δ, and it catches what it should.

False-positive rates: each test states the chance that a correct auditor fails it by bad luck.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpteach as dp


@pytest.mark.parametrize("s, n, a", [(0, 50, 0.01), (1, 50, 0.01), (25, 500, 0.025), (3, 10**6, 1e-8),
                                     (500_000, 10**6, 1e-9), (999_990, 10**6, 1e-9), (10**6, 10**6, 1e-3),
                                     (7, 7, 0.1)])
def test_clopper_pearson_bounds_are_beta_quantiles(s, n, a):
    """One-sided CP bounds are Beta quantiles: lower = B⁻¹(α; s, n − s + 1), upper = B⁻¹(1 − α; s + 1, n − s)."""
    lo, hi = dp.clopper_pearson_lower(s, n, a), dp.clopper_pearson_upper(s, n, a)
    exact_lo = 0.0 if s == 0 else stats.beta.ppf(a, s, n - s + 1)
    exact_hi = 1.0 if s == n else stats.beta.isf(a, s + 1, n - s)
    assert lo == pytest.approx(exact_lo, rel=1e-8, abs=1e-15) and lo <= exact_lo * (1 + 1e-12) + 1e-15
    assert hi == pytest.approx(exact_hi, rel=1e-8, abs=1e-15) and hi >= exact_hi * (1 - 1e-12) - 1e-15


def test_clopper_pearson_bounds_agree_with_binomial_ci():
    for s, n in [(0, 30), (4, 30), (30, 30), (123, 1000)]:
        two_sided = dp.binomial_ci(s, n, confidence=0.9)
        assert dp.clopper_pearson_lower(s, n, 0.05) == pytest.approx(two_sided[0], abs=1e-9)
        assert dp.clopper_pearson_upper(s, n, 0.05) == pytest.approx(two_sided[1], abs=1e-9)


def _randomized_response(epsilon):
    """Reports the bit with probability e^ε/(1 + e^ε): exactly ε-DP, and tight on the event {1}."""
    keep = math.exp(epsilon) / (1 + math.exp(epsilon))

    def mechanism(bit, size, rng):
        return np.where(rng.random(size) < keep, bit, 1 - bit)
    return mechanism


def test_false_alarms_on_a_tight_mechanism_stay_below_p_fa():
    """Randomized response is exactly ε-DP with ratio e^ε on {output = 1}: the hardest case for false alarms.
    200 audits at α = 0.05: if the auditor's false-alarm rate were ≤ 0.05, 24 or more alarms would happen
    with probability 7·10⁻⁵ (binomial tail); in fact Bonferroni makes it far lower."""
    rng = np.random.default_rng(8)
    alarms = sum(dp.privacy_audit(_randomized_response(1.0), 0, 1, epsilon=1.0, n=2_000, false_alarm=0.05,
                                  thresholds=[0, 1], rng=rng).refuted for _ in range(200))
    assert alarms < 24
    assert stats.binom.sf(23, 200, 0.05) < 1e-4


def test_lower_bound_is_close_to_the_truth_on_a_tight_mechanism():
    result = dp.privacy_audit(_randomized_response(1.0), 0, 1, epsilon=1.0, n=400_000, thresholds=[0, 1],
                              rng=np.random.default_rng(9))
    assert 0.9 < result.epsilon_lower_bound <= 1.0
    assert not result.refuted and "does not prove" in result.verdict


def test_an_overclaim_is_refuted():
    result = dp.privacy_audit(_randomized_response(1.0), 0, 1, epsilon=0.8, n=400_000, thresholds=[0, 1],
                              rng=np.random.default_rng(10))
    assert result.refuted and result.epsilon_lower_bound > 0.8 and "REFUTED" in repr(result)


def _leaky(delta0):
    """Outputs the secret bit itself with probability δ₀, else 0: (0, δ₀)-DP, and not (ε, δ)-DP for δ < δ₀."""
    def mechanism(bit, size, rng):
        return np.where(rng.random(size) < delta0, 2 * bit, 0)
    return mechanism


def test_delta_is_accounted_for():
    """The violation is L_x(S) > e^ε·U_y(S) + δ: the same leak passes at δ = δ₀ and fails at δ = δ₀/4."""
    rng = np.random.default_rng(11)
    ok = dp.privacy_audit(_leaky(0.01), 1, 0, epsilon=1.0, delta=0.01, n=200_000, rng=rng)
    assert not ok.refuted
    bad = dp.privacy_audit(_leaky(0.01), 1, 0, epsilon=1.0, delta=0.0025, n=200_000, rng=rng)
    assert bad.refuted and bad.epsilon_lower_bound > 3


def test_half_noise_laplace_is_caught_and_honest_laplace_is_not():
    def count(sensitivity):
        return lambda d, size, rng: dp.laplace_mechanism(np.full(size, float(d)), sensitivity, 1.0, rng)
    rng = np.random.default_rng(12)
    honest = dp.privacy_audit(count(1.0), 0, 1, epsilon=1.0, n=100_000, rng=rng)
    broken = dp.privacy_audit(count(0.5), 0, 1, epsilon=1.0, n=100_000, rng=rng)
    assert not honest.refuted and honest.epsilon_lower_bound > 0.8
    assert broken.refuted and broken.epsilon_lower_bound > 1.5


@pytest.mark.parametrize("bad, exc, named", [
    (dict(mechanism=42), TypeError, "mechanism"),
    (dict(epsilon=-1), ValueError, "epsilon"),
    (dict(epsilon=float("nan")), ValueError, "epsilon"),
    (dict(delta=1.0), ValueError, "delta"),
    (dict(delta=-0.1), ValueError, "delta"),
    (dict(n=5), ValueError, "n"),
    (dict(n=1.5e5), TypeError, "n"),
    (dict(false_alarm=0), ValueError, "false_alarm"),
    (dict(false_alarm=1), ValueError, "false_alarm"),
    (dict(thresholds=[0, float("nan")]), ValueError, "thresholds"),
    (dict(rng="seed"), TypeError, "rng"),
    (dict(mechanism=lambda d, size, rng: np.zeros(size + 1)), ValueError, "mechanism"),
    (dict(mechanism=lambda d, size, rng: np.full(size, "a")), TypeError, "mechanism"),
])
def test_bad_parameters_are_named(bad, exc, named):
    kwargs = dict(mechanism=_randomized_response(1.0), x=0, y=1, epsilon=1.0, n=100,
                  rng=np.random.default_rng(0)) | bad
    with pytest.raises(exc, match=named):
        dp.privacy_audit(**kwargs)


def test_audit_figure_and_checker():
    def count(sensitivity):
        return lambda d, size, rng: dp.laplace_mechanism(np.full(size, float(d)), sensitivity, 1.0, rng)
    rng = np.random.default_rng(13)
    a = dp.privacy_audit(count(1.0), 0, 1, 1.0, n=20_000, rng=rng)
    b = dp.privacy_audit(count(0.5), 0, 1, 1.0, n=20_000, rng=rng)
    fig = dp.plots.AuditFigure({"correct": a, "broken": b})
    assert len(fig.axes) == 2 and "refuted" in fig.axes[1].get_title()
    assert a.event_bounds.shape == (2, a.thresholds.size) and a.event_bounds.max() == pytest.approx(
        a.epsilon_lower_bound)
    with pytest.raises(TypeError, match="audits"):
        dp.plots.AuditFigure({})
    assert dp.exercises.check_audit_epsilon(math.log(0.29 / 0.09)).correct
    assert dp.exercises.check_audit_epsilon(math.log(0.30 / 0.09)).correct is False


def test_warnings_are_errors_in_the_test_run():
    """The issue: the test run treats warnings as errors (pyproject's filterwarnings = error)."""
    import warnings
    with pytest.raises(UserWarning):
        warnings.warn("a warning from dpteach would fail the run", UserWarning, stacklevel=1)


def test_audit_figure_titles_do_not_overlap():
    """Two panels with long names: each title stays within its own column (drawn, then measured)."""
    rng = np.random.default_rng(5)

    def laplace(scale):
        return lambda data, size, rng: dp.laplace_mechanism(np.full(size, data), scale, 1.0, rng)

    a = dp.privacy_audit(laplace(1.0), 0.0, 1.0, epsilon=1.0, n=2_000, rng=rng)
    b = dp.privacy_audit(laplace(0.5), 0.0, 1.0, epsilon=1.0, n=2_000, rng=rng)
    fig = dp.plots.AuditFigure({"Laplace, calibrated to Δf": a, "calibrated to Δf/2": b})
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    renderer = FigureCanvasAgg(fig.fig).get_renderer()
    fig.fig.draw(renderer)
    left, right = (ax.title.get_window_extent(renderer) for ax in fig.axes)
    assert left.x1 < right.x0
