"""Numbers and claims that chapters 00–05 print or state in prose (issue 20), recomputed independently.

Each test recomputes a number a chapter prints, or checks a claim its text makes, without the code path
the chapter uses where one exists (closed forms, direct enumeration, numerical grids).
"""

import math

import numpy as np
import pytest

import dpteach as dp

# -- chapter 03: membership against attribute ----------------------------------------------------

def test_attribute_limit_is_the_membership_limit_at_two_epsilon():
    """A replace-one pair is two add/remove steps: the limit e^(2ε)/(1 + e^(2ε)) is 0.881 at ε = 1."""
    closed = math.exp(2.0) / (1 + math.exp(2.0))
    assert dp.dp_success_limit(2.0) == pytest.approx(closed, rel=1e-12)
    assert round(closed, 3) == 0.881 and round(dp.dp_success_limit(1.0), 3) == 0.731


def test_a_count_moves_by_one_under_replace_one_so_laplace_keeps_e_to_the_epsilon():
    """Chapter 03: replacing a record moves a count by at most 1 (a histogram moves by 2)."""
    has_diabetes = np.array([0, 1])                           # two record types: without, with
    def count(x):
        return x @ has_diabetes
    def histogram(x):
        return x
    assert dp.replace_one_sensitivity(count, has_diabetes, size=4) == 1
    assert dp.replace_one_sensitivity(histogram, has_diabetes, size=4) == 2


# -- chapter 03: Census 2020 ---------------------------------------------------------------------

def _cks_epsilon(rho: float, delta: float) -> float:
    """Canonne, Kamath & Steinke (2020), Prop. 12, minimised over the Rényi order on a dense grid."""
    a = 1 + np.geomspace(1e-3, 1e4, 400_001)
    values = rho * a + (math.log(1 / delta) + (a - 1) * np.log1p(-1 / a) - np.log(a)) / (a - 1)
    return float(values.min())


@pytest.mark.parametrize("rho, published", [(2.56, 17.14), (0.075, 2.47)])
def test_census_rho_converts_to_the_published_epsilon_at_delta_1e_minus_10(rho, published):
    eps = dp.zcdp_to_dp(rho, 1e-10)
    assert eps == pytest.approx(_cks_epsilon(rho, 1e-10), abs=1e-6)
    assert abs(eps - published) < 0.05                       # the gap is the rounding of ρ
    assert round(eps, 2) in ({2.56: 17.16, 0.075: 2.48}[rho],)   # what chapter 03 prints


def test_census_housing_rho_0_07_would_give_a_visibly_smaller_epsilon():
    eps = dp.zcdp_to_dp(0.07, 1e-10)
    assert round(eps, 2) == 2.39 and 2.47 - eps > 0.05
    assert 2.56 + 0.075 == pytest.approx(2.635)              # "2.63 in total"
    assert dp.zcdp_to_dp(2.56 + 0.075, 1e-10) > dp.zcdp_to_dp(2.56, 1e-10)


# -- chapter 03: the privacy-loss figure on a base-10 axis ---------------------------------------

def test_the_gap_on_a_log10_density_axis_is_the_loss_over_ln_10():
    z = np.linspace(-6, 8, 1401)
    for eps, sens in ((0.3, 1.0), (1.0, 1.0), (2.0, 3.0)):
        b = sens / eps
        gap = np.log10(dp.laplace_pdf(z, b)) - np.log10(dp.laplace_pdf(z - sens, b))
        loss = dp.privacy_loss(z, 0.0, sens, sensitivity=sens, epsilon=eps)
        assert gap == pytest.approx(loss / math.log(10), abs=1e-12)
        assert np.abs(gap).max() == pytest.approx(eps / math.log(10))


