"""The privacy budget (Theorem 3.16, parallel composition), advanced composition (Theorem 3.20)
and post-processing onto a public total (Proposition 2.1).

Budget invariants are checked on random sequences of charges drawn with fixed seeds: they
are deterministic properties, so a failure is a bug, never bad luck.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach.composition import BudgetExceeded, PrivacyBudget, advanced_composition_crossover, averaged_answers_std

NAN, INF = float("nan"), float("inf")


def _state(budget: PrivacyBudget):
    return budget.charges, budget.spent_epsilon, budget.spent_delta, repr(budget)


# -- the budget's invariants ----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_random_sessions_never_overspend_and_refusals_change_nothing(seed):
    """Whatever is asked, in any order: spent ≤ total, and a refused charge leaves every number as it was."""
    rng = np.random.default_rng(seed)
    total_eps, total_delta = rng.uniform(0.1, 3), rng.choice([0.0, 1e-5, 1e-3])
    budget = PrivacyBudget(total_eps, total_delta)
    refused = accepted = 0
    for i in range(60):
        eps = float(rng.exponential(total_eps / 6))
        delta = float(rng.choice([0.0, 0.0, total_delta / 4, 1e-6]))
        before = _state(budget)
        parallel = rng.random() < 0.3
        fits = budget.can_spend(eps, 0.0 if parallel else delta)
        try:
            if parallel:
                parts = rng.uniform(0, eps, size=rng.integers(1, 6))
                parts[0] = eps
                charge = budget.spend_parallel(parts, label=f"parallel {i}")
                assert charge.epsilon == pytest.approx(eps)
            else:
                charge = budget.spend(eps, delta, label=f"query {i}")
            accepted += 1
            assert fits
            assert budget.charges[-1] is charge
        except BudgetExceeded as refusal:
            refused += 1
            assert not fits
            assert _state(budget) == before, "a refused charge must change nothing"
            assert refusal.epsilon == pytest.approx(eps) and "nothing was charged" in str(refusal)
        assert budget.spent_epsilon <= total_eps * (1 + PrivacyBudget.TOLERANCE)
        assert budget.spent_delta <= total_delta * (1 + PrivacyBudget.TOLERANCE)
        assert budget.remaining_epsilon >= 0 and budget.remaining_delta >= 0
    assert accepted and refused, "the session should exercise both outcomes"


def test_sequential_charges_add_up():
    """Theorem 3.16: (Σε_i, Σδ_i)."""
    budget = PrivacyBudget(2.0, delta=1e-5)
    for eps, delta in [(0.5, 0.0), (0.25, 2e-6), (0.75, 3e-6)]:
        budget.spend(eps, delta)
    assert budget.spent_epsilon == pytest.approx(1.5) and budget.spent_delta == pytest.approx(5e-6)
    assert budget.remaining_epsilon == pytest.approx(0.5) and budget.remaining_delta == pytest.approx(5e-6)


def test_parallel_charges_the_largest_part_not_the_sum():
    budget = PrivacyBudget(1.0)
    charge = budget.spend_parallel([0.2, 0.7, 0.5], label="three districts")
    assert charge.epsilon == 0.7 and budget.spent_epsilon == 0.7
    assert charge.parts == (0.2, 0.7, 0.5) and "parallel over 3 parts" in charge.kind
    with pytest.raises(BudgetExceeded, match="its largest part"):
        budget.spend_parallel([0.1, 0.4])          # the max (0.4) no longer fits, though 0.1 would
    budget.spend_parallel([0.3] * 100)             # a hundred disjoint parts at 0.3 cost 0.3
    assert budget.spent_epsilon == pytest.approx(1.0) and budget.exhausted


def test_parallel_deltas_are_the_largest_too():
    budget = PrivacyBudget(1.0, delta=1e-5)
    charge = budget.spend_parallel([0.1, 0.1], deltas=[1e-6, 4e-6])
    assert charge.delta == 4e-6 and budget.spent_delta == 4e-6


def test_a_budget_is_exhausted_exactly_despite_rounding():
    """0.1 added ten times is 0.9999999999999999 and 0.1 + 0.2 > 0.3 in floating point; neither
    may refuse the last charge of a budget that fits exactly."""
    budget = PrivacyBudget(1.0)
    for _ in range(10):
        budget.spend(0.1)
    assert budget.exhausted and budget.remaining_epsilon == pytest.approx(0, abs=1e-12)
    with pytest.raises(BudgetExceeded):
        budget.spend(1e-6)
    tight = PrivacyBudget(0.3)
    tight.spend(0.1)
    tight.spend(0.2)
    assert tight.exhausted
    nine = PrivacyBudget(5.0)
    for _ in range(9):
        nine.spend(5 / 9)
    assert nine.exhausted


def test_the_tolerance_is_rounding_only():
    """Overspending by a millionth of the budget is refused: the tolerance is not a loophole."""
    budget = PrivacyBudget(1.0)
    budget.spend(0.5)
    with pytest.raises(BudgetExceeded):
        budget.spend(0.5 + 1e-6)


def test_a_pure_budget_refuses_any_delta_and_says_so():
    budget = PrivacyBudget(1.0)
    with pytest.raises(BudgetExceeded, match="pure ε budget") as info:
        budget.spend(0.1, delta=1e-9)
    assert budget.charges == () and info.value.delta == 1e-9
    approx = PrivacyBudget(1.0, delta=1e-6)
    approx.spend(0.1, delta=6e-7)
    with pytest.raises(BudgetExceeded, match="only δ"):
        approx.spend(0.1, delta=6e-7)


def test_the_refusal_names_the_charge_and_what_remains():
    budget = PrivacyBudget(1.0)
    budget.spend(0.9, label="histogram")
    with pytest.raises(BudgetExceeded) as info:
        budget.spend(0.2, label="mean income")
    refusal = info.value
    assert isinstance(refusal, ValueError)
    assert refusal.label == "mean income" and refusal.remaining_epsilon == pytest.approx(0.1)
    assert "'mean income'" in str(refusal) and "ε = 0.2" in str(refusal) and "ε = 0.1 of 1" in str(refusal)


def test_a_zero_charge_is_accepted_even_when_exhausted():
    """A computation on public data costs ε = 0; it is recorded, never refused."""
    budget = PrivacyBudget(0.5)
    budget.spend(0.5)
    budget.spend(0.0, label="public total")
    assert len(budget.charges) == 2


# -- validation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, named", [
    ({"epsilon": 0}, ValueError, "epsilon"),
    ({"epsilon": -1}, ValueError, "epsilon"),
    ({"epsilon": INF}, ValueError, "epsilon"),
    ({"epsilon": NAN}, ValueError, "epsilon"),
    ({"epsilon": "1"}, TypeError, "epsilon"),
    ({"epsilon": True}, TypeError, "epsilon"),
    ({"epsilon": 1, "delta": -0.1}, ValueError, "delta"),
    ({"epsilon": 1, "delta": 1}, ValueError, "delta"),
    ({"epsilon": 1, "delta": NAN}, ValueError, "delta"),
    ({"epsilon": 1, "delta": "0"}, TypeError, "delta"),
])
def test_a_bad_budget_is_refused(kwargs, error, named):
    with pytest.raises(error, match=named):
        PrivacyBudget(**kwargs)


@pytest.mark.parametrize("call, error, match", [
    (lambda b: b.spend(-0.1), ValueError, "epsilon must be a finite number >= 0, got -0.1; a charge spends"),
    (lambda b: b.spend(NAN), ValueError, "epsilon"),
    (lambda b: b.spend(INF), ValueError, "epsilon"),
    (lambda b: b.spend("0.1"), TypeError, "epsilon"),
    (lambda b: b.spend(0.1, delta=-1e-9), ValueError, "delta"),
    (lambda b: b.spend(0.1, delta=1.0), ValueError, "delta"),
    (lambda b: b.spend(0.1, label=3), TypeError, "label"),
    (lambda b: b.spend_parallel([0.1, -0.1]), ValueError, "epsilons must be >= 0"),
    (lambda b: b.spend_parallel([]), ValueError, "epsilons must not be empty"),
    (lambda b: b.spend_parallel([[0.1, 0.2]]), ValueError, "epsilons must be a 1-d array"),
    (lambda b: b.spend_parallel([0.1, NAN]), ValueError, "epsilons"),
    (lambda b: b.spend_parallel([0.1, 0.2], deltas=[0.0]), ValueError, "deltas must have one entry per part"),
    (lambda b: b.spend_parallel([0.1], deltas=[1.0]), ValueError, "deltas must be < 1"),
    (lambda b: b.spend_parallel([0.1], deltas=[-1e-6]), ValueError, "deltas must be >= 0"),
    (lambda b: b.can_spend(-1), ValueError, "epsilon"),
])
def test_a_bad_charge_is_refused_and_charges_nothing(call, error, match):
    budget = PrivacyBudget(1.0, delta=1e-5)
    with pytest.raises(error, match=match):
        call(budget)
    assert budget.charges == () and budget.spent_epsilon == 0


def test_budget_exceeded_is_a_value_error_but_not_every_value_error_is_a_refusal():
    budget = PrivacyBudget(1.0)
    with pytest.raises(ValueError) as info:
        budget.spend(-1)
    assert not isinstance(info.value, BudgetExceeded)
    assert issubclass(BudgetExceeded, ValueError)


# -- display ------------------------------------------------------------------------------------

def test_repr_and_html_show_the_ledger():
    budget = PrivacyBudget(1.0, delta=1e-6)
    budget.spend(0.25, label="count <65 & over>")
    budget.spend_parallel([0.5, 0.5], label="two halves")
    text = repr(budget)
    assert text.splitlines()[0] == ("PrivacyBudget(ε = 1, δ = 1e-06; basic accounting: the charges add up): spent "
                                    "ε = 0.75, δ = 0 in 2 charges; remaining ε = 0.25, δ = 1e-06")
    assert "count <65 & over>" in text and "parallel over 2 parts (max)" in text
    page = budget._repr_html_()
    assert page.startswith("<table>") and "&lt;65 &amp; over&gt;" in page and page.count("<tr>") == 3
    assert repr(PrivacyBudget(2)) == ("PrivacyBudget(ε = 2; basic accounting: the charges add up): spent ε = 0 in 0 "
                                      "charges; remaining ε = 2")


# -- composition calculators ---------------------------------------------------------------------

def test_basic_composition_is_k_times():
    assert dp.basic_composition(10, 0.1, 1e-7) == pytest.approx((1.0, 1e-6))


@pytest.mark.parametrize("k, epsilon, delta_prime", [(1, 1.0, 0.5), (10, 0.1, 1e-6), (1000, 0.01, 1e-9)])
def test_advanced_composition_is_theorem_3_20(k, epsilon, delta_prime):
    eps_total, delta_total = dp.advanced_composition(k, epsilon, delta_prime, delta=1e-8)
    expected = math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * (math.exp(epsilon) - 1)
    assert eps_total == pytest.approx(expected, rel=1e-12)
    assert delta_total == pytest.approx(k * 1e-8 + delta_prime)


def test_advanced_beats_basic_only_for_many_small_queries():
    """√k against k: at ε = 0.1, δ′ = 1e-6 basic wins for few queries and advanced for many."""
    wins = [dp.advanced_composition(k, 0.1, 1e-6)[0] < dp.basic_composition(k, 0.1)[0] for k in range(1, 400)]
    crossover = wins.index(True) + 1
    assert not any(wins[:crossover - 1]) and all(wins[crossover - 1:])
    assert 10 < crossover < 100
    assert dp.advanced_composition(5, 1.0, 1e-6)[0] > dp.basic_composition(5, 1.0)[0]   # large ε: never


@pytest.mark.parametrize("total, epsilon, delta_prime", [(1.0, 0.01, 1e-6), (1.0, 0.1, 1e-6), (10.0, 0.1, 1e-9),
                                                         (0.5, 0.6, 1e-3), (3.0, 0.001, 0.01)])
def test_max_k_is_the_largest_k_that_fits(total, epsilon, delta_prime):
    k = dp.advanced_composition_max_k(total, epsilon, delta_prime)
    if k:
        assert dp.advanced_composition(k, epsilon, delta_prime)[0] <= total
    assert dp.advanced_composition(k + 1, epsilon, delta_prime)[0] > total


def test_max_epsilon_inverts_the_forward_formula():
    for total, k, delta_prime in [(1.0, 1000, 1e-6), (1.0, 1, 0.5), (5.0, 50, 1e-9), (0.1, 10_000, 1e-6)]:
        eps = dp.advanced_composition_max_epsilon(total, k, delta_prime)
        assert dp.advanced_composition(k, eps, delta_prime)[0] == pytest.approx(total, rel=1e-12)
        assert dp.advanced_composition(k, eps * (1 + 1e-9), delta_prime)[0] > total


def test_the_two_ways_agree():
    """k from (total, ε) and ε from (total, k) describe the same boundary."""
    k = dp.advanced_composition_max_k(1.0, 0.01, 1e-6)
    assert dp.advanced_composition_max_epsilon(1.0, k, 1e-6) >= 0.01
    assert dp.advanced_composition_max_epsilon(1.0, k + 1, 1e-6) < 0.01


@pytest.mark.parametrize("func, kwargs, error, named", [
    (dp.advanced_composition, {"k": 0, "epsilon": 0.1, "delta_prime": 1e-6}, ValueError, "k"),
    (dp.advanced_composition, {"k": 2.5, "epsilon": 0.1, "delta_prime": 1e-6}, TypeError, "k"),
    (dp.advanced_composition, {"k": 10, "epsilon": 0, "delta_prime": 1e-6}, ValueError, "epsilon"),
    (dp.advanced_composition, {"k": 10, "epsilon": 0.1, "delta_prime": 0}, ValueError, "delta_prime"),
    (dp.advanced_composition, {"k": 10, "epsilon": 0.1, "delta_prime": 1}, ValueError, "delta_prime"),
    (dp.advanced_composition, {"k": 10, "epsilon": 0.1, "delta_prime": 1e-6, "delta": -1}, ValueError, "delta"),
    (dp.basic_composition, {"k": -1, "epsilon": 0.1}, ValueError, "k"),
    (dp.basic_composition, {"k": 1, "epsilon": NAN}, ValueError, "epsilon"),
    (dp.advanced_composition_max_k, {"total_epsilon": 0, "epsilon": 0.1, "delta_prime": 1e-6}, ValueError,
     "total_epsilon"),
    (dp.advanced_composition_max_k, {"total_epsilon": 1, "epsilon": -0.1, "delta_prime": 1e-6}, ValueError, "epsilon"),
    (dp.advanced_composition_max_k, {"total_epsilon": 1, "epsilon": 0.1, "delta_prime": 2}, ValueError, "delta_prime"),
    (dp.advanced_composition_max_epsilon, {"total_epsilon": INF, "k": 10, "delta_prime": 1e-6}, ValueError,
     "total_epsilon"),
    (dp.advanced_composition_max_epsilon, {"total_epsilon": 1, "k": 0, "delta_prime": 1e-6}, ValueError, "k"),
    (dp.advanced_composition_max_epsilon, {"total_epsilon": 1, "k": 10, "delta_prime": "x"}, TypeError, "delta_prime"),
])
def test_calculators_refuse_bad_parameters_by_name(func, kwargs, error, named):
    with pytest.raises(error, match=rf"\b{named}\b"):
        func(**kwargs)


# -- post-processing onto a public total ---------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("nonnegative", [False, True])
def test_projection_sums_to_the_total_and_never_moves_away_from_the_truth(seed, nonnegative):
    """A Euclidean projection onto a convex set that holds the truth: ‖x̂ − x‖₂ ≤ ‖y − x‖₂ on every release."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 20, size=rng.integers(2, 40)).astype(float)
    noisy = dp.laplace_mechanism(truth, sensitivity=1, epsilon=float(rng.uniform(0.05, 2)), rng=rng)
    fitted = dp.project_to_total(noisy, truth.sum(), nonnegative=nonnegative)
    assert fitted.sum() == pytest.approx(truth.sum())
    if nonnegative:
        assert (fitted >= 0).all()
    assert np.linalg.norm(fitted - truth) <= np.linalg.norm(noisy - truth) + 1e-9


