"""The differencing attack of chapter 03 (dpteach.attack): exact values, the ε-DP limit, the
posterior bounds, a statistical test of the simulation, and bad input."""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import widgets

EPS = [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0]


@pytest.mark.parametrize("eps", EPS)
def test_limit_is_e_to_the_eps_over_one_plus_e_to_the_eps(eps):
    assert dp.dp_success_limit(eps) == pytest.approx(math.exp(eps) / (1 + math.exp(eps)), rel=1e-14)


def test_limit_is_finite_for_large_epsilon_and_vectorised():
    assert dp.dp_success_limit(800.0) == 1.0
    np.testing.assert_allclose(dp.dp_success_limit(EPS), [dp.dp_success_limit(e) for e in EPS])


@pytest.mark.parametrize("eps", EPS)
def test_laplace_success_is_one_minus_half_exp_minus_eps_over_two(eps):
    assert dp.laplace_attack_success(eps) == pytest.approx(1 - 0.5 * math.exp(-eps / 2), rel=1e-14)


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("sens", [0.5, 1.0, 7.0])
def test_laplace_success_is_the_bayes_error_of_the_midpoint_test_by_integration(eps, sens):
    """½ Pr_x[z > mid] + ½ Pr_y[z < mid] from the Laplace CDF (Definition 3.2), f(x) = 0 < f(y) = Δf."""
    b = dp.laplace_scale(sens, eps)
    mid = sens / 2
    success = 0.5 * dp.laplace_cdf(mid, b) + 0.5 * (1 - dp.laplace_cdf(mid - sens, b))
    assert dp.laplace_attack_success(eps, sens) == pytest.approx(success, rel=1e-12)


def test_midpoint_test_is_the_best_test_among_thresholds():
    """The Bayes-optimal test thresholds the likelihood ratio; for Laplace it is monotone, so the best
    threshold test is the best test, and the best threshold is the midpoint."""
    eps, b = 1.3, 1 / 1.3
    t = np.linspace(-3, 4, 7001)
    success = 0.5 * (1 - dp.laplace_cdf(t - 1.0, b)) + 0.5 * dp.laplace_cdf(t, b)   # guess "in" above t
    assert success.max() == pytest.approx(dp.laplace_attack_success(eps), rel=1e-9)
    assert t[np.argmax(success)] == pytest.approx(0.5, abs=1e-3)


def test_laplace_stays_strictly_below_the_limit_and_both_go_from_a_coin_toss_to_certainty():
    eps = np.logspace(-3, 1.5, 200)
    exact, limit = dp.laplace_attack_success(eps), dp.dp_success_limit(eps)
    assert (exact < limit).all() and (exact > 0.5).all()
    assert (np.diff(exact) > 0).all() and (np.diff(limit) > 0).all()
    assert dp.laplace_attack_success(1e-9) == pytest.approx(0.5) and dp.dp_success_limit(1e-9) == pytest.approx(0.5)


def test_a_smaller_gap_than_sensitivity_helps_the_attacker_less():
    assert dp.laplace_attack_success(1.0, 1.0, gap=0.0) == 0.5
    assert dp.laplace_attack_success(1.0, 2.0, gap=1.0) == pytest.approx(1 - 0.5 * math.exp(-0.25))
    assert dp.laplace_attack_success(1.0, 2.0, gap=1.0) < dp.laplace_attack_success(1.0, 2.0)


@pytest.mark.parametrize("prior", [0.1, 0.5, 0.9])
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_posterior_bounds_multiply_the_odds_by_e_to_the_plus_minus_eps(prior, eps):
    low, high = dp.posterior_bounds(prior, eps)
    odds = prior / (1 - prior)
    assert high / (1 - high) == pytest.approx(odds * math.exp(eps), rel=1e-12)
    assert low / (1 - low) == pytest.approx(odds * math.exp(-eps), rel=1e-12)
    assert low < prior < high


def test_posterior_bound_at_a_fair_prior_is_the_success_limit():
    for eps in EPS:
        assert dp.posterior_bounds(0.5, eps)[1] == pytest.approx(dp.dp_success_limit(eps), rel=1e-12)


