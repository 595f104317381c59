"""PrivacyBudget with the planner's exact rule (issue 52): a budget of the planned exact total takes all 40 weekly
charges, where adding them up refuses some; the repr says which rule it uses."""

from __future__ import annotations

import math

import pytest

import dpteach as dp
from dpteach.budget import BudgetExceeded, PrivacyBudget


def _charges_taken(budget: PrivacyBudget, epsilon: float, most: int) -> int:
    for week in range(most):
        try:
            budget.spend(epsilon, label=f"week {week + 1}")
        except BudgetExceeded:
            return week
    return most


def test_a_budget_of_the_planned_exact_total_takes_every_weekly_charge():
    plan = dp.plan_budget(10_000, 40, 50)
    exact = PrivacyBudget(plan.exact, plan.delta, accounting="exact")
    assert _charges_taken(exact, plan.per_release, 40) == 40
    assert exact.spent_epsilon == pytest.approx(plan.exact, rel=1e-9)
    with pytest.raises(BudgetExceeded, match="exact accounting"):
        exact.spend(plan.per_release, label="week 41")
    assert len(exact.charges) == 40
    basic = PrivacyBudget(plan.exact, plan.delta)
    assert _charges_taken(basic, plan.per_release, 40) == math.floor(plan.exact / plan.per_release)   # kε ≤ total


def test_the_exact_total_is_the_accountants_at_every_step_and_never_above_the_sum():
    budget = PrivacyBudget(5.0, 1e-6, accounting="exact")
    for k in range(1, 31):
        budget.spend(0.1)
        assert budget.spent_epsilon == pytest.approx(dp.exact_laplace_epsilon(k, 0.1, 1e-6), rel=1e-12)
        assert budget.spent_epsilon <= 0.1 * k * (1 + 1e-9)
    # unequal charges: composed as that many at the largest (an upper bound), never below the exact equal case
    mixed = PrivacyBudget(5.0, 1e-6, accounting="exact")
    for eps in (0.05, 0.2, 0.1):
        mixed.spend(eps)
    assert mixed.spent_epsilon == pytest.approx(dp.exact_laplace_epsilon(3, 0.2, 1e-6), rel=1e-12)


def test_the_repr_names_the_rule():
    assert "basic accounting" in repr(PrivacyBudget(1.0))
    budget = PrivacyBudget(1.0, 1e-6, accounting="exact")
    budget.spend(0.1, label="week 1")
    assert "exact accounting" in repr(budget) and "δ = 1e-06" in repr(budget)
    assert "exact accounting" in budget._repr_html_()
    assert budget.accounting == "exact"


@pytest.mark.parametrize("call, name", [
    (lambda: PrivacyBudget(1.0, 1e-6, accounting="advanced"), "accounting"),
    (lambda: PrivacyBudget(1.0, 0.0, accounting="exact"), "delta"),
    (lambda: PrivacyBudget(1.0, 1e-6, accounting="exact").spend(0.1, delta=1e-7), "delta"),
    (lambda: PrivacyBudget(1.0, 1e-6, accounting="exact").spend_parallel([0.1, 0.2], [1e-7, 0]), "delta"),
])
def test_bad_input_is_refused_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
