"""Numbers and claims that chapters 06–10 print or state in prose (issue 20), recomputed independently.

Each test recomputes a number a chapter prints, or checks a claim its text makes, without the code path
the chapter uses where one exists (Google's dp-accounting, scipy, closed forms, direct enumeration).
The basic / Theorem 3.20 / exact totals of chapter 06 (10 / 6.31 / 4.69; 100 / 337 / 564) are guarded
against dp-accounting in test_exact_composition.py.
"""

import itertools
import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as dpa_pld
from scipy import stats

import dpteach as dp

# -- chapter 06: advanced composition's factor, and composition beyond the bound ------------------


def test_the_factor_hidden_in_about_root_k_epsilon_is_5_26_at_one_in_a_million():
    assert round(math.sqrt(2 * math.log(1e6)), 2) == 5.26


def test_one_hundred_answers_at_epsilon_one_cost_71_5_exactly_below_k_epsilon():
    """From ε = ln 2 on Theorem 3.20's bound exceeds kε, yet the exact total stays below kε (dp-accounting)."""
    pld = dpa_pld.from_laplace_mechanism(1.0, sensitivity=1.0, value_discretization_interval=1e-4)
    theirs = pld.self_compose(100).get_epsilon_for_delta(1e-6)
    totals = dp.laplace_composition(100, 1.0, 1e-6)
    assert totals.exact == pytest.approx(theirs, rel=2e-3)
    assert round(totals.exact, 1) == 71.5 and totals.exact < totals.basic == 100 < totals.advanced
    assert round(totals.advanced) == 224


def test_advanced_composition_already_wins_at_a_hundredth():
    """The speaker note: at ε′ = 1, δ′ = 1e-6, Theorem 3.20 buys 3 answers at ε = 0.1 but 337 at 0.01."""
    assert dp.advanced_composition_max_k(1.0, 0.1, 1e-6) == 3
    assert dp.advanced_composition_max_k(1.0, 0.01, 1e-6) == 337 > 100


# -- chapter 07: every neighbour of the venues, and monotone utilities ---------------------------


def _exponential(u, eps, du):
    w = np.exp(eps * (np.asarray(u, float) - np.max(u)) / (2 * du))
    return w / w.sum()


def test_there_are_80_ballots_to_add():
    ballots = [b for b in itertools.product((0, 1, 2), repeat=5) if b.count(2) == 1]
    assert len(ballots) == 5 * 2**4 == 80


@pytest.mark.parametrize("seed", range(5))
def test_monotone_utilities_keep_the_exponential_mechanism_within_half_its_epsilon(seed):
    """Ballots of the chapter's kind (2 for a favourite, 0/1 elsewhere): over all removals and all 80
    additions the worst ratio is at most e^(ε/2), so exp(εu/Δu) would be ε-DP; a utility that rises for
    one outcome and falls for another (not monotone) can pass e^(ε/2)."""
    rng = np.random.default_rng(seed)
    fav = rng.integers(0, 5, size=40)
    ballots = np.where(np.eye(5, dtype=bool)[fav], 2, (rng.random((40, 5)) < 0.4).astype(int))
    u = ballots.sum(axis=0)
    p = _exponential(u, 1.0, 2)
    neighbours = [u - b for b in ballots] + [u + np.array(b) for b in itertools.product((0, 1, 2), repeat=5)
                                             if b.count(2) == 1]
    worst = max(np.max(np.maximum(p / _exponential(v, 1.0, 2), _exponential(v, 1.0, 2) / p)) for v in neighbours)
    assert worst <= math.exp(0.5) * (1 + 1e-12)
    mixed = u + np.array([2, -2, 0, 0, 0])              # |Δu| ≤ 2 still, but in opposite directions
    q = _exponential(mixed, 1.0, 2)
    assert np.max(np.maximum(p / q, q / p)) > math.exp(0.5)


# -- chapter 08: the GG standard deviation beside its scale, and δ against Pr[L > ε] --------------


def test_gg_standard_deviation_at_p_ln_ln_100():
    p = math.log(math.log(100))
    sigma = dp.generalized_gaussian_sigma(100, p, 1.0, 1e-6)
    std = stats.gennorm(beta=p, scale=sigma).std()
    assert round(sigma, 1) == 51.5 and round(std, 1) == 43.6
    assert round(dp.gaussian_sigma(10.0, 1.0, 1e-6), 1) == 42.2


def test_the_probability_the_loss_exceeds_epsilon_is_not_delta():
    """Lap(1) on a count: L(z) = |z − 1| − |z|, so L > 0.5 iff z < 1/4; Pr = 1 − ½e^(−1/4) = 0.6106, against
    δ(0.5) = 1 − e^(−1/4) = 0.2212."""
    above = 1 - 0.5 * math.exp(-0.25)
    noise = dp.laplace_noise(1.0)
    assert float(noise.cdf(noise.loss_inverse(0.5))) == pytest.approx(above, rel=1e-12)
    assert round(above, 4) == 0.6106 and above > 2 * (1 - math.exp(-0.25))


# -- chapter 09: the discrete Laplace's variance, and snapping's grid -----------------------------


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 1.0, 2.0, 5.0])
def test_discrete_variance_is_below_the_continuous_by_less_than_a_sixth(epsilon):
    """Summed directly over the integers, not from 2α/(1 − α)²."""
    alpha = math.exp(-epsilon)
    z = np.arange(-int(60 / epsilon) - 10, int(60 / epsilon) + 11)
    pmf = (1 - alpha) / (1 + alpha) * alpha ** np.abs(z)
    variance = float((pmf * z**2).sum())
    assert variance == pytest.approx(dp.discrete_laplace_variance(dp.discrete_laplace_scale(1, epsilon)), rel=1e-9)
    assert 0 < 2 / epsilon**2 - variance < 1 / 6


def test_discrete_variance_more_than_a_quarter_below_at_two():
    t = dp.discrete_laplace_scale(1, 2.0)
    assert dp.discrete_laplace_variance(t) < 0.75 * 2 * float(t) ** 2


# -- chapter 10: randomized response around the respondents' own proportion -----------------------


def test_randomized_response_variance_is_around_the_respondents_own_proportion():
    """Three respondents with fixed answers: enumerate all 2³ report vectors; the estimate's mean is their
    own proportion and its variance is e^ε/(n(e^ε − 1)²), whatever that proportion is."""
    eps = math.log(3)
    q = math.exp(eps) / (1 + math.exp(eps))
    for truth in ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)):
        mean = second = 0.0
        for reports in itertools.product((0, 1), repeat=3):
            pr = math.prod(q if r == t else 1 - q for r, t in zip(reports, truth))
            estimate = (np.mean(reports) - (1 - q)) / (2 * q - 1)
            mean += pr * estimate
            second += pr * estimate**2
        assert mean == pytest.approx(np.mean(truth), abs=1e-12)
        assert second - mean**2 == pytest.approx(dp.randomized_response_variance(3, eps), rel=1e-12)
        assert second - mean**2 == pytest.approx(math.exp(eps) / (3 * math.expm1(eps) ** 2), rel=1e-12)


def test_local_over_central_ratio_is_21_at_a_thousand():
    ratio = math.sqrt(math.exp(1) / (1000 * math.expm1(1) ** 2)) / (math.sqrt(2) / 1000)
    assert round(ratio) == 21
