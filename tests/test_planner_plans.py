"""The budget planner takes any k, a contribution cap and "all at once" confidence, and prints the exact best guess
(issue 52): each number held to an independent computation, not to the accountant under test.

The exact best guess is checked against a direct convolution written here: the privacy loss of one release of
Lap(Δf/ε) on a count that one person moves by Δf is, under the law with that person, +ε with probability ½,
−ε with probability ½e^(−ε), and ε(2u − 1) for u ∈ (0, 1) with density (ε/2)e^(−ε(1 − u)) in between; k releases
add k i.i.d. copies; the best 50/50 guess is ½(1 + TV) with TV = E[(1 − e^(−L))₊] (the two k-fold output laws'
total variation). Rounding every loss up (down) to a grid gives an upper (lower) bound on TV, since
(1 − e^(−L))₊ grows with L: the planner's value must lie between them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import planner
from dpteach._special import norm_cdf

WEEKLY = {"people": 10_000, "releases": 40, "accuracy": 50}      # the issue's weekly release


def _loss_masses(epsilon: float, steps: int, up: bool) -> np.ndarray:
    """One release's loss on the grid j·ε/steps, j = −steps … steps, each loss rounded up (or down) to the grid."""
    masses = np.zeros(2 * steps + 1)
    masses[-1] += 0.5                                   # z ≥ Δf: L = +ε
    masses[0] += 0.5 * math.exp(-epsilon)               # z ≤ 0: L = −ε
    # z = uΔf, u ∈ (0, 1): L = ε(2u − 1); the cell between grid losses j and j + 1 is u ∈ (j/(2·steps), (j+1)/(2·steps))
    u = np.arange(2 * steps + 1) / (2 * steps)
    cells = 0.5 * (np.exp(-epsilon * (1 - u[1:])) - np.exp(-epsilon * (1 - u[:-1])))   # Pr under "with"
    if up:
        masses[1:] += cells
    else:
        masses[:-1] += cells
    return masses


def _tv_bounds(releases: int, epsilon: float, steps: int = 128) -> tuple[float, float]:
    out = []
    for up in (False, True):
        one = _loss_masses(epsilon, steps, up)
        total = np.array([1.0])
        for _ in range(releases):
            total = np.convolve(total, one)
        losses = (np.arange(total.size) - releases * steps) * epsilon / steps
        out.append(float(np.dot(total, np.clip(-np.expm1(-losses), 0.0, None))))
    return out[0], out[1]


@pytest.mark.parametrize("releases, epsilon", [(1, 1.0), (40, math.log(20) / 50), (41, math.log(20) / 50),
                                                (40, math.log(800) / 50), (7, 0.8)])
def test_the_exact_best_guess_lies_between_direct_convolutions_of_the_losses(releases, epsilon):
    low, high = _tv_bounds(releases, epsilon)
    guess = planner.laplace_best_guess(releases, epsilon)
    assert 0.5 * (1 + low) - 1e-9 <= guess <= 0.5 * (1 + high) + 1e-6
    assert high - low < 0.003


def test_one_release_best_guess_is_the_closed_form():
    for eps in (0.1, 1.0, 3.0):          # TV of Lap(0, 1/ε) and Lap(1, 1/ε): 1 − e^(−ε/2)
        assert planner.laplace_best_guess(1, eps) == pytest.approx(1 - 0.5 * math.exp(-eps / 2), abs=1e-4)


def test_the_weekly_plan_has_the_issues_numbers_from_independent_formulas():
    plan = dp.plan_budget(**WEEKLY)
    eps = math.log(20) / 50                            # Fact 3.7 at 95%, Δf = 1
    assert plan.per_release == pytest.approx(eps, rel=1e-12)
    assert plan.basic == pytest.approx(40 * eps, rel=1e-12)
    assert plan.exact == pytest.approx(dp.exact_laplace_epsilon(40, eps, 1e-6), rel=1e-9)
    sigma = 50 / 1.959963984540054
    assert plan.gaussian_guess == pytest.approx(norm_cdf(math.sqrt(40) / sigma / 2), rel=1e-9)   # Φ(μ√k/2)
    # the worst case for any (ε, δ)-DP mechanism, found by bisection on the tradeoff curve (chapter 11)
    assert plan.worst_guess == pytest.approx(dp.group_best_success(plan.exact, 1, plan.delta), abs=1e-9)
    assert plan.exact_guess < plan.worst_guess
    low, high = _tv_bounds(40, eps)
    assert 0.5 * (1 + low) - 1e-9 <= plan.exact_guess <= 0.5 * (1 + high) + 1e-6
    assert "57.4%" in repr(plan) and "82.8%" in repr(plan) and "54.9%" in repr(plan)


