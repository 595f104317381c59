"""The budget planner (issue 44): accuracy → ε per release, data size → δ, releases → totals, and its table.

Each number is held to an independent statement of what it means: the ε per release to Fact 3.7 through
the Laplace CDF, the Gaussian σ to the normal CDF, δ to the record-publishing mechanism (whose (0, δ)-DP is
checked by enumerating every output of a small one), the totals to the order the theorems put them in, and
the shipped table to the functions it was computed with (a sample here, every row in the slow tier).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import planner
from dpteach._special import norm_cdf


@pytest.mark.parametrize("accuracy, confidence, sensitivity", [(10, 0.95, 1), (1, 0.95, 1), (250, 0.99, 3),
                                                               (0.5, 0.5, 2)])
def test_release_epsilon_puts_the_error_beyond_accuracy_with_probability_one_minus_confidence(accuracy, confidence,
                                                                                             sensitivity):
    eps = dp.release_epsilon(accuracy, confidence, sensitivity)
    b = dp.laplace_scale(sensitivity, eps)
    beyond = 1 - (dp.laplace_cdf(accuracy, b) - dp.laplace_cdf(-accuracy, b))     # Pr[|Y| ≥ α], Definition 3.2
    assert beyond == pytest.approx(1 - confidence, rel=1e-12)


@pytest.mark.parametrize("accuracy, confidence", [(10, 0.95), (1, 0.99), (300, 0.5)])
def test_the_gaussian_of_the_same_accuracy_is_within_it_with_the_same_probability(accuracy, confidence):
    std = planner.gaussian_std_for(accuracy, confidence)
    assert 2 * norm_cdf(-accuracy / std) == pytest.approx(1 - confidence, rel=1e-12)


def test_delta_is_a_hundredth_of_a_record():
    for n in planner.PLANNER_PEOPLE:
        expected, at_least_one = dp.record_release_risk(dp.planner_delta(n), n)
        assert expected == pytest.approx(0.01, rel=1e-12) and 0.0099 < at_least_one < 0.01


def test_at_delta_one_over_n_the_record_publisher_publishes_about_one_record():
    for n in (10, 2_000, 10**6):
        expected, at_least_one = dp.record_release_risk(1 / n, n)
        assert expected == pytest.approx(1.0, rel=1e-12)
        assert at_least_one == pytest.approx(1 - (1 - 1 / n) ** n, rel=1e-9)
        assert 0.63 < at_least_one < 1 - (1 - 1 / 10) ** 10 + 1e-12        # (1 − 1/n)^n rises to 1/e
    assert dp.record_release_risk(0.0, 5) == (0.0, 0.0) and dp.record_release_risk(1.0, 5) == (5.0, 1.0)


@pytest.mark.parametrize("delta", [0.0, 0.1, 1 / 3, 0.9])
def test_the_record_publisher_is_zero_delta_dp_by_enumerating_every_output(delta):
    """Three records, each published with probability δ: for neighbours x (records 0, 1, 2) and y (records 0, 1),
    every set S of outputs (a set of subsets of the records) has Pr[M(x) ∈ S] ≤ Pr[M(y) ∈ S] + δ and the
    reverse (Dwork & Roth §2.3); and some S reaches δ, so no smaller δ holds."""
    def distribution(records):
        out = {}
        for shown in itertools.product([False, True], repeat=len(records)):
            p = math.prod(delta if s else 1 - delta for s in shown)
            key = frozenset(r for r, s in zip(records, shown) if s)
            out[key] = out.get(key, 0.0) + p
        return out

    px, py = distribution([0, 1, 2]), distribution([0, 1])
    outputs = sorted(set(px) | set(py), key=sorted)
    worst = 0.0
    for size in range(len(outputs) + 1):
        for event in itertools.combinations(outputs, size):
            a, b = sum(px.get(o, 0.0) for o in event), sum(py.get(o, 0.0) for o in event)
            assert a <= b + delta + 1e-12 and b <= a + delta + 1e-12
            worst = max(worst, a - b, b - a)
    assert worst == pytest.approx(delta, abs=1e-12)


def test_a_plan_orders_its_totals_as_the_theorems_do():
    for n, a, k in itertools.product(planner.PLANNER_PEOPLE[::2], planner.PLANNER_ACCURACY[::3],
                                     planner.PLANNER_RELEASES[::3]):
        plan = dp.plan_budget(n, k, a)
        assert plan.per_release == pytest.approx(math.log(20) / a, rel=1e-12)
        assert plan.basic == pytest.approx(k * plan.per_release, rel=1e-12)
        assert plan.delta == pytest.approx(0.01 / n, rel=1e-12)
        assert plan.optimal <= plan.basic * (1 + 1e-12) and plan.optimal <= plan.advanced * (1 + 1e-12)
        assert plan.exact <= plan.optimal * (1 + 1e-4)     # Laplace is one ε-DP mechanism; 1e-4: its grid
        assert plan.gaussian == pytest.approx(dp.gdp_epsilon(plan.delta, math.sqrt(k) / plan.gaussian_std),
                                              rel=1e-12)
        assert plan.gaussian_per_release == pytest.approx(dp.gdp_epsilon(plan.delta, 1 / plan.gaussian_std),
                                                          rel=1e-12)


def test_off_the_grid_a_plan_is_computed_and_agrees_with_the_grid_nearby():
    on, off = dp.plan_budget(10_000, 100, 10), dp.plan_budget(10_000, 101, 10)
    assert on.exact < off.exact < on.exact * 1.02 and on.optimal < off.optimal
    at_99 = dp.plan_budget(10_000, 100, 10, confidence=0.99)
    assert at_99.per_release == pytest.approx(math.log(100) / 10) and at_99.exact > on.exact


def test_gaussian_noise_of_the_same_accuracy_costs_more_for_one_release_and_less_for_many():
    """Chapter 06's claim about the planner's green curve, on every n and α of its grid."""
    for n, a in itertools.product(planner.PLANNER_PEOPLE, planner.PLANNER_ACCURACY):
        one, many = dp.plan_budget(n, 1, a), dp.plan_budget(n, max(planner.PLANNER_RELEASES), a)
        assert one.gaussian > one.exact
        assert many.gaussian < min(many.exact, many.optimal)


def test_the_chapters_numbers_for_the_record_publisher():
    """Chapter 06: at δ = 1/n about one record (at least one with probability 1 − (1 − 1/n)^n, 63.2% for the town
    of 2,000); 60,000 records at δ = 10⁻⁵: 0.6 records on average, at least one with probability 45.1%."""
    assert round(dp.record_release_risk(1 / 2_000, 2_000)[1], 3) == 0.632
    expected, at_least_one = dp.record_release_risk(1e-5, 60_000)
    assert expected == pytest.approx(0.6) and round(at_least_one, 3) == 0.451


def _grid():
    return list(itertools.product(planner.PLANNER_PEOPLE, planner.PLANNER_ACCURACY, planner.PLANNER_RELEASES))


#: How far a shipped value may be from the functions' (far inside the exact accountant's own precision, ~10⁻⁵).
RTOL = 1e-7


def _check_rows(rows):
    """The table's values against the functions, to 1e-7 relative (RTOL): the accountant's FFTs round the last bits
    differently from one process to another (seen under pytest-xdist) and from one numpy to another (the table is
    built with the test lock's numpy; Python 3.10's lock has an older one: up to 1.7·10⁻⁹ apart at a total of 494,491)."""
    table = planner.table()
    for n, a, k in rows:
        assert table[(n, float(a), k)] == pytest.approx(planner._computed(n, k, a, planner.CONFIDENCE), rel=RTOL), \
            (n, a, k)


def _check_grid_rows(keys):
    """Rows of the whole grid (a cap, all at once) against the functions: the totals and the exact best guess (to RTOL,
    as _check_rows)."""
    rows = planner.grid_table()
    for key in keys:
        assert rows[key] == pytest.approx(planner.row_values(*key), rel=RTOL), key


def _beyond_the_first_grid(cheap: bool):
    """The rows a cap or "all at once" added (α/Δf off PLANNER_ACCURACY, or all at once); ``cheap``: k ≤ 1,000 and
    ε per release ≤ 10 (a fraction of a second each)."""
    keys = [key for key in planner.grid_keys() if key[3] or key[1] not in planner.PLANNER_ACCURACY]
    if cheap:
        keys = [(n, a, k, sim) for n, a, k, sim in keys if k <= 1_000 and a >= 0.5]
    return keys


def test_the_shipped_table_is_what_the_functions_compute_on_a_sample():
    rng = np.random.default_rng(44)
    grid = _grid()
    cheap = [row for row in grid if row[2] <= 1_000]
    _check_rows([grid[0], grid[-1]] + [cheap[i] for i in rng.choice(len(cheap), 12, replace=False)])
    added = _beyond_the_first_grid(cheap=True)
    _check_grid_rows([added[i] for i in rng.choice(len(added), 12, replace=False)])


@pytest.mark.slow
def test_the_shipped_table_is_what_the_functions_compute_everywhere():
    """Every row of the first grid (Δf = 1, each count), and 200 of the rows a cap or "all at once" added (every one
    would take ten minutes or more)."""
    _check_rows(_grid())
    added = _beyond_the_first_grid(cheap=False)
    rng = np.random.default_rng(52)
    _check_grid_rows([added[i] for i in rng.choice(len(added), 200, replace=False)])


def test_the_shipped_table_s_header_is_what_the_rebuild_writes():
    """The header once said "exact (inf: beyond the accountant)" after every total had become finite (issue 51)."""
    from importlib import resources
    shipped = resources.files("dpteach").joinpath("data", "planner_totals.csv").read_text(encoding="ascii")
    assert [line for line in shipped.splitlines() if line.startswith("#")] == list(planner.TABLE_COMMENT)
    assert "inf" not in " ".join(planner.TABLE_COMMENT)


def test_the_table_lacks_no_row_and_holds_finite_totals():
    table = planner.table()
    assert len(table) == len(_grid())
    assert all(math.isfinite(v) and v > 0 for row in table.values() for v in row)
    rows = planner.grid_table()
    assert set(rows) == set(planner.grid_keys())
    assert all(math.isfinite(v) and v > 0 for row in rows.values() for v in row)
    assert all(0.5 <= row[3] <= 1 for row in rows.values())                        # a best guess is a probability


def test_the_shipped_rows_of_the_first_grid_are_the_ones_each_count_at_delta_f_1():
    """table() is grid_table()'s rows at α/Δf = α, each count: one file, no second copy to drift."""
    rows = planner.grid_table()
    for (n, a, k), values in planner.table().items():
        assert values == rows[(n, a, k, False)][:3]


