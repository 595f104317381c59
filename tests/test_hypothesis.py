"""Privacy as hypothesis testing: the ε-DP and (ε, δ)-DP regions, the Laplace mechanism's exact trade-off curve
(against the closed form in Dwork & Roth's terms, computed here from the Laplace CDF), measured tests with
Clopper–Pearson boxes, membership against attribute and group privacy (against a linear program over every
mechanism on a chain of databases, scipy's linprog), and the chapter 11 exercises."""

import math

import numpy as np
import pytest
from scipy.optimize import linprog

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
    """Uniform prior, neighbours: the limit e^ε/(1 + e^ε) (0.731 at ε = 1), and Laplace's own best success
    1 − ½e^(−ε/2), which is the trade-off curve's best (α + β)/2."""
    assert dp.best_success(1.0) == pytest.approx(math.exp(1) / (1 + math.exp(1)))
    assert round(dp.best_success(1.0), 3) == 0.731
    alpha = np.linspace(0, 1, 200_001)
    for eps in (0.3, 1.0, 2.0):
        best = 1 - np.min(alpha + dp.laplace_tradeoff(alpha, eps)) / 2
        assert best == pytest.approx(1 - 0.5 * math.exp(-eps / 2), abs=1e-9)
        assert best == pytest.approx(dp.laplace_attack_success(eps), abs=1e-9)


def _chain_constraints(eps: float, k: int, delta: float):
    """(A_ub, b_ub) of "each step is (ε, δ)-DP" for q_i = Pr[say y | D_i] on a chain D_0 … D_k, applied to the event
    {say y} and to its complement, both ways: with a binary output these are all of Definition 2.4."""
    e, rows, bound = math.exp(eps), [], []
    for i in range(k):
        for u, v in ((i, i + 1), (i + 1, i)):
            row = np.zeros(k + 1)
            row[u], row[v] = 1, -e                 # q_u ≤ e^ε q_v + δ
            rows.append(row)
            bound.append(delta)
            rows.append(-row)                      # 1 − q_u ≤ e^ε (1 − q_v) + δ
            bound.append(e - 1 + delta)
    return np.array(rows), np.array(bound)


def lp_best_success(eps: float, k: int, delta: float = 0.0) -> float:
    """The best 50/50 guess between D_0 and D_k over every (ε, δ)-DP mechanism: max 1 − (q_0 + 1 − q_k)/2."""
    a, b = _chain_constraints(eps, k, delta)
    c = np.zeros(k + 1)
    c[0], c[-1] = 1, -1
    res = linprog(c, A_ub=a, b_ub=b, bounds=[(0, 1)] * (k + 1), method="highs")
    assert res.status == 0
    return 1 - (1 + res.fun) / 2


def lp_smallest_beta(eps: float, k: int, alpha: float, delta: float = 0.0) -> float:
    a, b = _chain_constraints(eps, k, delta)
    c = np.zeros(k + 1)
    c[-1] = -1                                    # β = 1 − q_k
    res = linprog(c, A_ub=a, b_ub=b, bounds=[(alpha, alpha)] + [(0, 1)] * k, method="highs")
    assert res.status == 0
    return 1 + res.fun


@pytest.mark.parametrize("eps", [0.5, 1.0])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("delta", [0.0, 0.01])
def test_group_best_success_is_the_linear_programs(eps, k, delta):
    """Over every mechanism on the chain, the best guess k steps apart: e^ε/(1 + e^ε) for k = 1, 1 − ½e^(−kε/2) for
    even k and 1 − e^(−(k−1)ε/2)/(1 + e^ε) for odd k ≥ 3, never e^(kε)/(1 + e^(kε)) for k ≥ 2."""
    lp = lp_best_success(eps, k, delta)
    assert dp.group_best_success(eps, k, delta) == pytest.approx(lp, abs=1e-9)
    if delta == 0:
        closed = (math.exp(eps) / (1 + math.exp(eps)) if k == 1 else 1 - 0.5 * math.exp(-k * eps / 2) if k % 2 == 0
                  else 1 - math.exp(-(k - 1) * eps / 2) / (1 + math.exp(eps)))
        assert lp == pytest.approx(closed, abs=1e-9)
        if k >= 2:
            assert lp < math.exp(k * eps) / (1 + math.exp(k * eps)) - 1e-3