@pytest.mark.parametrize("releases", [40, 41, 7, 1_234])
def test_all_at_once_keeps_every_count_within_accuracy_with_the_confidence(releases):
    plan = dp.plan_budget(10_000, releases, 50, simultaneous=True)
    b = 1 / plan.per_release                          # Lap(Δf/ε), Δf = 1
    each = dp.laplace_cdf(50, b) - dp.laplace_cdf(-50, b)
    assert each == pytest.approx(1 - 0.05 / releases, rel=1e-12)
    assert each ** releases >= 0.95                   # independent noise: all k within ±α together
    gauss_each = 1 - 2 * norm_cdf(-50 / plan.gaussian_std)
    assert gauss_each ** releases >= 0.95
    assert plan.simultaneous and "all at once" in repr(plan)
    assert plan.basic > dp.plan_budget(10_000, releases, 50).basic


@pytest.mark.parametrize("cap", [2, 3, 0.5])
def test_a_contribution_cap_scales_each_releases_epsilon_and_moves_the_totals_like_a_finer_accuracy(cap):
    plan = dp.plan_budget(10_000, 40, 50, sensitivity=cap)
    assert plan.per_release == pytest.approx(cap * math.log(20) / 50, rel=1e-12)
    b = cap / plan.per_release                        # Lap(Δf/ε): within ±α at 95%
    assert dp.laplace_cdf(50, b) - dp.laplace_cdf(-50, b) == pytest.approx(0.95, rel=1e-12)
    assert plan.exact == pytest.approx(dp.exact_laplace_epsilon(40, plan.per_release, plan.delta), rel=1e-9)
    assert plan.gaussian_guess == pytest.approx(norm_cdf(cap * math.sqrt(40) / plan.gaussian_std / 2), rel=1e-9)


def test_any_k_is_planned_off_the_grid_and_the_totals_grow_with_k():
    plans = [dp.plan_budget(10_000, k, 50) for k in (40, 41, 42, 49, 50)]
    assert all(p.releases not in planner.PLANNER_RELEASES for p in plans[:4])
    for field in ("basic", "optimal", "exact", "gaussian", "exact_guess"):
        values = [getattr(p, field) for p in plans]
        assert values == sorted(values), field
    assert plans[-1].exact == planner.table()[(10_000, 50.0, 50)][1]


@pytest.mark.parametrize("kwargs, name", [({"sensitivity": 0}, "sensitivity"), ({"sensitivity": -1}, "sensitivity"),
                                          ({"simultaneous": "yes"}, "simultaneous"), ({"releases": 0}, "releases"),
                                          ({"releases": 100_001}, "releases")])
def test_bad_plans_are_refused_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        dp.plan_budget(**{**WEEKLY, **kwargs})


def test_the_tables_exact_best_guesses_for_a_cap_and_all_at_once_lie_between_direct_convolutions():
    """A sample of the rows the cap and "all at once" added to the shipped table (issue 52: each control's first
    visit reads them), each held to the direct convolution above."""
    rows = planner.grid_table()
    keys = [(a, k, sim) for n, a, k, sim in planner.grid_keys() if n == planner.PLANNER_PEOPLE[0] and k <= 50
            and (sim or a not in planner.PLANNER_ACCURACY)
            and dp.release_epsilon(a, planner.release_confidence(0.95, k) if sim else 0.95) <= 3]
    rng = np.random.default_rng(52)
    for i in rng.choice(len(keys), 8, replace=False):
        a, k, sim = keys[i]
        eps = dp.release_epsilon(a, planner.release_confidence(0.95, k) if sim else 0.95)
        low, high = _tv_bounds(k, eps)
        guess = rows[(planner.PLANNER_PEOPLE[0], a, k, sim)][3]
        assert 0.5 * (1 + low) - 1e-9 <= guess <= 0.5 * (1 + high) + 1e-6, (a, k, sim)


@pytest.mark.parametrize("releases", [100, 1_000, 5_000])
def test_past_the_accountants_range_the_exact_total_is_shifted_by_k_times_the_extra_epsilon(releases):
    """α/Δf = 0.01 all at once asks ε = 1,221 per release, past the accountant's reach (its exponentials overflow
    near 710): the planner shifts the total at ε₀ = 500 by k(ε₀ − 500). Where the accountant still reaches
    (ε₀ = 690), the shift gives what it computes."""
    delta = 1e-7
    direct = dp.exact_laplace_epsilon(releases, 690.0, delta)
    assert planner._exact_total(releases, 690.0, delta) == pytest.approx(direct, rel=1e-6)     # its precision: 1.2e-5
    plan = dp.plan_budget(1_000, releases, 1, sensitivity=100, simultaneous=True)
    assert plan.per_release > 710 and plan.exact <= plan.basic and plan.exact >= plan.basic - 10 * releases
    assert plan.exact_guess == pytest.approx(1.0, abs=1e-12)


def test_a_plan_without_its_exact_total_says_so():
    plan = dp.plan_budget(**WEEKLY, sensitivity=3, exact=False)
    assert math.isnan(plan.exact) and math.isnan(plan.exact_guess) and math.isnan(plan.worst_guess)
    assert plan.basic == dp.plan_budget(**WEEKLY, sensitivity=3).basic
    assert "exact not computed" in repr(plan) and "these Laplace releases not computed" in repr(plan)
    with pytest.raises(ValueError, match="exact"):
        dp.plan_budget(**WEEKLY, exact="no")