@pytest.mark.parametrize("seed", range(30))
def test_nonnegative_projection_is_the_closest_point(seed):
    """Against a brute check: no small feasible move from x̂ gets closer to y (the projection's optimality)."""
    rng = np.random.default_rng(seed)
    y = rng.normal(0, 5, size=8)
    total = float(rng.uniform(0, 30))
    x_hat = dp.project_to_total(y, total)
    base = np.linalg.norm(x_hat - y)
    for _ in range(200):
        i, j = rng.choice(8, size=2, replace=False)
        step = min(x_hat[i], rng.uniform(0, 1))     # move mass from cell i to cell j: stays feasible
        moved = x_hat.copy()
        moved[i] -= step
        moved[j] += step
        assert np.linalg.norm(moved - y) >= base - 1e-9


def test_projection_edge_cases_and_validation():
    assert dp.project_to_total([1.0, -3.0], 0).tolist() == [0.0, 0.0]
    assert dp.project_to_total([5.0], 3).tolist() == [3.0]
    assert dp.project_to_total([1.0, 2.0], -3, nonnegative=False).tolist() == [-2.0, -1.0]
    with pytest.raises(ValueError, match="total"):
        dp.project_to_total([1.0, 2.0], -3)
    with pytest.raises(ValueError, match="noisy"):
        dp.project_to_total([[1.0, 2.0]], 3)
    with pytest.raises(ValueError, match="noisy"):
        dp.project_to_total([1.0, NAN], 3)
    with pytest.raises(TypeError, match="nonnegative"):
        dp.project_to_total([1.0, 2.0], 3, nonnegative="yes")


