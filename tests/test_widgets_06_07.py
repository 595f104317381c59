"""Chapters 06 and 07: sliders drive figures, and what they draw is the book's maths.

Like tests/test_widgets.py: no browser; setting a control fires the same callback a drag
does, and ``Interactive.result`` holds the numbers the figure was drawn with.
"""

import math

import numpy as np
import pytest
from conftest import assert_checker_contract

import dpteach as dp
from dpteach import exercises, plots, widgets

# -- chapter 06 -----------------------------------------------------------------------------------

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


# -- chapter 07 -----------------------------------------------------------------------------------

def test_noisy_max_figure_agrees_with_theory():
    """The measured frequency of picking the top name is within 4 binomial standard errors of the exact
    probability at each ε (200 runs; false-positive rate about 6e-5 per point)."""
    w = widgets.noisy_max()
    for people in plots.NoisyMaxFigure.TOWNS:
        exact, measured = w.figure.curves(people)
        exact_at = np.interp(np.log(w.figure.measured_grid), np.log(w.figure.grid), exact)
        se = np.sqrt(np.maximum(exact_at * (1 - exact_at), 1e-4) / w.figure.runs)
        assert (np.abs(measured - exact_at) < 4 * se + 0.02).all(), people
        assert np.all(np.diff(exact) > -1e-9), "more ε never makes the top name less likely"
    r = w.set(people=5_000, epsilon=1.0)
    counts = r["counts"]
    two = dp.report_noisy_max_probabilities(np.sort(counts)[-2:], 1.0)
    assert r["p_best"] == pytest.approx(two[1], abs=0.01)      # the runner-up 2 behind is the only rival
    assert r["shown"].sum() == pytest.approx(1)


def test_noisy_max_refuses_a_town_it_does_not_have():
    with pytest.raises(ValueError, match="people must be one of"):
        widgets.noisy_max(people=1234)


def test_exponential_choice_is_definition_3_4():
    w = widgets.exponential_choice()
    r = w.set(epsilon=0.5)
    assert np.allclose(r["probabilities"], dp.exponential_mechanism_probabilities([47, 43, 31, 22, 12], 2, 0.5))
    assert np.abs(r["measured"] - r["probabilities"]).max() < 0.05     # 2,000 runs: SE ≤ 0.011
    assert r["best"] == "Lisbon"
    with pytest.raises(ValueError, match="one entry per utility"):
        plots.ExponentialMechanismFigure(["a"], [1, 2], 1)


def test_above_threshold_stream_matches_its_law():
    w = widgets.above_threshold_stream()
    r = w.result
    assert r["first_above"] == 7 and r["p_first_above"] > 0.99       # John, far above T = 150 at ε = 1
    r = w.set(threshold=112, epsilon=0.5)
    assert r["probabilities"].sum() == pytest.approx(1, abs=1e-8)
    assert np.abs(r["measured"] - r["probabilities"]).max() < 0.05    # 2,000 runs: SE ≤ 0.011
    assert r["alpha"] == pytest.approx(dp.above_threshold_accuracy(10, 0.05, 0.5))


# -- checkers -------------------------------------------------------------------------------------

CASES = [
    (exercises.check_session_spend, 0.7, 1.0),
    (exercises.check_queries_bought, 337, 100),
    (exercises.check_split_variance, 4.0, 2.0),
    (exercises.check_noisy_max_upset, 0.25 * math.exp(-1) * 3, 0.5),
    (exercises.check_exponential_probability,
     float(dp.exponential_mechanism_probabilities([47, 43, 31, 22, 12], 2, 0.5)[1]), 0.2),
    (exercises.check_above_threshold_alpha, 16 * (math.log(1000) + math.log(40)), 8),
]


@pytest.mark.parametrize("check,right,wrong", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_checker_accepts_the_right_answer_and_refuses_a_wrong_one(check, right, wrong):
    assert_checker_contract(check, right, wrong)


def test_checkers_name_the_typical_mistake():
    assert "parallel" in exercises.check_session_spend(1.0).message
    forgot_two = float(dp.exponential_mechanism_probabilities([47, 43, 31, 22, 12], 1, 0.5)[1])
    assert "2Δu" in exercises.check_exponential_probability(forgot_two).message
