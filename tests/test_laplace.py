"""The Laplace distribution and mechanism (Dwork & Roth, Def 3.2, Def 3.3, Thm 3.6, Fact 3.7).

Statistical tests use fixed seeds, so each one is deterministic; the false-positive rate
stated with each is the probability that a *correct* implementation would fail it for a
seed drawn at random (i.e. how unlucky the chosen seed would have to be).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

import dpteach as dp

SCALES = [0.1, 1.0, 3.7]

#: (sensitivity Δf, epsilon ε) pairs used for the mechanism's statistical tests.
CALIBRATIONS = [(1.0, 1.0), (1.0, 0.1), (5.0, 2.0)]


# --- Definition 3.2: the Laplace distribution -----------------------------------------------


@pytest.mark.parametrize("b", SCALES)
def test_pdf_integrates_to_one(b):
    """Definition 3.2: Lap(x | b) = exp(−|x|/b)/(2b) is a density: it integrates to 1 (½ on each side)."""
    left, _ = integrate.quad(lambda x: dp.laplace_pdf(x, b), -np.inf, 0.0)
    right, _ = integrate.quad(lambda x: dp.laplace_pdf(x, b), 0.0, np.inf)
    assert left == pytest.approx(0.5, abs=1e-10)
    assert right == pytest.approx(0.5, abs=1e-10)


@pytest.mark.parametrize("b", SCALES)
def test_pdf_matches_scipy(b):
    """Definition 3.2: laplace_pdf agrees with scipy.stats.laplace(scale=b).pdf, including at ±inf."""
    x = np.concatenate([np.linspace(-20 * b, 20 * b, 401), [-np.inf, np.inf, 0.0]])
    np.testing.assert_allclose(dp.laplace_pdf(x, b), stats.laplace.pdf(x, scale=b), rtol=1e-12, atol=0)
    assert dp.laplace_pdf(0.0, b) == pytest.approx(1 / (2 * b), rel=1e-15)


@pytest.mark.parametrize("b", SCALES)
def test_cdf_matches_scipy(b):
    """Definition 3.2: F(x) = ½e^{x/b} (x < 0), 1 − ½e^{−x/b} (x ≥ 0), as scipy.stats.laplace.cdf."""
    x = np.concatenate([np.linspace(-20 * b, 20 * b, 401), [-np.inf, np.inf]])
    np.testing.assert_allclose(dp.laplace_cdf(x, b), stats.laplace.cdf(x, scale=b), rtol=1e-12, atol=1e-15)
    assert dp.laplace_cdf(0.0, b) == 0.5
    assert dp.laplace_cdf(-np.inf, b) == 0.0 and dp.laplace_cdf(np.inf, b) == 1.0


@pytest.mark.parametrize("b", SCALES)
@pytest.mark.parametrize("t", [-5.0, -0.7, 0.0, 0.3, 2.0, 6.0])
def test_cdf_is_the_integral_of_the_pdf(b, t):
    """Definition 3.2: F(x) = ∫_{−∞}^{x} Lap(u | b) du."""
    x = t * b
    if x <= 0:
        area, _ = integrate.quad(lambda u: dp.laplace_pdf(u, b), -np.inf, x)
    else:
        area, _ = integrate.quad(lambda u: dp.laplace_pdf(u, b), 0.0, x)
        area += 0.5
    assert dp.laplace_cdf(x, b) == pytest.approx(area, abs=1e-10)


def test_tail_is_exp_minus_t():
    """Fact 3.7: Pr[|Y| ≥ t·b] = exp(−t), also as F(−t·b) + 1 − F(t·b) from the CDF."""
    t = np.array([0.0, 0.1, 1.0, 2.5, 10.0, 50.0])
    np.testing.assert_allclose(dp.laplace_tail(t), np.exp(-t), rtol=1e-15)
    for b in SCALES:
        np.testing.assert_allclose(2 * dp.laplace_cdf(-t * b, b), dp.laplace_tail(t), rtol=1e-12)
        np.testing.assert_allclose(2 * (1 - dp.laplace_cdf(t * b, b)), dp.laplace_tail(t), atol=1e-15)
    assert dp.laplace_tail(np.inf) == 0.0


@pytest.mark.parametrize("b", [1.0, 2.5])
def test_tail_matches_empirical_tail_of_samples(b):
    """Fact 3.7 on samples: the fraction of Lap(b) draws with |Y| ≥ t·b is exp(−t), for any b.

    Each of the 5 thresholds is an exact two-sided binomial test at level 1e-4, so a correct
    sampler fails this test with probability ≤ 5e-4 (seed 7 fixed).
    """
    n = 200_000
    rng = np.random.default_rng(7)
    noise = dp.laplace_mechanism(np.zeros(n), sensitivity=b, epsilon=1.0, rng=rng)
    for t in (0.25, 0.5, 1.0, 2.0, 4.0):
        hits = int((np.abs(noise) >= t * b).sum())
        p_value = stats.binomtest(hits, n, dp.laplace_tail(t)).pvalue
        assert p_value > 1e-4, f"t={t}: {hits / n:.5f} of draws beyond t·b, expected {math.exp(-t):.5f}"


# --- scalar in → float out, array in → array out -----------------------------------------


@pytest.mark.parametrize("func", [
    lambda x: dp.laplace_pdf(x, 2.0),
    lambda x: dp.laplace_cdf(x, 2.0),
    lambda x: dp.laplace_tail(np.abs(x)),
    lambda x: dp.laplace_mechanism(x, sensitivity=1.0, epsilon=1.0, rng=np.random.default_rng(0)),
], ids=["pdf", "cdf", "tail", "mechanism"])
def test_scalar_in_float_out_array_in_same_shape_out(func):
    """Definition 3.3 and the pdf/cdf API: scalar in → Python float, array in → float array of that shape."""
    for scalar in (1.5, 2, np.float64(0.25), np.array(-0.5)):
        out = func(scalar)
        assert type(out) is float
    for shape in [(1,), (4,), (2, 3), (2, 1, 3)]:
        x = np.arange(np.prod(shape), dtype=float).reshape(shape) - 2.0
        out = func(x)
        assert isinstance(out, np.ndarray) and out.shape == shape and out.dtype == np.float64
    out = func([1.0, 2.0, 3.0])
    assert isinstance(out, np.ndarray) and out.shape == (3,)


# --- Definition 3.3: the Laplace mechanism ------------------------------------------------------


@pytest.mark.parametrize("sensitivity, epsilon", CALIBRATIONS)
def test_mechanism_noise_is_laplace_of_scale_sensitivity_over_epsilon(sensitivity, epsilon):
    """Definition 3.3: M_L(x, f, ε) − f(x) is i.i.d. Lap(Δf/ε) in every coordinate (KS test).

    One Kolmogorov–Smirnov test at significance 1e-3 per calibration: a correct mechanism
    fails each with probability 1e-3, so this parametrized test (3 cases) has a
    false-positive rate ≤ 3e-3 (seed 2024 fixed).
    """
    b = sensitivity / epsilon
    true = np.linspace(-1000, 1000, 20_000)  # f(x): k = 20,000 different true answers
    noisy = dp.laplace_mechanism(true, sensitivity=sensitivity, epsilon=epsilon,
                                 rng=np.random.default_rng(2024))
    result = stats.kstest(noisy - true, stats.laplace(scale=b).cdf)
    assert result.pvalue > 1e-3


@pytest.mark.parametrize("wrong_scale_factor", [0.9, 1.1])
def test_ks_test_detects_a_wrong_scale(wrong_scale_factor):
    """Definition 3.3, power check: a KS test at level 1e-3 tells Lap(b) noise from Lap(0.9b) or Lap(1.1b).

    The CDFs of Lap(b) and Lap(0.9b) (resp. 1.1b) are ≥ 0.0175 apart somewhere; the 1e-3
    critical value for n = 200,000 is 0.0044. A correct mechanism fails this only if its
    empirical CDF is ≥ 0.013 off the true one somewhere, which by the DKW inequality has
    probability ≤ 2·exp(−2n·0.013²) < 1e-28 (seed 2024 fixed).
    """
    true = np.zeros(200_000)
    noisy = dp.laplace_mechanism(true, sensitivity=1.0, epsilon=1.0, rng=np.random.default_rng(2024))
    assert stats.kstest(noisy, stats.laplace(scale=wrong_scale_factor).cdf).pvalue < 1e-3


@pytest.mark.parametrize("sensitivity, epsilon", CALIBRATIONS)
def test_mechanism_is_unbiased_with_variance_2b2_and_mean_absolute_error_b(sensitivity, epsilon):
    """Definition 3.2/3.3: the noise has mean 0, variance 2b² and E|Y| = b with b = Δf/ε.

    n = 400,000 draws; each of the 3 statistics is checked within z = 4.5 standard errors
    (CLT; two-sided 6.8e-6 each), using sd(mean) = √2·b/√n, sd(|Y|-mean) = b/√n and
    sd(sample variance) ≈ √((μ₄ − σ⁴)/n) = √(20/n)·b² (μ₄ = 24b⁴ for Laplace).
    False-positive rate ≤ 3 × 3 × 6.8e-6 ≈ 6e-5 over the 3 calibrations (seed 11 fixed).
    """
    n, z = 400_000, 4.5
    b = sensitivity / epsilon
    true = np.full(n, 42.0)
    noise = dp.laplace_mechanism(true, sensitivity, epsilon, rng=np.random.default_rng(11)) - true
    assert abs(noise.mean()) <= z * math.sqrt(2) * b / math.sqrt(n)
    assert abs(noise.var(ddof=1) - 2 * b**2) <= z * math.sqrt(20 / n) * b**2
    assert abs(np.abs(noise).mean() - b) <= z * b / math.sqrt(n)


def test_same_seed_same_output_different_seed_different_output():
    """Definition 3.3 with rng: a seeded Generator makes M_L reproducible; another seed gives other noise."""
    x = np.array([120.0, 45.0, 3.0])
    a = dp.laplace_mechanism(x, 1.0, 0.5, rng=np.random.default_rng(123))
    b = dp.laplace_mechanism(x, 1.0, 0.5, rng=np.random.default_rng(123))
    c = dp.laplace_mechanism(x, 1.0, 0.5, rng=np.random.default_rng(124))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert dp.laplace_mechanism(7.0, 1.0, 1.0, rng=np.random.default_rng(5)) == \
        dp.laplace_mechanism(7.0, 1.0, 1.0, rng=np.random.default_rng(5))


def test_the_generator_is_advanced_between_calls():
    """Definition 3.3: two releases with one Generator use fresh noise (not the same draw twice)."""
    rng = np.random.default_rng(9)
    first = dp.laplace_mechanism(np.zeros(5), 1.0, 1.0, rng=rng)
    second = dp.laplace_mechanism(np.zeros(5), 1.0, 1.0, rng=rng)
    assert not np.array_equal(first, second)


def test_rng_none_uses_a_fresh_generator():
    """Definition 3.3 with rng=None: a fresh unseeded generator, right shape, new noise each call."""
    out = dp.laplace_mechanism(np.zeros((3, 4)), sensitivity=1.0, epsilon=1.0)
    assert out.shape == (3, 4) and np.isfinite(out).all()
    # Two continuous draws of 1000 values coincide with probability 0.
    assert not np.array_equal(dp.laplace_mechanism(np.zeros(1000), 1.0, 1.0),
                              dp.laplace_mechanism(np.zeros(1000), 1.0, 1.0))
    assert type(dp.laplace_mechanism(3.0, 1.0, 1.0, rng=None)) is float


def test_mechanism_leaves_its_input_untouched():
    """Definition 3.3 adds noise to a copy: f(x) itself is not modified in place."""
    true = np.array([1.0, 2.0, 3.0])
    dp.laplace_mechanism(true, 1.0, 1.0, rng=np.random.default_rng(0))
    np.testing.assert_array_equal(true, [1.0, 2.0, 3.0])


# --- Theorem 3.6: the privacy loss ---------------------------------------------------------


def direct_log_ratio(z, fx, fy, b):
    """ln p_x(z)/p_y(z) from the densities of Definition 3.2 (one row of z per output vector)."""
    z = np.asarray(z, dtype=float)
    fx, fy = np.atleast_1d(fx).astype(float), np.atleast_1d(fy).astype(float)
    if fx.size == 1:
        z = z[..., np.newaxis]
    px = np.prod(dp.laplace_pdf(z - fx, b), axis=-1)
    py = np.prod(dp.laplace_pdf(z - fy, b), axis=-1)
    return np.log(px / py)


def grid_3d(lo, hi, n):
    """Every point of an n×n×n grid on [lo, hi]³, one row per output vector z ∈ ℝ³."""
    axis = np.linspace(lo, hi, n)
    return np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), axis=-1).reshape(-1, 3)


@pytest.mark.parametrize("fx, fy, sensitivity, epsilon", [
    (10.0, 11.0, 1.0, 1.0),
    (0.0, 0.3, 1.0, 0.5),
    (5.0, 2.0, 3.0, 2.0),
])
def test_privacy_loss_is_log_of_the_density_ratio_scalar(fx, fy, sensitivity, epsilon):
    """Theorem 3.6: privacy_loss(z) = ln p_x(z)/p_y(z), computed here from laplace_pdf on a grid."""
    b = sensitivity / epsilon
    z = np.linspace(min(fx, fy) - 30 * b, max(fx, fy) + 30 * b, 2001)
    np.testing.assert_allclose(dp.privacy_loss(z, fx, fy, sensitivity, epsilon),
                               direct_log_ratio(z, fx, fy, b), rtol=1e-9, atol=1e-9)


def test_privacy_loss_is_log_of_the_density_ratio_vector():
    """Theorem 3.6 for k = 3: privacy_loss(z) = ln ∏_i Lap(z_i − f(x)_i) / ∏_i Lap(z_i − f(y)_i)."""
    fx, fy, sensitivity, epsilon = [1.0, 2.0, 3.0], [1.5, 1.0, 3.0], 2.0, 0.7
    z = grid_3d(-8.0, 12.0, 21)
    np.testing.assert_allclose(dp.privacy_loss(z, fx, fy, sensitivity, epsilon),
                               direct_log_ratio(z, fx, fy, sensitivity / epsilon), rtol=1e-9, atol=1e-9)
    assert type(dp.privacy_loss([0.0, 0.0, 0.0], fx, fy, sensitivity, epsilon)) is float


@pytest.mark.parametrize("fx, fy, sensitivity, epsilon", [
    (10.0, 11.0, 1.0, 1.0),     # |fx − fy| = Δf: the bound is attained
    (10.0, 9.0, 1.0, 0.1),
    (0.0, 2.5, 2.5, 3.0),
    (4.0, 4.4, 1.0, 1.0),       # |fx − fy| < Δf
    (4.0, 4.0, 1.0, 1.0),       # identical answers: no loss at all
])
def test_privacy_loss_stays_within_epsilon_scalar(fx, fy, sensitivity, epsilon):
    """Theorem 3.6: when |f(x) − f(y)| ≤ Δf the privacy loss lies in [−ε, ε] at every z of a dense grid."""
    b = sensitivity / epsilon
    z = np.linspace(min(fx, fy) - 50 * b, max(fx, fy) + 50 * b, 100_001)
    loss = dp.privacy_loss(z, fx, fy, sensitivity, epsilon)
    assert loss.max() <= epsilon * (1 + 1e-12)
    assert loss.min() >= -epsilon * (1 + 1e-12)
    # Tight: far on either side the loss is exactly ±ε‖f(x) − f(y)‖₁/Δf.
    reach = epsilon * abs(fx - fy) / sensitivity
    assert loss.max() == pytest.approx(reach, abs=1e-12)
    assert loss.min() == pytest.approx(-reach, abs=1e-12)


@pytest.mark.parametrize("fx, fy", [
    ([1.0, 2.0, 3.0], [2.0, 2.0, 3.0]),      # one coordinate moves by the whole Δf = 1 (a histogram)
    ([1.0, 2.0, 3.0], [1.5, 1.75, 3.25]),    # ‖fx − fy‖₁ = 0.5 + 0.25 + 0.25 = Δf = 1
    ([0.0, 0.0, 0.0], [1.0, -1.0, 1.0]),     # k = 3 counting queries all moved by 1: Δf = k = 3
])
def test_privacy_loss_stays_within_epsilon_vector(fx, fy):
    """Theorem 3.6, k = 3: if ‖f(x) − f(y)‖₁ = Δf the loss stays in [−ε, ε] on a grid in ℝ³, reaching ±ε."""
    sensitivity = float(np.abs(np.subtract(fx, fy)).sum())
    epsilon = 0.8
    z = grid_3d(-6.0, 9.0, 61)
    loss = dp.privacy_loss(z, fx, fy, sensitivity, epsilon)
    assert loss.max() <= epsilon * (1 + 1e-12)
    assert loss.min() >= -epsilon * (1 + 1e-12)
    assert loss.max() == pytest.approx(epsilon, abs=1e-12)
    assert loss.min() == pytest.approx(-epsilon, abs=1e-12)


def test_privacy_loss_stays_within_epsilon_at_the_mechanisms_own_outputs():
    """Theorem 3.6 at 100,000 outputs of M_L(x), k = 4: |privacy loss| ≤ ε (a sure bound, seed 3)."""
    fx, fy = np.array([10.0, 0.0, 5.0, 7.0]), np.array([11.0, 1.0, 5.0, 6.0])  # ‖fx − fy‖₁ = 3
    sensitivity, epsilon = 3.0, 1.0
    z = dp.laplace_mechanism(np.tile(fx, (100_000, 1)), sensitivity, epsilon, rng=np.random.default_rng(3))
    loss = dp.privacy_loss(z, fx, fy, sensitivity, epsilon)
    assert np.abs(loss).max() <= epsilon * (1 + 1e-12)


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 2.0])
def test_understated_sensitivity_breaks_the_bound(epsilon):
    """Theorem 3.6 needs Δf to be an upper bound: noise for Δf/2 lets the loss reach 2ε > ε."""
    fx, fy = 10.0, 13.0                    # true difference 3
    understated = 1.5                      # Δf claimed half as large
    b = understated / epsilon
    z = np.linspace(fx - 40 * b, fy + 40 * b, 100_001)
    loss = dp.privacy_loss(z, fx, fy, understated, epsilon)
    assert loss.max() > epsilon
    assert loss.max() == pytest.approx(2 * epsilon, abs=1e-12)
    assert loss.min() == pytest.approx(-2 * epsilon, abs=1e-12)
    # Vector form: ‖fx − fy‖₁ = 2 but the noise is calibrated to Δf = 1.
    vz = grid_3d(-10.0, 10.0, 41)
    vloss = dp.privacy_loss(vz, [0.0, 0.0, 0.0], [1.0, 0.0, -1.0], 1.0, epsilon)
    assert vloss.max() == pytest.approx(2 * epsilon, abs=1e-12)


# --- Theorem 3.6: the proof, line by line -----------------------------------------------------


PROOF_CASES = {
    "scalar, |fx−fy| = Δf": (np.linspace(-20, 30, 5001), 4.0, 5.0, 1.0, 1.0),
    "scalar, |fx−fy| < Δf": (np.linspace(-20, 30, 5001), 4.0, 4.5, 2.0, 0.3),
    "k=3, ‖fx−fy‖₁ = Δf": (grid_3d(-5.0, 8.0, 27), [1.0, 2.0, 3.0], [1.5, 1.5, 3.0], 1.0, 1.2),
    "k=3 counting queries": (grid_3d(-5.0, 8.0, 27), [1.0, 2.0, 3.0], [2.0, 3.0, 4.0], 3.0, 0.5),
}


@pytest.mark.parametrize("z, fx, fy, sensitivity, epsilon", PROOF_CASES.values(), ids=PROOF_CASES.keys())
def test_proof_holds_for_neighbours(z, fx, fy, sensitivity, epsilon):
    """Theorem 3.6: every line of the proof holds at every z when ‖f(x) − f(y)‖₁ ≤ Δf."""
    assert dp.proof_steps(z, fx, fy, sensitivity, epsilon).holds()


@pytest.mark.parametrize("z, fx, fy, sensitivity, epsilon", PROOF_CASES.values(), ids=PROOF_CASES.keys())
def test_each_step_of_the_proof_holds_pointwise(z, fx, fy, sensitivity, epsilon):
    """Theorem 3.6: ratio = product ≤ triangle = norm ≤ e^ε at every z, each line recomputed here."""
    steps = dp.proof_steps(z, fx, fy, sensitivity, epsilon)
    b = sensitivity / epsilon
    gap = np.abs(np.subtract(fx, fy))
    ratio = np.exp(direct_log_ratio(z, fx, fy, b))
    np.testing.assert_allclose(steps.ratio, ratio, rtol=1e-9)
    loss = dp.privacy_loss(z, fx, fy, sensitivity, epsilon)
    np.testing.assert_allclose(steps.product, np.exp(loss), rtol=1e-9)
    np.testing.assert_allclose(steps.ratio, steps.product, rtol=1e-9)                 # line 1 = line 2
    assert (steps.product <= steps.triangle * (1 + 1e-12)).all()                        # triangle inequality
    np.testing.assert_allclose(steps.triangle, np.prod(np.exp(epsilon * gap / sensitivity)), rtol=1e-12)
    np.testing.assert_allclose(steps.triangle, steps.norm, rtol=1e-12)                  # ∏ e^a = e^Σa
    np.testing.assert_allclose(steps.norm, math.exp(epsilon * gap.sum() / sensitivity), rtol=1e-12)
    assert (steps.norm <= steps.bound * (1 + 1e-12)).all()                              # definition of Δf
    assert steps.bound == pytest.approx(math.exp(epsilon), rel=1e-15)
    # The triangle inequality is tight somewhere on the grid (for z beyond both answers).
    assert steps.product.max() == pytest.approx(steps.triangle.max(), rel=1e-9)


@pytest.mark.parametrize("fx, fy, sensitivity", [
    (0.0, 1.5, 1.0),
    (3.0, 1.0, 1.0),
    ([0.0, 0.0, 0.0], [1.0, 1.0, 0.0], 1.0),          # ‖fx − fy‖₁ = 2 > Δf = 1
    ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], 2.9),          # k = 3 counting queries, Δf understated
])
def test_proof_fails_when_the_difference_exceeds_the_sensitivity(fx, fy, sensitivity):
    """Theorem 3.6's last step, ‖f(x) − f(y)‖₁ ≤ Δf, fails for a too-small Δf, so holds() is False."""
    k = np.atleast_1d(fx).size
    z = np.linspace(-5, 5, 101) if k == 1 else grid_3d(-5.0, 5.0, 11)
    steps = dp.proof_steps(z, fx, fy, sensitivity, epsilon=1.0)
    assert not steps.holds()
    assert (steps.norm > steps.bound).all()
    # The earlier lines are algebra and the triangle inequality: they still hold.
    np.testing.assert_allclose(steps.ratio, steps.product, rtol=1e-9)
    assert (steps.product <= steps.triangle * (1 + 1e-12)).all()


