"""Selection widgets (Dwork & Roth 2014, Claim 3.9, Definition 3.4, §3.6): sliders drive figures, and
what they draw is the book's maths.

No browser: setting a control fires the same callback a drag does, and ``Interactive.result`` holds the
numbers the figure was drawn with.
"""

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach import exercises, plots, widgets

# -- selection ------------------------------------------------------------------------------------

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
    (exercises.check_noisy_max_upset, 0.25 * math.exp(-1) * 3, 0.5),
    (exercises.check_exponential_probability,
     float(dp.exponential_mechanism_probabilities([47, 43, 31, 22, 12], 2, 0.5)[1]), 0.2),
    (exercises.check_above_threshold_alpha, 16 * (math.log(1000) + math.log(40)), 8),
]


@pytest.mark.parametrize("check,right,wrong", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_checker_accepts_the_right_answer_and_refuses_a_wrong_one(check, right, wrong):
    assert_checker_contract(check, right, wrong)


def test_checkers_name_the_typical_mistake():
    forgot_two = float(dp.exponential_mechanism_probabilities([47, 43, 31, 22, 12], 1, 0.5)[1])
    assert "2Δu" in exercises.check_exponential_probability(forgot_two).message


def test_noisy_max_computes_every_town_when_built(monkeypatch):
    """A first visit to a town integrates nothing: its curves were computed with the figure."""
    fig = plots.NoisyMaxFigure(dp.census_first_names())
    def refuse(*args, **kwargs):
        raise AssertionError("an integral computed after the figure was built")
    monkeypatch.setattr("dpteach.plots.selection.report_noisy_max_probabilities", refuse)
    for people in plots.NoisyMaxFigure.TOWNS:
        exact, measured = fig.curves(people)
        assert exact.shape == fig.grid.shape and measured.shape == fig.measured_grid.shape


def test_bars_are_one_stairs_artist_with_the_probabilities():
    w = widgets.exponential_choice()
    r = w.set(epsilon=0.5)
    heights = w.figure.bars.get_data().values
    assert np.array_equal(heights[::2], r["probabilities"]) and not heights[1::2].any()
    r = widgets.above_threshold_stream().set(epsilon=0.01)
    fig = widgets.above_threshold_stream().figure
    fig.update(0.01, 150.0)
    assert np.array_equal(fig.prob_bars.get_data().values[::2], r["probabilities"][:-1])
    assert fig.none_bar.get_data().values[0] == r["probabilities"][-1]
