"""Composition, exactly: the chapter 11 check values (basic 10 / Theorem 3.20 6.31 / exact 4.69 for 100 answers
at ε = 0.1, δ = 1e-6; 100 / 337 / 564 answers at ε = 0.01 within a total of 1; the exact ones against Google's
dp-accounting in the peer suite, tests/peers/test_peer_accountants.py), the exact curve below kε from the first
release on, the zCDP conversion against a brute-force minimisation and the exact Gaussian, and the exercise
(its answers away from the knife edge, checked with dp-accounting)."""

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
    assert round(totals.exact, 2) == 4.69        # against dp-accounting: tests/peers/test_peer_accountants.py


def test_releases_within_a_total_of_one():
    bought = dp.releases_within(1.0, 0.01, 1e-6)
    assert bought["basic"] == 100
    k = bought["advanced"]
    fits = lambda n: math.sqrt(2 * n * math.log(1e6)) * 0.01 + n * 0.01 * math.expm1(0.01) <= 1   # noqa: E731
    assert fits(k) and not fits(k + 1) and k == 337
    assert bought["exact"] == 564               # against dp-accounting: tests/peers/test_peer_accountants.py


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


def test_the_exact_curve_is_below_k_epsilon_from_the_first_release_on():
    """Chapter 11 once said "equal to kε for a few releases". One Lap(1/ε) release has δ(ε′) = 1 − e^((ε′ − ε)/2)
    for ε′ < ε (the closed form of one shifted Laplace), so at δ its ε′ = ε + 2 ln(1 − δ): 2·10⁻⁶ below ε."""
    one = dp.exact_laplace_epsilon(1, 0.1, 1e-6)
    assert one == pytest.approx(0.1 + 2 * math.log1p(-1e-6), abs=1e-9)
    assert 0.1 - one == pytest.approx(2e-6, rel=1e-3)
    for k in (2, 5, 10, 20):
        assert dp.exact_laplace_epsilon(k, 0.1, 1e-6) < k * 0.1
    assert 0.1 * 20 - _dpa_epsilon(20, 0.1, 1e-6) > 0.2


def test_no_chapter_says_the_exact_curve_equals_k_epsilon():
    from helpers import ROOT
    for path in [*(ROOT / "sources").glob("*.md"), *(ROOT / "instructor").glob("*.md")]:
        assert "equal to kε for a few" not in path.read_text(encoding="utf-8"), path.name


def test_exercise_right_and_usual_mistakes():
    check = dp.exercises.check_exact_releases
    counts = dp.releases_within(2.0, 0.04, 1e-6)
    assert counts == {"basic": 50, "advanced": 79, "optimal": 128, "exact": 130}
    assert check(130).correct
    for wrong, word in ((50, "basic"), (79, "advanced"), (128, "optimal")):
        feedback = check(wrong)
        assert feedback.correct is False and word in feedback.message and "130" not in feedback.message


def test_exercise_feedback_does_not_point_at_the_answer():
    """One more than the answer gets the generic hint (no "just above the total"), and a fraction between the
    answer and the next whole number is told what any fraction is told."""
    check = dp.exercises.check_exact_releases
    above, below = check(131), check(129)
    assert above.correct is False and "just above" not in above.message
    assert above.message.replace("131", "N") == below.message.replace("129", "N")
    assert check(130.5).message.replace("130.5", "X") == check(12.5).message.replace("12.5", "X")


def _homework():
    spec = dp.exercises.EXERCISES["check_exact_releases"]
    return [spec.defaults, *({**spec.defaults, **v} for v in spec.variants())]


@pytest.mark.parametrize("params", _homework(), ids=lambda p: f"{p['total']:g}-{p['epsilon']:g}-{p['delta']:g}")
def test_every_exercise_answer_is_far_from_the_knife_edge(params):
    """Issue 37: 565 releases at (1, 0.01, 10⁻⁶) cost ε = 1.00005, within the 10⁻⁴ the accountant promises, so
    another accountant could say 565. At the chapter's numbers and every homework combination, Google's
    dp-accounting (an independent accountant, pessimistic at a discretisation of 10⁻⁴) puts the answer k at
    least 10⁻³ below the total and k + 1 at least 10⁻³ above it, less its own 10⁻⁴."""
    total, eps, delta = params["total"], params["epsilon"], params["delta"]
    k = dp.exercises.EXERCISES["check_exact_releases"].expected(**params)
    assert _dpa_epsilon(int(k), eps, delta) <= total - 1e-3 + 1e-4
    assert _dpa_epsilon(int(k) + 1, eps, delta) >= total + 1e-3 - 1e-4