def test_the_k_slider_splits_delta_f_into_k_shares_of_epsilon_over_k():
    """Each count moved by Δf/k with noise Lap(Δf/ε): each share reaches ±ε/k, the total ±ε."""
    eps, sens = 1.0, 1.0
    t = np.linspace(-5, 5, 2001)
    for k in (1, 3, 10):
        share = dp.privacy_loss(t, 0.0, sens / k, sensitivity=sens, epsilon=eps)
        assert np.abs(share).max() == pytest.approx(eps / k)
        zs = np.repeat(t[:, None], k, axis=1)
        total = dp.privacy_loss(zs, np.zeros(k), np.full(k, sens / k), sensitivity=sens, epsilon=eps)
        assert np.abs(total).max() == pytest.approx(eps)


# -- chapter 02: the exact condition, and Lipschitz as one way to meet it ------------------------

def _staircase_logpdf(x, eps, sens, gamma):
    """Geng & Viswanath's staircase density, unnormalised: level e^(−kε) on [kΔ, (k+γ)Δ), e^(−(k+1)ε) after."""
    u = np.abs(x) / sens
    k = np.floor(u)
    return -eps * (k + (u - k >= gamma))


@pytest.mark.parametrize("gamma", [0.25, 0.5, 0.8])
def test_staircase_noise_meets_the_exact_condition_with_a_jumping_log_density(gamma):
    eps, sens = 1.0, 1.0
    z = np.linspace(-12, 12, 24_001) + 3.17e-4              # off the steps' edges, where rounding decides the side
    worst = max(np.abs(_staircase_logpdf(z, eps, sens, gamma) - _staircase_logpdf(z - d, eps, sens, gamma)).max()
                for d in np.linspace(-sens, sens, 81))
    assert worst <= eps + 1e-12                              # sup_z |ln q(z) − ln q(z − d)| ≤ ε for |d| ≤ Δf
    tiny = 1e-6                                              # yet it is not Lipschitz: a jump of ε over a tiny step
    edge = gamma * sens
    jump = _staircase_logpdf(edge - tiny, eps, sens, gamma) - _staircase_logpdf(edge + tiny, eps, sens, gamma)
    assert jump == pytest.approx(eps)


def test_gaussian_log_ratio_over_a_shift_is_unbounded_as_chapter_02_writes_it():
    sigma, d = 2.0, 1.0
    z = np.array([0.0, 10.0, 1e3, 1e6])
    log_ratio = (-z**2 + (z - d) ** 2) / (2 * sigma**2)      # ln q(z) − ln q(z − d)
    assert log_ratio == pytest.approx((d**2 - 2 * z * d) / (2 * sigma**2))
    assert abs(log_ratio[-1]) > 1e5


# -- chapter 01: a mean from a sum and a count ---------------------------------------------------

def test_sum_and_count_together_have_sensitivity_r_plus_1_and_one_release_is_a_split_of_epsilon():
    ages = np.array([20, 30, 40, 50, 60, 70, 80])
    R = 80
    def sum_and_count(x):
        return np.array([x @ np.clip(ages, 0, R), x.sum()])
    assert dp.l1_sensitivity(sum_and_count, ages, max_size=2) == R + 1
    eps = 1.0
    eps_sum, eps_count = eps * R / (R + 1), eps / (R + 1)    # the split that one release at ε amounts to
    assert eps_sum + eps_count == pytest.approx(eps)
    assert dp.laplace_scale(R, eps_sum) == pytest.approx(dp.laplace_scale(R + 1, eps))
    assert dp.laplace_scale(1, eps_count) == pytest.approx(dp.laplace_scale(R + 1, eps))


# -- chapter 04: relative error falls like 1/count ----------------------------------------------

def test_relative_error_of_a_count_depends_on_the_count_not_on_n():
    """E|Y|/count with Y ~ Lap(1/ε): the same for a count of 50 in a database of 1,000 or of 10⁶."""
    eps = 0.1
    for count in (50, 5_000):
        relative = dp.laplace_scale(1, eps) / count          # E|Y| = b
        assert relative == pytest.approx(1 / (eps * count))
    assert dp.laplace_scale(1, eps) / 5_000 == pytest.approx(0.002)   # ch04 exercise 2: count 5,000 at ε = 0.1