def test_a_broken_projection_would_be_caught():
    """The optimality test is not vacuous: plain clamping then rescaling is feasible but not the projection."""
    y = np.array([6.0, 1.0, -2.0])
    clamped = np.maximum(y, 0)
    rescaled = clamped * 5 / clamped.sum()
    assert rescaled.sum() == pytest.approx(5)
    assert np.linalg.norm(rescaled - y) > np.linalg.norm(dp.project_to_total(y, 5) - y) + 0.1


def test_two_answers_at_half_epsilon_averaged_have_twice_the_variance():
    """Chapter 06 prints the two variances; here the ratio is checked at a fixed seed.

    With n = 100,000 sessions the ratio of the sample variances has a standard error of about
    2·√(8.5/n) ≈ 0.018 (the kurtosis of Laplace noise and of the mean of two); the band ±0.1 is more
    than 5 standard errors: false-positive rate < 1e-6.
    """
    rng = np.random.default_rng(606)
    n, epsilon = 100_000, 0.5
    one = dp.laplace_mechanism(np.zeros(n), sensitivity=1, epsilon=epsilon, rng=rng)
    two = dp.laplace_mechanism(np.zeros((n, 2)), sensitivity=1, epsilon=epsilon / 2, rng=rng).mean(axis=1)
    assert abs(two.var() / one.var() - 2) < 0.1
    assert abs(one.var() / (2 * (1 / epsilon) ** 2) - 1) < 0.05      # relative SE √(5/n) ≈ 0.007: 7 SE