def test_an_attribute_is_guessed_right_at_most_0_697_at_half():
    """Issue 37's numbers: two steps at ε = 0.5 give 0.697, at ε = 1 0.816, against e^(2ε)/(1 + e^(2ε)) = 0.731."""
    assert round(lp_best_success(0.5, 2), 3) == 0.697 == round(dp.group_best_success(0.5, 2), 3)
    assert round(lp_best_success(1.0, 2), 3) == 0.816
    assert round(math.exp(1) / (1 + math.exp(1)), 3) == 0.731


@pytest.mark.parametrize("eps, k, delta", [(0.5, 2, 0.0), (0.5, 3, 0.02), (1.0, 4, 0.0), (0.25, 6, 0.05)])
def test_group_tradeoff_is_the_linear_programs_and_inside_k_epsilon(eps, k, delta):
    for alpha in (0.0, 0.01, 0.1, 0.2, 0.35, 0.5, 0.8):
        exact = dp.group_tradeoff_limit(alpha, eps, k, delta)
        assert exact == pytest.approx(lp_smallest_beta(eps, k, alpha, delta), abs=1e-9)
        outer_eps, outer_delta = dp.group_privacy(eps, k, delta)
        assert exact >= dp.dp_tradeoff_limit(alpha, outer_eps, min(outer_delta, 1.0)) - 1e-12
    assert dp.group_privacy(eps, k, delta) == pytest.approx((k * eps, delta * sum(math.exp(i * eps) for i in range(k))))


def test_epsilon_delta_region_moves_in_by_delta():
    alpha = np.linspace(0, 1, 101)
    for eps, delta in ((0.7, 0.0), (0.7, 0.05), (2.0, 0.2)):
        beta = dp.dp_tradeoff_limit(alpha, eps, delta)
        assert np.all(alpha + math.exp(eps) * beta >= 1 - delta - 1e-12)
        assert np.all(math.exp(eps) * alpha + beta >= 1 - delta - 1e-12)
        assert np.allclose(beta, np.maximum.reduce([0 * alpha, 1 - delta - math.exp(eps) * alpha,
                                                   math.exp(-eps) * (1 - delta - alpha)]))
    assert np.allclose(dp.group_tradeoff_limit(alpha, 0.7, 1, 0.05), dp.dp_tradeoff_limit(alpha, 0.7, 0.05))


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
    assert np.all((measured.fpr_box[:, 0] <= alpha) & (alpha <= measured.fpr_box[:, 1]))
    assert np.all((measured.fnr_box[:, 0] <= beta) & (beta <= measured.fnr_box[:, 1]))


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="fpr"):
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
    """Issue 37: the checker once expected e^(2ε)/(1 + e^(2ε)) and refused the right answer, 1 − ½e^(−ε)."""
    check = dp.exercises.check_attribute_success
    assert check(round(lp_best_success(0.8, 2), 3)).correct
    assert check(0.697, epsilon=0.5).correct
    group = check(0.731, epsilon=0.5)
    assert group.correct is False and "2ε" in group.message and "group privacy" in group.message
    membership = check(round(math.exp(0.8) / (1 + math.exp(0.8)), 3))
    assert membership.correct is False and "membership" in membership.message
    for feedback in (group, membership):
        assert "0.697" not in feedback.message and "0.775" not in feedback.message


def test_a_probability_typed_as_a_percentage_is_named():
    """73.1 for 0.731 once got the generic hint. Now the right answer, and each named mistake, typed as a
    percentage is named as such (and the mistake too)."""
    check = dp.exercises.check_attribute_success
    right = check(69.7, epsilon=0.5)
    assert right.correct is False and "percentage" in right.message
    group = check(73.1, epsilon=0.5)
    assert "percentage" in group.message and "group privacy" in group.message
    beta = dp.exercises.check_laplace_best_beta(30.7)
    assert beta.correct is False and "percentage" in beta.message


def test_no_sentence_calls_the_odds_bound_a_groups_limit():
    """Issue 37: "the region is then that of kε", "everything behaves as if ε became kε" and e^(2ε)/(1 + e^(2ε))
    as "the limit for the attribute question" were outer bounds stated as limits."""
    from helpers import ROOT
    for path in [*(ROOT / "sources").glob("*.md"), *(ROOT / "instructor").glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        for phrase in ("the region is then that of kε", "as if ε became kε", "attribute question under a generic "
                       "ε-DP mechanism, e^(2ε)", "protected at 2ε, not ε", "protected only at e^(2ε)"):
            assert phrase not in text, (path.name, phrase)
