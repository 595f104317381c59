"""Chapter 04's sliders (Examples 3.1 and 3.2): what the figures draw is the book's maths, on fixed axes.

Like tests/test_laplace_widgets.py: no browser; setting a control fires the same callback a drag
does, and ``Interactive.result`` holds the numbers the figure was drawn with. Blitted frames
against full draws, and the cached background over a sweep, are tested in tests/test_render.py.
"""

import math

import numpy as np
import pytest

from dpteach import widgets


def test_a_count_error_is_one_over_epsilon_whatever_n():
    """Example 3.1: E|Y| = 1/ε at every n; measured means of 2,000 releases within 5 standard errors
    (a false-positive rate below 1e-6 per mean, for a seed drawn at random)."""
    w = widgets.count_error_by_size()
    for n, eps in ((10, 1.0), (1_000_000, 0.5), (100_000_000, 4.0)):
        r = w.set(n=n, epsilon=eps)
        assert r["expected_abs_error"] == pytest.approx(1 / eps)
        assert r["relative_error"] == pytest.approx((1 / eps) / r["count"])
        assert np.all(np.abs(r["measured_abs_error"] - 1 / eps) < 5 * (1 / eps) / math.sqrt(2_000))
        assert w.figure.abs_line.get_ydata()[0] == pytest.approx(1 / eps)
        assert w.figure.rel_line.get_ydata()[-1] == pytest.approx((1 / eps) / w.figure.count_line[-1])
    assert "at any n" in w.figure.title()
    assert f"{100_000_000:,}" in w.figure.bottom.get_title()


def test_count_error_axes_hold_every_epsilon_of_the_slider():
    """Fixed log axes: the 95% band ln(20)/ε and the relative error at both ends of the ε slider lie inside."""
    w = widgets.count_error_by_size()
    fig = w.figure
    limits = (fig.top.get_ylim(), fig.bottom.get_ylim())
    for eps in (0.01, 10.0):
        for n in (10, 100_000_000):
            r = w.set(n=n, epsilon=eps)
            low, high = fig.top.get_ylim()
            assert low < r["expected_abs_error"] and r["band"] < high
            low, high = fig.bottom.get_ylim()
            assert low < r["relative_error"] < high
            assert (fig.top.get_ylim(), fig.bottom.get_ylim()) == limits


def test_percentages_are_never_in_e_notation():
    from dpteach.plots.counting import _percent
    assert _percent(1 / 3) == "33.3%"
    assert _percent(0.1 / 30_000_000) == "0.000000333%"
    assert _percent(100 / 3) == "3,333%"
    assert all("e" not in _percent(10.0 ** -e) for e in range(12))


def test_counts_need_k_times_the_noise_of_a_histogram():
    w = widgets.counting_vs_histogram()
    for k in (1, 10, 1_000):
        r = w.set(k=k, epsilon=0.5)
        assert r["counts_scale"] == pytest.approx(k / 0.5) and r["histogram_scale"] == pytest.approx(2.0)
        assert r["counts_mean"] == pytest.approx(k * r["histogram_mean"])


def test_counting_axes_hold_every_line_at_both_ends_of_epsilon():
    """Every line, from its smallest value at ε = 10 to the largest at ε = 0.01, inside the fixed axes."""
    w = widgets.counting_vs_histogram()
    fig = w.figure
    low, high = fig.ax.get_ylim()
    for eps in (0.01, 10.0):
        w.set(epsilon=eps)
        for line in (fig.counts_line, fig.hist_line, fig.counts_max, fig.hist_max):
            y = line.get_ydata()
            assert low < y.min() and y.max() < high
        assert fig.ax.get_ylim() == (low, high)


def test_a_choice_slider_refuses_a_value_it_does_not_offer():
    with pytest.raises(ValueError, match="n must be one of"):
        widgets.count_error_by_size(n=1234)
