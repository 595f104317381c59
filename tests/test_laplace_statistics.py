"""The statistical checks of the Laplace mechanism (Dwork & Roth 2014, Theorem 3.6) that chapter 03
only prints: with a fixed seed, the empirical ratio of an event's probabilities on neighbours, the
attack's success, and the mean and variance of the mechanism's noise agree with theory."""

import numpy as np

import dpteach as dp


def test_event_ratio_is_far_below_e_to_the_eps():
    """S = {release ≥ 4.5}, f(x) = 4, f(y) = 5, ε = 1, 200,000 releases each (seed 2014): the
    estimated ratio Pr[M(y) ∈ S]/Pr[M(x) ∈ S] is within 5 standard errors of the exact one and 5
    standard errors below e^ε. The estimate is nearly normal (delta method), so a correct mechanism
    fails the first check with probability about 6e-7; the second follows from the first, since the
    exact ratio lies about 50 standard errors below e^ε."""
    rng = np.random.default_rng(2014)
    n, eps, b = 200_000, 1.0, 1.0
    on_x = dp.laplace_mechanism(np.full(n, 4.0), 1.0, eps, rng=rng)
    on_y = dp.laplace_mechanism(np.full(n, 5.0), 1.0, eps, rng=rng)
    p_x, p_y = np.mean(on_x >= 4.5), np.mean(on_y >= 4.5)
    ex, ey = 1 - dp.laplace_cdf(0.5, b), 1 - dp.laplace_cdf(-0.5, b)
    se = (ey / ex) * np.sqrt((1 - ex) / (n * ex) + (1 - ey) / (n * ey))
    assert abs(p_y / p_x - ey / ex) < 5 * se
    assert p_y / p_x + 5 * se < np.exp(eps)


def test_tight_event_ratio_straddles_e_to_the_eps():
    """S′ = {release ≥ 5}: the exact ratio is e^ε; the estimate (seed 7) is within 5 standard errors
    of it (false-positive rate about 6e-7), on whichever side."""
    rng = np.random.default_rng(7)
    n = 200_000
    on_x = dp.laplace_mechanism(np.full(n, 4.0), 1.0, 1.0, rng=rng)
    on_y = dp.laplace_mechanism(np.full(n, 5.0), 1.0, 1.0, rng=rng)
    p_x, p_y = np.mean(on_x >= 5.0), np.mean(on_y >= 5.0)
    ex, ey = 1 - dp.laplace_cdf(1.0, 1.0), 0.5
    se = (ey / ex) * np.sqrt((1 - ex) / (n * ex) + (1 - ey) / (n * ey))
    assert abs(p_y / p_x - np.e) < 5 * se


def test_mechanism_is_unbiased_with_variance_two_b_squared():
    """Three counts, b = 3, 100,000 releases (seed 2015): each mean error within 5·√(2b²/m) of 0 and
    each variance within 5·b²√(20/m) of 2b². Six nearly normal statistics at 5 standard errors: a
    correct mechanism fails with probability under 4e-6 (union bound)."""
    rng = np.random.default_rng(2015)
    m, b = 100_000, 3.0
    fx = np.array([10.0, 6.0, 3.0])
    errors = dp.laplace_mechanism(np.broadcast_to(fx, (m, 3)), 3.0, 1.0, rng=rng) - fx
    assert (np.abs(errors.mean(axis=0)) < 5 * np.sqrt(2 * b**2 / m)).all()
    assert (np.abs(errors.var(axis=0) - 2 * b**2) < 5 * b**2 * np.sqrt(20 / m)).all()


def test_attack_success_at_eps_one():
    """The chapter's 100,000 attacks at ε = 1 (seed 2016): within 5 standard errors of 1 − ½e^(−1/2)
    (false-positive rate about 6e-7), and 5 standard errors below the limit e/(1 + e)."""
    sim = dp.simulate_laplace_attack(1.0, trials=100_000, rng=np.random.default_rng(2016))
    assert abs(sim.rate[0] - sim.exact[0]) < 5 * sim.standard_error[0]
    assert sim.rate[0] + 5 * sim.standard_error[0] < sim.limit[0]