# -- the figures' maths: averaging (Definition 3.2, Theorem 3.16) and the advanced-composition crossover --

def test_averaged_answers_std_is_root_two_b_over_root_k():
    """Var Lap(b) = 2b² (Definition 3.2): the mean of k draws has std √(2/k)·b; the split budget is ε/k each."""
    assert averaged_answers_std(1, 1.0, 1.0) == pytest.approx(math.sqrt(2))
    assert averaged_answers_std(8, 2.0, 0.5) == pytest.approx(math.sqrt(2 / 8) * 4)
    for k in (1, 3, 50):
        assert averaged_answers_std(k, 1.0, 1.0 / k) == pytest.approx(math.sqrt(2 * k))


def test_averaged_answers_std_matches_simulated_means():
    """20,000 means of k = 5 Lap(1) draws: the sample std's relative standard error is about 1/√(2·20000)·√(1 +
    excess kurtosis/2) < 1%; a 5% band is over 5 standard errors (false-positive rate below 1e-6)."""
    rng = np.random.default_rng(7)
    means = rng.laplace(0.0, 1.0, size=(20_000, 5)).mean(axis=1)
    assert means.std() == pytest.approx(averaged_answers_std(5, 1.0, 1.0), rel=0.05)


@pytest.mark.parametrize("epsilon", [0.001, 0.01, 0.1, 0.3, 0.6, 0.69, 0.7, 1.0])
@pytest.mark.parametrize("delta_prime", [1e-9, 1e-6, 1e-2])
def test_crossover_is_the_first_k_where_advanced_beats_basic(epsilon, delta_prime):
    """Against the definition, k by k: Theorem 3.20's ε′ < Theorem 3.16's kε from the crossover on, not before."""
    k = advanced_composition_crossover(epsilon, delta_prime)
    if epsilon >= math.log(2):
        assert k is None
        return
    advanced = lambda j: dp.advanced_composition(j, epsilon, delta_prime)[0]    # noqa: E731
    assert advanced(k) < dp.basic_composition(k, epsilon)[0]
    assert k == 1 or advanced(k - 1) >= dp.basic_composition(k - 1, epsilon)[0]
    for j in (k + 1, 2 * k, 10 * k):          # advanced − basic = √j·(a − √j·(ε − b)) only falls after k
        assert advanced(j) < dp.basic_composition(j, epsilon)[0]
