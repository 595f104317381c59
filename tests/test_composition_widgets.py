"""Composition widgets (Dwork & Roth 2014, §3.5; Proposition 2.1): sliders drive figures, and what they
draw is the book's maths.

No browser: setting a control fires the same callback a drag does, and ``Interactive.result`` holds the
numbers the figure was drawn with.
"""

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach import exercises, plots, widgets
from dpteach.composition import advanced_composition_crossover

# -- composition ----------------------------------------------------------------------------------

def test_averaging_figure_is_theorem_3_16_and_the_variance_formula():
    """Split: std √(2k)·Δf/ε and ε spent; attack: std √2·Δf/(ε√k) and kε spent. Measured within 5%
    (2,000 sessions: the sample std's relative error is about 1/√(2·2000) ≈ 1.6% for Gaussian-like
    averages, a little more for k = 1; 5% is over 3 standard errors)."""
    w = widgets.sequential_averaging()
    for k, eps in ((1, 1.0), (2, 1.0), (10, 0.5), (50, 3.0)):
        r = w.set(k=k, epsilon=eps)
        assert r["split_std"] == pytest.approx(math.sqrt(2 * k) / eps)
        assert r["attack_std"] == pytest.approx(math.sqrt(2 / k) / eps)
        assert r["split_measured"] == pytest.approx(r["split_std"], rel=0.05)
        assert r["attack_measured"] == pytest.approx(r["attack_std"], rel=0.05)
        assert (r["split_spent"], r["attack_spent"]) == pytest.approx((eps, k * eps))


def test_advanced_composition_figure_matches_the_calculators():
    w = widgets.advanced_composition()
    r = w.result
    assert r["advanced"] == pytest.approx(dp.advanced_composition(100, 0.1, 1e-6)[0])
    assert r["basic"] == pytest.approx(10.0) and r["crossover"] == 35
    assert "basic 10, advanced 6.31" in w.figure.title()
    r = w.set(epsilon=1.0, k=20)
    assert r["crossover"] is None and r["best"] == r["basic"]
    assert "never wins" in w.figure.note.get_text()


def test_post_processing_never_hurts_and_the_total_helps_most():
    """Clamping never increases an error; projecting onto the public total is never farther in ℓ2 (and, on
    this sparse histogram, much better in mean |error| at every ε on the grid)."""
    w = widgets.post_processing()
    curves = w.figure.curves
    released, clamped, _rounded, projected = curves
    assert (clamped <= released + 1e-12).all()
    assert (projected < released).all()
    r = w.set(epsilon=1.0)
    assert r["released"] == pytest.approx(1.0, rel=0.05)          # E|Y| = 1/ε over 100,000 cell draws
    assert r["gain"] > 3


def test_budget_figure_draws_the_ledger():
    budget = dp.PrivacyBudget(1.0)
    budget.spend(0.25, label="count")
    budget.spend_parallel([0.5, 0.5], label="histogram")
    fig = plots.BudgetFigure(budget)
    assert fig.spent == [0.25, 0.5] and "2 charges spent ε = 0.75 of 1" in fig.title()
    with pytest.raises(TypeError, match="PrivacyBudget"):
        plots.BudgetFigure(1.0)


# -- checkers -------------------------------------------------------------------------------------

CASES = [
    (exercises.check_session_spend, 0.7, 1.0),
    (exercises.check_queries_bought, 84, 50),          # ε = 0.02 each within ε′ = 1: 84 (basic composition: 50)
    (exercises.check_split_variance, 4.0, 2.0),
]


@pytest.mark.parametrize("check,right,wrong", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_checker_accepts_the_right_answer_and_refuses_a_wrong_one(check, right, wrong):
    assert_checker_contract(check, right, wrong)


def test_checkers_name_the_typical_mistake():
    assert "parallel" in exercises.check_session_spend(1.0).message


def test_averaging_axes_hold_every_curve_over_the_slider_range():
    """Fixed axes: at both ends of the ε slider and of k, every theory curve stays inside the limits."""
    w = widgets.sequential_averaging()
    fig = w.figure
    for eps in (w.controls["epsilon"].base ** w.controls["epsilon"].min, w.controls["epsilon"].base ** w.controls["epsilon"].max):
        for k in (1, fig.k_max):
            w.set(k=k, epsilon=eps)
            for ax, lines in ((fig.left, (fig.one_line, fig.split_line, fig.attack_line)),
                              (fig.right, (fig.split_cost, fig.attack_cost))):
                low, high = ax.get_ylim()
                for line in lines:
                    y = np.asarray(line.get_ydata())
                    assert (y >= low).all() and (y <= high).all(), (eps, k, line.get_label())


def test_advanced_composition_figure_marks_the_exact_crossover():
    w = widgets.advanced_composition()
    for eps, delta_prime in ((0.1, 1e-6), (0.001, 1e-9), (0.5, 1e-2)):
        r = w.set(epsilon=eps, delta_prime=delta_prime)
        assert r["crossover"] == advanced_composition_crossover(eps, delta_prime)
        assert w.figure.cross.get_xdata()[0] == r["crossover"]
        ks = w.figure.ks
        advanced = np.array([dp.advanced_composition(int(k), eps, delta_prime)[0] for k in ks])
        assert np.allclose(w.figure.advanced.get_ydata(), advanced, rtol=1e-12)
