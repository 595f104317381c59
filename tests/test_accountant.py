"""The privacy-loss-distribution accountant against closed forms and against sampling; and the special
functions it is built on against scipy.

Sources of truth: Laplace's δ(ε) in closed form (0 from ε = 1/b on, 1 − e^{(ε − 1/b)/2} below);
Balle & Wang's analytic Gaussian (Balle & Wang 2018); the k-fold Gaussian is one Gaussian with Δ₂ = √k.
Google's dp-accounting (for Laplace, Gaussian and, through a privacy-loss class written there, the
Generalized Gaussian) is in the peer suite, tests/peers/test_peer_accountants.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, special, stats

import dpteach as dp
from dpteach import _special


def laplace_closed_form(b: float, eps: float) -> float:
    """δ(ε) of one count with Lap(b) noise (shift 1): 0 from ε = 1/b, 1 − e^{(ε − 1/b)/2} in [−1/b, 1/b]."""
    if eps >= 1 / b:
        return 0.0
    if eps <= -1 / b:
        return 1 - math.exp(eps)
    return 1 - math.exp((eps - 1 / b) / 2)


# -- closed forms ------------------------------------------------------------------------------

@pytest.mark.parametrize("b", [0.25, 1.0, 2.0, 7.5])
def test_laplace_delta_is_zero_from_epsilon_one_over_b(b):
    """Pure (1/b)-DP: δ(ε) = 0 exactly for ε ≥ Δ/b, for one count and for k counts (ε = k/b)."""
    for k in (1, 3, 20):
        pld = dp.privacy_loss_distribution(dp.laplace_noise(b), k)
        assert pld.delta(k / b) == 0.0
        assert pld.delta(k / b + 0.5) == 0.0
        assert pld.delta(k / b * (1 - 1e-3)) > 0


def test_laplace_delta_matches_the_closed_form_exactly_on_the_grid():
    """b = 1, ε = 0.5: δ = 1 − e^{(ε − 1)/2} = 1 − e^{−1/4} (a grid point: exact to rounding)."""
    pld = dp.privacy_loss_distribution(dp.laplace_noise(1.0))
    assert pld.delta(0.5) == pytest.approx(1 - math.exp(-0.25), abs=1e-13)
    assert dp.one_coordinate_delta(dp.laplace_noise(1.0), 0.5) == pytest.approx(1 - math.exp(-0.25), abs=1e-14)


@pytest.mark.parametrize("b", [0.5, 1.0, 3.0])
def test_laplace_delta_between_grid_points_is_an_upper_bound_within_1e_4(b):
    pld = dp.privacy_loss_distribution(dp.laplace_noise(b))
    for eps in np.linspace(-1 / b, 1.2 / b, 37):
        exact = laplace_closed_form(b, eps)
        assert exact - 1e-14 <= pld.delta(eps) <= exact * (1 + 1e-4) + 1e-9
        assert dp.one_coordinate_delta(dp.laplace_noise(b), eps) == pytest.approx(exact, abs=1e-14)


@pytest.mark.parametrize("std", [0.5, 1.0, 3.7306, 10.0, 40.0])
def test_one_gaussian_coordinate_matches_balle_and_wang_to_1e_6(std):
    """One coordinate: on the accountant's grid δ(ε) is Balle & Wang's to rounding (1e-12); between
    grid points it is an upper bound within 2e-6 absolute and 1e-4 relative at the default resolution,
    within 1e-6 (indeed 1e-7) at resolution 1024."""
    pld = dp.privacy_loss_distribution(dp.gaussian_noise(std))
    losses = pld.losses
    on_grid = losses[(losses >= 0) & (losses <= 4)][::5]
    exact = np.array([dp.gaussian_delta(std, 1.0, e) for e in on_grid])
    assert np.all(np.abs(pld.delta(on_grid) - exact) <= 1e-12)
    fine = dp.privacy_loss_distribution(dp.gaussian_noise(std), resolution=1024)
    for eps in np.linspace(0.0, 4.0, 41):
        exact = dp.gaussian_delta(std, 1.0, eps)
        got = pld.delta(eps)
        assert exact * (1 - 1e-12) - 1e-15 <= got <= exact + 2e-6
        assert abs(fine.delta(eps) - exact) <= 1e-7
        if exact > 1e-12:
            assert got == pytest.approx(exact, rel=1e-4)
        assert dp.one_coordinate_delta(dp.gaussian_noise(std), eps) == pytest.approx(exact, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("k", [2, 10, 100, 1_000, 10_000])
def test_k_fold_gaussian_equals_one_gaussian_with_sqrt_k(k):
    """k coordinates of N(0, s²), each shifted by 1 = one N(0, s²) shifted by √k (rotation invariance)."""
    std = math.sqrt(k) * 4.0
    pld = dp.privacy_loss_distribution(dp.gaussian_noise(std), k)
    for eps in (0.1, 0.5, 1.0, 1.5):
        exact = dp.gaussian_delta(std, math.sqrt(k), eps)
        assert pld.delta(eps) == pytest.approx(exact, rel=1e-4)
        assert pld.delta(eps) >= exact - pld.tolerance          # an upper bound, up to the stated tolerance
    assert pld.tolerance < 1e-10 and pld.infinity_mass < 1e-15


def test_epsilon_inverts_delta():
    pld = dp.privacy_loss_distribution(dp.gaussian_noise(20.0), 50)
    for target in (1e-2, 1e-6, 1e-10):
        eps = pld.epsilon(target)
        assert pld.delta(eps) == pytest.approx(target, rel=1e-9)
        assert pld.delta(eps * (1 - 1e-6)) > target
    assert np.allclose(pld.epsilon(np.array([1e-2, 1e-6])), [pld.epsilon(1e-2), pld.epsilon(1e-6)])
    assert pld.epsilon(0.999) == 0.0


def test_delta_falls_as_epsilon_grows_and_noise_grows():
    for p in (1.0, 1.5, 2.0, 4.0):
        small = dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, 3.0), 10)
        large = dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, 4.0), 10)
        grid = np.linspace(0, 3, 31)
        assert np.all(np.diff(small.delta(grid)) <= 1e-15)
        assert np.all(large.delta(grid) <= small.delta(grid) + 1e-15)


def test_generalized_gaussian_one_coordinate_delta_matches_numerical_integration():
    """δ(ε) = E[(1 − e^{ε − L})₊] integrated by scipy.integrate.quad, for non-integer p."""
    from scipy import integrate
    for p, s in ((1.5, 2.0), (2.22, 3.0), (3.0, 1.5)):
        noise = dp.GeneralizedGaussianNoise(p, s)
        pld = dp.privacy_loss_distribution(noise)
        for eps in (0.1, 0.5, 1.0):
            def integrand(z, p=p, s=s, eps=eps):
                loss = (abs(z - 1) ** p - abs(z) ** p) / s**p
                return stats.gennorm.pdf(z, p, scale=s) * max(0.0, 1 - math.exp(eps - loss))
            kink = optimize.brentq(lambda z, p=p, s=s, eps=eps: (abs(z - 1) ** p - abs(z) ** p) / s**p - eps,
                                   -100 * s, 0.5)
            exact = integrate.quad(integrand, -60 * s, 1, points=sorted({kink, 0.0}), limit=400, epsabs=1e-15)[0]
            assert dp.one_coordinate_delta(noise, eps) == pytest.approx(exact, rel=1e-8)
            assert pld.delta(eps) == pytest.approx(exact, rel=1e-4)


# -- the empirical check -------------------------------------------------------------------------

@pytest.mark.parametrize("k, p, delta", [(3, 1.5, 1e-3), (4, 2.0, 1e-3), (2, 3.0, 1e-2)])
def test_audit_passes_the_calibrated_mechanism_and_catches_half_the_noise(k, p, delta):
    """Events {total loss ≥ c} and {total loss ≤ c} fixed before sampling; 20,000 releases per neighbour;
    Clopper–Pearson bounds. False-positive rate of the first assertion: at most α = 0.1%; the seed is
    fixed, so the test is deterministic."""
    eps = 1.0
    sigma = dp.generalized_gaussian_sigma(k, p, eps, delta)
    calibrated = dp.GeneralizedGaussianNoise(p, sigma)
    ok = dp.calibration_audit(calibrated, k, eps, delta, rng=np.random.default_rng(11))
    assert not ok.refuted
    half = dp.calibration_audit(dp.GeneralizedGaussianNoise(p, sigma / 2), k, eps, delta, event_noise=calibrated,
                                rng=np.random.default_rng(12))
    assert half.refuted, half
    # the accountant agrees that σ/2 breaks (ε, δ) by far
    assert dp.privacy_loss_distribution(dp.GeneralizedGaussianNoise(p, sigma / 2), k).delta(eps) > 10 * delta


def test_audit_reports_its_numbers():
    noise = dp.GeneralizedGaussianNoise(2.0, 3.0)
    audit = dp.calibration_audit(noise, 2, 1.0, 0.01, thresholds=[0.5, 1.0], samples=500,
                                 rng=np.random.default_rng(0))
    assert isinstance(audit, dp.AuditResult) and audit.n == 500 and audit.n_events == 4
    np.testing.assert_array_equal(audit.thresholds, [0.5, 1.0])
    assert "samples per database" in repr(audit) and "never confirm" in audit.verdict


# -- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("p, scale, match", [(0.5, 1.0, "p must be"), (1.0, 0.0, "scale must be"),
                                             (2.0, -1.0, "scale must be"), (float("nan"), 1.0, "p must be")])
def test_bad_noise_is_refused(p, scale, match):
    with pytest.raises(ValueError, match=match):
        dp.GeneralizedGaussianNoise(p, scale)


def test_bad_accountant_arguments_are_refused():
    noise = dp.gaussian_noise(1.0)
    with pytest.raises(ValueError, match="k must be"):
        dp.privacy_loss_distribution(noise, 0)
    with pytest.raises(TypeError, match="k must be an integer"):
        dp.privacy_loss_distribution(noise, 2.5)
    with pytest.raises(TypeError, match="noise must be"):
        dp.privacy_loss_distribution("gaussian", 1)
    pld = dp.privacy_loss_distribution(noise)
    for bad in (0.0, 1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="delta must be"):
            pld.epsilon(bad)
    with pytest.raises(ValueError, match="std must be"):
        dp.gaussian_noise(0)
    with pytest.raises(ValueError, match="scale must be"):
        dp.laplace_noise(-2)


# -- the special functions -------------------------------------------------------------------------

@pytest.mark.parametrize("a", [1 / 8, 0.25, 0.45, 0.5, 2 / 3, 1.0, 2.0, 3.5])
def test_regularised_upper_incomplete_gamma_matches_scipy(a):
    x = np.concatenate([[0.0], np.logspace(-12, 3, 2000)])
    expected = special.gammaincc(a, x)
    got = _special.gammaincc(a, x)
    keep = expected > 1e-300
    assert np.all(np.abs(got[keep] / expected[keep] - 1) < 1e-12)
    assert _special.gammaincc(a, np.array([np.inf]))[0] == 0.0


def test_normal_cdf_and_its_log_match_scipy():
    x = np.linspace(-37, 8, 901)
    assert np.allclose(_special.ndtr(x), special.ndtr(x), rtol=1e-12, atol=0)
    for v in (-1.0, -10.0, -29.9, -30.0, -31.0, -50.0, -300.0):
        assert _special.log_norm_cdf(v) == pytest.approx(float(special.log_ndtr(v)), rel=1e-12)


def test_bin_masses_are_the_masses_of_consecutive_points():
    """GeneralizedGaussianNoise.bin_masses (what the accountant discretises with) is mass() of each bin."""
    for noise in (dp.laplace_noise(1.3), dp.gaussian_noise(2.0), dp.GeneralizedGaussianNoise(3.5, 0.8)):
        z = np.linspace(6.0, -5.0, 41)
        assert np.array_equal(noise.bin_masses(z), noise.mass(z[1:], z[:-1]))
        assert noise.bin_masses(np.r_[np.inf, z, -np.inf]).sum() == pytest.approx(1.0, abs=1e-12)


def test_calibration_audit_is_an_audit():
    """The calibration audit lives with the auditor (it hands the total loss to privacy_audit)."""
    from dpteach import audit
    assert dp.calibration_audit is audit.calibration_audit
