"""Chapters 04 and 05: sliders drive figures, and what they draw is the book's maths.

Like tests/test_widgets.py: no browser; setting a control fires the same callback a drag
does, and ``Interactive.result`` holds the numbers the figure was drawn with.
"""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import plots, widgets


def test_a_count_error_is_one_over_epsilon_whatever_n():
    """Example 3.1: E|Y| = 1/ε at every n; measured means of 2,000 releases within 5 standard errors."""
    w = widgets.count_error_by_size()
    for n, eps in ((10, 1.0), (1_000_000, 0.5), (100_000_000, 4.0)):
        r = w.set(n=n, epsilon=eps)
        assert r["expected_abs_error"] == pytest.approx(1 / eps)
        assert r["relative_error"] == pytest.approx((1 / eps) / r["count"])
        assert np.all(np.abs(r["measured_abs_error"] - 1 / eps) < 5 * (1 / eps) / math.sqrt(2_000))
    assert "at any n" in w.figure.title()


def test_counts_need_k_times_the_noise_of_a_histogram():
    w = widgets.counting_vs_histogram()
    for k in (1, 10, 1_000):
        r = w.set(k=k, epsilon=0.5)
        assert r["counts_scale"] == pytest.approx(k / 0.5) and r["histogram_scale"] == pytest.approx(2.0)
        assert r["counts_mean"] == pytest.approx(k * r["histogram_mean"])


def test_accuracy_bound_figure_draws_theorem_3_8():
    w = widgets.accuracy_bound()
    r = w.result
    assert r["bound"] == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.05, 1, 1))
    assert r["errors"].shape == (500,)
    assert r["ci"][0] <= 0.05                 # Theorem 3.8 is not contradicted (seeded, 95% interval)
    assert "bound 12.2" in w.figure.title()
    for k in plots.AccuracyBoundFigure.K_OPTIONS[::4]:
        for delta in (0.001, 0.05, 1.0):
            r = w.set(k=k, delta=delta, epsilon=0.3)
            assert r["bound"] == pytest.approx(dp.laplace_accuracy_bound(k, delta, 1, 0.3))
            assert r["exact"] <= delta * (1 + 1e-12)


def test_accuracy_bound_refuses_a_k_it_has_no_noise_for():
    with pytest.raises(ValueError, match="k must be one of"):
        widgets.accuracy_bound(k=7)
    with pytest.raises(ValueError, match="k must be one of"):
        plots.AccuracyBoundFigure(runs=20).update(1.0, 0.05, 7)


def test_name_reliability_shows_large_names_exact_and_empty_names_as_noise():
    """At ε = 1 the most common name is exact to a tiny fraction of a percent; the unused cells are
    pure noise, about half of it negative."""
    w = widgets.name_reliability()
    r = w.result
    data = dp.census_first_names()
    assert r["relative"].shape == (data.n_listed,) and r["unused"].shape == (data.k - data.n_listed,)
    assert r["largest_name_relative_error"] < 1e-5
    assert r["max_relative_error"] < 0.01
    assert 0.4 < r["negative_unused"] / r["unused"].size < 0.6
    r = w.set(epsilon=0.01)
    assert r["max_relative_error"] > 0.1        # at ε = 0.01 the rarest names are noisy


def test_marketing_noise_crossover_is_two_c_over_epsilon_squared():
    w = widgets.marketing_noise()
    assert w.result["crossover"] == 50.0 and round(w.result["linf_bound"], 1) == 47.0
    r = w.set(cap=3, epsilon=0.5)
    assert r["crossover"] == pytest.approx(72.0) and r["variance"] == pytest.approx(72.0)


def test_delta_slider_spans_a_thousandth_to_one_on_a_log_scale():
    s = widgets.delta_slider()
    assert math.isclose(s.base ** s.min, 0.001) and math.isclose(s.base ** s.max, 1.0)
    assert s.description.startswith("β")      # the failure probability is β in the chapters; δ is (ε, δ)-DP's


@pytest.mark.parametrize("presentation", [False, True])
def test_accuracy_bound_title_fits_in_the_figure(presentation):
    """The title stays inside the figure at the longest slider values, in the laptop and the projector style."""
    try:
        plots.presentation(presentation)
        w = widgets.accuracy_bound()
        for k, epsilon, beta in ((10_000, 0.0123, 0.00123), (10_000, 1.0, 0.05), (1, 9.87, 0.0123)):
            w.set(k=k, epsilon=epsilon, delta=beta)
            fig = w.figure.fig
            plots.png_bytes(fig)
            box = w.figure.ax.title.get_window_extent(fig.canvas.get_renderer())
            assert box.x0 >= 0 and box.x1 <= fig.bbox.width, w.figure.title()
            assert "β" in w.figure.title() and "δ" not in w.figure.title()
    finally:
        plots.presentation(False)


def test_a_choice_slider_refuses_a_value_it_does_not_offer():
    with pytest.raises(ValueError, match="n must be one of"):
        widgets.count_error_by_size(n=1234)