def test_proof_holds_far_in_the_tails():
    """Theorem 3.6 holds at every z ∈ ℝ, also where the densities are below the smallest double."""
    z = np.linspace(-800.0, 800.0, 1601)
    assert dp.proof_steps(z, 0.0, 1.0, sensitivity=1.0, epsilon=1.0).holds()
    # There the densities themselves are 0, so the ratio must come from their logarithms.
    assert dp.laplace_pdf(800.0, 1.0) == 0.0
    assert dp.laplace_logpdf(800.0, 1.0) == pytest.approx(-800.0 - np.log(2.0))


def test_chapter_02_comparisons_hold_for_a_fixed_seed():
    """Chapter 02's comparisons of 200,000 Lap(2) draws with theory (the empirical CDF at nine
    points and the share inside ±ln(20)·b), each as a distance in standard errors, |distance| < 5.
    A correct sampler fails one comparison with probability 5.7e-7 (normal approximation), so
    these 10 have a false-positive rate < 6e-6 (seed 2014, the chapter's, fixed)."""
    n, b = 200_000, 2.0
    samples = dp.laplace_mechanism(np.zeros(n), sensitivity=1, epsilon=0.5, rng=np.random.default_rng(2014))
    checks = [dp.fraction_estimate(samples <= x, dp.laplace_cdf(x, b)) for x in (-6, -4, -2, -1, 0, 1, 2, 4, 6)]
    checks.append(dp.fraction_estimate(np.abs(samples) < math.log(20) * b, 0.95))
    assert all(abs(c.distance) < 5 for c in checks), [round(c.distance, 2) for c in checks]
