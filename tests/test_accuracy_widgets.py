"""Chapter 05's sliders (Theorem 3.8, Example 3.3, a capped report): the book's maths, on fixed axes.

Like tests/test_laplace_widgets.py: no browser; setting a control fires the same callback a drag
does, and ``Interactive.result`` holds the numbers the figure was drawn with. Blitted frames
against full draws, and the cached background over a sweep, are tested in tests/test_render.py.
"""

import math

import numpy as np
import pytest

import dpteach as dp
from dpteach import plots, widgets
from dpteach.accuracy import linf_error_density


def test_accuracy_bound_figure_draws_theorem_3_8():
    w = widgets.accuracy_bound()
    r = w.result
    assert r["bound"] == pytest.approx(dp.laplace_accuracy_bound(10_000, 0.05, 1, 1))
    assert r["errors"].shape == (500,)
    assert r["ci"][0] <= 0.05                 # Theorem 3.8 is not contradicted (fixed seed, 95% interval)
    assert "bound 12.2" in w.figure.title()
    for k in plots.AccuracyBoundFigure.K_OPTIONS[::4]:
        for beta in (0.001, 0.05, 1.0):
            r = w.set(k=k, beta=beta, epsilon=0.3)
            assert r["bound"] == pytest.approx(dp.laplace_accuracy_bound(k, beta, 1, 0.3))
            assert r["exact"] <= beta * (1 + 1e-12)
            assert r["beyond"] == int((r["errors"] >= r["bound"]).sum())
            assert r["ci"] == dp.binomial_ci(r["beyond"], 500)


def test_accuracy_bound_draws_errors_and_bound_in_noise_scales():
    """The error axis is in units of b = Δf/ε: the bound line sits at ln(k/β), the histogram counts
    errors / b, and the curve is runs × bin width × the exact density of the largest of k |Lap(1)|."""
    w = widgets.accuracy_bound()
    fig = w.figure
    limits = (fig.ax.get_xlim(), fig.ax.get_ylim())
    for k, beta, eps in ((1, 1.0, 10.0), (100, 0.05, 1.0), (10_000, 0.001, 0.01)):
        r = w.set(k=k, beta=beta, epsilon=eps)
        b = 1 / eps
        assert fig.bound.get_xdata()[0] == pytest.approx(math.log(k / beta))
        heights, edges, _ = fig.hist.get_data()
        assert np.array_equal(heights, np.histogram(r["errors"] / b, edges)[0])
        assert heights.sum() == 500                       # no release falls off the axis
        x, y = fig.pdf.get_data()
        width = edges[1] - edges[0]
        assert y == pytest.approx(500 * width * linf_error_density(x, k, 1, 1))
        assert (fig.ax.get_xlim(), fig.ax.get_ylim()) == limits
        assert max(heights.max(), y.max()) < limits[1][1]


def test_accuracy_bound_note_says_when_the_bound_leaves_the_axis():
    fig = plots.AccuracyBoundFigure(runs=20)
    fig.update(1.0, 1e-9, 10_000)                     # ln(10^13) = 29.9 noise scales
    assert "the bound is beyond this axis" in fig.note.get_text()
    fig.update(1.0, 0.05, 10_000)
    assert "beyond this axis" not in fig.note.get_text()


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


def test_name_reliability_axes_hold_the_cloud_and_the_bound_at_every_epsilon():
    """Fixed log axes: the bound line and the largest relative error stay inside at both ends of the
    slider; at most 1% of the names fall below the axis (at ε = 10), and the note counts them."""
    w = widgets.name_reliability()
    fig = w.figure
    low, high = fig.left.get_ylim()
    for eps in (0.01, 10.0):
        r = w.set(epsilon=eps)
        assert fig.bound_line.get_ydata().max() < high and r["max_relative_error"] < high
        below = int((r["relative"] < low).sum())
        assert below <= 0.01 * r["relative"].size
        assert (f"{below:,} names below the axis" in fig.note.get_text()) == (below > 0)
        assert fig.left.get_ylim() == (low, high)


def test_marketing_noise_crossover_is_two_c_over_epsilon_squared():
    w = widgets.marketing_noise()
    assert w.result["crossover"] == 50.0 and round(w.result["linf_bound"], 1) == 47.0
    r = w.set(cap=3, epsilon=0.5)
    assert r["crossover"] == pytest.approx(72.0) and r["variance"] == pytest.approx(72.0)


def test_marketing_noise_axes_hold_both_ends_and_say_where_the_crossover_went():
    w = widgets.marketing_noise()
    fig = w.figure
    low, high = fig.ax.get_ylim()
    r = w.set(cap=20, epsilon=0.01)
    assert r["linf_bound"] < high and "right of the axes" in fig.note.get_text()
    r = w.set(cap=1, epsilon=10.0)
    assert low < r["std"] and "left of the axes" in fig.note.get_text()
    assert fig.shade.get_width() == 0.0
    w.set(cap=5, epsilon=1.0)
    assert not fig.note.get_visible()
    assert fig.ax.get_ylim() == (low, high)


def test_beta_slider_spans_a_thousandth_to_one_on_a_log_scale():
    s = widgets.beta_slider()
    assert math.isclose(s.base ** s.min, 0.001) and math.isclose(s.base ** s.max, 1.0)
    assert s.description.startswith("β")      # the failure probability is β in the chapters; δ is (ε, δ)-DP's


@pytest.mark.parametrize("presentation", [False, True], ids=["laptop", "projector"])
@pytest.mark.parametrize("factory, extremes", [
    (widgets.accuracy_bound, [dict(k=10_000, epsilon=0.0123, beta=0.00123), dict(k=10_000, epsilon=1.0, beta=0.05),
                              dict(k=1, epsilon=9.87, beta=0.0123)]),
    (widgets.name_reliability, [dict(epsilon=0.0123), dict(epsilon=9.87)]),
    (widgets.marketing_noise, [dict(cap=20, epsilon=0.0123), dict(cap=1, epsilon=9.87)]),
], ids=["accuracy_bound", "name_reliability", "marketing_noise"])
def test_titles_fit_and_do_not_overlap_at_the_longest_slider_values(factory, extremes, presentation):
    """Every title stays inside the figure and clear of its neighbour, in the laptop and the projector style."""
    try:
        plots.presentation(presentation)
        w = factory()
        for values in extremes:
            w.set(**values)
            fig = w.figure.fig
            plots.png_bytes(fig)
            renderer = fig.canvas.get_renderer()
            boxes = [ax.title.get_window_extent(renderer) for ax in fig.axes]
            for ax, box in zip(fig.axes, boxes):
                assert box.x0 >= 0 and box.x1 <= fig.bbox.width, ax.get_title()
            for left, right in zip(boxes, boxes[1:]):
                assert not left.overlaps(right), [ax.get_title() for ax in fig.axes]
            assert "δ" not in w.figure.title()
    finally:
        plots.presentation(False)