def test_laplace_posterior_stays_inside_the_bounds_and_reaches_them_outside_the_two_counts():
    z = np.linspace(-10, 15, 2501)
    for prior in (0.1, 0.5):
        post = dp.laplace_posterior(z, prior, f_in=4.0, f_out=3.0, sensitivity=1.0, epsilon=1.0)
        low, high = dp.posterior_bounds(prior, 1.0)
        assert (post <= high * (1 + 1e-12)).all() and (post >= low * (1 - 1e-12)).all()
        assert post[z >= 4.0] == pytest.approx(high) and post[z <= 3.0] == pytest.approx(low)
        assert dp.laplace_posterior(3.5, prior, 4.0, 3.0, 1.0, 1.0) == pytest.approx(prior)


def test_simulation_agrees_with_the_exact_success():
    """200,000 attacks at each of 7 ε (seed 12): each measured rate within 5 standard errors of
    1 − ½e^(−ε/2). The rate is a binomial proportion (normal to within 1e-3 at this size), so a
    correct simulation fails one check with probability about 6·10⁻⁷, all seven under 5·10⁻⁶."""
    sim = dp.simulate_laplace_attack(EPS, trials=200_000, rng=np.random.default_rng(12))
    assert (np.abs(sim.rate - sim.exact) <= 5 * sim.standard_error).all()
    np.testing.assert_allclose(sim.limit, dp.dp_success_limit(EPS))
    assert sim.successes.dtype.kind == "i" and sim.trials == 200_000


def test_simulation_detects_a_broken_calibration():
    """The same seeds with noise calibrated to Δf/2 succeed more often than ε-DP allows at ε = 2:
    the test above can fail."""
    sim = dp.simulate_laplace_attack(4.0, trials=200_000, rng=np.random.default_rng(12))   # = ε 2 with b halved
    assert sim.rate[0] > dp.dp_success_limit(2.0) + 5 * sim.standard_error[0]


def test_simulation_is_reproducible_and_shares_its_randomness_across_epsilon():
    a = dp.simulate_laplace_attack([0.5, 1.0], trials=1000, rng=np.random.default_rng(3))
    b = dp.simulate_laplace_attack(1.0, trials=1000, rng=np.random.default_rng(3))
    assert a.successes[1] == b.successes[0]


@pytest.mark.parametrize("call, match", [
    (lambda: dp.dp_success_limit(0), "epsilon"),
    (lambda: dp.dp_success_limit([-1.0, 1.0]), "epsilon"),
    (lambda: dp.laplace_attack_success(1.0, sensitivity=0), "sensitivity"),
    (lambda: dp.laplace_attack_success(1.0, gap=-0.5), "gap"),
    (lambda: dp.posterior_bounds(0.0, 1.0), "prior"),
    (lambda: dp.posterior_bounds([0.5, 1.0], 1.0), "prior"),
    (lambda: dp.laplace_posterior(1.0, 1.0, 4.0, 3.0, 1.0, 1.0), "prior"),
    (lambda: dp.simulate_laplace_attack(1.0, trials=0), "trials"),
])
def test_bad_input_is_refused_naming_the_parameter_and_range(call, match):
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "got" in str(info.value)


def test_bad_types_are_refused():
    with pytest.raises(TypeError, match="epsilon"):
        dp.dp_success_limit(True)
    with pytest.raises(TypeError, match="rng"):
        dp.simulate_laplace_attack(1.0, rng=42)


def test_widget_draws_limit_exact_and_measured_on_fixed_axes():
    w = widgets.attack_success()
    left, right = w.figure.left, w.figure.right
    limits = (left.get_xlim(), left.get_ylim(), right.get_xlim(), right.get_ylim())
    for eps in (0.01, 0.3, 1.0, 4.0, 10.0):
        r = w.set(epsilon=eps)
        assert r["limit"] == pytest.approx(dp.dp_success_limit(eps))
        assert r["exact"] == pytest.approx(dp.laplace_attack_success(eps))
        assert r["exact"] < r["limit"]
        assert r["posterior_high"][0.5] == pytest.approx(r["limit"])
        assert (left.get_xlim(), left.get_ylim(), right.get_xlim(), right.get_ylim()) == limits
    assert left.get_xlim() == pytest.approx((0.01, 10.0))


def test_widget_counts_the_same_simulated_attacks_as_simulate_laplace_attack():
    """The figure draws its attacks once and counts right guesses per frame: the same numbers as a
    fresh simulate_laplace_attack with the same seed."""
    w = widgets.attack_success()
    for eps in (0.01, 0.37, 1.0, 6.5):
        sim = dp.simulate_laplace_attack(eps, w.figure.trials, rng=np.random.default_rng(w.figure.seed))
        assert w.set(epsilon=eps)["measured"] == sim.rate[0]
