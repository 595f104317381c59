"""Composition, exactly: the chapter 11 check values against Google's dp-accounting (basic 10 / Theorem 3.20
6.31 / exact 4.69 for 100 answers at ε = 0.1, δ = 1e-6; 100 / 337 / 564 answers at ε = 0.01 within a total
of 1), the zCDP conversion against a brute-force minimisation and the exact Gaussian, and the exercise."""

import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as dpa_pld

import dpteach as dp


def _dpa_epsilon(k, eps, delta):
    pld = dpa_pld.from_laplace_mechanism(1 / eps, sensitivity=1.0, value_discretization_interval=1e-4)
    return pld.self_compose(k).get_epsilon_for_delta(delta)


def test_one_hundred_releases_at_a_tenth():
    totals = dp.laplace_composition(100, 0.1, 1e-6)
    assert totals.basic == pytest.approx(100 * 0.1)
    advanced = math.sqrt(2 * 100 * math.log(1e6)) * 0.1 + 100 * 0.1 * math.expm1(0.1)      # Theorem 3.20
    assert totals.advanced == pytest.approx(advanced, rel=1e-12)
    assert round(totals.advanced, 2) == 6.31
    theirs = _dpa_epsilon(100, 0.1, 1e-6)
    assert totals.exact == pytest.approx(theirs, rel=2e-3)
    assert round(theirs, 2) == 4.69


def test_releases_within_a_total_of_one():
    bought = dp.releases_within(1.0, 0.01, 1e-6)
    assert bought["basic"] == 100
    k = bought["advanced"]
    fits = lambda n: math.sqrt(2 * n * math.log(1e6)) * 0.01 + n * 0.01 * math.expm1(0.01) <= 1   # noqa: E731
    assert fits(k) and not fits(k + 1) and k == 337
    assert bought["exact"] == 564
    assert _dpa_epsilon(564, 0.01, 1e-6) <= 1.0 < _dpa_epsilon(565, 0.01, 1e-6)


@pytest.mark.parametrize("rho, delta", [(0.01, 1e-6), (0.25, 1e-6), (2.56, 1e-10), (10.0, 1e-5)])
def test_zcdp_conversion_is_the_minimum_over_orders(rho, delta):
    a = 1 + np.geomspace(1e-5, 1e5, 400_000)
    brute = np.min(rho * a + (math.log(1 / delta) + (a - 1) * np.log1p(-1 / a) - np.log(a)) / (a - 1))
    ours = dp.zcdp_to_dp(rho, delta)
    assert ours == pytest.approx(brute, rel=1e-6)
    assert ours <= rho + 2 * math.sqrt(rho * math.log(1 / delta)) + 1e-12           # Bun & Steinke's bound


@pytest.mark.parametrize("k", [10, 100])
def test_gaussian_in_zcdp_is_an_upper_bound_on_its_exact_epsilon(k):
    sigma = math.sqrt(2) / 0.1
    via_zcdp = dp.zcdp_to_dp(k * dp.gaussian_zcdp_rho(sigma), 1e-6)
    exact = dp.privacy_loss_distribution(dp.gaussian_noise(sigma), k).epsilon(1e-6)
    assert exact <= via_zcdp <= 1.15 * exact


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="delta"):
        dp.laplace_composition(10, 0.1, 0.0)
    with pytest.raises(ValueError, match="total"):
        dp.releases_within(-1.0, 0.1)
    with pytest.raises(ValueError, match="rho"):
        dp.zcdp_to_dp(-0.1, 1e-6)


def test_exercise_right_and_usual_mistakes():
    check = dp.exercises.check_exact_releases
    assert check(564).correct
    for wrong, word in ((100, "basic"), (337, "advanced"), (565, "largest")):
        feedback = check(wrong)
        assert feedback.correct is False and word in feedback.message and "564" not in feedback.message
