"""The budget planner's controls (issue 52): k = 40 typed, a contribution cap, "all at once", the best guesses,
and the figure's text alternatives kept current with them."""

from __future__ import annotations

import pytest

import dpteach as dp


@pytest.fixture(scope="module")
def planner_widget():
    return dp.widgets.budget_planner()


def test_k_40_is_taken_and_draws_the_plan_budget_computes(planner_widget):
    w = planner_widget
    drawn = w.set(people=10_000, accuracy=50, releases=40, cap=1, all_at_once=False)
    assert drawn["releases"] == 40 and w.status.value == ""
    plan = dp.plan_budget(10_000, 40, 50)
    for field in ("per_release", "basic", "optimal", "exact", "gaussian", "worst_guess", "exact_guess",
                  "gaussian_guess"):
        assert drawn[field] == getattr(plan, field), field
    title = w.figure.ax.get_title()
    assert "total ε of 40" in title and f"{plan.exact_guess:.1%} Laplace" in title
    assert f"≤ {plan.worst_guess:.1%} any ε-DP" in title
    assert f"{plan.exact_guess:.1%}" in w.figure.alt_text()
    table = w.figure.data_table()
    assert table["rows"][-1][0] == "40 (now)" and f"{plan.exact_guess:.1%}" in table["caption"]


def test_the_cap_and_all_at_once_reach_the_plan_and_the_text(planner_widget):
    w = planner_widget
    drawn = w.set(people=10_000, accuracy=50, releases=40, cap=3, all_at_once=True)
    plan = dp.plan_budget(10_000, 40, 50, sensitivity=3, simultaneous=True)
    assert drawn["exact"] == plan.exact and drawn["per_release"] == plan.per_release
    assert "all at once, Δf = 3" in w.figure.ax.get_title()
    assert "all 40 counts ±50 at once at 95% (cap Δf = 3)" in w.figure.alt_text()
    # the curves are the same plans at every k of the grid
    curve = w.figure.curves["exact"].get_ydata()
    assert curve[0] == dp.plan_budget(10_000, 1, 50, sensitivity=3, simultaneous=True).exact


def test_the_round_value_slider_moves_k_and_k_is_refused_outside_its_range(planner_widget):
    w = planner_widget
    w.controls["k_steps"].value = 50
    assert w.controls["releases"].value == 50 and w.result["releases"] == 50
    for bad in (0, 10_001, 2.5, "40"):
        with pytest.raises(ValueError, match="releases"):
            w.set(releases=bad)
    with pytest.raises(ValueError, match="cap"):
        w.set(cap=4)
    with pytest.raises(ValueError, match="releases"):
        dp.widgets.budget_planner(releases=0)


@pytest.mark.parametrize("bad, name", [({"cap": 0.5}, "cap"), ({"all_at_once": "yes"}, "all_at_once")])
def test_the_figure_refuses_bad_values_by_name(bad, name):
    fig = dp.plots.BudgetPlannerFigure()
    with pytest.raises(ValueError, match=name):
        fig.update(**{"people": 10_000, "releases": 40, "accuracy": 50, **bad})