def test_the_planner_figure_draws_the_plan_it_reports():
    w = dp.widgets.budget_planner()
    for values in ({"people": 1_000, "releases": 10_000, "accuracy": 1}, {"people": 100_000_000, "releases": 1,
                                                                          "accuracy": 1_000}, {}):
        drawn = w.set(**values) if values else w.reset()
        plan = dp.plan_budget(drawn["people"], drawn["releases"], drawn["accuracy"])
        for field in ("per_release", "basic", "advanced", "optimal", "exact", "gaussian", "delta"):
            assert drawn[field] == getattr(plan, field), field
        low, high = w.figure.ax.get_ylim()
        totals = (plan.basic, plan.optimal, plan.exact, plan.gaussian)
        assert low <= min(totals) and max(totals) <= high       # only the advanced bound may leave the axes
    assert "ε = 0.3 each" in w.figure.ax.get_title()


@pytest.mark.parametrize("call, named", [
    (lambda: dp.plan_budget(0, 10, 10), "people"),
    (lambda: dp.plan_budget(100, 0, 10), "releases"),
    (lambda: dp.plan_budget(100, 10, -1), "accuracy"),
    (lambda: dp.plan_budget(100, 10, 10, confidence=1.0), "confidence"),
    (lambda: dp.release_epsilon(10, confidence=1.0), "confidence"),
    (lambda: dp.record_release_risk(1.5, 10), "delta"),
])
def test_bad_input_is_refused_naming_the_parameter(call, named):
    with pytest.raises(ValueError, match=named):
        call()
