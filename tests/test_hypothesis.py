"""Privacy as hypothesis testing: the ε-DP region, the Laplace mechanism's exact trade-off curve (against
the closed form in Dwork & Roth's terms, computed here from the Laplace CDF), measured tests with
Clopper–Pearson boxes, membership against attribute, group privacy, and the chapter 11 exercises."""

import math

import numpy as np
import pytest

import dpteach as dp


def _laplace_cdf(x, b):
    x = np.asarray(x, dtype=float)
    return np.where(x < 0, 0.5 * np.exp(x / b), 1 - 0.5 * np.exp(-x / b))


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.5])
@pytest.mark.parametrize("shift", [1, 3])
def test_tradeoff_curve_is_the_best_threshold_test(eps, shift):
    """β(α) from the closed form equals the error of the threshold test with that α (threshold tests are
    the Neyman–Pearson tests for a Laplace shift)."""
    b = 1 / eps
    t = np.linspace(-12 * b, shift + 12 * b, 4001)
    alpha = 1 - _laplace_cdf(t, b)                    # Pr[Lap(b) ≥ t]
    beta = _laplace_cdf(t - shift, b)                 # Pr[shift + Lap(b) < t]
    assert np.allclose(dp.laplace_tradeoff(alpha, eps, shift=shift), beta, atol=1e-12)
    a, bb = dp.laplace_threshold_test(t, eps, shift=shift)
    assert np.allclose(a, alpha, atol=1e-15) and np.allclose(bb, beta, atol=1e-15)


@pytest.mark.parametrize("eps", [0.2, 1.0, 3.0])
def test_curve_lies_in_the_region_and_touches_it_only_at_the_ends(eps):
    alpha = np.linspace(0, 1, 10_001)
    curve, limit = dp.laplace_tradeoff(alpha, eps), dp.dp_tradeoff_limit(alpha, eps)
    assert np.all(curve >= limit - 1e-15)
    middle = (alpha > math.exp(-eps) / 2 + 1e-3) & (alpha < 0.5 - 1e-3)
    assert np.all(curve[middle] > limit[middle])
    ends = (alpha < math.exp(-eps) / 2) | (alpha > 0.5)
    # on the straight ends one of the two constraints is tight
    assert np.allclose(np.minimum(alpha[ends] + math.exp(eps) * curve[ends] - 1,
                                  math.exp(eps) * alpha[ends] + curve[ends] - 1), 0, atol=1e-12)


def test_region_is_definition_2_4_on_a_set_and_its_complement():
    eps, alpha = 0.7, np.linspace(0, 1, 101)
    beta = dp.dp_tradeoff_limit(alpha, eps)
    assert np.all(alpha + math.exp(eps) * beta >= 1 - 1e-12)
    assert np.all(math.exp(eps) * alpha + beta >= 1 - 1e-12)


def test_best_success_values():
    """Uniform prior: the limit e^ε/(1 + e^ε) (0.881 for an attribute at ε = 1, e^(2ε)), and Laplace's
    own best success 1 − ½e^(−ε/2), which is the trade-off curve's best (α + β)/2."""
    assert dp.best_success(2.0) == pytest.approx(math.exp(2) / (1 + math.exp(2)))
    assert round(dp.best_success(dp.protection_epsilon(1.0, replace=True)), 3) == 0.881
    alpha = np.linspace(0, 1, 200_001)
    for eps in (0.3, 1.0, 2.0):
        best = 1 - np.min(alpha + dp.laplace_tradeoff(alpha, eps)) / 2
        assert best == pytest.approx(1 - 0.5 * math.exp(-eps / 2), abs=1e-9)
        assert best == pytest.approx(dp.laplace_attack_success(eps), abs=1e-9)


def test_group_and_attribute_protection():
    assert dp.protection_epsilon(0.5, people=4) == pytest.approx(2.0)
    assert dp.protection_epsilon(0.5, people=3, replace=True) == pytest.approx(3.0)
    # a Laplace count that moves by k behaves as ε became kε
    alpha = np.linspace(0, 1, 501)
    assert np.allclose(dp.laplace_tradeoff(alpha, 0.25, shift=4), dp.laplace_tradeoff(alpha, 1.0), atol=1e-14)


@pytest.mark.parametrize("eps, k", [(0.5, 1), (1.0, 1), (2.0, 1), (0.5, 3)])
def test_measured_boxes_hold_the_true_errors(eps, k):
    """Each test's Clopper–Pearson box holds its true (α, β): all boxes at once fail with probability ≤ 0.1%."""
    measured = dp.TradeoffSampler(4_000, confidence=0.999, rng=np.random.default_rng(11)).measure(eps, k)
    alpha, beta = dp.laplace_threshold_test(measured.thresholds, eps, shift=k)
    assert np.all((measured.alpha_box[:, 0] <= alpha) & (alpha <= measured.alpha_box[:, 1]))
    assert np.all((measured.beta_box[:, 0] <= beta) & (beta <= measured.beta_box[:, 1]))


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="alpha"):
        dp.dp_tradeoff_limit(1.5, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        dp.laplace_tradeoff(0.5, -1.0)
    with pytest.raises(ValueError, match="people"):
        dp.protection_epsilon(1.0, people=0)


def test_beta_exercise():
    check = dp.exercises.check_laplace_best_beta
    expected = math.exp(-1) / (4 * 0.3)
    assert check(round(expected, 3)).correct
    limit = check(round(math.exp(-1) * 0.7, 4))
    assert limit.correct is False and "EVERY" in limit.message
    assert "0.307" not in limit.message and "0.3066" not in limit.message


def test_attribute_exercise():
    check = dp.exercises.check_attribute_success
    assert check(round(math.exp(1) / (1 + math.exp(1)), 3)).correct
    membership = check(round(math.exp(0.5) / (1 + math.exp(0.5)), 3))
    assert membership.correct is False and "membership" in membership.message
    assert "0.731" not in membership.message
